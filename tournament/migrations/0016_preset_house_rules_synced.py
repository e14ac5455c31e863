"""Stored copies of an unchanged preset take the preset's current house-rule marks.

Issue 37 read the handout against the seed texts: the direction of play in
swabian-traditional is the seed's own rule (seed 001), not the tournament's choice, and the
club-tournament's lost-game score is the tournament's reading of seed 002.  House rules
only mark sentences of the handout; they are not part of the ruleset's fingerprint, so a
copy whose fingerprint is still the preset's has exactly the preset's rules and takes its
list as it is now (marks removed as well as added).  A copy that differs from its preset
(a club's own changes) keeps its marks.
"""

from django.db import migrations


def sync_preset_marks(apps, schema_editor):
    from rules import PRESETS

    Tournament = apps.get_model("tournament", "Tournament")
    rows = Tournament.objects.only("pk", "ruleset_json", "ruleset_fingerprint").iterator()
    for tournament in rows:
        data = tournament.ruleset_json
        preset = PRESETS.get(data.get("id")) if isinstance(data, dict) else None
        if preset is None or tournament.ruleset_fingerprint != preset.fingerprint:
            continue
        marks = list(preset.house_rules)
        if list(data.get("house_rules") or []) != marks:
            data["house_rules"] = marks
            Tournament.objects.filter(pk=tournament.pk).update(ruleset_json=data)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0015_preset_house_rules_marked")]

    operations = [migrations.RunPython(sync_preset_marks, migrations.RunPython.noop)]
