"""Receivers of the archive app: the automatic backup when a round is closed, and the
request to publish the results to the club's website then."""

from __future__ import annotations

import logging

from django.conf import settings

from . import backup

logger = logging.getLogger(__name__)


def backup_after_close(sender, round_number: int, **kwargs) -> None:
    """Venue mode (``BINOKEL_BACKUP_DIR`` set): a backup as soon as a round is closed
    (receiver of :data:`scoring.signals.round_closed`, sent after the close committed).  A
    failed backup is logged and never undoes or blocks the close (the timer's next backup
    tries again)."""
    if not settings.BACKUP_DIR:
        return
    try:
        backup.automatic_backup(settings.BACKUP_DIR, f"runde-{round_number}")
    except (backup.BackupError, OSError):
        logger.exception("automatic backup after closing round %s failed", round_number)


def publish_after_close(sender, round_number: int, **kwargs) -> None:
    """Venue mode with publishing set up: ask the venue's publisher to upload the results
    now (:func:`archive.publish.live.request_publish`), so the club's website shows a
    round's result as soon as it is closed.  Never blocks or undoes the close."""
    from .publish.live import request_publish

    request_publish()
