"""A backup file is a trust boundary: ``restore_db`` puts back only this program's own
schema and accounts it can explain (security review, round 3, finding 10)."""

from __future__ import annotations

import re
import sqlite3
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from archive import backup
from tests.factories.backups import file_copy_of_test_database, file_row_counts, small_database

pytestmark = [
    pytest.mark.skipif(connection.vendor != "sqlite", reason="restores SQLite files"),
    pytest.mark.django_db(transaction=True),
]


def _tampered(source: Path, path: Path, *statements: str) -> Path:
    """A backup of ``source`` with ``statements`` run on it, as a hostile file would be."""
    backup.backup_database(source, path)
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()
    return path


def _add_user(conn_path: Path, username: str, superuser: bool = True) -> None:
    conn = sqlite3.connect(conn_path)
    conn.execute(
        "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, "
        "email, is_staff, is_active, date_joined) VALUES (?, ?, ?, '', '', '', ?, 1, "
        "'2026-11-21 18:00:00')",
        (make_password("x-" + username), int(superuser), username, int(superuser)),
    )
    conn.commit()
    conn.close()


@pytest.fixture
def live(played, tmp_path):
    return file_copy_of_test_database(tmp_path / "live.sqlite3")


@pytest.mark.parametrize(
    ("statement", "named"),
    [
        (
            "CREATE TRIGGER wipe AFTER INSERT ON scoring_hand BEGIN "
            "DELETE FROM scoring_seatscore; END",
            "Trigger »wipe«",
        ),
        ("CREATE VIEW everyone AS SELECT * FROM tournament_player", "Sicht (View) »everyone«"),
        ("CREATE TABLE notes (text)", "fremde Tabelle »notes«"),
        # issue 38.4: an index can refuse writes (there: the second hand of a table; here:
        # a second player of the same last name)
        (
            "CREATE UNIQUE INDEX one_name ON tournament_player (last_name)",
            "eindeutiger Index »one_name« auf tournament_player (last_name)",
        ),
        # issue 38.5: content the program never makes
        (
            "UPDATE tournament_player SET first_name = printf('%.*c', 200000, 'x') "
            "WHERE id = (SELECT min(id) FROM tournament_player)",
            "zu lange Werte in tournament_player.first_name (höchstens 100 Zeichen)",
        ),
        (
            "UPDATE scoring_seatscore SET hand_id = 999999 "
            "WHERE id = (SELECT min(id) FROM scoring_seatscore)",
            "Verweise ins Leere (scoring_seatscore Zeile",
        ),
        (
            "UPDATE tournament_tournament SET rounds = 'drei'",
            "Werte der falschen Art in tournament_tournament.rounds",
        ),
    ],
)
def test_a_backup_with_objects_the_program_does_not_create_is_refused(
    live, tmp_path, statement, named
):
    hostile = _tampered(live, tmp_path / "hostile.sqlite3", statement)
    before = file_row_counts(live)
    with pytest.raises(backup.BackupError, match=re.escape(named)):
        backup.restore_database(hostile, live)
    assert file_row_counts(live) == before
    out = StringIO()
    with pytest.raises(CommandError, match=re.escape(named)):
        backup_cmd(hostile, live, out)
    assert file_row_counts(live) == before
    assert not list(tmp_path.glob("*vor-wiederherstellung*"))  # refused before anything


def backup_cmd(path: Path, live: Path, out: StringIO, *flags: str) -> None:
    from unittest import mock

    with mock.patch.object(backup, "configured_database", lambda alias="default": live):
        call_command("restore_db", str(path), "--yes", *flags, stdout=out)


def test_an_extra_superuser_is_refused_unless_accepted(live, tmp_path):
    _add_user(live, "leitung")  # the evening's own director
    hostile = tmp_path / "hostile.sqlite3"
    backup.backup_database(live, hostile)
    _add_user(hostile, "hintertuer")
    with pytest.raises(backup.BackupError, match="hintertuer") as refused:
        backup.restore_database(hostile, live)
    assert "leitung" not in str(refused.value)  # the known director is explained
    out = StringIO()
    backup_cmd(hostile, live, out, "--neue-konten")
    assert "director, hintertuer, leitung" in out.getvalue()  # listed for the operator to read
    conn = sqlite3.connect(live)
    assert conn.execute("SELECT count(*) FROM auth_user WHERE username='hintertuer'").fetchone()
    conn.close()


def test_a_new_laptop_takes_the_backup_and_names_its_director_accounts(live, tmp_path):
    _add_user(live, "leitung")
    made = backup.backup_database(live, tmp_path / "evening.sqlite3")
    fresh = tmp_path / "fresh" / "binokel.sqlite3"
    fresh.parent.mkdir()
    result = backup.restore_database(made.path, fresh)
    assert result.privileged == ["director", "leitung"]  # by group, and a superuser
    assert file_row_counts(fresh) == file_row_counts(live)


