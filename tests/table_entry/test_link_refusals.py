"""Every way a table link can be refused when a phone opens it
(:func:`table_entry.services.resolve`): the reason the view acts on and the words the
phone shows.  And the paper-mode gaps a close is refused for.  Found by mutation testing
(issue 29): the view tests matched only parts of these."""

from __future__ import annotations

import pytest
from django.utils import timezone

from scoring import links, services
from scoring.models import TableLink
from table_entry import services as table_entry_services
from tests.factories.tournaments import make_tournament, three_table
from tournament.models import Round

pytestmark = pytest.mark.django_db


def refusal(token: str) -> tuple[str, str]:
    with pytest.raises(table_entry_services.LinkRefused) as refused:
        table_entry_services.resolve(token)
    return refused.value.reason, str(refused.value)


@pytest.fixture
def link(at_table):
    return links.live_link(three_table(at_table))


def test_a_live_link_opens_its_table(link):
    opened = table_entry_services.resolve(link.token)
    assert opened == link and opened.table == link.table


def test_an_unknown_token_asks_for_the_qr_code_again(link):
    expected = (
        "unknown",
        "Diesen Tisch-Link gibt es nicht. Bitte den QR-Code am Tisch neu scannen.",
    )
    assert refusal(link.token[:-1] + ("A" if link.token[-1] != "A" else "B")) == expected
    assert refusal("kein Token!") == expected


def test_a_revoked_link_says_a_new_one_was_given_out(link):
    TableLink.objects.filter(pk=link.pk).update(revoked_at=timezone.now())
    assert refusal(link.token) == (
        "revoked",
        "Dieser Tisch-Link gilt nicht mehr; die Turnierleitung hat einen neuen ausgegeben.",
    )


def test_a_tournament_without_table_entry_or_with_round_totals_refuses(link, tournament):
    tournament.table_entry = ""
    tournament.save()
    assert refusal(link.token) == ("off", "Bei diesem Turnier wird nicht am Tisch eingetragen.")
    tournament.table_entry = "opponent"
    tournament.entry_mode = "totals"
    tournament.save()
    assert refusal(link.token) == (
        "off",
        "Dieses Turnier erfasst Rundensummen, keine einzelnen Spiele.",
    )


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (
            Round.Status.PLANNED,
            ("planned", "Die Runde hat noch nicht begonnen; Einträge sind gesperrt."),
        ),
        (
            Round.Status.CLOSED,
            (
                "closed",
                "Die Runde ist abgeschlossen; nur die Turnierleitung kann noch korrigieren.",
            ),
        ),
    ],
)
def test_a_round_not_running_refuses_with_its_state(link, status, expected):
    Round.objects.filter(pk=link.table.round_id).update(status=status)
    assert refusal(link.token) == expected


def test_paper_mode_gaps_are_the_players_without_a_total(clerk):
    paper = make_tournament(entry_mode="totals")
    round_ = paper.round_set.get(number=1)
    first = three_table(paper)
    inputs = {p: services.TotalInput(points) for p, points in enumerate((1230, -180, 2450))}
    services.save_round_totals(first, inputs, clerk)
    missing = services.missing_entries(round_)
    others = round_.tables.exclude(pk=first.pk).order_by("number")
    assert [m.table for m in missing] == [t.number for t in others]
    for gap, table in zip(missing, others, strict=True):
        starts = sorted(table.seats.values_list("registration__start_number", flat=True))
        assert (gap.players, gap.games) == (tuple(starts), ())
