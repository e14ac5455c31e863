"""Issue 37.20, 37.21 and 37.39: one way to write points on every page (a real minus sign,
groups from five digits in the page's language), the ruleset's English name on English
pages, a dated "Stand", and a finished evening's prize page that says it is final."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories.evenings import PRIZE_PLAYERS, define_prizes, prize_evening
from tournament.models import Round

BIG = {**PRIZE_PLAYERS, 1: (12_000, 340, 0, True), 7: (-1_720, 0, 4, True)}


@pytest.fixture
def big(db):
    return prize_evening(players=BIG)


def _page(client, url: str, language: str) -> str:
    client.post(reverse("set_language"), {"language": language, "next": "/"})
    return client.get(url).content.decode()


def test_points_carry_a_real_minus_and_the_languages_grouping(client, big):
    german = _page(client, reverse("scoring:standings", args=[big.pk]), "de")
    assert ">12.340<" in german and ">\u22121720<" in german
    assert not re.search(r">-\d", german)  # no hyphen before a figure in any cell
    english = _page(client, reverse("scoring:standings", args=[big.pk]), "en")
    assert ">12,340<" in english and ">\u22121720<" in english
    # four digits stay together in both languages, as the rule texts write them
    assert "1.720" not in german and "1,720" not in english
    # the player's own page and the projector's fragment write them the same way
    player = _page(client, reverse("scoring:player", args=[big.pk, 7]), "de")
    assert "\u22121720 Punkte" in player
    fragment = _page(client, reverse("scoring:standings_fragment", args=[big.pk]), "de")
    assert ">12.340<" in fragment


def test_exports_keep_plain_integers(client, big):
    csv = client.get(reverse("archive:standings", args=[big.pk, "csv"])).content.decode()
    assert "12340" in csv and "-1720" in csv
    assert "\u2212" not in csv and "12.340" not in csv


def test_the_press_report_writes_points_like_the_pages(big):
    from archive import press

    text = press.press_report(big)
    assert "12.340 Punkte" in text and "\u22121720 Punkte" in text, text


def test_english_pages_name_the_ruleset_in_english(client, big):
    url = reverse("scoring:standings", args=[big.pk])
    assert big.ruleset.name_de in _page(client, url, "de")
    english = _page(client, url, "en")
    assert big.ruleset.name_en in english and big.ruleset.name_de not in english


def test_the_stand_of_the_standings_carries_its_date(client, big):
    fragment = _page(client, reverse("scoring:standings_fragment", args=[big.pk]), "en")
    match = re.search(r"As of (\d\d\.\d\d\.\d{4}, \d\d:\d\d)", fragment)
    assert match, fragment[:600]


def test_a_finished_evenings_prize_page_says_final(client, big):
    define_prizes(big)
    url = reverse("prizes:list", args=[big.pk])
    assert "Endstand" in _page(client, url, "de")
    assert "final standings" in _page(client, url, "en").lower()
    Round.objects.filter(tournament=big, number=2).update(status=Round.Status.RUNNING)
    assert "nach dem aktuellen Stand der Rangliste" in _page(client, url, "de")
