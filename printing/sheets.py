"""A round's score sheets as one PDF: the grid laid out once by WeasyPrint, each table's
text stamped on (:mod:`printing.stamping`; issue 27, docs/performance.md).

The pages of a round's sheets differ in few ways besides their text: the table size, the
games a page holds, which cells are struck because the dealer sits out, which rows are
marked corrected, the QR code, whether there is a corrections list, and how many lines the
names in the head and the signatures take.  Those make a page's *kind*
(:func:`page_kind`).  WeasyPrint lays out one grid page per kind from the same template as
the sheet (``printing/score_sheets.html`` with ``grid``), first with every name on one line;
kinds whose names need more lines than that are laid out once more with room for them.  Then
every page's texts are stamped into the boxes of its grid page and the grid is laid under.
"""

from __future__ import annotations

from dataclasses import replace

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from scoring.qr import qr_modules

from .documents import SheetPage
from .stamping import Grid, Stamper, lay_out_grid, underlay

TEMPLATE = "printing/score_sheets.html"

# the fields whose box grows with their text (names in the head, the signatures and the
# corrections list); every other field sits in a game row of fixed height
_GROWING = ("title", "first-dealer", "scorer", "seat-", "sign-", "corrections")


def growing_fields(page: SheetPage) -> list[str]:
    """The names of ``page``'s fields whose height follows their text."""
    return [key for key in page.fields if key.startswith(_GROWING)]


def page_kind(page: SheetPage) -> tuple:
    """What ``page`` shares with every page drawn on the same grid: everything the template
    prints that is not a field (names and numbers are fields)."""
    sheet = page.sheet
    rows = tuple(
        (
            bool(row.corrected or row.adjusted),
            tuple(cells[0] == "—" and row.hand is None for cells in row.cells),
        )
        for row in page.rows
    )
    return (
        len(sheet.seats),
        sheet.columns,
        sheet.seating,
        sheet.teams_text,
        tuple(sorted(sheet.teams.items())),
        sheet.provisional,
        page.number,
        page.count,
        page.qr,
        rows,
        page.last and bool(sheet.corrections),
    )


def _grid(pages: list[SheetPage], context: dict) -> Grid:
    """One grid page per item of ``pages`` (each with its ``lines`` set)."""
    return lay_out_grid(render_to_string(TEMPLATE, {**context, "pages": pages, "grid": True}))


def score_sheets_pdf(pages: list[SheetPage], context: dict) -> bytes:
    """``pages`` (:func:`printing.documents.sheet_pages`) as one PDF.

    ``context`` is the template's context without the pages (tournament, round, filled,
    seating, marks, printed_at, ...).  Page numbers run over all pages ("Seite 3 von 40").
    Raises ``KeyError`` if a page has a text for which the grid has no place (the template
    and :attr:`SheetPage.fields` disagree)."""
    stamped, grids, under = stamp(pages, context)
    return underlay(stamped, grids, under)


def _sheet_pages(grid: Grid) -> list[list[int]]:
    """The grid's PDF pages grouped by the sheet page they belong to: a sheet page starts a
    new PDF page with its title, and one that runs over (a long corrections list under 15
    games pushes the signatures on) goes on over the next ones."""
    groups: list[list[int]] = []
    for index, page in enumerate(grid.pages):
        if "title" in page.boxes or not groups:
            groups.append([index])
        else:
            groups[-1].append(index)
    return groups


def stamp(pages: list[SheetPage], context: dict) -> tuple[bytes, list[bytes], list[tuple]]:
    """The grids and the stamped texts of ``pages``, not yet put together: the stamped
    pages (PDF bytes), the grid PDFs, and for each PDF page ``(grid, page of that grid)`` to
    lay under it (:func:`printing.stamping.underlay`).  Raises ``KeyError`` for a text the
    grid has no box for."""
    # first pass: one grid page per kind, every growing field one line high
    page_kinds = [page_kind(page) for page in pages]
    kinds: dict[tuple, SheetPage] = {}
    for page, kind in zip(pages, page_kinds, strict=True):
        kinds.setdefault(kind, page)
    order = {kind: index for index, kind in enumerate(kinds)}
    probe = _grid(
        [replace(p, lines=dict.fromkeys(growing_fields(p), 1)) for p in kinds.values()], context
    )
    probe_pages = _sheet_pages(probe)
    # second pass: the pages whose growing fields take more lines in their kind's boxes
    layouts: dict[tuple, int] = {}
    again: list[SheetPage] = []
    placed: list[tuple[int, int]] = []  # (0: first pass / 1: second, sheet page of that grid)
    for page, kind_key in zip(pages, page_kinds, strict=True):
        kind = order[kind_key]
        boxes = {k: v for i in probe_pages[kind] for k, v in probe.pages[i].boxes.items()}
        lines = {k: max(1, len(boxes[k].lines(page.fields[k]))) for k in growing_fields(page)}
        if all(count == 1 for count in lines.values()):
            placed.append((0, kind))
            continue
        layout = (kind, tuple(sorted(lines.items())))
        if layout not in layouts:
            layouts[layout] = len(again)
            again.append(replace(page, lines=lines))
        placed.append((1, layouts[layout]))
    grids = [probe]
    groups = [probe_pages]
    if again:
        grids.append(_grid(again, context))
        groups.append(_sheet_pages(grids[1]))

    title = _("Spielliste (Protokoll)") if context.get("filled") else _("Spielliste")
    stamper = Stamper(title=title, lang=context.get("LANGUAGE_CODE", ""))
    label, of = _("Seite"), _("von")
    under = [(g, k) for g, group in placed for k in groups[g][group]]
    number = 0
    for page, (g, group) in zip(pages, placed, strict=True):
        drawn = set()
        for k in groups[g][group]:
            grid_page = grids[g].pages[k]
            number += 1
            stamper.page(grid_page)
            for key, text in page.fields.items():
                box = grid_page.boxes.get(key)
                if box is None:
                    continue
                drawn.add(key)
                if key == "qr":
                    stamper.squares(box, qr_modules(text))
                elif isinstance(text, str) or not text:
                    stamper.text(box, text or "")
                else:  # shorter forms: the page keeps the one drawn (as the sheet says)
                    page.fields[key] = text[stamper.text(box, text)]
            stamper.text(grid_page.boxes["page"], f"{label} {number} {of} {len(under)}")
        if missing := page.fields.keys() - drawn:
            raise KeyError(f"No place on the sheet's grid for {sorted(missing)}")
    return stamper.finish(), [grid.pdf for grid in grids], under
