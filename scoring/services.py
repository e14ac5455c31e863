"""Hand entry: the thin layer between the clerk's form and the rules engine.

A :class:`HandInput` is what the clerk typed, with seats given as *table positions*
(0 … 3).  :func:`evaluate` maps it to an engine hand record — at a 4-player table where the
dealer sits out, the three active positions become engine seats 0, 1, 2 in playing order —,
validates and scores it, and maps every engine error back to the form field it concerns, with
a German (or English) message.  :func:`save_hand` stores the entry and the engine's per-seat
scores in one transaction; a correction bumps the hand's version and is kept in its history.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import HandRecord, HandScore, InvalidInput, parse_record, score_hand
from rules.meldrare import meld_warnings
from rules.play import play_request
from rules.scoring import SPECIAL_OUTCOMES
from rules.totals import check_round_total
from tournament.engine_messages import engine_message
from tournament.models import Round, Seat, Table, Tournament
from tournament.services import lock_round, may_enter

from .cache import bump_version, cache_version, invalidate_standings, standings_cache_key  # noqa: F401  (callers name them here)
from .models import Hand, RoundTotal, Ruling, SeatScore, TableLink
from .signals import round_closed

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


@dataclass(frozen=True)
class TableSource:
    """Who writes when the players of a table enter through its private link: the
    :class:`~scoring.models.TableLink`, the phone (``device``: a random id kept in that
    phone's session) and the author text for the entry and its history ("Tisch 7 (Link)").
    Built by :mod:`table_entry.services`."""

    link: TableLink
    device: str
    label: str


class StaleEntry(Exception):
    """The hand was changed by someone else since the clerk loaded it."""

    def __init__(self, hand: Hand):
        self.hand = hand
        super().__init__(f"hand {hand.pk} is at version {hand.version}")


class WriteRefused(Exception):
    """A correction refused under the round's lock, with the message for one form field:
    ``field`` is the field, ``str()`` the German message (:func:`save_hand` returns it as
    an error of the evaluation)."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(message)


class RulingStands(WriteRefused):
    """A write would change what a director's ruling decided on a hand (security review,
    round 3, finding 4)."""


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


def save_hand(
    table: Table,
    entry: HandInput,
    user,
    expected_version: int | None = None,
    reason: str = "",
    via: TableSource | None = None,
) -> tuple[Hand | None, Evaluation]:
    """Validate, score and store one hand of ``table`` in one transaction.

    A new game number creates the hand; an existing one is a correction and requires
    ``expected_version`` to match the stored version (else :class:`StaleEntry` is
    raised, carrying the current hand).  ``reason`` is kept as the history record's change
    reason; a correction (``expected_version`` given) requires it, and once the round is
    closed every write does (an error on ``reason``), and only an account with
    ``scoring.correct_closed_round`` (the director) may write: the change is then an
    adjustment.  A correction clears a confirmation.  Returns ``(hand,
    evaluation)``; ``hand`` is ``None`` and nothing is written when the evaluation has
    errors, or when it has warnings (a rare meld) and ``entry.confirm_rare`` is not set
    (then ``errors["confirm_rare"]`` asks for the tick).  Raises ``PermissionError`` when
    the round has not started, is closed and
    ``user`` may not adjust it, or the tournament enters round totals.

    ``via`` (with ``user=None``): the players of the table write through its link; the hand
    names the link, the device and "Tisch 7 (Link)" as its enterer and history author, and
    counts as provisional until confirmed.  Under the round's lock the link must still be
    live (else ``PermissionError``), so a revoked link or a closed round writes nothing.
    """
    round_: Round = table.round
    tournament = round_.tournament
    check_writable(round_, Tournament.EntryMode.HANDS, user)
    seats = table_seats(table)
    evaluation = evaluate(tournament, len(seats), entry)
    if message := _game_number_error(tournament, entry.number):
        evaluation.errors.setdefault("number", []).append(message)
    reason = (reason or "").strip()
    if round_.status == Round.Status.CLOSED and not reason:
        evaluation.errors.setdefault("reason", []).append(_reason_required_message())
    if evaluation.ok and evaluation.warnings and not entry.confirm_rare:
        evaluation.errors.setdefault("confirm_rare", []).append(
            _("Seltene Meldung: bitte „Ja, wirklich“ ankreuzen oder die Meldung korrigieren.")
        )
    if not evaluation.ok:
        if expected_version is not None and not reason and "reason" not in evaluation.errors:
            # every field's error at once; a stale version or a ruling is told first when
            # the rest is right (checked under the lock, :func:`_write_hand`)
            evaluation.errors["reason"] = [correction_reason_message()]
        return None, evaluation
    assert evaluation.record is not None and evaluation.score is not None
    positions = evaluation.positions
    values = {
        "dealer": entry.dealer,
        "declarer": entry.declarer,
        "bid": entry.bid,
        "trump": entry.trump,
        "outcome": entry.outcome,
        "melds": _by_position(evaluation.record.melds or (), positions, len(seats)),
        "tricks": (
            _by_position(evaluation.record.tricks, positions, len(seats))
            if evaluation.record.tricks is not None
            else None
        ),
        "won": evaluation.record.won,
        "penalty_type": entry.penalty_type,
        "penalty_seat": entry.penalty_seat if entry.penalty_type else None,
        "scores": [evaluation.scores[p] for p in range(len(seats))],
        "declarer_won": evaluation.score.declarer_won,
    }
    try:
        with transaction.atomic():
            hand = _write_hand(table, entry.number, values, user, expected_version, reason, via)
            _rebuild_seat_scores(
                hand, seats, positions, round_.number, tournament.pk, tournament.ruleset
            )
            transaction.on_commit(lambda: invalidate_standings(tournament.pk))
    except WriteRefused as exc:
        evaluation.errors.setdefault(exc.field, []).append(str(exc))
        return None, evaluation
    except IntegrityError as exc:
        # the same new game number committed meanwhile by another clerk: the unique
        # constraint refuses the second insert.  Any other integrity error is a fault, not
        # someone else's change, and is raised as it is (issue 29).
        current = Hand.objects.filter(table=table, number=entry.number).first()
        if current is None or not is_unique_clash(exc, Hand, "unique_hand_number"):
            raise
        raise StaleEntry(current) from exc
    return hand, evaluation


def is_unique_clash(exc: IntegrityError, model, constraint: str) -> bool:
    """Whether ``exc`` is the database refusing a second row under ``model``'s unique
    ``constraint`` (a concurrent first save), not another integrity error (a check or
    foreign key) that must not be reported as "changed meanwhile".  PostgreSQL names the
    constraint in its message, SQLite the constraint's columns."""
    text = str(exc)
    if constraint in text:
        return True
    fields = next(c.fields for c in model._meta.constraints if c.name == constraint)
    table = model._meta.db_table
    columns = ", ".join(f"{table}.{model._meta.get_field(f).column}" for f in fields)
    return f"UNIQUE constraint failed: {columns}" in text


def _game_number_error(tournament: Tournament, number: int) -> str | None:
    """The message for a game number outside 1 … games per round, or ``None``."""
    if 1 <= number <= tournament.games_per_round:
        return None
    return _("Spielnummer muss zwischen 1 und %(n)s liegen.") % {"n": tournament.games_per_round}


def _reason_required_message() -> str:
    return _("Die Runde ist abgeschlossen: bitte den Grund der Korrektur angeben.")


def correction_reason_message() -> str:
    """The error on ``reason`` when a saved hand is corrected without saying why."""
    return _("Grund der Korrektur fehlt: bitte angeben, warum das Spiel geändert wird.")


def _write_hand(table, number, values, user, expected_version, reason, via=None) -> Hand:
    """Create or correct the hand ``number`` of ``table`` (inside a transaction), after
    locking the round and re-checking, under the lock, that it may be written (and, for
    ``via``, that its link is still live)."""
    round_ = _lock_open_round(table.round_id, Tournament.EntryMode.HANDS, user, reason)
    if via is not None:
        check_link_live(via.link, round_)
    source = {
        "entered_by_name": via.label if via else "",
        "table_link": via.link if via else None,
        "entered_device": via.device if via else "",
    }
    hand = Hand.objects.select_for_update().filter(table=table, number=number).first()
    if hand is None:
        hand = Hand(table=table, number=number, entered_by=user, **source, **values)
        _save_version(hand, reason, via)
        return hand
    if expected_version is None or expected_version != hand.version:
        raise StaleEntry(hand)
    _check_ruling(hand, values, user, via)
    if not reason:
        raise WriteRefused("reason", correction_reason_message())
    _supersede(hand, values, user, reason, source, via)
    return hand


def _check_ruling(hand: Hand, values: dict, user, via: TableSource | None) -> None:
    """Raise :class:`RulingStands` when a correction of ``hand`` would undo a director's
    ruling on it: through a table link any change of a ruled hand, with or without a
    penalty (the players call the director instead); by a clerk any change of the stored
    penalty of a hand whose ruling set one (other values may be corrected).  The director
    (``tournament.change_round``) may correct everything; the history keeps both versions."""
    rulings = Ruling.objects.filter(table_id=hand.table_id, hand_number=hand.number)
    if not rulings.exists():
        return
    if via is not None:
        raise RulingStands(
            "__all__",
            _(
                "Zu Spiel %(n)s hat die Turnierleitung entschieden; am Tisch lässt es sich "
                "nicht mehr ändern. Bitte die Turnierleitung rufen."
            )
            % {"n": hand.number},
        )
    if user is not None and user.has_perm("tournament.change_round"):
        return
    if not rulings.exclude(consequence="").exists():
        return
    stored = (hand.penalty_type or "", hand.penalty_seat if hand.penalty_type else None)
    if (values["penalty_type"] or "", values["penalty_seat"]) != stored:
        raise RulingStands(
            "penalty_type",
            _(
                "Die Strafe in Spiel %(n)s hat die Turnierleitung entschieden; ändern kann "
                "sie nur die Turnierleitung."
            )
            % {"n": hand.number},
        )


def check_link_live(link: TableLink, round_: Round) -> None:
    """Raise ``PermissionError`` (message for the table) unless ``link`` opens its table
    now: not revoked, the tournament lets tables enter, the round runs.  ``round_`` is the
    link's round (locked by the caller when it writes)."""
    link.refresh_from_db(fields=["revoked_at"])
    if link.revoked_at is not None:
        raise PermissionError(
            _("Dieser Tisch-Link gilt nicht mehr; die Turnierleitung hat einen neuen ausgegeben.")
        )
    if not round_.tournament.table_entry:
        raise PermissionError(_("Bei diesem Turnier wird nicht am Tisch eingetragen."))
    if round_.status == Round.Status.PLANNED:
        raise PermissionError(_("Die Runde hat noch nicht begonnen; Einträge sind gesperrt."))
    if round_.status == Round.Status.CLOSED:
        raise PermissionError(
            _("Die Runde ist abgeschlossen; nur die Turnierleitung kann noch korrigieren.")
        )


def _lock_open_round(round_id: int, mode: str, user, reason: str) -> Round:
    """Lock the round (:func:`tournament.services.lock_round`) and re-check under the lock
    that it is open for ``user`` (it may have been closed since :func:`check_writable`
    passed; the clerk's membership needs no second query) and that a closed round's
    adjustment has its reason.  Raises ``PermissionError``."""
    round_ = lock_round(round_id)
    _check_round_open(round_, mode, user)
    if round_.status == Round.Status.CLOSED and not reason:
        raise PermissionError(_reason_required_message())
    return round_


def _save_version(entry: Hand | RoundTotal, reason: str, via: TableSource | None = None) -> None:
    """Save ``entry`` as a new history record with ``reason`` as its change reason (and,
    for an entry through a table link, "Tisch 7 (Link)" as the record's author)."""
    entry._change_reason = reason or None
    entry._history_user_name = via.label if via else ""
    entry.save()


def _supersede(
    entry: Hand | RoundTotal,
    values: dict,
    user,
    reason: str,
    source: dict | None = None,
    via: TableSource | None = None,
) -> None:
    """Correct a stored hand or round total: new values, the next version, ``user`` (or the
    table's link, ``source``) as its enterer, its confirmation cleared (the confirmer saw
    other values), kept in history."""
    for key, value in {**values, **(source or {})}.items():
        setattr(entry, key, value)
    entry.version += 1
    entry.entered_by = user
    if not source:
        entry.entered_by_name = ""
    entry.confirmed_by, entry.confirmed_by_name = None, ""
    entry.confirmed_at = None
    _save_version(entry, reason, via)


def check_writable(round_: Round, mode: str, user=None) -> None:
    """Raise ``PermissionError`` unless ``user`` may write entries of ``round_`` in
    ``mode`` (``hands`` or ``totals``): ``user`` is one of the tournament's clerks or its
    director (:func:`tournament.services.may_enter`; ``None`` = a script), the round runs
    or is closed and ``user`` has ``scoring.correct_closed_round`` (the director's
    adjustment), and the tournament enters results in ``mode``."""
    if user is not None and not may_enter(user, round_.tournament):
        raise PermissionError(_("Sie sind bei diesem Turnier nicht als Schreiber eingetragen."))
    _check_round_open(round_, mode, user)


def _check_round_open(round_: Round, mode: str, user) -> None:
    """The state half of :func:`check_writable`: round status and entry mode."""
    if round_.status == Round.Status.PLANNED:
        raise PermissionError(_("Die Runde hat noch nicht begonnen; Einträge sind gesperrt."))
    if round_.status == Round.Status.CLOSED and not (
        user is not None and user.has_perm("scoring.correct_closed_round")
    ):
        raise PermissionError(
            _("Die Runde ist abgeschlossen; nur die Turnierleitung kann noch korrigieren.")
        )
    if round_.tournament.entry_mode != mode:
        raise PermissionError(
            _("Dieses Turnier erfasst Rundensummen, keine einzelnen Spiele.")
            if mode == Tournament.EntryMode.HANDS
            else _("Dieses Turnier erfasst einzelne Spiele, keine Rundensummen.")
        )


class ConfirmationRefused(Exception):
    """A confirmation that may not be given (own entry, nothing to confirm, or the
    tournament does not confirm entries); ``str()`` is the message for the user."""


def _lock_for_confirmation(round_id: int, user, at_table: bool = False) -> Round:
    """Lock the round and check that ``user`` may confirm its entries now (inside a
    transaction).  Raises ``PermissionError`` as :func:`check_writable`, and
    :class:`ConfirmationRefused` when the tournament does not confirm entries (an entry
    made at the table, ``at_table``, always awaits confirmation)."""
    round_ = lock_round(round_id)
    check_writable(round_, round_.tournament.entry_mode, user)
    if not (round_.tournament.confirmation_required or at_table):
        raise ConfirmationRefused(_("Dieses Turnier lässt Eingaben nicht bestätigen."))
    return round_


def confirm_hand(hand: Hand, user, expected_version: int) -> Hand:
    """Confirm ``hand`` at the version ``user`` looked at (tournaments with
    ``confirmation_required``; FIELD-NOTES: the confirmer is never the enterer).

    The confirmation is kept in the hand's history; the version does not change, a later
    correction clears it.  Raises :class:`StaleEntry` when the hand changed since it was
    loaded, :class:`ConfirmationRefused` for the own entry or an already confirmed one, and
    ``PermissionError`` when the round may not be written by ``user``.
    """
    with transaction.atomic():
        round_ = _lock_for_confirmation(
            hand.table.round_id, user, at_table=hand.table_link_id is not None
        )
        tournament = round_.tournament
        # only the hand's row is locked: the enterer (nullable since an import may name
        # an account as text) is an outer join, which PostgreSQL cannot lock
        current = (
            Hand.objects.select_for_update(of=("self",))
            .select_related("entered_by")
            .get(pk=hand.pk)
        )
        if current.version != expected_version:
            raise StaleEntry(current)
        if current.entered_by_id == user.pk:
            raise ConfirmationRefused(
                _("Die eigene Eingabe kann nicht bestätigt werden; das macht ein zweites Konto.")
            )
        if current.confirmed_at is not None:
            raise ConfirmationRefused(_("Spiel %(n)s ist schon bestätigt.") % {"n": current.number})
        current.confirmed_by = user
        current.confirmed_at = timezone.now()
        current._change_reason = _("bestätigt")
        current.save(update_fields=["confirmed_by", "confirmed_at", "updated_at"])
        transaction.on_commit(lambda: invalidate_standings(tournament.pk))
    return current


def confirm_hand_at_table(hand: Hand, via: TableSource, expected_version: int) -> Hand:
    """An opponent's "stimmt" on ``hand`` from another phone at the table (tournaments
    whose ``table_entry`` is ``opponent``; bridge-terminal practice, FIELD-NOTES "What the
    best scoring systems do").  The confirmer is named "Tisch 7 (Link, Gerät …)" and kept
    in the history; the version does not change.  Raises :class:`StaleEntry` when the hand
    changed since the phone loaded it, :class:`ConfirmationRefused` when this phone entered
    it, it is already confirmed or the tournament has a clerk confirm, ``PermissionError``
    when the link is not live (revoked, round not running)."""
    with transaction.atomic():
        round_ = lock_round(hand.table.round_id)
        check_link_live(via.link, round_)
        tournament = round_.tournament
        if tournament.table_entry != Tournament.TableEntry.OPPONENT:
            raise ConfirmationRefused(
                _("Bei diesem Turnier bestätigt ein Schreiber die Spiele, nicht der Tisch.")
            )
        current = Hand.objects.select_for_update(of=("self",)).get(pk=hand.pk)
        if current.table_id != via.link.table_id:
            raise PermissionError(_("Dieses Spiel gehört nicht zu diesem Tisch."))
        if current.version != expected_version:
            raise StaleEntry(current)
        if current.confirmed_at is not None:
            raise ConfirmationRefused(_("Spiel %(n)s ist schon bestätigt.") % {"n": current.number})
        if current.table_link_id is not None and current.entered_device == via.device:
            raise ConfirmationRefused(
                _(
                    "Dieses Spiel wurde auf diesem Handy eingetragen; „stimmt“ tippt ein "
                    "Gegenspieler auf seinem eigenen Handy."
                )
            )
        current.confirmed_by = None
        current.confirmed_by_name = _("%(label)s, Gerät %(device)s") % {
            "label": via.label,
            "device": via.device[:6],
        }
        current.confirmed_at = timezone.now()
        current._change_reason = _("bestätigt")
        current._history_user_name = via.label
        current.save(
            update_fields=["confirmed_by", "confirmed_by_name", "confirmed_at", "updated_at"]
        )
        transaction.on_commit(lambda: invalidate_standings(tournament.pk))
    return current


def confirm_table_totals(table: Table, user, expected_versions: dict[int, int | None]) -> int:
    """Confirm every unconfirmed round total of ``table`` (paper mode) at the versions
    ``user`` looked at (``expected_versions``: table position → version).  Returns how many
    were confirmed.  Raises :class:`StaleTotals` when one changed meanwhile,
    :class:`ConfirmationRefused` when one of them was entered by ``user`` or none is left
    to confirm, ``PermissionError`` as :func:`check_writable`."""
    seats = table_seats(table)
    with transaction.atomic():
        round_ = _lock_for_confirmation(table.round_id, user)
        tournament = round_.tournament
        current = _locked_totals(round_, seats)
        if changed := _changed_positions(current, seats, expected_versions):
            raise StaleTotals(table_totals(table, seats), changed)
        open_ = [t for t in current.values() if t.confirmed_at is None]
        if not open_:
            raise ConfirmationRefused(_("Hier ist nichts mehr zu bestätigen."))
        if any(t.entered_by_id == user.pk for t in open_):
            raise ConfirmationRefused(
                _("Die eigene Eingabe kann nicht bestätigt werden; das macht ein zweites Konto.")
            )
        now = timezone.now()
        for total in open_:
            total.confirmed_by, total.confirmed_at = user, now
            total._change_reason = _("bestätigt")
            total.save(update_fields=["confirmed_by", "confirmed_at", "updated_at"])
        transaction.on_commit(lambda: invalidate_standings(tournament.pk))
    return len(open_)


@dataclass
class TotalInput:
    """One player's round total from a paper score sheet: game points and the games won
    and lost as declarer (``None`` = left blank)."""

    points: int | None
    won: int | None = 0
    lost: int | None = 0


class StaleTotals(Exception):
    """Round totals of the table were changed by someone else since the clerk loaded them;
    ``totals`` holds the current ones by table position, ``changed`` the positions whose
    version differs from the one the clerk loaded."""

    def __init__(self, totals: dict[int, RoundTotal], changed: list[int]):
        self.totals = totals
        self.changed = changed
        super().__init__("round totals changed meanwhile")


def table_totals(table: Table, seats: list[Seat] | None = None) -> dict[int, RoundTotal]:
    """The stored round totals of ``table``'s players, by table position."""
    seats = seats if seats is not None else table_seats(table)
    by_registration = {
        t.registration_id: t
        for t in RoundTotal.objects.filter(
            round_id=table.round_id, registration_id__in=[s.registration_id for s in seats]
        ).select_related("entered_by")
    }
    return {
        s.position: by_registration[s.registration_id]
        for s in seats
        if s.registration_id in by_registration
    }


def check_totals(
    table: Table, entries: dict[int, TotalInput], seats: list[Seat]
) -> dict[str, list[str]]:
    """Plausibility of a table's round totals under the tournament's ruleset.

    ``entries`` maps table positions to :class:`TotalInput`.  Returns form field
    (``points_<pos>``, ``won_<pos>``, ``lost_<pos>``, ``__all__``) → German messages; empty
    when plausible.  Each total is checked by :func:`rules.totals.check_round_total`
    (multiple of 10 where the ruleset rounds, within what the round's games can give); the
    table as a whole cannot have more declarer games than games were played.
    """
    tournament = table.round.tournament
    ruleset = tournament.ruleset
    games = tournament.games_per_round
    size = len(seats)
    playing = len(active_positions(tournament, size, 0))
    if playing not in ruleset.seat_counts:  # e.g. a ruleset for four only: bound by the table
        playing = size if size in ruleset.seat_counts else max(ruleset.seat_counts)
    errors: dict[str, list[str]] = {}
    declared = 0
    for seat in seats:
        entry = entries.get(seat.position)
        pos = seat.position
        entry = entry or TotalInput(points=None)
        if entry.points is None:
            errors.setdefault(f"points_{pos}", []).append(_("Rundensumme fehlt."))
        for error in check_round_total(
            ruleset, playing, games, entry.points or 0, entry.won or 0, entry.lost or 0
        ):
            if error.field == "points" and entry.points is None:
                continue
            errors.setdefault(f"{error.field}_{pos}", []).append(engine_message(error, ruleset))
        declared += (entry.won or 0) + (entry.lost or 0)
    if declared > games:
        errors.setdefault("__all__", []).append(
            _(
                "Am Tisch wurden %(n)s Spiele als Spielführer eingetragen, aber nur %(games)s "
                "Spiele gespielt."
            )
            % {"n": declared, "games": games}
        )
    return errors


def save_round_totals(
    table: Table,
    entries: dict[int, TotalInput],
    user,
    expected_versions: dict[int, int | None] | None = None,
    reason: str = "",
) -> tuple[list[RoundTotal] | None, dict[str, list[str]]]:
    """Check and store the round totals of every player at ``table`` in one transaction.

    ``expected_versions`` maps positions to the version the clerk loaded (``None`` for a
    total not yet entered); a mismatch raises :class:`StaleTotals` and writes nothing.  A
    changed total gets a new version, kept in its history with ``reason`` and loses its
    confirmation; an unchanged one is left alone.  Once the round is closed ``reason`` is
    required and only the director may write (as :func:`save_hand`).  Returns ``(totals,
    errors)``; ``totals`` is ``None`` and nothing is written when ``errors`` is not empty.
    Raises ``PermissionError`` as :func:`check_writable`.
    """
    round_ = table.round
    check_writable(round_, Tournament.EntryMode.TOTALS, user)
    seats = table_seats(table)
    errors = check_totals(table, entries, seats)
    reason = (reason or "").strip()
    if round_.status == Round.Status.CLOSED and not reason:
        errors.setdefault("reason", []).append(_reason_required_message())
    if errors:
        return None, errors
    expected_versions = expected_versions or {}
    try:
        saved = _store_round_totals(table, seats, entries, user, expected_versions, reason)
    except IntegrityError as exc:
        # a first entry of the same table committed meanwhile (nothing to lock before it
        # existed): the unique constraint refuses the second one; show the current totals.
        # Any other integrity error is raised as it is.
        if not is_unique_clash(exc, RoundTotal, "one_total_per_player_per_round"):
            raise
        raise StaleTotals(table_totals(table, seats), [s.position for s in seats]) from exc
    return saved, {}


def _store_round_totals(table, seats, entries, user, expected_versions, reason) -> list[RoundTotal]:
    """The write half of :func:`save_round_totals`, in one transaction."""
    saved: list[RoundTotal] = []
    with transaction.atomic():
        round_ = _lock_open_round(table.round_id, Tournament.EntryMode.TOTALS, user, reason)
        current = _locked_totals(round_, seats)
        if changed := _changed_positions(current, seats, expected_versions):
            raise StaleTotals(table_totals(table, seats), changed)
        for seat in seats:
            entry = entries[seat.position]
            values = {
                "points": entry.points,
                "games_won": entry.won or 0,
                "games_lost": entry.lost or 0,
            }
            total = current.get(seat.registration_id)
            if total is None:
                total = RoundTotal(
                    round=round_, registration_id=seat.registration_id, entered_by=user, **values
                )
                _save_version(total, reason)
            elif any(getattr(total, k) != v for k, v in values.items()):
                _supersede(total, values, user, reason)
            saved.append(total)
        transaction.on_commit(lambda: invalidate_standings(round_.tournament_id))
    return saved


def _locked_totals(round_: Round, seats: list[Seat]) -> dict[int, RoundTotal]:
    """The stored round totals of ``seats``' players, locked, by registration id."""
    return {
        t.registration_id: t
        for t in RoundTotal.objects.select_for_update().filter(
            round=round_, registration_id__in=[s.registration_id for s in seats]
        )
    }


def _changed_positions(
    current: dict[int, RoundTotal], seats: list[Seat], expected_versions: dict[int, int | None]
) -> list[int]:
    """Positions whose stored total is not at the version the clerk loaded (``None``: the
    clerk saw no total and there is one now)."""
    return [
        s.position
        for s in seats
        if getattr(current.get(s.registration_id), "version", None)
        != expected_versions.get(s.position)
    ]


def _by_position(values, positions: list[int], size: int) -> list[int | None]:
    """Engine per-seat ``values`` as a list by table position (``None`` for a position
    not in the hand, e.g. the dealer sitting out, or when the engine has no values)."""
    by_position: list[int | None] = [None] * size
    for engine_seat, value in enumerate(values):
        by_position[positions[engine_seat]] = value
    return by_position


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


def _rebuild_seat_scores(
    hand: Hand,
    seats: list[Seat],
    positions: list[int],
    round_number: int,
    tournament_id: int,
    ruleset,
) -> None:
    """The hand's :class:`SeatScore` rows: every playing position's points (at a
    partnership table each partner carries the team's score, as the engine credits it),
    and the declaring side's won or lost game (:func:`declaring_side`)."""
    declaring = declaring_side(ruleset, positions, hand.declarer)
    SeatScore.objects.filter(hand=hand).delete()
    SeatScore.objects.bulk_create(
        SeatScore(
            hand=hand,
            tournament_id=tournament_id,
            round_number=round_number,
            registration_id=seat.registration_id,
            points=hand.scores[seat.position],
            declarer=seat.position in declaring,
            declarer_won=seat.position in declaring and hand.declarer_won,
        )
        for seat in seats
        if seat.position in positions
    )


# ------------------------------------------------------------------ director rulings


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


def record_ruling(
    table: Table,
    *,
    hand_number: int,
    claim: str,
    decision: str,
    consequence: str,
    offender: int | None,
    user,
) -> tuple[Ruling | None, dict[str, list[str]]]:
    """Record a director's ruling on a dispute at ``table`` and apply its consequence.

    ``consequence`` is ``""`` (the ruling changes no score), ``"verwerfen"`` (revoke by the
    player at table position ``offender``) or ``"falsch-druecken"`` (misdiscard by the
    declarer).  A penalty is set on the stored hand ``hand_number`` and the hand is scored
    again by the rules engine under the tournament's ruleset (seed texts: "Verwerfen",
    "Falsch drücken"), as a correction whose reason is the decision; the engine's
    objections (e.g. the ruleset has no such penalty, only the declarer can misdiscard) come
    back as errors on ``consequence``/``offender``.  Ruling and corrected hand are stored in
    one transaction.  Returns ``(ruling, errors)``; ``ruling`` is ``None`` and nothing is
    written when ``errors`` is not empty.  Raises ``PermissionError`` as
    :func:`check_writable` (a closed round only by the director).
    """
    round_ = table.round
    tournament = round_.tournament
    check_writable(round_, tournament.entry_mode, user)
    errors: dict[str, list[str]] = {}
    if message := _game_number_error(tournament, hand_number):
        return None, {"hand_number": [message]}
    claim, decision = claim.strip(), decision.strip()
    if not claim:
        errors["claim"] = [_("Bitte angeben, was beanstandet wurde.")]
    if not decision:
        errors["decision"] = [_("Bitte die Entscheidung angeben.")]
    hand = Hand.objects.filter(table=table, number=hand_number).first()
    if consequence:
        if tournament.entry_mode != Tournament.EntryMode.HANDS:
            errors.setdefault("consequence", []).append(
                _("Im Papiermodus wird die Strafe auf dem Spielblatt eingetragen.")
            )
        elif hand is None:
            errors.setdefault("hand_number", []).append(
                _("Spiel %(n)s ist noch nicht erfasst; bitte zuerst das Spiel eintragen.")
                % {"n": hand_number}
            )
        if offender is None:
            errors.setdefault("offender", []).append(_("Bitte den Spieler angeben."))
    elif offender is not None:
        errors.setdefault("offender", []).append(
            _("Ohne Strafe wird kein Spieler bestraft; bitte Folge wählen oder Feld leeren.")
        )
    if errors:
        return None, errors
    with transaction.atomic():
        if consequence:
            assert hand is not None
            entry = hand_input_from(hand, penalty_type=consequence, penalty_seat=offender)
            saved, evaluation = save_hand(
                table,
                entry,
                user,
                expected_version=hand.version,
                reason=_("Entscheidung der Turnierleitung: %(d)s") % {"d": decision},
            )
            if saved is None:
                for name, messages in evaluation.errors.items():
                    slot = {"penalty_type": "consequence", "penalty_seat": "offender"}.get(
                        name, "__all__"
                    )
                    errors.setdefault(slot, []).extend(messages)
                return None, errors
            hand = saved
        ruling = Ruling.objects.create(
            table=table,
            hand_number=hand_number,
            hand=hand,
            claim=claim,
            decision=decision,
            consequence=consequence,
            offender=offender,
            hand_version=hand.version if hand is not None else None,
            decided_by=user,
        )
    return ruling, {}


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


# ------------------------------------------------------------------------- closing a round


@dataclass(frozen=True)
class MissingEntries:
    """What a table of a round still lacks: ``games`` (game numbers without a hand, in hand
    mode) or ``players`` (start numbers without a round total, in paper mode).  With
    ``unconfirmed`` the entries are there but still await confirmation (provisional):
    see :func:`unconfirmed_entries`."""

    table: int
    games: tuple[int, ...] = ()
    players: tuple[int, ...] = ()
    unconfirmed: bool = False

    def as_dict(self) -> dict:
        stored = {"table": self.table, "games": list(self.games), "players": list(self.players)}
        if self.unconfirmed:
            stored["unconfirmed"] = True
        return stored

    def describe(self) -> str:
        """German (active language) text, e.g. "Tisch 4 (Spiele 7–12)", "Tisch 2 (Spiel 3)"."""
        if self.games:
            what = ngettext("Spiel %(list)s", "Spiele %(list)s", len(self.games)) % {
                "list": _number_runs(self.games)
            }
        else:
            what = _("Rundensumme von Nr. %(list)s") % {"list": ", ".join(map(str, self.players))}
        return _("Tisch %(n)s (%(what)s)") % {"n": self.table, "what": what}


def _number_runs(numbers: tuple[int, ...]) -> str:
    """Sorted numbers with runs of three or more shortened: (1, 2, 5, 6, 7, 8) → "1, 2, 5–8"."""
    parts: list[str] = []
    run: list[int] = []
    for n in [*numbers, None]:
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if len(run) >= 3:
            parts.append(f"{run[0]}–{run[-1]}")
        else:
            parts.extend(str(r) for r in run)
        run = [n] if n is not None else []
    return ", ".join(parts)


class RoundIncomplete(ValidationError):
    """Closing refused because entries are missing or still unconfirmed; ``missing`` and
    ``unconfirmed`` list them per table.  The director may close anyway by giving a reason
    (:func:`close_round`)."""

    def __init__(
        self,
        round_number: int,
        missing: list[MissingEntries],
        unconfirmed: list[MissingEntries] | None = None,
    ):
        self.missing = missing
        self.unconfirmed = unconfirmed or []
        lists = {
            "n": round_number,
            "list": _describe_all(missing),
            "unconfirmed": _describe_all(self.unconfirmed),
        }
        if missing and self.unconfirmed:
            message = _(
                "Runde %(n)s kann nicht abgeschlossen werden, es fehlen Eingaben: %(list)s; "
                "unbestätigt sind: %(unconfirmed)s."
            )
        elif missing:
            message = _(
                "Runde %(n)s kann nicht abgeschlossen werden, es fehlen Eingaben: %(list)s."
            )
        else:
            message = _(
                "Runde %(n)s kann nicht abgeschlossen werden, Eingaben sind unbestätigt: "
                "%(unconfirmed)s."
            )
        super().__init__(message % lists)


def _describe_all(entries: list[MissingEntries]) -> str:
    return "; ".join(m.describe() for m in entries)


def missing_entries(round_: Round) -> list[MissingEntries]:
    """Per table of ``round_``, in table order, the games without a hand (hand mode: every
    table plays ``games_per_round`` games) or the seated players without a round total
    (paper mode); tables with nothing missing are left out.  Two queries."""
    tournament = round_.tournament
    if tournament.entry_mode == Tournament.EntryMode.TOTALS:
        have = set(
            RoundTotal.objects.filter(round=round_).values_list("registration_id", flat=True)
        )
        by_table: dict[int, list[int]] = {}
        for number, registration_id, start_number in Seat.objects.filter(round=round_).values_list(
            "table__number", "registration_id", "registration__start_number"
        ):
            by_table.setdefault(number, [])
            if registration_id not in have:
                by_table[number].append(start_number)
        return [
            MissingEntries(table=n, players=tuple(sorted(p)))
            for n, p in sorted(by_table.items())
            if p
        ]
    games = set(range(1, tournament.games_per_round + 1))
    entered: dict[int, set[int]] = {
        n: set() for n in round_.tables.values_list("number", flat=True)
    }
    for number, game in Hand.objects.filter(table__round=round_).values_list(
        "table__number", "number"
    ):
        entered[number].add(game)
    return [
        MissingEntries(table=n, games=tuple(sorted(games - got)))
        for n, got in sorted(entered.items())
        if games - got
    ]


def unconfirmed_entries(round_: Round) -> list[MissingEntries]:
    """Per table of ``round_``, in table order, the entries that are in but still
    provisional (as the standings count them): with ``confirmation_required`` every hand
    (paper mode: every round total, by start number) not yet confirmed by a second account;
    otherwise the hands entered at the table through its link that no opponent confirmed
    yet.  Tables with nothing unconfirmed are left out.  One or two queries."""
    tournament = round_.tournament
    by_table: dict[int, list[int]] = {}
    if tournament.entry_mode == Tournament.EntryMode.TOTALS:
        if not tournament.confirmation_required:
            return []
        waiting = RoundTotal.objects.filter(round=round_, confirmed_at__isnull=True)
        for number, start_number in Seat.objects.filter(
            round=round_, registration_id__in=waiting.values("registration_id")
        ).values_list("table__number", "registration__start_number"):
            by_table.setdefault(number, []).append(start_number)
        return [
            MissingEntries(table=n, players=tuple(sorted(p)), unconfirmed=True)
            for n, p in sorted(by_table.items())
        ]
    hands = Hand.objects.filter(table__round=round_, confirmed_at__isnull=True)
    if not tournament.confirmation_required:  # only hands entered at the table wait
        hands = hands.filter(table_link__isnull=False)
    for number, game in hands.values_list("table__number", "number"):
        by_table.setdefault(number, []).append(game)
    return [
        MissingEntries(table=n, games=tuple(sorted(g)), unconfirmed=True)
        for n, g in sorted(by_table.items())
    ]


def close_round(round_: Round, reason: str = "") -> None:
    """Close a running round: its entries are locked from now on, and a later change by
    the director is an adjustment (it needs a reason and is marked on the filled score
    sheet).

    Raises ``ValidationError`` when the round is not running (or, with ``code="reason"``,
    the reason is longer than 500 characters); raises :class:`RoundIncomplete` when hands
    (or paper-mode round totals) are missing or still unconfirmed
    (:func:`unconfirmed_entries`) and no ``reason`` is given.  With a reason the round is
    closed anyway and the reason and what was missing or unconfirmed are stored on the
    round, for the results list; the unconfirmed entries stay unconfirmed (the standings
    keep counting them as such).  After the commit :data:`scoring.signals.round_closed` is
    sent (in venue mode the archive app makes a backup then)."""
    # one transaction, written out rather than as a decorator so that mutation testing
    # (mutmut skips decorated functions) reaches the closing rules
    with transaction.atomic():
        locked = lock_round(round_.pk)
        if locked.status != Round.Status.RUNNING:
            raise ValidationError(_("Nur eine laufende Runde kann abgeschlossen werden."))
        reason = (reason or "").strip()
        if len(reason) > 500:
            raise ValidationError(_("Grund: höchstens 500 Zeichen."), code="reason")
        missing = missing_entries(locked)
        unconfirmed = unconfirmed_entries(locked)
        fields = ["status", "closed_at"]
        if missing or unconfirmed:
            if not reason:
                raise RoundIncomplete(locked.number, missing, unconfirmed)
            locked.forced_close_reason = reason
            locked.forced_close_missing = [m.as_dict() for m in [*missing, *unconfirmed]]
            fields += ["forced_close_reason", "forced_close_missing"]
        locked.status = Round.Status.CLOSED
        locked.closed_at = timezone.now()
        locked.save(update_fields=fields)
        round_.status, round_.closed_at = locked.status, locked.closed_at
        round_.forced_close_reason = locked.forced_close_reason
        round_.forced_close_missing = locked.forced_close_missing
        # the standings go stale through the Round's post_save receiver (scoring.signals)
        tournament_id = locked.tournament_id
        number = locked.number
        # robust: whatever a receiver raises (the archive's backup), the close stands and the
        # page answers
        transaction.on_commit(
            lambda: round_closed.send(
                sender=Round, round_number=number, tournament_id=tournament_id
            ),
            robust=True,
        )


def _stored_missing(stored) -> list[MissingEntries]:
    """``Round.forced_close_missing`` read back; entries of another shape (a hand-edited or
    imported file) are left out rather than breaking the results list."""
    out = []
    for item in stored if isinstance(stored, list) else []:
        try:
            out.append(
                MissingEntries(
                    table=int(item["table"]),
                    games=tuple(int(g) for g in item.get("games", ())),
                    players=tuple(int(p) for p in item.get("players", ())),
                    unconfirmed=item.get("unconfirmed") is True,
                )
            )
        except (TypeError, KeyError, ValueError, AttributeError):
            continue
    return out


def forced_close_notes(tournament: Tournament) -> list[str]:
    """One sentence per round of ``tournament`` that was closed with missing or unconfirmed
    entries (active language), e.g. "Runde 2 mit fehlenden Eingaben abgeschlossen (Tisch 4
    (Spiele 11, 12)): Spieler abgereist", for the results list."""
    notes = []
    for round_ in tournament.round_set.exclude(forced_close_reason="").order_by("number"):
        stored = _stored_missing(round_.forced_close_missing)
        values = {
            "n": round_.number,
            "missing": _describe_all([m for m in stored if not m.unconfirmed]),
            "unconfirmed": _describe_all([m for m in stored if m.unconfirmed]),
            "reason": round_.forced_close_reason,
        }
        if values["missing"] and values["unconfirmed"]:
            note = _(
                "Runde %(n)s mit fehlenden und unbestätigten Eingaben abgeschlossen (fehlend: "
                "%(missing)s; unbestätigt: %(unconfirmed)s): %(reason)s"
            )
        elif values["unconfirmed"]:
            note = _(
                "Runde %(n)s mit unbestätigten Eingaben abgeschlossen (%(unconfirmed)s): %(reason)s"
            )
        else:
            note = _("Runde %(n)s mit fehlenden Eingaben abgeschlossen (%(missing)s): %(reason)s")
        notes.append(note % values)
    return notes
