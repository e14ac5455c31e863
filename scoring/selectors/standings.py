"""The standings, per round and overall, and the places: tie-breaks, categories.

They cost a fixed number of queries whatever the tournament's size: one aggregate over
:class:`scoring.models.SeatScore`, one over round totals, one for the registrations, one
for the seats of closed rounds.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple

from django.db import connection
from django.db.models import Count, F, Q, Sum
from django.utils.translation import gettext as _

from tournament.models import Category, Player, Registration, Round, Seat, Tournament

from ..models import RoundTotal, SeatScore


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
    sums = _Sums()
    _add_hand_sums(sums, tournament, round_number)
    _add_round_totals(sums, tournament, round_number)
    numbers = [round_number] if round_number is not None else list(range(1, tournament.rounds + 1))
    played_closed = _seated_at_closed_rounds(tournament, round_number)
    rows: list[StandingRow] = []
    for reg in _entrants(tournament):
        # (checked before ``per_round[reg.pk]`` below adds the key to the defaultdict)
        if (
            round_number is not None
            and reg.pk not in sums.per_round
            and not reg.plays_in(round_number)
        ):
            continue
        row = _standing_row(tournament, reg, sums, numbers, round_number, public)
        if row is None:
            continue
        row.waiting = all(p is None for p in row.rounds) and reg.pk not in played_closed
        if row.waiting:
            row.rank = None
        rows.append(row)
    tie_break = tournament.tie_break if round_number is None else Tournament.TieBreak.SHARED
    return assign_places(rows, tie_break)


def lost_game_fees(tournament: Tournament) -> dict[int, Decimal]:
    """The lost-game fee in EUR per start number of everyone registered in ``tournament``
    (every game lost as declarer from the ``lost_game_fee_from``-th on), also for players
    the standings leave out (``missed_rounds == "excluded"``); empty when the tournament
    charges none.  The cash summary's figure (door), the same count as
    :attr:`StandingRow.fee`."""
    if tournament.lost_game_fee is None:
        return {}
    sums = _Sums()
    _add_hand_sums(sums, tournament, None)
    _add_round_totals(sums, tournament, None)
    return {
        reg.start_number: tournament.lost_game_fee
        * max(0, sums.lost[reg.pk] - tournament.lost_game_fee_from + 1)
        for reg in _entrants(tournament)
    }


@dataclass
class _Sums:
    """What the standings add up per registration (id): points per round number, games
    won and lost as declarer, and entries still awaiting confirmation."""

    per_round: dict[int, dict[int, int]] = field(default_factory=lambda: defaultdict(dict))
    won: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    lost: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    provisional: dict[int, int] = field(default_factory=lambda: defaultdict(int))


def _add_hand_sums(sums: _Sums, tournament: Tournament, round_number: int | None) -> None:
    """Add the seat scores of entered hands (hand mode) to ``sums``, summed by the
    database per player and round."""
    scores = SeatScore.objects.filter(tournament=tournament)
    if round_number is not None:
        scores = scores.filter(round_number=round_number)
    # provisional: unconfirmed entries, when the tournament confirms entries, and hands
    # entered at the table through its link (always confirmed): of a running round, or of
    # a closed one that the director closed with them (saved before the close; a change
    # after it is the director's adjustment, not awaiting anyone)
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
    if tournament.marks_provisional:
        counts["open"] = Count("id", filter=open_hands)
    # one row per player and round, summed by the database; read as plain tuples (the
    # ORM's per-value converters and dicts cost more than the sums at 600 players)
    aggregate = scores.values_list("registration_id", "round_number").annotate(**counts)
    sql, params = aggregate.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for reg, number, points, won_, lost_, *open_ in cursor.fetchall():
            sums.per_round[reg][number] = points
            sums.won[reg] += won_
            sums.lost[reg] += lost_
            sums.provisional[reg] += open_[0] if open_ else 0


def _add_round_totals(sums: _Sums, tournament: Tournament, round_number: int | None) -> None:
    """Add the round totals of paper score sheets (paper mode) to ``sums``."""
    mark = tournament.marks_provisional
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
        sums.per_round[reg][row["round__number"]] = row["points"]
        sums.won[reg] += row["games_won"]
        sums.lost[reg] += row["games_lost"]
        if (
            mark
            and tournament.confirmation_required
            and row["confirmed_at"] is None
            and _open_at_close(row["round__status"], row["round__closed_at"], row["updated_at"])
        ):
            sums.provisional[reg] += 1


def _seated_at_closed_rounds(tournament: Tournament, round_number: int | None) -> set[int]:
    """Registrations (ids) seated at a closed round: they played it, with 0 points where
    the table entered nothing."""
    closed_seats = Seat.objects.filter(
        round__tournament=tournament, round__status=Round.Status.CLOSED
    )
    if round_number is not None:
        closed_seats = closed_seats.filter(round__number=round_number)
    return set(closed_seats.values_list("registration_id", flat=True))


def _standing_row(
    tournament: Tournament,
    reg: _Entrant,
    sums: _Sums,
    numbers: list[int],
    round_number: int | None,
    public: bool,
) -> StandingRow | None:
    """``reg``'s row over the rounds ``numbers`` (``None`` when the club's
    ``missed_rounds`` setting leaves a player with a missed round out)."""
    rounds = [sums.per_round[reg.pk].get(n) for n in numbers]
    missed = [p is None and not reg.plays_in(n) for n, p in zip(numbers, rounds, strict=True)]
    unranked = False
    if round_number is None and any(missed):
        if tournament.missed_rounds == Tournament.MissedRounds.EXCLUDED:
            return None
        unranked = tournament.missed_rounds == Tournament.MissedRounds.UNPLACED
    consent = reg.consent_public or not public
    fee = None
    if tournament.lost_game_fee is not None:
        charged = max(0, sums.lost[reg.pk] - tournament.lost_game_fee_from + 1)
        fee = tournament.lost_game_fee * charged
    return StandingRow(
        start_number=reg.start_number,
        name=str(reg.player) if consent else "",
        club=reg.player.club if consent else "",
        rounds=rounds,
        total=sum(p for p in rounds if p is not None),
        won=sums.won[reg.pk],
        lost=sums.lost[reg.pk],
        fee=fee,
        registration_id=reg.pk,
        public=consent,
        provisional=sums.provisional[reg.pk],
        missed=missed,
        note=missed_note(reg, tournament.rounds) if any(missed) else "",
        rank=None if unranked else 0,
        waiting=False,
    )


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
