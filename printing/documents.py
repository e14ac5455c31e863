"""What each printed document shows: plain data built with a fixed number of queries per
document, for the print templates.

- :func:`score_sheets` — the "Spielliste" of every table of a round, blank or filled;
- :func:`table_plan` — a round's seating by table and by player;
- :func:`results_list` — the "Rangliste", overall or for one round (public names only);
- the rules handout is built by :mod:`printing.handout`.

Public documents (table plan, results list) name only players who consented; the others
appear by start number (FIELD-NOTES; issue "Trustworthy results", security).  Score sheets
are the table's own record, signed by its players, and are printed for the director only;
they carry the names.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import selectors
from scoring.models import Hand
from scoring.services import active_positions, dealer_for
from tournament.models import Round, Seat, Table, Tournament

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

    @property
    def first_dealer(self) -> Seat:
        return self.seats[self.table.first_dealer]

    @property
    def scorer(self) -> Seat:
        return self.seats[self.table.scorer]


def score_sheets(round_: Round, filled: bool) -> list[Sheet]:
    """The score sheet of every table of ``round_``, in table order.

    ``filled=False``: blank rows for the round's games with the dealer filled in by
    rotation (and, at a 4-player table where the dealer sits out, the dealer's cells
    struck).  ``filled=True``: every entered hand with melds, tricks, scores and running
    totals; corrected hands are marked and listed under the table with who changed what.
    Queries: a fixed number, whatever the number of tables.
    """
    tournament = round_.tournament
    games = tournament.games_per_round
    tables = list(round_.tables.order_by("number"))
    seats_by_table: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(round=round_)
        .select_related("registration__player")
        .order_by("table_id", "position")
    ):
        seats_by_table[seat.table_id].append(seat)
    hands_by_table: dict[int, dict[int, Hand]] = defaultdict(dict)
    history: dict[int, list[selectors.HandVersion]] = {}
    if filled:
        hands = Hand.objects.filter(table__round=round_)
        for hand in hands.select_related("entered_by"):
            hands_by_table[hand.table_id][hand.number] = hand
        history = selectors.hand_history(hands, closed_at=round_.closed_at)

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
                row.outcome = _outcome_text(hand, names)
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
        entered = [r for r in rows if r.hand is not None]
        if filled:
            rows = entered
        pages = [rows[i : i + GAMES_PER_PAGE] for i in range(0, len(rows), GAMES_PER_PAGE)] or [[]]
        sheets.append(
            Sheet(
                table=table,
                seats=seats,
                pages=pages,
                totals=running if filled else None,
                corrections=corrections,
            )
        )
    return sheets


def _outcome_text(hand: Hand, names: dict[int, str]) -> str:
    text = hand.get_outcome_display()
    if hand.won is not None:
        text += " " + (_("gewonnen") if hand.won else _("verloren"))
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
    who = latest.user if latest else hand.entered_by
    when = latest.when if latest else hand.updated_at
    text = _("Spiel %(n)s: %(v)s. Fassung von %(who)s, %(when)s") % {
        "n": hand.number,
        "v": hand.version,
        "who": who,
        "when": timezone.localtime(when).strftime("%d.%m.%Y %H:%M"),
    }
    if previous is not None:
        before = " / ".join(str(s) for s in previous.scores)
        text += "; " + _("vorher %(before)s Punkte") % {"before": before}
    if latest is not None and latest.adjustment:
        text += "; " + _("Nachtrag der Turnierleitung nach Rundenschluss: %(reason)s") % {
            "reason": latest.reason
        }
    elif latest is not None and latest.reason:
        text += "; " + _("Grund: %(reason)s") % {"reason": latest.reason}
    return text


@dataclass
class PlanEntry:
    """A player in the table plan: public name, start number, table and seat (1-based)."""

    name: str
    start_number: int
    table: int
    seat: int
    named: bool


def table_plan(round_: Round) -> dict:
    """A round's seating for posting at the door: ``tables`` (table number → entries in
    seat order), ``by_name`` (consenting players alphabetically by last name) and
    ``by_number`` (everybody by start number; players without consent appear only here
    and only by number)."""
    entries = []
    for seat in (
        Seat.objects.filter(round=round_)
        .select_related("registration__player", "table")
        .order_by("table__number", "position")
    ):
        reg = seat.registration
        named = reg.consent_public
        entries.append(
            (
                reg.player.last_name,
                reg.player.first_name,
                PlanEntry(
                    name=str(reg.player) if named else "",
                    start_number=reg.start_number,
                    table=seat.table.number,
                    seat=seat.position + 1,
                    named=named,
                ),
            )
        )
    tables: dict[int, list[PlanEntry]] = defaultdict(list)
    for _last, _first, entry in entries:
        tables[entry.table].append(entry)
    by_name = [e for last, first, e in sorted(entries, key=lambda x: (x[0], x[1])) if e.named]
    by_number = sorted((e for _l, _f, e in entries), key=lambda e: e.start_number)
    return {"tables": sorted(tables.items()), "by_name": by_name, "by_number": by_number}


def results_list(tournament: Tournament, round_number: int | None = None) -> dict:
    """The public standings for print: ``rows`` (:class:`scoring.selectors.StandingRow`,
    names only with consent), ``round_numbers`` (the round columns) and ``fee``
    (whether a lost-game fee column is shown)."""
    rows = selectors.standings(tournament, round_number, public=True)
    numbers = [round_number] if round_number else list(range(1, tournament.rounds + 1))
    return {
        "rows": rows,
        "round_numbers": numbers,
        "fee": tournament.lost_game_fee is not None,
    }
