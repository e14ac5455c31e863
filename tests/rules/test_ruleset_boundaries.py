"""The edges of a ruleset's checks (``rules.ruleset_checks._check_consistency`` and
``check_limits``): the lowest value a check allows is accepted, the one below it refused
with its field and code. Found by mutation testing (issue 29): the tests refused values far
from every limit, so a check moved by one (``<=`` for ``<``) went unnoticed."""

from __future__ import annotations

import dataclasses

import pytest

from rules import PRESETS
from rules.errors import RulesetError
from rules.ruleset import PlayRules
from tests.factories.records import FOUR_DEAL, errors_of

CLUB = PRESETS["club-tournament"]


@pytest.mark.parametrize(
    "changes",
    [
        {"min_bid": 10},
        {"bid_step": 10, "max_raise": 10},  # a raise may be exactly one step
        {"last_trick_bonus": 0},
        {"durch": {"won": 0, "lost": 0}},
        {"bettel": {"won": 0, "lost": 0}},
        {"melds": [{**CLUB.to_dict()["melds"][0], "points": 1}, *CLUB.to_dict()["melds"][1:]]},
    ],
    ids=["min-bid-10", "raise-one-step", "no-last-trick", "durch-0", "bettel-0", "meld-1-point"],
)
def test_the_lowest_allowed_value_is_accepted(changes):
    assert errors_of(**changes) == []


def test_a_bid_of_nothing_is_refused():
    assert errors_of(min_bid=0) == [("min_bid", "tens", "must be a positive multiple of 10", {})]


def test_a_raise_below_one_step_is_refused():
    assert errors_of(bid_step=20, max_raise=10) == [
        ("max_raise", "max_raise", "must be at least the bid step", {})
    ]


def test_one_card_per_player_is_a_count_the_pack_does_not_add_up_to():
    """One card each is a positive count: the deal is refused for its sum, not its counts."""
    assert errors_of(deals=[{"seats": 3, "cards_per_player": 1, "dabb": 4}, FOUR_DEAL]) == [
        (
            "deals[0]",
            "deal_sum",
            "3×1 cards + Dabb 4 do not make the 40-card pack",
            {"seats": 3, "cards": 1, "dabb": 4, "deck": 40},
        )
    ]


def test_a_negative_lost_value_is_refused_for_each_special_game():
    assert errors_of(durch={"won": 0, "lost": -10}) == [
        ("durch", "negative", "won and lost are points, not negative", {})
    ]
    assert errors_of(bettel={"won": -10, "lost": 0}) == [
        ("bettel", "negative", "won and lost are points, not negative", {})
    ]


def test_a_text_inside_a_nested_part_is_limited_with_its_path():
    """A ruleset built in Python is checked as one read from JSON: a runaway text in a
    nested part (here the play rules) is named by its dotted path."""
    with pytest.raises(RulesetError) as raised:
        dataclasses.replace(CLUB, play=PlayRules(first_lead="x" * 201))
    assert [(e.field, e.code, e.params) for e in raised.value.errors] == [
        ("play.first_lead", "too_long", {"limit": 200, "length": 201})
    ]


def test_the_deal_of_each_table_size_and_a_size_not_played():
    assert (CLUB.deal_for(3).cards_per_player, CLUB.deal_for(3).dabb) == (12, 4)
    assert (CLUB.deal_for(4).cards_per_player, CLUB.deal_for(4).dabb) == (9, 4)
    with pytest.raises(KeyError) as raised:
        CLUB.deal_for(5)
    assert raised.value.args == (5,)
