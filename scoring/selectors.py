"""Read-side queries: standings per round and overall, table progress, a player's round.

Standings cost a fixed number of queries whatever the tournament's size: one aggregate over
:class:`scoring.models.SeatScore`, one over round totals, one for the registrations.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from decimal import Decimal
from typing import NamedTuple

from django.db import connection
from django.db.models import Count, F, Max, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Category, Player, Registration, Round, Seat, Table, Tournament

from .models import Hand, RoundTotal, SeatScore, account_label

#: the clerk overview flags a table that has sent no hand for this long (table entry)
SILENT_AFTER = timedelta(minutes=15)


@dataclass
class StandingRow:
    """One line of the standings.

    ``rank`` is shared on equal points unless the tournament's tie-break orders them
    (:func:`assign_places`); ``rounds`` holds the
    points per round (``None`` where nothing was entered); ``won``/``lost`` count games won
    and lost as declarer; ``fee`` is the lost-game fee in EUR (``None`` if the tournament
    charges none); ``provisional`` counts the player's entries that still await
    confirmation: in running rounds, and those a closed round was closed with (the
    director's close with a reason; a later adjustment is not counted); only counted when
    the tournament confirms entries and marks them.  ``name`` and ``club`` are empty for
    players without consent when the rows are made for the public.

    ``missed`` (parallel to ``rounds``) is true for a round the player did not play (joined
    later, or withdrew before it) and has no points in: shown as "—", never 0.  ``note``
    marks such a player ("ab Runde 2", "bis Runde 2", "Runde 2–3"); ``rank`` is ``None``
    for a player the tournament ranks without a prize place
    (``Tournament.missed_rounds == "unplaced"``): shown as "–", the others' places are
    counted without them.

    ``waiting`` is true for a player with no result yet: no points entered in any round
    shown, and not seated at a closed round (where no hand means 0 points).  Such a row
    has no place and is listed after everyone with a result, its total shown as "–"
    (issue 37.38: before the first hand of a round, players without a hand ranked above
    players on negative points as if 0 were a result).
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
    waiting: bool = False

    @property
    def round_cells(self) -> list[int | str | None]:
        """``rounds`` for display: points, ``"—"`` for a missed round, ``None`` for a round
        without points yet."""
        missed = self.missed or [False] * len(self.rounds)
        return ["—" if m else p for p, m in zip(self.rounds, missed, strict=True)]


def missed_note(registration: Registration, rounds: int) -> str:
    """The marking of a player who missed rounds of a ``rounds``-round tournament: "ab
    Runde 2" (joined late), "bis Runde 2" (withdrew after round 2), "Runde 2–3" (both), or
    "nur Runde 2", "abgemeldet vor Runde 1" for one who withdrew before playing any round,
    or "" for a
    player who plays every round."""
    first = registration.first_round
    last = registration.withdrawn_after_round
    late = first > 1
    early = last is not None and last < rounds
    if early and last < first:
        return _("abgemeldet vor Runde %(n)s") % {"n": first}
    if late and early and last == first:
        return _("nur Runde %(n)s") % {"n": first}
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


def _open_at_close(status: str, closed_at: datetime | None, updated_at: datetime) -> bool:
    """Whether an unconfirmed entry still counts as awaiting confirmation: its round runs,
    or was closed with it (saved before the close, not adjusted after it)."""
    if status == Round.Status.RUNNING:
        return True
    return status == Round.Status.CLOSED and closed_at is not None and updated_at <= closed_at


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
    Equal points share a place, unless the tournament's ``tie_break`` orders them
    (:func:`assign_places`; overall standings only, a single round always shares).
    """
    per_round: dict[int, dict[int, int]] = defaultdict(dict)
    won: dict[int, int] = defaultdict(int)
    lost: dict[int, int] = defaultdict(int)
    scores = SeatScore.objects.filter(tournament=tournament)
    if round_number is not None:
        scores = scores.filter(round_number=round_number)
    provisional: dict[int, int] = defaultdict(int)
    # provisional: unconfirmed entries, when the tournament confirms entries, and hands
    # entered at the table through its link (always confirmed): of a running round, or of
    # a closed one that the director closed with them (saved before the close; a change
    # after it is the director's adjustment, not awaiting anyone)
    mark = tournament.marks_provisional
    open_hands = Q(hand__confirmed_at__isnull=True) & (
        Q(hand__table__round__status=Round.Status.RUNNING)
        | Q(
            hand__table__round__status=Round.Status.CLOSED,
            hand__updated_at__lte=F("hand__table__round__closed_at"),
        )
    )
    if not tournament.confirmation_required:
        open_hands &= Q(hand__table_link__isnull=False)
    counts = {
        "points": Sum("points"),
        "won": Count("id", filter=Q(declarer=True, declarer_won=True)),
        "lost": Count("id", filter=Q(declarer=True, declarer_won=False)),
    }
    if mark:
        counts["open"] = Count("id", filter=open_hands)
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
        "round__closed_at",
        "points",
        "games_won",
        "games_lost",
        "confirmed_at",
        "updated_at",
    ):
        reg = row["registration_id"]
        per_round[reg][row["round__number"]] = row["points"]
        won[reg] += row["games_won"]
        lost[reg] += row["games_lost"]
        if (
            mark
            and tournament.confirmation_required
            and row["confirmed_at"] is None
            and _open_at_close(row["round__status"], row["round__closed_at"], row["updated_at"])
        ):
            provisional[reg] += 1

    numbers = [round_number] if round_number is not None else list(range(1, tournament.rounds + 1))
    # seated at a closed round: played it, with 0 points where the table entered nothing
    closed_seats = Seat.objects.filter(
        round__tournament=tournament, round__status=Round.Status.CLOSED
    )
    if round_number is not None:
        closed_seats = closed_seats.filter(round__number=round_number)
    played_closed = set(closed_seats.values_list("registration_id", flat=True))
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
        waiting = all(p is None for p in rounds) and reg.pk not in played_closed
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
                rank=None if unranked or waiting else 0,
                waiting=waiting,
            )
        )
    tie_break = tournament.tie_break if round_number is None else Tournament.TieBreak.SHARED
    return assign_places(rows, tie_break)


def tie_key(row: StandingRow, tie_break: str) -> tuple:
    """What orders ``row`` among players on equal points, best first, under ``tie_break``
    (``Tournament.TieBreak``): nothing for ``shared``; for ``best-round`` the best single
    round (points, higher first), then fewer games lost as declarer.  Rows with equal
    totals and equal keys share a place."""
    return tie_values(row.rounds, row.lost, tie_break)


def tie_values(rounds: list[int | None], lost: int, tie_break: str) -> tuple:
    """:func:`tie_key` from its parts: ``rounds`` (points per round, ``None`` for a round
    not played) and ``lost`` (games lost as declarer); also used by the series standings
    (:mod:`series.selectors`) to place each evening as the evening itself does."""
    if tie_break == Tournament.TieBreak.BEST_ROUND:
        best = max((p for p in rounds if p is not None), default=0)
        return (-best, lost)
    return ()


def tie_break_note(tournament: Tournament) -> str:
    """The sentence for players saying how equal totals are placed in ``tournament``
    (results list, rules handout, standings page)."""
    if tournament.tie_break == Tournament.TieBreak.BEST_ROUND:
        return _(
            "Bei gleicher Gesamtpunktzahl entscheidet die beste Einzelrunde, dann die "
            "kleinere Zahl verlorener Spiele; sind auch diese gleich, teilen sich die "
            "Spieler den Platz."
        )
    return _("Gleiche Punktzahl, gleicher Platz.")


def assign_places(rows: list, tie_break: str, order=lambda row: row.start_number) -> list:
    """Order ``rows`` by points and give them their places, in place; returns ``rows``.

    Works only on the rows' ``total``, ``rounds``, ``lost`` and ``rank`` (a
    :class:`StandingRow` or a :class:`PairRow`), so it ranks a category's rows again on
    their own (:func:`category_rows`) and the pairs of a pairs event.  A row whose ``rank`` is
    ``None`` (ranked without a prize place, or ``waiting`` for its first result: listed
    last) keeps ``None`` and is not counted; every other
    row gets ``1 + the number of placed rows ahead of it``.  Equal points share a place
    (FIELD-NOTES: ties share, the clubs' custom) unless ``tie_break`` is ``best-round``:
    then the best single round decides, then fewer lost games, and only rows equal on all
    three share (the next place is skipped: 1, 2, 2, 4).  Within a shared place rows are
    listed by ``order`` (start number; pairs pass their pair number).
    """
    # a row without any result yet (``waiting``) comes after every row with one
    rows.sort(
        key=lambda r: (getattr(r, "waiting", False), -r.total, *tie_key(r, tie_break), order(r))
    )
    place, previous = 0, None
    for ranked, row in enumerate((r for r in rows if r.rank is not None), start=1):
        key = (row.total, *tie_key(row, tie_break))
        if previous is None or key != previous:
            place = ranked
        row.rank, previous = place, key
    return rows


def category_rows(rows: list[StandingRow], members: set[int], tie_break: str) -> list[StandingRow]:
    """The rows of the registrations in ``members`` (registration ids), as copies with
    their own places among themselves (:func:`assign_places` under ``tie_break``); a row
    without a place keeps none.  ``rows`` is left unchanged."""
    return assign_places([replace(r) for r in rows if r.registration_id in members], tie_break)


def category_standings(
    tournament: Tournament,
    category: Category,
    round_number: int | None = None,
    public: bool = True,
) -> list[StandingRow]:
    """:func:`standings` of the players in ``category`` only, with the category's own
    places (the tournament's tie-break overall, shared places for a single round); one
    query more than :func:`standings`."""
    rows = standings(tournament, round_number, public=public)
    members = set(category.registrations.values_list("pk", flat=True))
    tie_break = tournament.tie_break if round_number is None else Tournament.TieBreak.SHARED
    return category_rows(rows, members, tie_break)


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


@dataclass
class HandVersion:
    """One saved version of a hand: ``version``, who saved it and when, and what changed
    against the version before (``changes``: ``(field label, old, new)``, the values as
    text by :func:`shown_value`; empty for the first entry).  ``reason`` is the reason given with the save; ``adjustment`` says it
    was saved after the round was closed (a director's adjustment); ``confirmed_by`` names
    the second account that confirmed this version, if any."""

    version: int
    user: str
    when: object
    scores: list
    changes: list[tuple[str, str | None, str | None]]
    reason: str = ""
    adjustment: bool = False
    confirmed_by: str = ""


def shown_value(field: str, value) -> str | None:
    """A stored value of the hand's ``field`` as the correction history shows it, in the
    active language: ``True``/``False`` as "ja"/"nein", a choice by its label ("Herz"),
    a list of points per seat as "0 / 40 / 150" (an empty seat "–"), a negative number
    with a real minus sign; ``None`` stays ``None`` (shown as "–").  Issue 37.27: the
    history read "True → False; [0, 40, 160] → [0, 40, 150]"."""
    from django.core.exceptions import FieldDoesNotExist
    from django.utils.translation import gettext as _

    if value is None:
        return None
    if isinstance(value, bool):
        return _("ja") if value else _("nein")
    if isinstance(value, list | tuple):
        return " / ".join("–" if v is None else shown_value(field, v) for v in value)
    if isinstance(value, int):
        return str(value).replace("-", "\u2212")
    try:
        model_field = Hand._meta.get_field(field)
    except FieldDoesNotExist:  # a field the model no longer has: shown as stored
        model_field = None
    if model_field is not None and model_field.choices and value != "":
        return str(dict(model_field.flatchoices).get(value, value))
    return str(value)


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
                changes = [
                    (
                        labels.get(c.field, c.field),
                        shown_value(c.field, c.old),
                        shown_value(c.field, c.new),
                    )
                    for c in delta.changes
                ]
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


@dataclass
class PairRow:
    """One line of a pairs event's standings (``Tournament.EventType.PAIRS``).

    ``pair`` is the pair number; ``members`` the partners' :class:`StandingRow` (start
    number order), whose ``name`` is empty for a partner without consent; ``rounds`` and
    ``total`` are the pair's points (each partner carries the team's score, so they are
    either partner's); ``won``/``lost`` count the pair's games won and lost as declaring
    side; ``fee`` is both partners' lost-game fees together (``None`` without a fee);
    ``rank`` is shared on equal points unless the tournament's tie-break separates them,
    ``None`` for a pair ranked without a prize place."""

    rank: int | None
    pair: int
    members: list[StandingRow]
    rounds: list[int | None]
    total: int
    won: int
    lost: int
    fee: Decimal | None
    provisional: int = 0
    missed: list[bool] = field(default_factory=list)

    @property
    def round_cells(self) -> list[int | str | None]:
        """``rounds`` for display, ``"—"`` for a round the pair missed."""
        missed = self.missed or [False] * len(self.rounds)
        return ["—" if m else p for p, m in zip(self.rounds, missed, strict=True)]

    @property
    def start_numbers(self) -> str:
        """The partners' start numbers, "3 / 11"."""
        return " / ".join(str(m.start_number) for m in self.members)


def pair_standings(
    tournament: Tournament, round_number: int | None = None, public: bool = True
) -> list[PairRow]:
    """Standings per pair of a pairs event: overall, or one round with ``round_number``.

    Built from the individual :func:`standings` (same queries plus none): the two
    registrations sharing a ``Registration.pair`` number form a row.  Each partner's
    :class:`scoring.models.SeatScore` carries the team's score (the engine credits each
    partner the side's points, seed 000 "Punktewertung"), so the pair's points per round
    are its partners' (the higher, should they ever differ, e.g. after a partner was seated
    elsewhere by a swap).  A pair is left out when the standings leave out both partners,
    and ranked without a prize place when either partner is.  Registrations without a pair
    are not listed.  Ordered by points, then (overall) the tournament's ``tie_break`` on
    the pair's rounds and lost games (:func:`tie_key`), then pair number; pairs equal on
    all of these share a place."""
    by_pair: dict[int, list[StandingRow]] = defaultdict(list)
    pair_of = dict(
        Registration.objects.filter(tournament=tournament, pair__isnull=False).values_list(
            "pk", "pair"
        )
    )
    for row in standings(tournament, round_number, public):
        if row.registration_id in pair_of:
            by_pair[pair_of[row.registration_id]].append(row)
    rows: list[PairRow] = []
    for number, members in by_pair.items():
        members.sort(key=lambda m: m.start_number)
        rounds: list[int | None] = []
        for cells in zip(*(m.rounds for m in members), strict=True):
            points = [p for p in cells if p is not None]
            rounds.append(max(points) if points else None)
        missed = [
            all(cells)
            for cells in zip(*(m.missed or [False] * len(m.rounds) for m in members), strict=True)
        ]
        fees = [m.fee for m in members if m.fee is not None]
        rows.append(
            PairRow(
                rank=None if any(m.rank is None for m in members) else 0,
                pair=number,
                members=members,
                rounds=rounds,
                total=sum(p for p in rounds if p is not None),
                won=max(m.won for m in members),
                lost=max(m.lost for m in members),
                fee=sum(fees, Decimal(0)) if tournament.lost_game_fee is not None else None,
                provisional=max(m.provisional for m in members),
                missed=missed,
            )
        )
    # the overall standings follow the tournament's tie-break, as the players' do
    tie_break = tournament.tie_break if round_number is None else Tournament.TieBreak.SHARED
    return assign_places(rows, tie_break, order=lambda row: row.pair)


@dataclass
class PastTournament:
    """A finished tournament on the start page's archive: ``winners`` are the names on
    place 1 as the public standings give them (a player without consent by start
    number)."""

    tournament: Tournament
    winners: list[str]


def winners(tournament: Tournament) -> list[str]:
    """The names on place 1 of ``tournament``'s public standings (a player without consent
    as "Startnummer N")."""
    return [
        row.name or _("Startnummer %(number)s") % {"number": row.start_number}
        for row in standings(tournament, public=True)
        if row.rank == 1
    ]


def tournaments_by_state(
    winners_of=winners,
) -> tuple[list[Tournament], list[tuple[str, list[PastTournament]]]]:
    """The start page's lists: the tournaments still running or to come (newest first),
    and the finished ones (every round closed) grouped by season, the newest season first:
    a tournament's season is that of its series (the first by season, if several), else
    the year of its date.  ``winners_of`` gives a finished tournament's winners
    (:func:`winners`, a standings computation; the start page caches it).  Three queries
    and the winners."""
    tournaments = list(
        Tournament.objects.annotate(
            open_rounds=Count("round_set", filter=~Q(round_set__status=Round.Status.CLOSED)),
            closed_rounds=Count("round_set", filter=Q(round_set__status=Round.Status.CLOSED)),
        )
        .prefetch_related("series")
        .order_by("-date", "-pk")
    )
    current = [t for t in tournaments if t.open_rounds or t.closed_rounds < t.rounds]
    seasons: dict[str, list[PastTournament]] = defaultdict(list)
    for tournament in tournaments:
        if tournament in current:
            continue
        series = sorted(tournament.series.all(), key=lambda s: s.season)
        season = series[0].season if series else str(tournament.date.year)
        seasons[season].append(PastTournament(tournament, winners_of(tournament)))
    return current, sorted(seasons.items(), key=lambda item: item[0], reverse=True)
