"""The documents as PDF bytes: each gathers its data (:mod:`printing.documents`,
:mod:`printing.handout`) and renders its template with :func:`printing.render.render_pdf`.
Used by the download views and by ``manage.py print_round``."""

from __future__ import annotations

from django.utils import timezone, translation

from tournament.models import Round, Tournament

from . import documents, handout
from .render import render_pdf


def score_sheets_pdf(round_: Round, filled: bool) -> bytes:
    """All score sheets of ``round_`` in one PDF, one table per page."""
    tournament = round_.tournament
    return render_pdf(
        "printing/score_sheets.html",
        {
            "tournament": tournament,
            "ruleset": tournament.ruleset,
            "round": round_,
            "filled": filled,
            "sheets": documents.score_sheets(round_, filled),
            "printed_at": timezone.localtime(),
        },
    )


def table_plan_pdf(round_: Round) -> bytes:
    """The round's table plan: by table, and by player (public names)."""
    return render_pdf(
        "printing/table_plan.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "printed_at": timezone.localtime(),
            **documents.table_plan(round_),
        },
    )


def results_pdf(tournament: Tournament, round_number: int | None = None) -> bytes:
    """The results list, overall or for one round (public names)."""
    return render_pdf(
        "printing/results.html",
        {
            "tournament": tournament,
            "round_number": round_number,
            "printed_at": timezone.localtime(),
            **documents.results_list(tournament, round_number),
        },
    )


def rules_pdf(tournament: Tournament, language: str = "de") -> bytes:
    """The rules handout of the tournament's frozen ruleset, in ``language``."""
    with translation.override(language):
        return render_pdf(
            "printing/rules.html",
            {
                "tournament": tournament,
                "printed_at": timezone.localtime(),
                "LANGUAGE_CODE": language,
                "h": handout.build(tournament.ruleset, language, tournament.four_table_mode),
            },
        )
