"""Feasibility: which trick-point and meld totals one seat's hand can hold.

Under a ruleset's card-point scheme (seed 001, "Werte") not every number of trick points
can be made: where every card counts 10, a seat never holds 135; no seat holds 1 or 249.
:func:`possible_trick_points` gives every total one seat can have, :func:`last_trick_fits`
whether the seats' totals fit one deal together as far as the last-trick bonus goes.
:func:`impossible_melds` refuses meld totals no hand of the seat's size can hold (the meld
ranges of :mod:`rules.meldrange`).  All are used by :func:`rules.validation.parse_record`.
Trick and meld values are game points; card counts are cards.

The trick-point sums are computed once per card-point scheme and table and kept in an
``lru_cache`` (``tests/rules/conftest.py`` empties those caches while mutmut runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .errors import FieldError
from .meldrange import meld_range, seat_hand_size
from .ruleset import CardPoints, Ruleset


@lru_cache(maxsize=32)
def _sums_by_card_count(card_points: CardPoints, ranks: tuple[str, ...]) -> tuple[int, ...]:
    """For m = 0 … pack size: a bitset (int) of the card-point sums of exactly m cards."""
    values = [card_points.value(r) for r in ranks for _ in range(8)]  # 2 copies × 4 suits
    ways = [0] * (len(values) + 1)
    ways[0] = 1
    for v in values:
        for m in range(len(values) - 1, -1, -1):
            if ways[m]:
                ways[m + 1] |= ways[m] << v
    return tuple(ways)


def possible_trick_points(
    ruleset: Ruleset, seats: int, declarer: bool, tricks_taken: int | None = None
) -> frozenset[int]:
    """Every trick-point total one seat can have in a hand.

    A seat taking ``k`` tricks holds ``k × seats`` cards (the declarer also the Dabb's
    worth of discards) and, if ``k ≥ 1``, may have the last-trick bonus.  With
    ``tricks_taken`` given only that ``k`` is allowed.  Used to reject trick points that are
    impossible under the card-point scheme (e.g. 1, 249, or 135 where all cards count 10).
    """
    deal = ruleset.deal_for(seats)
    return _possible_trick_points(
        ruleset.card_points,
        ruleset.ranks,
        ruleset.last_trick_bonus,
        seats,
        deal.cards_per_player,
        deal.dabb if declarer else 0,
        tricks_taken,
    )


def last_trick_fits(
    ruleset: Ruleset,
    seats: int,
    declarer: int,
    tricks: Sequence[int],
    tricks_taken: Sequence[int] | None = None,
) -> bool:
    """Whether one deal can give every seat its ``tricks`` (trick points) at once as far
    as the last trick goes: exactly one seat, one that took a trick, holds the last-trick
    bonus, every other seat's points are card points alone.  Each seat's value may be
    possible on its own (:func:`possible_trick_points`) while two seats can each only be
    explained with the bonus (issue 37.19: partnership-250, two seats each ending on the
    last trick's 10).  ``declarer`` is the declarer's seat (its cards include the Dabb's
    worth of discards); ``tricks_taken`` per seat when entered.  With no bonus in the
    ruleset there is nothing to check (``True``)."""
    bonus = ruleset.last_trick_bonus
    if not bonus:
        return True
    deal = ruleset.deal_for(seats)
    plain: list[frozenset[int]] = []
    with_bonus: list[frozenset[int]] = []
    for i in range(seats):
        taken = tricks_taken[i] if tricks_taken is not None else None
        without, holding = _trick_point_sets(
            ruleset.card_points,
            ruleset.ranks,
            bonus,
            seats,
            deal.cards_per_player,
            deal.dabb if i == declarer else 0,
            taken,
        )
        plain.append(without)
        with_bonus.append(holding)
    return any(
        tricks[b] in with_bonus[b] and all(tricks[i] in plain[i] for i in range(seats) if i != b)
        for b in range(seats)
    )


@lru_cache(maxsize=1024)
def _trick_point_sets(
    card_points: CardPoints,
    ranks: tuple[str, ...],
    bonus: int,
    seats: int,
    tricks: int,
    extra_cards: int,
    tricks_taken: int | None,
) -> tuple[frozenset[int], frozenset[int]]:
    """The trick-point totals of one seat without the last-trick bonus, and with it (only
    where the seat took at least one trick); arguments as :func:`_possible_trick_points`."""
    ways = _sums_by_card_count(card_points, ranks)
    ks = range(tricks + 1) if tricks_taken is None else (tricks_taken,)
    without: set[int] = set()
    holding: set[int] = set()
    for k in ks:
        m = k * seats + extra_cards
        if m >= len(ways):
            continue
        bits = ways[m]
        sums = {i for i in range(bits.bit_length()) if bits >> i & 1}
        without |= sums
        if k >= 1:
            holding |= {s + bonus for s in sums}
    return frozenset(without), frozenset(holding)


@lru_cache(maxsize=1024)
def _possible_trick_points(
    card_points: CardPoints,
    ranks: tuple[str, ...],
    bonus: int,
    seats: int,
    tricks: int,
    extra_cards: int,
    tricks_taken: int | None,
) -> frozenset[int]:
    without, holding = _trick_point_sets(
        card_points, ranks, bonus, seats, tricks, extra_cards, tricks_taken
    )
    return without | holding


def impossible_melds(ruleset: Ruleset, seats: int, melds: Sequence[int]) -> list[FieldError]:
    """One error per seat whose meld total no hand can hold (:func:`rules.meldrange.meld_range`
    for the hand size at ``seats``; the declarer holds as many cards after taking the Dabb
    and discarding).  Field ``melds[i]``, code ``meld_impossible``, params ``value``,
    ``cards`` (hand size), ``min`` and ``max`` (the lowest and highest attainable totals),
    ``below`` and ``above`` (the attainable totals nearest to ``value`` on either side,
    :meth:`rules.meldrange.MeldRange.nearest`; ``None`` where there is none).  The message
    names those nearest totals, e.g. "meld 900 is not possible with 12 cards; the nearest
    possible totals are 590 and 1000" (``club-tournament``, 3 players), so a total under
    the maximum that falls in a gap does not read as a contradiction."""
    size = seat_hand_size(ruleset, seats)
    attainable = meld_range(ruleset, size)
    errors = []
    for i, value in enumerate(melds):
        if value in attainable:
            continue
        below, above = attainable.nearest(value)
        if below is not None and above is not None:
            hint = f"the nearest possible totals are {below} and {above}"
        elif below is not None:
            hint = f"the highest possible total is {below}"
        else:
            hint = f"the lowest possible total is {above}"
        errors.append(
            FieldError(
                f"melds[{i}]",
                f"meld {value} is not possible with {size} cards; {hint}",
                code="meld_impossible",
                params={
                    "value": value,
                    "cards": size,
                    "min": attainable.min,
                    "max": attainable.max,
                    "below": below,
                    "above": above,
                },
            )
        )
    return errors
