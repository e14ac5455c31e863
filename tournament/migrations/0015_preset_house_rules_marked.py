"""Stored rulesets learn the presets' newer house-rule marks.

A tournament keeps a frozen copy of its ruleset (``ruleset_json``), house rules included.
The presets have since listed more of the choices their seed texts leave open (the direction
of play, when conceding is allowed, the partner at four, exact scoring in dabb-app), and
the handout marks a sentence "Turnierregel" from the copy's list.  House rules describe a
ruleset and are not part of its fingerprint, so adding the preset's marks to a copy made
from it changes no score; marks are only added, never removed.
"""

from django.db import migrations


def add_preset_marks(apps, schema_editor):
    from rules import PRESETS

    Tournament = apps.get_model("tournament", "Tournament")
    for tournament in Tournament.objects.only("pk", "ruleset_json").iterator():
        data = tournament.ruleset_json
        preset = PRESETS.get(data.get("id")) if isinstance(data, dict) else None
        if preset is None:
            continue
        stored = list(data.get("house_rules") or [])
        added = [key for key in preset.house_rules if key not in stored]
        if added:
            data["house_rules"] = stored + added
            Tournament.objects.filter(pk=tournament.pk).update(ruleset_json=data)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0014_tournament_is_demo")]

    operations = [migrations.RunPython(add_preset_marks, migrations.RunPython.noop)]
