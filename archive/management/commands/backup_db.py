"""``manage.py backup_db <path>``: back up the SQLite database while the server runs (see
:mod:`archive.backup`).  ``<path>`` is a file, or a directory for a file named by the
time."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from archive import backup
from tournament.management.database import require_database


class Command(BaseCommand):
    help = "Back up the SQLite database (online, safe while the server runs)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="backup file, or a directory for a timestamped file")
        parser.add_argument("--overwrite", action="store_true", help="replace an existing file")
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args, **options) -> None:
        require_database()
        try:
            source = backup.configured_database(options["database"])
            report = backup.backup_database(source, options["path"], options["overwrite"])
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            _("Sicherung geschrieben: %(path)s") % {"path": report.path}
            + "\n"
            + _("Prüfung: %(result)s; %(summary)s")
            % {"result": report.integrity, "summary": report.summary()}
        )
