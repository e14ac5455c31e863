"""Tie-breaks (issue 14.5): shared places by default; with "best single round" the best
round decides, then fewer lost games, and only then players share."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from django.urls import reverse

from scoring import selectors
from scoring.selectors import StandingRow, assign_places
from tests.factories.evenings import prize_evening, ranks
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_default_shares_places_on_equal_points():
    rows = selectors.standings(prize_evening())
    assert ranks(rows) == [(1, 1), (2, 1), (3, 1), (6, 1), (4, 5), (5, 5), (7, 7)]


def test_best_round_then_fewer_lost_then_shared():
    rows = selectors.standings(prize_evening(Tournament.TieBreak.BEST_ROUND))
    # 2 (best 300, 1 lost) before 1 and 6 (best 300, 2 lost: shared), then 3 (best 250);
    # 4 (best 400) before 5 (best 300); the next place after a shared one is skipped
    assert ranks(rows) == [(2, 1), (1, 2), (6, 2), (3, 4), (4, 5), (5, 6), (7, 7)]


def test_a_single_round_always_shares():
    rows = selectors.standings(prize_evening(Tournament.TieBreak.BEST_ROUND), round_number=2)
    assert [r.rank for r in rows if r.start_number in (2, 5)] == [1, 1]


def _row(number, rounds, lost, rank=0):
    return StandingRow(
        rank=rank,
        start_number=number,
        name="",
        club="",
        rounds=rounds,
        total=sum(p for p in rounds if p is not None),
        won=0,
        lost=lost,
        fee=None,
        registration_id=number,
    )


def test_assign_places_keeps_unplaced_rows_out_of_the_count():
    rows = [
        _row(1, [100, 100], 0),
        _row(2, [300, None], 0, rank=None),  # missed a round: listed without a place
        _row(3, [150, 50], 0),
        _row(4, [120, 80], 5),
    ]
    assign_places(rows, Tournament.TieBreak.BEST_ROUND)
    assert ranks(rows) == [(2, None), (3, 1), (4, 2), (1, 3)]
    assign_places(rows, Tournament.TieBreak.SHARED)
    assert ranks(rows) == [(2, None), (1, 1), (3, 1), (4, 1)]


def test_best_round_counts_a_missed_round_as_nothing():
    rows = [_row(1, [None, 200], 0), _row(2, [100, 100], 0)]
    assign_places(rows, Tournament.TieBreak.BEST_ROUND)
    assert ranks(rows) == [(1, 1), (2, 2)]


def test_the_setting_is_chosen_at_set_up(client, director):
    client.force_login(director)
    response = client.post(
        reverse("tournament:create"),
        {
            "name": "Mit Stechen",
            "date": "2026-11-21",
            "preset": "club-tournament",
            "rounds": 3,
            "games_per_round": 12,
            "four_table_mode": Tournament.FourTableMode.SIT_OUT,
            "entry_mode": Tournament.EntryMode.HANDS,
            "tie_break": Tournament.TieBreak.BEST_ROUND,
        },
    )
    assert response.status_code == 302
    assert Tournament.objects.get(name="Mit Stechen").tie_break == "best-round"


def test_standings_page_and_results_pdf_say_which_tie_break_applies(client):
    tournament = prize_evening(Tournament.TieBreak.BEST_ROUND)
    page = client.get(reverse("scoring:standings", args=[tournament.pk])).content.decode()
    assert "entscheidet die beste Einzelrunde" in page
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) missing")
    for url in (
        reverse("printing:results", args=[tournament.pk]),
        reverse("printing:rules", args=[tournament.pk]),
    ):
        pdf = client.get(url).content
        text = subprocess.run(
            ["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True
        ).stdout.decode()
        assert "entscheidet die beste Einzelrunde" in " ".join(text.split())
