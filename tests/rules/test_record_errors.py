"""Every refusal of a hand record (``rules.validation.parse_record``), as the clerk's form
shows it: the field, the code the pages translate, the words and the numbers. One change
to a valid record of the club preset (3 seats, bids from 150 in steps of 10, 250 trick
points with the last trick) breaks exactly one check. Found by mutation testing (issue 29):
many codes, words and numbers were unchecked."""

from __future__ import annotations

import pytest

from rules import PRESETS, InvalidInput
from rules.scoring import HandRecord, parse_record

CLUB = PRESETS["club-tournament"]
PLAYED = {
    "seats": 3,
    "declarer": 0,
    "bid": 200,
    "outcome": "played",
    "melds": [100, 40, 0],
    "tricks": [150, 60, 40],
}
DURCH = {"seats": 3, "declarer": 0, "bid": 200, "outcome": "durch", "won": True}


def without(record: dict, key: str) -> dict:
    return {k: v for k, v in record.items() if k != key}


def problems(record, ruleset=CLUB) -> list[tuple]:
    with pytest.raises(InvalidInput) as raised:
        parse_record(ruleset, record)
    return [(e.field, e.code, e.message, e.params) for e in raised.value.errors]


CASES = {
    "not-an-object": (["seats", 3], [("hand", "type", "a hand record must be an object", {})]),
    "unknown-keys": (
        {**PLAYED, "colour": 1, "": 2},
        [
            ("colour", "unknown", "unknown field 'colour'", {}),
            ("hand", "unknown", "unknown field ''", {}),
        ],
    ),
    "five-seats": (
        {**PLAYED, "seats": 5},
        [("seats", "seats", "club-tournament is played by 3, 4 players", {"allowed": "3, 4"})],
    ),
    "seats-true": (
        {**PLAYED, "seats": True},
        [("seats", "seats", "club-tournament is played by 3, 4 players", {"allowed": "3, 4"})],
    ),
    # without a table size, the seat and the lists' lengths cannot be judged
    "no-table-size-no-seat-check": (
        {**PLAYED, "seats": 5, "declarer": 7, "melds": [0, 0]},
        [("seats", "seats", "club-tournament is played by 3, 4 players", {"allowed": "3, 4"})],
    ),
    "declarer-text": (
        {**PLAYED, "declarer": "0"},
        [("declarer", "type", "declarer must be a seat number", {})],
    ),
    "declarer-past-the-table": (
        {**PLAYED, "declarer": 3},
        [("declarer", "seat", "seat 3 is not at a table of 3 (0–2)", {"seat": 3, "seats": 3})],
    ),
    "declarer-negative": (
        {**PLAYED, "declarer": -1},
        [("declarer", "seat", "seat -1 is not at a table of 3 (0–2)", {"seat": -1, "seats": 3})],
    ),
    "bid-under-minimum": (
        {**PLAYED, "bid": 140},
        [("bid", "min_bid", "bid 140 is under the minimum bid of 150", {"bid": 140, "min": 150})],
    ),
    "bid-off-the-steps": (
        {**PLAYED, "bid": 205},
        [
            (
                "bid",
                "step",
                "bid 205 is off the bidding steps (150, 160, … in steps of 10)",
                {"bid": 205, "step": 10, "min": 150},
            )
        ],
    ),
    "bid-not-whole": (
        {**PLAYED, "bid": 200.0},
        [("bid", "type", "bid must be a whole number of points", {})],
    ),
    "unknown-outcome": (
        {**PLAYED, "outcome": "misere"},
        [
            (
                "outcome",
                "choice",
                "outcome must be one of played, abgehen, durch, durch-aufgelegt, "
                "durch-ohne-dabb, bettel",
                {},
            )
        ],
    ),
    "outcome-not-played-here": (
        {**PLAYED, "outcome": "bettel"},
        [
            (
                "outcome",
                "not_played",
                "bettel is not played under club-tournament",
                {"outcome": "bettel"},
            )
        ],
    ),
    "melds-missing": (
        without(PLAYED, "melds"),
        [("melds", "required", "melds are required, one number per seat", {})],
    ),
    "abgehen-without-melds": (
        {"seats": 3, "declarer": 0, "bid": 200, "outcome": "abgehen"},
        [("melds", "required", "melds are required, one number per seat", {})],
    ),
    "melds-not-a-list": (
        {**PLAYED, "melds": "100"},
        [("melds", "type", "melds must be a list of whole numbers, one per seat", {})],
    ),
    "meld-off-the-tens": (
        {**PLAYED, "melds": [15, 0, 0]},
        [("melds[0]", "multiple", "15 is not a multiple of 10", {"value": 15, "step": 10})],
    ),
    "melds-too-few": (
        {**PLAYED, "melds": [0, 0]},
        [("melds", "length", "melds has 2 entries for 3 seats", {"count": 2, "seats": 3})],
    ),
    "melds-in-a-durch": (
        {**DURCH, "melds": [10, 0, 0]},
        [("melds", "no_melds_in_special", "nobody melds in a durch", {})],
    ),
    "tricks-after-abgehen": (
        {**PLAYED, "outcome": "abgehen"},
        [("tricks", "not_counted", "no trick points are counted for abgehen", {})],
    ),
    "tricks-missing": (
        without(PLAYED, "tricks"),
        [("tricks", "required", "trick points are required, one number per seat", {})],
    ),
    "trick-points-negative": (
        {**PLAYED, "tricks": [150, 60, -40]},
        [("tricks[2]", "negative", "must not be negative", {})],
    ),
    "trick-points-text": (
        {**PLAYED, "tricks": [150, 60, "40"]},
        [("tricks[2]", "type", "must be a whole number", {})],
    ),
    "trick-points-too-few": (
        {**PLAYED, "tricks": [150, 100]},
        [("tricks", "length", "tricks has 2 entries for 3 seats", {"count": 2, "seats": 3})],
    ),
    "tricks-taken-too-few": (
        {**PLAYED, "tricks_taken": [6, 6]},
        [
            (
                "tricks_taken",
                "length",
                "tricks_taken has 2 entries for 3 seats",
                {"count": 2, "seats": 3},
            )
        ],
    ),
    # a seat that took a trick holds at least its three cards' points: three Unter, 6
    "trick-points-no-seat-can-hold": (
        {**PLAYED, "tricks": [150, 98, 2]},
        [
            (
                "tricks[2]",
                "impossible",
                "2 trick points are impossible under this card-point scheme",
                {"value": 2, "taken": None},
            )
        ],
    ),
    "tricks-taken-in-a-durch": (
        {**DURCH, "tricks_taken": [12, 0, 0]},
        [("tricks_taken", "not_counted", "no tricks are counted for durch", {})],
    ),
    "tricks-taken-short": (
        {**PLAYED, "tricks_taken": [5, 4, 2]},
        [
            (
                "tricks_taken",
                "tricks_sum",
                "11 tricks; a hand at 3 seats has 12",
                {"sum": 11, "expected": 12},
            )
        ],
    ),
    "trick-points-short": (
        {**PLAYED, "tricks": [150, 60, 30]},
        [
            (
                "tricks",
                "sum",
                "trick points add up to 240, not 250",
                {"sum": 240, "total": 250},
            )
        ],
    ),
    # a trick of three cards holds at least 3 × 2 points (three Unter), and ten tricks
    # cannot hold every point of the pack
    "trick-points-against-tricks-taken": (
        {**PLAYED, "tricks": [250, 0, 0], "tricks_taken": [10, 1, 1]},
        [
            (
                "tricks[0]",
                "impossible",
                "250 trick points cannot be made with 10 tricks",
                {"value": 250, "taken": 10},
            ),
            (
                "tricks[1]",
                "impossible",
                "0 trick points cannot be made with 1 tricks",
                {"value": 0, "taken": 1},
            ),
            (
                "tricks[2]",
                "impossible",
                "0 trick points cannot be made with 1 tricks",
                {"value": 0, "taken": 1},
            ),
        ],
    ),
    "durch-without-won": (
        without(DURCH, "won"),
        [("won", "required", "say whether the durch was won (true/false)", {})],
    ),
    "won-in-a-played-hand": (
        {**PLAYED, "won": False},
        [
            (
                "won",
                "not_allowed",
                "won is only entered for Durch and Bettel; the engine decides",
                {},
            )
        ],
    ),
    "trump-not-a-suit": (
        {**PLAYED, "trump": "X"},
        [("trump", "trump", "trump must be one of C, S, H, D", {})],
    ),
    "trump-in-a-durch": (
        {**DURCH, "trump": "H"},
        [
            (
                "trump",
                "no_trump_in_special",
                "a durch is played without trump under club-tournament: leave the trump "
                "(Trumpf) empty, not H",
                {"outcome": "durch", "trump": "H"},
            )
        ],
    ),
}


