"""Keep the cached public standings and printed documents in step with what they show.

Two per-tournament version counters in Django's cache name what is cached:

- the standings version (:func:`scoring.services.standings_cache_key`): the standings
  pages and the printed results lists.  The hand and round-total services bump it
  themselves (:func:`scoring.services.invalidate_standings`);
- the setup version (:func:`setup_version`): the printed documents that show no points,
  the table plan, the rules handout and the poster (``printing.views``), so a saved hand
  does not make them stale.

The receivers here bump both for everything else that is saved elsewhere: registrations
(consent, name, club, missed rounds), players, rounds (status, seed, start and close),
tables (number, and a new draw's tables), seats (a swap on the round plan page creates
the moved seat anew), the tournament itself (name, venue, settings), categories (the
page links them) and, connected by the ``prizes`` app, prizes (the page links the prize
list), also when edited in the admin.  Seats are watched on save only: a seat is deleted with its table or round (a new
draw saves the round), in a swap (which creates the other seat) or in the admin (which
saves the table), so a receiver on every deleted seat would only slow a redraw.  The
bump runs after the commit, so a request that renders in between caches the old data
under the old version only.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

from tournament.models import Category, Player, Registration, Round, Seat, Table, Tournament

#: Sent once a round's close has committed, with ``round_number`` and ``tournament_id``
#: (sender: :class:`~tournament.models.Round`); the archive app makes its backup then.
round_closed = Signal()


def _setup_key(tournament_id: int) -> str:
    return f"setup-version:{tournament_id}"


def setup_version(tournament_id: int) -> int:
    """The tournament's setup version (an int), which changes whenever something a
    points-free printed document shows is saved (see the module docstring); a counter like
    the standings version (:func:`scoring.services.cache_version`)."""
    from .services import cache_version

    return cache_version(_setup_key(tournament_id))


def invalidate_setup(tournament_id: int) -> None:
    """Make every document cached under the tournament's setup version stale."""
    from .services import bump_version

    bump_version(_setup_key(tournament_id))


def _invalidate(tournament_id: int) -> None:
    from .services import invalidate_standings

    invalidate_standings(tournament_id)
    invalidate_setup(tournament_id)


def _bump(tournament_ids) -> None:
    for tournament_id in set(tournament_ids):
        transaction.on_commit(lambda t=tournament_id: _invalidate(t))


def _tournaments_of_round(instance: Table | Seat) -> list[int]:
    """The tournament of a table's or seat's round: from the round already loaded with
    ``instance`` (no query), else one query."""
    if type(instance).round.is_cached(instance):
        return [instance.round.tournament_id]
    return list(Round.objects.filter(pk=instance.round_id).values_list("tournament_id", flat=True))


def standings_source_changed(sender, instance, **kwargs) -> None:
    """``post_save``/``post_delete`` receiver: make the standings and the setup of the
    tournament(s) that ``instance`` belongs to stale (a player: every tournament the player
    is registered in)."""
    if isinstance(instance, Tournament):
        _bump([instance.pk])
    elif isinstance(instance, Player):
        _bump(instance.registrations.values_list("tournament_id", flat=True))
    elif isinstance(instance, (Table, Seat)):
        _bump(_tournaments_of_round(instance))
    else:  # a registration, round, category, or a row of an app above (a prize)
        _bump([instance.tournament_id])


#: Watched on save and on delete.
WATCHED = (Tournament, Player, Registration, Round, Table, Category)
#: Watched on save only (see the module docstring).
WATCHED_ON_SAVE = (Seat,)
