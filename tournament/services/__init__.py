"""Tournament set-up services: create a tournament with a frozen ruleset, register players,
draw the seating of a round, swap players, start and close rounds.

Split by job; every public name is re-exported here, so ``from tournament import services``
and ``services.draw_round(...)`` work as before:

- :mod:`.tournaments`: create a tournament (:func:`create_tournament`), who may enter its
  results (:func:`may_enter`);
- :mod:`.seating`: the pure seating search of the draw (:func:`plan_draw`,
  :func:`plan_pairs_draw`, :func:`table_sizes`, the weights), on plain data;
- :mod:`.rounds`: draw a round and save it (:func:`draw_round`), swap players, table roles,
  start a round, lock a round;
- :mod:`.registration`: register one player or a pasted list, correct a registration,
  consent, categories, search and merge players;
- :mod:`.member_import`: a club's member list (XLSX or CSV) read, previewed row by row
  and imported into a tournament's registrations;
- :mod:`.withdrawals`: withdraw a player and undo it, and which draws either clears;
- :mod:`.pairs`: form and split the fixed pairs of a pairs event, read them for the draw.

A test that replaces a function (``monkeypatch.setattr``) must patch it in the submodule
that uses it (e.g. ``tournament.services.rounds``), not here: a re-export is a second
name for it, not the one the code calls.
"""

from __future__ import annotations

from .member_import import (
    ImportResult,
    Preview,
    PreviewRow,
    Sheet,
    guess_header,
    guess_mapping,
    import_members,
    preview_members,
    read_member_file,
)
from .pairs import form_pair, pairs_of, split_pair
from .registration import (
    MAX_CATEGORIES,
    SEARCH_LIMIT,
    ListEntry,
    add_category,
    find_player,
    merge_players,
    parse_player_list,
    register,
    register_many,
    register_player,
    search_players,
    set_categories,
    set_consents,
    update_registration,
    withdrawn_message,
)
from .rounds import (
    absent_from_draw,
    draw_round,
    first_open_round_before,
    lock_round,
    meetings_before,
    present_not_drawn,
    set_table_roles,
    start_round,
    swap_players,
)
from .seating import (
    FOUR_WEIGHT,
    PARTNER_WEIGHT,
    DrawPlan,
    fours_only,
    plan_draw,
    plan_pairs_draw,
    table_sizes,
)
from .tournaments import create_tournament, may_enter
from .withdrawals import (
    draws_cleared_by_reinstating,
    draws_cleared_by_withdrawal,
    reinstate,
    withdraw,
    withdrawal_round,
    withdrawal_text,
)

__all__ = [
    "absent_from_draw",
    "present_not_drawn",
    "FOUR_WEIGHT",
    "MAX_CATEGORIES",
    "PARTNER_WEIGHT",
    "SEARCH_LIMIT",
    "DrawPlan",
    "ImportResult",
    "ListEntry",
    "Preview",
    "PreviewRow",
    "Sheet",
    "add_category",
    "create_tournament",
    "draw_round",
    "draws_cleared_by_reinstating",
    "draws_cleared_by_withdrawal",
    "find_player",
    "first_open_round_before",
    "form_pair",
    "fours_only",
    "guess_header",
    "guess_mapping",
    "import_members",
    "lock_round",
    "may_enter",
    "meetings_before",
    "merge_players",
    "pairs_of",
    "parse_player_list",
    "plan_draw",
    "plan_pairs_draw",
    "preview_members",
    "read_member_file",
    "register",
    "register_many",
    "register_player",
    "reinstate",
    "search_players",
    "set_categories",
    "set_consents",
    "set_table_roles",
    "split_pair",
    "start_round",
    "swap_players",
    "table_sizes",
    "update_registration",
    "withdraw",
    "withdrawal_round",
    "withdrawal_text",
    "withdrawn_message",
]
