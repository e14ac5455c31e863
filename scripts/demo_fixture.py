"""Add the demo series to fixtures/demo.json: two earlier, finished evenings and a series
over them and the demo tournament (tournament 1, still running).

Run from the project folder: ``.venv/bin/python scripts/demo_series_fixture.py``.  It
loads the fixture into a temporary SQLite database, plays the two evenings with
``manage.py generate_tournament`` (about 20 of 30 players come back each evening, so the
series recognises them), creates the series and writes everything back to the fixture.
Objects already in the fixture keep their primary keys and values; the script refuses to
run twice (the fixture must hold one tournament).
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
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command

        from tournament.models import Series, Tournament
        from tournament.series import save_series

        call_command("migrate", verbosity=0)
        call_command("loaddata", str(FIXTURE), verbosity=0)
        if Tournament.objects.count() != 1:
            raise SystemExit("fixtures/demo.json must hold exactly the demo tournament")
        before = {(o["model"], o.get("pk")) for o in json.loads(FIXTURE.read_text())}
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
        call_command("dumpdata", *MODELS, natural_foreign=True, indent=1, stdout=out)
        added = [o for o in json.loads(out.getvalue()) if (o["model"], o.get("pk")) not in before]
    # appended in dumpdata's layout, so the objects already there stay byte for byte
    text = FIXTURE.read_text().rstrip()
    assert text.endswith("]")
    items = ",\n".join(json.dumps(o, indent=1, ensure_ascii=False) for o in added)
    FIXTURE.write_text(text[:-1].rstrip() + ",\n" + items + "\n]\n")
    print(f"{len(added)} objects added to {FIXTURE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
