"""Issue 37.19: a sheet whose seats are each possible alone but not together. Only one
seat takes the last trick (and its bonus): two seats that each need it cannot both be
right."""

from __future__ import annotations

from rules import PRESETS
from rules.scoring import last_trick_fits, possible_trick_points, validate_record

CLUB = PRESETS["club-tournament"]


def _record(tricks, taken):
    return {
        "ruleset": CLUB.id,
        "seats": 3,
        "declarer": 0,
        "bid": 300,
        "outcome": "played",
        "melds": [200, 0, 0],
        "tricks": tricks,
        "tricks_taken": taken,
    }


def test_two_seats_that_each_need_the_last_trick_are_refused_together():
    # one trick (3 cards) holds at most 33 card points: 34 needs the last trick's 10, and
    # each seat alone is possible
    for seat, (value, taken) in enumerate(((182, 10), (34, 1), (34, 1))):
        assert value in possible_trick_points(CLUB, 3, seat == 0, taken)
    assert not last_trick_fits(CLUB, 3, 0, [182, 34, 34], [10, 1, 1])
    errors = validate_record(CLUB, _record([182, 34, 34], [10, 1, 1]))
    assert [(e.field, e.code) for e in errors] == [("tricks", "last_trick")]
    assert errors[0].params == {"bonus": 10}


def test_one_seat_with_the_last_trick_is_fine():
    assert last_trick_fits(CLUB, 3, 0, [186, 34, 30], [10, 1, 1])
    assert validate_record(CLUB, _record([186, 34, 30], [10, 1, 1])) == []
    # without tricks taken every sheet that adds up has a seat that can hold the bonus
    assert last_trick_fits(CLUB, 3, 0, [120, 65, 65])


def test_no_bonus_nothing_to_check():
    from dataclasses import replace

    plain = replace(CLUB, last_trick_bonus=0)
    assert last_trick_fits(plain, 3, 0, [182, 34, 34], [10, 1, 1])
