"""The ruleset as data: JSON round-trip, fingerprint, overrides, consistency checks, and
every club variant of shared/FIELD-NOTES.md ("Rules differ from club to club") expressed as
parameters and scored."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from rules import PRESETS, InvalidInput, Ruleset, RulesetError, best_meld, score_request
from rules.presets import resolve_ruleset
from tests.factories.records import FOUR_DEAL, errors_of

CLUB = PRESETS["club-tournament"]


@pytest.mark.parametrize("preset_id", list(PRESETS))
def test_json_round_trip_is_identical(preset_id):
    ruleset = PRESETS[preset_id]
    text = ruleset.to_json()
    again = Ruleset.from_json(text)
    assert again == ruleset
    assert again.fingerprint == ruleset.fingerprint
    assert again.to_json() == text
    assert json.loads(text)["fingerprint"] == ruleset.fingerprint


def test_presets_have_distinct_fingerprints_and_ids():
    assert len({r.fingerprint for r in PRESETS.values()}) == 4
    assert list(PRESETS) == [
        "club-tournament",
        "swabian-traditional",
        "dabb-app",
        "partnership-250",
    ]


def test_ruleset_is_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CLUB.min_bid = 200  # type: ignore[misc]


def test_fingerprint_changes_with_a_scoring_parameter_but_not_with_a_name():
    changed = CLUB.with_overrides({"min_bid": 200})
    renamed = CLUB.with_overrides({}, name_de="Mein Verein")
    assert changed.fingerprint != CLUB.fingerprint
    assert renamed.fingerprint == CLUB.fingerprint
    assert CLUB.min_bid == 150  # the preset itself is untouched


def test_altered_stored_copy_is_detected():
    data = CLUB.to_dict()
    data["min_bid"] = 100 + 60
    with pytest.raises(RulesetError) as exc:
        Ruleset.from_dict(data)
    assert [e.field for e in exc.value.errors] == ["fingerprint"]


def test_from_dict_lists_every_problem_with_its_path():
    data = CLUB.to_dict()
    del data["fingerprint"]
    del data["min_bid"]
    data["lost"]["declarer"]["bid_factor"] = "two"
    data["rounding"] = "hundreds"
    data["colour"] = "blue"
    with pytest.raises(RulesetError) as exc:
        Ruleset.from_dict(data)
    fields = {e.field for e in exc.value.errors}
    assert {"min_bid", "lost.declarer.bid_factor", "rounding", "colour"} <= fields


@pytest.mark.parametrize(
    ("override", "field"),
    [
        ({"deck_size": 36}, "deck_size"),
        ({"deals": [{"seats": 3, "cards_per_player": 13, "dabb": 4}]}, "deals[0]"),
        ({"min_bid": 155}, "min_bid"),
        ({"bid_step": 0}, "bid_step"),
        (
            {"partnerships": True, "deals": [{"seats": 3, "cards_per_player": 12, "dabb": 4}]},
            "partnerships",
        ),
        (
            {
                "melds": [
                    {
                        "id": "x",
                        "label_de": "x",
                        "label_en": "x",
                        "klass": "suit",
                        "points": 10,
                        "suit": "trump",
                        "ranks": "9",
                    }
                ]
            },
            "melds[0].ranks",
        ),
        ({"durch": {"won": -5, "lost": 0}}, "durch"),
    ],
)
def test_unplayable_rulesets_are_rejected(override, field):
    with pytest.raises(RulesetError) as exc:
        CLUB.with_overrides(override)
    assert field in [e.field for e in exc.value.errors]


def test_resolve_ruleset_forms():
    assert resolve_ruleset("dabb-app") is PRESETS["dabb-app"]
    assert resolve_ruleset(PRESETS["dabb-app"].to_dict()) == PRESETS["dabb-app"]
    custom = resolve_ruleset({"base": "dabb-app", "min_bid": 200})
    assert (custom.id, custom.min_bid) == ("dabb-app+custom", 200)
    for bad, field in [("x", "ruleset"), (5, "ruleset"), ({"base": "x"}, "ruleset.base")]:
        with pytest.raises(InvalidInput) as exc:
            resolve_ruleset(bad)
        assert exc.value.errors[0].field == field


# --------------------------------------------------------------- FIELD-NOTES variants
# Each row: a variant seen at clubs, the parameters that express it (on top of the club
# preset), a hand, and the scores that variant gives by hand calculation.
PLAYED = {"seats": 3, "declarer": 0, "outcome": "played", "melds": [140, 60, 20]}
LOST = dict(PLAYED, bid=400, tricks=[175, 45, 30])  # 140 + 175 = 315 < 400
CONCEDE = {"seats": 3, "declarer": 0, "bid": 250, "outcome": "abgehen", "melds": [100, 60, 20]}

VARIANTS = [
    pytest.param(
        {"min_bid": 200},
        dict(PLAYED, bid=200, tricks=[175, 45, 30]),
        [320, 110, 50],
        id="minimum bid 200",
    ),
    pytest.param(
        {"abgehen": {"declarer_when_unreachable": {"bid_factor": 2, "extra": 0}}},
        dict(CONCEDE, bid=400, melds=[100, 60, 20]),
        [-800, 60, 20],
        id="Abgehen -2x bid when unreachable",
    ),
    pytest.param({}, CONCEDE, [-250, 60, 20], id="Abgehen: opponents own melds"),
    pytest.param(
        {"abgehen": {"opponents_bonus": {"kind": "half-bid"}}},
        dict(CONCEDE, bid=270),
        [-270, 200, 160],
        id="Abgehen: + half the bid rounded up to tens",
    ),
    pytest.param(
        {"abgehen": {"opponents_bonus": {"kind": "fixed", "amount": 30}}},
        CONCEDE,
        [-250, 90, 50],
        id="Abgehen: + 30",
    ),
    pytest.param(
        {"abgehen": {"opponents_bonus": {"kind": "fixed", "amount": 40}}},
        CONCEDE,
        [-250, 100, 60],
        id="Abgehen: + 40",
    ),
    pytest.param(
        {"abgehen": {"opponents_bonus": {"kind": "per-player", "amount": 10}}},
        CONCEDE,
        [-250, 90, 50],
        id="Abgehen: + 10 per player",
    ),
    pytest.param({}, LOST, [-800, 210, 150], id="lost: -2x bid, others + 100"),
    pytest.param(
        {"lost": {"declarer": {"bid_factor": 1}}}, LOST, [-400, 210, 150], id="lost: -bid"
    ),
    pytest.param(
        {"lost": {"declarer": {"bid_factor": 1, "extra": 100}}},
        LOST,
        [-500, 210, 150],
        id="lost: -(bid+100)",
    ),
    pytest.param(
        {"lost": {"opponents_bonus": {"kind": "none"}}},
        LOST,
        [-800, 110, 50],
        id="lost: opponents melds + tricks",
    ),
    pytest.param(
        {"lost": {"opponents_bonus": {"kind": "half-bid"}}},
        LOST,
        [-800, 310, 250],
        id="lost: opponents + half the bid",
    ),
    pytest.param(
        {"lost": {"opponents_bonus": {"kind": "fixed", "amount": 30}}},
        LOST,
        [-800, 140, 80],
        id="lost: opponents + 30",
    ),
    pytest.param(
        {"meld_requires_trick": False},
        dict(PLAYED, bid=300, tricks=[250, 0, 0]),
        [390, 60, 20],
        id="meld counts without a trick",
    ),
    pytest.param(
        {},
        dict(PLAYED, bid=300, tricks=[250, 0, 0]),
        [390, 0, 0],
        id="meld counts only with a trick",
    ),
    pytest.param(
        {"rounding": "none"},
        dict(PLAYED, bid=300, tricks=[175, 45, 30]),
        [315, 105, 50],
        id="exact trick points",
    ),
    pytest.param(
        {}, dict(PLAYED, bid=300, tricks=[175, 55, 20]), [320, 120, 40], id="to tens, 5 up: both up"
    ),
    pytest.param(
        {"rounding_fives": "balanced"},
        dict(PLAYED, bid=300, tricks=[175, 55, 20]),
        [320, 110, 40],
        id="two fives: declarer up, other down",
    ),
    pytest.param(
        {"rounding_fives": "balanced"},
        dict(PLAYED, bid=150, tricks=[180, 45, 25]),
        [320, 110, 40],
        id="two fives among defenders: higher up",
    ),
    pytest.param(
        {"bid_checked_exact": False},
        dict(PLAYED, bid=320, tricks=[175, 45, 30]),
        [320, 110, 50],
        id="bid checked on rounded points",
    ),
    pytest.param(
        {},
        dict(PLAYED, bid=320, tricks=[175, 45, 30]),
        [-640, 210, 150],
        id="bid checked on exact points",
    ),
    pytest.param({"durch": None}, None, "durch", id="Durch not played"),
    pytest.param(
        {"specials_kept_apart": True},
        {"seats": 3, "declarer": 2, "bid": 150, "outcome": "durch", "won": False},
        [0, 0, -2000],
        id="Durch kept apart, lost -2000",
    ),
    pytest.param(
        {"bettel": {"won": 500, "lost": 500}},
        {"seats": 3, "declarer": 1, "bid": 150, "outcome": "bettel", "won": True},
        [0, 500, 0],
        id="Bettel 500",
    ),
    pytest.param(
        {},
        dict(PLAYED, bid=200, tricks=[175, 45, 30], penalty={"type": "verwerfen", "seat": 1}),
        [320, -400, 50],
        id="Verwerfen by a defender",
    ),
    pytest.param(
        {},
        dict(PLAYED, bid=200, tricks=[175, 45, 30], penalty={"type": "falsch-druecken", "seat": 0}),
        [-400, 210, 150],
        id="forgetting to discard: lost, double bid",
    ),
]


@pytest.mark.parametrize(("override", "record", "expected"), VARIANTS)
def test_field_notes_variant(override, record, expected):
    ruleset = CLUB.with_overrides(override)
    if record is None:
        assert expected not in ruleset.outcomes
        return
    assert list(score_request(ruleset, record).scores) == expected


@pytest.mark.parametrize(
    ("eight", "hand_ranks", "expected"),
    [
        ({"A": 1000, "K": 1000, "Q": 1000, "J": 1000}, "K", 1000),
        ({"A": 1000, "K": 600, "Q": 400, "J": 200}, "K", 600),
        ({}, "K", 160),  # eight of a kind counted as two fours
    ],
    ids=["eight of a kind 1000", "by rank 1000/600/400/200", "2x four"],
)
def test_eight_of_a_kind_variants(eight, hand_ranks, expected):
    melds = [m for m in _meld_dicts(CLUB) if not m["id"].startswith("eight-")]
    for rank, points in eight.items():
        melds.append(
            {
                "id": f"eight-{rank}",
                "label_de": "Acht",
                "label_en": "Eight",
                "klass": "kind",
                "points": points,
                "suit": "each",
                "ranks": rank * 2,
                "cards": [],
            }
        )
    ruleset = CLUB.with_overrides({"melds": melds})
    cards = [hand_ranks + s for s in "CSHD" for _ in range(2)]
    assert best_meld(ruleset, cards, "C").total == expected  # one rank: no suit melds


def test_eight_tens_with_or_without():
    tens = [f"T{s}" for s in "CSHD" for _ in range(2)]
    assert best_meld(CLUB, tens, "H").total == 0
    melds = _meld_dicts(CLUB) + [
        {
            "id": "eight-tens",
            "label_de": "Acht Zehner",
            "label_en": "Eight tens",
            "klass": "kind",
            "points": 1000,
            "suit": "each",
            "ranks": "TT",
            "cards": [],
        }
    ]
    assert best_meld(CLUB.with_overrides({"melds": melds}), tens, "H").total == 1000


@pytest.mark.parametrize("points", [1500, 1000])
def test_double_family_value(points):
    melds = [dict(m, points=points) if m["id"] == "double-family" else m for m in _meld_dicts(CLUB)]
    ruleset = CLUB.with_overrides({"melds": melds})
    cards = [r + "S" for r in "ATKQJ" for _ in range(2)]
    # the double family uses every card of the suit class; four-of-a-kind and Binokel need other suits
    assert best_meld(ruleset, cards, "H").total == points


def _meld_dicts(ruleset):
    return [dict(m) for m in ruleset.to_dict()["melds"]]


# ------------------------------------------------ parameters added after rulesets were stored
DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name", ["club-tournament-v1.json", "partnership-250-v1.json"])
def test_a_ruleset_stored_before_the_seating_parameters_loads_with_its_fingerprint(name):
    """Files written by the code before ``direction``, ``first_bidder``, ``special_lead``,
    ``discard_melds``, ``partner_exchange``, ``wording``, ``house_rules`` and
    ``abgehen.names_trump`` existed: they load, get the defaults, and keep their
    fingerprint through another save."""
    text = (DATA / name).read_text()
    stored = json.loads(text)
    assert "direction" not in stored and "names_trump" not in stored["abgehen"]
    ruleset = Ruleset.from_json(text)  # raises if the stored fingerprint no longer matches
    assert ruleset.fingerprint == stored["fingerprint"]
    assert (ruleset.direction, ruleset.first_bidder, ruleset.house_rules) == (
        "clockwise",
        "left",
        (),
    )
    again = Ruleset.from_json(ruleset.to_json())
    assert again.fingerprint == stored["fingerprint"]
    assert ruleset.version == 1 and PRESETS[ruleset.id].version == 2
    assert PRESETS[ruleset.id].fingerprint != stored["fingerprint"]


def test_seating_parameters_count_in_the_fingerprint_and_the_description_does_not():
    turned = CLUB.with_overrides({"direction": "clockwise"})
    assert turned.fingerprint != CLUB.fingerprint
    assert CLUB.with_overrides({"first_bidder": "left"}).fingerprint != CLUB.fingerprint
    assert CLUB.with_overrides({"house_rules": []}).fingerprint == CLUB.fingerprint
    assert CLUB.with_overrides({"wording": "swabian"}).fingerprint == CLUB.fingerprint
    assert Ruleset.from_json(CLUB.to_json()) == CLUB


def test_first_bidder_is_the_next_player_in_the_direction_of_play_or_the_one_before():
    assert CLUB.first_bidder_offset == 1  # counter-clockwise, right of the dealer
    assert CLUB.with_overrides({"direction": "clockwise"}).first_bidder_offset == -1
    assert PRESETS["partnership-250"].first_bidder_offset == 1  # clockwise, left


def test_a_card_exchange_needs_partnerships():
    with pytest.raises(RulesetError) as exc:
        PRESETS["dabb-app"].with_overrides({"partner_exchange": 4, "partnerships": False})
    assert "partner_exchange" in [e.field for e in exc.value.errors]


def test_json_is_sorted_and_keeps_german_letters():
    """The stored copy of a ruleset is canonical: keys sorted (a diff between two stored
    copies shows only what changed) and "Königliche Hochzeit" as written, not escaped."""
    text = PRESETS["partnership-250"].to_json()
    data = json.loads(text)
    assert "Königliche Hochzeit" in text and "\\u00f6" not in text
    assert list(data) == sorted(data)
    assert text == json.dumps(data, sort_keys=True, ensure_ascii=False)


def test_text_that_is_not_json_is_named_as_such():
    with pytest.raises(RulesetError) as raised:
        Ruleset.from_json("{not json")
    (error,) = raised.value.errors
    assert (error.field, error.code) == ("ruleset", "json")
    assert error.message.startswith("not JSON: Expecting property name")


def test_a_house_rule_covers_its_own_path_and_every_path_below_it():
    ruleset = PRESETS["club-tournament"].with_overrides({"house_rules": ["durch", "abgehen.when"]})
    assert ruleset.is_house_rule("durch")
    assert ruleset.is_house_rule("durch.lost")  # below a listed parameter
    assert ruleset.is_house_rule("abgehen.when")  # a dotted path listed as it is
    assert not ruleset.is_house_rule("abgehen")  # the parent of a listed path is not
    assert not ruleset.is_house_rule("abgehen.partner")
    assert not ruleset.is_house_rule("durch_aufgelegt.won")  # same start, another name
    assert ruleset.is_house_rule("min_bid", "durch.won")  # any of several paths
    assert not ruleset.is_house_rule()


# ------------------------------------ size limits (rules.ruleset_checks.check_limits)


def test_texts_may_reach_their_limit_and_not_one_character_more():
    assert errors_of(name_de="N" * 200) == []
    assert errors_of(name_de="N" * 201) == [
        ("name_de", "too_long", "at most 200 characters (201 given)", {"limit": 200, "length": 201})
    ]
    # the id has its own, shorter limit: a 60-character database column
    assert errors_of(id="i" * 60) == []
    assert errors_of(id="i" * 61) == [
        ("id", "too_long", "at most 60 characters (61 given)", {"limit": 60, "length": 61})
    ]


def test_lists_between_their_fewest_and_most_entries():
    melds = CLUB.to_dict()["melds"]
    assert errors_of(melds=[]) == [
        ("melds", "too_few", "at least 1 entries needed", {"limit": 1, "length": 0})
    ]
    many = [{**melds[0], "id": f"m{i}"} for i in range(41)]
    assert errors_of(melds=many) == [
        ("melds", "too_many", "at most 40 entries (41 given)", {"limit": 40, "length": 41})
    ]


def test_the_parts_of_a_list_are_checked_with_their_path():
    melds = CLUB.to_dict()["melds"]
    long_label = [{**melds[0], "label_de": "L" * 201}, *melds[1:]]
    assert errors_of(melds=long_label) == [
        (
            "melds[0].label_de",
            "too_long",
            "at most 200 characters (201 given)",
            {"limit": 200, "length": 201},
        )
    ]
    assert errors_of(house_rules=["h" * 200]) == []
    assert errors_of(house_rules=["min_bid", "h" * 201]) == [
        ("house_rules[1]", "too_long", "at most 200 characters", {"limit": 200, "length": 201})
    ]


# ------------------------------------ playability (rules.ruleset_checks._check_consistency)

_BASE = CLUB.to_dict()
_PAIR = _BASE["melds"][0]
_FIXED = next(m for m in _BASE["melds"] if m["suit"] == "fixed")
_EXTRA = len(_BASE["melds"])  # the index of a meld added at the end


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"id": ""}, [("id", "id", "must be a non-empty string", {})]),
        ({"deck_size": 36}, [("deck_size", "deck_size", "a Binokel pack has 40 or 48 cards", {})]),
        (
            {"deals": []},
            [
                ("deals", "no_deals", "at least one table size is needed", {}),
                ("partnerships", "partnerships", "partnerships need a 4-seat table", {}),
            ],
        ),
        (
            {"deals": [{"seats": 5, "cards_per_player": 8, "dabb": 0}, FOUR_DEAL]},
            [("deals[0].seats", "table_size", "tables have 2, 3 or 4 players", {})],
        ),
        (
            {"deals": [{"seats": 3, "cards_per_player": 12, "dabb": 4}] * 2 + [FOUR_DEAL]},
            [("deals[1].seats", "twice", "3 seats listed twice", {"value": 3})],
        ),
        (
            {"deals": [{"seats": 3, "cards_per_player": 0, "dabb": 4}, FOUR_DEAL]},
            [
                (
                    "deals[0]",
                    "deal_counts",
                    "cards per player must be positive and the Dabb not negative",
                    {},
                )
            ],
        ),
        (
            {"deals": [{"seats": 3, "cards_per_player": 12, "dabb": 5}, FOUR_DEAL]},
            [
                (
                    "deals[0]",
                    "deal_sum",
                    "3×12 cards + Dabb 5 do not make the 40-card pack",
                    {"seats": 3, "cards": 12, "dabb": 5, "deck": 40},
                )
            ],
        ),
        ({"min_bid": 155}, [("min_bid", "tens", "must be a positive multiple of 10", {})]),
        ({"bid_step": 0}, [("bid_step", "tens", "must be a positive multiple of 10", {})]),
        ({"max_raise": 5}, [("max_raise", "max_raise", "must be at least the bid step", {})]),
        (
            {"card_points": {**_BASE["card_points"], "ace": -1}},
            [("card_points.ace", "negative", "must not be negative", {})],
        ),
        ({"last_trick_bonus": -10}, [("last_trick_bonus", "negative", "must not be negative", {})]),
        (
            {"melds": [*_BASE["melds"], _PAIR]},
            [(f"melds[{_EXTRA}].id", "twice", "meld id 'pair' used twice", {"value": "pair"})],
        ),
        (
            {"melds": [{**_PAIR, "points": 0}, *_BASE["melds"][1:]]},
            [("melds[0].points", "positive", "must be positive", {})],
        ),
        (
            {"melds": [*_BASE["melds"], {**_FIXED, "id": "f2", "ranks": "A"}]},
            [(f"melds[{_EXTRA}]", "meld_shape", "a fixed meld lists its cards and no ranks", {})],
        ),
        (
            {"melds": [*_BASE["melds"], {**_FIXED, "id": "f2", "cards": ["ah", "9H", "ZZ"]}]},
            [
                (
                    f"melds[{_EXTRA}].cards",
                    "card",
                    "'ah' is not a canonical card code",
                    {"value": "ah"},
                ),
                (
                    f"melds[{_EXTRA}].cards",
                    "not_in_pack",
                    "9H is not in a 40-card pack",
                    {"value": "9H", "deck": 40},
                ),
                (
                    f"melds[{_EXTRA}].cards",
                    "card",
                    "'ZZ' has an unknown rank 'Z' (A T K Q J 9/7)",
                    {"value": "ZZ"},
                ),
            ],
        ),
        (
            {"melds": [*_BASE["melds"], {**_PAIR, "id": "s2", "cards": ["AH"]}]},
            [
                (
                    f"melds[{_EXTRA}]",
                    "meld_shape",
                    "a suit or kind meld lists ranks and no cards",
                    {},
                )
            ],
        ),
        (
            {"melds": [*_BASE["melds"], {**_PAIR, "id": "s2", "ranks": "Z9AAA"}]},
            [
                (f"melds[{_EXTRA}].ranks", "card", "unknown rank 'Z'", {"value": "Z"}),
                (
                    f"melds[{_EXTRA}].ranks",
                    "not_in_pack",
                    "rank 9 is not in a 40-card pack",
                    {"value": "9", "deck": 40},
                ),
                (
                    f"melds[{_EXTRA}].ranks",
                    "two_copies",
                    "the pack has only two cards of each rank and suit",
                    {},
                ),
            ],
        ),
        ({"partner_exchange": -1}, [("partner_exchange", "negative", "must not be negative", {})]),
        (
            {"partnerships": False, "partner_exchange": 4},
            [("partner_exchange", "partnerships", "a card exchange needs partnerships", {})],
        ),
        (
            {"durch": {"won": -5, "lost": 0}},
            [("durch", "negative", "won and lost are points, not negative", {})],
        ),
    ],
)
def test_an_unplayable_ruleset_is_refused_with_every_reason(changes, expected):
    """Each check names its field, a code the pages translate, its words and its numbers;
    the club preset with one change breaks exactly that check."""
    assert errors_of(**changes) == expected
