"""Read-side queries: standings per round and overall, table progress, a player's round.

Standings cost a fixed number of queries whatever the tournament's size: one aggregate over
:class:`scoring.models.SeatScore`, one over round totals, one for the registrations.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from django.db import connection
from django.db.models import Count, Max, Q, Sum
from django.utils.translation import gettext as _

from tournament.models import Player, Registration, Round, Table, Tournament

from .models import Hand, RoundTotal, SeatScore, account_label


@dataclass
class StandingRow:
    """One line of the standings.

    ``rank`` is shared on equal points (FIELD-NOTES: no tie-break); ``rounds`` holds the
    points per round (``None`` where nothing was entered); ``won``/``lost`` count games won
    and lost as declarer; ``fee`` is the lost-game fee in EUR (``None`` if the tournament
    charges none); ``provisional`` counts the player's entries in running rounds that still
    await confirmation (only counted when the tournament confirms entries and marks them).  ``name`` and ``club`` are empty for players without consent when the
    rows are made for the public.

    ``missed`` (parallel to ``rounds``) is true for a round the player did not play (joined
    later, or withdrew before it) and has no points in: shown as "—", never 0.  ``note``
    marks such a player ("ab Runde 2", "bis Runde 2", "Runde 2–3"); ``rank`` is ``None``
    for a player the tournament ranks without a prize place
    (``Tournament.missed_rounds == "unplaced"``): shown as "–", the others' places are
    counted without them.
    """

    rank: int | None
    start_number: int
    name: str
    club: str
    rounds: list[int | None]
    total: int
    won: int
    lost: int
    fee: Decimal | None
    registration_id: int
    public: bool = True
    provisional: int = 0
    extra: dict = field(default_factory=dict)
    missed: list[bool] = field(default_factory=list)
    note: str = ""

    @property
    def round_cells(self) -> list[int | str | None]:
        """``rounds`` for display: points, ``"—"`` for a missed round, ``None`` for a round
        without points yet."""
        missed = self.missed or [False] * len(self.rounds)
        return ["—" if m else p for p, m in zip(self.rounds, missed, strict=True)]


def missed_note(registration: Registration, rounds: int) -> str:
    """The marking of a player who missed rounds of a ``rounds``-round tournament: "ab
    Runde 2" (joined late), "bis Runde 2" (withdrew after round 2), "Runde 2–3" (both), or
    "" for a player who plays every round."""
    first = registration.first_round
    last = registration.withdrawn_after_round
    late = first > 1
    early = last is not None and last < rounds
    if late and early:
        return _("Runde %(first)s–%(last)s") % {"first": first, "last": last}
    if late:
        return _("ab Runde %(n)s") % {"n": first}
    if early:
        return _("bis Runde %(n)s") % {"n": last}
    return ""


class _Person(NamedTuple):
    """The fields of a :class:`~tournament.models.Player` the standings show."""

    first_name: str
    last_name: str
    club: str

    __str__ = Player.__str__


class _Entrant(NamedTuple):
    """The fields of a :class:`~tournament.models.Registration` the standings read, loaded
    as plain tuples: building 600 registrations and their players as model instances took
    a quarter of a cold standings render."""

    pk: int
    start_number: int
    first_round: int
    withdrawn_after_round: int | None
    consent_public: bool
    player: _Person

    plays_in = Registration.plays_in


def _entrants(tournament: Tournament) -> list[_Entrant]:
    """The tournament's registrations with their players, in one query."""
    return [
        _Entrant(pk, number, first, last, consent, _Person(first_name, last_name, club))
        for pk, number, first, last, consent, first_name, last_name, club in (
            Registration.objects.filter(tournament=tournament).values_list(
                "pk",
                "start_number",
                "first_round",
                "withdrawn_after_round",
                "consent_public",
                "player__first_name",
                "player__last_name",
                "player__club",
            )
        )
    ]


