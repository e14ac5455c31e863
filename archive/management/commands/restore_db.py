"""``manage.py restore_db <path>``: replace the configured SQLite database by a backup
made with ``backup_db`` (see :func:`archive.backup.restore_database`).  Asks for
confirmation unless ``--yes`` is given; restart the server afterwards.

A backup is a trust boundary: it is refused when it holds triggers, views or tables this
program does not create, groups or rights outside its two roles, or director/admin accounts
the current database does not have (``--neue-konten`` accepts those, e.g. on a new laptop
whose database already has another account).  The backup's director and admin accounts
are printed before the question."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from django.utils.translation import gettext as _

from archive import backup


class Command(BaseCommand):
    help = "Restore the SQLite database from a backup (replaces all data)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="backup file made by backup_db")
        parser.add_argument(
            "--yes", action="store_true", help="do not ask: the current data is replaced"
        )
        parser.add_argument(
            "--no-safety-copy",
            action="store_true",
            help="do not save the current database beside itself first",
        )
        parser.add_argument(
            "--neue-konten",
            action="store_true",
            dest="new_accounts",
            help=(
                "accept the backup's accounts: director/admin accounts the current database "
                "does not have, and other passwords for accounts it has"
            ),
        )
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args, **options) -> None:
        try:
            target = backup.configured_database(options["database"])
            source = backup.inspect_database(options["path"])
            backup.check_trusted(source.path, target, options["new_accounts"])
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            _("Sicherung %(path)s geprüft: %(summary)s")
            % {"path": source.path, "summary": source.summary()}
        )
        self.stdout.write(
            _("Konten mit Leitungs- oder Admin-Rechten in der Sicherung: %(users)s")
            % {"users": ", ".join(backup.privileged_accounts(source.path)) or "–"}
        )
        if not options["yes"]:
            self._confirm(target)
        connections.close_all()
        try:
            report = backup.restore_database(
                options["path"],
                target,
                safety_copy=not options["no_safety_copy"],
                allow_new_privileged=options["new_accounts"],
            )
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        if report.safety_copy:
            self.stdout.write(
                _("Die bisherige Datenbank ist gesichert als %(path)s.")
                % {"path": report.safety_copy}
            )
        self.stdout.write(
            _("Wiederhergestellt: %(path)s (%(summary)s).")
            % {"path": report.restored.path, "summary": report.restored.summary()}
        )
        if report.missing_migrations:
            self.stdout.write(
                _("Die Sicherung ist älter als das Programm: jetzt »manage.py migrate« ausführen.")
            )
        self.stdout.write(_("Bitte den Server neu starten."))

    def _confirm(self, target) -> None:
        if not sys.stdin.isatty():
            raise CommandError(
                _("Die Wiederherstellung ersetzt alle Daten in %(path)s; mit --yes bestätigen.")
                % {"path": target}
            )
        answer = input(
            _("Alle Daten in %(path)s werden durch die Sicherung ersetzt. Fortfahren? [ja/nein] ")
            % {"path": target}
        )
        if answer.strip().lower() not in ("ja", "j", "yes", "y"):
            raise CommandError(_("Abgebrochen; nichts wurde geändert."))
