"""Closing a round: what is still missing or unconfirmed per table, the close itself
(forced with a reason when entries are missing), and the notes on forced closes."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models import Round, Seat, Tournament
from tournament.services import lock_round

from ..models import Hand, RoundTotal
from ..signals import round_closed

logger = logging.getLogger(__name__)


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
        # the standings go stale through the Round's post_save receiver (scoring.cache)
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
