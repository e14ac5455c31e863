"""``manage.py disable_demo_logins``: switch off the demo's well-known logins before a real
evening (:func:`operations.demo.switch_off_demo_logins`); ``scripts/venue`` runs it on every
start without ``--demo``."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from operations.demo import switch_off_demo_logins


class Command(BaseCommand):
    help = "Switch off the demo logins (leitung, schreiber) whose passwords the README prints."

    def handle(self, *args, **options) -> None:
        names = switch_off_demo_logins()
        if names:
            self.stdout.write(
                _(
                    "Die Demo-Zugänge %(names)s sind abgeschaltet: ihre Passwörter stehen im "
                    "README. Für den echten Abend ein eigenes Konto anlegen: im Browser dieses "
                    "Laptops die Startseite öffnen."
                )
                % {"names": ", ".join(names)}
            )
