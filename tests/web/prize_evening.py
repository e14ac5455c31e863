"""A closed two-round evening entered as round totals, with ties built in, shared by the
tie-break, category and prize tests (issue 14, items 3–5)."""

from __future__ import annotations

from datetime import date

from django.core.cache import cache

from scoring.models import RoundTotal
from tournament import services
from tournament.models import Player, Round, Tournament

# start number: (points in round 1, round 2, games lost as declarer, consent)
PLAYERS = {
    1: (300, 200, 2, True),  # 500, best round 300, 2 lost
    2: (200, 300, 1, True),  # 500, best round 300, 1 lost: wins the tie-break
    3: (250, 250, 0, False),  # 500, best round only 250
    4: (400, 0, 3, True),  # 400, best round 400
    5: (100, 300, 0, True),  # 400, best round 300
    6: (300, 200, 2, False),  # 500, exactly like player 1: shares with the tie-break too
    7: (-50, 0, 4, True),  # -50: last place
}


def evening(tie_break: str = Tournament.TieBreak.SHARED, players=PLAYERS) -> Tournament:
    """The tournament with ``players`` (see :data:`PLAYERS`), both rounds closed."""
    cache.clear()
    tournament = services.create_tournament(
        name="Preisbinokel",
        date=date(2026, 11, 21),
        rounds=2,
        entry_mode=Tournament.EntryMode.TOTALS,
        tie_break=tie_break,
    )
    rounds = {r.number: r for r in tournament.round_set.all()}
    for number, (p1, p2, lost, consent) in players.items():
        player = Player.objects.create(first_name=f"Vor{number}", last_name=f"Nach{number}")
        reg = services.register(tournament, player, start_number=number, consent_public=consent)
        RoundTotal.objects.create(round=rounds[1], registration=reg, points=p1, games_lost=lost)
        RoundTotal.objects.create(round=rounds[2], registration=reg, points=p2)
    Round.objects.filter(tournament=tournament).update(status=Round.Status.CLOSED)
    return tournament


def ranks(rows) -> list[tuple[int, int | None]]:
    """``(start number, place)`` in the order listed."""
    return [(r.start_number, r.rank) for r in rows]
