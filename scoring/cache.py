"""The standings cache and its invalidation, in one place.

Two per-tournament version counters in Django's cache name what is cached, so that the
public standings and the printed documents stay in step with what they show:

- the standings version (:func:`standings_cache_key`): the standings pages and the
  printed results lists.  The hand and round-total services bump it themselves
  (:func:`invalidate_standings`);
- the setup version (:func:`setup_version`): the printed documents that show no points,
  the table plan, the rules handout and the poster (``printing.views``), so a saved hand
  does not make them stale.

The receivers here (connected in ``scoring.apps``; prizes by the ``prizes`` app) bump both
for everything else that is saved elsewhere: registrations (consent, name, club, missed
rounds), players, rounds (status, seed, start and close), tables (number, and a new draw's
tables), seats (a swap on the round plan page creates the moved seat anew), the
tournament itself (name, venue, settings), categories (the page links them) and prizes
(the page links the prize list), also when edited in the admin.  Seats are watched on
save only: a seat is deleted with its table or round (a new draw saves the round), in a
swap (which creates the other seat) or in the admin (which saves the table), so a
receiver on every deleted seat would only slow a redraw.  The bump runs after the commit,
so a request that renders in between caches the old data under the old version only.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.db import transaction

from tournament.models import Category, Player, Registration, Round, Seat, Table, Tournament


def cache_version(key: str) -> int:
    """The version counter under cache ``key`` (an int), naming what is cached for it.

    The counter lives for the cache's default timeout (5 minutes); when it has expired or
    been evicted it starts again from the clock in nanoseconds, never from 1, so it cannot
    repeat a number that a page or a PDF still in the cache was stored under."""
    return cache.get_or_set(key, time.time_ns)


def bump_version(key: str) -> None:
    """Make everything cached under the counter ``key`` stale (:func:`cache_version`)."""
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, time.time_ns())


def standings_cache_key(tournament_id: int) -> str:
    """Cache key prefix of a tournament's public standings; bumped on every save."""
    return f"standings:{tournament_id}:{cache_version(f'standings-version:{tournament_id}')}"


def invalidate_standings(tournament_id: int) -> None:
    """Make every cached standings fragment of the tournament stale."""
    bump_version(f"standings-version:{tournament_id}")


def _setup_key(tournament_id: int) -> str:
    return f"setup-version:{tournament_id}"


def setup_version(tournament_id: int) -> int:
    """The tournament's setup version (an int), which changes whenever something a
    points-free printed document shows is saved (see the module docstring); a counter like
    the standings version (:func:`scoring.services.cache_version`)."""
    return cache_version(_setup_key(tournament_id))


def invalidate_setup(tournament_id: int) -> None:
    """Make every document cached under the tournament's setup version stale."""
    bump_version(_setup_key(tournament_id))


def _invalidate(tournament_id: int) -> None:
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


def category_changed(sender, instance, action, **kwargs) -> None:
    """``m2m_changed`` receiver of a category's registrations: a player put into or taken
    out of a category changes that category's cached standings.  ``instance`` is the
    category, or the registration when changed from its side.  Bumped at once and again
    after the commit, so a render in between cannot keep the old members under the new
    version."""
    if action in ("post_add", "post_remove", "post_clear"):
        tournament_id = instance.tournament_id
        invalidate_standings(tournament_id)
        transaction.on_commit(lambda: invalidate_standings(tournament_id))
