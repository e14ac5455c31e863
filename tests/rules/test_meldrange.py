"""Attainable meld totals (:mod:`rules.meldrange`) and their use in hand validation.

The oracle is the engine's own meld counter, :func:`rules.best_meld`, over every trump:
every random hand's total must be in the computed set; for hands of a few cards, and for
hands of all but two cards of the pack (their complements are few), every hand is counted
and the set must be exactly the computed one.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.cards import SUITS, make_deck
from rules.meldrange import meld_fingerprint, meld_range, seat_hand_size
from rules.meldrare import meld_warnings, rare_threshold, simulate_threshold
from rules.meldrare_table import RARE_THRESHOLDS
from rules.scoring import impossible_melds

PRESET_IDS = list(rules.PRESETS)
SIZES = [
    (preset_id, deal.cards_per_player)
    for preset_id, ruleset in rules.PRESETS.items()
    for deal in ruleset.deals
]


def _all_trumps(ruleset: rules.Ruleset, hand: list[str]) -> set[int]:
    return {rules.best_meld(ruleset, hand, trump).total for trump in SUITS}


@pytest.mark.parametrize(("preset_id", "size"), SIZES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_random_hands_meld_is_attainable(preset_id: str, size: int, data) -> None:
    ruleset = rules.PRESETS[preset_id]
    pack = data.draw(st.permutations(make_deck(ruleset.deck_size)), label="pack")
    attainable = meld_range(ruleset, size)
    for total in _all_trumps(ruleset, list(pack[:size])):
        assert total in attainable.totals
        assert total <= attainable.max


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_small_hands_give_exactly_the_computed_totals(preset_id: str) -> None:
    ruleset = rules.PRESETS[preset_id]
    kinds = sorted(set(make_deck(ruleset.deck_size)))
    for size in range(4):
        found: set[int] = set()
        for combo in itertools.combinations_with_replacement(kinds, size):
            if max(Counter(combo).values(), default=0) <= 2:
                found |= _all_trumps(ruleset, list(combo))
        assert sorted(found) == list(meld_range(ruleset, size).totals), size


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_hands_of_all_but_two_cards_give_exactly_the_computed_totals(preset_id: str) -> None:
    """Eight of a kind, double families and double Binokel all show up here."""
    ruleset = rules.PRESETS[preset_id]
    pack = make_deck(ruleset.deck_size)
    found: set[int] = set()
    for left_out in itertools.combinations_with_replacement(sorted(set(pack)), 2):
        hand = list((Counter(pack) - Counter(left_out)).elements())
        if len(hand) == len(pack) - 2:
            found |= _all_trumps(ruleset, hand)
    attainable = meld_range(ruleset, len(pack) - 2)
    assert sorted(found) == list(attainable.totals)


def test_club_tournament_twelve_cards() -> None:
    club = rules.PRESETS["club-tournament"]
    attainable = meld_range(club, 12)
    assert attainable.max == 1380  # eight Aces, four Kings, Ober and Unter, Binokel, a pair
    assert 0 in attainable.totals and 10 not in attainable.totals  # no meld is worth 10
    assert attainable.totals == tuple(sorted(attainable.totals))
    assert seat_hand_size(club, 3) == 12 and seat_hand_size(club, 4) == 9


@pytest.mark.parametrize(("preset_id", "size"), SIZES)
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_score_accepts_exactly_the_attainable_melds(preset_id: str, size: int, data) -> None:
    ruleset = rules.PRESETS[preset_id]
    seats = next(d.seats for d in ruleset.deals if d.cards_per_player == size)
    attainable = meld_range(ruleset, size)
    value = data.draw(st.integers(0, attainable.max // 10 + 50).map(lambda n: n * 10))
    seat = data.draw(st.integers(0, seats - 1))
    melds = [0] * seats
    melds[seat] = value
    record = {"seats": seats, "declarer": 0, "bid": 10_000, "outcome": "abgehen"}
    record["melds"] = melds
    errors = [e for e in rules.validate_record(ruleset, record) if e.field.startswith("melds")]
    if value in attainable.totals:
        assert errors == []
    else:
        (error,) = errors
        assert (error.field, error.code) == (f"melds[{seat}]", "meld_impossible")
        below = max((t for t in attainable.totals if t < value), default=None)
        above = min((t for t in attainable.totals if t > value), default=None)
        assert error.params == {
            "value": value,
            "cards": size,
            "min": attainable.totals[0],
            "max": attainable.max,
            "below": below,
            "above": above,
        }


def test_3000_with_twelve_cards_names_the_highest_possible_value() -> None:
    club = rules.PRESETS["club-tournament"]
    hand = {"seats": 3, "declarer": 0, "bid": 300, "outcome": "played"}
    hand |= {"melds": [140, 3000, 1390], "tricks": [175, 45, 30]}
    with pytest.raises(rules.InvalidInput) as info:
        rules.score_request(club, hand)
    assert [(e.field, e.params.get("max")) for e in info.value.errors] == [
        ("melds[1]", 1380),
        ("melds[2]", 1380),
    ]
    assert info.value.errors[0].message == (
        "meld 3000 is not possible with 12 cards; the highest possible total is 1380"
    )


def test_a_total_in_a_gap_below_the_maximum_names_the_nearest_possible_totals() -> None:
    """Evening finding: "Meldung 900 … nicht möglich (höchstens 1380)" read as a
    contradiction.  The message names the possible totals on either side of 900 instead;
    they are taken from the engine's own range, not typed in."""
    club = rules.PRESETS["club-tournament"]
    twelve = meld_range(club, 12)
    assert 900 not in twelve and 900 < twelve.max
    below = max(t for t in twelve.totals if t < 900)
    above = min(t for t in twelve.totals if t > 900)
    assert (below, above) == twelve.nearest(900) == (590, 1000)
    assert 590 in twelve and 1000 in twelve
    assert not any(t in twelve for t in range(600, 1000, 10))
    hand = {"seats": 3, "declarer": 0, "bid": 300, "outcome": "played"}
    hand |= {"melds": [140, 900, 20], "tricks": [175, 45, 30]}
    (error,) = rules.validate_record(club, hand)
    assert (error.field, error.code) == ("melds[1]", "meld_impossible")
    assert error.message == (
        f"meld 900 is not possible with 12 cards; the nearest possible totals are {below} "
        f"and {above}"
    )
    assert (error.params["below"], error.params["above"]) == (below, above)
    assert "at most" not in error.message


