"""Text stamped onto a grid that WeasyPrint laid out once.

WeasyPrint lays out every document, but a page of many small texts costs it about a
millisecond of CPU per text (docs/performance.md).  A document whose pages share their grid
(the score sheets) is therefore made in three steps:

1. :func:`lay_out_grid`: WeasyPrint lays out the grid pages.  Each place that takes a page's
   own text is an invisible link (``<a class="f" href="field:name">``); WeasyPrint reports every
   link's box and the box's computed style (:attr:`weasyprint.Page.links`), which become
   :class:`Box` es: where the text goes and how it is set (font, size, line height, colour,
   alignment, wrapping), all as ``print.css`` says.  Nothing here repeats a position or a
   size of the stylesheet.
2. :class:`Stamper`: reportlab writes each page's texts into their boxes on an empty page of
   the grid's size: wrapped at spaces and after hyphens like the browser (and anywhere in a
   word longer than the box, where the stylesheet allows it), shrunk when the box cannot
   hold the lines, aligned and vertically centred as in the table cell.
3. :func:`underlay`: pikepdf puts the grid page under each stamped page, as a form XObject
   that every page using that grid shares.

Coordinates are PDF points (1/72 inch) from the page's top-left corner, y downwards, as
WeasyPrint reports them; the stamper turns them into PDF space.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from io import BytesIO
from pathlib import Path

import arabic_reshaper
import pikepdf
from bidi import get_display
from fontTools.ttLib import TTFont as FontFile
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont
from reportlab.pdfgen.canvas import Canvas

from .render import lay_out, printable

#: a field's link in the grid: ``field:`` and its name (``<a href="field:title">``); a scheme
#: of its own, so WeasyPrint looks for no anchor of that name
FIELD = "field:"

#: CSS pixels (1/96 inch, WeasyPrint's unit) to PDF points (1/72 inch)
POINTS_PER_PX = 72 / 96

#: The font files of the families and weights the print stylesheet uses (Debian
#: ``fonts-dejavu-core``, the fonts WeasyPrint embeds for the same documents).
FONT_FILES = {
    ("DejaVu Sans", False): "DejaVuSans.ttf",
    ("DejaVu Sans", True): "DejaVuSans-Bold.ttf",
    ("DejaVu Sans Mono", False): "DejaVuSansMono.ttf",
    ("DejaVu Sans Mono", True): "DejaVuSansMono-Bold.ttf",
}

# Unicode isolates and embeddings (U+2066–U+2069, U+202A–U+202E) and the directional marks:
# the documents put names between isolates so that a right-to-left override typed into one
# cannot reorder the rest of the line; each stamped text is drawn on its own, so there is
# nothing to reorder, and the font has no glyph for them (they would print as boxes)
_BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# pieces between break opportunities: a word up to a hyphen that follows a character and is
# followed by a letter ("Maximilian-" | "Alexander", but "-2000" whole), a word, spaces
_PIECES = re.compile(r"\S+?-+(?=[^\s\d-])|\S+|\s+")
# no break before these even after a space (Unicode line breaking, UAX #14 rule LB13):
# "320 / 50" breaks after the slash's space, not before it
_NO_BREAK_BEFORE = frozenset("/)]}!?,.;:")


@dataclass(frozen=True)
class Font:
    """A font as reportlab draws it: ``name`` registered with reportlab; the font's
    ``ascent`` and ``descent`` (positive, in ems, from its ``hhea`` table, as the browser
    places a line's baseline); ``kerning``: the adjustment in ems between two characters
    from the font's ``kern`` table, which the browser applies and reportlab does not."""

    name: str
    ascent: float
    descent: float
    kerning: dict[tuple[str, str], float] = field(default_factory=dict, compare=False, hash=False)

    def _pairs(self, text: str):
        return (self.kerning.get(pair, 0.0) for pair in zip(text, text[1:], strict=False))

    def width(self, text: str, size: float) -> float:
        """Width of ``text`` at ``size`` points, in points, kerned."""
        return pdfmetrics.stringWidth(text, self.name, size) + size * sum(self._pairs(text))

    def runs(self, text: str, size: float) -> list[tuple[float, str]]:
        """``text`` cut where a kerning pair moves the next character: each run with its
        offset from the start of the text, in points (one run when nothing is kerned)."""
        runs: list[tuple[float, str]] = []
        start, offset = 0, 0.0
        for index, kern in enumerate(self._pairs(text), start=1):
            if kern:
                run = text[start:index]
                runs.append((offset, run))
                offset += pdfmetrics.stringWidth(run, self.name, size) + kern * size
                start = index
        runs.append((offset, text[start:]))
        return runs


@cache
def font(family: str, bold: bool) -> Font:
    """The :class:`Font` for a CSS family name and weight, registered with reportlab on
    first use.  ``ValueError`` for a family the print documents do not use
    (:data:`FONT_FILES`), so a stylesheet change to another font is noticed."""
    try:
        filename = FONT_FILES[(family, bold)]
    except KeyError:
        raise ValueError(f"No font file for {family!r} (bold: {bold}) to stamp with") from None
    name = Path(filename).stem
    try:  # found in reportlab's font folders (rl_config.TTFSearchPath: /usr/share/fonts/...)
        face = TTFont(name, filename)
    except TTFError as exc:
        raise ValueError(f"Font file {filename} not found: {exc}") from exc
    pdfmetrics.registerFont(face)
    header = FontFile(face.face.filename, lazy=True)
    units = header["head"].unitsPerEm
    characters: dict[str, list[str]] = {}
    for code, glyph in header.getBestCmap().items():
        characters.setdefault(glyph, []).append(chr(code))
    kerning = {}
    if "kern" in header:
        for table in header["kern"].kernTables:
            for (left, right), value in getattr(table, "kernTable", {}).items():
                for a in characters.get(left, ()):
                    for b in characters.get(right, ()):
                        kerning[a, b] = value / units
    return Font(name, header["hhea"].ascent / units, -header["hhea"].descent / units, kerning)


@dataclass(frozen=True)
class Box:
    """Where one field's text goes on a grid page and how it is set.

    ``left``, ``top``, ``right``, ``bottom``: the field's box in points from the page's
    top-left corner.  ``size``: font size in points; ``line_height``: in points (CSS
    ``line-height``, ``normal`` being the font's ascent plus descent); ``color``: sRGB, each
    0–1; ``align``: ``"left"``, ``"right"`` or ``"center"``; ``wrap``: ``"none"`` (CSS
    ``white-space: nowrap``), ``"words"`` (at spaces and after hyphens) or ``"anywhere"``
    (also inside a word too long for the box: ``overflow-wrap: anywhere`` or
    ``break-word``)."""

    left: float
    top: float
    right: float
    bottom: float
    font: Font
    size: float
    line_height: float
    color: tuple[float, float, float]
    align: str
    wrap: str

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def lines(self, text: str, size: float | None = None) -> list[str]:
        """``text`` broken into the lines it takes in this box at ``size`` points (the
        box's own size by default)."""
        return wrap(clean(text), self.font, size or self.size, self.width, self.wrap)


def _box(rectangle, style) -> Box:
    """A :class:`Box` from a WeasyPrint link rectangle and the computed style of the link's
    box.  The rectangle is the box's border box as two corners, ``(x1, y1, x2, y2)`` in CSS
    px (what ``Page.links`` holds, whatever its docstring's "x, y, width, height" says; the
    comparison in tests/printing/test_sheet_stamping.py fails if that changes)."""
    left, top, right, bottom = (value * POINTS_PER_PX for value in rectangle)
    bold = style["font_weight"] >= 600
    family = next((f for f in style["font_family"] if (f, bold) in FONT_FILES), None)
    face = font(family or style["font_family"][0], bold)
    size = style["font_size"] * POINTS_PER_PX
    line_height = style["line_height"]
    if line_height == "normal":
        leading = (face.ascent + face.descent) * size
    elif getattr(line_height, "unit", None) == "px":
        leading = line_height.value * POINTS_PER_PX
    else:  # a number: a multiple of the font size
        leading = float(getattr(line_height, "value", line_height)) * size
    red, green, blue = style["color"].to("srgb").coordinates
    align = style["text_align_all"]
    align = {"start": "left", "justify": "left", "end": "right"}.get(align, align)
    if style["white_space"] in ("nowrap", "pre"):
        wrapping = "none"
    elif style["overflow_wrap"] in ("anywhere", "break-word"):
        wrapping = "anywhere"
    else:
        wrapping = "words"
    return Box(left, top, right, bottom, face, size, leading, (red, green, blue), align, wrapping)


@dataclass
class GridPage:
    """A page of a grid: its size in points and its fields' :class:`Box` es by name."""

    width: float
    height: float
    boxes: dict[str, Box]


@dataclass
class Grid:
    """Grid pages laid out by WeasyPrint: the PDF and, per page, its fields."""

    pdf: bytes
    pages: list[GridPage]


def lay_out_grid(html: str) -> Grid:
    """Lay out ``html`` (a document whose fields are ``<a href="field:name">``) and read back
    where each field is: the first box WeasyPrint reports for a link target on a page is
    the ``<a>`` itself.  The grid's PDF keeps WeasyPrint's drawing; the links are not
    carried over to the stamped pages (:func:`underlay` takes the page's content only)."""
    document = lay_out(html)
    pages = []
    for page in document.pages:
        boxes: dict[str, Box] = {}
        for _kind, target, rectangle, box in page.links:
            name = target.removeprefix(FIELD)
            if target.startswith(FIELD) and name not in boxes:
                boxes[name] = _box(rectangle, box.style)
        pages.append(GridPage(page.width * POINTS_PER_PX, page.height * POINTS_PER_PX, boxes))
    return Grid(document.write_pdf(), pages)


def _right_to_left(text: str) -> bool:
    """Whether ``text`` holds a letter written right to left (Arabic, Hebrew, …)."""
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


def shaped(text: str) -> str:
    """``text`` with its Arabic letters in their joined forms (``arabic_reshaper``: the
    presentation forms DejaVu Sans holds), as a browser shapes them; other text as it is.
    Shaping comes before wrapping: the widths measured are those of the printed glyphs."""
    if not _right_to_left(text):
        return text
    return arabic_reshaper.reshape(text)


def visual(line: str) -> str:
    """One stamped line in the order its glyphs are drawn left to right: the Unicode
    bidirectional algorithm (``python-bidi``) with a left-to-right base, so a right-to-left
    name reads right to left and the start number before it stays on the left ("12 <name>",
    as the browser shows an isolated name); a line without right-to-left letters as it is
    (issue 37.26: Arabic printed reversed and unjoined on the stamped sheets)."""
    if not _right_to_left(line):
        return line
    return get_display(line, base_dir="L")


def clean(text: str) -> str:
    """``text`` as it is stamped: control characters as spaces (as in every PDF,
    :func:`printing.render.printable`), without bidirectional controls
    (:data:`_BIDI_CONTROLS`), white space collapsed as HTML does."""
    return " ".join(_BIDI_CONTROLS.sub("", printable(text)).split())


def wrap(text: str, face: Font, size: float, width: float, mode: str) -> list[str]:
    """``text`` in lines no wider than ``width`` points in ``face`` at ``size`` points,
    filled greedily as a browser does: breaks at spaces and after hyphens, never before a
    closing mark (:data:`_NO_BREAK_BEFORE`; ``mode`` ``"words"``), also between any two
    characters of a word wider than a line (``"anywhere"``), or none (``"none"``: one line,
    however wide).  An empty text is no line."""
    if not text:
        return []
    if mode == "none":
        return [text]

    def measure(part: str) -> float:
        return face.width(part, size)

    # units that are never broken, each with what separates it from the one before
    units: list[list[str]] = []
    space = False
    for piece in _PIECES.findall(text):
        if piece.isspace():
            space = True
            continue
        if units and space and piece[0] in _NO_BREAK_BEFORE:
            units[-1][1] += " " + piece
        else:
            units.append([" " if space and units else "", piece])
        space = False
    lines: list[str] = []
    line = ""
    for separator, unit in units:
        candidate = line + separator + unit
        if not line or measure(candidate) <= width:
            line = candidate
        else:
            lines.append(line)
            line = unit
        while mode == "anywhere" and len(line) > 1 and measure(line) > width:
            cut = len(line) - 1
            while cut > 1 and measure(line[:cut]) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:].lstrip()
    if line:
        lines.append(line)
    return lines


