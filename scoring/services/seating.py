"""Who sits where at a table and in which order: the seats by position, the dealer of a
game, the first bidder, who plays when the dealer sits out, and the partnerships.
Nothing here writes."""

from __future__ import annotations

import logging

from django.utils.translation import gettext as _

from tournament.models import Seat, Table, Tournament

logger = logging.getLogger(__name__)


def table_seats(table: Table) -> list[Seat]:
    """The table's seats in position order, with registrations and players loaded."""
    return list(table.seats.select_related("registration__player").order_by("position"))


def dealer_for(table: Table, size: int, number: int) -> int:
    """Table position of the dealer of game ``number`` (1-based): the deal passes on one
    seat per game from the table's first dealer.  Positions (Platz 1, 2, …) are numbered
    in the ruleset's direction of play (:func:`seating_text`), so the next position is the
    next dealer whichever way the game goes."""
    return (table.first_dealer + number - 1) % size


def first_bidder_for(ruleset, size: int, dealer: int) -> int:
    """Table position of the player who bids first when ``dealer`` deals: the one on the
    dealer's left or right as :attr:`rules.Ruleset.first_bidder` says (seed 002 "Der
    Reizwert", seed 001 "Reizen": right; seeds 000, 003: left), counted in the direction
    of play."""
    return (dealer + ruleset.first_bidder_offset) % size


def seating_text(ruleset) -> str:
    """One sentence for a table: which way the game goes and how positions are numbered,
    e.g. "Gegen den Uhrzeigersinn: Platz 2 sitzt rechts von Platz 1, es reizt zuerst der
    Spieler rechts vom Geber." (:attr:`rules.Ruleset.direction`, ``first_bidder``)."""
    if ruleset.direction == "clockwise":
        text = _("Im Uhrzeigersinn: Platz 2 sitzt links von Platz 1")
    else:
        text = _("Gegen den Uhrzeigersinn: Platz 2 sitzt rechts von Platz 1")
    return text + _(", es reizt zuerst der Spieler %(side)s vom Geber.") % {
        "side": first_bidder_side(ruleset)
    }


def seating_short(ruleset) -> tuple[str, str]:
    """The same for a sheet's head, in two short cells: ("gegen den Uhrzeigersinn, Platz 2
    rechts von Platz 1", "rechts vom Geber")."""
    if ruleset.direction == "clockwise":
        direction = _("im Uhrzeigersinn, Platz 2 links von Platz 1")
    else:
        direction = _("gegen den Uhrzeigersinn, Platz 2 rechts von Platz 1")
    return direction, _("%(side)s vom Geber") % {"side": first_bidder_side(ruleset)}


def first_bidder_side(ruleset) -> str:
    """ "links" or "rechts": where the first bidder sits from the dealer."""
    return _("links") if ruleset.first_bidder == "left" else _("rechts")


def active_positions(tournament: Tournament, size: int, dealer: int) -> list[int]:
    """Table positions that play a hand, in engine seat order.

    At a 4-player table in "dealer sits out" mode the dealer does not play: the three
    others, starting after the dealer.  Otherwise every position (Kreuzbinokel at 4: seats
    0+2 against 1+3, as the engine's partnerships expect).
    """
    if size == 4 and tournament.four_table_mode == Tournament.FourTableMode.SIT_OUT:
        return [(dealer + i) % 4 for i in range(1, 4)]
    return list(range(size))


def partner_teams(tournament: Tournament, seats: list[Seat]) -> list[list[Seat]]:
    """The two teams at a table of four where partners play together (Kreuzbinokel, or a
    ruleset played only in fours such as ``partnership-250``): seats 1+3 and 2+4 as printed
    (positions 0+2 and 1+3, :meth:`rules.Ruleset.sides`), each a list of its seats;
    ``[]`` at any other table."""
    size = len(seats)
    positions = active_positions(tournament, size, 0)
    sides = tournament.ruleset.sides(len(positions))
    if size != 4 or len(positions) != 4 or len(sides) != 2:
        return []
    by_position = {s.position: s for s in seats}
    return [[by_position[positions[i]] for i in side] for side in sides]


def _by_position(values, positions: list[int], size: int) -> list[int | None]:
    """Engine per-seat ``values`` as a list by table position (``None`` for a position
    not in the hand, e.g. the dealer sitting out, or when the engine has no values)."""
    by_position: list[int | None] = [None] * size
    for engine_seat, value in enumerate(values):
        by_position[positions[engine_seat]] = value
    return by_position


def next_game_number(table: Table) -> int:
    """The lowest game number (from 1) that ``table`` has no hand for yet: the game the
    entry form offers next."""
    numbers = set(table.hands.values_list("number", flat=True))
    n = 1
    while n in numbers:
        n += 1
    return n


def next_deal(table: Table, seats) -> dict | None:
    """Who deals, bids first and leads in the next game to enter: ``{"number", "dealer",
    "bidder", "bidder_leads"}`` with first names (``seats``: the table's seats), or
    ``None`` when the round's games are all entered.  By the ruleset's direction of play
    and first bidder (:func:`dealer_for`, :func:`first_bidder_for`)."""
    tournament = table.round.tournament
    number = next_game_number(table)
    if number > tournament.games_per_round:
        return None
    ruleset = tournament.ruleset
    size = len(seats)
    dealer = dealer_for(table, size, number)
    bidder = first_bidder_for(ruleset, size, dealer)
    names = {s.position: s.registration.player.first_name for s in seats}
    return {
        "number": number,
        "dealer": names.get(dealer, ""),
        "bidder": names.get(bidder, ""),
        "bidder_leads": ruleset.play.first_lead == "forehand",
    }
