"""An evening's database made before the issue-39 split migrates and shows the same
standings (issue 39: "no migration changes data").

``tests/data/db-before-issue-39.sqlite3`` was made by the code of commit d3b4ddf (main
before the split) with ``generate_tournament``: "Alt 1" (13 players, 3 rounds of 6 games,
club-tournament, finished) and "Alt 2" (10 players, 5 of them returning, 2 rounds,
swabian-traditional, the last round half entered).  ``standings-before-issue-39.json``
holds the standings that code showed for each, overall and per round: start number,
total, place, points per round, games won and lost, provisional entries.  The test
migrates a copy with today's code (a subprocess, as a director's laptop would) and asks
today's selectors for the same standings.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.factories.backups import manage_on

DATA = Path(__file__).resolve().parent.parent / "data"

_STANDINGS_SCRIPT = """
import json
from scoring import selectors
from tournament.models import Tournament
out = {}
for t in Tournament.objects.order_by("pk"):
    views = {"overall": None, **{str(n): n for n in range(1, t.rounds + 1)}}
    out[t.name] = {
        key: [[r.start_number, r.total, r.rank, r.rounds, r.won, r.lost, r.provisional]
              for r in selectors.standings(t, n, public=False)]
        for key, n in views.items()
    }
print(json.dumps(out))
"""


def test_a_database_from_before_the_split_migrates_with_the_same_standings(tmp_path):
    db = tmp_path / "abend.sqlite3"
    shutil.copyfile(DATA / "db-before-issue-39.sqlite3", db)
    applied = manage_on(db, "migrate", "-v1")
    assert "0017_games_per_round_bounds" in applied  # the old file lacked it
    found = json.loads(manage_on(db, "shell", "-c", _STANDINGS_SCRIPT).strip().splitlines()[-1])
    expected = json.loads((DATA / "standings-before-issue-39.json").read_text("utf-8"))
    assert found == expected
    assert [len(found[name]["overall"]) for name in ("Alt 1", "Alt 2")] == [13, 10]
