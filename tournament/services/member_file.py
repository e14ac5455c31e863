"""Reading a club's member list file for the import (:mod:`.member_import`, issue 41.5):
an uploaded XLSX or CSV file (``;``, ``,`` or tab separated; UTF-8 with or without BOM,
UTF-16 with BOM or Windows-1252) read into a :class:`Sheet` of text cells, every non-empty
row with its number as the spreadsheet shows it.  Refusals are ``ValidationError`` keyed
``file``, in German; the limits below keep a hostile file from costing memory or time.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from openpyxl import load_workbook

#: Largest file accepted (bytes), most rows with data (a header row besides), most columns
#: read (further columns are ignored), longest text kept of one cell.
MAX_BYTES = 2 * 1024 * 1024
MAX_ROWS = 2000
MAX_COLUMNS = 40
MAX_CELL = 1000
#: Most rows read at all (empty ones included) and most bytes an XLSX file may unpack to:
#: beyond them a file is refused before it costs minutes or memory.
MAX_PHYSICAL_ROWS = 50_000
MAX_UNPACKED = 100 * 1024 * 1024
#: Most characters kept of all cells together (the sheet is kept in the session): an XLSX
#: file can repeat one long text in every cell.
MAX_TEXT = 4 * 1024 * 1024

#: The fields a column can be mapped to; ``full_name`` is one column "Nachname, Vorname".


def _refuse(message: str) -> ValidationError:
    return ValidationError({"file": [message]})


# --------------------------------------------------------------------------- the sheet


@dataclass
class Sheet:
    """A read file: ``rows`` holds every non-empty row as ``(number, cells)``, ``number``
    counted as the spreadsheet shows it (1 = first line, empty lines counted), ``cells``
    the texts of its columns (all rows as wide as :attr:`width`); ``name`` is the file's
    name as uploaded."""

    rows: list[tuple[int, list[str]]]
    name: str = ""

    @property
    def width(self) -> int:
        return len(self.rows[0][1]) if self.rows else 0

    def to_data(self) -> dict:
        """The sheet as JSON-able data (for the session)."""
        return {"name": self.name, "rows": [[n, cells] for n, cells in self.rows]}

    @classmethod
    def from_data(cls, data: dict) -> Sheet:
        """The sheet :meth:`to_data` gave."""
        return cls([(int(n), [str(c) for c in cells]) for n, cells in data["rows"]], data["name"])


def read_member_file(upload) -> Sheet:
    """Read an uploaded member list (a Django ``UploadedFile`` or any binary file object
    with ``read()``, and ``name``/``size`` where known): XLSX (its active sheet) or CSV.

    Raises ``ValidationError`` on field ``file`` (one German sentence) when the file is
    larger than :data:`MAX_BYTES`, has more than :data:`MAX_ROWS` rows with data (besides
    a header) or more text than :data:`MAX_TEXT`, is empty, an old ``.xls``, not a
    readable XLSX, or a CSV in another encoding or with a field too long to read."""
    too_big = _too_big()
    if (getattr(upload, "size", None) or 0) > MAX_BYTES:
        raise _refuse(too_big)
    data = upload.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise _refuse(too_big)
    if data.startswith(b"PK\x03\x04"):
        rows = _xlsx_rows(data)
    elif data.startswith(b"\xd0\xcf\x11\xe0"):
        raise _refuse(
            _(
                "Alte Excel-Dateien (.xls) können nicht gelesen werden. Bitte in Excel als "
                "„Excel-Arbeitsmappe (.xlsx)“ oder als CSV speichern."
            )
        )
    else:
        rows = _csv_rows(_decode(data))
    return Sheet(_collect(rows), str(getattr(upload, "name", "") or "")[:100])


def _too_big() -> str:
    return _(
        "Die Datei ist größer als %(mb)s MB. Bitte nur die Spalten mit Namen, Verein, "
        "Jahrgang und Einwilligung speichern."
    ) % {"mb": MAX_BYTES // (1024 * 1024)}


def _xlsx_rows(data: bytes):
    """The rows of the active sheet of an XLSX file, as tuples of cell values."""
    unreadable = _refuse(_("Die Datei ist keine lesbare Excel-Datei (.xlsx)."))
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl and zipfile raise many kinds on a broken file
        raise unreadable from exc
    if unpacked > MAX_UNPACKED:
        workbook.close()
        raise _refuse(_("Die Excel-Datei ist entpackt zu groß."))
    try:
        sheet = workbook.active or workbook.worksheets[0]
        sheet.reset_dimensions()  # some programs write a wrong size: read every row
        yield from sheet.iter_rows(min_row=1, max_col=MAX_COLUMNS, values_only=True)
    except Exception as exc:
        raise unreadable from exc
    finally:
        workbook.close()


def _decode(data: bytes) -> str:
    """The text of a CSV file: UTF-8 (a BOM is dropped), UTF-16 with BOM, else
    Windows-1252; raises ``ValidationError`` when it is none of them."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encodings = ("utf-16",)
    elif b"\x00" in data:  # UTF-16 without its BOM, or no text at all
        encodings = ()
    else:
        encodings = ("utf-8-sig", "cp1252")
    for encoding in encodings:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise _refuse(
        _(
            "Der Zeichensatz der Datei ist weder UTF-8 noch Windows-1252. Bitte als "
            "„CSV UTF-8“ oder als Excel-Datei (.xlsx) speichern."
        )
    )


