"""A small exported tournament for the import tests (issue 16, item 3), and what they
compare: row counts of every model and the pages of an imported tournament."""

from __future__ import annotations

import json

from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client

from archive import transfer
from scoring import services
from scoring.models import Hand
from tests.conftest import make_tournament
from tests.web.test_backup import acting_as, hand_entry, play
from tournament.models import Table


def small_tournament(clerk, director, **kwargs):
    """7 players (tables of 4 and 3, the dealer sits out at four), confirmation required;
    round 1: two hands per table, one confirmed, one corrected, a ruling with a penalty."""
    tournament = make_tournament(players=7, confirmation_required=True, **kwargs)
    first = tournament.round_set.get(number=1)
    play(first, clerk, [1, 2])
    table = first.tables.order_by("number").first()
    hand = Hand.objects.get(table=table, number=1)
    size = table.seats.count()
    with acting_as(director):
        services.confirm_hand(hand, director, expected_version=hand.version)
        services.save_hand(
            table, hand_entry(table, 2, bid=350), director, expected_version=1, reason="Reizwert"
        )
        _, errors = services.record_ruling(
            table,
            hand_number=2,
            claim="Farbe nicht bedient",
            decision="Verworfen",
            consequence="verwerfen",
            offender=services.active_positions(
                tournament, size, services.dealer_for(table, size, 2)
            )[0],
            user=director,
        )
        assert not errors, errors
    return tournament


def exported(tournament) -> dict:
    """The export of ``tournament`` as it comes back from a JSON file."""
    return json.loads(json.dumps(transfer.export_tournament(tournament)))


def objects_of(data: dict, label: str) -> list[dict]:
    return [o for o in data["objects"] if o["model"] == label]


def row_counts() -> dict[str, int]:
    """Rows of every model of every installed app (accounts and groups included)."""
    return {
        model._meta.label: model._base_manager.count()
        for model in apps.get_models(include_auto_created=True)
    }


def page_statuses(tournament) -> dict[str, int]:
    """Status of every page of ``tournament`` a visitor or the director opens: standings,
    a player's view, projector, CSV, XLSX, rules PDF and results PDF."""
    client = Client()
    director = get_user_model().objects.filter(username="director").first()
    if director is not None:
        client.force_login(director)
    registration = tournament.registrations.order_by("start_number").first()
    base = f"/turnier/{tournament.pk}"
    urls = [
        f"{base}/",
        f"{base}/rangliste/",
        f"{base}/beamer/",
        f"{base}/export.csv",
        f"{base}/export.xlsx",
        f"{base}/druck/regeln.pdf",
        f"{base}/druck/rangliste.pdf",
    ]
    if registration is not None:
        urls.append(f"{base}/spieler/{registration.start_number}/")
    table = Table.objects.filter(round__tournament=tournament, seats__isnull=False).first()
    if table is not None:  # the director's table page: entries, versions, rulings
        urls.append(f"{base}/runde/{table.round.number}/tisch/{table.number}/")
    return {url: client.get(url).status_code for url in urls}
