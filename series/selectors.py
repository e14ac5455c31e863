"""Series standings: several evenings (tournaments) ranked together by the series' rule.

Reads the results of all the series' evenings in a fixed number of queries whatever the
number of evenings and players (one aggregate over :class:`scoring.models.SeatScore`, one
over round totals, one for the registrations, one for the evenings), and works out each
evening's final totals and places the way :func:`scoring.selectors.standings` does (missed
rounds count 0; the tournament's ``missed_rounds`` setting; its ``tie_break`` setting).

Decisions (documented in the README, "Series over several evenings"):

- Only a **finished** evening counts (every round closed): its final standings are the
  ones that count.  An evening still running, or not yet played, is shown in the header as
  "läuft noch" and gives nobody points yet, so the series standings are provisional.
- "All evenings" eligibility means all *finished* evenings, so mid-season the page shows
  the standings so far.
- A pairs evening places pairs, as its pair standings do: both partners get their pair's
  place (and its placement points); a player without a pair gets no place there.
- Players below the eligibility are **listed without a place** below the ranked ones
  ("zu wenige Abende"), so a player sees what is missing.
- A player's name appears only if they consented at every evening they played; otherwise
  the row is labelled "Anonym 1", "Anonym 2", … in the order of the list (consent is given
  per event).  Never a start number: a player hidden at one evening may be named at
  another under the start number, which would join the hidden result to the name
  (issue 37).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum

from scoring.models import RoundTotal, SeatScore
from scoring.selectors import tie_values
from tournament.models import Registration, Round, Series, Tournament


@dataclass
class Evening:
    """One tournament of the series: ``number`` (1-based, by date) and whether it is
    ``finished`` (all rounds closed; only then it counts)."""

    tournament: Tournament
    number: int
    finished: bool


@dataclass
class EveningCell:
    """A player's result at one evening.  ``points``: their total there (game points;
    ``None``: did not play, or the evening is not finished); ``place``: their place that
    evening (``None`` without one); ``value``: what the evening gives in the series
    (``points``, or the placement points for ``place``); ``counted``: whether it is in the
    series total (a played evening that is not counted is struck out, best N of M);
    ``start_number`` there (``None`` in a public row without a name: see
    :class:`SeriesRow`)."""

    points: int | None = None
    place: int | None = None
    value: int | None = None
    counted: bool = False
    start_number: int | None = None

    @property
    def played(self) -> bool:
        return self.value is not None

    @property
    def struck(self) -> bool:
        """Played, but not among the evenings that count."""
        return self.played and not self.counted


@dataclass
class SeriesRow:
    """One line of the series standings: ``rank`` shared on equal totals (``None`` for a
    player below the eligibility: listed, unranked); ``total`` is the sum of the counted
    evenings' values; ``played`` counts the finished evenings played.  ``name``/``club``
    are empty when the player did not consent at every evening played (``public`` false);
    ``anonymous_number`` (1, 2, … in the order of the list) then stands in the name's
    place: see :attr:`hidden_label`.  ``start_numbers`` (the played evenings', in date
    order) are kept only for a named row."""

    rank: int | None
    player_id: int
    name: str
    club: str
    evenings: list[EveningCell]
    total: int
    played: int
    eligible: bool
    public: bool = True
    start_numbers: list[int] = field(default_factory=list)
    sort_name: tuple = ()
    anonymous_number: int | None = None

    @property
    def hidden_label(self) -> str:
        """What stands in the name's place for a player without consent: "Anonym 3" (the
        third such row of the list), in the active language; empty for a named row.

        Unique in the list (a bare "Startnummern 25" was shared by two people, issue 26)
        and free of start numbers: "Nr. 7 (Abend 2)" joined a result hidden at evening 1
        to the name printed beside no. 7 in evening 2's own standings (issue 37)."""
        from django.utils.translation import gettext as _

        if self.anonymous_number is None:
            return ""
        return _("Anonym %(n)s") % {"n": self.anonymous_number}


@dataclass
class SeriesStandings:
    """The series' ``evenings`` (by date), the ``rows`` (ranked first), ``required`` (the
    number of evenings a player needs for a place) and ``provisional`` (some evening is
    not finished yet)."""

    series: Series
    evenings: list[Evening]
    rows: list[SeriesRow]
    required: int
    provisional: bool


def _places(keys: dict[int, tuple]) -> dict[int, int]:
    """Places for ``{registration: (total, *tie-break values)}``: higher total first, then
    the tie-break values ascending (:func:`scoring.selectors.tie_values`); equal keys share
    a place."""
    places: dict[int, int] = {}
    place, previous = 0, None
    for ranked, (reg, key) in enumerate(
        sorted(keys.items(), key=lambda item: (-item[1][0], *item[1][1:])), start=1
    ):
        if previous is None or key != previous:
            place = ranked
        places[reg], previous = place, key
    return places


