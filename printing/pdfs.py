"""The documents as PDF bytes: each gathers its data (:mod:`printing.documents`,
:mod:`printing.handout`) and renders its template with :func:`printing.render.render_pdf`.
Used by the download views and by ``manage.py print_round``."""

from __future__ import annotations

from decimal import Decimal
from io import BytesIO

from django.utils import timezone, translation
from pypdf import PdfReader

from door.selectors import cash_summary
from prizes.selectors import prize_list
from scoring import selectors
from scoring.qr import qr_data_uri, reachable_by_phones
from scoring.services import forced_close_notes, seating_short
from series.selectors import series_standings
from tournament.models import Category, Round, Series, Tournament

from . import documents, handout, sheets
from .render import render_pdf


def score_sheet_pages(
    round_: Round, filled: bool, link_base: str | None = None, user=None
) -> tuple[list[documents.SheetPage], dict]:
    """The printed pages of ``round_``'s score sheets (:func:`documents.sheet_pages`) and
    the context the sheet template needs besides them."""
    tournament = round_.tournament
    sheets = documents.score_sheets(round_, filled, link_base, user)
    context = {
        "tournament": tournament,
        "ruleset": tournament.ruleset,
        "seating": seating_short(tournament.ruleset),
        "ruleset_name": documents.ruleset_name(tournament.ruleset),
        "marks": documents.correction_marks(),
        "round": round_,
        "filled": filled,
        "printed_at": timezone.localtime(),
        "LANGUAGE_CODE": translation.get_language() or "de",
    }
    return documents.sheet_pages(sheets), context


def score_sheets_pdf(round_: Round, filled: bool, link_base: str | None = None, user=None) -> bytes:
    """All score sheets of ``round_`` in one PDF, one table per page (more with over 15
    games): WeasyPrint lays out the grid of each kind of page once and each table's text is
    stamped on (:mod:`printing.sheets`)."""
    return sheets.score_sheets_pdf(*score_sheet_pages(round_, filled, link_base, user))


def table_plan_pdf(round_: Round) -> bytes:
    """The round's table plan: by table, and by player (public names)."""
    return render_pdf(
        "printing/table_plan.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "printed_at": timezone.localtime(),
            "LANGUAGE_CODE": translation.get_language() or "de",
            **documents.table_plan(round_),
        },
    )


def table_cards_pdf(round_: Round, link_base: str | None = None, user=None) -> bytes:
    """The round's table cards, two per A4 page (cut along the dashed line): table number,
    seats, first dealer and, with table entry on, the table's QR code
    (:func:`printing.documents.table_cards`)."""
    return render_pdf(
        "printing/table_cards.html",
        {
            "tournament": round_.tournament,
            "round": round_,
            "cards": documents.table_cards(round_, link_base, user),
            "printed_at": timezone.localtime(),
            "LANGUAGE_CODE": translation.get_language() or "de",
        },
    )


def results_pdf(
    tournament: Tournament,
    round_number: int | None = None,
    public: bool = True,
    category: Category | None = None,
) -> bytes:
    """The results list, overall or for one round.

    ``public``: names only with consent (the list for the wall and the web); ``False``:
    the director's prize-giving version with every name.  ``category``: only its players,
    with their own places.  All rows are one table: WeasyPrint breaks the pages where they
    are full and repeats the header row (and, while a round is open, the "vorläufig" line)
    on each (``thead``, ``static/print/print.css``), so no estimate of row heights can
    leave a page half empty or overfull."""
    data = documents.results_list(tournament, round_number, public=public, category=category)
    rows = data.pop("rows")
    base = {
        "tournament": tournament,
        "forced_close_notes": forced_close_notes(tournament),
        "ruleset_name": documents.ruleset_name(tournament.ruleset),
        "round_number": round_number,
        "printed_at": timezone.localtime(),
        "LANGUAGE_CODE": translation.get_language() or "de",
        **data,
    }
    return render_pdf("printing/results.html", {**base, "rows": rows})


