"""Scoring a validated hand under a ruleset: :func:`score_hand`, :func:`score_request`.

The hand record (its fields and units: :mod:`rules.record`) is validated by
:func:`rules.validation.parse_record`; :func:`score_hand` turns it into game points per seat
(:class:`HandScore`), :func:`round_trick_points` rounds each side's trick points as the
ruleset says.  At 4 seats with partnerships (seats 0+2 against 1+3) melds and tricks are
pooled per team, the bid is checked on the team total, and each partner is credited the
team's score.

This module was also the home of the record's parsing and of the trick-point feasibility;
their names are still importable from here (``from rules.scoring import parse_record``):
the record in :mod:`rules.record`, its validation in :mod:`rules.validation`, the
feasibility in :mod:`rules.feasibility`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .feasibility import _possible_trick_points as _possible_trick_points
from .feasibility import _sums_by_card_count as _sums_by_card_count
from .feasibility import _trick_point_sets as _trick_point_sets
from .feasibility import impossible_melds as impossible_melds
from .feasibility import last_trick_fits as last_trick_fits
from .feasibility import possible_trick_points as possible_trick_points
from .record import OUTCOMES as OUTCOMES
from .record import PENALTY_TYPES as PENALTY_TYPES
from .record import RECORD_KEYS as RECORD_KEYS
from .record import SPECIAL_OUTCOMES, HandRecord
from .record import PenaltyRecord as PenaltyRecord
from .ruleset import LostGame, Penalty, Ruleset
from .validation import _int as _int
from .validation import _int_list as _int_list
from .validation import _parse_penalty as _parse_penalty
from .validation import _side_of as _side_of
from .validation import parse_record
from .validation import trump_errors as trump_errors
from .validation import validate_record as validate_record


@dataclass(frozen=True)
class HandScore:
    """The score of a hand.

    ``scores``: game points per seat (negative for a loss); ``declarer_won``: whether the
    declarer made the bid (or the special game); ``achieved``: the declaring side's points
    as checked against the bid (melds + trick points, exact or rounded as the ruleset says;
    ``None`` when no tricks were counted); ``counted_tricks``: trick points per seat as
    credited after rounding (``None`` when none were counted).
    """

    scores: tuple[int, ...]
    declarer_won: bool
    achieved: int | None = None
    counted_tricks: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"scores": [...], "declarer_won": bool}`` as the command line prints it."""
        return {"scores": list(self.scores), "declarer_won": self.declarer_won}


