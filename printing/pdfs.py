"""The documents as PDF bytes: each gathers its data (:mod:`printing.documents`,
:mod:`printing.handout`) and renders its template with :func:`printing.render.render_pdf`.
Used by the download views and by ``manage.py print_round``."""

from __future__ import annotations

from django.utils import timezone, translation

from scoring.qr import qr_data_uri
from scoring.services import forced_close_notes, seating_short
from tournament.models import Round, Tournament

from . import documents, handout
from .render import render_pdf, render_pdf_in_parts, split_into_parts

# below this many tables per part, one process is quicker than starting a second
PARALLEL_FROM_TABLES = 6
PARALLEL_FROM_PAGES = 4
# rows of the results list per A4 page (with the title on the first page, 8.5 pt type)
RESULT_ROWS_PER_PAGE = 44


def score_sheets_pdf(round_: Round, filled: bool) -> bytes:
    """All score sheets of ``round_`` in one PDF, one table per page (more with over 15
    games).  Tables are laid out in parts on the available cores
    (:func:`printing.render.render_pdf_in_parts`)."""
    tournament = round_.tournament
    sheets = documents.score_sheets(round_, filled)
    base = {
        "tournament": tournament,
        "ruleset": tournament.ruleset,
        "seating": seating_short(tournament.ruleset),
        "round": round_,
        "filled": filled,
        "printed_at": timezone.localtime(),
    }
    chunks = split_into_parts(sheets, PARALLEL_FROM_TABLES)
    return render_pdf_in_parts(
        "printing/score_sheets.html",
        [{**base, "sheets": chunk} for chunk in chunks],
        [max(1, sum(len(s.pages) for s in chunk)) for chunk in chunks],
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
    """The results list, overall or for one round (public names): ``RESULT_ROWS_PER_PAGE``
    rows per A4 page, each page with its own header row; long lists are laid out in parts
    on the available cores."""
    data = documents.results_list(tournament, round_number)
    rows = data.pop("rows")
    pages = [
        rows[i : i + RESULT_ROWS_PER_PAGE] for i in range(0, len(rows), RESULT_ROWS_PER_PAGE)
    ] or [[]]
    chunks = split_into_parts(pages, PARALLEL_FROM_PAGES)
    base = {
        "tournament": tournament,
        "forced_close_notes": forced_close_notes(tournament),
        "round_number": round_number,
        "printed_at": timezone.localtime(),
        **data,
    }
    return render_pdf_in_parts(
        "printing/results.html",
        [
            {**base, "pages": chunk, "first_part": i == 0, "last_part": i == len(chunks) - 1}
            for i, chunk in enumerate(chunks)
        ],
        [len(chunk) for chunk in chunks],
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


def poster_pdf(tournament: Tournament, standings_address: str) -> bytes:
    """A4 poster for the door and the tables: the standings address as a large QR code and
    in large type (the QR image is embedded as a ``data:`` URI; nothing is fetched)."""
    return render_pdf(
        "printing/poster.html",
        {
            "tournament": tournament,
            "printed_at": timezone.localtime(),
            "standings_address": standings_address,
            "qr_uri": qr_data_uri(standings_address),
        },
    )
