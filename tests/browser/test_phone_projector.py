"""Real browser (Playwright driving Debian's Chromium): the standings on a 360 and 390 px
phone show place, name and total without sideways scrolling; the player's view starts with
place, points, round and table; the projector at 1920×1080 keeps its header in place while
the list scrolls, with names of at least 28 px (issue 17.5)."""

from __future__ import annotations

import pytest

from scoring.models import RoundTotal
from tests.factories.browser import require_chromium
from tests.factories.tournaments import make_tournament
from tournament.models import Player, Tournament

require_chromium()

sync_api = pytest.importorskip("playwright.sync_api")

PLAYERS = 30


@pytest.fixture
def evening(transactional_db):
    """30 players in round 1 of 3 (paper mode), long names and four-digit totals, two of
    them negative; a lost-game fee so that every column is there."""
    tournament = make_tournament(
        players=PLAYERS, entry_mode=Tournament.EntryMode.TOTALS, lost_game_fee="0.50"
    )
    Player.objects.filter(registrations__start_number=5).update(
        first_name="Hans-Joachim Maximilian", last_name="Schwarzwälder-Kirschenbaum"
    )
    round_ = tournament.round_set.get(number=1)
    for reg in tournament.registrations.all():
        points = 1240 + 37 * reg.start_number if reg.start_number > 2 else -1050
        RoundTotal.objects.create(round=round_, registration=reg, points=points, games_lost=3)
    return tournament


def _no_sideways_scroll(page) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("width", [360, 390])
def test_phone_standings_show_place_name_and_total(live_server, browser, evening, width):
    page = browser.new_context(viewport={"width": width, "height": 740}).new_page()
    page.goto(f"{live_server.url}/turnier/{evening.pk}/")
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == PLAYERS
    _no_sideways_scroll(page)
    for i in range(PLAYERS):
        row = rows.nth(i)
        for cell in ("td.c-rank", "td.c-name", "td.c-total"):
            box = row.locator(cell).bounding_box()
            assert box is not None and box["width"] > 0, cell
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (cell, box)
    # the long name wraps rather than pushing the total out
    long_row = page.locator("table.standings tbody tr", has_text="Kirschenbaum")
    total = long_row.locator("td.c-total")
    assert total.inner_text().strip().lstrip("\u2212").isdigit()
    # rounds and games collapse on the phone
    assert not page.locator("table.standings td.c-round").first.is_visible()


def test_player_view_starts_with_place_points_round_and_table(live_server, browser, evening):
    page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    page.goto(f"{live_server.url}/turnier/{evening.pk}/spieler/30/")
    summary = page.locator("#summary")
    text = summary.inner_text()
    assert text.startswith(f"Platz 1 von {PLAYERS} · 2350 Punkte · Runde 1, Tisch ")
    box = summary.bounding_box()
    assert box["y"] + box["height"] <= 740
    assert box["y"] < page.locator("table.hands").bounding_box()["y"]
    _no_sideways_scroll(page)


def test_projector_header_stays_while_the_list_scrolls(live_server, browser, evening, settings):
    # venue mode: the QR code shows the laptop's address on the hall's Wi-Fi (opened as
    # localhost without it, the projector shows no code no phone could open)
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    # table 4 has not handed in its sheet yet
    RoundTotal.objects.filter(
        round__number=1, registration__seats__table__number=4, registration__seats__round__number=1
    ).delete()
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(f"{live_server.url}/turnier/{evening.pk}/beamer/")
    head = page.locator("#projector-head")
    assert "Runde 1 läuft · 9 von 10 Tischen fertig" in head.inner_text()
    assert "Stand" in head.inner_text()
    top = head.bounding_box()["y"]
    assert page.evaluate("document.documentElement.scrollHeight") > 1080  # it must scroll
    page.evaluate("window.scrollTo(0, 600)")
    # wait for the scroll itself, not for a guessed time (the auto-scroll may move it on)
    page.wait_for_function("window.scrollY >= 500", timeout=5000)
    page.wait_for_function(
        "Math.abs(document.getElementById('projector-head').getBoundingClientRect().top) <= 2",
        timeout=5000,
    )
    box = head.bounding_box()
    assert box["y"] == pytest.approx(0, abs=2) and box["y"] <= top
    assert box["height"] > 40 and head.is_visible()
    # rows pass under the header, not over it
    name = page.locator("table.standings td.c-name").first
    size = float(name.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
    assert size >= 28
    assert page.locator(".join-corner img").is_visible()  # the QR code still in its corner


def test_pages_run_under_the_content_security_policy(live_server, browser, evening):
    """Issue 38.9: every answer carries a Content-Security-Policy without inline script;
    the projector's scrolling and the start page's "Meine Startnummer" moved to static
    files.  Chromium reports no refused script or style, the projector measured its head
    (its script ran) and the start page's form opens the player's page."""
    refused: list[str] = []
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.on(
        "console",
        lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None,
    )
    response = page.goto(f"{live_server.url}/turnier/{evening.pk}/beamer/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_function(
        "getComputedStyle(document.documentElement).getPropertyValue('--projector-head') !== ''",
        timeout=5000,
    )
    for address in ("/", f"/turnier/{evening.pk}/", "/accounts/login/"):
        page.goto(live_server.url + address)
    page.goto(live_server.url + "/")
    page.fill("form.findme input[name=n]", "5")
    page.click("form.findme button")
    page.wait_for_url(f"**/turnier/{evening.pk}/spieler/5/")
    assert refused == []
