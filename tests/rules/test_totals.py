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
from tests.factories.records import valid_records

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


# ------------------------------------------------- exact words, params and edges (mutants)
# The web app turns ``code`` + ``params`` into its German message (tournament.
# engine_messages), and the command line prints ``message``: both are part of the contract.


def test_every_error_says_exactly_what_and_carries_its_numbers() -> None:
    ruleset = rules.PRESETS["club-tournament"]
    bounds = hand_score_bounds(ruleset, 3)
    (typed,) = check_round_total(ruleset, 3, 12, "x")
    assert typed.message == "points must be a whole number"
    (multiple,) = check_round_total(ruleset, 3, 12, 1234)
    assert multiple.message == "1234 is not a multiple of 10 (the ruleset rounds to tens)"
    assert multiple.params == {"value": 1234}
    too_high = 12 * bounds.high + 10
    (outside,) = check_round_total(ruleset, 3, 12, too_high)
    assert outside.message == (
        f"{too_high} is outside what 12 hands can give ({12 * bounds.low} … {12 * bounds.high})"
    )
    won_typed, lost_negative = check_round_total(ruleset, 3, 12, 900, won="7", lost=-2)
    assert (won_typed.field, won_typed.code, won_typed.message) == (
        "won", "type", "won must be a whole number",
    )  # fmt: skip
    assert (lost_negative.field, lost_negative.code, lost_negative.message) == (
        "lost", "negative", "lost must not be negative",
    )  # fmt: skip
    (games,) = check_round_total(ruleset, 3, 12, 900, won=9, lost=4)
    assert games.message == "9 won + 4 lost is more than 12 games"
    assert games.params == {"won": 9, "lost": 4, "games": 12}


def test_one_game_is_a_round_and_the_declarer_counts_default_to_none() -> None:
    ruleset = rules.PRESETS["club-tournament"]
    bounds = hand_score_bounds(ruleset, 3)
    # one hand: its own bounds, no more
    assert check_round_total(ruleset, 3, 1, bounds.high) == []
    assert codes(check_round_total(ruleset, 3, 1, bounds.high + 10)) == [("points", "range")]
    # won and lost default to 0: one of them alone fills the single game
    assert check_round_total(ruleset, 3, 1, 0, won=1) == []
    assert check_round_total(ruleset, 3, 1, 0, lost=1) == []
    validate_round_total(ruleset, 3, 1, 0, won=1)
    validate_round_total(ruleset, 3, 1, 0, lost=1)
    with pytest.raises(ValueError, match="^games must be at least 1$"):
        check_round_total(ruleset, 3, 0, 0)
    with pytest.raises(ValueError, match="^the ruleset has no table of 5$"):
        check_round_total(ruleset, 5, 12, 0)


def test_validate_passes_every_value_on() -> None:
    ruleset = rules.PRESETS["club-tournament"]
    validate_round_total(ruleset, 3, 12, 900, won=8, lost=4)
    for kwargs, field in (
        ({"points": 905}, "points"),
        ({"points": 900, "won": -1}, "won"),
        ({"points": 900, "lost": -1}, "lost"),
        ({"points": 900, "won": 12, "lost": 1}, "won"),
    ):
        with pytest.raises(rules.InvalidInput) as raised:
            validate_round_total(ruleset, 3, 12, **kwargs)
        assert [e.field for e in raised.value.errors] == [field], kwargs


def test_partners_pool_two_hands_of_melds() -> None:
    """At a table of four in teams a side enters the melds of two hands (seed 002: the
    partners' melds count together); three players each score alone."""
    from rules.meldrange import meld_range, seat_hand_size

    ruleset = rules.PRESETS["club-tournament"]
    per_hand = {n: meld_range(ruleset, seat_hand_size(ruleset, n)).max for n in (3, 4)}
    assert side_max_meld(ruleset, 3) == per_hand[3] == 1380
    assert side_max_meld(ruleset, 4) == 2 * per_hand[4]
