"""Template context of the archive app."""

from __future__ import annotations

from functools import partial

from django.conf import settings

from .backup import last_automatic_backup


def backups(request) -> dict:
    """Venue mode (``BINOKEL_BACKUP_DIR`` set): ``backup_dir`` and ``last_backup``, the
    time of the newest automatic backup (aware datetime or ``None``), for the clerk
    overview, where the director sees that backups are being made.  ``last_backup`` is a
    callable, which the template calls: only a page that shows it looks at the folder."""
    if not settings.BACKUP_DIR:
        return {}
    return {
        "backup_dir": settings.BACKUP_DIR,
        "last_backup": partial(last_automatic_backup, settings.BACKUP_DIR),
    }
