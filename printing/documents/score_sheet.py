"""The score sheets ("Spielliste") of a round: one :class:`Sheet` per table, blank or
filled, and its printed pages (:class:`SheetPage`, at most :data:`GAMES_PER_PAGE` games
each) with every text of the page by field name, for :mod:`printing.sheets`."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from django.utils.translation import gettext as _

from scoring import selectors
from scoring.models import Hand
from scoring.qr import qr_data_uri, reachable_by_phones
from scoring.services import active_positions, dealer_for
from tournament import formatting
from tournament.models import Round, Seat, Table

from .common import _link_address, _live_links, _seats_by_table, isolate
from .sheet_words import (
    _correction_text,
    _outcome_text,
    _teams,
    correction_marks,
    name_forms,
    seating_text,
    trump_forms,
)

GAMES_PER_PAGE = 15


@dataclass
class SheetRow:
    """One line of a score sheet: a game, entered (``hand``) or blank.

    ``cells`` per table position: ``(meld, tricks, score, running total)`` as printed
    (``None`` = blank, ``"—"`` = sits out); ``dealer`` is the dealer's position.
    ``corrected``: saved more than once; ``adjusted``: changed by the director after the
    round was closed (marked "N", Nachtrag).
    """

    number: int
    dealer: int
    dealer_name: str
    sitting_out: int | None
    hand: Hand | None = None
    declarer: str = ""
    outcome: str = ""
    trump: tuple[str, ...] | str = ""
    cells: list[tuple] = field(default_factory=list)
    corrected: bool = False
    adjusted: bool = False


@dataclass
class Sheet:
    """One table's score sheet for one round (one page per 15 games)."""

    table: Table
    seats: list[Seat]
    pages: list[list[SheetRow]]
    totals: list[int] | None
    corrections: list[str]
    seating: str = ""
    filled: bool = False
    # the table's private entry link and its QR code (data URI), blank sheets only
    link_address: str = ""
    link_qr: str = ""
    teams: dict[int, str] = field(default_factory=dict)
    teams_text: str = ""
    #: filled while the round is not closed: every game row is printed (the ones not yet
    #: entered blank) and the totals are marked as a provisional standing
    provisional: bool = False

    @property
    def columns(self) -> int:
        """Columns of the sheet's table: game, dealer, declarer, bid, trump, outcome, four
        per seat (meld, tricks, points, running total) and, when filled, the marks."""
        return 6 + 4 * len(self.seats) + int(self.filled)

    @property
    def first_dealer(self) -> Seat:
        """The seat that deals the first game (``Table.first_dealer``)."""
        return self.seats[self.table.first_dealer]

    @property
    def scorer(self) -> Seat:
        """The seat that keeps the sheet (``Table.scorer``)."""
        return self.seats[self.table.scorer]


def _named(seat: Seat) -> str:
    """A seat as a score sheet names it: start number and name ("12 Anna Maier"), the name
    isolated (:func:`isolate`)."""
    return f"{seat.registration.start_number} {isolate(seat.registration.player)}"


def _blank_if_none(value) -> str:
    """A sheet cell's text: points grouped with a real minus sign ("−1.200",
    :func:`tournament.formatting.points`), a dash or mark as it is, ``None`` blank."""
    return "" if value is None else str(formatting.points(value))


@dataclass
class SheetPage:
    """One printed page of a table's score sheet: ``rows`` are its games (at most
    :data:`GAMES_PER_PAGE`), ``number`` counts from 1 within the sheet (``count`` pages).

    :attr:`fields` holds every text of the page that belongs to its table, by field name
    (``printing/templatetags/sheet_fields.py``); ``lines`` is set for the grid, with how
    many lines each field whose height follows its text takes (``printing.sheets``).
    """

    sheet: Sheet
    number: int
    count: int
    rows: list[SheetRow]
    marks: dict[str, str]
    lines: dict[str, int] = field(default_factory=dict)

    @property
    def first(self) -> bool:
        """Whether this is the sheet's first page."""
        return self.number == 1

    @property
    def last(self) -> bool:
        """Whether this is the sheet's last page (totals and signatures)."""
        return self.number == self.count

    @property
    def qr(self) -> bool:
        """Whether the page carries the table's QR code (a blank sheet's first page)."""
        return self.first and bool(self.sheet.link_qr)

    @cached_property
    def fields(self) -> dict[str, str]:
        """Field name → text as printed: "title" ("Runde 2 · Tisch 5"), "first-dealer",
        "scorer", "seat-P" and "sign-P" (start number and name of position P), per row R
        of the page "no-R", "dealer-R", "declarer-R", "bid-R", "trump-R", "outcome-R",
        "cell-R-P-K" (K: 0 melds, 1 trick points, 2 score, 3 running total, in points) and
        "mark-R" (K/N, filled sheets); on the last page "total-P" and "corrections"; "qr" is the table's
        private link (blank sheets with table entry), printed as a QR code."""
        sheet = self.sheet
        fields = {
            "title": _("Runde %(r)s · Tisch %(t)s")
            % {"r": sheet.table.round.number, "t": sheet.table.number},
            "first-dealer": _named(sheet.first_dealer),
            "scorer": _named(sheet.scorer),
        }
        for p, seat in enumerate(sheet.seats):
            fields[f"seat-{p}"] = _named(seat)
        if self.qr:
            fields["qr"] = sheet.link_address
        for r, row in enumerate(self.rows):
            hand = row.hand
            fields[f"no-{r}"] = str(row.number)
            fields[f"dealer-{r}"] = name_forms(row.dealer_name)
            fields[f"declarer-{r}"] = name_forms(row.declarer)
            fields[f"bid-{r}"] = _blank_if_none(hand.bid) if hand else ""
            fields[f"trump-{r}"] = row.trump
            fields[f"outcome-{r}"] = row.outcome
            for p, cells in enumerate(row.cells):
                if cells[0] == "—" and hand is None:
                    continue  # sits out: the grid strikes the cells
                for k, value in enumerate(cells):
                    fields[f"cell-{r}-{p}-{k}"] = _blank_if_none(value)
            if sheet.filled:
                fields[f"mark-{r}"] = (self.marks["corrected"] if row.corrected else "") + (
                    self.marks["adjusted"] if row.adjusted else ""
                )
        if self.last:
            for p in range(len(sheet.seats)):
                fields[f"total-{p}"] = formatting.points(sheet.totals[p]) if sheet.totals else ""
                fields[f"sign-{p}"] = _named(sheet.seats[p])
            if sheet.corrections:
                fields["corrections"] = " · ".join(sheet.corrections)
        return fields


