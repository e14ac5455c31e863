"""``manage.py export_site <id> <folder or file.zip> [--language en] [--series]``: the
tournament's (or with ``--series`` the series') results as a static website for the club's
web space (:mod:`archive.site`)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from archive import site
from archive.management.lookup import series_or_error, tournament_or_error
from tournament.management.database import require_database


class Command(BaseCommand):
    help = "Write a tournament's results as a static website (a folder or a .zip file)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("target", help="an empty or new folder, or a new file ending in .zip")
        parser.add_argument("--language", choices=["de", "en"], default="de")
        parser.add_argument(
            "--series", action="store_true", help="the id is a series': its table and evenings"
        )

    def handle(self, *args, **options) -> None:
        require_database()
        try:
            if options["series"]:
                files = site.export_series_site(
                    series_or_error(options["tournament_id"]), options["language"]
                )
            else:
                files = site.export_site(
                    tournament_or_error(options["tournament_id"]), options["language"]
                )
            target = site.write_site(files, Path(options["target"]))
        except site.SiteError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            _("%(n)s Dateien geschrieben: %(target)s") % {"n": len(files), "target": target}
        )
