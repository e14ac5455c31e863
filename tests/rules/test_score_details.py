"""Parts of a hand's score that the clerk's page and the score sheets show besides the
points: what the declaring side achieved, the trick points as credited after rounding,
and the rules a club may switch on (seed 002 "Der normale Spielablauf", seed 001
"Zählen").  Each expectation is worked out by hand in its comment.  Found by mutation
testing (issue 29)."""

from __future__ import annotations

from rules import PRESETS, parse_record, score_hand

CLUB = PRESETS["club-tournament"]  # tens, fives up; lost: -2×bid, opponents +100
SWABIAN = PRESETS["swabian-traditional"]  # Abgehen: opponents +10 per player


def score(ruleset, **record):
    return score_hand(ruleset, parse_record(ruleset, record))


def test_the_score_says_what_was_achieved_and_how_tricks_were_credited():
    hand = score(
        CLUB, seats=3, declarer=1, bid=300, outcome="played",
        melds=[20, 140, 60], tricks=[30, 175, 45],
    )  # fmt: skip
    # the bid is checked against the exact sum 140 + 175; credited are 175 → 180, 45 → 50
    assert (hand.achieved, hand.counted_tricks) == (315, (30, 180, 50))
    assert (hand.scores, hand.declarer_won) == ((50, 320, 110), True)


def test_balanced_rounding_rounds_the_declaring_side_s_five_up_first():
    balanced = CLUB.with_overrides({"rounding_fives": "balanced"})
    hand = score(
        balanced, seats=3, declarer=1, bid=200, outcome="played",
        melds=[20, 140, 60], tricks=[165, 35, 50],
    )  # fmt: skip
    # two fives: the declarer's 35 goes up to 40, so the higher 165 goes down to 160
    assert hand.counted_tricks == (160, 40, 50)
    # 140 + 35 = 175 < 200: lost, -400; the others melds + credited tricks + 100
    assert hand.scores == (280, -400, 210)


def test_abgehen_pays_the_opponents_per_player_where_the_ruleset_says_so():
    three = score(SWABIAN, seats=3, declarer=0, bid=300, outcome="abgehen", melds=[100, 60, 20])
    assert three.scores == (-300, 60 + 30, 20 + 30)
    four = score(SWABIAN, seats=4, declarer=0, bid=300, outcome="abgehen", melds=[100, 60, 20, 0])
    # partners opposite: seats 1 and 3 meld 60 together and get 10 × 4 players
    assert four.scores == (-300, 100, -300, 100)
    assert (three.achieved, three.counted_tricks) == (None, None)


def test_a_declarer_who_keeps_his_melds_loses_only_the_penalty_on_top():
    keeps = CLUB.with_overrides({"lost": {"declarer_keeps_melds": True}})
    hand = score(
        keeps, seats=3, declarer=1, bid=400, outcome="played",
        melds=[20, 140, 60], tricks=[30, 175, 45],
    )  # fmt: skip
    assert hand.scores == (20 + 30 + 100, 140 - 800, 60 + 50 + 100)


def test_a_side_without_trick_points_scores_nothing_not_even_the_bonus():
    strict = CLUB.with_overrides({"scoreless_without_trick_points": True})
    hand = score(
        strict, seats=3, declarer=1, bid=400, outcome="played",
        melds=[20, 140, 60], tricks=[0, 205, 45],
    )  # fmt: skip
    assert hand.scores == (0, -800, 60 + 50 + 100)


def test_a_revoke_by_an_opponent_counts_as_the_declarer_s_game_made():
    hand = score(
        CLUB, seats=3, declarer=1, bid=300, outcome="played",
        melds=[20, 140, 60], tricks=[30, 175, 45], penalty={"type": "verwerfen", "seat": 2},
    )  # fmt: skip
    assert hand.declarer_won is True
    assert hand.scores == (50, 320, -600)


def test_a_lost_game_s_bonus_per_player_counts_the_players_at_the_table():
    per_player = CLUB.with_overrides(
        {"lost": {"opponents_bonus": {"kind": "per-player", "amount": 10}}}
    )
    hand = score(
        per_player, seats=3, declarer=1, bid=400, outcome="played",
        melds=[20, 140, 60], tricks=[30, 175, 45],
    )  # fmt: skip
    # 140 + 175 < 400: lost, -800; each opponent melds + credited tricks + 10 × 3
    assert hand.scores == (20 + 30 + 30, -800, 60 + 50 + 30)
