"""What each printed document shows: plain data built with a fixed number of queries per
document, for the print templates.

- :func:`score_sheets` — the "Spielliste" of every table of a round, blank or filled;
- :func:`table_plan` — a round's seating by table and by player;
- :func:`table_cards` — the card on each table: its number, seats and private entry link;
- :func:`results_list` — the "Rangliste", overall or for one round (public names only, or
  every name in the director's prize-giving version);
- the rules handout is built by :mod:`printing.handout`.

Public documents (table plan, results list) name only players who consented
(:func:`consents`); the others appear by start number (FIELD-NOTES; issue "Trustworthy
results", security).  Score sheets are the table's own record, signed by its players, and are
printed for the director only; they carry the names.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from rules import Ruleset
from scoring import links, selectors
from scoring.models import Hand, account_label
from scoring.qr import qr_data_uri, reachable_by_phones
from scoring.services import active_positions, dealer_for, partner_teams
from tournament import formatting
from tournament.formatting import name_sort_key
from tournament.models import Category, Registration, Round, Seat, Table, Tournament

from .handout import SUITS_EN, TERMS

GAMES_PER_PAGE = 15
CLOCKWISE = "clockwise"


def isolate(text) -> str:
    """``text`` between U+2068 and U+2069 (Unicode isolates), so a right-to-left override
    typed into it cannot reorder what is printed after it (docs/security.md)."""
    return f"\u2068{text}\u2069"


def name_forms(label: str) -> tuple[str, ...] | str:
    """A player's label in a game row of a score sheet ("12 Anna-Katharina Magdalena":
    start number and first name) and its shorter forms, longest first, each isolated
    (:func:`isolate`): the first given name ("12 Anna-Katharina"), its first part ("12
    Anna"), its initial ("12 A."),
    the start number alone ("12").  The stamper takes the first that stays readable
    (:meth:`printing.stamping.Stamper.fit`; issue 37.24: long first names fell to 5.7 pt
    on four-seat sheets).  The start number is unique at the table, so every form names
    the player."""
    if not label:
        return ""
    number, _space, name = str(label).partition(" ")
    if not name.split():  # no name, or only spaces (older data)
        return isolate(number)
    first = name.split()[0]
    part = first.split("-")[0] or first
    forms = [
        f"{number} {name}",
        f"{number} {first}",
        f"{number} {part}",
        f"{number} {first[0]}.",
        number,
    ]
    return tuple(isolate(f) for f in dict.fromkeys(forms))


#: a trump suit's sign, the short form of its name on a score sheet (issue 37.23:
#: "Diamonds" broke inside the word in the English trump column)
SUIT_SIGNS = {"C": "\u2663", "S": "\u2660", "H": "\u2665", "D": "\u2666"}


def trump_forms(trump: str, wording: str = "swabian") -> tuple[str, ...] | str:
    """The trump of a game row and its suit sign (♦) as the short form; "" for a game
    without trump.  In German the suit is named in the ruleset's own words (``wording``,
    :data:`printing.handout.TERMS`: "Pik" in the club rules, "Bollen" in dabb-app), as the
    rules handout names it (issue 37.25); in English "Diamonds" etc."""
    if not trump:
        return ""
    if translation.get_language() == "en":
        name = SUITS_EN[trump]
    else:
        name = TERMS.get(wording, TERMS["swabian"])["suits"][trump]
    return (name, SUIT_SIGNS[trump])


def consents(registration: Registration) -> bool:
    """Whether the player agreed to be named in this tournament's public documents.

    The one place the printed documents read consent: it is given per registration
    (``Registration.consent_public``; FIELD-NOTES: players must consent)."""
    return registration.consent_public


def play_direction(ruleset: Ruleset) -> str:
    """The direction in which deal, bidding and play pass on: ``"clockwise"`` or
    ``"counter-clockwise"``.

    Read from the ruleset's ``direction`` parameter (each preset sets its seed's direction,
    e.g. seed 001: counter-clockwise); a ruleset without one plays clockwise."""
    for holder in (ruleset, getattr(ruleset, "play", None)):
        value = getattr(holder, "direction", None)
        if isinstance(value, str) and value:
            return value
    return CLOCKWISE


def seating_text(ruleset: Ruleset, size: int) -> str:
    """The seat order and direction printed on a score sheet: "Platz 1 → 2 → 3 → 4,
    gespielt wird im Uhrzeigersinn" (the deal passes from seat to seat in that order,
    :func:`scoring.services.dealer_for`) for a table of ``size`` players and the
    ruleset's :func:`play_direction`."""
    seats = " → ".join(str(n) for n in range(1, size + 1))
    if play_direction(ruleset) == CLOCKWISE:
        return _("Platz %(seats)s, gespielt wird im Uhrzeigersinn") % {"seats": seats}
    return _("Platz %(seats)s, gespielt wird gegen den Uhrzeigersinn") % {"seats": seats}


