"""Round totals from paper score sheets (tournaments that enter totals, not hands):
checked against the ruleset's round total and stored per seat with their history."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from rules.totals import check_round_total
from tournament.engine_messages import engine_message
from tournament.models import Round, Seat, Table, Tournament

from ..cache import invalidate_standings
from ..errors import (
    StaleTotals,
)
from ..models import RoundTotal
from .access import (
    _lock_open_round,
    _reason_required_message,
    check_writable,
)
from .hands import (
    _save_version,
    _supersede,
    is_unique_clash,
)
from .seating import (
    active_positions,
    table_seats,
)

logger = logging.getLogger(__name__)


@dataclass
class TotalInput:
    """One player's round total from a paper score sheet: game points and the games won
    and lost as declarer (``None`` = left blank)."""

    points: int | None
    won: int | None = 0
    lost: int | None = 0


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
    Raises :class:`~scoring.errors.EntryRefused` as :func:`check_writable`.
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
