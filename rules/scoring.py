"""Hand records: validation against a ruleset, and scoring.

A hand record is what the clerk writes on the score sheet for one deal::

    {"seats": 3, "declarer": 0, "bid": 300, "outcome": "played",
     "melds": [140, 60, 20], "tricks": [175, 45, 30], "tricks_taken": [6, 4, 2],
     "penalty": {"type": "verwerfen", "seat": 2}}

- ``seats``: players at the table who take part in the hand (a ruleset's table size);
- ``declarer``: seat index 0 … seats − 1 of the player who won the bidding;
- ``bid``: game points;
- ``outcome``: ``"played"``, ``"abgehen"``, ``"durch"``, ``"durch-aufgelegt"``,
  ``"durch-ohne-dabb"`` or ``"bettel"``, as the ruleset allows;
- ``melds``: meld points per seat (game points, multiples of 10); required for ``played``
  and ``abgehen``; in a Durch or Bettel nobody melds (omit, or all zero);
- ``tricks``: raw trick points per seat including the last-trick bonus and the declarer's
  discards; required for ``played``, absent otherwise;
- ``tricks_taken``: optional number of tricks per seat (``played`` only); without it a seat
  with no trick points is taken to have taken no trick;
- ``won``: for the special games only, whether the declarer made it;
- ``trump``: optional suit letter (``C S H D``) of the trump as written on the sheet; not
  allowed for an outcome the ruleset plays without trump
  (:meth:`rules.ruleset.Ruleset.plays_without_trump`: a Durch where
  ``durch_trump == "none"``, seed 002 "Der Durch"; a Bettel, seed 001 "Der
  Untendurch/Bettel");
- ``penalty``: optional ``{"type": "verwerfen" | "falsch-druecken", "seat": n}`` on a played
  hand; a misdiscard is always the declarer's.

At 4 seats with partnerships (seats 0+2 against 1+3) melds and tricks are pooled per team,
the bid is checked on the team total, and each partner is credited the team's score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .errors import FieldError, InvalidInput
from .meldrange import meld_range, seat_hand_size
from .melds import parse_trump
from .ruleset import CardPoints, LostGame, Penalty, Ruleset

OUTCOMES = ("played", "abgehen", "durch", "durch-aufgelegt", "durch-ohne-dabb", "bettel")
SPECIAL_OUTCOMES = ("durch", "durch-aufgelegt", "durch-ohne-dabb", "bettel")
PENALTY_TYPES = ("verwerfen", "falsch-druecken")
RECORD_KEYS = (
    "seats",
    "declarer",
    "bid",
    "outcome",
    "melds",
    "tricks",
    "tricks_taken",
    "won",
    "penalty",
    "trump",
)


@dataclass(frozen=True)
class PenaltyRecord:
    """A penalty on a hand: ``type`` (``"verwerfen"`` or ``"falsch-druecken"``) and the
    offender's ``seat``."""

    type: str
    seat: int