def round_trick_points(ruleset: Ruleset, points: Sequence[int], declarer_side: int) -> list[int]:
    """Trick points per side as credited: exact, or rounded to tens (seed 001 "Zählen";
    seed 002 "Der normale Spielablauf").

    With ``rounding_fives == "up"`` every 5 rounds up; with ``"balanced"``, of the sides
    ending in 5 the declaring side and then the higher totals round up, the rest down, one
    up for each one down.
    """
    if ruleset.rounding == "none":
        return list(points)
    result = [p - p % 10 + (10 if p % 10 > 5 else 0) for p in points]
    fives = [i for i, p in enumerate(points) if p % 10 == 5]
    if ruleset.rounding_fives == "up":
        up = set(fives)
    else:
        fives.sort(key=lambda i: (i != declarer_side, -points[i], i))
        up = set(fives[: (len(fives) + 1) // 2])
    for i in fives:
        if i in up:
            result[i] += 10
    return result


def score_hand(ruleset: Ruleset, record: HandRecord) -> HandScore:
    """Score a validated hand under ``ruleset``.

    Returns a :class:`HandScore` with game points per seat.  The rules applied, by outcome:

    - played: the declaring side made it when melds + trick points (exact if
      ``bid_checked_exact``) reach the bid; then every side scores melds + counted trick
      points.  Otherwise the declaring side loses ``lost.declarer`` (melds struck) and the
      others score melds + tricks + ``lost.opponents_bonus``.  Melds count only for a side
      that took a trick if ``meld_requires_trick``; a side without trick points scores
      nothing if ``scoreless_without_trick_points``.
    - penalty ``falsch-druecken``: scored as a lost game by ``misdiscard``.
    - penalty ``verwerfen``: the offender's side loses ``revoke.offender`` with melds struck;
      if that is the declaring side the others score as for a lost game, otherwise the
      declaring side is deemed to have made the bid and everybody else scores melds + tricks.
    - abgehen: the declaring side loses ``abgehen.declarer`` (or ``declarer_when_unreachable``
      if the bid exceeded its melds + 250) and scores no melds; the others their melds +
      ``abgehen.opponents_bonus``.
    - durch, durch-aufgelegt, durch-ohne-dabb, bettel: the declarer's side gets the game's
      ``won`` value or loses its ``lost`` value; the others score 0.

    Raises nothing for a record made by :func:`parse_record` with the same ruleset.
    """
    seats = record.seats
    sides = ruleset.sides(seats)
    decl_side = next(i for i, side in enumerate(sides) if record.declarer in side)
    bid = record.bid
    side_scores = [0] * len(sides)

    def side_sum(values: Sequence[int] | None) -> list[int]:
        values = values or [0] * seats
        return [sum(values[s] for s in side) for side in sides]

    def credit() -> tuple[int, ...]:
        per_seat = [0] * seats
        for i, side in enumerate(sides):
            for s in side:
                per_seat[s] = side_scores[i]
        return tuple(per_seat)

    melds = side_sum(record.melds)

    if record.outcome in SPECIAL_OUTCOMES:
        special = ruleset.special(record.outcome)
        assert special is not None and record.won is not None
        side_scores[decl_side] = special.won if record.won else -special.lost
        return HandScore(credit(), record.won)

    if record.outcome == "abgehen":
        rule = ruleset.abgehen
        assert rule is not None
        penalty = rule.declarer
        if (
            rule.declarer_when_unreachable is not None
            and bid > melds[decl_side] + ruleset.trick_points_total
        ):
            penalty = rule.declarer_when_unreachable
        bonus = rule.opponents_bonus.points(bid, seats)
        for i in range(len(sides)):
            side_scores[i] = -penalty.points(bid) if i == decl_side else melds[i] + bonus
        return HandScore(credit(), False)

    # played
    raw = side_sum(record.tricks)
    if record.tricks_taken is not None:
        took = [t > 0 for t in side_sum(record.tricks_taken)]
    else:
        took = [p > 0 for p in raw]
    scoreless = [ruleset.scoreless_without_trick_points and p == 0 for p in raw]
    for i in range(len(sides)):
        if scoreless[i] or (ruleset.meld_requires_trick and not took[i]):
            melds[i] = 0
    counted = round_trick_points(ruleset, raw, decl_side)
    achieved = melds[decl_side] + (
        raw[decl_side] if ruleset.bid_checked_exact else counted[decl_side]
    )

    def normal(i: int) -> int:
        return 0 if scoreless[i] else melds[i] + counted[i]

    def lost_game(rule: LostGame, declarer_penalty: Penalty) -> None:
        bonus = rule.opponents_bonus.points(bid, seats)
        for i in range(len(sides)):
            if i == decl_side:
                kept = melds[i] if rule.declarer_keeps_melds else 0
                side_scores[i] = kept - declarer_penalty.points(bid)
            else:
                side_scores[i] = 0 if scoreless[i] else normal(i) + bonus

    penalty = record.penalty
    if penalty is not None and penalty.type == "falsch-druecken":
        assert ruleset.misdiscard is not None
        lost_game(ruleset.misdiscard, ruleset.misdiscard.declarer)
        won = False
    elif penalty is not None and penalty.type == "verwerfen":
        assert ruleset.revoke is not None
        offender_side = next(i for i, side in enumerate(sides) if penalty.seat in side)
        if offender_side == decl_side:
            lost_game(ruleset.lost, ruleset.revoke.offender)
            won = False
        else:
            for i in range(len(sides)):
                side_scores[i] = (
                    -ruleset.revoke.offender.points(bid) if i == offender_side else normal(i)
                )
            won = True
    else:
        won = achieved >= bid
        if won:
            for i in range(len(sides)):
                side_scores[i] = normal(i)
        else:
            lost_game(ruleset.lost, ruleset.lost.declarer)

    counted_per_seat = [0] * seats
    for i, side in enumerate(sides):
        for s in side:
            counted_per_seat[s] = counted[i]
    return HandScore(credit(), won, achieved, tuple(counted_per_seat))


def score_request(ruleset: Ruleset, data: object) -> HandScore:
    """Validate a raw record with :func:`parse_record` and score it with :func:`score_hand`.

    Raises :class:`~rules.errors.InvalidInput` with every problem of the record.
    """
    return score_hand(ruleset, parse_record(ruleset, data))
