"""``python -m rules``: the JSON-lines contract of docs/rules-engine.md, run as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(command: str, *lines: object) -> tuple[int, list[dict]]:
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    proc = subprocess.run(
        [sys.executable, "-m", "rules", command],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.stderr == ""
    return proc.returncode, [json.loads(out) for out in proc.stdout.splitlines()]


def test_score_contract_example():
    status, out = run(
        "score",
        {
            "ruleset": "club-tournament",
            "seats": 3,
            "declarer": 0,
            "bid": 300,
            "outcome": "played",
            "melds": [140, 60, 20],
            "tricks": [175, 45, 30],
            "tricks_taken": [6, 4, 2],
        },
    )
    assert status == 0
    assert out == [{"scores": [320, 110, 50], "declarer_won": True}]


def test_score_special_game_and_full_ruleset_object():
    ruleset = json.loads(
        subprocess.run(
            [sys.executable, "-m", "rules", "presets"], capture_output=True, text=True, cwd=ROOT
        ).stdout.splitlines()[0]
    )
    assert ruleset["id"] == "club-tournament"
    status, out = run(
        "score",
        {
            "ruleset": ruleset,
            "seats": 3,
            "declarer": 1,
            "bid": 200,
            "outcome": "durch-aufgelegt",
            "won": True,
        },
    )
    assert status == 0
    assert out == [{"scores": [0, 1500, 0], "declarer_won": True}]


def test_score_with_overridden_preset():
    # a club that plays the lost game at -(bid+100) instead of -2x bid
    status, out = run(
        "score",
        {
            "ruleset": {
                "base": "club-tournament",
                "lost": {"declarer": {"bid_factor": 1, "extra": 100}},
            },
            "seats": 3,
            "declarer": 0,
            "bid": 400,
            "outcome": "played",
            "melds": [140, 60, 20],
            "tricks": [175, 45, 30],
        },
    )
    assert status == 0
    assert out == [{"scores": [-500, 210, 150], "declarer_won": False}]


def test_meld_contract():
    status, out = run(
        "meld",
        {
            "ruleset": "club-tournament",
            "trump": "H",
            "cards": ["AH", "TH", "KH", "QH", "JH", "KS", "QS", "KC", "QC", "KD", "QD", "JD"],
        },
    )
    assert status == 0
    (result,) = out
    # trump family 150 + three pairs 60 + four kings 80 + four Ober 60 + Binokel 40
    assert result["total"] == 390
    assert sorted(m["name"] for m in result["melds"]) == [
        "binokel",
        "four-kings",
        "four-obers",
        "pair",
        "pair",
        "pair",
        "trump-family",
    ]
    assert all(set(m) == {"name", "points", "cards"} for m in result["melds"])
    assert sum(m["points"] for m in result["melds"]) == 390


def test_meld_range_contract():
    status, out = run(
        "meld-range",
        {"ruleset": "club-tournament", "hand_size": 12},
        {"ruleset": "partnership-250", "hand_size": 12},
        {"ruleset": "club-tournament", "hand_size": 41},
        {"ruleset": "club-tournament", "hand_size": "12"},
        {"ruleset": "club-tournament"},
        {"ruleset": "no-such-preset", "hand_size": 12},
    )
    assert status == 2
    club, partners, *errors = out
    assert club["max"] == 1380 == club["totals"][-1]
    assert club["totals"] == sorted(set(club["totals"]))
    assert club["totals"][:3] == [0, 20, 40] and 10 not in club["totals"]
    assert 10 in partners["totals"]  # the Dix
    assert [e["errors"][0]["field"] for e in errors] == [
        "hand_size",
        "hand_size",
        "hand_size",
        "ruleset",
    ]


def test_score_warns_of_a_rare_meld_and_refuses_an_impossible_one():
    hand = {"ruleset": "club-tournament", "seats": 3, "declarer": 0, "bid": 300}
    hand |= {"outcome": "played", "tricks": [175, 45, 30]}
    status, out = run("score", {**hand, "melds": [1000, 60, 20]}, {**hand, "melds": [3000, 60, 20]})
    assert status == 2
    rare, impossible = out
    assert rare["scores"] == [1180, 110, 50]
    assert [w["field"] for w in rare["warnings"]] == ["melds[0]"]
    assert impossible == {
        "errors": [
            {
                "field": "melds[0]",
                "message": "meld 3000 is not possible with 12 cards; "
                "the highest possible total is 1380",
            }
        ]
    }


def test_check_play_contract_example():
    status, out = run(
        "check-play",
        {
            "ruleset": "partnership-250",
            "trump": "S",
            "trick": ["QH"],
            "hand": ["9H", "TH", "AH"],
            "card": "9H",
        },
    )
    assert status == 0
    assert out == [
        {"legal": False, "rule": "must-win-trick", "legal_cards": ["TH", "AH"], "winner": 0}
    ]


def test_one_answer_per_line_in_order_and_exit_status_2_on_any_error():
    good = {
        "ruleset": "dabb-app",
        "seats": 3,
        "declarer": 2,
        "bid": 150,
        "outcome": "abgehen",
        "melds": [20, 0, 60],
    }
    status, out = run("score", good, "not json", [1, 2], {"ruleset": "dabb-app", "seats": 3}, good)
    assert status == 2
    assert len(out) == 5
    assert out[0] == {"scores": [60, 40, -150], "declarer_won": False}
    assert out[1]["errors"][0]["field"] == "line"
    assert out[2]["errors"][0]["field"] == "line"
    fields = {e["field"] for e in out[3]["errors"]}
    assert {"declarer", "bid", "outcome"} <= fields
    assert all(set(e) == {"field", "message"} and e["message"] for e in out[3]["errors"])
    assert out[4] == out[0]


@pytest.mark.parametrize(
    ("command", "line", "field"),
    [
        ("meld", {"ruleset": "club-tournament", "trump": "X", "cards": ["AH"]}, "trump"),
        ("meld", {"ruleset": "club-tournament", "trump": "H", "cards": ["9H"]}, "cards[0]"),
        (
            "meld",
            {"ruleset": "club-tournament", "trump": "H", "cards": ["AH", "AH", "AH"]},
            "cards",
        ),
        ("meld", {"ruleset": "nope", "trump": "H", "cards": []}, "ruleset"),
        ("meld", {"trump": "H", "cards": []}, "ruleset"),
        (
            "check-play",
            {"ruleset": "dabb-app", "trump": "S", "trick": [], "hand": ["AH"], "card": "TH"},
            "card",
        ),
        (
            "check-play",
            {
                "ruleset": "dabb-app",
                "trump": "S",
                "trick": ["AH", "AH"],
                "hand": ["AH"],
                "card": "AH",
            },
            "hand",
        ),
        (
            "score",
            {"ruleset": {"base": "club-tournament", "min_bid": "150"}, "seats": 3},
            "ruleset.min_bid",
        ),
        (
            "score",
            {
                "ruleset": "club-tournament",
                "seats": 3,
                "declarer": 0,
                "bid": 150,
                "outcome": "played",
                "melds": [0, 0, 0],
                "tricks": [250, 0, 0],
                "penalty": {"type": "falsch-druecken", "seat": 1},
            },
            "penalty.seat",
        ),
    ],
)
def test_invalid_lines_name_their_field(command, line, field):
    status, out = run(command, line)
    assert status == 2
    assert field in [e["field"] for e in out[0]["errors"]]


def test_blank_lines_are_skipped_and_empty_input_is_fine():
    status, out = run("score", "", "   ")
    assert (status, out) == (0, [])


def test_unknown_command_is_a_usage_error():
    proc = subprocess.run(
        [sys.executable, "-m", "rules", "frobnicate"], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 2
    assert "invalid choice" in proc.stderr