def test_nearest_totals_at_both_ends_of_the_range() -> None:
    club = rules.PRESETS["club-tournament"]
    twelve = meld_range(club, 12)
    assert twelve.nearest(twelve.max + 10) == (twelve.max, None)
    assert twelve.nearest(20) == (0, 40)  # an attainable value: its neighbours
    whole_pack = meld_range(club, 40)  # one total only: the best meld of the pack
    assert whole_pack.nearest(0) == (None, whole_pack.min) and whole_pack.min > 0
    # a meld table where every card melds: no hand is meld-less, so 0 is under the lowest
    every_card = [
        {"id": r, "label_de": r, "label_en": r, "klass": "card", "points": 10, "suit": "any"}
        | {"ranks": r}
        for r in "ATKQJ"
    ]
    odd = club.with_overrides({"melds": every_card}, id="every-card-melds")
    lowest = meld_range(odd, 12).min
    assert lowest > 0
    (error,) = impossible_melds(odd, 3, [0])
    assert error.field == "melds[0]"
    assert error.params["below"] is None and error.params["above"] == lowest
    assert error.message == (
        f"meld 0 is not possible with 12 cards; the lowest possible total is {lowest}"
    )


# The thresholds scripts/meld_thresholds.py found (10,000 simulated hands per preset and
# table size, seed 0), written out by preset and table size: the table is looked up by meld
# fingerprint, so a value moved to another preset or table size, or typed over, shows here.
# After regenerating the table on purpose, review the new values and copy them here.
EXPECTED_RARE_THRESHOLDS = {
    "club-tournament": {3: 510, 4: 360},
    "swabian-traditional": {3: 570, 4: 380},
    "dabb-app": {2: 1190, 3: 490, 4: 360},
    "partnership-250": {4: 340},
}


def test_rare_thresholds_are_stored_for_every_preset_and_table() -> None:
    assert set(EXPECTED_RARE_THRESHOLDS) == set(rules.PRESETS)
    for ruleset in rules.PRESETS.values():
        row = RARE_THRESHOLDS.get(meld_fingerprint(ruleset))
        assert row is not None, f"run scripts/meld_thresholds.py for {ruleset.id}"
        expected = EXPECTED_RARE_THRESHOLDS[ruleset.id]
        assert set(row) == set(expected) == {deal.seats for deal in ruleset.deals}
        for deal in ruleset.deals:
            threshold = rare_threshold(ruleset, deal.seats)
            assert threshold == expected[deal.seats], (ruleset.id, deal.seats)
            assert threshold in meld_range(ruleset, deal.cards_per_player).totals


def test_rare_threshold_ignores_parameters_that_do_not_touch_melds() -> None:
    club = rules.PRESETS["club-tournament"]
    changed = club.with_overrides({"min_bid": 200, "lost": {"declarer": {"bid_factor": 3}}})
    assert changed.fingerprint != club.fingerprint
    assert rare_threshold(changed, 3) == rare_threshold(club, 3)
    other_melds = club.with_overrides({"melds": [m.__dict__ for m in club.melds[:3]]})
    assert rare_threshold(other_melds, 3) is None


def test_a_rare_meld_is_a_warning_not_an_error() -> None:
    club = rules.PRESETS["club-tournament"]
    threshold = rare_threshold(club, 3)
    assert threshold is not None
    attainable = meld_range(club, 12).totals
    rare = next(t for t in attainable if t > threshold)
    hand = {"seats": 3, "declarer": 0, "bid": 300, "outcome": "played"}
    hand |= {"melds": [threshold, rare, 0], "tricks": [175, 45, 30]}
    record = rules.parse_record(club, hand)  # accepted
    (warning,) = meld_warnings(club, record)
    assert (warning.field, warning.code) == ("melds[1]", "meld_rare")
    assert warning.params == {"value": rare, "threshold": threshold}


def test_the_threshold_simulation_is_deterministic() -> None:
    app = rules.PRESETS["dabb-app"]
    first = simulate_threshold(app, 3, 40, seed=3)
    assert first == simulate_threshold(app, 3, 40, seed=3)
    assert first in meld_range(app, 12).totals


def test_the_threshold_of_a_small_sample_is_its_highest_seat() -> None:
    """With fewer than 1,000 seats simulated, the 99.9th percentile is the highest total
    held (one hand at three: three seats, the third of them in order)."""
    import random

    from rules.simulate import simulate_hand

    app = rules.PRESETS["dabb-app"]
    for seed in range(5):
        melds = simulate_hand(app, 3, 0, random.Random(seed)).record.melds
        assert simulate_threshold(app, 3, 1, seed=seed) == max(melds)