def _csv_rows(text: str):
    """The rows of a CSV text, its delimiter (tab, ``;`` or ``,``) found in its first lines."""
    delimiter = _delimiter(text.splitlines()[:50])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        yield from reader
    except csv.Error as exc:  # a field beyond csv's limit (128 KiB)
        raise _refuse(
            _("Die CSV-Datei ist in Zeile %(row)s nicht lesbar (ein Feld ist zu lang).")
            % {"row": reader.line_num}
        ) from exc


def _delimiter(lines: list[str]) -> str:
    """The delimiter that splits most of ``lines`` into the same number (more than one) of
    fields; on a tie tab before ``;`` before ``,`` (a ``;`` list may hold "Name, Vorname")."""
    best, best_score = ",", 0
    lines = [line for line in lines if line.strip()]
    for delimiter in ("\t", ";", ","):
        try:
            counts = [len(row) for row in csv.reader(lines, delimiter=delimiter)]
        except csv.Error:
            continue
        common = max(set(counts), key=counts.count, default=1)
        score = counts.count(common) if common > 1 else 0
        if score > best_score:
            best, best_score = delimiter, score
    return best


def _cell_text(value) -> str:
    """A cell's value as text: whole numbers without ``.0``, dates as ``YYYY-MM-DD``,
    ``True``/``False`` as ``1``/``0``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return str(value)[:MAX_CELL]


def _collect(rows) -> list[tuple[int, list[str]]]:
    """The non-empty rows of ``rows`` (numbered from 1), as texts of equal width.  Raises
    ``ValidationError`` when there are none or too many."""
    found: list[tuple[int, list[str]]] = []
    too_many = _refuse(
        _(
            "Die Datei hat mehr als %(n)s Zeilen. Bitte nur die Spieler dieses Turniers "
            "speichern oder die Liste aufteilen."
        )
        % {"n": MAX_ROWS}
    )
    text = 0
    for number, row in enumerate(rows, start=1):
        if number > MAX_PHYSICAL_ROWS:
            raise too_many
        cells = [_cell_text(v) for v in list(row)[:MAX_COLUMNS]]
        if not any(c.strip() for c in cells):
            continue
        if len(found) > MAX_ROWS:  # one more than the limit: a header row
            raise too_many
        text += sum(len(c) for c in cells)
        if text > MAX_TEXT:
            raise _refuse(
                _(
                    "Die Datei enthält zu viel Text. Bitte nur die Spalten mit Namen, Verein, "
                    "Jahrgang und Einwilligung speichern."
                )
            )
        found.append((number, cells))
    if not found:
        raise _refuse(_("Die Datei enthält keine Zeile mit Daten."))
    width = max(
        max((i + 1 for i, c in enumerate(cells) if c.strip()), default=0) for _n, cells in found
    )
    return [(n, (cells + [""] * width)[:width]) for n, cells in found]


# --------------------------------------------------------------------------- the columns
