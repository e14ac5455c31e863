"""Who may write here: the one check, for the clerk's form and the table link alike.

:func:`check_writable` (a clerk or director: membership, round state, entry mode) and
:func:`check_link_live` (a table link: revoked, table entry off, round state) raise
:class:`~scoring.errors.EntryRefused` with a ``reason`` the views turn into a status.
The ``_lock_*`` helpers repeat the state check under the round's row lock.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournament.models import Round, Tournament
from tournament.services import lock_round, may_enter

from ..errors import ConfirmationRefused, EntryRefused
from ..models import TableLink

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableSource:
    """Who writes when the players of a table enter through its private link: the
    :class:`~scoring.models.TableLink`, the phone (``device``: a random id kept in that
    phone's session) and the author text for the entry and its history ("Tisch 7 (Link)").
    Built by :mod:`table_entry.services`."""

    link: TableLink
    device: str
    label: str


def _reason_required_message() -> str:
    return _("Die Runde ist abgeschlossen: bitte den Grund der Korrektur angeben.")


def correction_reason_message() -> str:
    """The error on ``reason`` when a saved hand is corrected without saying why."""
    return _("Grund der Korrektur fehlt: bitte angeben, warum das Spiel geändert wird.")


def _refuse_round_state(round_: Round, may_correct: bool) -> None:
    """The round-state rule shared by every writer: nothing is written before a round
    starts; after its close only someone who ``may_correct`` (the director's
    ``scoring.correct_closed_round``) writes.  Raises :class:`EntryRefused`."""
    if round_.status == Round.Status.PLANNED:
        raise EntryRefused(
            "planned", _("Die Runde hat noch nicht begonnen; Einträge sind gesperrt.")
        )
    if round_.status == Round.Status.CLOSED and not may_correct:
        raise EntryRefused(
            "closed",
            _("Die Runde ist abgeschlossen; nur die Turnierleitung kann noch korrigieren."),
        )


def link_refusal(link: TableLink, round_: Round) -> EntryRefused | None:
    """Why ``link`` does not open its table now, or ``None`` when it does: revoked
    (``revoked``), the tournament does not enter at the tables or enters round totals
    (``off``), the round has not started (``planned``) or is closed (``closed``).
    ``round_`` is the link's round.  The one link-state check: the phone page
    (:func:`table_entry.services.resolve`) and every write (:func:`check_link_live`)
    use it, so one state has one message."""
    if link.revoked_at is not None:
        return EntryRefused(
            "revoked",
            _("Dieser Tisch-Link gilt nicht mehr; die Turnierleitung hat einen neuen ausgegeben."),
        )
    tournament = round_.tournament
    if not tournament.table_entry:
        return EntryRefused("off", _("Bei diesem Turnier wird nicht am Tisch eingetragen."))
    if tournament.entry_mode != Tournament.EntryMode.HANDS:
        return EntryRefused(
            "off", _("Dieses Turnier erfasst Rundensummen, keine einzelnen Spiele.")
        )
    try:
        _refuse_round_state(round_, may_correct=False)
    except EntryRefused as refused:
        return refused
    return None


def check_link_live(link: TableLink, round_: Round) -> None:
    """Raise :class:`EntryRefused` (message for the table) unless ``link`` opens its
    table now (:func:`link_refusal`).  ``round_`` is the link's round (locked by the
    caller when it writes); the link's ``revoked_at`` is read again, so a link revoked
    since the page loaded writes nothing."""
    link.refresh_from_db(fields=["revoked_at"])
    if (refused := link_refusal(link, round_)) is not None:
        raise refused


def _lock_open_round(round_id: int, mode: str, user, reason: str) -> Round:
    """Lock the round (:func:`tournament.services.lock_round`) and re-check under the lock
    that it is open for ``user`` (it may have been closed since :func:`check_writable`
    passed; the clerk's membership needs no second query) and that a closed round's
    adjustment has its reason.  Raises :class:`EntryRefused`."""
    round_ = lock_round(round_id)
    _check_round_open(round_, mode, user)
    if round_.status == Round.Status.CLOSED and not reason:
        raise EntryRefused("reason_required", _reason_required_message())
    return round_


def may_write(round_: Round, user) -> bool:
    """Whether ``user`` may write (enter, correct or confirm) entries of ``round_`` now:
    :func:`check_writable` in the tournament's own entry mode, as a yes or no for the
    pages that show or hide the form."""
    try:
        check_writable(round_, round_.tournament.entry_mode, user)
    except EntryRefused:
        return False
    return True


def may_confirm(round_: Round, user) -> bool:
    """Whether ``user`` may confirm entries of ``round_`` now: :func:`may_write`, the
    right to change hands, a running round (a closed round's unconfirmed entries stay
    marked; the director corrects them instead), and a tournament whose entries await
    confirmation (a second account, or an opponent's phone for entries made at the
    table).  The rule :func:`_lock_for_confirmation` applies to every confirmation."""
    tournament = round_.tournament
    return (
        round_.status == Round.Status.RUNNING
        and (tournament.confirmation_required or bool(tournament.table_entry))
        and user.has_perm("scoring.change_hand")
        and may_write(round_, user)
    )


def check_writable(round_: Round, mode: str, user=None) -> None:
    """Raise :class:`EntryRefused` unless ``user`` may write entries of ``round_`` in
    ``mode`` (``hands`` or ``totals``): ``user`` is one of the tournament's clerks or its
    director (:func:`tournament.services.may_enter`; ``None`` = a script; reason
    ``not_clerk``), the round runs or is closed and ``user`` has
    ``scoring.correct_closed_round`` (the director's adjustment; ``planned``,
    ``closed``), and the tournament enters results in ``mode`` (``wrong_mode``)."""
    if user is not None and not may_enter(user, round_.tournament):
        raise EntryRefused(
            "not_clerk", _("Sie sind bei diesem Turnier nicht als Schreiber eingetragen.")
        )
    _check_round_open(round_, mode, user)


def _check_round_open(round_: Round, mode: str, user) -> None:
    """The state half of :func:`check_writable`: round status and entry mode."""
    _refuse_round_state(
        round_, may_correct=user is not None and user.has_perm("scoring.correct_closed_round")
    )
    if round_.tournament.entry_mode != mode:
        raise EntryRefused(
            "wrong_mode",
            _("Dieses Turnier erfasst Rundensummen, keine einzelnen Spiele.")
            if mode == Tournament.EntryMode.HANDS
            else _("Dieses Turnier erfasst einzelne Spiele, keine Rundensummen."),
        )


def _lock_for_confirmation(round_id: int, user, at_table: bool = False) -> Round:
    """Lock the round and check that ``user`` may confirm its entries now (inside a
    transaction): :func:`may_confirm`'s rule under the lock.  Raises
    :class:`EntryRefused` as :func:`check_writable` and for a closed round (``closed``),
    and :class:`ConfirmationRefused` when the tournament does not confirm entries (an entry
    made at the table, ``at_table``, always awaits confirmation)."""
    round_ = lock_round(round_id)
    check_writable(round_, round_.tournament.entry_mode, user)
    if round_.status == Round.Status.CLOSED:
        raise EntryRefused(
            "closed",
            _("Die Runde ist abgeschlossen; bestätigt wird nur in der laufenden Runde."),
        )
    if not (round_.tournament.confirmation_required or at_table):
        raise ConfirmationRefused(_("Dieses Turnier lässt Eingaben nicht bestätigen."))
    return round_
