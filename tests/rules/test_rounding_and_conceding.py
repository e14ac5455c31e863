"""Two edges of the scoring the seed values alone did not pin (found by mutation testing,
docs/testing.md): how a "balanced" rounding shares the fives among several sides, and
where a conceded bid turns "unreachable"."""

from __future__ import annotations

import pytest

from rules import PRESETS, parse_record, score_hand
from rules.scoring import round_trick_points

CLUB = PRESETS["club-tournament"]


@pytest.mark.parametrize(
    ("declarer_side", "expected"),
    [
        # the declaring side first, then the higher totals: two of four fives go up
        (2, [110, 60, 60, 20]),
        (3, [110, 60, 50, 30]),
        (0, [110, 70, 50, 20]),
    ],
)
def test_balanced_rounding_sends_half_the_fives_up_declarer_first(declarer_side, expected):
    """``rounding_fives="balanced"`` (:class:`rules.Ruleset`; FIELD-NOTES lists "to tens,
    5 up" and "both up"): of the sides ending in 5 the declaring side and then the higher
    totals round up, one up for each one down, so the 250 stay 250."""
    balanced = CLUB.with_overrides({"rounding_fives": "balanced"})
    points = [105, 65, 55, 25]
    assert round_trick_points(balanced, points, declarer_side) == expected
    assert sum(expected) == sum(points)
    # "up": every five goes up
    assert round_trick_points(CLUB, points, declarer_side) == [110, 70, 60, 30]


def test_a_conceded_bid_is_unreachable_only_above_melds_plus_all_trick_points():
    """FIELD-NOTES, "Abgehen, declarer": "−2×bid when the bid was unreachable", that is when
    not even the melds and all 250 trick points reach it; at exactly melds + 250 it is the
    normal -bid."""
    ruleset = CLUB.with_overrides(
        {"abgehen": {"declarer_when_unreachable": {"bid_factor": 2, "extra": 0}}}
    )

    def conceded(bid):
        record = parse_record(
            ruleset,
            {"seats": 3, "declarer": 0, "bid": bid, "trump": "H", "outcome": "abgehen",
             "melds": [120, 40, 0]},
        )  # fmt: skip
        return score_hand(ruleset, record).scores

    assert conceded(150) == (-150, 40, 0)  # far below: the normal penalty
    assert conceded(370) == (-370, 40, 0)  # 120 + 250: still reachable
    assert conceded(380) == (-760, 40, 0)  # one step above: unreachable, twice the bid
