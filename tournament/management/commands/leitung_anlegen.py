"""``manage.py leitung_anlegen``: make a director's account on the command line (a laptop
without a browser, or a second director), in German: asks for the user name and the
password twice, checks them with Django's password validators (the same form as the
first-run page) and makes a superuser in the "Turnierleitung" group
(:func:`tournament.accounts.create_director`).  ``./scripts/venue --konto-anlegen`` runs it
against the venue's database."""

from __future__ import annotations

import getpass
import sys

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament import accounts
from tournament.forms import NewAccountForm


class Command(BaseCommand):
    help = "Konto der Turnierleitung anlegen (fragt Benutzername und zweimal das Passwort)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--benutzer", help="Benutzername (sonst wird gefragt)")

    def handle(self, *args, **options) -> None:
        if not sys.stdin.isatty() and not options["benutzer"]:
            raise CommandError(_("Bitte in einem Terminal aufrufen: das Passwort wird abgefragt."))
        for _attempt in range(3):
            username = options["benutzer"] or input(_("Benutzername: ")).strip()
            password1 = getpass.getpass(_("Passwort: "))
            password2 = getpass.getpass(_("Passwort wiederholen: "))
            form = NewAccountForm(
                {"username": username, "password1": password1, "password2": password2}
            )
            if form.is_valid():
                try:
                    user = accounts.create_director(username, password1)
                except ValidationError as exc:
                    self.stderr.write("; ".join(exc.messages))
                    continue
                self.stdout.write(
                    _("Konto %(name)s für die Turnierleitung angelegt.") % {"name": user}
                )
                return
            for errors in form.errors.values():
                for error in errors:
                    self.stderr.write(str(error))
        raise CommandError(_("Kein Konto angelegt."))
