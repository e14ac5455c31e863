"""The round-close backup runs inside the server process: it must leave SQLite's locks on
the live database alone.

On POSIX, closing *any* descriptor of a file drops every lock the process holds on it,
SQLite's too.  If the server process opened the live file with ``open()`` (to read its
header, say), the next process to use the database and exit believes it is the last one,
checkpoints and deletes ``-wal`` and ``-shm`` under the running server.  These tests run
the "server" in a real second process, as gunicorn's worker does.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.db import connection

from archive import backup
from tests.factories.backups import file_copy_of_test_database

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="SQLite file locking (PostgreSQL uses pg_dump)"
)

SERVER = textwrap.dedent(
    """
    import sys

    import django

    django.setup()
    from django.db import connection

    from archive.signals import backup_after_close

    def integrity():
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA integrity_check")
            return cursor.fetchone()[0]

    with connection.cursor() as cursor:  # the worker has served a page: its connection is open
        cursor.execute("SELECT count(*) FROM tournament_player")
    for number in range(1, int(sys.argv[1]) + 1):
        backup_after_close(None, round_number=number)  # what closing round N does in venue mode
        print("closed", number, flush=True)
        sys.stdin.readline()  # meanwhile another process uses the database and exits
        with connection.cursor() as cursor:  # a clerk saves the next hand
            cursor.execute(
                "UPDATE tournament_player SET club = club || '.' WHERE id = "
                "(SELECT min(id) FROM tournament_player)"
            )
        print("integrity", integrity(), flush=True)
    """
)


def _environment(live: Path, backups: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{live}",
        BINOKEL_BACKUP_DIR=str(backups),
    )
    return env


def _wal_files(live: Path) -> dict[str, bool]:
    return {suffix: Path(f"{live}{suffix}").exists() for suffix in ("-wal", "-shm")}


@pytest.mark.django_db(transaction=True)
def test_wal_and_shm_survive_round_closes_followed_by_manage_py_commands(played, tmp_path):  # noqa: F811
    live = file_copy_of_test_database(tmp_path / "binokel.sqlite3")
    backups = tmp_path / "sicherungen"
    env = _environment(live, backups)
    closes = 3
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(closes)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for number in range(1, closes + 1):
            assert server.stdout.readline().split() == ["closed", str(number)], server.stderr
            assert _wal_files(live) == {"-wal": True, "-shm": True}
            # the venue's 10-minute timer, or any manage.py command, comes and goes
            other = subprocess.run(
                [sys.executable, "manage.py", "backup_db", str(backups)],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert other.returncode == 0, other.stderr
            assert _wal_files(live) == {"-wal": True, "-shm": True}, (
                f"after round {number}'s close and a manage.py command the server's "
                "write-ahead log was deleted under it"
            )
            server.stdin.write("\n")
            server.stdin.flush()
            assert server.stdout.readline().split() == ["integrity", "ok"]
        assert server.wait(timeout=60) == 0, server.stderr.read()
    finally:
        if server.poll() is None:
            server.kill()
    assert len(backup.automatic_backups(backups)) == closes
    check = sqlite3.connect(live)
    assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    check.close()


def test_the_backup_reads_no_live_file_outside_sqlite(tmp_path, monkeypatch):
    """Unit check of the rule behind the test above: neither the backup nor the inspection
    of the live database opens it with Python's ``open()``."""
    live = tmp_path / "live.sqlite3"
    conn = sqlite3.connect(live)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    opened = []
    real_open = open

    def spy(file, *args, **kwargs):
        if str(file).startswith(str(live)):
            opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", spy)
    made = backup.backup_database(live, tmp_path / "copy.sqlite3")
    assert made.integrity == "ok"
    assert opened == []
    conn.close()


def test_backup_files_are_readable_by_their_owner_only(tmp_path):
    """A backup holds session keys, password hashes and personal data: mode 0600, also
    when the umask would allow more."""
    live = tmp_path / "live.sqlite3"
    conn = sqlite3.connect(live)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    old = os.umask(0o022)
    try:
        made = backup.backup_database(live, tmp_path / "copy.sqlite3")
        auto = tmp_path / "auto"
        auto.mkdir()
        again = backup.backup_database(live, auto)
    finally:
        os.umask(old)
    for path in (made.path, again.path):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
