"""Director pages: create a tournament, register players, withdraw them (after asking) and
undo a withdrawal, adjust a round's seating (swap two players, first dealer and scorer per
table).

Split by page group; every view is re-exported here for ``tournament/urls.py``,
``config/urls.py`` (``handler400 = "tournament.views.bad_request"``) and the series pages:

- :mod:`.site`: the 400 page, the language switch, ``/favicon.ico``;
- :mod:`.staff`: the first director's account, the clerk accounts;
- :mod:`.tournaments`: creating a tournament;
- :mod:`.registration`: a tournament's registrations, correcting one, the players'
  register (type-ahead, search, merge);
- :mod:`.member_import`: importing a club's member list (XLSX or CSV) into the
  registrations;
- :mod:`.withdrawals`: withdrawing a player and undoing it;
- :mod:`.rounds`: a round's seating plan (swaps, first dealer and scorer);
"""

from __future__ import annotations

from .member_import import member_import
from .registration import (
    MAX_PAIR,
    MAX_START_NUMBER,
    player_search,
    players,
    registration_edit,
    registrations,
)
from .rounds import round_plan
from .site import bad_request, choose_language, favicon
from .staff import clerk_accounts, first_run
from .tournaments import tournament_create
from .withdrawals import reinstate, withdraw

__all__ = [
    "MAX_PAIR",
    "MAX_START_NUMBER",
    "bad_request",
    "choose_language",
    "clerk_accounts",
    "favicon",
    "first_run",
    "member_import",
    "player_search",
    "players",
    "registration_edit",
    "registrations",
    "reinstate",
    "round_plan",
    "tournament_create",
    "withdraw",
]
