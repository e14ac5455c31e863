"""What each printed document shows: plain data built with a fixed number of queries per
document, for the print templates.

- :func:`score_sheets` — the "Spielliste" of every table of a round, blank or filled;
- :func:`table_plan` — a round's seating by table and by player;
- :func:`table_cards` — the card on each table: its number, seats and private entry link;
- :func:`badge_rows` and :func:`running_slip_rows` — a player's name badge and running
  slip ("Laufzettel": the table in every round drawn so far);
- :func:`results_list` — the "Rangliste", overall or for one round (public names only, or
  every name in the director's prize-giving version);
- the rules handout is built by :mod:`printing.handout`.

Public documents (table plan, results list) and what is seen in the hall (table cards,
name badges, running slips) name only players who consented
(:func:`consents`); the others appear by start number (FIELD-NOTES; issue "Trustworthy
results", security).  Score sheets are the table's own record, signed by its players, and are
printed for the director only; they carry the names.

The package is split by document: :mod:`.score_sheet` (the score sheets and their
pages) with the words printed on them in :mod:`.sheet_words`, :mod:`.seating` (table
cards and table plan), :mod:`.results` (the results list), and :mod:`.common` (what
they share: isolating typed text, consent, a round's seats and live links); :mod:`.badges`
(name badges and running slips).
"""

from __future__ import annotations

from ..handout import SUITS_EN, TERMS
from .badges import Badge, Slip, SlipRound, badge_rows, in_pages, running_slip_rows
from .common import consents, isolate, ruleset_name
from .results import PrintedPair, provisional_note, results_list
from .score_sheet import GAMES_PER_PAGE, Sheet, SheetPage, SheetRow, score_sheets, sheet_pages
from .seating import CardSeat, PlanEntry, TableCard, table_cards, table_plan
from .sheet_words import (
    CLOCKWISE,
    SUIT_SIGNS,
    correction_marks,
    name_forms,
    play_direction,
    seating_text,
    trump_forms,
)

__all__ = [
    "Badge",
    "Slip",
    "SlipRound",
    "badge_rows",
    "in_pages",
    "running_slip_rows",
    "CLOCKWISE",
    "GAMES_PER_PAGE",
    "SUITS_EN",
    "SUIT_SIGNS",
    "TERMS",
    "CardSeat",
    "PlanEntry",
    "PrintedPair",
    "Sheet",
    "SheetPage",
    "SheetRow",
    "TableCard",
    "consents",
    "correction_marks",
    "isolate",
    "name_forms",
    "play_direction",
    "provisional_note",
    "results_list",
    "ruleset_name",
    "score_sheets",
    "seating_text",
    "sheet_pages",
    "table_cards",
    "table_plan",
    "trump_forms",
]