def standings(
    tournament: Tournament, round_number: int | None = None, public: bool = True
) -> list[StandingRow]:
    """Standings of ``tournament``: overall, or for one round with ``round_number``.

    With ``public`` (the default), players without consent appear by start number only.
    Rows are ordered by points, then start number.

    Rounds a player did not play (``Registration.plays_in``) and has no points in are
    ``missed`` and count 0 towards the total.  In the overall standings the tournament's
    ``missed_rounds`` setting (the club's decision) then applies to such a player: ``zero``
    ranks them like everyone; ``unplaced`` lists them with ``rank=None`` and ranks the
    others as if they were not there (no prize place); ``excluded`` leaves them out.
    Equal points share a place (FIELD-NOTES: no tie-break).
    """
    per_round: dict[int, dict[int, int]] = defaultdict(dict)
    won: dict[int, int] = defaultdict(int)
    lost: dict[int, int] = defaultdict(int)
    scores = SeatScore.objects.filter(tournament=tournament)
    if round_number is not None:
        scores = scores.filter(round_number=round_number)
    provisional: dict[int, int] = defaultdict(int)
    mark = tournament.confirmation_required and tournament.mark_unconfirmed
    counts = {
        "points": Sum("points"),
        "won": Count("id", filter=Q(declarer=True, declarer_won=True)),
        "lost": Count("id", filter=Q(declarer=True, declarer_won=False)),
    }
    if mark:
        counts["open"] = Count(
            "id",
            filter=Q(
                hand__confirmed_at__isnull=True, hand__table__round__status=Round.Status.RUNNING
            ),
        )
    # one row per player and round, summed by the database; read as plain tuples (the
    # ORM's per-value converters and dicts cost more than the sums at 600 players)
    aggregate = scores.values_list("registration_id", "round_number").annotate(**counts)
    sql, params = aggregate.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for reg, number, points, won_, lost_, *open_ in cursor.fetchall():
            per_round[reg][number] = points
            won[reg] += won_
            lost[reg] += lost_
            provisional[reg] += open_[0] if open_ else 0
    totals = RoundTotal.objects.filter(round__tournament=tournament)
    if round_number is not None:
        totals = totals.filter(round__number=round_number)
    for row in totals.values(
        "registration_id",
        "round__number",
        "round__status",
        "points",
        "games_won",
        "games_lost",
        "confirmed_at",
    ):
        reg = row["registration_id"]
        per_round[reg][row["round__number"]] = row["points"]
        won[reg] += row["games_won"]
        lost[reg] += row["games_lost"]
        if mark and row["confirmed_at"] is None and row["round__status"] == Round.Status.RUNNING:
            provisional[reg] += 1

    numbers = [round_number] if round_number is not None else list(range(1, tournament.rounds + 1))
    policy = tournament.missed_rounds
    rows: list[StandingRow] = []
    for reg in _entrants(tournament):
        # (checked before ``per_round[reg.pk]`` below adds the key to the defaultdict)
        if round_number is not None and reg.pk not in per_round and not reg.plays_in(round_number):
            continue
        rounds = [per_round[reg.pk].get(n) for n in numbers]
        missed = [p is None and not reg.plays_in(n) for n, p in zip(numbers, rounds, strict=True)]
        unranked = False
        if round_number is None and any(missed):
            if policy == Tournament.MissedRounds.EXCLUDED:
                continue
            unranked = policy == Tournament.MissedRounds.UNPLACED
        consent = reg.consent_public or not public
        fee = None
        if tournament.lost_game_fee is not None:
            charged = max(0, lost[reg.pk] - tournament.lost_game_fee_from + 1)
            fee = tournament.lost_game_fee * charged
        rows.append(
            StandingRow(
                start_number=reg.start_number,
                name=str(reg.player) if consent else "",
                club=reg.player.club if consent else "",
                rounds=rounds,
                total=sum(p for p in rounds if p is not None),
                won=won[reg.pk],
                lost=lost[reg.pk],
                fee=fee,
                registration_id=reg.pk,
                public=consent,
                provisional=provisional[reg.pk],
                missed=missed,
                note=missed_note(reg, tournament.rounds) if any(missed) else "",
                rank=None if unranked else 0,
            )
        )
    rows.sort(key=lambda r: (-r.total, r.start_number))
    place, previous = 0, None
    for ranked, row in enumerate((r for r in rows if r.rank is not None), start=1):
        if previous is None or row.total != previous:
            place = ranked
        row.rank, previous = place, row.total
    return rows


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

    @property
    def complete(self) -> bool:
        return self.entered >= self.games

    @property
    def missing(self) -> int:
        return max(0, self.games - self.entered)


