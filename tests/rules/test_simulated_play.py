"""The simulator (demo evenings, rare-meld thresholds) plays by the ruleset's rules of
play: who leads the first trick (seed 000 partnership-250: the declarer; the others: the
first bidder, left of the dealer), that the winner of a trick leads the next under the
hand's trump, and that the record counts each seat's tricks.  Found by mutation testing
(issue 29): a simulator leading from the wrong seat or playing without trump still made
legal, scorable hands."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from rules import PRESETS
from rules.play import trick_winner
from rules.simulate import simulate_hand


def played_hands(ruleset, seats, count=12):
    for seed in range(count):
        dealer = seed % seats
        hand = simulate_hand(ruleset, seats, dealer, random.Random(seed))
        if hand.record.outcome == "played":
            yield dealer, hand


@pytest.mark.parametrize(
    ("preset_id", "seats"),
    [("club-tournament", 3), ("club-tournament", 4), ("dabb-app", 2), ("partnership-250", 4)],
)
def test_the_first_trick_is_led_as_the_ruleset_says(preset_id, seats):
    ruleset = PRESETS[preset_id]
    leads = []
    for dealer, hand in played_hands(ruleset, seats):
        first_bidder = (dealer + 1) % seats
        leader = hand.tricks[0][0]
        leads.append(leader)
        if preset_id == "partnership-250":
            assert leader == hand.record.declarer
        else:
            assert leader == first_bidder
    assert leads, "no hand was played out"


@pytest.mark.parametrize("preset_id", ["club-tournament", "swabian-traditional", "dabb-app"])
def test_each_trick_s_winner_under_the_trump_leads_the_next(preset_id):
    ruleset = PRESETS[preset_id]
    trumped = 0
    for _, hand in played_hands(ruleset, 3):
        seats = hand.record.seats
        won = [0] * seats
        for (leader, cards), (next_leader, _) in pairwise(hand.tricks):
            assert next_leader == (leader + trick_winner(list(cards), hand.trump)) % seats
            trumped += any(c[1] == hand.trump for c in cards[1:]) and cards[0][1] != hand.trump
        for leader, cards in hand.tricks:
            won[(leader + trick_winner(list(cards), hand.trump)) % seats] += 1
        assert list(hand.record.tricks_taken) == won
    assert trumped > 0, "no trick was won by a trump, so the trump was not tested"


def test_a_conceded_hand_has_no_tricks():
    ruleset = PRESETS["club-tournament"]
    conceded = [
        hand
        for seed in range(60)
        if (hand := simulate_hand(ruleset, 3, seed % 3, random.Random(seed))).record.outcome
        == "abgehen"
    ]
    assert conceded, "no hand was conceded in 60"
    assert all(hand.tricks == () and hand.record.tricks_taken is None for hand in conceded)
