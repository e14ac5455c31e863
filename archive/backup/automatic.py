"""The automatic backups of venue mode: one on a timer and at each round close, written into
the backup folder as ``auto-<time>-<reason>.sqlite3``, the newest :data:`AUTO_KEEP` kept;
and when the newest was written (shown on the entry overview).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from django.db import DEFAULT_DB_ALIAS
from django.utils import timezone

from .files import configured_database
from .make import DatabaseReport, backup_database

#: automatic backups are named ``auto-YYYY-MM-DD-HHMMSS-<reason>.sqlite3``
AUTO_PREFIX = "auto-"
#: how many automatic backups are kept (the oldest beyond that are deleted)
AUTO_KEEP = 20


def automatic_backup(
    directory: Path | str, reason: str, keep: int = AUTO_KEEP, alias: str = DEFAULT_DB_ALIAS
) -> DatabaseReport:
    """Back up the configured database into ``directory`` (created if missing) as
    ``auto-<local time>-<reason>.sqlite3``, then delete all but the newest ``keep``
    automatic backups there (other files are never touched).  ``reason`` is a short word
    such as ``timer``, ``runde-2`` or ``ende``.  Returns the copy's report.

    Raises :class:`BackupError` as :func:`backup_database` does."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    now = timezone.localtime()
    safe_reason = "".join(c for c in reason if c.isascii() and (c.isalnum() or c == "-"))
    target = directory / f"{AUTO_PREFIX}{now:%Y-%m-%d-%H%M%S}-{safe_reason or 'x'}.sqlite3"
    report = backup_database(configured_database(alias), target, overwrite=True)
    for old in automatic_backups(directory)[keep:]:
        old.unlink(missing_ok=True)
    return report


def automatic_backups(directory: Path | str) -> list[Path]:
    """The automatic backups in ``directory``, newest first (by name, which is the time)."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    return sorted(directory.glob(f"{AUTO_PREFIX}*.sqlite3"), key=lambda p: p.name, reverse=True)


def last_automatic_backup(directory: Path | str) -> datetime | None:
    """When the newest automatic backup in ``directory`` was written (aware), or None."""
    backups = automatic_backups(directory)
    if not backups:
        return None
    return datetime.fromtimestamp(backups[0].stat().st_mtime, tz=timezone.get_current_timezone())
