"""``manage.py import_tournament <file.json>``: add a tournament exported with
``export_tournament`` to this database under new ids, all or nothing (see
:func:`scoring.transfer.import_tournament`)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import transfer


class Command(BaseCommand):
    help = "Import a tournament from a JSON file written by export_tournament."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="JSON file written by export_tournament")
        parser.add_argument(
            "--dry-run", action="store_true", help="check and import, then roll back"
        )

    def handle(self, *args, **options) -> None:
        path = options["path"]
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        except OSError as exc:
            raise CommandError(
                _("%(path)s lässt sich nicht lesen: %(error)s")
                % {"path": path, "error": exc.strerror or exc}
            ) from exc
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CommandError(
                _("%(path)s ist keine gültige JSON-Datei (unvollständig?): %(error)s")
                % {"path": path, "error": exc}
            ) from exc
        try:
            with transaction.atomic():
                new_users = transfer.missing_users(data) if isinstance(data, dict) else []
                tournament = transfer.import_tournament(data)
                if options["dry_run"]:
                    transaction.set_rollback(True)
        except transfer.TransferError as exc:
            raise CommandError(str(exc)) from exc
        counts = transfer.summarize(data)
        summary = ", ".join(f"{label}: {n}" for label, n in counts.items())
        if options["dry_run"]:
            self.stdout.write(
                _("Probelauf: die Datei lässt sich importieren (%(summary)s); nichts gespeichert.")
                % {"summary": summary}
            )
            return
        self.stdout.write(
            _("Turnier »%(name)s« importiert als Nr. %(id)s (%(summary)s).")
            % {"name": tournament.name, "id": tournament.pk, "summary": summary}
        )
        if new_users:
            self.stdout.write(
                _("Neu angelegt, inaktiv und ohne Passwort: %(users)s")
                % {"users": ", ".join(new_users)}
            )
