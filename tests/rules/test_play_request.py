"""The revoke checker's entry point, :func:`rules.play.play_request`, called in-process
(tests/rules/test_cli.py reaches it only through a subprocess): raw input in, a verdict or
every problem with its field out.  Seed 002 "Der normale Spielablauf": follow suit, head
the trick, trump when void."""

from __future__ import annotations

import pytest

from rules import PRESETS, InvalidInput
from rules.play import PlayVerdict, play_request

CLUB = PRESETS["club-tournament"]  # three or four at a table: a trick holds at most 3 cards


def problems(trump, trick, hand, card):
    with pytest.raises(InvalidInput) as raised:
        play_request(CLUB, trump, trick, hand, card)
    return [(e.field, e.code, e.message) for e in raised.value.errors]


def params(trump, trick, hand, card):
    with pytest.raises(InvalidInput) as raised:
        play_request(CLUB, trump, trick, hand, card)
    return [e.params for e in raised.value.errors]


def test_trump_decides_whether_a_void_player_must_trump():
    # no Heart in hand, Spades trump: the Club is a revoke (Trumpfzwang) ...
    assert play_request(CLUB, "S", ["AH"], ["KC", "QS"], "KC") == PlayVerdict(
        legal=False, rule="must-trump", legal_cards=("QS",), winner=0
    )
    # ... and in a game without trump (null, as in a Durch) any card may go
    assert play_request(CLUB, None, ["AH"], ["KC", "QS"], "KC") == PlayVerdict(
        legal=True, rule=None, legal_cards=("KC", "QS"), winner=0
    )
    assert problems("X", ["AH"], ["KC"], "KC") == [
        ("trump", "trump", "trump must be one of C, S, H, D")
    ]


def test_a_trick_holds_at_most_one_card_less_than_the_largest_table():
    assert play_request(CLUB, "S", ["AH", "KH", "QH"], ["TH"], "TH").legal
    assert problems("S", ["AH", "KH", "QH", "JH"], ["TH"], "TH") == [
        ("trick", "too_many", "4 cards given; at most 3 allowed")
    ]
    assert params("S", ["AH", "KH", "QH", "JH"], ["TH"], "TH") == [{"length": 4, "limit": 3}]


def test_a_hand_holds_at_most_the_largest_deal():
    twelve = ["AH", "AH", "TH", "TH", "KH", "KH", "QH", "QH", "JH", "JH", "AC", "AC"]
    assert play_request(CLUB, "S", [], twelve, "AH").legal
    assert problems("S", [], [*twelve, "TC"], "AH") == [
        ("hand", "too_many", "13 cards given; at most 12 allowed")
    ]


def test_every_problem_of_a_question_is_named_at_its_field():
    assert problems("S", [], [], "TH") == [
        ("hand", "empty", "the hand is empty"),
        ("card", "not_in_hand", "TH is not in the hand"),
    ]
    assert problems("S", ["AH", "AH"], ["AH"], "AH") == [
        ("hand", "copies", "AH is in trick and hand 3 times; the pack has two")
    ]
    assert problems("S", ["AH"], ["TH", "KC"], "ZZ") == [
        ("card", "card", "'ZZ' has an unknown rank 'Z' (A T K Q J 9/7)")
    ]
    assert problems("S", "AH", ["TH"], "TH") == [("trick", "type", "must be a list of card codes")]
    assert problems("S", ["ZZ"], ["TH"], "TH") == [
        ("trick[0]", "card", "'ZZ' has an unknown rank 'Z' (A T K Q J 9/7)")
    ]
    assert problems("X", ["AH"], ["QQ"], "TH") == [
        ("trump", "trump", "trump must be one of C, S, H, D"),
        ("hand[0]", "card", "'QQ' has an unknown suit 'Q' (C S H D)"),
    ]


# --------------------------------------- the meld question's entry point, in-process too


def meld_problems(trump, cards):
    from rules.melds import meld_request

    with pytest.raises(InvalidInput) as raised:
        meld_request(CLUB, trump, cards)
    return [(e.field, e.code, e.message) for e in raised.value.errors]


def test_a_meld_question_needs_a_trump_and_at_most_a_hand_of_cards():
    from rules.melds import meld_request

    assert meld_request(CLUB, "H", ["KH", "QH"]).total == 40  # the trump pair (seed 002)
    trump = ("trump", "trump", "trump must be one of C, S, H, D")
    assert meld_problems(None, ["KH", "QH"]) == [trump]  # melding always has a trump
    assert meld_problems("X", "KH") == [trump, ("cards", "type", "must be a list of card codes")]
    twelve = ["AH", "AH", "TH", "TH", "KH", "KH", "QH", "QH", "JH", "JH", "AC", "AC"]
    assert meld_request(CLUB, "H", twelve).total > 0
    assert meld_problems("H", [*twelve, "TC"]) == [
        ("cards", "too_many", "13 cards given; at most 12 allowed")
    ]
    assert meld_problems("H", ["AH"] * 3) == [
        ("cards", "copies", "AH appears 3 times; the pack has two")
    ]
    assert meld_problems("H", ["KH", "Q"]) == [
        ("cards[1]", "card", "'Q' is not a card code (rank then suit, e.g. 'AH')")
    ]