def _pair_places(keys: dict[int, tuple], pair_of: dict[int, int]) -> dict[int, int]:
    """Places of a pairs evening, as its pair standings give them
    (:func:`scoring.selectors.pair_standings`): pairs are placed among pairs (by the key of
    the first partner: both carry the team's score) and both partners get the pair's
    place; a registration without a pair gets none."""
    by_pair: dict[int, tuple] = {}
    for reg, key in sorted(keys.items()):
        if reg in pair_of:
            by_pair.setdefault(pair_of[reg], key)
    pair_places = _places(by_pair)
    return {reg: pair_places[pair_of[reg]] for reg in keys if pair_of.get(reg) in pair_places}


def series_standings(
    series: Series, public: bool = True, until: Tournament | None = None
) -> SeriesStandings:
    """The standings of ``series`` under its rule (:class:`tournament.models.Series`):
    each finished evening gives a player their point total (``counting="points"``) or the
    placement points for their place there (``"placement"``; places beyond the table
    give 0); with ``best_of`` only the best N evenings count (the others are struck out;
    of equal values the earlier evening counts); players with fewer than ``min_evenings``
    (empty: all finished evenings) are listed without a place.  Each evening places its
    players under its own ``tie_break`` setting, as its standings do; in the series,
    equal totals share a place (FIELD-NOTES: no tie-break).  ``public``: names only with
    consent at every evening played.  ``until``: the standings as they stood after that evening (later evenings
    count as not finished yet), for the newspaper report.  Four queries, whatever the
    number of evenings and players."""
    evenings = _series_evenings(series, until)
    finished = {e.tournament.pk: e for e in evenings if e.finished}
    per_round, lost = _round_points(list(finished))
    results = _evening_results(finished, per_round, lost)
    required = series.min_evenings or len(finished)
    rows = [
        _series_row(series, evenings, results, player, person, public, required)
        for player, person in results.people.items()
    ]
    _rank(rows)
    return SeriesStandings(
        series=series,
        evenings=evenings,
        rows=rows,
        required=required,
        provisional=len(finished) < len(evenings),
    )


def _series_evenings(series: Series, until: Tournament | None) -> list[Evening]:
    """The series' evenings in date order, numbered from 1, each finished when all its
    rounds are closed (and, with ``until``, it is not later than that evening)."""
    tournaments = list(
        series.tournaments.annotate(
            open_rounds=Count("round_set", filter=~Q(round_set__status=Round.Status.CLOSED)),
            closed_rounds=Count("round_set", filter=Q(round_set__status=Round.Status.CLOSED)),
        ).order_by("date", "pk")
    )
    return [
        Evening(
            t,
            n,
            t.open_rounds == 0
            and t.closed_rounds >= t.rounds
            and (until is None or (t.date, t.pk) <= (until.date, until.pk)),
        )
        for n, t in enumerate(tournaments, start=1)
    ]


def _round_points(
    tournament_ids: list[int],
) -> tuple[dict[int, dict[int, int]], dict[int, int]]:
    """``(per_round, lost)`` of the finished evenings: registration → round number →
    points (hands and paper round totals), and registration → games lost as declarer."""
    per_round: dict[int, dict[int, int]] = defaultdict(dict)
    lost: dict[int, int] = defaultdict(int)
    for row in (
        # grouped in the order of SeatScore's (tournament, registration, round) index
        SeatScore.objects.filter(tournament_id__in=tournament_ids)
        .values("tournament_id", "registration_id", "round_number")
        .annotate(
            points=Sum("points"),
            lost=Count("id", filter=Q(declarer=True, declarer_won=False)),
        )
        .order_by()
    ):
        per_round[row["registration_id"]][row["round_number"]] = row["points"]
        lost[row["registration_id"]] += row["lost"]
    for reg, number, points, games_lost in RoundTotal.objects.filter(
        round__tournament_id__in=tournament_ids
    ).values_list("registration_id", "round__number", "points", "games_lost"):
        per_round[reg][number] = points
        lost[reg] += games_lost
    return per_round, lost


@dataclass
class _EveningResults:
    """Each finished evening's totals and places, as its own standings count them, and
    the players over all evenings.  ``totals``: tournament → registration → points;
    ``places``: tournament → registration → place; ``people``: player → name, club,
    consent at every evening, sort key; ``entries``: player → tournament →
    (registration, start number)."""

    totals: dict[int, dict[int, int]]
    places: dict[int, dict[int, int]]
    people: dict[int, dict]
    entries: dict[int, dict[int, tuple[int, int]]]


