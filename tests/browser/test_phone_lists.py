"""Issue 37.29 and 37.40 on a 390 px phone: the prize page fits the screen with every
amount visible, a pairs list keeps each start number on its partner's line, names do not
break inside a word that fits, and the "unbestätigt" header is not cut off."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories.browser import PHONE, require_chromium
from tests.factories.evenings import define_prizes, prize_evening
from tests.factories.tournaments import make_tournament, partnership_tournament
from tournament import services
from tournament.models import Player, Tournament

require_chromium()

pytestmark = pytest.mark.django_db(transaction=True)
sync_api = pytest.importorskip("playwright.sync_api")


def _phone(browser, url: str):
    page = browser.new_context(**PHONE).new_page()
    page.goto(url)
    return page


def test_the_prize_page_fits_a_phone(live_server, browser):
    tournament = prize_evening()
    define_prizes(tournament, ladies=None)
    page = _phone(browser, live_server.url + reverse("prizes:list", args=[tournament.pk]))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    amounts = page.locator(".prize-list td.cash")
    assert amounts.count() >= 3
    for i in range(amounts.count()):
        cell = amounts.nth(i)
        if not cell.inner_text().strip():
            continue
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert "€" in cell.inner_text()
        # the amount says what it is once the columns' heads are gone
        label = cell.evaluate("e => getComputedStyle(e, '::before').content")
        assert "Geld" in label, label


def test_a_pairs_list_keeps_each_start_number_beside_its_partner(live_server, browser):
    tournament = partnership_tournament(8, Tournament.EventType.PAIRS)
    first = tournament.registrations.get(start_number=1).player
    first.first_name, first.last_name = "Anna-Katharina Magdalena", "Schwämmle-Hinterberger"
    first.save()
    round_ = tournament.round_set.get(number=1)
    services.draw_round(round_, seed=3)
    services.start_round(round_)
    page = _phone(browser, live_server.url + reverse("scoring:standings", args=[tournament.pk]))
    cell = page.locator("table.standings td.c-name", has_text="Schwämmle").first
    numbers = cell.locator(".pair-no")
    names = cell.locator("bdi")
    assert numbers.count() == names.count() == 2
    for i in range(2):
        number, name = numbers.nth(i).bounding_box(), names.nth(i).bounding_box()
        # the number stands on the first line of its own partner's name
        assert abs(number["y"] - name["y"]) < 4, (number, name)
    assert numbers.nth(0).inner_text() == "1" and numbers.nth(1).inner_text() == "2"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_names_break_between_words_and_the_unconfirmed_header_shows(live_server, browser):
    tournament = _confirming_tournament()
    page = _phone(browser, live_server.url + reverse("scoring:standings", args=[tournament.pk]))
    header = page.locator("table.standings th.c-provisional")
    assert header.is_visible()
    # the whole word is there: nothing of it is clipped by its cell
    assert header.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    box = header.bounding_box()
    wrap = page.locator(".standings-wrap").bounding_box()
    assert box["x"] + box["width"] <= wrap["x"] + wrap["width"] + 1, (box, wrap)
    # a surname that fits the column is never split in two lines
    name = page.locator("td.c-name bdi", has_text="Schwämmle").first
    lines_of_surname = name.evaluate(
        """e => { const text = e.firstChild, at = text.data.indexOf("Schwämmle");
                  const range = document.createRange();
                  range.setStart(text, at); range.setEnd(text, at + "Schwämmle".length);
                  return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }"""
    )
    assert lines_of_surname == 1, "Schwämmle was split inside the word"


def _confirming_tournament() -> Tournament:
    """Nine players, entries confirmed at the table and marked while unconfirmed; the
    first player is called Schwämmle."""
    tournament = make_tournament(players=9, consent=lambda i: True)
    tournament.confirmation_required = True
    tournament.mark_unconfirmed = True
    tournament.save()
    player = Player.objects.get(last_name="Nachname1")
    player.first_name, player.last_name = "Gottlieb Friedrich", "Schwämmle"
    player.save()
    return tournament
