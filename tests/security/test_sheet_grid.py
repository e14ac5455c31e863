"""The score sheets' grid (printing/sheets.py) is laid out from the sheet template with every
table's text replaced by invisible placeholders (``{% field %}`` and ``{% placeholder %}`` in
printing/templatetags/sheet_fields.py, whose output is marked safe).  With hostile names
and a hostile tournament name, the grid's HTML holds none of a table's text, whole or
escaped, and the sheets themselves still carry the names as typed (letters compared)."""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO

import pytest
from django.template.loader import render_to_string
from pypdf import PdfReader

from printing import pdfs, sheets
from tests.factories.pdf import HOSTILE_NAMES
from tests.factories.tournaments import make_tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("case", ["quotes", "end-of-style", "carriage-return", "url", "script"])
def test_the_grid_holds_no_name_and_the_sheet_prints_it(case):
    hostile = HOSTILE_NAMES[case].replace("{bait}", "file:///etc/passwd")
    tournament = make_tournament(players=6, consent=lambda i: True)
    registration = tournament.registrations.get(start_number=1)
    registration.player.first_name = hostile[:100]
    registration.player.save()
    round_ = tournament.round_set.get(number=1)
    for filled in (False, True):
        pages, context = pdfs.score_sheet_pages(round_, filled)
        grid_pages = [replace(p, lines=dict.fromkeys(sheets.growing_fields(p), 2)) for p in pages]
        html = render_to_string(sheets.TEMPLATE, {**context, "pages": grid_pages, "grid": True})
        for piece in ("Vorname", "Nachname1", "<script", "passwd", "doppelt", "</style><img"):
            assert piece not in html, (case, filled, piece)
        assert "<br>" in html  # the placeholders: X and <br> only
        text = "".join(
            page.extract_text()
            for page in PdfReader(BytesIO(pdfs.score_sheets_pdf(round_, filled))).pages
        )
        letters = "".join(ch for ch in hostile[:100] if ch.isalnum())
        assert letters[:12] in "".join(ch for ch in text if ch.isalnum()), case