def correction_marks() -> dict[str, str]:
    """The letters that mark a game on a filled score sheet: ``corrected`` (saved more than
    once, "K") and ``adjusted`` (changed by the director after the round was closed, "N"),
    in the active language."""
    return {
        "corrected": pgettext("Korrekturzeichen: korrigiert", "K"),
        "adjusted": pgettext("Korrekturzeichen: Nachtrag der Turnierleitung", "N"),
    }


ruleset_name = formatting.ruleset_name


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
        return self.seats[self.table.first_dealer]

    @property
    def scorer(self) -> Seat:
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
        return self.number == 1

    @property
    def last(self) -> bool:
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


def _seats_by_table(round_: Round) -> dict[int, list[Seat]]:
    """Table id → its seats in seat order, players loaded (one query)."""
    seats_by_table: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(round=round_)
        .select_related("registration__player")
        .order_by("table_id", "position")
    ):
        seats_by_table[seat.table_id].append(seat)
    return seats_by_table


def _live_links(round_: Round, user=None) -> dict:
    """Table id → live link for the documents that carry them: only while the round is not
    closed and the tournament has table entry on (missing links are made, by ``user``)."""
    if round_.tournament.table_entry and round_.status != Round.Status.CLOSED:
        return links.round_links(round_, user)
    return {}


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


@dataclass
class CardSeat:
    """A seat on a table card: ``position`` (1-based), start number, and the name as
    "Vorname Nachname", empty when the player did not consent to being named."""

    position: int
    start_number: int
    name: str


@dataclass
class TableCard:
    """The card that stands on one table for one round: the table number in large type,
    who sits where, who deals first and, with table entry on, the table's private link as
    a QR code and as text."""

    number: int
    seats: list[CardSeat]
    first_dealer: int
    link_address: str = ""
    link_qr: str = ""
    #: the link's address is the laptop's loopback: no QR code, the card says why
    unreachable: bool = False
    #: the four digits an opponent types once before "stimmt" (only where the players
    #: confirm at the table: :func:`scoring.links.confirmation_code`)
    confirm_code: str = ""


def table_cards(round_: Round, link_base: str | None = None, user=None) -> list[TableCard]:
    """One :class:`TableCard` per table of ``round_``, in table order.

    Where the players confirm each other's hands, the card also carries the table's
    confirmation code (:attr:`TableCard.confirm_code`).

    The card stands on the table where everyone in the hall can read it, so it names only
    players who consented (:func:`consents`), like the table plan; the others by start
    number.  While the round is not closed and the tournament has table entry on, each card
    carries its table's live link (created if missing, :func:`scoring.links.
    round_links`, by ``user``) with ``link_base`` (scheme and host) or ``PUBLIC_BASE_URL``
    before the path.  Queries: a fixed number once the round has started (the start issues
    every link); before it, one insert per table whose link is made here."""
    seats_by_table = _seats_by_table(round_)
    live_links = _live_links(round_, user)
    cards = []
    for table in round_.tables.order_by("number"):
        seats = seats_by_table[table.pk]
        card = TableCard(
            number=table.number,
            seats=[
                CardSeat(
                    position=s.position + 1,
                    start_number=s.registration.start_number,
                    name=(
                        f"{isolate(s.registration.player.first_name)} "
                        f"{isolate(s.registration.player.last_name)}"
                        if consents(s.registration)
                        else ""
                    ),
                )
                for s in seats
            ],
            first_dealer=table.first_dealer + 1,
        )
        if table.pk in live_links:
            card.link_address = _link_address(live_links[table.pk], link_base)
            if reachable_by_phones(card.link_address):
                card.link_qr = qr_data_uri(card.link_address)
            else:
                card.unreachable = True
            if links.confirms_at_table(round_.tournament):
                card.confirm_code = links.confirmation_code(live_links[table.pk])
        cards.append(card)
    return cards


def _link_address(link, link_base: str | None) -> str:
    path = reverse("table_entry:page", args=[link.token])
    return (link_base if link_base is not None else settings.PUBLIC_BASE_URL or "") + path


