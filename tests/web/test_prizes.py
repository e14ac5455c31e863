"""The prize list (issue 14.4): cash for places, the prize table by pick order, special
prizes; places from the standings with the tie-break, then shared with the cash split."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.models import Prize
from scoring.prizes import prize_list, split
from tournament import services
from tournament.models import Tournament

from .prize_evening import evening

pytestmark = pytest.mark.django_db


def define(tournament, ladies=None):
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


def summary(awards):
    return [
        (
            a.title,
            [r.start_number for r in a.rows],
            a.cash,
            a.remainder,
            a.items,
            a.picks,
        )
        for a in awards
    ]


def test_split_rounds_down_to_the_cent_and_keeps_the_rest():
    assert split(Decimal("100"), 3) == (Decimal("33.33"), Decimal("0.01"))
    assert split(Decimal("160"), 2) == (Decimal("80.00"), Decimal("0"))


def test_shared_places_split_the_cash_and_share_the_picks():
    tournament = evening()  # four players on 500 share place 1
    define(tournament)
    awards = prize_list(tournament)
    # places 1-4 shared: 100 + 60 + 40 = 200 € split four ways, the Wurstkorb and the
    # first pick are theirs to share; 4 and 5 share place 5 (picks 2 and 3)
    assert summary(awards) == [
        ("Platz 1–4", [1, 2, 3, 6], Decimal("50.00"), Decimal("0"), ["Wurstkorb"], [1]),
        ("Platz 5–6", [4, 5], None, Decimal("0"), [], [2, 3]),
        ("Letzter Platz (rote Laterne)", [7], None, Decimal("0"), ["Rote Laterne"], []),
    ]
    assert awards[0].shared and not awards[2].shared
    assert awards[0].cash_total == Decimal("200.00")


def test_the_tie_break_resolves_places_before_sharing():
    tournament = evening(Tournament.TieBreak.BEST_ROUND)
    ladies = services.add_category(tournament, "Damen")
    services.set_categories(tournament, {ladies.pk: [3, 5, 7]})
    define(tournament, ladies)
    # 2 alone first; 1 and 6 equal in everything: places 2-3 shared, (60+40)/2 each
    assert summary(prize_list(tournament)) == [
        ("Platz 1", [2], Decimal("100.00"), Decimal("0"), [], []),
        ("Platz 2–3", [1, 6], Decimal("50.00"), Decimal("0"), ["Wurstkorb"], []),
        ("Platz 4", [3], None, Decimal("0"), [], [1]),
        ("Platz 5", [4], None, Decimal("0"), [], [2]),
        ("Platz 6", [5], None, Decimal("0"), [], [3]),
        ("Beste(r) Damen", [3], Decimal("20.00"), Decimal("0"), [], []),
        ("Letzter Platz (rote Laterne)", [7], None, Decimal("0"), ["Rote Laterne"], []),
    ]


def test_an_uneven_split_shows_the_cent_left_over():
    tournament = evening()
    Prize.objects.create(tournament=tournament, place=1, cash=Decimal("100"))
    (award,) = prize_list(tournament)
    assert (award.cash, award.remainder) == (Decimal("25.00"), Decimal("0"))
    Prize.objects.filter(tournament=tournament).update(cash=Decimal("10.01"))
    (award,) = prize_list(tournament)
    assert (award.cash, award.remainder, award.cash_total) == (
        Decimal("2.50"),
        Decimal("0.01"),
        Decimal("10.01"),
    )


def test_no_prizes_no_list():
    assert prize_list(evening()) == []
