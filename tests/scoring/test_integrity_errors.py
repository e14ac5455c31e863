"""Only a real clash of two first saves is reported as "changed meanwhile".

:func:`scoring.services.save_hand` used to turn any ``IntegrityError`` on a game that exists
into :class:`~scoring.services.StaleEntry` ("Spiel 1 wurde inzwischen von … geändert"),
and :func:`~scoring.services.save_round_totals` any into ``StaleTotals``: a broken check or
foreign key then told the clerk someone else had changed the hand (issue 29).  Now only the
unique constraint on the game number (or on the player's round total) is a concurrent save;
any other integrity error is raised as it is, and nothing of the write is kept.

The errors are real ones, made by the database (SQLite, or PostgreSQL in CI) and raised
where the write happens.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.models import Hand, RoundTotal, SeatScore
from tests.factories.hands import entry
from tests.factories.tournaments import three_table

pytestmark = pytest.mark.django_db


def raised_by_database(write) -> IntegrityError:
    """The ``IntegrityError`` the database raises for ``write`` (rolled back)."""
    try:
        with transaction.atomic():
            write()
    except IntegrityError as exc:
        return exc
    raise AssertionError("the write was accepted")


def number_clash(hand: Hand) -> IntegrityError:
    """What a second first save of ``hand``'s game number gets from the database."""
    return raised_by_database(
        lambda: Hand.objects.create(
            table=hand.table,
            number=hand.number,
            dealer=0,
            declarer=0,
            bid=300,
            outcome="played",
            melds=[0, 0, 0],
            scores=[0, 0, 0],
            declarer_won=False,
        )
    )


def check_failure(hand: Hand) -> IntegrityError:
    """A different integrity error: a seat number the table cannot have (a check)."""
    return raised_by_database(lambda: Hand.objects.filter(pk=hand.pk).update(dealer=7))


@pytest.fixture
def saved(tournament, clerk):
    table = three_table(tournament)
    hand, evaluation = services.save_hand(table, entry(), clerk)
    assert hand is not None, evaluation.errors
    return hand


def stored(hand: Hand) -> tuple:
    hand = Hand.objects.get(pk=hand.pk)
    scores = sorted(SeatScore.objects.filter(hand=hand).values_list("points", flat=True))
    return (hand.version, hand.bid, hand.scores, scores, hand.history.count())


def test_the_database_errors_are_what_the_tests_assume(saved):
    assert services.is_unique_clash(number_clash(saved), Hand, "unique_hand_number")
    assert not services.is_unique_clash(check_failure(saved), Hand, "unique_hand_number")


def test_a_clash_of_two_first_saves_is_still_a_concurrent_change(saved, clerk, monkeypatch):
    """The other clerk's hand 1 was committed between our look and our insert."""
    clash = number_clash(saved)

    def insert_refused(*args, **kwargs):
        raise clash

    monkeypatch.setattr(services.hands, "_write_hand", insert_refused)
    with pytest.raises(services.StaleEntry) as info:
        services.save_hand(saved.table, entry(bid=350), clerk)
    assert info.value.hand.pk == saved.pk and info.value.hand.bid == 300


def test_another_integrity_error_on_a_correction_is_not_a_concurrent_change(
    saved, director, monkeypatch
):
    failure = check_failure(saved)
    before = stored(saved)

    def broken(*args, **kwargs):
        raise failure

    monkeypatch.setattr(services.hands, "_rebuild_seat_scores", broken)
    with pytest.raises(IntegrityError) as info:
        services.save_hand(
            saved.table, entry(bid=350), director, expected_version=1, reason="Reizwert"
        )
    assert not isinstance(info.value, services.StaleEntry)
    assert "hand_seats_0_3" in str(info.value)
    assert stored(saved) == before  # the corrected hand was rolled back with it


def test_the_clerk_is_not_told_someone_else_changed_the_hand(saved, clerk, monkeypatch):
    """Through the table page: a server error (logged for the director's helper), not the
    409 page saying the hand was changed meanwhile by another account."""
    failure = check_failure(saved)
    before = stored(saved)

    def broken(*args, **kwargs):
        raise failure

    monkeypatch.setattr(services.hands, "_rebuild_seat_scores", broken)
    table = saved.table
    client = Client(raise_request_exception=False)
    client.force_login(clerk)
    url = reverse("scoring:table", args=[table.round.tournament_id, 1, table.number])
    data = {
        "number": 1, "dealer": 0, "declarer": 1, "bid": 350, "trump": "H",
        "outcome": "played", "melds_0": 20, "melds_1": 140, "melds_2": 60,
        "tricks_0": 30, "tricks_1": 175, "tricks_2": 45, "won": "", "penalty_type": "",
        "penalty_seat": "", "version": 1, "reason": "Reizwert",
    }  # fmt: skip
    response = client.post(url, data)
    assert response.status_code == 500
    assert "inzwischen" not in response.content.decode()
    assert stored(saved) == before


def test_another_integrity_error_on_round_totals_is_not_a_concurrent_change(clerk, monkeypatch):
    from tests.factories.tournaments import make_tournament

    paper = make_tournament(entry_mode="totals")
    table = three_table(paper)
    entries = {0: services.TotalInput(120), 1: services.TotalInput(-40), 2: services.TotalInput(0)}
    totals, errors = services.save_round_totals(table, entries, clerk, {})
    assert totals is not None, errors
    total = totals[0]
    failure = raised_by_database(
        lambda: RoundTotal.objects.filter(pk=total.pk).update(confirmed_by=clerk)
    )
    clash = raised_by_database(
        lambda: RoundTotal.objects.create(
            round=total.round, registration=total.registration, points=1
        )
    )
    for error, expected in ((failure, IntegrityError), (clash, services.StaleTotals)):

        def refused(*args, error=error, **kwargs):
            raise error

        monkeypatch.setattr(services.totals, "_store_round_totals", refused)
        with pytest.raises(expected) as info:
            services.save_round_totals(table, entries, clerk, {0: 1, 1: 1, 2: 1})
        if expected is IntegrityError:
            assert not isinstance(info.value, services.StaleTotals)
            assert info.value is failure  # passed on as it was, not relabelled
    # a check constraint (SQLite and PostgreSQL test them in different orders)
    assert "check constraint" in str(failure).lower()
    assert "scoring_roundtotal.round_id, scoring_roundtotal.registration_id" in str(
        clash
    ) or "one_total_per_player_per_round" in str(clash)


@pytest.mark.parametrize(
    ("message", "clash"),
    [
        ('duplicate key value violates unique constraint "unique_hand_number"', True),
        ("UNIQUE constraint failed: scoring_hand.table_id, scoring_hand.number", True),
        ('new row for relation "scoring_hand" violates check constraint "hand_seats_0_3"', False),
        ("CHECK constraint failed: hand_seats_0_3", False),
        ("FOREIGN KEY constraint failed", False),
        ("NOT NULL constraint failed: scoring_hand.bid", False),
        ("UNIQUE constraint failed: scoring_tablelink.token", False),
    ],
)
def test_unique_clash_is_recognised_on_postgresql_and_sqlite(message, clash):
    error = IntegrityError(message)
    assert services.is_unique_clash(error, Hand, "unique_hand_number") is clash
