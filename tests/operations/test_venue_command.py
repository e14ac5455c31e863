"""Issue 37.28: the README's management commands on the venue's data folder.
``scripts/venue --data DIR --befehl …`` runs a command on that folder's database; a command
that would open a missing SQLite database says so in German and creates nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from operations import venue

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args: str, database: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{database}",
    }
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_missing_database_is_named_in_german_and_not_created(tmp_path):
    missing = tmp_path / "nirgends" / "db.sqlite3"
    missing.parent.mkdir()
    for command in (
        ["export_site", "1", str(tmp_path / "site.zip")],
        ["backup_db", str(tmp_path / "backup.sqlite3")],
        ["print_round", "1", "1", "--out", str(tmp_path / "out")],
        ["export_tournament", "1", str(tmp_path / "t.json")],
    ):
        done = _manage(*command, database=missing, cwd=tmp_path)
        assert done.returncode == 1, (command, done.stderr)
        assert "Keine Datenbank unter" in done.stderr and "Traceback" not in done.stderr
        assert not missing.exists(), command
    assert list(missing.parent.iterdir()) == []


def test_venue_runs_a_command_on_its_data_folder(tmp_path, capsys, monkeypatch):
    data = tmp_path / "Binokel-Turnier"
    # no folder, no database: a German word, nothing made
    assert venue.main(["--data", str(data), "--befehl", "backup_db", "x.sqlite3"]) == 1
    assert "keine Datenbank" in capsys.readouterr().err and not data.exists()
    # a folder the venue has set up (its database migrated)
    data.mkdir()
    venue.ensure_secret_key(data / venue.SECRET_FILE)
    database = data / venue.DATABASE_FILE
    assert _manage("migrate", "-v0", database=database, cwd=tmp_path).returncode == 0
    monkeypatch.setenv("BINOKEL_CALLER_DIR", str(tmp_path))
    status = venue.main(["--data", str(data), "--befehl", "backup_db", "sicherung.sqlite3"])
    assert status == 0
    # the relative path is where the command was typed, the backup a copy of that database
    assert (tmp_path / "sicherung.sqlite3").stat().st_size > 0
    assert venue.main(["--data", str(data), "--befehl"]) == 2
