"""The demo (fixtures/demo.json) is made on the current presets: every tournament in it
carries exactly its preset's current ruleset, so the demo's handout and score sheets say
what the club's own evening will say (issue 24.3: the demo's main tournament was frozen on
version 1 of ``club-tournament``, whose handout had the player *left* of the dealer bid
first; seed 002 and the current preset say *right*)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.presets import PRESETS
from rules.ruleset import Ruleset

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "demo.json"


def demo_tournaments() -> list[dict]:
    """The ``tournament.tournament`` objects' fields in the demo fixture."""
    objects = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return [o["fields"] for o in objects if o["model"] == "tournament.tournament"]


@pytest.mark.parametrize("fields", demo_tournaments(), ids=lambda f: f["name"])
def test_each_demo_tournament_carries_its_presets_current_ruleset(fields):
    preset = PRESETS[fields["preset"]]
    stored = Ruleset.from_dict(fields["ruleset_json"])
    assert stored.id == preset.id
    assert stored.version == preset.version, (
        f"{fields['name']}: {preset.id} version {stored.version}, current is {preset.version};"
        " make the demo again (README, fixtures/demo.json)"
    )
    assert fields["ruleset_json"] == preset.to_dict()
    assert fields["ruleset_fingerprint"] == preset.fingerprint


def test_the_demo_has_its_three_evenings():
    # the main running evening and two finished ones for the series
    assert len(demo_tournaments()) == 3
