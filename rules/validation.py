"""Validating a raw hand record against a ruleset: :func:`parse_record`.

A raw record (read from JSON or a form; its fields and units are described in
:mod:`rules.record`) is checked field by field, and every problem found is reported at once
as a :class:`~rules.errors.FieldError` naming its field, so the clerk's form can mark each
one.  :func:`parse_record` runs the checks as named steps, in the order of the record's
fields (keys, seats, declarer, bid, outcome, melds, tricks, tricks taken, trick points, won,
penalty, trump, concession); a later step sees the earlier ones' values, ``None`` where a
value was refused, so one wrong field does not bring a cascade of errors about the others.
:func:`validate_record` returns the same errors as a list instead of raising.
"""

from __future__ import annotations

from typing import Any

from .errors import FieldError, InvalidInput
from .feasibility import impossible_melds, last_trick_fits, possible_trick_points
from .melds import parse_trump
from .record import (
    OUTCOMES,
    PENALTY_TYPES,
    RECORD_KEYS,
    SPECIAL_OUTCOMES,
    HandRecord,
    PenaltyRecord,
)
from .ruleset import Ruleset


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
    _check_keys(data, errors)
    seats = _parse_seats(ruleset, data, errors)
    declarer = _parse_declarer(data, seats, errors)
    bid = _parse_bid(ruleset, data, errors)
    outcome = _parse_outcome(ruleset, data, errors)
    melds = _parse_melds(ruleset, data, seats, outcome, errors)
    tricks = _parse_tricks(data, seats, outcome, errors)
    tricks_taken = _parse_tricks_taken(ruleset, data, seats, outcome, errors)
    if tricks is not None and seats is not None:
        _check_trick_points(ruleset, seats, declarer, tricks, tricks_taken, errors)
    won = _parse_won(data, outcome, errors)

    penalty = None
    if data.get("penalty") is not None:
        penalty = _parse_penalty(ruleset, data["penalty"], seats, declarer, outcome, errors)

    trump = _parse_trump_field(ruleset, data, outcome, errors)
    _check_concession(ruleset, seats, declarer, bid, outcome, melds, errors)

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


# The steps of parse_record, in the order it runs them.  Each appends its problems to
# ``errors``; a _parse_ step returns the field's value, ``None`` when it is refused or absent.


def _check_keys(data: dict[str, Any], errors: list[FieldError]) -> None:
    """Unknown keys (not in :data:`RECORD_KEYS`, nor ``ruleset``): code ``unknown``."""
    for key in data:
        if key not in RECORD_KEYS and key != "ruleset":
            # an empty or odd key still gets a field name a clerk can see
            errors.append(FieldError(str(key) or "hand", f"unknown field {key!r}", code="unknown"))


def _parse_seats(ruleset: Ruleset, data: dict[str, Any], errors: list[FieldError]) -> int | None:
    """``seats``, one of the ruleset's table sizes: code ``seats``."""
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
    return seats


def _parse_declarer(
    data: dict[str, Any], seats: int | None, errors: list[FieldError]
) -> int | None:
    """``declarer``, a seat number (code ``type``) at the table (code ``seat``)."""
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
    return declarer


def _parse_bid(ruleset: Ruleset, data: dict[str, Any], errors: list[FieldError]) -> int | None:
    """``bid`` in game points: a whole number (code ``type``), at least the minimum bid
    (code ``min_bid``), on the bidding steps (code ``step``)."""
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
    return bid


def _parse_outcome(ruleset: Ruleset, data: dict[str, Any], errors: list[FieldError]) -> str | None:
    """``outcome``, one of :data:`OUTCOMES` (code ``choice``) that the ruleset plays (code
    ``not_played``)."""
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
    return outcome


def _parse_melds(
    ruleset: Ruleset,
    data: dict[str, Any],
    seats: int | None,
    outcome: str | None,
    errors: list[FieldError],
) -> tuple[int, ...] | None:
    """``melds``: a list of multiples of 10 (:func:`_int_list`), required for a played or
    conceded hand (code ``required``), each total one a hand can hold
    (:func:`impossible_melds`), all zero in a special game (code ``no_melds_in_special``)."""
    melds = None
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
    return melds


def _parse_tricks(
    data: dict[str, Any], seats: int | None, outcome: str | None, errors: list[FieldError]
) -> tuple[int, ...] | None:
    """``tricks`` (trick points per seat): only on a played hand (code ``not_counted``),
    required there (code ``required``), a list of whole numbers (:func:`_int_list`)."""
    tricks = None
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
    return tricks


def _parse_tricks_taken(
    ruleset: Ruleset,
    data: dict[str, Any],
    seats: int | None,
    outcome: str | None,
    errors: list[FieldError],
) -> tuple[int, ...] | None:
    """``tricks_taken`` (tricks per seat, optional): only on a played hand (code
    ``not_counted``), adding up to the cards each player is dealt (code ``tricks_sum``)."""
    tricks_taken = None
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
    return tricks_taken


def _check_trick_points(
    ruleset: Ruleset,
    seats: int,
    declarer: int | None,
    tricks: tuple[int, ...],
    tricks_taken: tuple[int, ...] | None,
    errors: list[FieldError],
) -> None:
    """The trick points of a parsed ``tricks`` list: adding up to the hand's total (code
    ``sum``), each one a seat can hold (:func:`possible_trick_points`, code ``impossible``),
    and, when no ``tricks`` field has an error yet, all of them in one deal
    (:func:`last_trick_fits`, code ``last_trick``)."""
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


def _parse_won(data: dict[str, Any], outcome: str | None, errors: list[FieldError]) -> bool | None:
    """``won``: required for a special game (code ``required``), refused for any other
    outcome (code ``not_allowed``)."""
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
    return won


def _parse_trump_field(
    ruleset: Ruleset, data: dict[str, Any], outcome: str | None, errors: list[FieldError]
) -> str | None:
    """``trump`` (optional): a suit letter (:func:`rules.melds.parse_trump`, code
    ``trump``), none on a hand played without trump (:func:`trump_errors`)."""
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
    return trump


def _check_concession(
    ruleset: Ruleset,
    seats: int | None,
    declarer: int | None,
    bid: int | None,
    outcome: str | None,
    melds: tuple[int, ...] | None,
    errors: list[FieldError],
) -> None:
    """A concession where the ruleset allows it only when the bid is out of reach
    (``abgehen.only_when_unreachable``, seed 000 "Sich freiwillig überreizen"): the bid must
    exceed the declaring side's melds plus all trick points (code ``abgehen_not_allowed``
    on field ``outcome``)."""
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


def _side_of(ruleset: Ruleset, seats: int, seat: int) -> tuple[int, ...]:
    for side in ruleset.sides(seats):
        if seat in side:
            return side
    raise ValueError(seat)  # pragma: no cover - seats are validated


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


def validate_record(ruleset: Ruleset, data: object) -> list[FieldError]:
    """Every problem of a raw hand record (empty when it is valid); never raises."""
    try:
        parse_record(ruleset, data)
    except InvalidInput as exc:
        return exc.errors
    return []
