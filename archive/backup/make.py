"""Making a backup: copy the running database with SQLite's online backup API into a new
private file, and inspect a database file (:class:`DatabaseReport`: size, integrity, rows
per table, applied migrations), which every backup and every restore does.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from django.apps import apps
from django.utils import timezone
from django.utils.translation import gettext as _

from . import files
from .files import (
    COUNTED_APPS,
    PROJECT_APPS,
    BackupError,
    _create_private,
    _integrity,
    _names,
    _open_readonly,
    _require_sqlite,
    _size,
)


@dataclass
class DatabaseReport:
    """What a database file holds: ``path``, ``size`` in bytes, ``integrity`` (``"ok"``
    when ``PRAGMA integrity_check`` found nothing), ``counts``: rows per table of the
    project apps as ``(label, rows)`` with the model's German plural as label, and
    ``migrations``: applied migration names per project app."""

    path: Path
    size: int
    integrity: str
    counts: list[tuple[str, int]] = field(default_factory=list)
    migrations: dict[str, set[str]] = field(default_factory=dict)

    def summary(self) -> str:
        """One line: size and the non-empty tables, e.g. ``1,2 MB; Turniere: 2, …``."""
        size = f"{self.size / 1_000_000:.1f} MB".replace(".", ",")
        rows = ", ".join(f"{label}: {n}" for label, n in self.counts if n)
        return f"{size}; {rows}" if rows else size


def default_backup_name(now: datetime | None = None) -> str:
    """File name for a backup made at ``now``: ``binokel-YYYY-MM-DD-HHMMSS.sqlite3`` in
    local time."""
    now = timezone.localtime(now or timezone.now())
    return f"binokel-{now:%Y-%m-%d-%H%M%S}.sqlite3"


def backup_database(
    source: Path | str, target: Path | str, overwrite: bool = False
) -> DatabaseReport:
    """Copy the SQLite database ``source`` (it may be in use) to ``target`` with the online
    backup API and check the copy.  ``target`` may be a directory: the file is then named
    by :func:`default_backup_name`.  Returns the copy's :class:`DatabaseReport`.

    Raises :class:`BackupError` when ``source`` is missing or not SQLite, ``target``
    exists (unless ``overwrite``), or the copy fails its integrity check (it is removed).
    """
    meant_directory = str(target).endswith(("/", os.sep))
    source, target = Path(source), Path(target)
    if target.is_dir():
        target = target / default_backup_name()
    elif meant_directory:
        raise BackupError(_("Das Verzeichnis %(path)s gibt es nicht.") % {"path": target})
    if not source.is_file():
        raise BackupError(_("Die Datenbank %(path)s gibt es nicht.") % {"path": source})
    if target.exists() and not overwrite:
        raise BackupError(
            _("%(path)s gibt es schon; einen anderen Namen wählen.") % {"path": target}
        )
    if not target.parent.is_dir():
        raise BackupError(_("Das Verzeichnis %(path)s gibt es nicht.") % {"path": target.parent})
    if source.resolve() == target.resolve():
        raise BackupError(_("Quelle und Ziel der Sicherung sind dieselbe Datei."))
    partial = target.with_name(f".{target.name}.{os.getpid()}.part")
    partial.unlink(missing_ok=True)
    try:
        src = sqlite3.connect(
            f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=files.TIMEOUT
        )
        try:
            _require_sqlite(src, source)
            _create_private(partial)
            dst = sqlite3.connect(partial, timeout=files.TIMEOUT)
            try:
                src.backup(dst)  # all pages in one step: one consistent snapshot
                dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
                integrity = _integrity(dst)
            finally:
                dst.close()
        finally:
            src.close()
        if integrity != "ok":
            raise BackupError(
                _("Die Sicherung besteht die Prüfung nicht: %(error)s") % {"error": integrity}
            )
        os.replace(partial, target)
    except (sqlite3.Error, OSError) as exc:  # OSError: a folder the server may not write
        raise BackupError(_("Sicherung fehlgeschlagen: %(error)s") % {"error": exc}) from exc
    finally:
        for leftover in (partial, Path(f"{partial}-journal")):
            try:
                leftover.unlink(missing_ok=True)
            except OSError:
                pass
    return inspect_database(target, require_project=False)


def inspect_database(path: Path | str, require_project: bool = True) -> DatabaseReport:
    """Open the SQLite file ``path`` read-only and report on it.  Raises
    :class:`BackupError` when it is missing, not SQLite, fails ``PRAGMA integrity_check``
    or — with ``require_project`` — holds no tables of this program (``django_migrations``
    with entries for the ``tournament`` and ``scoring`` apps)."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(_("Die Datei %(path)s gibt es nicht.") % {"path": path})
    try:
        conn = _open_readonly(path)
        try:
            _require_sqlite(conn, path)
            integrity = _integrity(conn)
            if integrity != "ok":
                raise BackupError(
                    _("%(path)s ist beschädigt (integrity_check: %(error)s).")
                    % {"path": path, "error": integrity}
                )
            tables = _names(conn)
            migrations: dict[str, set[str]] = {app: set() for app in PROJECT_APPS}
            if "django_migrations" in tables:
                for app, name in conn.execute("SELECT app, name FROM django_migrations"):
                    if app in migrations:
                        migrations[app].add(name)
            if require_project and not all(migrations.values()):
                raise BackupError(
                    _(
                        "%(path)s ist keine Datenbank dieses Programms (keine Migrationen "
                        "für tournament und scoring)."
                    )
                    % {"path": path}
                )
            counts = [
                (label, conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])
                for label, table in _project_tables()
                if table in tables
            ]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(
            _("%(path)s lässt sich nicht lesen: %(error)s") % {"path": path, "error": exc}
        ) from exc
    return DatabaseReport(path, _size(path), integrity, counts, migrations)


def _project_tables() -> list[tuple[str, str]]:
    """``(label, table)`` for every model of :data:`COUNTED_APPS` (historical ones too)."""
    out = []
    for app in COUNTED_APPS:
        for model in apps.get_app_config(app).get_models():
            if model._meta.proxy:
                continue
            tracked = getattr(model, "instance_type", None)  # django-simple-history
            label = (
                _("%(models)s (Verlauf)") % {"models": tracked._meta.verbose_name_plural}
                if tracked is not None
                else str(model._meta.verbose_name_plural)
            )
            out.append((label, model._meta.db_table))
    return out
