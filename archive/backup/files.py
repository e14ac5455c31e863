"""The SQLite files behind a backup: which database is configured, and the low-level steps
every job of :mod:`archive.backup` shares (opening a file read-only, asking SQLite whether
a file is a database at all, checking integrity, creating a file only its owner may read,
listing a database's ``-wal``/``-shm``/``-journal`` companions).

Nothing here opens a database file except through SQLite: closing *any* descriptor of a
file drops every lock the process holds on it (see the docstring of
:mod:`archive.backup`).  :data:`TIMEOUT` is read at call time by the other modules
(``files.TIMEOUT``), so a test that shortens it patches it here.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.translation import gettext as _

#: The apps whose migrations mark a database as this program's.
PROJECT_APPS = ("tournament", "scoring")
#: The apps whose tables a backup's summary counts (the prize list moved out of scoring).
COUNTED_APPS = ("tournament", "scoring", "prizes")
TIMEOUT = 20  # seconds to wait for a lock, as the server's connections do


class BackupError(Exception):
    """A backup or restore refused or failed; ``str()`` is a German message."""


def configured_database(alias: str = DEFAULT_DB_ALIAS) -> Path:
    """Path of the database file behind the connection ``alias``.  Raises
    :class:`BackupError` when it is not SQLite (PostgreSQL: use ``pg_dump``) or lives only
    in memory."""
    connection = connections[alias]
    if connection.vendor != "sqlite":
        raise BackupError(_("Sicherung geht nur mit SQLite; für PostgreSQL pg_dump verwenden."))
    if connection.is_in_memory_db():
        raise BackupError(
            _("Die Datenbank liegt nur im Arbeitsspeicher; es gibt keine Datei zu sichern.")
        )
    return Path(connection.settings_dict["NAME"])


def _require_sqlite(conn: sqlite3.Connection, path: Path) -> None:
    """Raise :class:`BackupError` unless ``conn`` (a connection to ``path``) reads a SQLite
    database.  Asked of SQLite itself, never by reading the file: see :mod:`archive.backup`.
    An empty file would be an empty database to SQLite; here it is no database."""
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        if "not a database" not in str(exc) and "encrypted" not in str(exc):
            # locked, busy, unreadable: say what it is, not "no database"
            raise BackupError(
                _("%(path)s lässt sich nicht lesen: %(error)s") % {"path": path, "error": exc}
            ) from exc
        raise BackupError(_("%(path)s ist keine SQLite-Datenbank.") % {"path": path}) from exc
    if path.stat().st_size == 0:
        raise BackupError(_("%(path)s ist keine SQLite-Datenbank.") % {"path": path})


def _create_private(path: Path) -> None:
    """Create the new, empty file ``path`` with mode 0600 whatever the umask, so the
    database SQLite writes into it (and its journal, which takes the same mode) is the
    owner's only.  Raises ``FileExistsError`` when ``path`` exists."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        os.chmod(path, 0o600)
    except PermissionError:  # FAT/exFAT (a USB stick) keeps no owner's modes
        pass


def _names(conn: sqlite3.Connection) -> set[str]:
    """The names of every table, index, view and trigger in the database of ``conn``."""
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}


def _open_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection that changes nothing beside ``path``: immutable unless a
    ``-wal`` file lies beside it (then SQLite must read that too)."""
    wal = Path(f"{path}-wal")
    options = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    return sqlite3.connect(f"{path.resolve().as_uri()}?{options}", uri=True, timeout=TIMEOUT)


def _integrity(conn: sqlite3.Connection) -> str:
    rows = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    return "ok" if rows == ["ok"] else "; ".join(rows[:5])


def _database_files(path: Path) -> list[Path]:
    return [path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")]


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in _database_files(path) if p.exists())


def _unreadable(path: Path) -> bool:
    """Whether SQLite cannot even read ``path`` as a database."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        # locked or busy is not damage: only what SQLite cannot read as a database
        return any(word in str(exc) for word in ("not a database", "malformed", "encrypted"))
    return False
