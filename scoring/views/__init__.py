"""The scoring app's pages, one module per audience:

- :mod:`.public`: standings, projector, join page, a player's page (anyone);
- :mod:`.entry`: the clerk's overview, table page, confirmations, rulings and the
  revoke checker (clerks and the director);
- :mod:`.director`: drawing, starting and closing a round (the director).

Views parse requests and render; the rules live in the engine, the workflow in
:mod:`scoring.services` and :mod:`tournament.services`, the queries in
:mod:`scoring.selectors`.  Other apps do not import views (an import-linter contract);
what they share with these pages is in :mod:`scoring.http` and :mod:`scoring.hand_entry`.
"""

from .director import round_action
from .entry import (
    clerk_overview,
    confirm_entry,
    play_check,
    ruling,
    table_page,
    validate_hand,
)
from .public import (
    home,
    join,
    player_view,
    projector,
    qr_code,
    standings,
    standings_fragment,
)

__all__ = [
    "clerk_overview",
    "confirm_entry",
    "home",
    "join",
    "play_check",
    "player_view",
    "projector",
    "qr_code",
    "round_action",
    "ruling",
    "standings",
    "standings_fragment",
    "table_page",
    "validate_hand",
]