def _evening_results(
    finished: dict[int, Evening], per_round: dict[int, dict[int, int]], lost: dict[int, int]
) -> _EveningResults:
    """Totals and places of each finished evening under its own ``missed_rounds`` and
    ``tie_break`` settings (a pairs evening places pairs)."""
    registrations = Registration.objects.filter(tournament_id__in=list(finished)).values_list(
        "pk",
        "tournament_id",
        "player_id",
        "start_number",
        "first_round",
        "withdrawn_after_round",
        "consent_public",
        "player__first_name",
        "player__last_name",
        "player__club",
        "pair",
    )
    totals: dict[int, dict[int, int]] = defaultdict(dict)  # tournament -> reg -> total
    placed: dict[int, dict[int, tuple]] = defaultdict(dict)  # tournament -> reg -> key
    people: dict[int, dict] = {}
    entries: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)  # player -> t -> reg
    pair_of: dict[int, int] = {}  # registration -> pair number (pairs events)
    for reg, t_id, player, number, first, last, consent, fn, ln, club, pair in registrations:
        if pair is not None:
            pair_of[reg] = pair
        tournament = finished[t_id].tournament
        rounds = per_round.get(reg, {})
        missed = any(
            n not in rounds and (n < first or (last is not None and n > last))
            for n in range(1, tournament.rounds + 1)
        )
        policy = tournament.missed_rounds
        if missed and policy == Tournament.MissedRounds.EXCLUDED:
            continue
        totals[t_id][reg] = sum(rounds.values())
        if not (missed and policy == Tournament.MissedRounds.UNPLACED):
            played = [rounds.get(n) for n in range(1, tournament.rounds + 1)]
            tie = tie_values(played, lost[reg], tournament.tie_break)
            placed[t_id][reg] = (totals[t_id][reg], *tie)
        person = people.setdefault(
            player, {"name": f"{fn} {ln}", "club": club, "consent": True, "sort": (ln, fn)}
        )
        person["consent"] = person["consent"] and consent
        entries[player][t_id] = (reg, number)
    places = {
        t_id: _pair_places(regs, pair_of)
        if finished[t_id].tournament.event_type == Tournament.EventType.PAIRS
        else _places(regs)
        for t_id, regs in placed.items()
    }
    return _EveningResults(totals, places, people, entries)


def _series_row(
    series: Series,
    evenings: list[Evening],
    results: _EveningResults,
    player: int,
    person: dict,
    public: bool,
    required: int,
) -> SeriesRow:
    """One player's row: a cell per evening (points, place, the value that counts), the
    best-of rule's struck-out evenings, the total; names only with consent at every
    evening played, when ``public``."""
    table = series.placement_table
    cells = []
    for evening in evenings:
        t_id = evening.tournament.pk
        if t_id not in results.entries[player]:
            cells.append(EveningCell())
            continue
        reg, number = results.entries[player][t_id]
        place = results.places.get(t_id, {}).get(reg)
        points = results.totals[t_id][reg]
        if series.counting == Series.Counting.PLACEMENT:
            value = table[place - 1] if place is not None and place <= len(table) else 0
        else:
            value = points
        cells.append(EveningCell(points, place, value, True, number))
    show = person["consent"] or not public
    if not show:
        for cell in cells:
            cell.start_number = None
    played = [c for c in cells if c.played]
    if series.best_of is not None and len(played) > series.best_of:
        # stable sort: of equal values the earlier evening counts
        for cell in sorted(played, key=lambda c: -c.value)[series.best_of :]:
            cell.counted = False
    return SeriesRow(
        rank=0,
        player_id=player,
        name=person["name"] if show else "",
        club=person["club"] if show else "",
        evenings=cells,
        total=sum(c.value for c in played if c.counted),
        played=len(played),
        eligible=len(played) >= required,
        public=show,
        start_numbers=[c.start_number for c in played] if show else [],
        sort_name=person["sort"],
    )


def _rank(rows: list[SeriesRow]) -> None:
    """Order ``rows`` (eligible first, by total, then name) and give places: equal totals
    share one (FIELD-NOTES: no tie-break in a series); players short of the required
    evenings get none.  Hidden players are numbered "Anonym 1, 2, …" in that order."""
    rows.sort(key=lambda r: (not r.eligible, -r.total, r.sort_name, r.player_id))
    for number, row in enumerate((r for r in rows if not r.public), start=1):
        row.anonymous_number = number
    place, previous = 0, None
    for ranked, row in enumerate(rows, start=1):
        if not row.eligible:
            row.rank = None
            continue
        if previous is None or row.total != previous:
            place = ranked
        row.rank, previous = place, row.total


def series_values(standings: SeriesStandings) -> list[list]:
    """The standings as rows of cells for :mod:`archive.exports` (a header row first):
    place, name, club, per evening the value (struck-out evenings in parentheses, as text),
    evenings played, total.  Players without consent: "Anonym N"
    (:attr:`SeriesRow.hidden_label`) instead of a name."""
    from django.utils.translation import gettext as _

    header = [_("Platz"), _("Name"), _("Verein")]
    header += [_("Abend %(n)s") % {"n": e.number} for e in standings.evenings]
    header += [_("Abende"), _("Gesamt")]
    out: list[list] = [header]
    for row in standings.rows:
        name = row.name or row.hidden_label
        cells = [
            (f"({c.value})" if c.struck else c.value) if c.played else None for c in row.evenings
        ]
        out.append([row.rank, name, row.club, *cells, row.played, row.total])
    return out
