"""Hand entry and round results: the layer between the views and the rules engine.

One module per job; every public name is importable from here, so callers write
``from scoring import services`` and ``services.save_hand(...)``:

- :mod:`.seating`: seats by position, dealer, first bidder, partnerships;
- :mod:`.evaluation`: a typed hand checked and scored by the engine (:func:`evaluate`);
- :mod:`.access`: who may write here now, for the clerk and the table link alike;
- :mod:`.hands`: storing a hand and its corrections (:func:`save_hand`);
- :mod:`.totals`: round totals from paper score sheets;
- :mod:`.confirmation`: confirming hands and totals;
- :mod:`.rulings`: the director's rulings;
- :mod:`.closing`: what is missing, and closing a round.

The exceptions are in :mod:`scoring.errors`, the standings cache in :mod:`scoring.cache`;
both are named here too, for the callers that always did.
"""

from ..cache import bump_version, cache_version, invalidate_standings, standings_cache_key
from ..errors import (
    ConfirmationRefused,
    EntryRefused,
    RulingStands,
    StaleEntry,
    StaleTotals,
    WriteRefused,
)
from .access import (
    TableSource,
    check_link_live,
    check_writable,
    correction_reason_message,
    link_refusal,
    may_confirm,
    may_write,
)
from .closing import (
    MissingEntries,
    RoundIncomplete,
    close_round,
    forced_close_notes,
    missing_entries,
    unconfirmed_entries,
)
from .confirmation import (
    confirm_hand,
    confirm_hand_at_table,
    confirm_table_totals,
)
from .evaluation import (
    Evaluation,
    HandInput,
    PlayCheck,
    declaring_side,
    evaluate,
    hand_input_from,
    judge_play,
)
from .hands import (
    game_number_error,
    is_unique_clash,
    save_hand,
)
from .rulings import (
    record_ruling,
)
from .seating import (
    active_positions,
    dealer_for,
    first_bidder_for,
    first_bidder_side,
    next_deal,
    next_game_number,
    partner_teams,
    seating_short,
    seating_text,
    table_seats,
)
from .totals import (
    TotalInput,
    check_totals,
    save_round_totals,
    table_totals,
)

__all__ = [
    "ConfirmationRefused",
    "EntryRefused",
    "Evaluation",
    "HandInput",
    "MissingEntries",
    "PlayCheck",
    "RoundIncomplete",
    "RulingStands",
    "StaleEntry",
    "StaleTotals",
    "TableSource",
    "TotalInput",
    "WriteRefused",
    "active_positions",
    "bump_version",
    "cache_version",
    "check_link_live",
    "check_totals",
    "check_writable",
    "close_round",
    "confirm_hand",
    "confirm_hand_at_table",
    "confirm_table_totals",
    "correction_reason_message",
    "dealer_for",
    "declaring_side",
    "evaluate",
    "first_bidder_for",
    "first_bidder_side",
    "forced_close_notes",
    "game_number_error",
    "hand_input_from",
    "invalidate_standings",
    "is_unique_clash",
    "judge_play",
    "link_refusal",
    "may_confirm",
    "may_write",
    "missing_entries",
    "next_deal",
    "next_game_number",
    "partner_teams",
    "record_ruling",
    "save_hand",
    "save_round_totals",
    "seating_short",
    "seating_text",
    "standings_cache_key",
    "table_seats",
    "table_totals",
    "unconfirmed_entries",
]

#: The name ``archive.transfer`` still uses; it goes once the import calls the public one.
_game_number_error = game_number_error
