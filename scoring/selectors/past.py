"""Tournaments by state for the home page and the archive, with their winners."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from tournament.models import Round, Tournament

from .standings import (
    standings,
)


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
