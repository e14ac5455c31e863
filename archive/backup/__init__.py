"""Back up and restore the SQLite database while the server runs.

Both directions use SQLite's online backup API (:meth:`sqlite3.Connection.backup`): it
copies a consistent snapshot page by page inside one read transaction, so clerks can keep
entering hands meanwhile (in WAL mode a reader never blocks the writer), and rows committed
to the write-ahead log but not yet checkpointed into the main file are included.  A backup
is written to a temporary name first and renamed when complete, switched to a rollback
journal (one self-contained file, no ``-wal`` beside it) and checked with
``PRAGMA integrity_check``.

Nothing here opens a database file except through SQLite.  On POSIX, closing *any*
descriptor of a file drops every lock the process holds on it, SQLite's among them; the
round-close backup runs inside the server process, so one ``open()`` of the live file
would let the next process that exits delete ``-wal`` and ``-shm`` under the running
server (``tests/archive/test_backup_locks.py``).  Whether a file is SQLite at all is therefore
asked of SQLite, and a database too damaged to copy is moved aside, never read byte by byte.

Backups are written with mode 0600: they hold session keys, password hashes and personal
data.  A restore accepts only this program's own schema and accounts
(:func:`foreign_objects`, :func:`unexplained_accounts`).

Every function takes explicit paths; :func:`configured_database` finds the path of the
configured database (and refuses PostgreSQL and in-memory databases).  Errors are raised as
:class:`BackupError` with a German message.

The work is split by job: :mod:`~archive.backup.files` (the configured database and the
SQLite steps every job shares), :mod:`~archive.backup.make` (making and inspecting a
backup), :mod:`~archive.backup.trust` (what a backup may bring along into a restore),
:mod:`~archive.backup.restore` (restoring) and :mod:`~archive.backup.automatic` (venue
mode's automatic backups).  Every name is importable from here as before; a test that
shortens :data:`~archive.backup.files.TIMEOUT` patches it in ``archive.backup.files``,
where it is read.
"""

from __future__ import annotations

from .automatic import (
    AUTO_KEEP,
    AUTO_PREFIX,
    automatic_backup,
    automatic_backups,
    last_automatic_backup,
)
from .files import COUNTED_APPS, PROJECT_APPS, TIMEOUT, BackupError, configured_database
from .make import DatabaseReport, backup_database, default_backup_name, inspect_database
from .restore import RestoreReport, restore_database
from .trust import (
    SQLITE_TABLES,
    changed_passwords,
    check_trusted,
    content_problems,
    foreign_indexes,
    foreign_objects,
    privileged_accounts,
    unexplained_accounts,
)

__all__ = [
    "AUTO_KEEP",
    "AUTO_PREFIX",
    "COUNTED_APPS",
    "PROJECT_APPS",
    "SQLITE_TABLES",
    "TIMEOUT",
    "BackupError",
    "DatabaseReport",
    "RestoreReport",
    "automatic_backup",
    "automatic_backups",
    "backup_database",
    "changed_passwords",
    "check_trusted",
    "configured_database",
    "content_problems",
    "default_backup_name",
    "foreign_indexes",
    "foreign_objects",
    "inspect_database",
    "last_automatic_backup",
    "privileged_accounts",
    "restore_database",
    "unexplained_accounts",
]
