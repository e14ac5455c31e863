"""A hand as the clerk typed it, checked and scored by the rules engine.

A :class:`HandInput` is what the clerk typed, with seats given as *table positions*
(0 … 3).  :func:`evaluate` maps it to an engine hand record — at a 4-player table where the
dealer sits out, the three active positions become engine seats 0, 1, 2 in playing order —,
validates and scores it, and maps every engine error back to the form field it concerns,
with a German (or English) message.  :func:`judge_play` asks the engine about a revoke.
Nothing here writes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from rules import HandRecord, HandScore, InvalidInput, parse_record, score_hand
from rules.meldrare import meld_warnings
from rules.play import play_request
from rules.scoring import SPECIAL_OUTCOMES
from tournament.engine_messages import engine_message
from tournament.models import Tournament

from ..models import Hand
from .seating import (
    active_positions,
)

logger = logging.getLogger(__name__)


@dataclass
class HandInput:
    """One hand as entered.  Seats are table positions; ``melds``/``tricks`` map a
    position to points (``None`` = left blank).  A single blank trick field is computed
    from the total (250) by :func:`evaluate` and reported in ``Evaluation.computed``."""

    number: int
    dealer: int
    declarer: int | None
    bid: int | None
    outcome: str
    trump: str = ""
    melds: dict[int, int | None] = field(default_factory=dict)
    tricks: dict[int, int | None] = field(default_factory=dict)
    won: bool | None = None
    penalty_type: str = ""
    penalty_seat: int | None = None
    confirm_rare: bool = False
    clear_tricks: bool = False


@dataclass
class Evaluation:
    """The engine's verdict on a :class:`HandInput`.

    ``errors``: form field → messages (empty when valid); ``record``/``score``: the engine
    record and its score (``None`` when invalid); ``scores``: points per table position;
    ``computed``: trick points filled in from the total, by position; ``warnings``: form
    field → messages about rare but possible entries (a meld total that fewer than 1 in
    1,000 hands exceed, :func:`rules.meldrare.meld_warnings`), which :func:`save_hand`
    stores only when the entry says ``confirm_rare``.
    """

    errors: dict[str, list[str]]
    positions: list[int]
    record: HandRecord | None = None
    score: HandScore | None = None
    scores: dict[int, int] = field(default_factory=dict)
    computed: dict[int, int] = field(default_factory=dict)
    warnings: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


def _field_for(engine_field: str, positions: list[int]) -> str:
    """Form field name for an engine error field such as ``melds[2]`` or ``penalty.seat``."""
    if "[" in engine_field:
        name, index = engine_field.rstrip("]").split("[", 1)
        if name in ("melds", "tricks", "tricks_taken") and index.isascii() and index.isdigit():
            return f"{name}_{positions[int(index)]}"
        return name
    return {
        "penalty.type": "penalty_type",
        "penalty.seat": "penalty_seat",
        "penalty": "penalty_type",
        "seats": "__all__",
    }.get(engine_field, engine_field)


def evaluate(tournament: Tournament, size: int, entry: HandInput) -> Evaluation:
    """Validate and score ``entry`` at a table of ``size`` players under the tournament's
    frozen ruleset.  Never raises for bad input: every problem is in ``errors``."""
    ruleset = tournament.ruleset
    positions = active_positions(tournament, size, entry.dealer)
    result = Evaluation(errors={}, positions=positions)

    def add(field_name: str, message: str) -> None:
        result.errors.setdefault(field_name, []).append(message)

    declarer = entry.declarer
    if declarer is not None and declarer not in positions:
        add("declarer", _("Der Geber setzt aus und kann nicht Spielführer sein."))
        declarer = None
    penalty_seat = entry.penalty_seat
    if entry.penalty_type and penalty_seat is not None and penalty_seat not in positions:
        add("penalty_seat", _("Dieser Spieler spielt in diesem Spiel nicht mit."))
        penalty_seat = None
    for p in range(size):
        # the dealer who sits out at a table of four plays nothing: a value typed for him
        # was dropped without a word (issue 37.31)
        if p in positions:
            continue
        for name in ("melds", "tricks"):
            if getattr(entry, name).get(p) is not None:
                add(
                    f"{name}_{p}",
                    _("Der Geber setzt in diesem Spiel aus: bei ihm bitte nichts eintragen."),
                )
    if entry.outcome == "played" and not entry.trump:
        add("trump", _("Bitte Trumpf angeben."))
    if entry.outcome == "abgehen" and not entry.clear_tricks:
        typed = [p for p in positions if entry.tricks.get(p) is not None]
        for p in typed:
            add(f"tricks_{p}", _("Bei Abgehen zählen keine Stichpunkte – Felder leeren?"))
        if typed:
            add(
                "clear_tricks", _("Bitte die Stichpunkte leeren oder einen anderen Ausgang wählen.")
            )
    own = set(result.errors)  # our messages are more specific than the engine's for these

    data: dict[str, object] = {
        "seats": len(positions),
        "declarer": positions.index(declarer) if declarer is not None else None,
        "bid": entry.bid,
        "outcome": entry.outcome,
    }
    if entry.trump:
        # the engine refuses a trump on a Durch or Bettel played without one
        data["trump"] = entry.trump
    if entry.outcome in ("played", "abgehen"):
        melds = [entry.melds.get(p) for p in positions]
        data["melds"] = [m if m is not None else 0 for m in melds]
    if entry.outcome == "played":
        tricks = [entry.tricks.get(p) for p in positions]
        blanks = [i for i, t in enumerate(tricks) if t is None]
        if len(blanks) == 1:
            known = sum(t for t in tricks if t is not None)
            value = ruleset.trick_points_total - known
            tricks[blanks[0]] = value
            result.computed[positions[blanks[0]]] = value
        elif blanks:
            for i in blanks:
                add(
                    f"tricks_{positions[i]}",
                    _("Stichpunkte fehlen (nur ein Feld darf leer bleiben)."),
                )
            own.add("tricks")
            tricks = [t if t is not None else 0 for t in tricks]
        data["tricks"] = tricks
    if entry.outcome in SPECIAL_OUTCOMES:
        data["won"] = entry.won
    if entry.penalty_type:
        data["penalty"] = {
            "type": entry.penalty_type,
            "seat": positions.index(penalty_seat) if penalty_seat is not None else None,
        }
    computed_fields = {f"tricks_{p}" for p in result.computed}
    typed_tricks = [f"tricks_{p}" for p in positions if entry.tricks.get(p) is not None]
    try:
        record = parse_record(ruleset, data)
    except InvalidInput as exc:
        for error in exc.errors:
            name = _field_for(error.field, positions)
            if name in computed_fields:
                # the clerk did not type this field: blame the fields that were typed
                message = _(
                    "Die eingegebenen Stichpunkte ergeben zusammen %(sum)s; für das leere "
                    "Feld bliebe %(rest)s (Summe aller Stiche: %(total)s)."
                ) % {
                    "sum": ruleset.trick_points_total - sum(result.computed.values()),
                    "rest": sum(result.computed.values()),
                    "total": ruleset.trick_points_total,
                }
                for typed_name in typed_tricks:
                    if name not in own:
                        add(typed_name, message)
                continue
            if name not in own and not (name.startswith("tricks") and "tricks" in own):
                add(name, engine_message(error, ruleset))
        return result
    if result.errors:
        return result
    score = score_hand(ruleset, record)
    result.record, result.score = record, score
    result.scores = {p: 0 for p in range(size)}
    for engine_seat, position in enumerate(positions):
        result.scores[position] = score.scores[engine_seat]
    for warning in meld_warnings(ruleset, record):
        name = _field_for(warning.field, positions)
        result.warnings.setdefault(name, []).append(engine_message(warning, ruleset))
    return result


def declaring_side(ruleset, positions: list[int], declarer: int | None) -> set[int]:
    """Table positions of the side that declared: the declarer alone, or at a partnership
    table (:meth:`rules.Ruleset.sides`, seats 0+2 against 1+3) the declarer and partner,
    who share the team's game (seed 000 "Die Spieler": partners score together), so both
    count it as won or lost as declarer.  Empty without a declarer."""
    if declarer is None or declarer not in positions:
        return set()
    engine_seat = positions.index(declarer)
    for side in ruleset.sides(len(positions)):
        if engine_seat in side:
            return {positions[s] for s in side}
    return {declarer}


def hand_input_from(hand: Hand, **changes) -> HandInput:
    """The stored ``hand`` as a :class:`HandInput` (positions as stored), with ``changes``
    applied — e.g. a penalty a ruling adds."""
    values = {
        "number": hand.number,
        "dealer": hand.dealer,
        "declarer": hand.declarer,
        "bid": hand.bid,
        "outcome": hand.outcome,
        "trump": hand.trump,
        "melds": dict(enumerate(hand.melds or [])),
        "tricks": dict(enumerate(hand.tricks or [])),
        "won": hand.won,
        "penalty_type": hand.penalty_type,
        "penalty_seat": hand.penalty_seat,
        "confirm_rare": True,  # the stored melds were confirmed when they were entered
    }
    values.update(changes)
    return HandInput(**values)


@dataclass
class PlayCheck:
    """A revoke question as typed: trump letter (``""`` = no trump: Durch, Bettel), the
    cards already in the trick (lead first), the player's hand, the card played; cards as
    lists of codes (GLOSSARY: rank then suit, e.g. ``AH``)."""

    trump: str
    trick: list[str]
    hand: list[str]
    card: str


def judge_play(tournament: Tournament, question: PlayCheck):
    """Judge a play for a revoke (Verwerfen) ruling with the rules engine
    (:func:`rules.play.play_request`; obligations from the ruleset's play rules).

    Returns ``(verdict, errors)``: a :class:`rules.play.PlayVerdict`, or ``None`` with
    form field (``trump``, ``trick``, ``hand``, ``card``) → German messages.
    """
    ruleset = tournament.ruleset
    try:
        verdict = play_request(
            ruleset, question.trump or None, question.trick, question.hand, question.card
        )
    except InvalidInput as exc:
        errors: dict[str, list[str]] = {}
        lists = {"trick": question.trick, "hand": question.hand}
        for error in exc.errors:
            name = error.field.split("[")[0]
            message = engine_message(error, ruleset)
            if "[" in error.field and name in lists:
                index = int(error.field.split("[")[1].rstrip("]"))
                message = f"{lists[name][index]}: {message}"
            if message not in errors.get(name, []):
                errors.setdefault(name, []).append(message)
        return None, errors
    return verdict, {}