def _teams(tournament: Tournament, seats: list[Seat]) -> dict:
    """At a table of partners (:func:`scoring.services.partner_teams`): ``teams``, the
    party letter per position ("A" for seats 1+3, "B" for 2+4), and ``teams_text`` for the
    sheet's head ("A: Platz 1 + 3 · B: Platz 2 + 4; beide Partner schreiben die Punkte der
    Partei"); empty elsewhere."""
    teams = partner_teams(tournament, seats)
    if not teams:
        return {}
    letters = {}
    parts = []
    for letter, team in zip("AB", teams, strict=True):
        for seat in team:
            letters[seat.position] = letter
        parts.append(
            _("%(party)s: Platz %(seats)s")
            % {"party": letter, "seats": " + ".join(str(s.position + 1) for s in team)}
        )
    text = " · ".join(parts) + _("; beide Partner schreiben die Punkte ihrer Partei")
    return {"teams": letters, "teams_text": text}


def _outcome_text(hand: Hand, names: dict[int, str], wording: str = "swabian") -> str:
    """ "gewonnen" or "verloren" for a played game, else the kind of game with it
    ("Bettel, verloren", "Abgehen, verloren"), as the standings count the declarer's
    won and lost games; then any penalty ("· Verwerfen (3 Anna)").  In German, conceding
    and the Dabb carry the ruleset's own words (``wording``, :data:`printing.handout.
    TERMS`: "Abschreiben", "Durch ohne Tapp" in the club rules; issue 37.25)."""
    result = _("gewonnen") if hand.declarer_won else _("verloren")
    terms = TERMS.get(wording, TERMS["swabian"])
    german = translation.get_language() != "en"
    if hand.outcome == Hand.Outcome.PLAYED:
        text = result
    elif german and hand.outcome == Hand.Outcome.ABGEHEN:
        text = f"{terms['concede']}, {result}"
    elif german and hand.outcome == Hand.Outcome.DURCH_OHNE_DABB:
        text = f"Durch ohne {terms['dabb']}, {result}"
    else:
        text = f"{hand.get_outcome_display()}, {result}"
    if hand.penalty_type:
        text += f" · {hand.get_penalty_type_display()}"
        if hand.penalty_seat is not None:
            text += f" ({names.get(hand.penalty_seat, '?')})"
    return text


def _correction_text(hand: Hand, versions: list[selectors.HandVersion]) -> str:
    """ "Spiel 3: 2. Fassung von X am …; vorher a / b / c Punkte; Nachtrag der
    Turnierleitung: <reason>"."""
    previous = versions[-2] if len(versions) >= 2 else None
    latest = versions[-1] if versions else None
    who = latest.user if latest else account_label(hand.entered_by, hand.entered_by_name)
    when = latest.when if latest else hand.updated_at
    text = _("Spiel %(n)s: %(v)s. Fassung von %(who)s, %(when)s") % {
        "n": hand.number,
        "v": hand.version,
        "who": isolate(who),
        "when": timezone.localtime(when).strftime("%d.%m.%Y %H:%M"),
    }
    if previous is not None:
        before = " / ".join(formatting.points(s) for s in previous.scores)
        text += "; " + _("vorher %(before)s Punkte") % {"before": before}
    if latest is not None and latest.adjustment:
        text += "; " + _("Nachtrag der Turnierleitung nach Rundenschluss: %(reason)s") % {
            "reason": isolate(latest.reason)
        }
    elif latest is not None and latest.reason:
        text += "; " + _("Grund: %(reason)s") % {"reason": isolate(latest.reason)}
    return text


@dataclass
class PlanEntry:
    """A player in the table plan: ``name`` as printed ("Nachname, Vorname"; empty without
    consent), start number, table and seat (1-based)."""

    name: str
    start_number: int
    table: int
    seat: int
    named: bool


def table_plan(round_: Round) -> dict:
    """A round's seating for posting at the door.

    Returns ``tables`` (table number → entries in seat order), ``by_name`` (players who
    consented, "Nachname, Vorname" in German alphabetical order, :func:`name_sort_key`),
    ``unnamed`` (players who did not consent, by start number and without a name) and
    ``players`` (how many are seated).  One query."""
    entries: list[tuple[tuple, PlanEntry]] = []
    for seat in (
        Seat.objects.filter(round=round_)
        .select_related("registration__player", "table")
        .order_by("table__number", "position")
    ):
        reg = seat.registration
        named = consents(reg)
        player = reg.player
        entry = PlanEntry(
            # each part isolated (U+2068/U+2069): a right-to-left override typed in the
            # last name must not run on into the first name
            name=f"{isolate(player.last_name)}, {isolate(player.first_name)}" if named else "",
            start_number=reg.start_number,
            table=seat.table.number,
            seat=seat.position + 1,
            named=named,
        )
        key = (*name_sort_key(player.last_name, player.first_name), reg.start_number)
        entries.append((key, entry))
    tables: dict[int, list[PlanEntry]] = defaultdict(list)
    for _key, entry in entries:
        tables[entry.table].append(entry)
    by_name = [e for _key, e in sorted(entries, key=lambda x: x[0]) if e.named]
    unnamed = sorted((e for _key, e in entries if not e.named), key=lambda e: e.start_number)
    return {
        "tables": sorted(tables.items()),
        "by_name": by_name,
        "unnamed": unnamed,
        "players": len(entries),
    }


