"""The meld-range question answered in-process, :func:`rules.meldrange.meld_range_request`
(tests/rules/test_cli.py reaches it only through a subprocess): a hand size in, the
attainable meld totals out, or an error naming ``hand_size``.  Meld values from seed 002
(a pair 20, the trump pair 40)."""

from __future__ import annotations

import pytest

from rules import PRESETS, InvalidInput
from rules.meldrange import MeldRange, meld_range, meld_range_request

CLUB = PRESETS["club-tournament"]  # 40 cards
SWABIAN = PRESETS["swabian-traditional"]  # 48 cards


def error_of(data, ruleset=CLUB):
    with pytest.raises(InvalidInput) as raised:
        meld_range_request(data, ruleset)
    (error,) = raised.value.errors
    return error.field, error.code, error.message, error.params


def test_one_card_melds_nothing_and_two_cards_make_at_most_the_trump_pair():
    assert meld_range_request({"hand_size": 1}, CLUB) == MeldRange(1, (0,))
    two = meld_range_request({"hand_size": 2}, CLUB)
    assert two.totals == (0, 20, 40)
    assert two.to_dict() == {"max": 40, "totals": [0, 20, 40]}


def test_the_whole_pack_is_one_hand_with_one_total():
    for ruleset, size in ((CLUB, 40), (SWABIAN, 48)):
        whole = meld_range_request({"hand_size": size}, ruleset)
        assert whole.hand_size == size
        assert len(whole.totals) == 1 and whole.to_dict()["max"] == whole.totals[0] > 0


@pytest.mark.parametrize(
    ("size", "high"),
    [(0, 40), (-3, 40), (41, 40), (49, 48)],
)
def test_a_size_outside_the_pack_names_hand_size_with_its_bounds(size, high):
    ruleset = CLUB if high == 40 else SWABIAN
    assert error_of({"hand_size": size}, ruleset) == (
        "hand_size",
        "range",
        f"a hand holds 1 … {high} cards, not {size}",
        {"value": size, "low": 1, "high": high},
    )


@pytest.mark.parametrize(
    "data", [{}, {"hand_size": "12"}, {"hand_size": True}, {"hand_size": 12.0}]
)
def test_a_hand_size_that_is_no_whole_number_is_a_type_error(data):
    assert error_of(data) == (
        "hand_size",
        "type",
        "hand_size must be a whole number of cards",
        {},
    )


@pytest.mark.parametrize(("hand_size", "ruleset", "deck"), [(41, CLUB, 40), (-1, SWABIAN, 48)])
def test_meld_range_called_directly_refuses_a_hand_outside_the_pack(hand_size, ruleset, deck):
    with pytest.raises(ValueError) as raised:
        meld_range(ruleset, hand_size)
    assert str(raised.value) == f"a hand holds 0 … {deck} cards, not {hand_size}"
