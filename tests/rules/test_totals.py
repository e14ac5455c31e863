"""Round-total plausibility (paper-sheet entry mode): :mod:`rules.totals`."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.simulate import simulate_hand
from rules.totals import (
    check_round_total,
    hand_score_bounds,
    side_max_meld,
    validate_round_total,
)
from tests.rules.test_properties import valid_records

PRESET_IDS = list(rules.PRESETS)


def codes(errors):
    return [(e.field, e.code) for e in errors]


def test_club_bounds_follow_the_ruleset_parameters() -> None:
    ruleset = rules.PRESETS["club-tournament"]
    bounds = hand_score_bounds(ruleset, 3)
    # 12 cards hold at most 1380 meld points; 1380 + 250 is on a step (150, 160, …), and
    # the first bid above it is the highest sensible one
    assert side_max_meld(ruleset, 3) == 1380
    top_bid = 1380 + 250 + 10
    assert (top_bid - ruleset.min_bid) % ruleset.bid_step == 0
    # worst case: a lost game at the top bid costs twice the bid (seed 002)
    assert bounds.low == -2 * top_bid
    # best case: all melds and tricks, the lost-game bonus of 100, the best special game
    best_special = max(
        g.won for g in (ruleset.durch, ruleset.durch_aufgelegt, ruleset.durch_ohne_dabb) if g
    )
    assert bounds.high == 1380 + 250 + 100 + best_special


def test_a_parameter_change_moves_the_bounds() -> None:
    ruleset = rules.PRESETS["club-tournament"]
    harsher = ruleset.with_overrides({"lost": {"declarer": {"bid_factor": 3}}})
    assert hand_score_bounds(harsher, 3).low < hand_score_bounds(ruleset, 3).low


def test_tens_are_required_only_where_the_ruleset_rounds() -> None:
    club = rules.PRESETS["club-tournament"]
    app = rules.PRESETS["dabb-app"]
    assert club.rounding == "tens" and app.rounding == "none"
    assert codes(check_round_total(club, 3, 12, 1234)) == [("points", "multiple")]
    assert check_round_total(club, 3, 12, 1230) == []
    assert check_round_total(app, 3, 12, 1234) == []


def test_totals_beyond_what_the_games_can_give_are_rejected() -> None:
    ruleset = rules.PRESETS["club-tournament"]
    bounds = hand_score_bounds(ruleset, 3)
    assert check_round_total(ruleset, 3, 12, 12 * bounds.high) == []
    assert check_round_total(ruleset, 3, 12, 12 * bounds.low) == []
    (error,) = check_round_total(ruleset, 3, 12, 12 * bounds.high + 10)
    assert (error.field, error.code) == ("points", "range")
    assert error.params == {
        "value": 12 * bounds.high + 10,
        "low": 12 * bounds.low,
        "high": 12 * bounds.high,
    }
    # an extra digit on a normal evening is caught
    assert codes(check_round_total(ruleset, 3, 12, 1_234_560)) == [("points", "range")]
    # with fewer games the ceiling is lower
    assert check_round_total(ruleset, 3, 9, 12 * bounds.high) != []


def test_declarer_games_cannot_exceed_the_games_played() -> None:
    ruleset = rules.PRESETS["club-tournament"]
    assert check_round_total(ruleset, 3, 12, 900, won=8, lost=4) == []
    (error,) = check_round_total(ruleset, 3, 12, 900, won=9, lost=4)
    assert (error.field, error.code) == ("won", "games")
    assert codes(check_round_total(ruleset, 3, 12, 900, won=-1, lost=0)) == [("won", "negative")]


@pytest.mark.parametrize("junk", ["1200", 12.0, None, True, [1200]])
def test_non_integers_are_type_errors(junk) -> None:
    ruleset = rules.PRESETS["club-tournament"]
    assert codes(check_round_total(ruleset, 3, 12, junk, won=junk, lost=0)) == [
        ("points", "type"),
        ("won", "type"),
    ]
    with pytest.raises(rules.InvalidInput):
        validate_round_total(ruleset, 3, 12, junk)


def test_nonsensical_calls_raise_value_error() -> None:
    ruleset = rules.PRESETS["club-tournament"]
    with pytest.raises(ValueError):
        check_round_total(ruleset, 3, 0, 100)
    with pytest.raises(ValueError):
        check_round_total(ruleset, 5, 12, 100)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_simulated_rounds_are_always_plausible(preset_id: str) -> None:
    """Whole rounds dealt and played out by the engine pass the check, player by player."""
    ruleset = rules.PRESETS[preset_id]
    rng = random.Random(preset_id)
    for seats in ruleset.seat_counts:
        totals = [0] * seats
        declared = [[0, 0] for _ in range(seats)]
        for game in range(12):
            hand = simulate_hand(ruleset, seats, game % seats, rng)
            for seat, points in enumerate(hand.score.scores):
                totals[seat] += points
            declared[hand.record.declarer][0 if hand.score.declarer_won else 1] += 1
        for seat in range(seats):
            won, lost = declared[seat]
            assert check_round_total(ruleset, seats, 12, totals[seat], won, lost) == []


@pytest.mark.parametrize("preset_id", PRESET_IDS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_every_valid_hand_scores_within_the_bounds(preset_id: str, data: st.DataObject) -> None:
    ruleset = rules.PRESETS[preset_id]
    raw = data.draw(valid_records(ruleset), label="record")
    score = rules.score_request(ruleset, raw)
    bounds = hand_score_bounds(ruleset, raw["seats"])
    assert all(bounds.low <= s <= bounds.high for s in score.scores)
