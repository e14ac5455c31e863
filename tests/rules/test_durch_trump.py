"""A Durch without trump: seed 002 ("Der Durch": "Außerdem gibt es beim Durch keinen
Trumpf") and seed 001 ("Der Durch": no trump suit is chosen; "Der Untendurch/Bettel": nor
for a Bettel).  The engine refuses a trump written for such a hand, on field ``trump``; the
ruleset says per preset whether a Durch has a trump (``durch_trump``), and a ruleset stored
before that parameter existed loads with the seed's answer and keeps its fingerprint."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import rules
from rules import PRESETS, Ruleset
from rules.cli import main as cli_main
from rules.scoring import trump_errors

CLUB = PRESETS["club-tournament"]
SWABIAN = PRESETS["swabian-traditional"]
DURCHES = ("durch", "durch-aufgelegt", "durch-ohne-dabb")
DATA = Path(__file__).parent / "data"


def special(outcome: str, **extra) -> dict:
    return {"seats": 3, "declarer": 1, "bid": 300, "outcome": outcome, "won": True, **extra}


@pytest.mark.parametrize("outcome", DURCHES)
@pytest.mark.parametrize("trump", ["C", "S", "H", "D", "h"])
def test_club_tournament_refuses_a_trump_on_every_durch(outcome, trump):
    with pytest.raises(rules.InvalidInput) as info:
        rules.parse_record(CLUB, special(outcome, trump=trump))
    (error,) = info.value.errors
    assert (error.field, error.code) == ("trump", "no_trump_in_special")
    assert error.params == {"outcome": outcome, "trump": trump.upper()}
    assert "without trump" in error.message and "(Trumpf)" in error.message


@pytest.mark.parametrize("outcome", DURCHES)
def test_the_same_durch_without_a_trump_is_scored(outcome):
    record = rules.parse_record(CLUB, special(outcome))
    assert record.trump is None and "trump" not in record.to_dict()
    won = CLUB.special(outcome).won
    assert rules.score_hand(CLUB, record).scores == (0, won, 0)
    # an empty trump (``null``) is no trump
    assert rules.parse_record(CLUB, special(outcome, trump=None)).trump is None


@pytest.mark.parametrize("outcome", [*DURCHES, "bettel"])
def test_swabian_traditional_refuses_a_trump_on_durch_and_bettel(outcome):
    errors = rules.validate_record(SWABIAN, special(outcome, trump="S"))
    assert [(e.field, e.code) for e in errors] == [("trump", "no_trump_in_special")]


def test_a_played_hand_keeps_its_trump_and_a_bad_suit_is_named():
    hand = {"seats": 3, "declarer": 0, "bid": 300, "outcome": "played"}
    hand |= {"melds": [140, 60, 20], "tricks": [175, 45, 30]}
    record = rules.parse_record(CLUB, {**hand, "trump": "s"})
    assert record.trump == "S" and record.to_dict()["trump"] == "S"
    assert rules.score_hand(CLUB, record).scores == (320, 110, 50)
    errors = rules.validate_record(CLUB, {**hand, "trump": "X"})
    assert [(e.field, e.code) for e in errors] == [("trump", "trump")]
    # a concession names a trump where the rules say so (seed 001 "Abgehen")
    abgehen = {"seats": 3, "declarer": 0, "bid": 300, "outcome": "abgehen", "melds": [0, 0, 0]}
    assert rules.parse_record(SWABIAN, {**abgehen, "trump": "D"}).trump == "D"


def test_first_lead_rulesets_write_the_trump_of_a_durch_but_never_of_a_bettel():
    regional = SWABIAN.with_overrides({"durch_trump": "first-lead"})
    assert rules.parse_record(regional, special("durch", trump="H")).trump == "H"
    assert rules.parse_record(regional, special("durch-ohne-dabb", trump="C")).trump == "C"
    errors = rules.validate_record(regional, special("bettel", trump="H"))
    assert [(e.field, e.code) for e in errors] == [("trump", "no_trump_in_special")]
    assert regional.outcomes_without_trump == ("bettel",)


def test_trump_errors_and_plays_without_trump():
    assert trump_errors(CLUB, "durch", None) == []
    assert trump_errors(CLUB, "played", "H") == []
    assert [e.params for e in trump_errors(CLUB, "durch-aufgelegt", "D")] == [
        {"outcome": "durch-aufgelegt", "trump": "D"}
    ]
    assert CLUB.outcomes_without_trump == DURCHES
    assert SWABIAN.outcomes_without_trump == (*DURCHES, "bettel")
    for ruleset in (PRESETS["dabb-app"], PRESETS["partnership-250"]):
        assert ruleset.outcomes_without_trump == ()  # no Durch, no Bettel
        assert ruleset.plays_without_trump("durch")  # … and should one be added: no trump
    assert not CLUB.plays_without_trump("played") and not CLUB.plays_without_trump("abgehen")


def test_each_preset_takes_its_value_from_its_seed_or_marks_the_choice():
    assert CLUB.durch_trump == SWABIAN.durch_trump == "none"
    assert not CLUB.is_house_rule("durch_trump")  # seed 002 says it
    # seed 001 gives no trump as the rule but also names the first card's suit as a
    # regional custom: a choice between two, so the handout marks it (issue 26)
    assert SWABIAN.is_house_rule("durch_trump")
    for preset_id in ("dabb-app", "partnership-250"):  # seeds 003 and 000 have no Durch
        assert PRESETS[preset_id].durch_trump == "none"
        assert PRESETS[preset_id].is_house_rule("durch_trump")


def test_seed_002_plays_the_durch_without_trump():
    folder = None
    if os.environ.get("BINOKEL_SEEDS"):
        folder = Path(os.environ["BINOKEL_SEEDS"])
    for parent in Path(__file__).resolve().parents:
        if (parent / "shared" / "seeds").is_dir():
            folder = parent / "shared" / "seeds"
            break
    if folder is None:
        pytest.skip("shared/seeds not found beside the checkout")
    text = (folder / "002_e9b63760e01ef2f9.txt").read_text(encoding="utf-8")
    section = text.split("Der Durch:", 1)[1].split("Verlorene Spiele", 1)[0]
    assert "Außerdem gibt es beim Durch keinen Trumpf." in section
    assert CLUB.source.startswith("seed 002")


def test_a_ruleset_stored_without_durch_trump_loads_with_no_trump_and_its_fingerprint():
    stored = CLUB.to_dict()
    assert stored.pop("durch_trump") == "none"
    loaded = Ruleset.from_dict(stored)  # the stored fingerprint must still match
    assert loaded.durch_trump == "none" and loaded.fingerprint == CLUB.fingerprint
    old = json.loads((DATA / "club-tournament-v1.json").read_text(encoding="utf-8"))
    assert "durch_trump" not in old
    assert Ruleset.from_dict(old).plays_without_trump("durch")


def test_durch_trump_counts_in_the_fingerprint_only_away_from_its_default():
    regional = CLUB.with_overrides({"durch_trump": "first-lead"})
    assert regional.fingerprint != CLUB.fingerprint
    assert Ruleset.from_json(regional.to_json()) == regional
    with pytest.raises(rules.RulesetError) as info:
        CLUB.with_overrides({"durch_trump": "led"})
    assert [(e.field, e.code) for e in info.value.errors] == [("durch_trump", "choice")]


def test_the_command_line_refuses_a_trump_on_a_durch(capsys, monkeypatch):
    import io

    line = json.dumps({"ruleset": "club-tournament", **special("durch", trump="H")})
    monkeypatch.setattr("sys.stdin", io.StringIO(line + "\n"))
    status = cli_main(["score"])
    out = json.loads(capsys.readouterr().out)
    assert status == 2
    assert out == {
        "errors": [
            {
                "field": "trump",
                "message": "a durch is played without trump under club-tournament: "
                "leave the trump (Trumpf) empty, not H",
            }
        ]
    }
