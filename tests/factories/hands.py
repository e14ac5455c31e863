"""Hand inputs and games saved through the scoring services."""

from __future__ import annotations

from contextlib import contextmanager

from django.test import RequestFactory
from simple_history.models import HistoricalRecords

from scoring import services


def entry(**kw):
    """Hand 1 at a table of three, dealer 0: position 1 bids 300 in hearts, melds 140 and
    takes 175 (a won game); ``kw`` changes any field of the ``HandInput``."""
    values = dict(
        number=1,
        dealer=0,
        declarer=1,
        bid=300,
        outcome="played",
        trump="H",
        melds={0: 20, 1: 140, 2: 60},
        tricks={0: 30, 1: 175, 2: 45},
    )
    values.update(kw)
    return services.HandInput(**values)


@contextmanager
def acting_as(user):
    """Saves inside are recorded in the history as made by ``user``, as the
    HistoryRequestMiddleware does for a logged-in request."""
    request = RequestFactory().post("/")
    request.user = user
    HistoricalRecords.context.request = request
    try:
        yield
    finally:
        del HistoricalRecords.context.request


def hand_entry(table, number, **change):
    """A valid hand ``number`` of ``table``; the declarer rotates, so some games are won
    (140 melds + 175 tricks) and some lost."""
    size = table.seats.count()
    dealer = services.dealer_for(table, size, number)
    positions = services.active_positions(table.round.tournament, size, dealer)
    values = dict(
        number=number,
        dealer=dealer,
        declarer=positions[number % 3],
        bid=300,
        outcome="played",
        trump="H",
        melds=dict(zip(positions, (20, 140, 60), strict=True)),
        tricks=dict(zip(positions, (30, 175, 45), strict=True)),
    )
    values.update(change)
    return services.HandInput(**values)


def play_round(round_, user, numbers):
    """Hands ``numbers`` (:func:`hand_entry`) saved at every table of ``round_`` by
    ``user``, recorded in the history as theirs."""
    with acting_as(user):
        for table in round_.tables.order_by("number"):
            for number in numbers:
                hand, evaluation = services.save_hand(table, hand_entry(table, number), user)
                assert evaluation.ok, evaluation.errors


def play_hand(table, number, size, clerk, declarer_wins=True, bid=300):
    """Save game ``number`` at ``table``: the declarer (first seat after the dealer that
    plays) takes 175 of the 250 trick points; with ``declarer_wins=False`` the bid is more
    than the declarer can make."""
    tournament = table.round.tournament
    dealer = services.dealer_for(table, size, number)
    playing = services.active_positions(tournament, size, dealer)
    entry = services.HandInput(
        number=number, dealer=dealer, declarer=playing[0],
        bid=bid if declarer_wins else 600, outcome="played", trump="H",
        melds=dict(zip(playing, (140, 20, 60), strict=True)),
        tricks=dict(zip(playing, (175, 30, 45), strict=True)),
    )  # fmt: skip
    hand, evaluation = services.save_hand(table, entry, clerk)
    assert hand is not None, evaluation.errors
    assert hand.declarer_won is declarer_wins
    return hand
