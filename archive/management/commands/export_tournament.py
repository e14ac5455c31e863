"""``manage.py export_tournament <id> <file.json>``: write one tournament, complete with
players, hands, history and everything else that belongs to it, to a JSON file (see
:mod:`archive.transfer`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from archive import transfer
from archive.management.lookup import tournament_or_error
from tournament.management.database import require_database


class Command(BaseCommand):
    help = "Export one tournament to a JSON file (for import_tournament)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("path", help="JSON file to write")
        parser.add_argument("--overwrite", action="store_true", help="replace an existing file")

    def handle(self, *args, **options) -> None:
        require_database()
        path = Path(options["path"])
        if path.exists() and not options["overwrite"]:
            raise CommandError(
                _("%(path)s gibt es schon; --overwrite ersetzt die Datei.") % {"path": path}
            )
        tournament = tournament_or_error(options["tournament_id"])
        try:
            data = transfer.export_tournament(tournament)
        except transfer.TransferError as exc:
            raise CommandError(str(exc)) from exc
        partial = path.with_name(f".{path.name}.{os.getpid()}.part")
        try:
            with open(partial, "w", encoding="utf-8") as fh:
                json.dump(data, fh, ensure_ascii=False, indent=1)
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
        counts = ", ".join(f"{label}: {n}" for label, n in data["counts"].items() if n)
        self.stdout.write(
            _("Turnier »%(name)s« exportiert nach %(path)s (%(counts)s).")
            % {"name": tournament.name, "path": path, "counts": counts}
        )
