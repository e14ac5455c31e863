"""Restoring a backup over the configured database: check it (:mod:`archive.backup.make`'s
inspection, :mod:`archive.backup.trust`), save the database it replaces beside itself,
and copy it in with SQLite's backup API.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from django.db.migrations.loader import MigrationLoader
from django.utils import timezone
from django.utils.translation import gettext as _

from . import files
from .files import (
    BackupError,
    _create_private,
    _database_files,
    _integrity,
    _open_readonly,
    _unreadable,
)
from .make import DatabaseReport, backup_database, inspect_database
from .trust import check_trusted, privileged_accounts


@dataclass
class RestoreReport:
    """The restored database (``restored``), the backup it came from (``source``), where
    the replaced database was saved first (``safety_copy``, ``None`` when there was none),
    project migrations the code has but the backup lacks (``missing_migrations``: run
    ``manage.py migrate``) and the backup's accounts with director or admin rights
    (``privileged``, user names)."""

    restored: DatabaseReport
    source: DatabaseReport
    safety_copy: Path | None
    missing_migrations: list[str]
    privileged: list[str] = field(default_factory=list)


def restore_database(
    backup: Path | str,
    target: Path | str,
    safety_copy: bool = True,
    allow_new_privileged: bool = False,
) -> RestoreReport:
    """Replace the contents of the SQLite database ``target`` by the backup ``backup``.

    The backup is checked first (:func:`inspect_database`); it must not come from a newer
    program version (project migrations this code does not know), must hold nothing this
    program does not create (:func:`foreign_objects`: triggers, views, other tables) and no
    account it cannot explain (:func:`unexplained_accounts`; ``allow_new_privileged``
    accepts director or admin accounts that ``target`` does not have).  With ``safety_copy``
    an existing ``target`` is first saved beside itself as
    ``<name>.vor-wiederherstellung-<time>.sqlite3`` (by the backup API, or file by file if
    it is too damaged for that).  The copy goes through the backup API, so ``-wal`` and
    ``-shm`` files and open connections of a running server are handled by SQLite; the
    server should still be restarted afterwards.  A ``target`` too damaged to open is
    replaced by a new file (only after its safety copy).

    Raises :class:`BackupError` for an unusable backup or when the restore fails.
    """
    backup, target = Path(backup), Path(target)
    source = inspect_database(backup)
    if backup.resolve() == target.resolve():
        raise BackupError(_("Sicherung und Datenbank sind dieselbe Datei."))
    known = {(app, name) for app, name in MigrationLoader(None).disk_migrations}
    newer = sorted(
        f"{app}.{name}"
        for app, names in source.migrations.items()
        for name in names
        if (app, name) not in known
    )
    if newer:
        raise BackupError(
            _(
                "Die Sicherung stammt von einer neueren Programmversion (Migrationen %(names)s); "
                "erst das Programm aktualisieren."
            )
            % {"names": ", ".join(newer)}
        )
    missing = sorted(
        f"{app}.{name}"
        for app, name in known
        if app in source.migrations and name not in source.migrations[app]
    )
    check_trusted(backup, target, allow_new_privileged)
    saved = None
    if safety_copy and target.exists():
        saved = target.with_name(
            f"{target.stem}.vor-wiederherstellung-{timezone.localtime():%Y-%m-%d-%H%M%S}.sqlite3"
        )
        _safety_copy(target, saved)
    try:
        _copy_into(backup, target)
    except sqlite3.DatabaseError as exc:
        if saved is None or not _unreadable(target):
            raise BackupError(
                _("Wiederherstellung fehlgeschlagen: %(error)s") % {"error": exc}
            ) from exc
        for path in _database_files(target):  # damaged, and saved above: start afresh
            path.unlink(missing_ok=True)
        try:
            _copy_into(backup, target)
        except sqlite3.DatabaseError as exc2:
            raise BackupError(
                _("Wiederherstellung fehlgeschlagen: %(error)s") % {"error": exc2}
            ) from exc2
    restored = inspect_database(target)
    return RestoreReport(restored, source, saved, missing, privileged_accounts(backup))


def _safety_copy(current: Path, saved: Path) -> None:
    """Save ``current`` as ``saved`` before it is replaced: by the backup API, or — when
    SQLite cannot read it at all — by moving its files aside as they are (renamed, never
    read: see :mod:`archive.backup`), so that the restore writes a new file.  Any other
    failure (the database is locked, the disk is full) is raised as :class:`BackupError`
    and nothing is moved: a running server must never lose its file."""
    try:
        backup_database(current, saved)
    except BackupError as exc:
        if not _unreadable(current):
            raise BackupError(
                _(
                    "Die bisherige Datenbank ließ sich nicht sichern (%(error)s); nichts wurde "
                    "ersetzt. Läuft der Server noch? Erst beenden, dann noch einmal."
                )
                % {"error": exc}
            ) from exc
        for path in _database_files(current):
            if path.exists():
                os.replace(path, Path(str(path).replace(str(current), str(saved), 1)))


def _copy_into(backup: Path, target: Path) -> None:
    """Copy ``backup`` over ``target`` with the backup API.  A target in WAL mode with a
    different page size cannot take the copy; it is switched to a rollback journal for the
    copy (possible only while no other connection is open) and back to WAL."""
    src = _open_readonly(backup)
    try:
        if not target.exists():
            _create_private(target)
        dst = sqlite3.connect(target, timeout=files.TIMEOUT)
        try:
            wal = dst.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            try:
                src.backup(dst)
            except sqlite3.OperationalError:
                if not wal:
                    raise
                if dst.execute("PRAGMA journal_mode=DELETE").fetchone()[0] != "delete":
                    raise BackupError(
                        _(
                            "Die Sicherung hat eine andere Seitengröße; dafür erst den Server "
                            "beenden und noch einmal versuchen."
                        )
                    ) from None
                src.backup(dst)
            if wal:
                dst.execute("PRAGMA journal_mode=WAL")
            integrity = _integrity(dst)
        finally:
            dst.close()
    finally:
        src.close()
    if integrity != "ok":
        raise BackupError(
            _("Die wiederhergestellte Datenbank besteht die Prüfung nicht: %(error)s")
            % {"error": integrity}
        )
