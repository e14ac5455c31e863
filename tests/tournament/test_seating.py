"""Direction of play and first bidder reach the table page and the blank score sheet; a
tournament frozen before these parameters existed keeps its rules and fingerprint."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from printing import pdfs
from rules import PRESETS
from scoring import services
from tests.factories.tournaments import make_tournament
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

V1_CLUB = Path(__file__).parents[1] / "rules" / "data" / "club-tournament-v1.json"


def test_table_page_names_dealer_and_first_bidder_by_the_rules(client, clerk, tournament):
    """Club tournament (seed 002): counter-clockwise, the player right of the dealer bids
    first and leads; positions are numbered in the direction of play, so the first bidder
    is the next position after the dealer."""
    table = tournament.round_set.get(number=1).tables.get(number=1)
    seats = services.table_seats(table)
    names = {s.position: s.registration.player.first_name for s in seats}
    dealer = services.dealer_for(table, len(seats), 1)
    bidder = services.first_bidder_for(tournament.ruleset, len(seats), dealer)
    assert bidder == (dealer + 1) % len(seats)
    client.force_login(clerk)
    page = client.get(reverse("scoring:table", args=[tournament.pk, 1, 1])).content.decode()
    assert "Gegen den Uhrzeigersinn: Platz 2 sitzt rechts von Platz 1" in page
    assert "es reizt zuerst der Spieler rechts vom Geber" in page
    assert f"Spiel 1: {names[dealer]} gibt, {names[bidder]} reizt zuerst und spielt aus." in page


def test_first_bidder_before_the_dealer_when_the_rules_say_so(db):
    """A club whose first bidder sits against the direction of play: the position before
    the dealer bids first."""
    ruleset = PRESETS["club-tournament"].with_overrides({"first_bidder": "left"})
    assert services.first_bidder_for(ruleset, 3, 0) == 2
    assert "links vom Geber" in services.seating_text(ruleset)


@pytest.mark.skipif(
    shutil.which("pdftotext") is None and not os.environ.get("CI"), reason="needs pdftotext"
)
def test_blank_score_sheet_states_direction_and_first_bidder(tournament):
    round_ = tournament.round_set.get(number=1)
    pdf = pdfs.score_sheets_pdf(round_, filled=False)
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    assert "gegen den Uhrzeigersinn, Platz 2 rechts von Platz 1" in text
    assert "Reizt zuerst" in text and "rechts vom Geber" in text


def test_tournament_frozen_before_the_seating_parameters_keeps_rules_and_fingerprint(db):
    stored = json.loads(V1_CLUB.read_text())
    tournament = make_tournament(players=3)
    Tournament.objects.filter(pk=tournament.pk).update(
        ruleset_json=stored, ruleset_fingerprint=stored["fingerprint"]
    )
    again = Tournament.objects.get(pk=tournament.pk)
    assert again.ruleset.fingerprint == again.ruleset_fingerprint == stored["fingerprint"]
    assert again.ruleset.version == 1
    # the rules it was frozen with: clockwise, left of the dealer bids first
    assert services.seating_text(again.ruleset).startswith("Im Uhrzeigersinn")
    pdf = pdfs.rules_pdf(again)
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    flat = " ".join(text.split())
    assert stored["fingerprint"] in flat and "im Uhrzeigersinn (nach links)" in flat
