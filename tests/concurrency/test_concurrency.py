"""Two clerks at the same moment, on two real database connections (one thread each):
no update is lost, the loser gets a clear "changed meanwhile", nothing is written to a
closed round, and a writer waiting for another never sees "database is locked".

Runs on whatever ``DATABASE_URL`` names: the SQLite file (WAL, busy timeout, immediate
transactions) by default, PostgreSQL in CI's second pass.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.models import Group
from django.db import connection, connections, transaction

from scoring import services
from scoring.errors import EntryRefused
from scoring.models import Hand, RoundTotal, SeatScore
from tests.factories.hands import entry
from tests.factories.tournaments import make_tournament, three_table
from tournament import services as tournament_services
from tournament.models import Round
from tournament.roles import CLERK_GROUP

pytestmark = pytest.mark.django_db(transaction=True)


def run_together(*jobs, timeout=30):
    """Run each job in its own thread (own connection), released together by a barrier;
    returns each job's result or the exception it raised, in order."""
    barrier = threading.Barrier(len(jobs))
    results: list[object] = [None] * len(jobs)

    def worker(i, job):
        try:
            barrier.wait()
            results[i] = job()
        except Exception as exc:  # noqa: BLE001 - the test inspects what was raised
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, j)) for i, j in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
        assert not t.is_alive(), "a writer hung"
    return results


@pytest.fixture
def users(django_user_model):
    """Two clerks; ``make_tournament`` makes every clerk a clerk of the new tournament."""
    clerks = Group.objects.get(name=CLERK_GROUP)
    made = []
    for name in ("anna", "bert"):
        user = django_user_model.objects.create_user(name, password="pw-123-concurrency")
        user.groups.add(clerks)
        made.append(user)
    return made


def test_two_corrections_of_the_same_version_one_wins_the_other_is_told(users):
    tournament = make_tournament()
    table = three_table(tournament)
    anna, bert = users
    services.save_hand(table, entry(), anna)

    for attempt in range(5):  # several rounds of racing, each from the version both loaded
        version = Hand.objects.get(table=table, number=1).version
        bids = (310 + 20 * attempt, 320 + 20 * attempt)
        results = run_together(
            lambda b=bids[0], v=version: services.save_hand(
                table, entry(bid=b), anna, expected_version=v, reason="Reizwert"
            ),
            lambda b=bids[1], v=version: services.save_hand(
                table, entry(bid=b), bert, expected_version=v, reason="Reizwert"
            ),
        )
        won = [r for r in results if isinstance(r, tuple)]
        lost = [r for r in results if isinstance(r, services.StaleEntry)]
        assert len(won) == 1 and len(lost) == 1, results
        hand = Hand.objects.get(table=table, number=1)
        assert hand.version == version + 1
        assert hand.bid == won[0][0].bid  # the stored hand is the winner's, whole
        assert lost[0].hand.version == version + 1  # the loser is shown the new version
        assert str(lost[0].hand.entered_by) == str(hand.entered_by)
    assert Hand.history.filter(id=hand.pk).count() == 6  # every saved version is kept
    assert sorted(SeatScore.objects.filter(hand=hand).values_list("points", flat=True)) == sorted(
        hand.scores
    )


def test_two_first_entries_of_the_same_game_one_is_stored_the_other_is_stale(users):
    tournament = make_tournament()
    table = three_table(tournament)
    anna, bert = users
    for number in (1, 2, 3):
        results = run_together(
            lambda n=number: services.save_hand(
                table, entry(number=n, dealer=(n - 1) % 3, bid=300), anna
            ),
            lambda n=number: services.save_hand(
                table, entry(number=n, dealer=(n - 1) % 3, bid=350), bert
            ),
        )
        assert sum(isinstance(r, tuple) for r in results) == 1, results
        assert sum(isinstance(r, services.StaleEntry) for r in results) == 1, results
    assert Hand.objects.filter(table=table).count() == 3
    assert SeatScore.objects.filter(hand__table=table).count() == 9


