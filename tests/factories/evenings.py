"""Whole evenings: closed evenings typed as round totals (prizes, tie-breaks, categories,
series) and the results evening of the site export and the press report."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.core.cache import cache

from prizes.models import Prize
from scoring import links
from scoring.models import RoundTotal
from tests.factories.hands import play_hand
from tests.factories.tournaments import close_round_anyway, make_tournament
from tournament import services
from tournament.models import Category, Player, Round, Tournament

# ------------------------------------------------------------------ the prize evening
# a closed two-round evening entered as round totals, with ties built in, shared by the
# tie-break, category and prize tests (issue 14, items 3–5)

# start number: (points in round 1, round 2, games lost as declarer, consent)
PRIZE_PLAYERS = {
    1: (300, 200, 2, True),  # 500, best round 300, 2 lost
    2: (200, 300, 1, True),  # 500, best round 300, 1 lost: wins the tie-break
    3: (250, 250, 0, False),  # 500, best round only 250
    4: (400, 0, 3, True),  # 400, best round 400
    5: (100, 300, 0, True),  # 400, best round 300
    6: (300, 200, 2, False),  # 500, exactly like player 1: shares with the tie-break too
    7: (-50, 0, 4, True),  # -50: last place
}


def prize_evening(tie_break: str = Tournament.TieBreak.SHARED, players=PRIZE_PLAYERS) -> Tournament:
    """The tournament with ``players`` (see :data:`PRIZE_PLAYERS`), both rounds closed."""
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


def define_prizes(tournament, ladies=None):
    """1: 100 €, 2: 60 €, 3: 40 € + Wurstkorb, 4.–6. pick from the table, best lady
    20 €, rote Laterne."""
    for place, cash in ((1, "100"), (2, "60"), (3, "40")):
        Prize.objects.create(
            tournament=tournament,
            place=place,
            cash=Decimal(cash),
            description="Wurstkorb" if place == 3 else "",
        )
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.TABLE, place=4, place_to=6)
    if ladies is not None:
        Prize.objects.create(
            tournament=tournament, kind=Prize.Kind.CATEGORY, category=ladies, cash=Decimal("20")
        )
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.LAST, description="Rote Laterne")


# ------------------------------------------------------------------ evenings of a series


def paper_evening(day: int, results: dict, *, finished: bool = True, consent: bool = True, **kw):
    """A one-round tournament typed from paper sheets: ``results`` maps players to their
    points; the round is closed when ``finished``."""
    tournament = services.create_tournament(
        name=f"Abend {day}",
        date=date(2026, 1, day),
        rounds=1,
        entry_mode=Tournament.EntryMode.TOTALS,
        **kw,
    )
    round_ = tournament.round_set.get()
    for player, points in results.items():
        reg = services.register(tournament, player, consent_public=consent)
        RoundTotal.objects.create(round=round_, registration=reg, points=points)
    if finished:
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
    return tournament


# ------------------------------------------------------------------ the results evening


def results_evening(clerk):
    """The evening the results website and the newspaper report are tested on (issue 28),
    in tests/archive and tests/browser: nine players (every third without consent, two in a
    category "Damen"), table entry on: round 1 with three games entered at each table and
    closed (shared places), round 2 drawn and running with its tables' live links, round 3
    to come."""
    tournament = make_tournament(players=9)
    tournament.table_entry = "opponent"
    tournament.save()
    ladies = Category.objects.create(tournament=tournament, name="Damen", slug="damen")
    for registration in tournament.registrations.order_by("start_number")[:2]:
        registration.categories.add(ladies)
    round_ = tournament.round_set.get(number=1)
    links.round_links(round_, clerk)  # each table's private link: never in the export
    for table in round_.tables.all():
        for number in range(1, 4):
            play_hand(table, number, 3, clerk, declarer_wins=number != 2)
    close_round_anyway(tournament)
    running = tournament.round_set.get(number=2)
    services.draw_round(running, seed=3)
    services.start_round(running)
    links.round_links(running, clerk)  # its tables' live links
    return tournament
