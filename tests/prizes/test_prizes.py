"""The prize list (issue 14.4): cash for places, the prize table by pick order, special
prizes; places from the standings with the tie-break, then shared with the cash split."""

from __future__ import annotations

import shutil
import subprocess
from decimal import Decimal

import pytest
from django.urls import reverse

from prizes.models import Prize
from prizes.selectors import prize_list, split
from tests.factories.evenings import define_prizes, prize_evening
from tournament import services
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


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
    tournament = prize_evening()  # four players on 500 share place 1
    define_prizes(tournament)
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
    tournament = prize_evening(Tournament.TieBreak.BEST_ROUND)
    ladies = services.add_category(tournament, "Damen")
    services.set_categories(tournament, {ladies.pk: [3, 5, 7]})
    define_prizes(tournament, ladies)
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
    tournament = prize_evening()
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
    assert prize_list(prize_evening()) == []


def _prize_post(rows, tournament_id, existing=0):
    data = {
        "action": "prizes",
        "prize-TOTAL_FORMS": str(len(rows)),
        "prize-INITIAL_FORMS": str(existing),
        "prize-MIN_NUM_FORMS": "0",
        "prize-MAX_NUM_FORMS": "1000",
    }
    for i, row in enumerate(rows):
        for key, value in row.items():
            data[f"prize-{i}-{key}"] = value
    return data


def test_director_defines_prizes_with_a_decimal_comma(client, director):
    tournament = prize_evening()
    client.force_login(director)
    url = reverse("prizes:setup", args=[tournament.pk])
    assert client.get(url).status_code == 200
    response = client.post(
        url,
        _prize_post(
            [
                {"kind": "place", "place": "1", "cash": "100,50"},
                {"kind": "table", "place": "2", "place_to": "5"},
                {"kind": "last", "description": "Rote Laterne"},
            ],
            tournament.pk,
        ),
    )
    assert response.status_code == 302, response.content.decode()
    assert sorted((p.kind, p.place, p.cash) for p in tournament.prizes.all()) == sorted(
        [("place", 1, Decimal("100.50")), ("table", 2, None), ("last", None, None)]
    )
    page = client.get(url).content.decode()
    assert "je 25,12\u00a0€" in page  # 100,50 € shared four ways, 2 cents left over
    assert "0,02\u00a0€ bleiben übrig" in page  # no line break inside an amount


def test_prize_form_names_the_missing_field(client, director):
    tournament = prize_evening()
    client.force_login(director)
    response = client.post(
        reverse("prizes:setup", args=[tournament.pk]),
        _prize_post(
            [
                {"kind": "place", "cash": "abc"},
                {"kind": "table", "place": "5", "place_to": "3"},
                {"kind": "category", "cash": "10"},
            ],
            tournament.pk,
        ),
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "Bitte den Platz angeben." in page
    assert "Zahl" in page  # the cash "abc"
    assert "„bis Platz“ darf nicht vor dem Platz liegen." in page
    assert "Bitte die Kategorie wählen." in page
    assert not tournament.prizes.exists()


def test_tie_break_is_changed_on_the_prize_page(client, director):
    tournament = prize_evening()
    client.force_login(director)
    client.get(reverse("scoring:standings", args=[tournament.pk]))  # fills the cache
    client.post(
        reverse("prizes:setup", args=[tournament.pk]),
        {"action": "tie_break", "tie_break": "best-round"},
    )
    tournament.refresh_from_db()
    assert tournament.tie_break == Tournament.TieBreak.BEST_ROUND
    page = client.get(reverse("scoring:standings", args=[tournament.pk])).content.decode()
    assert "entscheidet die beste Einzelrunde" in page


def test_public_prize_page_names_only_consenting_players(client):
    tournament = prize_evening()
    define_prizes(tournament)
    page = client.get(reverse("prizes:list", args=[tournament.pk])).content.decode()
    # 3 and 6 (no consent) share place 1 with 1 and 2
    assert "Vor1 Nach1" in page and "Vor2 Nach2" in page
    assert "Nach3" not in page and "Nach6" not in page
    assert "Startnummer 3" in page and "Startnummer 6" in page
    assert "je 50,00\u00a0€" in page and "Gleichstand" in page
    standings = client.get(reverse("scoring:standings", args=[tournament.pk])).content.decode()
    assert reverse("prizes:list", args=[tournament.pk]) in standings


def test_prize_giving_pdf_is_the_directors_with_every_name(client, director):
    tournament = prize_evening()
    define_prizes(tournament)
    url = reverse("printing:prizes", args=[tournament.pk])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(director)
    response = client.get(url)
    assert response.status_code == 200
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) missing")
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=response.content, capture_output=True, check=True
    ).stdout.decode()
    assert "Nach3" in text and "Nach6" in text
    assert "je 50,00 €" in text and "Rote Laterne" in text
    assert "200,00 €" in text  # the cash in all


