"""``manage.py print_round TOURNAMENT ROUND [--out DIR]``: write every document of a round
to PDF files — blank and filled score sheets, table plan, results list of the round and
overall, and the rules handout in German and English."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from printing import pdfs
from tournament.management.database import require_database
from tournament.models import Round


class Command(BaseCommand):
    help = "Write a round's score sheets, table plan, results lists and rules handout as PDFs."

    def add_arguments(self, parser) -> None:
        parser.add_argument("tournament", type=int, help="tournament id")
        parser.add_argument("round", type=int, help="round number")
        parser.add_argument("--out", default="out", help="directory for the files (default: out)")

    def handle(self, *args, **options) -> None:
        require_database()
        try:
            round_ = Round.objects.select_related("tournament").get(
                tournament_id=options["tournament"], number=options["round"]
            )
        except Round.DoesNotExist as exc:
            raise CommandError(
                f"Turnier {options['tournament']} hat keine Runde {options['round']}."
            ) from exc
        if not round_.tables.exists():
            raise CommandError(f"Runde {round_.number} ist noch nicht ausgelost.")
        tournament = round_.tournament
        out = Path(options["out"])
        out.mkdir(parents=True, exist_ok=True)
        n = round_.number
        documents = {
            f"spielliste-runde-{n}-leer.pdf": lambda: pdfs.score_sheets_pdf(round_, False),
            f"spielliste-runde-{n}-protokoll.pdf": lambda: pdfs.score_sheets_pdf(round_, True),
            f"tischplan-runde-{n}.pdf": lambda: pdfs.table_plan_pdf(round_),
            f"rangliste-runde-{n}.pdf": lambda: pdfs.results_pdf(tournament, n),
            "rangliste.pdf": lambda: pdfs.results_pdf(tournament),
            "regeln-de.pdf": lambda: pdfs.rules_pdf(tournament, "de"),
            "regeln-en.pdf": lambda: pdfs.rules_pdf(tournament, "en"),
        }
        for name, make in documents.items():
            path = out / name
            path.write_bytes(make())
            self.stdout.write(str(path))
