"""Card order as the clerk and the handout show it, the meld list's labels, and the play
rules a club may switch off (seed 002 "Der normale Spielablauf": follow suit, head the
trick, trump when void).  Found by mutation testing (issue 29)."""

from __future__ import annotations

import pytest

from rules import PRESETS
from rules.cards import sort_cards
from rules.melds import best_meld
from rules.play import legal_cards, trick_winner

CLUB = PRESETS["club-tournament"]


def test_cards_show_trump_first_then_kreuz_schippe_herz_schellen_strongest_first():
    hand = ["KH", "AS", "TH", "QS", "JC", "AD"]
    assert sort_cards(hand, "H") == ["TH", "KH", "JC", "AS", "QS", "AD"]
    assert sort_cards(hand, "D") == ["AD", "JC", "AS", "QS", "TH", "KH"]
    assert sort_cards(hand) == ["JC", "AS", "QS", "TH", "KH", "AD"]
    assert sort_cards(hand, None) == sort_cards(hand, "X") == sort_cards(hand)


def test_found_melds_carry_their_german_label_and_cards_in_display_order():
    hand = ["KS", "QS", "KH", "QH", "AH", "TH", "JH", "QH", "KC", "KD", "QD", "JS"]
    result = best_meld(CLUB, hand, "H")
    # trump family 150 + four kings 80 + two pairs 20 (seed 002 meld table)
    assert result.total == 270
    assert [(m.name, m.points, m.cards, m.label) for m in result.melds] == [
        ("trump-family", 150, ("AH", "TH", "KH", "QH", "JH"), "Familie in Trumpf"),
        ("four-kings", 80, ("KH", "KC", "KS", "KD"), "Vier Könige"),
        ("pair", 20, ("KD", "QD"), "Paar"),
        ("pair", 20, ("KS", "QS"), "Paar"),
    ]


def test_where_a_club_drops_the_duty_to_trump_a_void_player_may_throw_any_card():
    no_duty = CLUB.with_overrides({"play": {"must_trump": False}})
    # void in Hearts, holding a plain Club and a trump Spade
    assert legal_cards(no_duty, "S", ["AH"], ["KC", "QS"]) == (["KC", "QS"], {})
    assert legal_cards(CLUB, "S", ["AH"], ["KC", "QS"]) == (["QS"], {"KC": "must-trump"})


def test_an_empty_trick_has_no_winner():
    with pytest.raises(ValueError, match="^an empty trick has no winner$"):
        trick_winner([], "H")
