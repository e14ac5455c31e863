"""``manage.py load_demo``: load the demo (fixtures/demo.json: the running demo tournament,
two finished evenings before it and a series over the three) into an empty database; does
nothing when the database already holds a tournament, so the quick start can run again
without duplicating or overwriting anything."""

from __future__ import annotations

from django.core.management import call_command
from django.core.management.base import BaseCommand

from tournament.models import Tournament


class Command(BaseCommand):
    help = "Load fixtures/demo.json unless the database already has a tournament."

    def handle(self, *args, **options) -> None:
        if Tournament.objects.exists():
            self.stdout.write("Datenbank enthält schon ein Turnier; Demo nicht geladen.")
            return
        call_command("loaddata", "fixtures/demo.json", verbosity=0)
        # every page of this database says it holds the demo (tournament.context_processors)
        Tournament.objects.update(is_demo=True)
        self.stdout.write("Demo-Turnier geladen.")
