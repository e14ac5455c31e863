"""``manage.py import_tournament <file.json>``: add a tournament exported with
``export_tournament`` to this database under new ids, all or nothing, every hand re-scored
by the engine (see :func:`archive.transfer.run_import`).  ``--rescore`` takes the engine's
points where the file's differ; ``--dry-run`` checks without keeping anything.  Accounts are
never created or granted: the file's clerks are printed for the director to grant by hand."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

from archive import transfer


class Command(BaseCommand):
    help = "Import a tournament from a JSON file written by export_tournament."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="JSON file written by export_tournament")
        parser.add_argument(
            "--dry-run", action="store_true", help="check and import, then roll back"
        )
        parser.add_argument(
            "--rescore",
            action="store_true",
            help="import hands whose stored points differ from the engine's with the "
            "engine's points (and list them) instead of refusing the file",
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
        except (ValueError, RecursionError) as exc:
            # a number of more than 4,300 digits (Python's limit for reading one) or
            # brackets nested deeper than the parser's recursion limit
            raise CommandError(
                _(
                    "%(path)s ist keine gültige JSON-Datei: eine Zahl ist zu lang oder die "
                    "Schachtelung zu tief."
                )
                % {"path": path}
            ) from exc
        try:
            with transaction.atomic():
                report = transfer.run_import(data, rescore=options["rescore"])
                if options["dry_run"]:
                    transaction.set_rollback(True)
        except transfer.TransferError as exc:
            raise CommandError(str(exc)) from exc
        counts = transfer.summarize(transfer.current_labels(data))
        summary = ", ".join(f"{label}: {n}" for label, n in counts.items())
        if options["dry_run"]:
            self.stdout.write(
                _("Probelauf: die Datei lässt sich importieren (%(summary)s); nichts gespeichert.")
                % {"summary": summary}
            )
        else:
            tournament = report.tournament
            self.stdout.write(
                _("Turnier »%(name)s« importiert als Nr. %(id)s (%(summary)s).")
                % {"name": tournament.name, "id": tournament.pk, "summary": summary}
            )
        if report.rescored:
            self.stdout.write(
                _("Nach den Regeln neu berechnet (%(n)s):") % {"n": len(report.rescored)}
            )
            for change in report.rescored:
                self.stdout.write(f"  {change}")
        if report.unknown_users:
            self.stdout.write(
                _(
                    "Konten, die es hier nicht gibt (als Name beim Eintrag vermerkt, kein Konto "
                    "angelegt): %(users)s"
                )
                % {"users": ", ".join(report.unknown_users)}
            )
        if report.clerks:
            self.stdout.write(
                _("Schreiber in der Datei: %(clerks)s; Rechte bitte von Hand vergeben.")
                % {"clerks": ", ".join(report.clerks)}
            )