def test_a_pairs_event_gives_place_prizes_to_pairs():
    """In a pairs event the places are the pairs': the 2nd pair wins "Platz 2" (not a
    shared 1st place per partner), cash is per pair, the last place is the last pair."""
    from datetime import date

    from scoring.models import RoundTotal
    from tournament.models import Player, Round

    tournament = services.create_tournament(
        name="Paarabend",
        date=date(2026, 1, 10),
        rounds=1,
        entry_mode=Tournament.EntryMode.TOTALS,
        preset="partnership-250",
        four_table_mode=Tournament.FourTableMode.KREUZ,
        event_type=Tournament.EventType.PAIRS,
    )
    round_ = tournament.round_set.get()
    for i, points in enumerate((300, 300, 200, 200, 100, 100), start=1):
        player = Player.objects.create(first_name=f"V{i}", last_name=f"N{i}")
        reg = services.register(tournament, player, consent_public=True)
        RoundTotal.objects.create(round=round_, registration=reg, points=points)
    for first in (1, 3, 5):
        services.form_pair(tournament, first, first + 1)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.PLACE, place=1, cash=Decimal(100))
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.PLACE, place=2, cash=Decimal(50))
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.LAST, description="Laterne")
    awards = prize_list(tournament)
    lines = [
        (a.title, sorted(r.start_number for r in a.rows), a.cash, a.shared, a.per_pair)
        for a in awards
    ]
    assert lines == [
        ("Platz 1", [1, 2], Decimal(100), False, True),
        ("Platz 2", [3, 4], Decimal(50), False, True),
        ("Letzter Platz (rote Laterne)", [5, 6], None, False, True),
    ]
    assert awards[0].cash_total == Decimal(100)


def test_english_prize_titles_say_place_not_seat():
    """Issue 37.5: one msgid "Platz %(n)s" served seats at a table and places in the
    standings, so the English prize list said "Seat 1 … Seat 30"."""
    from django.utils import translation

    tournament = prize_evening()
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.PLACE, place=5, cash=Decimal(10))
    Prize.objects.create(tournament=tournament, kind=Prize.Kind.PLACE, place=7, cash=Decimal(5))
    with translation.override("en"):
        titles = [award.title for award in prize_list(tournament)]
        seat = translation.pgettext("seat", "Platz %(n)s") % {"n": 1}
    assert titles[:2] == ["Places 5–6", "Place 7"] and seat == "Seat 1"


def test_english_money_puts_the_euro_sign_first(client, director):
    """Issue 37.22: the English prize page said "0.50 €"."""
    from django.utils import translation

    from tournament.formatting import euro

    with translation.override("en"):
        assert euro(Decimal("0.5")) == "€0.50" and euro(Decimal("1234.5")) == "€1,234.50"
    assert euro(Decimal("0.5")) == "0,50\u00a0€" and euro(Decimal("1234.5")) == "1.234,50\u00a0€"
