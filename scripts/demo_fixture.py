"""Make fixtures/demo.json again from scratch, on the presets' current versions: the demo
tournament (tournament 1, "Preisbinokel Plochingen", half of round 3 entered) with the
demo logins, two earlier, finished evenings, and a series over all three.

Run from the project folder after a preset changes: ``.venv/bin/python
scripts/demo_fixture.py``.  It builds everything in a temporary SQLite database with
``manage.py generate_tournament`` (hands dealt and played out by the rules engine; fixed
seeds, so the same code makes the same demo; about 20 of 30 players come back each
evening, so the series recognises them), then dumps it over the fixture.
tests/operations/test_demo_fixture.py fails while a demo tournament's ruleset is not its preset's
current version.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from datetime import date
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "fixtures" / "demo.json"

EVENINGS = (
    # name, date, venue, seed
    ("Binokel-Abend Wendlingen", "2026-10-17", "Wendlingen, TSV-Heim", 2024),
    ("Kartlerabend Esslingen", "2026-11-07", "Esslingen, Zum Hirsch", 2025),
)
MODELS = (
    "auth.user",
    "tournament.player",
    "tournament.tournament",
    "tournament.registration",
    "tournament.round",
    "tournament.table",
    "tournament.seat",
    "scoring.hand",
    "scoring.historicalhand",
    "scoring.seatscore",
    "tournament.series",
)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/demo.sqlite3"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command

        from series.services import save_series
        from tournament.models import Series, Tournament

        call_command("migrate", verbosity=0)
        # the running demo evening first, so that it is tournament 1
        call_command("generate_tournament", demo_users=True, stdout=StringIO())
        for name, day, venue, seed in EVENINGS:
            call_command(
                "generate_tournament",
                name=name,
                date=date.fromisoformat(day),
                venue=venue,
                players=30,
                returning=20,
                seed=seed,
                last_round=1.0,
                finish=True,
                stdout=StringIO(),
            )
        save_series(
            name="Binokel-Triathlon Neckar",
            season="2026",
            tournaments=list(Tournament.objects.order_by("date")),
            counting=Series.Counting.PLACEMENT,
            placement_points="25,20,16,13,11,10,9,8,7,6,5,4,3,2,1",
            min_evenings=2,
        )
        out = StringIO()
        call_command("dumpdata", *MODELS, natural_foreign=True, natural_primary=True, stdout=out)
        objects = json.loads(out.getvalue())
    text = ",\n".join(json.dumps(o, indent=1, ensure_ascii=False) for o in objects)
    FIXTURE.write_text("[\n" + text + "\n]\n", encoding="utf-8")
    print(f"{len(objects)} objects written to {FIXTURE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
