"""Keep the cached public standings in step with what they show.

The hand and round-total services bump the standings version themselves
(:func:`scoring.services.invalidate_standings`).  The receivers here cover everything else a
public standings page shows and that is saved elsewhere: registrations (consent, name,
club, missed rounds), players, rounds (status, start and close), the tournament itself
(name, venue, settings), categories (the page links them) and prizes (the page links
the prize list), also when edited in the admin.  The bump runs after the commit, so
a request that renders in between caches the old data under the old version only.
"""

from __future__ import annotations

from django.db import transaction

from tournament.models import Category, Player, Registration, Round, Tournament

from .models import Prize


def _bump(tournament_ids) -> None:
    from .services import invalidate_standings

    for tournament_id in set(tournament_ids):
        transaction.on_commit(lambda t=tournament_id: invalidate_standings(t))


def standings_source_changed(sender, instance, **kwargs) -> None:
    """``post_save``/``post_delete`` receiver: make the standings of the tournament(s) that
    ``instance`` belongs to stale (a player: every tournament the player is registered in)."""
    if isinstance(instance, Tournament):
        _bump([instance.pk])
    elif isinstance(instance, Player):
        _bump(instance.registrations.values_list("tournament_id", flat=True))
    elif isinstance(instance, (Registration, Round, Category, Prize)):
        _bump([instance.tournament_id])


WATCHED = (Tournament, Player, Registration, Round, Category, Prize)