def round_progress(round_: Round) -> list[TableProgress]:
    """Every table of ``round_`` with its players, how many entries are in and how many of
    them are unconfirmed; a fixed number of queries."""
    tables = list(
        round_.tables.annotate(
            entered=Count("hands"),
            unconfirmed=Count("hands", filter=Q(hands__confirmed_at__isnull=True)),
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
        TableProgress(t, [s.registration for s in t.seats.all()], t.entered, games, t.unconfirmed)
        for t in tables
    ]


def overview_rounds(tournament: Tournament) -> list[dict]:
    """The rounds for the entry overview in the order a director needs them: the running
    round first, then the planned ones (next first), then the closed ones (latest first).
    Each item: ``round``, ``tables`` (:func:`round_progress`), ``may_draw`` and
    ``may_start`` (rounds run in order: only when every earlier round is closed)."""
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


def table_hands(table: Table) -> list[Hand]:
    """The table's hands in game order."""
    return list(table.hands.order_by("number"))


def running_totals(hands: list[Hand], size: int) -> list[list[int]]:
    """Running total per table position after each of ``hands`` (game points)."""
    totals = [0] * size
    out = []
    for hand in hands:
        totals = [t + s for t, s in zip(totals, hand.scores, strict=True)]
        out.append(list(totals))
    return out


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
    ``of`` (players with a place), ``total`` points and ``note`` (a missed-round marking),
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
    }


@dataclass
class HandVersion:
    """One saved version of a hand: ``version``, who saved it and when, and what changed
    against the version before (``changes``: ``(field label, old, new)``; empty for the
    first entry).  ``reason`` is the reason given with the save; ``adjustment`` says it
    was saved after the round was closed (a director's adjustment); ``confirmed_by`` names
    the second account that confirmed this version, if any."""

    version: int
    user: str
    when: object
    scores: list
    changes: list[tuple[str, object, object]]
    reason: str = ""
    adjustment: bool = False
    confirmed_by: str = ""


def hand_history(hands, closed_at=None) -> dict[int, list[HandVersion]]:
    """Every version of the corrected ones among ``hands`` (a queryset of one round's
    hands: a table's on its page, the round's for the score sheets), oldest first, by hand
    id; one query.  ``closed_at`` is when the round was closed (``None`` while it runs): a
    hand saved after it is listed even at its first version, as an adjustment.

    Uses django-simple-history's records (``history_change_reason`` holds the reason) and
    ``diff_against`` for the changed fields; a record that only confirms a version is folded
    into that version's ``confirmed_by``.
    """
    records: dict[int, list] = defaultdict(list)
    listed = Q(version__gt=1)
    if closed_at is not None:
        listed |= Q(updated_at__gt=closed_at)
    corrected = hands.filter(listed).values_list("pk", flat=True)
    for record in (
        Hand.history.filter(id__in=list(corrected))
        .select_related("history_user", "entered_by", "confirmed_by")
        .order_by("id", "history_date", "history_id")
    ):
        records[record.id].append(record)
    labels = {
        f.name: str(f.verbose_name) for f in Hand._meta.get_fields() if hasattr(f, "verbose_name")
    }
    ignored = [
        "version",
        "updated_at",
        "entered_by",
        "entered_by_name",
        "confirmed_by",
        "confirmed_by_name",
        "confirmed_at",
    ]
    out: dict[int, list[HandVersion]] = {}
    for hand_id, versions in records.items():
        entries: list[HandVersion] = []
        previous = None
        for record in versions:
            if previous is not None and record.version == previous.version:
                # the same version saved again: a confirmation (or its removal)
                entries[-1].confirmed_by = account_label(
                    record.confirmed_by, record.confirmed_by_name
                )
                previous = record
                continue
            changes = []
            if previous is not None:
                delta = record.diff_against(previous, excluded_fields=ignored)
                changes = [(labels.get(c.field, c.field), c.old, c.new) for c in delta.changes]
            entries.append(
                HandVersion(
                    version=record.version,
                    user=record.history_user_label
                    or account_label(record.entered_by, record.entered_by_name),
                    when=record.history_date,
                    scores=record.scores,
                    changes=changes,
                    reason=record.history_change_reason or "",
                    adjustment=closed_at is not None and record.history_date > closed_at,
                    confirmed_by=account_label(record.confirmed_by, record.confirmed_by_name),
                )
            )
            previous = record
        out[hand_id] = entries
    return out