@pytest.mark.parametrize(
    ("statements", "named"),
    [
        (
            [
                "INSERT INTO auth_user_user_permissions (user_id, permission_id) "
                "SELECT (SELECT id FROM auth_user WHERE username='clerk'), "
                "(SELECT id FROM auth_permission WHERE codename='change_round')"
            ],
            "eigene Rechte für clerk",
        ),
        (
            [
                "INSERT INTO auth_group_permissions (group_id, permission_id) "
                "SELECT (SELECT id FROM auth_group WHERE name='Schreiber'), "
                "(SELECT id FROM auth_permission WHERE codename='change_round')"
            ],
            "Gruppe »Schreiber« mit Rechten, die ihre Rolle nicht hat: tournament.change_round",
        ),
        (["INSERT INTO auth_group (name) VALUES ('Admins')"], "unbekannte Gruppe »Admins«"),
    ],
)
def test_rights_outside_the_two_roles_are_refused(live, tmp_path, statements, named):
    hostile = _tampered(live, tmp_path / "hostile.sqlite3", *statements)
    with pytest.raises(backup.BackupError, match=re.escape(named)):
        backup.restore_database(hostile, live)


def test_the_program_s_own_backup_passes_every_check(live, tmp_path):
    made = backup.backup_database(live, tmp_path / "evening.sqlite3")
    conn = sqlite3.connect(made.path)
    try:
        assert backup.foreign_objects(conn) == []
        assert backup.unexplained_accounts(conn, set(backup.privileged_accounts(live))) == []
    finally:
        conn.close()
    assert backup.restore_database(made.path, live).restored.integrity == "ok"


def test_a_director_by_group_alone_counts_as_privileged(live, tmp_path):
    _add_user(live, "leitung")
    hostile = tmp_path / "hostile.sqlite3"
    backup.backup_database(live, hostile)
    _add_user(hostile, "gruppenleiter", superuser=False)
    conn = sqlite3.connect(hostile)
    conn.execute(
        "INSERT INTO auth_user_groups (user_id, group_id) SELECT "
        "(SELECT id FROM auth_user WHERE username='gruppenleiter'), "
        "(SELECT id FROM auth_group WHERE name='Turnierleitung')"
    )
    conn.commit()
    conn.close()
    with pytest.raises(backup.BackupError, match="gruppenleiter"):
        backup.restore_database(hostile, live)


def test_a_locked_database_is_never_moved_aside(tmp_path, monkeypatch):
    """A safety copy that fails because the database is busy (a server still writing)
    refuses the restore and moves nothing: the server keeps its file."""
    monkeypatch.setattr(backup.files, "TIMEOUT", 0.2)  # read there at call time
    target = small_database(tmp_path / "db.sqlite3")
    source = small_database(tmp_path / "b.sqlite3")
    holder = sqlite3.connect(target, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(backup.BackupError, match="nicht sichern"):
            backup.restore_database(source, target)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert file_row_counts(target)["tournament_tournament"] == 500
    assert not list(tmp_path.glob("*vor-wiederherstellung*"))


def test_the_programs_own_indexes_pass(live, tmp_path):
    """The check must not refuse what the migrations make (a plain index is no harm)."""
    copy = _tampered(live, tmp_path / "plain.sqlite3", "CREATE INDEX by_bid ON scoring_hand (bid)")
    conn = sqlite3.connect(copy)
    try:
        assert backup.foreign_indexes(conn) == [] and backup.content_problems(conn) == []
    finally:
        conn.close()


def test_a_backup_changing_a_known_accounts_password_is_refused_unless_accepted(live, tmp_path):
    """Issue 38.6: a backup from another club kept the director's name with that club's
    password, which then opened this laptop."""
    _add_user(live, "leitung")
    other = tmp_path / "other-club.sqlite3"
    backup.backup_database(live, other)
    conn = sqlite3.connect(other)
    conn.execute(
        "UPDATE auth_user SET password = ? WHERE username = 'leitung'",
        (make_password("anderer-verein"),),
    )
    conn.commit()
    conn.close()
    with pytest.raises(backup.BackupError, match="andere Passwörter für die Konten leitung"):
        backup.restore_database(other, live)
    backup.restore_database(other, live, allow_new_privileged=True)  # confirmed


def test_the_programs_own_long_correction_reason_does_not_refuse_its_backup(live, tmp_path):
    """Review finding: a correction reason may have 300 characters, simple_history's
    history_change_reason 100; SQLite keeps the longer text, and the length check refused
    every later backup of the evening."""
    copy = _tampered(
        live,
        tmp_path / "long-reason.sqlite3",
        "UPDATE scoring_historicalhand SET history_change_reason = printf('%.*c', 300, 'r')",
    )
    conn = sqlite3.connect(copy)
    try:
        assert backup.content_problems(conn) == []
    finally:
        conn.close()
