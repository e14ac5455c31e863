"""Standings as spreadsheet files: CSV, CSV for a German Excel, and XLSX.

Every file holds text and numbers, never formulas.  A text cell that starts with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return would be run as a formula by Excel or
LibreOffice (a player named ``=HYPERLINK(...)``), so it is written as text: in XLSX as a
string cell, in CSV with a leading ``'`` (OWASP's advice against CSV injection).  Numbers
(ints and ``Decimal`` EUR amounts) stay numbers, negative point totals included.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal

from openpyxl import Workbook
from openpyxl.styles import Font

from tournament.text import xml_safe

# what makes a spreadsheet read a cell as a formula (OWASP "CSV Injection")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | Decimal | None
Rows = Iterable[Sequence[Cell]]


def is_formula_like(value: Cell) -> bool:
    """Whether ``value`` is text that a spreadsheet would take for a formula."""
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


def _csv_cell(value: Cell, decimal_comma: bool) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int | Decimal):
        text = str(value)
        return text.replace(".", ",") if decimal_comma else text
    text = xml_safe(str(value))  # the same text as in the XLSX file
    return "'" + text if is_formula_like(text) else text


def to_csv(rows: Rows, excel_german: bool = False) -> bytes:
    """``rows`` (a header row, then data rows) as CSV bytes.

    Plain: UTF-8, ``,`` separated, ``.`` as decimal point.  ``excel_german``: UTF-8 with
    byte order mark, ``;`` separated, decimal comma, which a German Excel opens correctly
    with a double click.  Formula-like text gets a leading ``'`` (see module docstring).
    """
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=";" if excel_german else ",")
    for row in rows:
        writer.writerow([_csv_cell(value, excel_german) for value in row])
    text = out.getvalue()
    return ("\ufeff" + text).encode("utf-8") if excel_german else text.encode("utf-8")


def to_xlsx(rows: Rows, title: str) -> bytes:
    """``rows`` (a header row, then data rows) as an XLSX workbook of one sheet named
    ``title`` (cut to Excel's 31 characters), header in bold and frozen.  Text is always a
    string cell, never a formula, with control characters XML cannot hold as spaces; ints
    and ``Decimal`` are number cells."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "".join(c for c in title if c not in "[]:*?/\\")[:31] or "Rangliste"
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            if value is None or value == "":
                continue
            cell = sheet.cell(row=r, column=c)
            if isinstance(value, int | Decimal) and not isinstance(value, bool):
                cell.value = value
            else:
                # characters XML cannot hold (a form feed, U+FFFE typed into a name)
                cell.value = xml_safe(str(value))
                cell.data_type = "s"  # openpyxl would take a leading "=" for a formula
            if r == 1:
                cell.font = Font(bold=True)
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()
