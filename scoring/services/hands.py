"""Storing a hand: :func:`save_hand` stores the entry and the engine's per-seat scores in
one transaction; a correction bumps the hand's version and is kept in its history.  The
clerk's form and the table link both write through here."""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournament.models import Round, Seat, Table, Tournament

from ..cache import invalidate_standings
from ..errors import (
    RulingStands,
    StaleEntry,
    WriteRefused,
)
from ..models import Hand, RoundTotal, Ruling, SeatScore
from .access import (
    TableSource,
    _lock_open_round,
    _reason_required_message,
    check_link_live,
    check_writable,
    correction_reason_message,
)
from .evaluation import (
    Evaluation,
    HandInput,
    declaring_side,
    evaluate,
)
from .seating import (
    _by_position,
    table_seats,
)

logger = logging.getLogger(__name__)


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
    raised, carrying the current hand), unless the stored hand already holds exactly
    these values: a repeated send (a double tap, a phone's offline queue after a lost
    answer) returns the stored hand as saved and writes nothing.  ``reason`` is kept as the history record's change
    reason; a correction (``expected_version`` given) requires it, and once the round is
    closed every write does (an error on ``reason``), and only an account with
    ``scoring.correct_closed_round`` (the director) may write: the change is then an
    adjustment.  A correction clears a confirmation.  Returns ``(hand,
    evaluation)``; ``hand`` is ``None`` and nothing is written when the evaluation has
    errors, or when it has warnings (a rare meld) and ``entry.confirm_rare`` is not set
    (then ``errors["confirm_rare"]`` asks for the tick).  Raises :class:`~scoring.errors.EntryRefused` when
    the round has not started, is closed and
    ``user`` may not adjust it, or the tournament enters round totals.

    ``via`` (with ``user=None``): the players of the table write through its link; the hand
    names the link, the device and "Tisch 7 (Link)" as its enterer and history author, and
    counts as provisional until confirmed.  Under the round's lock the link must still be
    live (else :class:`~scoring.errors.EntryRefused`), so a revoked link or a closed round writes nothing.
    """
    round_: Round = table.round
    tournament = round_.tournament
    check_writable(round_, Tournament.EntryMode.HANDS, user)
    seats = table_seats(table)
    evaluation = evaluate(tournament, len(seats), entry)
    if message := game_number_error(tournament, entry.number):
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
        try:
            with transaction.atomic():
                hand = _write_hand(table, entry.number, values, user, expected_version, reason, via)
                _rebuild_seat_scores(
                    hand, seats, positions, round_.number, tournament.pk, tournament.ruleset
                )
                transaction.on_commit(lambda: invalidate_standings(tournament.pk))
        except IntegrityError as exc:
            # the same new game number committed meanwhile by another clerk: the unique
            # constraint refuses the second insert.  Any other integrity error is a fault,
            # not someone else's change, and is raised as it is (issue 29).
            current = Hand.objects.filter(table=table, number=entry.number).first()
            if current is None or not is_unique_clash(exc, Hand, "unique_hand_number"):
                raise
            raise StaleEntry(current) from exc
    except WriteRefused as exc:
        evaluation.errors.setdefault(exc.field, []).append(str(exc))
        return None, evaluation
    except StaleEntry as exc:
        if _already_stored(exc.hand, values):
            # a repeated send of what is stored (a double tap, the phone's offline queue
            # after a lost answer): saved, not a conflict; nothing is written again
            return exc.hand, evaluation
        raise
    return hand, evaluation


#: The fields a repeated send must match to count as already stored
_ENTERED_FIELDS = (
    "dealer",
    "declarer",
    "bid",
    "trump",
    "outcome",
    "melds",
    "tricks",
    "won",
    "penalty_type",
    "penalty_seat",
)


def _already_stored(current: Hand, values: dict) -> bool:
    """Whether ``current`` (the stored hand a save found newer than expected) already
    holds exactly the entered ``values`` (as :func:`save_hand` would store them; blank
    trump and penalty read as ``""``)."""
    for key in _ENTERED_FIELDS:
        stored, entered = getattr(current, key), values[key]
        if key in ("trump", "penalty_type"):
            stored, entered = stored or "", entered or ""
        if stored != entered:
            return False
    return True


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


def game_number_error(tournament: Tournament, number: int) -> str | None:
    """The message (for the ``number`` field) for a game number outside 1 … the
    tournament's games per round, or ``None``: the one bound of a game number, read by
    the clerk's form, the table link, rulings and imports alike."""
    if 1 <= number <= tournament.games_per_round:
        return None
    return _("Spielnummer muss zwischen 1 und %(n)s liegen.") % {"n": tournament.games_per_round}


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