def sheet_pages(sheets: list[Sheet]) -> list[SheetPage]:
    """Every printed page of ``sheets``, in order (:class:`SheetPage`), with the correction
    marks of the active language."""
    marks = correction_marks()
    return [
        SheetPage(sheet, number, len(sheet.pages), rows, marks)
        for sheet in sheets
        for number, rows in enumerate(sheet.pages, start=1)
    ]


def score_sheets(
    round_: Round, filled: bool, link_base: str | None = None, user=None
) -> list[Sheet]:
    """The score sheet of every table of ``round_``, in table order.

    ``filled=False``: blank rows for the round's games with the dealer filled in by
    rotation (and, at a 4-player table where the dealer sits out, the dealer's cells
    struck).  ``filled=True``: every entered hand with melds, tricks, scores and running
    totals; corrected hands are marked and listed under the table with who changed what.
    While the round is not closed a filled sheet keeps the blank rows of the games still to
    come and is marked provisional (:attr:`Sheet.provisional`).
    With table entry switched on, a blank sheet carries its table's private link as a QR
    code in the header (``link_base``: scheme and host to put before the path, else
    ``PUBLIC_BASE_URL``; missing links are created, by ``user``).
    Queries: a fixed number, whatever the number of tables.
    """
    tournament = round_.tournament
    games = tournament.games_per_round
    wording = tournament.ruleset.wording
    tables = list(round_.tables.order_by("number"))
    seats_by_table = _seats_by_table(round_)
    hands_by_table: dict[int, dict[int, Hand]] = defaultdict(dict)
    history: dict[int, list[selectors.HandVersion]] = {}
    if filled:
        hands = Hand.objects.filter(table__round=round_)
        for hand in hands.select_related("entered_by"):
            hands_by_table[hand.table_id][hand.number] = hand
        history = selectors.hand_history(hands, closed_at=round_.closed_at)

    live_links = {} if filled else _live_links(round_, user)

    sheets = []
    for table in tables:
        seats = seats_by_table[table.pk]
        size = len(seats)
        # start number + first name: two players at a table may share a first name
        names = {
            s.position: f"{s.registration.start_number} {s.registration.player.first_name}"
            for s in seats
        }
        rows: list[SheetRow] = []
        running = [0] * size
        corrections: list[str] = []
        for number in range(1, games + 1):
            hand = hands_by_table[table.pk].get(number)
            # an entered hand names its dealer (the clerk may have corrected the rotation)
            dealer = hand.dealer if hand is not None else dealer_for(table, size, number)
            playing = active_positions(tournament, size, dealer)
            out = next((p for p in range(size) if p not in playing), None)
            row = SheetRow(
                number=number, dealer=dealer, dealer_name=names[dealer], sitting_out=out, hand=hand
            )
            if hand is None:
                row.cells = [("—",) * 4 if p == out else (None,) * 4 for p in range(size)]
            else:
                running = [t + s for t, s in zip(running, hand.scores, strict=True)]
                row.declarer = names.get(hand.declarer, "")
                row.outcome = _outcome_text(hand, names, wording)
                row.trump = trump_forms(hand.trump, wording)
                tricks = hand.tricks or [None] * size
                row.cells = [
                    ("—", "—", 0, running[p])
                    if p == out
                    else (hand.melds[p], tricks[p], hand.scores[p], running[p])
                    for p in range(size)
                ]
                versions = history.get(hand.pk, [])
                row.adjusted = any(v.adjustment for v in versions)
                if hand.version > 1 or row.adjusted:
                    row.corrected = hand.version > 1
                    corrections.append(_correction_text(hand, versions))
            rows.append(row)
        provisional = filled and round_.status != Round.Status.CLOSED
        if filled and not provisional:
            # a closed round: its record is the games entered (a round closed early
            # has fewer than its games)
            rows = [r for r in rows if r.hand is not None]
        pages = [rows[i : i + GAMES_PER_PAGE] for i in range(0, len(rows), GAMES_PER_PAGE)] or [[]]
        sheets.append(
            Sheet(
                table=table,
                seats=seats,
                pages=pages,
                totals=running if filled else None,
                corrections=corrections,
                seating=seating_text(tournament.ruleset, size),
                filled=filled,
                provisional=provisional,
                **_teams(tournament, seats),
            )
        )
        if table.pk in live_links:
            address = _link_address(live_links[table.pk], link_base)
            sheets[-1].link_address = address
            if reachable_by_phones(address):  # no QR code no phone could open
                sheets[-1].link_qr = qr_data_uri(address)
    return sheets
