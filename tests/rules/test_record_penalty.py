"""A hand record's penalty (Verwerfen, falsch Drücken) as the engine reads it: every
malformed or impossible penalty named at its field with its code and words (the web app
translates the code; the command line prints the words).  Seeds 001/002 "Verwerfen",
"Falsches Drücken": only the declarer discards, so only he can misdiscard."""

from __future__ import annotations

import pytest

from rules import PRESETS, InvalidInput, parse_record

CLUB = PRESETS["club-tournament"]
HAND = {
    "seats": 3, "declarer": 0, "bid": 200, "trump": "H", "outcome": "played",
    "melds": [20, 0, 0], "tricks": [150, 60, 40],
}  # fmt: skip


def problems(ruleset=CLUB, **changes):
    with pytest.raises(InvalidInput) as raised:
        parse_record(ruleset, {**HAND, **changes})
    return [(e.field, e.code, e.message) for e in raised.value.errors]


SHAPE = ("penalty", "type", 'penalty must be {"type": ..., "seat": n}')
SEAT = ("penalty.seat", "seat", "penalty seat is not at the table")


@pytest.mark.parametrize(
    ("penalty", "expected"),
    [
        ("verwerfen", [SHAPE]),
        ({"type": "verwerfen", "seat": 1, "note": "x"}, [SHAPE]),
        (
            {"type": "foul", "seat": 1},
            [("penalty.type", "choice", "penalty type must be one of verwerfen, falsch-druecken")],
        ),
        ({"type": "verwerfen", "seat": 3}, [SEAT]),
        ({"type": "verwerfen", "seat": -1}, [SEAT]),
        ({"type": "verwerfen", "seat": True}, [SEAT]),
        (
            {"type": "falsch-druecken", "seat": 1},
            [
                (
                    "penalty.seat",
                    "misdiscard_seat",
                    "only the declarer discards, so only the declarer can misdiscard",
                )
            ],
        ),
    ],
)
def test_a_malformed_or_impossible_penalty_is_named_at_its_field(penalty, expected):
    assert problems(penalty=penalty) == expected


def test_valid_penalties_are_read():
    record = parse_record(CLUB, {**HAND, "penalty": {"type": "verwerfen", "seat": 2}})
    assert (record.penalty.type, record.penalty.seat) == ("verwerfen", 2)
    record = parse_record(CLUB, {**HAND, "penalty": {"type": "falsch-druecken", "seat": 0}})
    assert (record.penalty.type, record.penalty.seat) == ("falsch-druecken", 0)


def test_a_penalty_the_ruleset_does_not_play_is_refused():
    no_revoke = CLUB.with_overrides({"revoke": None})
    assert problems(no_revoke, penalty={"type": "verwerfen", "seat": 1}) == [
        ("penalty.type", "not_played", "club-tournament has no revoke penalty")
    ]
    no_misdiscard = CLUB.with_overrides({"misdiscard": None})
    assert problems(no_misdiscard, penalty={"type": "falsch-druecken", "seat": 0}) == [
        ("penalty.type", "not_played", "club-tournament has no misdiscard penalty")
    ]


def test_a_penalty_is_scored_only_on_a_played_hand():
    assert (
        "penalty",
        "not_allowed",
        "penalties are scored on played hands, not abgehen",
    ) in problems(outcome="abgehen", penalty={"type": "verwerfen", "seat": 1})
