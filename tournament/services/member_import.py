"""Importing a club's member list into a tournament's registrations (issue 41.5).

Three steps, nothing stored before the last:

1. :func:`read_member_file` (from :mod:`.member_file`, re-exported here with its limits):
   an uploaded XLSX or CSV file read into a :class:`Sheet` of text cells;
2. :func:`guess_header` and :func:`guess_mapping`: which column holds which field, from the
   header (German or English names) or, without one, from the content; the director may
   change it.  :func:`preview_members`: each row as a :class:`PreviewRow`, read and matched
   against the known players by :func:`~tournament.services.registration.find_player` (the
   matching registration itself uses), or with errors naming the row and the column;
3. :func:`import_members`: every valid row registered in one transaction.

The view keeps the sheet (plain text, :meth:`Sheet.to_data`) in the session between the
steps; the file itself is never written anywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from openpyxl.utils import get_column_letter

from ..models import Player, Registration, Tournament
from ..text import first_unstorable

#: Largest file accepted (bytes), most rows with data (a header row besides), most columns
#: read (further columns are ignored), longest text kept of one cell.
from .member_file import MAX_BYTES, MAX_ROWS, Sheet, read_member_file  # noqa: F401 - re-exported
from .registration import _key, find_player, register_player, withdrawn_message

FIELDS = ("last_name", "first_name", "full_name", "club", "year_of_birth", "consent")
FIELD_LABELS = {
    "last_name": gettext_lazy("Nachname"),
    "first_name": gettext_lazy("Vorname"),
    "full_name": gettext_lazy("Name (Nachname, Vorname)"),
    "club": gettext_lazy("Verein"),
    "year_of_birth": gettext_lazy("Geburtsjahr"),
    "consent": gettext_lazy("Einwilligung zur Veröffentlichung"),
}
#: Oldest year of birth accepted (as the ``Player`` column's validator).
FIRST_YEAR = 1900

_YES = {"ja", "j", "x", "1", "true", "wahr", "yes", "y", "✓", "✔"}
_NO = {"", "nein", "n", "0", "false", "falsch", "no", "-", "–"}
_DATE = re.compile(r"(?:\d{1,2}\.\d{1,2}\.(\d{4})|(\d{4})-\d{1,2}-\d{1,2})")

# header names (lower case, ``_``/``-`` as spaces, ``.``/``:``/``*`` dropped)
_HEADERS = {
    "last_name": {"nachname", "familienname", "zuname", "last name", "lastname", "surname"},
    "first_name": {"vorname", "rufname", "first name", "firstname", "given name"},
    "full_name": {"nachname, vorname", "name, vorname", "spieler", "mitglied", "full name"},
    "club": {"verein", "club", "klub", "team", "mannschaft"},
    "year_of_birth": {"jg", "yob", "year"},
}
# header parts: a header containing one of them names the field
_HEADER_PARTS = {
    "consent": ("einwillig", "veröffentl", "zustimm", "consent", "publish"),
    "year_of_birth": ("jahrgang", "geburtsjahr", "geburtsdatum", "birth"),
}


def _header_field(text: str) -> str | None:
    """The field a header cell names (``"name"`` for a bare "Name": the last name beside a
    first-name column, else "Nachname, Vorname"), or ``None``."""
    name = text.casefold().replace("_", " ").replace("-", " ")
    name = " ".join(re.sub(r"[.:*]", "", name).split())
    if not name:
        return None
    for fieldname, parts in _HEADER_PARTS.items():
        if any(part in name for part in parts):
            return fieldname
    if name == "name":
        return "name"
    return next((f for f, names in _HEADERS.items() if name in names), None)


def guess_header(sheet: Sheet) -> bool:
    """Whether the first row of ``sheet`` is a header: a cell of it names a field."""
    return any(_header_field(cell) for cell in sheet.rows[0][1])


def guess_mapping(sheet: Sheet, header: bool) -> dict[str, int | None]:
    """Which column (0-based) holds each of :data:`FIELDS` (``None``: none), read from the
    header row when ``header``, else guessed from the content: a column of years is the year
    of birth, one of yes/no values the consent, the first text column the last name (or
    "Nachname, Vorname" when every value holds a comma), then first name and club."""
    if header:
        return _mapping_from_header(sheet.rows[0][1])
    return _mapping_from_content(sheet.rows, sheet.width)


def _mapping_from_header(cells: list[str]) -> dict[str, int | None]:
    mapping: dict[str, int | None] = dict.fromkeys(FIELDS)
    bare_names = []
    for column, text in enumerate(cells):
        fieldname = _header_field(text)
        if fieldname == "name":
            bare_names.append(column)
        elif fieldname and mapping[fieldname] is None:
            mapping[fieldname] = column
    if bare_names and mapping["last_name"] is None and mapping["full_name"] is None:
        target = "last_name" if mapping["first_name"] is not None else "full_name"
        mapping[target] = bare_names[0]
    return mapping


def _mapping_from_content(rows, width: int) -> dict[str, int | None]:
    mapping: dict[str, int | None] = dict.fromkeys(FIELDS)
    texts = []
    for column in range(width):
        values = [cells[column].strip() for _n, cells in rows if cells[column].strip()]
        if not values:
            continue
        if mapping["year_of_birth"] is None and all(not _year(v)[1] for v in values):
            mapping["year_of_birth"] = column
        elif mapping["consent"] is None and all(not _consent(v)[1] for v in values):
            mapping["consent"] = column
        else:
            texts.append((column, values))
    order = ["last_name", "first_name", "club"]
    if texts and all("," in v for v in texts[0][1]):
        order = ["full_name", "club"]
    for fieldname, (column, _values) in zip(order, texts, strict=False):
        mapping[fieldname] = column
    return mapping


def column_names(sheet: Sheet, header: bool) -> list[str]:
    """How errors name each column: its header text, else (or when empty) its letter."""
    first = sheet.rows[0][1] if header else [""] * sheet.width
    return [
        _shown(text.strip()) if text.strip() else get_column_letter(i + 1)
        for i, text in enumerate(first)
    ]


def column_choices(sheet: Sheet) -> list[tuple[str, str]]:
    """The columns to choose from for a field: ``(index, "B: <first row's text>")``."""
    return [
        (str(i), f"{get_column_letter(i + 1)}: {_shown(text.strip())}")
        for i, text in enumerate(sheet.rows[0][1])
    ]


def mapping_errors(mapping: dict[str, int | None], names: list[str]) -> list[str]:
    """Why no row can be read with ``mapping`` (a column chosen twice, no name columns, both
    a full-name and separate name columns); ``[]`` when it is usable.  ``names`` are the
    columns' names (:func:`column_names`)."""
    errors = []
    used = [c for c in mapping.values() if c is not None]
    for column in sorted({c for c in used if used.count(c) > 1}):
        errors.append(
            _("Die Spalte „%(column)s“ ist mehreren Feldern zugeordnet.")
            % {"column": names[column]}
        )
    split = mapping["last_name"] is not None or mapping["first_name"] is not None
    if mapping["full_name"] is not None and split:
        errors.append(
            _(
                "Bitte entweder eine Spalte „Name (Nachname, Vorname)“ oder Spalten für "
                "Nachname und Vorname wählen, nicht beides."
            )
        )
    elif mapping["full_name"] is None and (
        mapping["last_name"] is None or mapping["first_name"] is None
    ):
        errors.append(
            _(
                "Bitte die Spalten für Nachname und Vorname wählen (oder eine Spalte "
                "„Name (Nachname, Vorname)“)."
            )
        )
    return errors


