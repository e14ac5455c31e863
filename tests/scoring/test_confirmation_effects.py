"""Confirming entries: a paper table's round totals
(:func:`scoring.services.confirm_table_totals`), the totals as stored, and a clerk confirming
a hand (:func:`scoring.services.confirm_hand`): who may, what is refused with which words,
what a confirmation writes, and that the public standings are made stale afterwards.  Found
by mutation testing (docs/testing.md): these effects had no test of their own."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from scoring import services
from scoring.errors import EntryRefused
from scoring.models import RoundTotal
from tests.factories.tournaments import close_round_anyway, make_tournament, three_table
from tournament.roles import CLERK_GROUP

pytestmark = pytest.mark.django_db

OWN = "Die eigene Eingabe kann nicht bestätigt werden; das macht ein zweites Konto."
NOTHING_LEFT = "Hier ist nichts mehr zu bestätigen."


def rows(table):
    """(position, points, version, confirmer) of the table's stored totals."""
    return [
        (p, t.points, t.version, t.confirmed_by and t.confirmed_by.username)
        for p, t in sorted(services.table_totals(table).items())
    ]


def test_only_the_tournaments_own_clerks_confirm(paper_table, django_user_model):
    outsider = django_user_model.objects.create_user("fremd", password="pw-fremd-123")
    outsider.groups.add(Group.objects.get(name=CLERK_GROUP))  # a clerk, not of this evening
    before = rows(paper_table)
    with pytest.raises(EntryRefused, match="nicht als Schreiber eingetragen"):
        services.confirm_table_totals(paper_table, outsider, {0: 1, 1: 1, 2: 1})
    assert rows(paper_table) == before


def test_refusals_say_why_and_change_nothing(paper_table, clerk, second_clerk):
    before = rows(paper_table)
    with pytest.raises(services.ConfirmationRefused) as own:
        services.confirm_table_totals(paper_table, clerk, {0: 1, 1: 1, 2: 1})
    assert str(own.value) == OWN
    with pytest.raises(services.StaleTotals) as stale:
        services.confirm_table_totals(paper_table, second_clerk, {0: 1, 1: 2, 2: 1})
    assert stale.value.changed == [1]
    assert {p: (t.points, t.version) for p, t in stale.value.totals.items()} == {
        0: (1230, 1),
        1: (-180, 1),
        2: (2450, 1),
    }
    assert rows(paper_table) == before


def test_a_confirmation_is_kept_in_the_history_and_makes_the_standings_stale(
    paper_table,
    second_clerk,
    django_capture_on_commit_callbacks,
):
    key = f"standings-version:{paper_table.round.tournament_id}"
    cached = services.cache_version(key)
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = services.confirm_table_totals(paper_table, second_clerk, {0: 1, 1: 1, 2: 1})
    assert confirmed == 3
    assert services.cache_version(key) == cached + 1
    # points and versions stay; the confirmer is recorded, in the history too
    assert rows(paper_table) == [
        (0, 1230, 1, "clerk2"),
        (1, -180, 1, "clerk2"),
        (2, 2450, 1, "clerk2"),
    ]
    for total in RoundTotal.objects.filter(round=paper_table.round):
        assert total.confirmed_at is not None
        latest = total.history.order_by("-history_date", "-history_id").first()
        assert latest.history_change_reason == "bestätigt"
        assert latest.confirmed_by_id == second_clerk.pk
    with pytest.raises(services.ConfirmationRefused) as again:
        services.confirm_table_totals(paper_table, second_clerk, {0: 1, 1: 1, 2: 1})
    assert str(again.value) == NOTHING_LEFT


# ----------------------------------------------- storing a paper table's round totals


def test_blank_declarer_counts_are_stored_as_none_played(clerk, django_capture_on_commit_callbacks):
    """A clerk leaves "gewonnen"/"verloren" blank for a player who was never declarer: the
    total is stored with 0 and 0, and given counts are stored as typed."""
    tournament = make_tournament(entry_mode="totals")
    table = three_table(tournament)
    key = f"standings-version:{tournament.pk}"
    cached = services.cache_version(key)
    inputs = {
        0: services.TotalInput(1230, None, None),
        1: services.TotalInput(-180, 1, 2),
        2: services.TotalInput(2450, 4, 0),
    }
    with django_capture_on_commit_callbacks(execute=True):
        saved, errors = services.save_round_totals(table, inputs, clerk)
    assert errors == {}
    stored = {
        p: (t.points, t.games_won, t.games_lost) for p, t in services.table_totals(table).items()
    }
    assert stored == {0: (1230, 0, 0), 1: (-180, 1, 2), 2: (2450, 4, 0)}
    assert services.cache_version(key) == cached + 1  # the standings show it at once


def test_a_first_entry_after_the_close_keeps_the_directors_reason(director):
    tournament = make_tournament(entry_mode="totals")
    table = three_table(tournament)
    close_round_anyway(tournament)
    table = type(table).objects.get(pk=table.pk)  # the round as it is now: closed
    inputs = {p: services.TotalInput(points, 0, 0) for p, points in enumerate((1230, -180, 2450))}
    assert services.save_round_totals(table, inputs, director) == (
        None,
        {"reason": ["Die Runde ist abgeschlossen: bitte den Grund der Korrektur angeben."]},
    )
    assert services.table_totals(table) == {}
    saved, errors = services.save_round_totals(
        table, inputs, director, reason="Spielblatt nachgereicht"
    )
    assert errors == {} and len(saved) == 3
    for total in saved:
        (record,) = total.history.all()
        assert record.history_change_reason == "Spielblatt nachgereicht"


# ------------------------------------------------- a clerk confirming a hand (hand mode)


def test_a_hand_is_confirmed_by_another_clerk_with_history_and_fresh_standings(
    clerk,
    second_clerk,
    django_user_model,
    django_capture_on_commit_callbacks,
):
    from scoring.models import Hand
    from tests.factories.hands import entry

    tournament = make_tournament(confirmation_required=True)
    table = three_table(tournament)
    hand, _ = services.save_hand(table, entry(), clerk)
    outsider = django_user_model.objects.create_user("fremd", password="pw-fremd-123")
    outsider.groups.add(Group.objects.get(name=CLERK_GROUP))
    with pytest.raises(EntryRefused, match="nicht als Schreiber eingetragen"):
        services.confirm_hand(hand, outsider, hand.version)
    with pytest.raises(services.ConfirmationRefused) as own:
        services.confirm_hand(hand, clerk, hand.version)
    assert str(own.value) == OWN
    assert Hand.objects.get(pk=hand.pk).confirmed_at is None
    key = f"standings-version:{tournament.pk}"
    cached = services.cache_version(key)
    with django_capture_on_commit_callbacks(execute=True):
        services.confirm_hand(hand, second_clerk, hand.version)
    assert services.cache_version(key) == cached + 1
    latest = Hand.objects.get(pk=hand.pk).history.order_by("-history_date", "-history_id")[0]
    assert latest.history_change_reason == "bestätigt"
    assert (latest.version, latest.confirmed_by_id) == (1, second_clerk.pk)
    with pytest.raises(services.ConfirmationRefused) as twice:
        services.confirm_hand(hand, second_clerk, hand.version)
    assert str(twice.value) == "Spiel 1 ist schon bestätigt."
