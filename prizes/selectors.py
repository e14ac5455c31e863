"""The prize list resolved from the standings: who wins which cash prize, who picks when
from the prize table, the best of each category and the last place (issue 14.4).

Places come from :func:`scoring.selectors.standings`, so the tournament's tie-break
(:func:`scoring.selectors.assign_places`) decides first.  Players still equal share
their places: the cash of all the places they cover is added up and split evenly, to the
cent, rounded down (a cent left over is shown); a prize-table pick or a thing prize of
shared places is marked as shared, and the director decides at the prize-giving (by
agreement or by lot).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring import selectors
from scoring.selectors import StandingRow
from tournament.models import Tournament

from .models import Prize

CENT = Decimal("0.01")


@dataclass
class Award:
    """One line of the prize-giving: ``title`` (e.g. "Platz 2", "Beste(r) Damen"),
    ``places`` (first and last place the line covers, equal for one place), the winning
    ``rows`` (more than one: a tie), the ``cash`` in EUR for each of them (``None``: no
    cash), ``remainder`` (the cents an even split leaves over), ``items`` (thing prizes of
    the places covered), ``picks`` (numbers in the prize-table order, e.g. ``[1, 2]``) and
    ``points`` (their total).  In a pairs event a place line is won by pairs: ``rows`` are
    the partners of every winning pair, ``per_pair`` is set and ``ways`` is the number of
    pairs, among whom the cash is split (``cash`` is then each pair's)."""

    title: str
    places: tuple[int, int]
    rows: list[StandingRow]
    cash: Decimal | None = None
    remainder: Decimal = Decimal("0")
    items: list[str] = field(default_factory=list)
    picks: list[int] = field(default_factory=list)
    points: int = 0
    per_pair: bool = False
    ways: int = 0

    def __post_init__(self) -> None:
        if not self.ways:
            self.ways = len(self.rows)

    @property
    def shared(self) -> bool:
        """More than one player (pair): a tie the tie-break did not decide."""
        return self.ways > 1

    @property
    def cash_total(self) -> Decimal | None:
        """All the cash of this line (``cash`` × winners + ``remainder``)."""
        if self.cash is None:
            return None
        return self.cash * self.ways + self.remainder


def split(total: Decimal, ways: int) -> tuple[Decimal, Decimal]:
    """``total`` EUR split evenly ``ways`` ways: the share of each, rounded down to the
    cent, and the cents left over; ``split(Decimal("100"), 3) == (Decimal("33.33"),
    Decimal("0.01"))``."""
    each = (total / ways).quantize(CENT, rounding=ROUND_DOWN)
    return each, total - each * ways


def _place_title(first: int, last: int) -> str:
    if first == last:
        # "Platz" is a place in the standings here, a seat at a table elsewhere (issue 37.5)
        return pgettext("rank", "Platz %(n)s") % {"n": first}
    return pgettext("rank", "Platz %(a)s–%(b)s") % {"a": first, "b": last}


def _groups(rows: list) -> list[tuple[int, int, list]]:
    """Placed rows (players' or pairs') grouped by shared place: ``(first place, last
    place, rows)``."""
    groups: list[tuple[int, int, list]] = []
    for row in rows:
        if row.rank is None:
            continue
        if groups and groups[-1][0] == row.rank:
            groups[-1][2].append(row)
        else:
            groups.append((row.rank, row.rank, [row]))
    return [(first, first + len(g) - 1, g) for first, _last, g in groups]


def _cash(amounts: list[Decimal | None], ways: int) -> tuple[Decimal | None, Decimal]:
    paid = [a for a in amounts if a is not None]
    if not paid:
        return None, Decimal("0")
    return split(sum(paid, Decimal("0")), ways)


def prize_list(tournament: Tournament, public: bool = True) -> list[Award]:
    """Every prize of ``tournament`` with its winners, in prize-giving order: the place
    lines from the top (cash and things of the places, then the prize-table picks), then
    the best of each category, then the last place.

    In a pairs event the place lines, the prize table and the last place go to pairs
    (:func:`scoring.selectors.pair_standings`), cash split per pair; the best of a category
    is a player.  ``public``: names only with consent (:func:`scoring.selectors.standings`).  A line
    with nobody (fewer players than prize places, an empty category) is left out.  Costs
    the standings' queries plus one for the prizes and one per category prize."""
    prizes = list(tournament.prizes.select_related("category"))
    if not prizes:
        return []
    rows = selectors.standings(tournament, public=public)
    # in a pairs event places, the prize table and the last place go to pairs
    # (:func:`scoring.selectors.pair_standings`); a category's best is still a player
    pairs = tournament.event_type == Tournament.EventType.PAIRS
    placed_rows = selectors.pair_standings(tournament, public=public) if pairs else rows

    def people(group: list) -> list[StandingRow]:
        return [m for pair in group for m in pair.members] if pairs else group

    cash: dict[int, list[Decimal | None]] = {}
    items: dict[int, list[str]] = {}
    picks: set[int] = set()
    for prize in prizes:
        if prize.kind not in (Prize.Kind.PLACE, Prize.Kind.TABLE) or prize.place is None:
            continue
        last = max(prize.place, prize.place_to or prize.place)
        for place in range(prize.place, last + 1):
            if prize.kind == Prize.Kind.TABLE:
                picks.add(place)
            else:
                cash.setdefault(place, []).append(prize.cash)
                if prize.description:
                    items.setdefault(place, []).append(prize.description)
    # the better place picks first; picks count on across all prize-table lines
    order = {place: i for i, place in enumerate(sorted(picks), start=1)}
    awards: list[Award] = []
    for first, last, group in _groups(placed_rows):
        places = range(first, last + 1)
        if not any(p in cash or p in picks for p in places):
            continue
        each, rest = _cash([a for p in places for a in cash.get(p, [])], len(group))
        awards.append(
            Award(
                title=_place_title(first, last),
                places=(first, last),
                rows=people(group),
                per_pair=pairs,
                ways=len(group),
                cash=each,
                remainder=rest,
                items=[i for p in places for i in items.get(p, [])],
                picks=[order[p] for p in places if p in picks],
                points=group[0].total,
            )
        )
    for prize in prizes:
        if prize.kind == Prize.Kind.CATEGORY and prize.category is not None:
            members = set(prize.category.registrations.values_list("pk", flat=True))
            ranked = selectors.category_rows(rows, members, tournament.tie_break)
            winners = [r for r in ranked if r.rank == 1]
            title = _("Beste(r) %(category)s") % {"category": prize.category.name}
            ways, by_pair = len(winners), False
        elif prize.kind == Prize.Kind.LAST:
            placed = [r for r in placed_rows if r.rank is not None]
            last_group = [r for r in placed if r.rank == placed[-1].rank] if placed else []
            winners = people(last_group)
            ways, by_pair = len(last_group), pairs
            title = _("Letzter Platz (rote Laterne)")
        else:
            continue
        if not winners:
            continue
        each, rest = _cash([prize.cash], ways)
        place = (last_group[0].rank if by_pair else winners[0].rank) or 0
        awards.append(
            Award(
                title=title,
                places=(place, place + ways - 1),
                rows=winners,
                per_pair=by_pair,
                ways=ways,
                cash=each,
                remainder=rest,
                items=[prize.description] if prize.description else [],
                points=winners[0].total,
            )
        )
    return awards