# --------------------------------------------------------------------------- the preview


@dataclass
class PreviewRow:
    """One row of the file as it would be imported.  ``row``: its number as the
    spreadsheet shows it; the values read; ``errors``: German sentences naming row and
    column (then ``status`` is ``"error"``).  Else ``status`` is ``"new"`` (a new player),
    ``"known"`` (``player``, a known player, is registered), ``"registered"`` or
    ``"withdrawn"`` (``registration`` in this tournament; ``note`` says how a withdrawn
    player comes back) or ``"repeated"`` (the same name and club as row ``first_row``)."""

    row: int
    last_name: str = ""
    first_name: str = ""
    club: str = ""
    year_of_birth: int | None = None
    consent: bool = False
    errors: list[str] = field(default_factory=list)
    status: str = "error"
    player: Player | None = None
    registration: Registration | None = None
    first_row: int | None = None
    note: str = ""

    @property
    def importable(self) -> bool:
        """Whether :func:`import_members` registers this row."""
        return self.status in ("new", "known")


@dataclass
class Preview:
    """The rows of a file read with a mapping, or (``rows`` empty) ``errors`` saying why
    the mapping cannot be used (:func:`mapping_errors`)."""

    rows: list[PreviewRow]
    errors: list[str] = field(default_factory=list)

    @property
    def importable(self) -> int:
        """How many rows would be registered."""
        return sum(1 for row in self.rows if row.importable)