def rules_pdf(tournament: Tournament, language: str = "de") -> bytes:
    """The rules handout of the tournament's frozen ruleset, in ``language``, opened by the
    tournament's own settings (:func:`printing.handout.for_tournament`: rounds, fee,
    tie-break, missed rounds).

    One A4 page: a handout that comes out longer (a long ruleset with many of the
    tournament's settings) is laid out once more with less space between lines and blocks
    (``compact``, ``static/print/print.css``), the type still 10 pt."""
    with translation.override(language):
        context = {
            "tournament": tournament,
            "printed_at": timezone.localtime(),
            "LANGUAGE_CODE": language,
            "h": handout.for_tournament(tournament, language),
        }
        pdf = render_pdf("printing/rules.html", context)
        if len(PdfReader(BytesIO(pdf)).pages) > 1:
            pdf = render_pdf("printing/rules.html", {**context, "compact": True})
        return pdf


def poster_pdf(tournament: Tournament, standings_address: str) -> bytes:
    """A4 poster for the door and the tables: the standings address as a large QR code and
    in large type (the QR image is embedded as a ``data:`` URI; nothing is fetched)."""
    return render_pdf(
        "printing/poster.html",
        {
            "tournament": tournament,
            "printed_at": timezone.localtime(),
            "standings_address": standings_address,
            "qr_uri": qr_data_uri(standings_address)
            if reachable_by_phones(standings_address)
            else "",
        },
    )


def series_results_pdf(series: Series) -> bytes:
    """The results list of a series (:func:`series.selectors.series_standings`, public:
    names only with consent at every evening): places, each evening's value (struck-out
    ones in parentheses), evenings played, total.  The table's header repeats on every
    page."""
    return render_pdf(
        "printing/series_results.html",
        {
            "series": series,
            "standings": series_standings(series, public=True),
            "printed_at": timezone.localtime(),
            "LANGUAGE_CODE": translation.get_language() or "de",
        },
    )


def prizes_pdf(tournament: Tournament) -> bytes:
    """The director's prize-giving list (:func:`prizes.selectors.prize_list` with every
    name): who gets which prize, ties marked, cash split, a column to tick off; while a
    round is open it says the list is provisional."""
    awards = prize_list(tournament, public=False)
    return render_pdf(
        "printing/prizes.html",
        {
            "tournament": tournament,
            "awards": awards,
            "total_cash": sum((a.cash_total for a in awards if a.cash_total), Decimal("0")),
            "tie_break_note": selectors.tie_break_note(tournament),
            "provisional": documents.provisional_note(tournament),
            "printed_at": timezone.localtime(),
            "LANGUAGE_CODE": translation.get_language() or "de",
        },
    )


#: name badges on an A4 page (two columns of five, 90 × 50 mm each)
BADGES_PER_PAGE = 10
#: running slips on an A4 page (one above the other)
SLIPS_PER_PAGE = 4


def badges_pdf(tournament: Tournament) -> bytes:
    """Name badges for every registered player, ten per A4 page with cut lines: name,
    club and start number, the tournament's name and date small; name and club only with
    consent (:func:`printing.documents.badge_rows`)."""
    return render_pdf(
        "printing/badges.html",
        {
            "tournament": tournament,
            "pages": documents.in_pages(documents.badge_rows(tournament), BADGES_PER_PAGE),
            "printed_at": timezone.localtime(),
            "LANGUAGE_CODE": translation.get_language() or "de",
        },
    )


def running_slips_pdf(tournament: Tournament) -> bytes:
    """Running slips ("Laufzettel") for every registered player, four per A4 page with cut
    lines: name (with consent) and start number, and each round's table and seat where it
    is drawn (:func:`printing.documents.running_slip_rows`)."""
    return render_pdf(
        "printing/running_slips.html",
        {
            "tournament": tournament,
            "pages": documents.in_pages(documents.running_slip_rows(tournament), SLIPS_PER_PAGE),
            "printed_at": timezone.localtime(),
            "LANGUAGE_CODE": translation.get_language() or "de",
        },
    )


def cash_pdf(tournament: Tournament) -> bytes:
    """The cash summary for the treasurer (:func:`door.selectors.cash_summary`): start fee
    and lost-game fees per player, the sums; every name (not for the wall)."""
    return render_pdf(
        "printing/cash.html",
        {
            "tournament": tournament,
            "summary": cash_summary(tournament),
            "printed_at": timezone.localtime(),
            "LANGUAGE_CODE": translation.get_language() or "de",
        },
    )
