"""A ruleset read from JSON (a club's own, or a stored copy): every problem comes back
with the parameter's path, a code and words the director's form can show
(:meth:`rules.ruleset.Ruleset.from_dict`).  Found by mutation testing (issue 29): the
paths inside lists and optional parts, and the codes and words, were unchecked."""

from __future__ import annotations

import pytest

from rules import PRESETS, Ruleset
from rules.errors import RulesetError

CLUB = PRESETS["club-tournament"]


def problems(data) -> list[tuple]:
    with pytest.raises(RulesetError) as raised:
        Ruleset.from_dict(data)
    return [(e.field, e.code, e.message, e.params) for e in raised.value.errors]


def club(**changes) -> dict:
    return {**CLUB.to_dict(), **changes}


def test_the_stored_form_reads_back_to_the_same_ruleset():
    assert Ruleset.from_dict(CLUB.to_dict()) == CLUB


def test_a_ruleset_must_be_an_object():
    assert problems(["club-tournament"]) == [("ruleset", "type", "must be an object", {})]


def test_an_unknown_schema_is_refused_by_number():
    assert problems(club(schema=99)) == [("schema", "schema", "unsupported ruleset schema 99", {})]


def test_an_altered_copy_no_longer_matches_its_fingerprint():
    assert problems(club(fingerprint="0" * 16)) == [
        (
            "fingerprint",
            "fingerprint",
            f"fingerprint '0000000000000000' does not match the content ({CLUB.fingerprint});"
            " the ruleset was altered",
            {},
        )
    ]


def test_a_choice_lists_what_is_allowed():
    assert problems(club(rounding="up")) == [
        ("rounding", "choice", "must be one of 'none', 'tens'", {"allowed": "none, tens"})
    ]


def test_lists_and_objects_are_told_apart_with_their_paths():
    assert problems(club(deals="3")) == [("deals", "type", "must be a list", {"expected": "list"})]
    assert problems(club(card_points=[11, 10])) == [
        ("card_points", "type", "must be an object", {"expected": "object"})
    ]
    # inside a list the item's index, inside an optional part the part's name
    assert problems(club(deals=[5])) == [
        ("deals[0]", "type", "must be an object", {"expected": "object"})
    ]
    assert problems(club(abgehen=5)) == [
        ("abgehen", "type", "must be an object", {"expected": "object"})
    ]


def test_unknown_and_missing_parameters_are_named_with_their_path():
    assert problems(club(nonsense=1)) == [("nonsense", "unknown", "unknown parameter", {})]
    lost = {**CLUB.to_dict()["lost"], "nonsense": 1}
    assert problems(club(lost=lost)) == [("lost.nonsense", "unknown", "unknown parameter", {})]
    data = club()
    del data["min_bid"]
    assert problems(data) == [("min_bid", "missing", "is missing", {})]
    assert problems(club(deals=[{"seats": 3}])) == [
        ("deals[0].cards_per_player", "missing", "is missing", {}),
        ("deals[0].dabb", "missing", "is missing", {}),
    ]


def test_overrides_may_carry_the_stored_schema_and_fingerprint():
    # a stored copy used as overrides: its schema and (now stale) fingerprint are dropped
    stored = CLUB.to_dict()
    changed = CLUB.with_overrides({**stored, "min_bid": 200})
    assert changed.min_bid == 200 and changed.fingerprint != CLUB.fingerprint


def test_overrides_of_another_schema_are_refused_not_ignored():
    with pytest.raises(RulesetError) as raised:
        CLUB.with_overrides({"schema": 99, "min_bid": 200})
    assert [(e.field, e.code) for e in raised.value.errors] == [("schema", "schema")]


def test_a_value_of_the_wrong_kind_says_which_kind_it_must_be():
    assert problems(club(meld_requires_trick="ja")) == [
        ("meld_requires_trick", "type", "must be true or false", {"expected": "bool"})
    ]
    # a truth value is no number, and neither is a number written as text
    for wrong in (True, "300"):
        assert problems(club(min_bid=wrong)) == [
            ("min_bid", "type", "must be a whole number", {"expected": "int"})
        ]
    assert problems(club(name_de=5)) == [
        ("name_de", "type", "must be a string", {"expected": "str"})
    ]