def provisional_note(tournament: Tournament, round_number: int | None = None) -> str:
    """ "" when every round the list covers is closed; otherwise the line that marks the
    results list as provisional, naming the round in progress ("Vorläufig – Runde 3 läuft
    noch") or, between rounds, the next round not yet played.  One query."""
    rounds = Round.objects.filter(tournament=tournament).order_by("number")
    if round_number is not None:
        rounds = rounds.filter(number=round_number)
    open_rounds = [r for r in rounds.only("number", "status") if r.status != Round.Status.CLOSED]
    if not open_rounds and (round_number is not None or tournament.rounds <= len(rounds)):
        return ""
    running = [r.number for r in open_rounds if r.status == Round.Status.RUNNING]
    if running:
        return _("Vorläufig – Runde %(n)s läuft noch") % {"n": ", ".join(map(str, running))}
    waiting = open_rounds[0].number if open_rounds else len(rounds) + 1
    return _("Vorläufig – Runde %(n)s ist noch nicht gespielt") % {"n": waiting}


@dataclass
class PrintedPair:
    """A pair's line on the results list, with the fields the list prints for a player:
    ``start_number`` is the pair number, ``name`` both partners with their start numbers
    ("3 Anna Maier / 4 Bernd Huber"; a partner without consent by start number only),
    ``club`` their clubs."""

    rank: int | None
    start_number: int
    name: str
    club: str
    round_cells: list
    total: int
    won: int
    lost: int
    fee: object
    note: str = ""

    @classmethod
    def of(cls, row: selectors.PairRow) -> PrintedPair:
        # each name isolated: a right-to-left name cannot pull its partner's start number
        # beside it (issue 37.26)
        names = " / ".join(
            f"{m.start_number} {isolate(m.name)}" if m.name else str(m.start_number)
            for m in row.members
        )
        clubs = " / ".join(dict.fromkeys(m.club for m in row.members if m.club))
        return cls(
            row.rank, row.pair, names, clubs, row.round_cells, row.total, row.won, row.lost, row.fee
        )


def results_list(
    tournament: Tournament,
    round_number: int | None = None,
    public: bool = True,
    category: Category | None = None,
) -> dict:
    """The standings for print.

    ``rows`` (:class:`scoring.selectors.StandingRow`; with ``public`` names only with
    consent, else every name: the director's prize-giving version), ``round_numbers`` (the
    round columns), ``fee`` (whether a lost-game fee column is shown), ``columns`` (how
    many columns the table has), ``public`` and
    ``provisional`` (:func:`provisional_note`, "" once the rounds shown are closed) and
    ``unplaced`` (some player is listed without a place for missed rounds), ``waiting``
    (some player has no result yet: listed last, without place and total) and
    ``tie_break_note`` (how equal totals are placed); ``category``: only its players, with
    their own places (``None``: everyone).  In a pairs event (``pairs``, no category) the
    rows are :class:`PrintedPair` from :func:`scoring.selectors.pair_standings`: the
    number column holds the pair number, the name column both partners."""
    pairs = tournament.event_type == Tournament.EventType.PAIRS and category is None
    if category is not None:
        rows = selectors.category_standings(tournament, category, round_number, public=public)
    elif pairs:
        rows = [
            PrintedPair.of(row)
            for row in selectors.pair_standings(tournament, round_number, public)
        ]
    else:
        rows = selectors.standings(tournament, round_number, public=public)
    numbers = [round_number] if round_number else list(range(1, tournament.rounds + 1))
    fee = tournament.lost_game_fee is not None
    return {
        "rows": rows,
        "pairs": pairs,
        "round_numbers": numbers,
        "fee": fee,
        # rank, number, name, club, the rounds, the total (overall), won, lost, the fee
        "columns": 4 + len(numbers) + (0 if round_number else 1) + 2 + int(fee),
        "public": public,
        "provisional": provisional_note(tournament, round_number),
        "unplaced": any(r.rank is None and not getattr(r, "waiting", False) for r in rows),
        # players with no result yet (:attr:`scoring.selectors.StandingRow.waiting`)
        "waiting": any(getattr(r, "waiting", False) for r in rows),
        "category": category,
        # one round's list always shares places; the tie-break orders the overall one
        "tie_break_note": _("Gleiche Punktzahl, gleicher Platz.")
        if round_number
        else selectors.tie_break_note(tournament),
    }