@pytest.mark.parametrize(("record", "expected"), CASES.values(), ids=CASES.keys())
def test_a_broken_record_is_refused_with_each_problem(record, expected):
    assert problems(record) == expected


def test_a_valid_record_reads_back_with_its_numbers_as_tuples_and_trump_upper_case():
    record = {**PLAYED, "trump": "h", "tricks_taken": [6, 3, 3]}
    assert parse_record(CLUB, record) == HandRecord(
        seats=3,
        declarer=0,
        bid=200,
        outcome="played",
        melds=(100, 40, 0),
        tricks=(150, 60, 40),
        tricks_taken=(6, 3, 3),
        won=None,
        penalty=None,
        trump="H",
    )


def test_a_durch_keeps_its_won_flag_and_no_lists():
    assert parse_record(CLUB, DURCH) == HandRecord(
        seats=3,
        declarer=0,
        bid=200,
        outcome="durch",
        melds=None,
        tricks=None,
        tricks_taken=None,
        won=True,
        penalty=None,
        trump=None,
    )
    assert parse_record(CLUB, {**DURCH, "won": False, "melds": [0, 0, 0]}).melds == (0, 0, 0)


def test_abgehen_only_when_unreachable_counts_the_declarers_own_melds():
    """Under a club rule that allows conceding only when the bid cannot be reached, the
    limit is the declarer's melds plus every trick point: seat 1 melded 40, so 290."""
    strict = CLUB.with_overrides({"abgehen": {"only_when_unreachable": True}}, id="strict")
    conceded = {"seats": 3, "declarer": 1, "outcome": "abgehen", "melds": [0, 40, 20]}
    assert problems({**conceded, "bid": 290}, strict) == [
        (
            "outcome",
            "abgehen_not_allowed",
            "conceding is allowed only when the bid exceeds melds + 250 (290); bid 290",
            {"bid": 290, "limit": 290},
        )
    ]
    assert parse_record(strict, {**conceded, "bid": 300}).outcome == "abgehen"