#: the pieces a line may break between: words, each with a hyphen that ends it
_WORDS = re.compile(r"[^\s-]+-?")


class Stamper:
    """Texts drawn onto empty pages with reportlab, one page per :meth:`page` call, in
    the order of the grid pages they will lie on; ``title`` and ``lang`` (e.g. ``"de"``) go
    into the document's metadata, as WeasyPrint writes them from ``<title>`` and ``lang``."""

    #: the smallest size a text is shrunk to, in points, before it is drawn as it is
    SMALLEST = 4.0

    def __init__(self, title: str = "", lang: str = "") -> None:
        self._buffer = BytesIO()
        self._canvas = Canvas(self._buffer, pageCompression=1, lang=lang or None)
        if title:
            self._canvas.setTitle(title)
        self._text = None
        self._height = 0.0

    def page(self, grid_page: GridPage) -> None:
        """Start the next page, of ``grid_page``'s size (ends the one before)."""
        self._end_page()
        self._canvas.setPageSize((grid_page.width, grid_page.height))
        self._height = grid_page.height
        self._text = self._canvas.beginText()
        self._state = None

    def _end_page(self) -> None:
        if self._text is not None:
            self._canvas.drawText(self._text)
            self._canvas.showPage()
            self._text = None

    #: the smallest size a text may be shrunk to while a shorter form of it is at hand
    #: (issue 37.24: names on four-seat sheets fell to 5.7 pt)
    READABLE = 8.0

    def fit(self, box: Box, text: str | Sequence[str]) -> tuple[str, float, float, list[str], int]:
        """How ``text`` is set in ``box``: ``(text, size, leading, lines)``.  Wrapped
        (:meth:`Box.lines`) and shrunk in steps of 5 % while its lines are higher than the
        box or (unwrappable) wider than it.  ``text`` may be a sequence of forms, longest
        first ("12 Anna-Katharina", "12 A.", "12"): the first that fits at
        :data:`READABLE` points or more (or at the box's own size, if smaller) is taken,
        else the last one, shrunk as far as it must; the last item of the tuple is the
        index of the form taken in ``text`` (0 for a single text)."""
        given = [text] if isinstance(text, str) else list(text)
        indexed = [(i, shaped(clean(f))) for i, f in enumerate(given) if clean(f)]
        if not indexed:
            return "", box.size, box.line_height, [], 0
        floor = min(box.size, self.READABLE)
        for number, (index, form) in enumerate(indexed):
            last = number == len(indexed) - 1
            face = box.font
            size = box.size
            leading = box.line_height
            lines = wrap(form, face, size, box.width, box.wrap)
            while size > self.SMALLEST and (
                len(lines) * leading > box.height + 0.5
                or any(face.width(line, size) > box.width + 0.01 for line in lines)
            ):
                size *= 0.95
                leading = box.line_height * size / box.size
                lines = wrap(form, face, size, box.width, box.wrap)
            # a shorter form is at hand: this one must keep its size and its words whole
            # (broken only at spaces and after hyphens: "Diamo/nds" is no fit)
            whole = all(face.width(word, size) <= box.width + 0.01 for word in _WORDS.findall(form))
            if last or (size >= floor - 0.01 and whole):
                return form, size, leading, lines, index
        raise AssertionError("unreachable: the last form is always taken")

    def text(self, box: Box, text: str | Sequence[str]) -> int:
        """Draw ``text`` (one text, or its forms longest first: :meth:`fit`) into ``box``,
        aligned and centred vertically; an empty text draws nothing.  Returns the index
        of the form drawn."""
        text, size, leading, lines, index = self.fit(box, text)
        if not lines:
            return index
        face = box.font
        state = (face.name, size, box.color)
        if state != self._state:
            self._text.setFont(face.name, size)
            self._text.setFillColorRGB(*box.color)
            self._state = state
        top = box.top + (box.height - len(lines) * leading) / 2
        # the baseline in a line box: half the leading above the font's ascent
        baseline = (leading - (face.ascent + face.descent) * size) / 2 + face.ascent * size
        for number, line in enumerate(lines):
            if box.align == "right":
                x = box.right - face.width(line, size)
            elif box.align == "center":
                x = box.left + (box.width - face.width(line, size)) / 2
            else:
                x = box.left
            y = self._height - (top + number * leading + baseline)
            line = visual(line)
            for offset, run in face.runs(line, size):
                self._text.setTextOrigin(x + offset, y)
                self._text.textOut(run)
        return index

    def squares(self, box: Box, modules: list[list[bool]]) -> None:
        """Draw a square matrix of dark ``modules`` (a QR code, quiet zone included) filling
        the width of ``box``, from its top-left corner, in black."""
        count = len(modules)
        side = box.width / count
        path = self._canvas.beginPath()
        for row, line in enumerate(modules):
            for column, dark in enumerate(line):
                if dark:
                    top = box.top + row * side
                    path.rect(box.left + column * side, self._height - top - side, side, side)
        self._canvas.saveState()
        self._canvas.setFillColorRGB(0, 0, 0)
        self._canvas.drawPath(path, stroke=0, fill=1)
        self._canvas.restoreState()

    def finish(self) -> bytes:
        """The stamped pages as PDF bytes."""
        self._end_page()
        self._canvas.save()
        return self._buffer.getvalue()


def underlay(stamped: bytes, grids: list[bytes], under: list[tuple[int, int]]) -> bytes:
    """``stamped`` with page ``under[i] = (g, k)`` (page ``k`` of ``grids[g]``) laid under its
    page ``i``.  Each grid page becomes one form XObject shared by every page that lies on
    it, so the grid's drawing and fonts are in the file once (pikepdf,
    :meth:`pikepdf.Page.add_underlay`)."""
    with pikepdf.open(BytesIO(stamped)) as out:
        sources = [pikepdf.open(BytesIO(grid)) for grid in grids]
        try:
            forms: dict[tuple[int, int], pikepdf.Object] = {}
            for page, (g, k) in zip(out.pages, under, strict=True):
                if (g, k) not in forms:
                    forms[g, k] = out.copy_foreign(sources[g].pages[k].as_form_xobject())
                page.add_underlay(forms[g, k])
            result = BytesIO()
            out.save(result, compress_streams=True)
        finally:
            for source in sources:
                source.close()
        return result.getvalue()
