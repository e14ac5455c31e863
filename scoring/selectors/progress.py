"""How far the evening is: each table's progress in a round, the clerk's overview, the
round status the projector shows, and a player's own summary."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Max, Q
from django.utils import timezone

from tournament import services as tournament_services
from tournament.models import Registration, Round, Table, Tournament

from ..models import Hand, RoundTotal
from .standings import (
    standings,
)

#: the clerk overview flags a table that has sent no hand for this long (table entry)
SILENT_AFTER = timedelta(minutes=15)


def last_entry_at(tournament: Tournament):
    """When the tournament's results last changed (a hand or round total saved or
    confirmed), or ``None``; two queries.  The standings show it as "Stand", so the fragment
    is the same bytes until the results change and a phone's ETag keeps matching."""
    times = [
        Hand.objects.filter(table__round__tournament=tournament).aggregate(m=Max("updated_at"))[
            "m"
        ],
        RoundTotal.objects.filter(round__tournament=tournament).aggregate(m=Max("updated_at"))["m"],
    ]
    return max((t for t in times if t is not None), default=None)


@dataclass
class TableProgress:
    """Entry progress of one table: ``entered`` of ``games`` hands (in paper mode: round
    totals of players), ``unconfirmed`` of them not yet confirmed by a second account."""

    table: Table
    players: list[Registration]
    entered: int
    games: int
    unconfirmed: int = 0
    # hands entered through the table's link, and when the table's latest hand was saved
    at_table: int = 0
    last_entry: datetime | None = None

    @property
    def silent(self) -> bool:
        """A table that has entered hands but none for :data:`SILENT_AFTER` while hands are
        still missing (the clerk overview flags it)."""
        return (
            not self.complete
            and self.last_entry is not None
            and self.last_entry < timezone.now() - SILENT_AFTER
        )

    @property
    def complete(self) -> bool:
        return self.entered >= self.games

    @property
    def missing(self) -> int:
        return max(0, self.games - self.entered)


def round_progress(round_: Round) -> list[TableProgress]:
    """Every table of ``round_`` with its players, how many entries are in and how many of
    them await confirmation (every unconfirmed one with ``confirmation_required``, else
    those entered at the table), how many came from the table and when the latest was
    saved; a fixed number of queries."""
    awaiting = Q(hands__confirmed_at__isnull=True)
    if not round_.tournament.confirmation_required:  # only hands entered at the table wait
        awaiting &= Q(hands__table_link__isnull=False)
    tables = list(
        round_.tables.annotate(
            entered=Count("hands"),
            unconfirmed=Count("hands", filter=awaiting),
            at_table=Count("hands", filter=Q(hands__table_link__isnull=False)),
            last_entry=Max("hands__updated_at"),
        ).prefetch_related("seats__registration__player")
    )
    if round_.tournament.entry_mode == Tournament.EntryMode.TOTALS:
        confirmed = dict(round_.totals.values_list("registration_id", "confirmed_at"))
        progress = []
        for t in tables:
            seats = list(t.seats.all())
            entered = [s for s in seats if s.registration_id in confirmed]
            progress.append(
                TableProgress(
                    t,
                    [s.registration for s in seats],
                    len(entered),
                    len(seats),
                    sum(1 for s in entered if confirmed[s.registration_id] is None),
                )
            )
        return progress
    games = round_.tournament.games_per_round
    return [
        TableProgress(
            t,
            [s.registration for s in t.seats.all()],
            t.entered,
            games,
            t.unconfirmed,
            t.at_table,
            t.last_entry,
        )
        for t in tables
    ]


def overview_rounds(tournament: Tournament) -> list[dict]:
    """The rounds for the entry overview in the order a director needs them: the running
    round first, then the planned ones (next first), then the closed ones (latest first).
    Each item: ``round``, ``tables`` (:func:`round_progress`), ``may_draw`` and
    ``may_start`` (rounds run in order: only when every earlier round is closed), and for
    a planned round ``absent``: who its draw leaves out, not checked in at the door, and
    ``undrawn``: who checked in after it was drawn (draw again to seat them)."""
    rounds = list(tournament.round_set.all().order_by("number"))
    items = []
    all_closed_so_far = True
    for r in rounds:
        tables = round_progress(r)
        planned = r.status == Round.Status.PLANNED
        items.append(
            {
                "round": r,
                "tables": tables,
                "may_draw": planned and all_closed_so_far,
                "may_start": planned and all_closed_so_far and bool(tables),
                # named once: at the round that can be drawn now
                "absent": tournament_services.absent_from_draw(r)
                if planned and all_closed_so_far
                else [],
                "undrawn": tournament_services.present_not_drawn(r) if planned else [],
            }
        )
        all_closed_so_far = all_closed_so_far and r.status == Round.Status.CLOSED
    rank = {Round.Status.RUNNING: 0, Round.Status.PLANNED: 1, Round.Status.CLOSED: 2}
    return sorted(
        items,
        key=lambda i: (
            rank[i["round"].status],
            -i["round"].number if i["round"].status == Round.Status.CLOSED else i["round"].number,
        ),
    )


def evening_finished(tournament: Tournament) -> bool:
    """Whether every round of ``tournament`` is closed and none runs: the results are the
    final ones (as a series counts an evening, :mod:`series.selectors`); two queries."""
    rounds = tournament.round_set
    return (
        not rounds.exclude(status=Round.Status.CLOSED).exists()
        and rounds.filter(status=Round.Status.CLOSED).count() >= tournament.rounds
    )


def round_status(tournament: Tournament) -> dict | None:
    """What the projector's header says about the evening: the running round (else the
    latest closed one) as ``{"number", "running", "done", "tables"}`` (tables complete of
    all tables), or ``None`` before the first round starts; a fixed number of queries."""
    round_ = (
        tournament.round_set.filter(status=Round.Status.RUNNING).order_by("number").first()
        or tournament.round_set.filter(status=Round.Status.CLOSED).order_by("-number").first()
    )
    if round_ is None:
        return None
    progress = round_progress(round_)
    return {
        "number": round_.number,
        "running": round_.status == Round.Status.RUNNING,
        "done": sum(1 for t in progress if t.complete),
        "tables": len(progress),
    }


def player_summary(tournament: Tournament, registration: Registration) -> dict:
    """The first line of a player's own view: ``rank`` (``None`` without a place),
    ``of`` (players with a place), ``total`` points, ``note`` (a missed-round marking) and
    ``waiting`` (no result yet),
    from the overall :func:`standings`; ``listed`` is false when the standings leave the
    player out (``missed_rounds == "excluded"``)."""
    rows = standings(tournament, public=False)
    mine = next((r for r in rows if r.registration_id == registration.pk), None)
    return {
        "listed": mine is not None,
        "rank": mine.rank if mine else None,
        "of": sum(1 for r in rows if r.rank is not None),
        "total": mine.total if mine else 0,
        "note": mine.note if mine else "",
        "waiting": mine.waiting if mine else False,
    }
