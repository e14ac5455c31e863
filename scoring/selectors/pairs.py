"""The standings of fixed pairs (partnership events): each pair's points summed from its
two players' rows."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from tournament.models import Registration, Tournament

from .standings import (
    StandingRow,
    assign_places,
    standings,
)


@dataclass
class PairRow:
    """One line of a pairs event's standings (``Tournament.EventType.PAIRS``).

    ``pair`` is the pair number; ``members`` the partners' :class:`StandingRow` (start
    number order), whose ``name`` is empty for a partner without consent; ``rounds`` and
    ``total`` are the pair's points (each partner carries the team's score, so they are
    either partner's); ``won``/``lost`` count the pair's games won and lost as declaring
    side; ``fee`` is both partners' lost-game fees together (``None`` without a fee);
    ``rank`` is shared on equal points unless the tournament's tie-break separates them,
    ``None`` for a pair ranked without a prize place."""

    rank: int | None
    pair: int
    members: list[StandingRow]
    rounds: list[int | None]
    total: int
    won: int
    lost: int
    fee: Decimal | None
    provisional: int = 0
    missed: list[bool] = field(default_factory=list)
    #: neither partner has a result yet (:attr:`StandingRow.waiting`): no place, no total
    #: on the page, listed after every pair with one (issue 37.38, for pairs events)
    waiting: bool = False

    @property
    def round_cells(self) -> list[int | str | None]:
        """``rounds`` for display, ``"—"`` for a round the pair missed."""
        missed = self.missed or [False] * len(self.rounds)
        return ["—" if m else p for p, m in zip(self.rounds, missed, strict=True)]

    @property
    def start_numbers(self) -> str:
        """The partners' start numbers, "3 / 11"."""
        return " / ".join(str(m.start_number) for m in self.members)


def pair_standings(
    tournament: Tournament, round_number: int | None = None, public: bool = True
) -> list[PairRow]:
    """Standings per pair of a pairs event: overall, or one round with ``round_number``.

    Built from the individual :func:`standings` (same queries plus none): the two
    registrations sharing a ``Registration.pair`` number form a row.  Each partner's
    :class:`scoring.models.SeatScore` carries the team's score (the engine credits each
    partner the side's points, seed 000 "Punktewertung"), so the pair's points per round
    are its partners' (the higher, should they ever differ, e.g. after a partner was seated
    elsewhere by a swap).  A pair is left out when the standings leave out both partners,
    and ranked without a prize place when either partner is.  Registrations without a pair
    are not listed.  Ordered by points, then (overall) the tournament's ``tie_break`` on
    the pair's rounds and lost games (:func:`tie_key`), then pair number; pairs equal on
    all of these share a place."""
    by_pair: dict[int, list[StandingRow]] = defaultdict(list)
    pair_of = dict(
        Registration.objects.filter(tournament=tournament, pair__isnull=False).values_list(
            "pk", "pair"
        )
    )
    for row in standings(tournament, round_number, public):
        if row.registration_id in pair_of:
            by_pair[pair_of[row.registration_id]].append(row)
    rows: list[PairRow] = []
    for number, members in by_pair.items():
        members.sort(key=lambda m: m.start_number)
        rounds: list[int | None] = []
        for cells in zip(*(m.rounds for m in members), strict=True):
            points = [p for p in cells if p is not None]
            rounds.append(max(points) if points else None)
        missed = [
            all(cells)
            for cells in zip(*(m.missed or [False] * len(m.rounds) for m in members), strict=True)
        ]
        fees = [m.fee for m in members if m.fee is not None]
        rows.append(
            PairRow(
                rank=None if any(m.rank is None for m in members) else 0,
                pair=number,
                members=members,
                rounds=rounds,
                total=sum(p for p in rounds if p is not None),
                won=max(m.won for m in members),
                lost=max(m.lost for m in members),
                fee=sum(fees, Decimal(0)) if tournament.lost_game_fee is not None else None,
                provisional=max(m.provisional for m in members),
                missed=missed,
                waiting=all(m.waiting for m in members),
            )
        )
    # the overall standings follow the tournament's tie-break, as the players' do
    tie_break = tournament.tie_break if round_number is None else Tournament.TieBreak.SHARED
    return assign_places(rows, tie_break, order=lambda row: row.pair)
