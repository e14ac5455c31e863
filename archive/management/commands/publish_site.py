"""``manage.py publish_site <id> --target TARGET``: upload the tournament's results website
to the club's web space, only the files that changed (:mod:`archive.publish`).

TARGET is ``sftp://user@host:port/folder``, ``ftps://user@host/folder``, ``ftp://…`` (only
with ``--unverschluesselt``) or a local folder.  The password comes from the environment
(``BINOKEL_PUBLISH_PASSWORD``), never from the command line, where other users of the
laptop could read it.  Prints how many files were uploaded and removed; exits with 1 and a
German message when the target cannot be reached or refuses the login."""

from __future__ import annotations

import os
import ssl

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from archive import publish
from archive.management.lookup import tournament_or_error
from tournament.management.database import require_database

PASSWORD_VARIABLE = "BINOKEL_PUBLISH_PASSWORD"


class Command(BaseCommand):
    help = "Upload a tournament's results website to the club's web space (changed files only)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament_id", type=int)
        parser.add_argument(
            "--target",
            required=True,
            help="sftp://user@host:port/folder, ftps://user@host/folder, ftp://… or a folder",
        )
        parser.add_argument("--schluessel", help="SFTP: the private key file to log in with")
        parser.add_argument(
            "--zertifikat",
            help="FTPS: trust this certificate (a server with its own, self-signed one)",
        )
        parser.add_argument(
            "--unverschluesselt",
            action="store_true",
            help="allow plain FTP (the password crosses the network readable)",
        )
        parser.add_argument("--language", choices=["de", "en"], default="de")

    def handle(self, *args, **options) -> None:
        require_database()
        tournament = tournament_or_error(options["tournament_id"])
        context = None
        if options["zertifikat"]:
            try:
                context = ssl.create_default_context(cafile=options["zertifikat"])
            except (OSError, ssl.SSLError) as exc:
                raise CommandError(
                    _("Das Zertifikat %(file)s lässt sich nicht lesen: %(error)s")
                    % {"file": options["zertifikat"], "error": exc}
                ) from exc
        try:
            target = publish.parse_target(options["target"])
            report, first_key = publish.publish_tournament(
                tournament,
                target,
                os.environ.get(PASSWORD_VARIABLE),
                key_file=options["schluessel"],
                allow_plain_ftp=options["unverschluesselt"],
                tls_context=context,
                language=options["language"],
            )
        except publish.PublishError as exc:
            raise CommandError(str(exc)) from exc
        if first_key:
            self.stdout.write(
                _(
                    "Erste Verbindung zu %(host)s: sein Schlüssel %(key)s ist jetzt gespeichert. "
                    "Bitte mit dem Anbieter vergleichen."
                )
                % {"host": target.host, "key": first_key}
            )
        self.stdout.write(
            _(
                "%(uploaded)s Dateien hochgeladen, %(removed)s entfernt, %(unchanged)s "
                "unverändert: %(target)s"
            )
            % {
                "uploaded": len(report.uploaded),
                "removed": len(report.removed),
                "unchanged": report.unchanged,
                "target": target,
            }
        )