def test_the_bidding_steps_count_from_the_minimum_bid():
    """With bids from 150 in steps of 40, the steps are 150, 190, 230: 190 is one, 170 not."""
    wide = CLUB.with_overrides({"bid_step": 40}, id="wide-steps")
    assert parse_record(wide, {**PLAYED, "bid": 190}).bid == 190
    assert problems({**PLAYED, "bid": 170}, wide) == [
        (
            "bid",
            "step",
            "bid 170 is off the bidding steps (150, 190, … in steps of 40)",
            {"bid": 170, "step": 40, "min": 150},
        )
    ]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"declarer": "1"}, [("declarer", "type", "declarer must be a seat number", {})]),
        (
            {"declarer": 3},
            [("declarer", "seat", "seat 3 is not at a table of 3 (0–2)", {"seat": 3, "seats": 3})],
        ),
        (
            {"bid": 305},
            [
                (
                    "bid",
                    "step",
                    "bid 305 is off the bidding steps (150, 160, … in steps of 10)",
                    {"bid": 305, "step": 10, "min": 150},
                )
            ],
        ),
        (
            {"bid": 140},
            [
                (
                    "bid",
                    "min_bid",
                    "bid 140 is under the minimum bid of 150",
                    {"bid": 140, "min": 150},
                )
            ],
        ),
    ],
    ids=["declarer-text", "declarer-off-the-table", "bid-off-the-steps", "bid-under-minimum"],
)
def test_a_refused_declarer_or_bid_is_not_used_for_the_abgehen_limit(change, expected):
    """The limit needs the declarer's seat and the bid; when either is refused, only that
    refusal is reported."""
    strict = CLUB.with_overrides({"abgehen": {"only_when_unreachable": True}}, id="strict")
    conceded = {"seats": 3, "declarer": 1, "bid": 300, "outcome": "abgehen", "melds": [0, 40, 20]}
    assert problems({**conceded, **change}, strict) == expected
