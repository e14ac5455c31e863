"""The score sheets as they were printed before issue 27, kept as the benchmark's reference:
every page laid out wholly by WeasyPrint, the tables split into one part per processor core,
the parts rendered in parallel processes and joined with pypdf, page numbers running on
across the parts.  ``python -m bench.app_bench`` times it next to the stamped sheets
(:mod:`printing.sheets`) in the same run; the app itself no longer uses it."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from io import BytesIO

from django.template.loader import render_to_string
from pypdf import PdfReader, PdfWriter

from printing.pdfs import score_sheet_pages
from printing.render import lay_out
from printing.sheets import TEMPLATE

# below this many tables per part, one process was quicker than starting a second
PARALLEL_FROM_TABLES = 6


def score_sheets_pdf(round_, filled: bool) -> bytes:
    """``round_``'s score sheets laid out wholly by WeasyPrint, in parts on every core."""
    pages, context = score_sheet_pages(round_, filled)
    by_table: dict[int, list] = {}
    for page in pages:
        by_table.setdefault(page.sheet.table.pk, []).append(page)
    tables = list(by_table.values())
    cores = max(1, os.cpu_count() or 1)
    parts = min(cores, max(1, len(tables) // PARALLEL_FROM_TABLES))
    size = max(1, -(-len(tables) // parts))
    chunks = [sum(tables[i : i + size], []) for i in range(0, len(tables), size)] or [[]]
    htmls, first = [], 1
    for chunk in chunks:
        htmls.append(
            render_to_string(
                TEMPLATE,
                {**context, "pages": chunk, "page_first": first, "page_total": len(pages)},
            )
        )
        first += len(chunk)
    if len(htmls) == 1:
        return _write(htmls[0])
    pool = ProcessPoolExecutor(
        max_workers=len(htmls), mp_context=multiprocessing.get_context("fork")
    )
    with pool:
        parts = list(pool.map(_write, htmls))
    writer = PdfWriter()
    for part in parts:
        writer.append(PdfReader(BytesIO(part)))
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def _write(html: str) -> bytes:
    return lay_out(html).write_pdf()
