"""What the console, the projector and the phones show of the hall: the round clock, the
announcements, the calls, and each table's progress against the clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from scoring.selectors import round_progress
from scoring.selectors.progress import TableProgress
from tournament.models import Round, Table, Tournament

from .models import Announcement, DirectorCall

#: at most this many announcements are shown at once (the newest)
SHOWN_ANNOUNCEMENTS = 3


@dataclass(frozen=True)
class RoundClock:
    """The running round's clock: ``round_number``; ``started_at`` and ``ends_at``
    (aware datetimes); ``minutes`` the planned length; ``minutes_left`` whole minutes
    left, rounded up (0 or less: the time is up, ``over`` is then ``True`` and
    ``minutes_over`` says by how much); ``elapsed`` the share of the planned time gone
    (0.0 … 1.0, capped)."""

    round_number: int
    started_at: datetime
    ends_at: datetime
    minutes: int
    minutes_left: int
    elapsed: float

    @property
    def over(self) -> bool:
        return self.minutes_left <= 0

    @property
    def minutes_over(self) -> int:
        return max(0, -self.minutes_left)


def running_round(tournament: Tournament) -> Round | None:
    """The round of ``tournament`` open for entry, or ``None``."""
    return tournament.round_set.filter(status=Round.Status.RUNNING).order_by("number").first()


def round_clock(
    tournament: Tournament, round_: Round | None = None, now: datetime | None = None
) -> RoundClock | None:
    """The clock of the running round (or of ``round_``), or ``None`` when the tournament
    has no planned round length, no round runs, or the round was started before the
    clock existed (no ``started_at``).  One query without ``round_``."""
    if not tournament.round_minutes:
        return None
    round_ = round_ or running_round(tournament)
    if round_ is None or round_.started_at is None or round_.status != Round.Status.RUNNING:
        return None
    now = now or timezone.now()
    planned = timedelta(minutes=tournament.round_minutes)
    ends_at = round_.started_at + planned
    left = (ends_at - now).total_seconds()
    minutes_left = int(-(-left // 60)) if left > 0 else -int(-left // 60)
    elapsed = min(1.0, max(0.0, (now - round_.started_at) / planned))
    return RoundClock(
        round_.number, round_.started_at, ends_at, tournament.round_minutes, minutes_left, elapsed
    )


def active_announcements(tournament: Tournament, now: datetime | None = None) -> list:
    """The announcements shown now (not withdrawn, not expired), newest first, at most
    :data:`SHOWN_ANNOUNCEMENTS`; one query."""
    now = now or timezone.now()
    return list(
        Announcement.objects.filter(tournament=tournament, withdrawn_at__isnull=True)
        .exclude(expires_at__lte=now)
        .order_by("-created_at", "-pk")[:SHOWN_ANNOUNCEMENTS]
    )


def announcement_history(tournament: Tournament) -> list[Announcement]:
    """Every announcement of the evening, newest first, with who made and withdrew it."""
    return list(
        Announcement.objects.filter(tournament=tournament).select_related(
            "created_by", "withdrawn_by"
        )
    )


def open_call(table: Table) -> DirectorCall | None:
    """The table's open call, or ``None``."""
    return DirectorCall.objects.filter(table=table, done_at__isnull=True).first()


def last_call(table: Table) -> DirectorCall | None:
    """The table's latest call in its round (open or done), or ``None``: what its phone
    shows."""
    return DirectorCall.objects.filter(table=table).order_by("-created_at", "-pk").first()


def calls(tournament: Tournament) -> list[DirectorCall]:
    """Every call of the evening: open ones first (oldest first: who waits longest), then
    done ones, newest first."""
    rows = list(
        DirectorCall.objects.filter(table__round__tournament=tournament).select_related(
            "table__round", "done_by"
        )
    )
    waiting = sorted((c for c in rows if c.done_at is None), key=lambda c: c.created_at)
    done = sorted((c for c in rows if c.done_at is not None), key=lambda c: c.done_at, reverse=True)
    return waiting + done


@dataclass
class ConsoleRow:
    """One table of the running round on the console: its ``progress``
    (:class:`scoring.selectors.progress.TableProgress`), ``idle`` (nothing entered for
    ``Tournament.idle_minutes`` while hands are missing, counted from the last entry or
    the round's start; never when round totals are entered from paper), ``behind`` (games
    behind the clock's even pace, 0 without a clock or with round totals)
    and ``far_behind`` (at least :func:`far_behind_games`), and its open ``call``."""

    progress: TableProgress
    idle: bool
    idle_minutes: int
    behind: int
    far_behind: bool
    call: DirectorCall | None


def far_behind_games(games: int) -> int:
    """How many games behind the pace make a table "far behind": a quarter of the round's
    games, at least 2.  The project's choice; the console only warns."""
    return max(2, games // 4)


def console_rows(
    tournament: Tournament, round_: Round, clock: RoundClock | None, now: datetime | None = None
) -> list[ConsoleRow]:
    """Every table of ``round_`` for the console (see :class:`ConsoleRow`); a fixed
    number of queries."""
    now = now or timezone.now()
    # round totals are typed from paper after the round: no entry meanwhile is normal
    paper = tournament.entry_mode == Tournament.EntryMode.TOTALS
    open_calls = {
        c.table_id: c
        for c in DirectorCall.objects.filter(table__round=round_, done_at__isnull=True)
    }
    rows = []
    for progress in round_progress(round_):
        since = progress.last_entry or round_.started_at
        quiet = int((now - since).total_seconds() // 60) if since else 0
        idle = (
            not paper
            and not progress.complete
            and since is not None
            and quiet >= tournament.idle_minutes
        )
        behind = 0
        if clock is not None and not progress.complete and not paper:
            behind = max(0, int(progress.games * clock.elapsed) - progress.entered)
        rows.append(
            ConsoleRow(
                progress,
                idle,
                quiet,
                behind,
                behind >= far_behind_games(progress.games),
                open_calls.get(progress.table.pk),
            )
        )
    return rows
