"""The results list ("Rangliste") for print: the standings overall or for one round, of
players or of pairs (:class:`PrintedPair`), and the note that marks it provisional while
a round it covers is open."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring import selectors
from tournament.models import Category, Round, Tournament

from .common import isolate


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
        """The line of ``row`` (:class:`scoring.selectors.PairRow`) as printed."""
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
