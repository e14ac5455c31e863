"""Confirming entries: a second clerk's or the director's look at a hand, an opponent's
"stimmt" on a phone, a paper table's round totals.  A confirmation never changes a
version; it is kept in the history."""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Table, Tournament
from tournament.services import lock_round

from ..cache import invalidate_standings
from ..errors import (
    ConfirmationRefused,
    EntryRefused,
    StaleEntry,
    StaleTotals,
)
from ..models import Hand
from .access import (
    TableSource,
    _lock_for_confirmation,
    check_link_live,
)
from .seating import (
    table_seats,
)
from .totals import (
    _changed_positions,
    _locked_totals,
    table_totals,
)

logger = logging.getLogger(__name__)


def confirm_hand(hand: Hand, user, expected_version: int) -> Hand:
    """Confirm ``hand`` at the version ``user`` looked at (tournaments with
    ``confirmation_required``; FIELD-NOTES: the confirmer is never the enterer).

    The confirmation is kept in the hand's history; the version does not change, a later
    correction clears it.  Raises :class:`StaleEntry` when the hand changed since it was
    loaded, :class:`ConfirmationRefused` for the own entry or an already confirmed one, and
    :class:`~scoring.errors.EntryRefused` when the round may not be written by ``user``.
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
    it, it is already confirmed or the tournament has a clerk confirm, :class:`~scoring.errors.EntryRefused`
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
            raise EntryRefused("wrong_table", _("Dieses Spiel gehört nicht zu diesem Tisch."))
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
    to confirm, :class:`~scoring.errors.EntryRefused` as :func:`check_writable`."""
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