def preview_members(
    tournament: Tournament, sheet: Sheet, mapping: dict[str, int | None], header: bool
) -> Preview:
    """Read every row of ``sheet`` (after the header row when ``header``) with ``mapping``
    (field → 0-based column below ``sheet.width``, see :func:`guess_mapping`) and match each
    readable row against the known players (:func:`find_player`, as registration does) and
    this tournament's registrations.  Reads only; raises nothing."""
    names = column_names(sheet, header)
    errors = mapping_errors(mapping, names)
    if errors:
        return Preview([], errors)
    registered = _registrations(tournament)
    seen: dict[tuple[str, str, str], int] = {}
    rows = []
    for number, cells in sheet.rows[1:] if header else sheet.rows:
        entry = _read_row(number, cells, mapping, names)
        if not entry.errors:
            _classify(entry, registered, seen)
        rows.append(entry)
    return Preview(rows)


def _registrations(tournament: Tournament) -> tuple[dict, dict]:
    """This tournament's registrations by player id and by name and club (case ignored,
    as a pasted list is checked)."""
    regs = list(tournament.registrations.select_related("player"))
    by_player = {r.player_id: r for r in regs}
    by_key = {_key(r.player.first_name, r.player.last_name, r.player.club): r for r in regs}
    return by_player, by_key


def _classify(entry: PreviewRow, registered: tuple[dict, dict], seen: dict) -> None:
    """Set the ``status`` of a readable row (see :class:`PreviewRow`)."""
    key = _key(entry.first_name, entry.last_name, entry.club)
    if key in seen:
        entry.status, entry.first_row = "repeated", seen[key]
        return
    seen[key] = entry.row
    entry.player = find_player(entry.first_name, entry.last_name, entry.club, entry.year_of_birth)
    by_player, by_key = registered
    reg = (by_player.get(entry.player.pk) if entry.player else None) or by_key.get(key)
    if reg is None:
        entry.status = "known" if entry.player else "new"
    elif reg.withdrawn_after_round is None:
        entry.status, entry.registration = "registered", reg
    else:
        entry.status, entry.registration = "withdrawn", reg
        entry.note = withdrawn_message(reg)


def _read_row(number: int, cells: list[str], mapping: dict, names: list[str]) -> PreviewRow:
    """The values of one row, with an error for each cell that cannot be read."""
    entry = PreviewRow(number)
    problems = _read_names(entry, cells, mapping, names)
    readers = {
        "club": lambda value: _text(value, "club", required=False),
        "year_of_birth": _year,
        "consent": _consent,
    }
    for fieldname, reader in readers.items():
        column = mapping[fieldname]
        if column is None:
            continue
        value, problem = reader(cells[column])
        setattr(entry, fieldname, value)
        if problem:
            problems.append((names[column], problem))
    entry.errors = [
        _("Zeile %(row)s, Spalte „%(column)s“: %(problem)s")
        % {"row": number, "column": column, "problem": problem}
        for column, problem in problems
    ]
    return entry


def _read_names(entry: PreviewRow, cells: list[str], mapping: dict, names: list[str]) -> list:
    """Set the last and first name of ``entry``: ``(column name, problem)`` for each
    problem."""
    column = mapping["full_name"]
    if column is not None:
        value = cells[column].strip()
        if not value:
            return [(names[column], _("%(field)s fehlt.") % {"field": FIELD_LABELS["full_name"]})]
        last, comma, first = value.partition(",")
        if not comma or not last.strip() or not first.strip():
            problem = _("„%(value)s“ ist nicht „Nachname, Vorname“.") % {"value": _shown(value)}
            return [(names[column], problem)]
        parts = {"last_name": (last, column), "first_name": (first, column)}
    else:
        parts = {f: (cells[mapping[f]], mapping[f]) for f in ("last_name", "first_name")}
    problems = []
    for fieldname, (value, column) in parts.items():
        text, problem = _text(value, fieldname, required=True)
        setattr(entry, fieldname, text)
        if problem:
            problems.append((names[column], problem))
    return problems