def test_closing_and_entering_at_once_never_writes_into_a_closed_round(users, django_user_model):
    anna, _ = users
    for _attempt in range(4):
        tournament = make_tournament()
        table = three_table(tournament)
        round_ = table.round
        results = run_together(
            lambda t=table: services.save_hand(t, entry(), anna),
            lambda r=round_: services.close_round(
                Round.objects.get(pk=r.pk), reason="Test: Runde ohne alle Spiele"
            ),
        )
        round_.refresh_from_db()
        assert round_.status == Round.Status.CLOSED
        saved, _closed = results
        hand = Hand.objects.filter(table=table, number=1).first()
        if isinstance(saved, EntryRefused):
            assert hand is None
        else:
            assert isinstance(saved, tuple), saved
            assert hand is not None
            assert hand.history.earliest().history_date <= round_.closed_at


def test_a_writer_waits_for_a_held_lock_instead_of_failing(users):
    tournament = make_tournament()
    table = three_table(tournament)
    anna, bert = users
    held = threading.Event()
    hold_seconds = 1.0

    def slow_director():
        with transaction.atomic():
            tournament_services.lock_round(table.round_id)
            Hand.objects.filter(table=table).count()
            held.set()
            time.sleep(hold_seconds)
        return "released"

    def clerk():
        held.wait(10)
        started = time.monotonic()
        result = services.save_hand(table, entry(), bert)
        return result, time.monotonic() - started

    results = run_together(slow_director, clerk)
    assert results[0] == "released"
    assert isinstance(results[1], tuple), results[1]  # no "database is locked"
    (hand, evaluation), waited = results[1]
    assert hand is not None and evaluation.ok
    assert waited >= hold_seconds * 0.5  # it really waited for the lock


def test_two_first_round_total_entries_of_one_table(users):
    paper = make_tournament(entry_mode="totals")
    table = three_table(paper)
    anna, bert = users

    def inputs(points):
        return {
            0: services.TotalInput(points, 1, 1),
            1: services.TotalInput(-180, 1, 2),
            2: services.TotalInput(2450, 4, 0),
        }

    results = run_together(
        lambda: services.save_round_totals(table, inputs(1230), anna),
        lambda: services.save_round_totals(table, inputs(1330), bert),
    )
    assert sum(isinstance(r, tuple) for r in results) == 1, results
    assert sum(isinstance(r, services.StaleTotals) for r in results) == 1, results
    stored = {t.registration_id: t for t in RoundTotal.objects.filter(round=table.round)}
    assert len(stored) == 3
    assert len({t.entered_by_id for t in stored.values()}) == 1  # one clerk's table, whole


def test_the_database_is_in_wal_mode_with_a_busy_timeout():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite settings")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] >= 10_000


@pytest.mark.parametrize("attempt", range(4))
def test_a_withdrawal_and_the_next_draw_at_once_never_seat_the_withdrawn_player(attempt):
    """The director withdraws a player while (another tab) draws the next round: whichever
    commits first, the player is withdrawn and not seated in round 2, or round 2's draw is
    cleared (to be drawn again).  On PostgreSQL the two ran side by side before the
    withdrawal locked the tournament's rounds, and the draw could seat him."""
    tournament = make_tournament(players=9)
    close = tournament.round_set.get(number=1)
    services.close_round(close, reason="Test: Runde ohne alle Spiele")
    round_2 = tournament.round_set.get(number=2)
    registration = tournament.registrations.get(start_number=attempt + 1)
    results = run_together(
        lambda: tournament_services.withdraw(registration),
        lambda: tournament_services.draw_round(round_2, seed=11 + attempt),
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    registration.refresh_from_db()
    assert registration.withdrawn_after_round == 1
    seated = set(round_2.seats.values_list("registration__start_number", flat=True))
    assert attempt + 1 not in seated
    # drawn after the withdrawal: the other eight; drawn before it: cleared again
    assert seated in (set(), set(range(1, 10)) - {attempt + 1})
