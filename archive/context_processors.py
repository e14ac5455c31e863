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


def publishing(request) -> dict:
    """Venue mode (``BINOKEL_PUBLISH_DIR`` set): ``publishing`` and ``publish_status``, a
    callable giving how
    the last upload to the club's website went (:func:`archive.publish.live.read_status`),
    for the entry overview."""
    from .publish.live import publish_folder, read_status

    folder = publish_folder()
    if folder is None:
        return {}
    return {"publishing": True, "publish_status": partial(read_status, folder)}