def _text(value: str, fieldname: str, *, required: bool) -> tuple[str, str]:
    """A name or club, trimmed, and the problem with it (``""`` when none): missing,
    longer than the ``Player`` column holds, or holding a character no file can hold."""
    text = value.strip()
    limit = Player._meta.get_field(fieldname).max_length
    if not text and required:
        return text, _("%(field)s fehlt.") % {"field": FIELD_LABELS[fieldname]}
    if len(text) > limit:
        return text, _("mehr als %(n)s Zeichen.") % {"n": limit}
    code = first_unstorable(text)
    if code is not None:
        return text, _(
            "enthält das Zeichen %(code)s (ein Steuer- oder Nichtzeichen), das in keiner "
            "Datei gespeichert werden kann."
        ) % {"code": code}
    return text, ""


def _year(value: str) -> tuple[int | None, str]:
    """A year of birth (``1965``, or a date ``12.03.1965`` / ``1965-03-12``; empty: none)
    and the problem with it (``""`` when none)."""
    text = value.strip()
    if not text:
        return None, ""
    match = re.fullmatch(r"([0-9]{4})", text) or _DATE.fullmatch(text)
    if match is None:
        return None, _("„%(value)s“ ist kein Jahr.") % {"value": _shown(text)}
    year = int(next(g for g in match.groups() if g))
    last = date.today().year
    if not FIRST_YEAR <= year <= last:
        return None, _("%(year)s ist kein möglicher Jahrgang (%(first)s bis %(last)s).") % {
            "year": year,
            "first": FIRST_YEAR,
            "last": last,
        }
    return year, ""


def _consent(value: str) -> tuple[bool, str]:
    """Consent to be named publicly (ja/nein, x, 1/0, true/false, yes/no; empty: no) and
    the problem with it (``""`` when none)."""
    text = value.strip().casefold()
    if text in _YES:
        return True, ""
    if text in _NO:
        return False, ""
    return False, _("„%(value)s“ ist weder ja noch nein.") % {"value": _shown(value.strip())}


def _shown(text: str) -> str:
    """``text`` short and printable, for a message."""
    shown = "".join(c if c.isprintable() else "?" for c in text[:40])
    return f"{shown}…" if len(text) > 40 else shown


# --------------------------------------------------------------------------- the import


@dataclass
class ImportResult:
    """What :func:`import_members` did: the new ``registrations`` (in row order),
    ``skipped`` (how many preview rows were not registered) and ``refused`` (a German
    sentence naming the row for each row refused at the import itself, e.g. registered
    in another window since the preview)."""

    registrations: list[Registration]
    skipped: int
    refused: list[str]


def import_members(
    tournament: Tournament, preview_rows: list[PreviewRow], user=None
) -> ImportResult:
    """Register every importable row of a preview (status ``"new"`` or ``"known"``, see
    :class:`PreviewRow`), in row order with the next free start numbers, in one transaction,
    through :func:`register_player` as a player registered at the door: the matched known
    player is reused (taking a year of birth they lacked), else a new player is made; the
    consent is stored on the registration (and as the player's last answer).  Other rows
    are skipped.  The history of each new registration and new player names ``user`` and
    the reason "Aus Mitgliederliste importiert".  Raises nothing for a row: a row refused
    now is counted in ``refused`` (:class:`ImportResult`)."""
    done: list[Registration] = []
    refused: list[str] = []
    started = timezone.now()
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)  # one number sequence
        for entry in preview_rows:
            if not entry.importable:
                continue
            try:
                done.append(_register_row(tournament, entry))
            except ValidationError as exc:
                refused.append(
                    _("Zeile %(row)s: %(error)s")
                    % {"row": entry.row, "error": " ".join(exc.messages)}
                )
        _mark_history(done, user, started)
    return ImportResult(done, len(preview_rows) - len(done), refused)


def _register_row(tournament: Tournament, entry: PreviewRow) -> Registration:
    return register_player(
        tournament,
        first_name=entry.first_name,
        last_name=entry.last_name,
        club=entry.club,
        consent_public=entry.consent,
        year_of_birth=entry.year_of_birth,
        player_id=entry.player.pk if entry.player else None,
    )


def _mark_history(registrations: list[Registration], user, started: datetime) -> None:
    """Name ``user`` and the import as the reason in the creation records of the new
    registrations and of the players created since ``started``."""
    reason = _("Aus Mitgliederliste importiert")
    Registration.history.filter(id__in=[r.pk for r in registrations], history_type="+").update(
        history_user=user, history_change_reason=reason
    )
    Player.history.filter(
        id__in=[r.player_id for r in registrations], history_type="+", history_date__gte=started
    ).update(history_user=user, history_change_reason=reason)
