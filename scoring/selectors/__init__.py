"""Read-side queries, one module per subject; every public name is importable from here
(``from scoring import selectors``; ``selectors.standings(...)``):

- :mod:`.standings`: standings per round and overall, places, tie-breaks, categories;
- :mod:`.progress`: table progress, the clerk's overview, round status, a player's summary;
- :mod:`.hands`: a table's hands with running totals and their history;
- :mod:`.pairs`: the standings of fixed pairs;
- :mod:`.past`: tournaments by state and their winners.
"""

from .hands import (
    HandVersion,
    hand_history,
    running_totals,
    shown_value,
    table_hands,
)
from .pairs import (
    PairRow,
    pair_standings,
)
from .past import (
    PastTournament,
    tournaments_by_state,
    winners,
)
from .progress import (
    SILENT_AFTER,
    TableProgress,
    evening_finished,
    last_entry_at,
    overview_rounds,
    player_summary,
    round_progress,
    round_status,
)
from .standings import (
    StandingRow,
    assign_places,
    category_rows,
    category_standings,
    lost_game_fees,
    missed_note,
    standings,
    tie_break_note,
    tie_key,
    tie_values,
)

__all__ = [
    "HandVersion",
    "PairRow",
    "PastTournament",
    "SILENT_AFTER",
    "StandingRow",
    "TableProgress",
    "assign_places",
    "category_rows",
    "category_standings",
    "evening_finished",
    "hand_history",
    "last_entry_at",
    "missed_note",
    "overview_rounds",
    "pair_standings",
    "player_summary",
    "round_progress",
    "round_status",
    "running_totals",
    "shown_value",
    "standings",
    "lost_game_fees",
    "table_hands",
    "tie_break_note",
    "tie_key",
    "tie_values",
    "tournaments_by_state",
    "winners",
]