@dataclass(frozen=True)
class HandRecord:
    """A validated hand record (see the module docstring for the fields and units)."""

    seats: int
    declarer: int
    bid: int
    outcome: str
    melds: tuple[int, ...] | None = None
    tricks: tuple[int, ...] | None = None
    tricks_taken: tuple[int, ...] | None = None
    won: bool | None = None
    penalty: PenaltyRecord | None = None
    trump: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data, omitting absent fields."""
        data: dict[str, Any] = {
            "seats": self.seats,
            "declarer": self.declarer,
            "bid": self.bid,
            "outcome": self.outcome,
        }
        for key in ("melds", "tricks", "tricks_taken"):
            value = getattr(self, key)
            if value is not None:
                data[key] = list(value)
        if self.won is not None:
            data["won"] = self.won
        if self.penalty is not None:
            data["penalty"] = {"type": self.penalty.type, "seat": self.penalty.seat}
        if self.trump is not None:
            data["trump"] = self.trump
        return data


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


# ----------------------------------------------------------------------- feasibility


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


# ------------------------------------------------------------------------ validation


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


def trump_errors(ruleset: Ruleset, outcome: str, trump: str | None) -> list[FieldError]:
    """The error for a trump written on a hand that is played without one, else ``[]``.

    ``outcome``: a hand outcome (``"durch"`` …); ``trump``: a suit letter or ``None`` (no
    trump written).  A trump is refused for a Durch, laid open or without the Dabb, when
    the ruleset's :attr:`~rules.ruleset.Ruleset.durch_trump` is ``"none"`` (seed 002 "Der
    Durch": "Außerdem gibt es beim Durch keinen Trumpf"; seed 001 "Der Durch": no trump
    suit is chosen), and for a Bettel (seed 001 "Der Untendurch/Bettel").  The error is on
    field ``trump``, code ``no_trump_in_special``, params ``outcome`` and ``trump``."""
    if trump is None or not ruleset.plays_without_trump(outcome):
        return []
    return [
        FieldError(
            "trump",
            f"a {outcome} is played without trump under {ruleset.id}: "
            f"leave the trump (Trumpf) empty, not {trump}",
            code="no_trump_in_special",
            params={"outcome": outcome, "trump": trump},
        )
    ]


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(
    data: dict[str, Any], key: str, seats: int | None, errors: list[FieldError], step: int = 1
) -> tuple[int, ...] | None:
    value = data.get(key)
    if not isinstance(value, list):
        errors.append(
            FieldError(key, f"{key} must be a list of whole numbers, one per seat", code="type")
        )
        return None
    # the numbers only when this list added no error (the caller raises on any)
    found = len(errors)
    for i, item in enumerate(value):
        if not _int(item):
            errors.append(FieldError(f"{key}[{i}]", "must be a whole number", code="type"))
        elif item < 0:
            errors.append(FieldError(f"{key}[{i}]", "must not be negative", code="negative"))
        elif item % step:
            errors.append(
                FieldError(
                    f"{key}[{i}]",
                    f"{item} is not a multiple of {step}",
                    code="multiple",
                    params={"value": item, "step": step},
                )
            )
    if seats is not None and len(value) != seats:
        errors.append(
            FieldError(
                key,
                f"{key} has {len(value)} entries for {seats} seats",
                code="length",
                params={"count": len(value), "seats": seats},
            )
        )
    return tuple(value) if len(errors) == found else None


def parse_record(ruleset: Ruleset, data: object) -> HandRecord:
    """Validate a raw hand record (as read from JSON or a form) against ``ruleset``.

    Returns a :class:`HandRecord`, or raises :class:`InvalidInput` listing every problem
    found, each naming its field: unknown keys; ``seats`` not a table size of the ruleset;
    ``declarer`` outside the table; ``bid`` under the minimum or off the step; an outcome the
    ruleset does not play, or a concession it does not allow; lists of the wrong length;
    negative or non-multiple-of-10 melds, or melds no hand of the seat's size can hold
    (:func:`impossible_melds`); trick points that do not add up to the total
    (250) or that no seat could hold under the card-point scheme; tricks taken that do not
    add up to the number of tricks; a ``won`` flag outside special games; a penalty the
    ruleset does not know, on a seat outside the table, or a misdiscard by a defender; a
    ``trump`` that is not a suit letter (code ``trump``), or any trump on a hand the ruleset
    plays without one (:func:`trump_errors`, code ``no_trump_in_special``).
    """
    if not isinstance(data, dict):
        raise InvalidInput([FieldError("hand", "a hand record must be an object", code="type")])
    errors: list[FieldError] = []
    for key in data:
        if key not in RECORD_KEYS and key != "ruleset":
            # an empty or odd key still gets a field name a clerk can see
            errors.append(FieldError(str(key) or "hand", f"unknown field {key!r}", code="unknown"))

    seats = data.get("seats")
    if not _int(seats) or seats not in ruleset.seat_counts:
        allowed = ", ".join(map(str, ruleset.seat_counts))
        errors.append(
            FieldError(
                "seats",
                f"{ruleset.id} is played by {allowed} players",
                code="seats",
                params={"allowed": allowed},
            )
        )
        seats = None

    declarer = data.get("declarer")
    if not _int(declarer):
        errors.append(FieldError("declarer", "declarer must be a seat number", code="type"))
        declarer = None
    elif seats is not None and not 0 <= declarer < seats:
        errors.append(
            FieldError(
                "declarer",
                f"seat {declarer} is not at a table of {seats} (0–{seats - 1})",
                code="seat",
                params={"seat": declarer, "seats": seats},
            )
        )
        declarer = None

    bid = data.get("bid")
    if not _int(bid):
        errors.append(FieldError("bid", "bid must be a whole number of points", code="type"))
        bid = None
    elif bid < ruleset.min_bid:
        errors.append(
            FieldError(
                "bid",
                f"bid {bid} is under the minimum bid of {ruleset.min_bid}",
                code="min_bid",
                params={"bid": bid, "min": ruleset.min_bid},
            )
        )
        bid = None
    elif (bid - ruleset.min_bid) % ruleset.bid_step:
        errors.append(
            FieldError(
                "bid",
                f"bid {bid} is off the bidding steps ({ruleset.min_bid}, "
                f"{ruleset.min_bid + ruleset.bid_step}, … in steps of {ruleset.bid_step})",
                code="step",
                params={"bid": bid, "step": ruleset.bid_step, "min": ruleset.min_bid},
            )
        )
        bid = None

    outcome = data.get("outcome")
    if outcome not in OUTCOMES:
        errors.append(
            FieldError("outcome", f"outcome must be one of {', '.join(OUTCOMES)}", code="choice")
        )
        outcome = None
    elif outcome not in ruleset.outcomes:
        errors.append(
            FieldError(
                "outcome",
                f"{outcome} is not played under {ruleset.id}",
                code="not_played",
                params={"outcome": outcome},
            )
        )
        outcome = None

    melds = tricks = tricks_taken = None
    if "melds" in data:
        melds = _int_list(data, "melds", seats, errors, step=10)
    elif outcome in ("played", "abgehen"):
        errors.append(
            FieldError("melds", "melds are required, one number per seat", code="required")
        )
    if melds is not None and seats is not None and outcome in ("played", "abgehen"):
        errors.extend(impossible_melds(ruleset, seats, melds))
    if outcome in SPECIAL_OUTCOMES and melds is not None and any(melds):
        errors.append(
            FieldError("melds", f"nobody melds in a {outcome}", code="no_melds_in_special")
        )

    if "tricks" in data:
        if outcome is not None and outcome != "played":
            errors.append(
                FieldError(
                    "tricks", f"no trick points are counted for {outcome}", code="not_counted"
                )
            )
        else:
            tricks = _int_list(data, "tricks", seats, errors)
    elif outcome == "played":
        errors.append(
            FieldError("tricks", "trick points are required, one number per seat", code="required")
        )

    if "tricks_taken" in data:
        if outcome is not None and outcome != "played":
            errors.append(
                FieldError(
                    "tricks_taken", f"no tricks are counted for {outcome}", code="not_counted"
                )
            )
        else:
            tricks_taken = _int_list(data, "tricks_taken", seats, errors)
            if tricks_taken is not None and seats is not None:
                expected = ruleset.deal_for(seats).cards_per_player
                if sum(tricks_taken) != expected:
                    errors.append(
                        FieldError(
                            "tricks_taken",
                            f"{sum(tricks_taken)} tricks; a hand at {seats} seats has {expected}",
                            code="tricks_sum",
                            params={"sum": sum(tricks_taken), "expected": expected},
                        )
                    )
                    tricks_taken = None

    if tricks is not None and seats is not None:
        total = ruleset.trick_points_total
        if sum(tricks) != total:
            errors.append(
                FieldError(
                    "tricks",
                    f"trick points add up to {sum(tricks)}, not {total}",
                    code="sum",
                    params={"sum": sum(tricks), "total": total},
                )
            )
        for i, value in enumerate(tricks):
            taken = tricks_taken[i] if tricks_taken is not None else None
            possible = possible_trick_points(ruleset, seats, i == declarer, taken)
            if value not in possible:
                if taken is not None:
                    why = f"{value} trick points cannot be made with {taken} tricks"
                else:
                    why = f"{value} trick points are impossible under this card-point scheme"
                errors.append(
                    FieldError(
                        f"tricks[{i}]",
                        why,
                        code="impossible",
                        params={"value": value, "taken": taken},
                    )
                )
        seat_errors = any(e.field.startswith("tricks") for e in errors)
        if (
            not seat_errors
            and isinstance(declarer, int)
            and len(tricks) == seats
            and not last_trick_fits(ruleset, seats, declarer, tricks, tricks_taken)
        ):
            errors.append(
                FieldError(
                    "tricks",
                    "no deal gives these trick points together: only one seat takes the "
                    f"last trick (+{ruleset.last_trick_bonus})",
                    code="last_trick",
                    params={"bonus": ruleset.last_trick_bonus},
                )
            )

    won = data.get("won")
    if outcome in SPECIAL_OUTCOMES:
        if not isinstance(won, bool):
            errors.append(
                FieldError(
                    "won", f"say whether the {outcome} was won (true/false)", code="required"
                )
            )
            won = None
    elif "won" in data:
        errors.append(
            FieldError(
                "won",
                "won is only entered for Durch and Bettel; the engine decides",
                code="not_allowed",
            )
        )
        won = None

    penalty = None
    if data.get("penalty") is not None:
        penalty = _parse_penalty(ruleset, data["penalty"], seats, declarer, outcome, errors)

    trump = None
    if data.get("trump") is not None:
        try:
            trump = parse_trump(data["trump"])
        except InvalidInput as exc:
            errors.extend(exc.errors)
        else:
            if outcome is not None:
                trump_problems = trump_errors(ruleset, outcome, trump)
                errors.extend(trump_problems)
                if trump_problems:
                    trump = None

    if (
        outcome == "abgehen"
        and ruleset.abgehen is not None
        and ruleset.abgehen.only_when_unreachable
    ):
        if melds is not None and bid is not None and seats is not None and declarer is not None:
            side = _side_of(ruleset, seats, declarer)
            side_melds = sum(melds[s] for s in side)
            limit = side_melds + ruleset.trick_points_total
            if bid <= limit:
                errors.append(
                    FieldError(
                        "outcome",
                        f"conceding is allowed only when the bid exceeds melds + "
                        f"{ruleset.trick_points_total} ({limit}); bid {bid}",
                        code="abgehen_not_allowed",
                        params={"bid": bid, "limit": limit},
                    )
                )

    if errors:
        raise InvalidInput(errors)
    assert seats is not None and declarer is not None and bid is not None and outcome is not None
    return HandRecord(
        seats=seats,
        declarer=declarer,
        bid=bid,
        outcome=outcome,
        melds=melds,
        tricks=tricks,
        tricks_taken=tricks_taken,
        won=won if outcome in SPECIAL_OUTCOMES else None,
        penalty=penalty,
        trump=trump,
    )


def _parse_penalty(
    ruleset: Ruleset,
    value: Any,
    seats: int | None,
    declarer: int | None,
    outcome: str | None,
    errors: list[FieldError],
) -> PenaltyRecord | None:
    if not isinstance(value, dict) or set(value) - {"type", "seat"}:
        errors.append(
            FieldError("penalty", 'penalty must be {"type": ..., "seat": n}', code="type")
        )
        return None
    kind, seat = value.get("type"), value.get("seat")
    # the record only when this penalty added no error (the caller raises on any)
    found = len(errors)
    if kind not in PENALTY_TYPES:
        errors.append(
            FieldError(
                "penalty.type",
                f"penalty type must be one of {', '.join(PENALTY_TYPES)}",
                code="choice",
            )
        )
    elif kind == "verwerfen" and ruleset.revoke is None:
        errors.append(
            FieldError("penalty.type", f"{ruleset.id} has no revoke penalty", code="not_played")
        )
    elif kind == "falsch-druecken" and ruleset.misdiscard is None:
        errors.append(
            FieldError("penalty.type", f"{ruleset.id} has no misdiscard penalty", code="not_played")
        )
    if not _int(seat) or (seats is not None and not 0 <= seat < seats):
        errors.append(FieldError("penalty.seat", "penalty seat is not at the table", code="seat"))
    elif kind == "falsch-druecken" and declarer is not None and seat != declarer:
        errors.append(
            FieldError(
                "penalty.seat",
                "only the declarer discards, so only the declarer can misdiscard",
                code="misdiscard_seat",
            )
        )
    if outcome is not None and outcome != "played":
        errors.append(
            FieldError(
                "penalty",
                f"penalties are scored on played hands, not {outcome}",
                code="not_allowed",
            )
        )
    return PenaltyRecord(kind, seat) if len(errors) == found else None


# ---------------------------------------------------------------------------- scoring


def _side_of(ruleset: Ruleset, seats: int, seat: int) -> tuple[int, ...]:
    for side in ruleset.sides(seats):
        if seat in side:
            return side
    raise ValueError(seat)  # pragma: no cover - seats are validated


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

    Raises :class:`InvalidInput` with every problem of the record.
    """
    return score_hand(ruleset, parse_record(ruleset, data))


def validate_record(ruleset: Ruleset, data: object) -> list[FieldError]:
    """Every problem of a raw hand record (empty when it is valid); never raises."""
    try:
        parse_record(ruleset, data)
    except InvalidInput as exc:
        return exc.errors
    return []
