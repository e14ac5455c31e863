"""Migration 0015: a stored copy of a preset learns the preset's newer house-rule marks
(the handout's "Turnierregel"), and nothing else of it changes."""

from __future__ import annotations

from datetime import date

import pytest

from rules import PRESETS

BEFORE = [("tournament", "0014_tournament_is_demo")]
AFTER = [("tournament", "0015_preset_house_rules_marked")]


@pytest.mark.django_db(transaction=True)
def test_stored_presets_gain_the_new_marks_and_keep_everything_else():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    Tournament = executor.loader.project_state(BEFORE).apps.get_model("tournament", "Tournament")
    club = PRESETS["club-tournament"].to_dict()
    # as stored before the presets marked conceding's moment and the partner at four
    old_marks = [k for k in club["house_rules"] if k not in ("abgehen.when", "abgehen.partner")]
    old_club = {**club, "house_rules": [*old_marks, "a-club-mark"]}
    custom = {**club, "id": "my-club", "house_rules": ["min_bid"]}
    made = {
        name: Tournament.objects.create(
            name=name, date=date(2026, 11, 1), preset="p", ruleset_json=data,
            ruleset_fingerprint=data["fingerprint"],
        ).pk
        for name, data in (("old", old_club), ("custom", custom))
    }  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    Tournament = executor.loader.project_state(AFTER).apps.get_model("tournament", "Tournament")
    old = Tournament.objects.get(pk=made["old"]).ruleset_json
    assert old["house_rules"] == [*old_marks, "a-club-mark", "abgehen.when", "abgehen.partner"]
    assert {k: v for k, v in old.items() if k != "house_rules"} == {
        k: v for k, v in club.items() if k != "house_rules"
    }
    # a ruleset that is no preset keeps its own list
    assert Tournament.objects.get(pk=made["custom"]).ruleset_json == custom
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
