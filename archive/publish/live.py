"""Publishing while the evening runs, from the venue (issue 40.1).

The director enters the target once, on the tournament's *Vereinsseite* page; it is kept in
``veroeffentlichen.json`` in the venue's data folder (mode 0600: it may hold a password),
never in the database, its backups or its exports.  :class:`LivePublisher` runs in the
venue runner's own process (:mod:`operations.venue`), beside the server processes, in a
thread of its own, so an upload never holds a clerk's or a phone's request: it publishes
every ``interval_minutes`` (5 by default, 0 = only on demand), at once after a round is
closed (:func:`request_publish`, called by the archive's ``round_closed`` receiver) and
when the director presses *Jetzt veröffentlichen*.  Without internet it tries again after
30 s, 1, 2, 4 … minutes (never later than the interval), and writes how it went to
``veroeffentlichen-stand.json``, which the entry overview shows ("offline seit 20:35").
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone
from django.utils.translation import gettext as _

from .targets import PublishError, parse_target

logger = logging.getLogger(__name__)

SETTINGS_FILE = "veroeffentlichen.json"
STATUS_FILE = "veroeffentlichen-stand.json"
TRIGGER_FILE = "veroeffentlichen-jetzt"
#: The first wait after a failed upload (seconds); it doubles up to the interval
FIRST_RETRY = 30


@dataclass
class PublishSettings:
    """Where and how often one tournament's results go to the club's website.
    ``target``: an address :func:`~archive.publish.targets.parse_target` reads;
    ``password``: for SFTP or FTP (may be empty with a ``key_file``);
    ``interval_minutes``: 0 = only on demand and at round closes (a failed upload is still
    tried again)."""

    tournament_id: int
    target: str
    password: str = ""
    key_file: str = ""
    interval_minutes: int = 5
    allow_plain_ftp: bool = False
    #: the tournament's name and date when the target was stored: a database started
    #: afresh or restored from elsewhere may give another tournament the same id
    tournament_name: str = ""
    tournament_date: str = ""


def publish_folder() -> Path | None:
    """The venue's data folder when publishing is possible here (``BINOKEL_PUBLISH_DIR``,
    set by the venue runner), else ``None``: a server has no venue runner to publish."""
    folder = getattr(settings, "PUBLISH_DIR", "")
    return Path(folder) if folder else None


def _write_private(path: Path, data: dict) -> None:
    """Write ``data`` as JSON to ``path`` (mode 0600), under a temporary name first."""
    temporary = path.with_name(path.name + ".neu")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(data, handle, ensure_ascii=False, indent=1)
    os.replace(temporary, path)


def load_settings(folder: Path) -> PublishSettings | None:
    """The stored settings, or ``None`` when there are none (or none this program can
    read: a broken file is logged and publishing stays off)."""
    try:
        raw = json.loads((folder / SETTINGS_FILE).read_text("utf-8"))
        known = {f.name for f in fields(PublishSettings)}
        return PublishSettings(**{k: v for k, v in raw.items() if k in known})
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, AttributeError) as exc:
        if str(exc) not in _REPORTED:  # the venue asks every second: say it once
            _REPORTED.add(str(exc))
            logger.error("the publish settings in %s cannot be read: %s", folder, exc)
        return None


_REPORTED: set[str] = set()


def save_settings(folder: Path, values: PublishSettings) -> None:
    """Store ``values`` in the data folder (mode 0600).  Raises :class:`PublishError` for
    a target that cannot be used."""
    parse_target(values.target)
    _write_private(folder / SETTINGS_FILE, asdict(values))


def stop_publishing(folder: Path) -> None:
    """Turn publishing off: the stored target (with its password) and the status go."""
    for name in (SETTINGS_FILE, STATUS_FILE, TRIGGER_FILE):
        (folder / name).unlink(missing_ok=True)


def request_publish(folder: Path | None = None) -> None:
    """Ask the venue's publisher to publish now (after a round's close, or the director's
    button); nothing when publishing is not set up."""
    folder = folder or publish_folder()
    if folder is None or not (folder / SETTINGS_FILE).exists():
        return
    try:
        (folder / TRIGGER_FILE).touch()
    except OSError:
        logger.exception("cannot ask for a publish in %s", folder)


def read_status(folder: Path | None = None) -> dict:
    """How the last publish went: ``{"tournament_id", "target", "ok_at", "failed_at",
    "offline_since", "error", "uploaded", "removed"}`` (ISO times or ``None``), ``{}``
    before the first."""
    folder = folder or publish_folder()
    if folder is None:
        return {}
    try:
        return json.loads((folder / STATUS_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}


class LivePublisher:
    """Publishes one tournament's site while the venue runs (see the module docstring).
    :meth:`tick` is called about once a second by the venue's main loop and returns at
    once; the upload runs in a thread, one at a time."""

    def __init__(self, folder: Path, clock=time.monotonic) -> None:
        self.folder = folder
        self.clock = clock
        self.thread: threading.Thread | None = None
        self.next_due = 0.0  # the first tick with settings publishes
        self.retry = FIRST_RETRY

    def tick(self) -> bool:
        """Start a publish when one is due (the trigger file, or the interval or a
        retry has passed).  Returns whether one was started."""
        if self.thread is not None and self.thread.is_alive():
            return False
        values = load_settings(self.folder)
        if values is None:
            return False
        trigger = self.folder / TRIGGER_FILE
        asked = trigger.exists()
        failing = bool(read_status(self.folder).get("offline_since"))
        timed = (values.interval_minutes > 0 or failing) and self.clock() >= self.next_due
        if not (asked or timed):
            return False
        try:
            trigger.unlink(missing_ok=True)
        except OSError:  # held open for a moment (Windows): taken again at the next tick
            pass
        self.thread = threading.Thread(
            target=self._in_thread, args=(values,), name="veroeffentlichen", daemon=True
        )
        self.thread.start()
        return True

    def _in_thread(self, values: PublishSettings) -> None:
        close_old_connections()
        try:
            self.run(values)
        finally:
            connection.close()  # this thread's own connection

    def run(self, values: PublishSettings) -> None:
        """One publish of ``values``' tournament, its outcome written to the status
        file; never raises (a failure is the status, and logged)."""
        from tournament.models import Tournament

        from . import publish_tournament

        status = read_status(self.folder)
        if status.get("tournament_id") != values.tournament_id or status.get("target") != str(
            values.target
        ):
            status = {}  # another tournament or target: its history is not this one's
        status.update(tournament_id=values.tournament_id, target=str(values.target))
        now = timezone.localtime().isoformat(timespec="seconds")
        interval = values.interval_minutes * 60 or 300
        try:
            tournament = Tournament.objects.get(pk=values.tournament_id)
            if values.tournament_name and (
                tournament.name != values.tournament_name
                or tournament.date.isoformat() != values.tournament_date
            ):
                raise PublishError(
                    _(
                        "Das gespeicherte Ziel gehört zum Turnier „%(name)s“ vom %(date)s; "
                        "unter dieser Nummer steht jetzt ein anderes. Bitte auf der Seite "
                        "„Vereinsseite“ neu speichern."
                    )
                    % {"name": values.tournament_name, "date": values.tournament_date}
                )
            report, first_key = publish_tournament(
                tournament,
                parse_target(values.target),
                values.password or None,
                key_file=values.key_file or None,
                allow_plain_ftp=values.allow_plain_ftp,
            )
        except (PublishError, Tournament.DoesNotExist) as exc:
            error = str(exc) if isinstance(exc, PublishError) else _("Turnier gelöscht.")
            self._failed(status, now, error, interval)
        except Exception as exc:  # logged; the venue keeps running and tries again
            logger.exception("publishing to the club's website failed")
            self._failed(status, now, f"{type(exc).__name__}: {exc}", interval)
        else:
            status.update(
                ok_at=now,
                offline_since=None,
                error="",
                uploaded=len(report.uploaded),
                removed=len(report.removed),
            )
            if first_key:
                status["host_key"] = first_key
            self.next_due = self.clock() + values.interval_minutes * 60
            self.retry = FIRST_RETRY
        _write_private(self.folder / STATUS_FILE, status)

    def _failed(self, status: dict, now: str, error: str, interval: int) -> None:
        status.update(failed_at=now, error=error)
        status["offline_since"] = status.get("offline_since") or now
        self.next_due = self.clock() + min(self.retry, interval)
        self.retry = min(self.retry * 2, interval)
