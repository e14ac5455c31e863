"""Which melds the engine names when two sets of melds give the same total.

The meld search (``rules.melds``) finds the best total first and then names the melds that
make it. When a larger meld and two smaller ones that use the same cards are worth the
same, the breakdown names the larger meld: the search tries the meld table's entries from
the most points down, and keeps the first one that still reaches the best total.
"""

from __future__ import annotations

import rules
from rules.melds import best_meld


def _fixed(meld_id: str, points: int, *cards: str) -> dict[str, object]:
    return {
        "id": meld_id,
        "label_de": meld_id,
        "label_en": meld_id,
        "klass": "tie",
        "points": points,
        "suit": "fixed",
        "cards": list(cards),
    }


# one class whose four entries share cards: "top" needs the king the hand below lacks, so
# the search must step past it; "pair" (40) and "ace" + "ten" (20 + 20) then tie
TIE_TABLE = [
    _fixed("top", 100, "AS", "KS"),
    _fixed("pair", 40, "AS", "TS"),
    _fixed("ace", 20, "AS"),
    _fixed("ten", 20, "TS"),
]


def test_a_tie_between_one_meld_and_two_names_the_larger_meld():
    club = rules.PRESETS["club-tournament"]
    ruleset = club.with_overrides({"melds": TIE_TABLE}, id="tie-melds")
    result = best_meld(ruleset, ["AS", "TS", "9H", "JC"], "H")
    assert result.total == 40
    assert [(m.name, m.points, m.cards) for m in result.melds] == [("pair", 40, ("AS", "TS"))]


def test_without_the_tie_the_smaller_melds_are_named():
    club = rules.PRESETS["club-tournament"]
    ruleset = club.with_overrides({"melds": TIE_TABLE[:1] + TIE_TABLE[2:]}, id="no-pair")
    result = best_meld(ruleset, ["AS", "TS", "9H", "JC"], "H")
    assert result.total == 40
    assert [(m.name, m.points) for m in result.melds] == [("ace", 20), ("ten", 20)]


def test_a_plain_meld_is_made_in_every_suit_but_trump():
    """A table with only the plain pair (King and Ober of a suit that is not trump): the
    pair in trump is worth nothing there, the pair in another suit 20."""
    club = rules.PRESETS["club-tournament"]
    plain_only = [m for m in club.to_dict()["melds"] if m["id"] == "pair"]
    ruleset = club.with_overrides({"melds": plain_only}, id="plain-pair-only")
    assert best_meld(ruleset, ["KH", "QH", "AS", "TC"], "H").total == 0
    assert best_meld(ruleset, ["KH", "QH", "AS", "TC"], "S").total == 20
