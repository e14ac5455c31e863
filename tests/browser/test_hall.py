"""Real browser (Playwright driving Debian's Chromium): the hall (issue 41).  On a 390 px
phone a table's page shows the director's announcement (escaped) and the round clock,
taps "Turnierleitung rufen" with a reason and sees the call taken; the director marks it
done and the phone shows it at its next refresh.  The director's console refreshes by
itself (htmx, every 10 s): a call made while it is open appears without a reload, and
"Erledigt" there closes it.  The public standings on the phone show the announcement and
the clock without sideways scrolling.  The phone page, the standings and the projector
with an announcement and a clock have no serious axe-core violation.

Set ``HALL_SHOTS`` to a folder to keep screenshots (console, phone-call, projector)."""

from __future__ import annotations

import os
import re
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from hall import services as hall
from hall.models import DirectorCall
from scoring import links, services
from tests.factories.browser import (
    BLOCKING,
    PHONE,
    SMALLEST_TEXT,
    describe,
    login,
    require_chromium,
)
from tests.factories.tournaments import first_round_tables, make_tournament
from tests.factories.web import form_data, link_page

require_chromium()

sync_api = pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

#: the projector's laptop: a common beamer resolution
PROJECTOR = {"viewport": {"width": 1280, "height": 720}}
DESKTOP = {"width": 1280, "height": 900}

#: typed by the director: shown as text, never as markup
ANNOUNCEMENT = "Parkplatz: Auto <b>HN-AB 123</b> bitte umparken"
#: the phone refreshes its notices at once when its tab is shown again (static/js/polling.js);
#: an expression run through the DevTools protocol, which the page's CSP does not forbid
SHOWN = "document.dispatchEvent(new CustomEvent('binokel:shown'))"
CALLED = re.compile(r"Die Turnierleitung ist gerufen \(\d\d:\d\d\) und kommt\.")
CLOCK = re.compile(r"Runde 1 endet um \d\d:\d\d · noch \d+ Minuten")


def _shot(page, name: str, full_page: bool = True) -> None:
    """A screenshot ``name``.png in the folder ``HALL_SHOTS`` names, when it is set."""
    folder = os.environ.get("HALL_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=full_page)


def _axe_findings(page, name: str, phone: bool) -> list[str]:
    """axe-core's serious and critical violations on ``page``, and on a phone any visible
    text smaller than 16 px, as lines for the assertion message."""
    found = [
        f"{name}: {describe(v)}"
        for v in axe_sync.Axe().run(page).response["violations"]
        if v["impact"] in BLOCKING
    ]
    if phone:
        smallest = page.evaluate(SMALLEST_TEXT)
        if smallest and smallest["size"] < 16:
            found.append(f"{name}: {smallest}")
    return found


def one_table_with_clock(live_server, director):
    """One table of 3 in a running round with table entry on ("ein Gegenspieler
    bestätigt"), a round clock of 90 minutes and the director's announcement: the
    tournament, the table and its link's address."""
    tournament = make_tournament(players=3, consent=lambda i: True, games_per_round=3)
    tournament.table_entry = "opponent"
    tournament.round_minutes = 90
    tournament.save()
    hall.announce(tournament, ANNOUNCEMENT, director)
    table = tournament.round_set.get(number=1).tables.get()
    link = links.live_link(table)
    return tournament, table, f"{live_server.url}/t/{link.token}/"


def test_a_table_calls_the_director_from_its_phone(
    transactional_db, live_server, browser, director
):
    tournament, table, url = one_table_with_clock(live_server, director)
    page = browser.new_context(**PHONE).new_page()
    page.goto(url)
    notices = page.locator("#hall-notices")

    # the announcement, as typed (escaped: no bold), and the clock
    sync_api.expect(notices.locator(".announcement")).to_contain_text(ANNOUNCEMENT)
    assert notices.locator("b").count() == 0
    sync_api.expect(notices.locator(".round-clock")).to_have_text(CLOCK)

    # the call, with a reason
    page.fill("#call-reason", "Streit um Spiel 2")
    page.tap("button.call-button")
    sync_api.expect(notices.locator(".call-state.open")).to_have_text(CALLED)
    assert notices.locator("button.call-button").count() == 0
    call = DirectorCall.objects.get()
    assert (call.table, call.reason, call.done_at) == (table, "Streit um Spiel 2", None)
    # the rest of the notices stay after the swap
    sync_api.expect(notices.locator(".announcement")).to_contain_text(ANNOUNCEMENT)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _shot(page, "phone-call")
    problems = _axe_findings(page, "Tischseite", phone=True)

    # the director has seen to it: the phone shows it at its next refresh (every 20 s,
    # or at once when the tab is shown again) and may call again
    assert hall.mark_done(call, director)
    page.evaluate(SHOWN)
    sync_api.expect(notices.locator(".call-state.done")).to_contain_text("erledigt")
    sync_api.expect(notices.locator("button.call-button")).to_be_visible()
    sync_api.expect(notices.locator(".call-state.open")).to_have_count(0)

    # the public pages with the announcement and the clock
    standings = browser.new_context(**PHONE).new_page()
    standings.goto(f"{live_server.url}/turnier/{tournament.pk}/")
    sync_api.expect(standings.locator("#hall-notices .round-clock")).to_have_text(CLOCK)
    problems += _axe_findings(standings, "Rangliste", phone=True)
    projector = browser.new_context(**PROJECTOR).new_page()
    projector.goto(f"{live_server.url}/turnier/{tournament.pk}/beamer/")
    big = projector.locator("#hall-notices .hall-notices.large")
    sync_api.expect(big.locator(".announcement")).to_contain_text(ANNOUNCEMENT)
    sync_api.expect(big.locator(".round-clock")).to_have_text(CLOCK)
    _shot(projector, "projector", full_page=False)
    problems += _axe_findings(projector, "Beamer", phone=False)
    assert not problems, "\n".join(problems)


def test_the_console_shows_a_new_call_without_a_reload(
    transactional_db, live_server, browser, director
):
    """A call made while the console is open appears in its live part at the next poll
    (every 10 s), without a reload; "Erledigt" there closes it in place."""
    tournament = make_tournament(players=9, consent=lambda i: True)
    tournament.table_entry = "opponent"
    tournament.round_minutes = 90
    tournament.idle_minutes = 15
    tournament.save()
    hall.announce(tournament, "Pause nach Runde 1: 15 Minuten", director)
    busy, calling, _idle = first_round_tables(tournament)
    # the busy table has entered five hands just now; the round started 40 minutes ago,
    # so the two other tables are idle and behind the clock
    phone = Client()
    busy_link = links.live_link(busy)
    for number in range(1, 6):
        data = form_data(busy, number=number, dealer=services.dealer_for(busy, 3, number))
        assert phone.post(link_page(busy_link), data).status_code == 302
    tournament.round_set.filter(number=1).update(started_at=timezone.now() - timedelta(minutes=40))

    path = f"/turnier/{tournament.pk}/konsole/"
    page = login(browser, live_server, "director", "pw-director-123", path, viewport=DESKTOP)
    assert page.url.endswith(path)
    live = page.locator("#console-live")
    sync_api.expect(live.locator(".round-clock")).to_contain_text("Runde 1 endet um")
    assert "ruft seit" not in live.inner_text()
    polls: list[float] = []
    page.on(
        "request",
        lambda request: polls.append(time.monotonic()) if "/konsole/live/" in request.url else None,
    )
    navigations: list[str] = []
    page.on(
        "framenavigated",
        lambda frame: navigations.append(frame.url) if frame == page.main_frame else None,
    )

    call, created = hall.call_director(links.live_link(calling), "Karten fehlen")
    assert created
    # the next poll is at most 10 s away: wait for it, with room for a slow machine
    row = live.locator("tr.calling")
    sync_api.expect(row).to_contain_text("ruft seit", timeout=15_000)
    sync_api.expect(row).to_contain_text("Karten fehlen")
    assert row.locator("th").inner_text() == str(calling.number)
    # the first poll came about 10 s after the page was opened (its own clock), not sooner
    assert polls
    first_poll_ms = page.evaluate("performance.now()") - (time.monotonic() - polls[0]) * 1000
    assert first_poll_ms > 9_000, "the console polls more often than every 10 s"
    assert navigations == [], "the console was reloaded"
    assert live.locator("tr.lagging").count() == 1  # the idle table; the calling one is red
    assert "keine Eingabe" in live.inner_text()
    _shot(page, "console")
    problems = _axe_findings(page, "Konsole", phone=False)
    assert not problems, "\n".join(problems)

    # marked done on the console: the live part comes back without the call
    live.locator("tr.calling button", has_text="Erledigt").click()
    sync_api.expect(live.locator("tr.calling")).to_have_count(0)
    sync_api.expect(live.locator(".console-calls")).to_contain_text("erledigt")
    assert navigations == []
    call.refresh_from_db()
    assert call.done_at is not None and call.done_by == director


def test_the_public_standings_show_the_notices_on_a_phone(
    transactional_db, live_server, browser, director
):
    tournament, _table, _url = one_table_with_clock(live_server, director)
    # a long one, with a web address that cannot break at a space
    hall.announce(
        tournament,
        "Ergebnisse und Fotos ab morgen unter www.binokelfreunde-plochingen-ergebnisse.de "
        "– bitte nach der letzten Runde die Tischkarten abgeben",
        director,
    )
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server.url}/turnier/{tournament.pk}/")
    box = page.locator("#hall-notices .hall-notices")
    sync_api.expect(box.locator(".announcement")).to_have_count(2)
    sync_api.expect(box.locator(".announcement").last).to_contain_text(ANNOUNCEMENT)
    sync_api.expect(box.locator(".round-clock")).to_have_text(CLOCK)
    width = page.viewport_size["width"]
    for element in (box, *box.locator(".announcement, .round-clock").all()):
        bounds = element.bounding_box()
        assert bounds["x"] >= 0 and bounds["x"] + bounds["width"] <= width, bounds
        # nothing inside sticks out of its box either
        assert element.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_throttled_call_tells_the_phone_why(
    transactional_db, live_server, browser, director, settings
):
    settings.DIRECTOR_CALL_RATE = "1/h"
    _tournament, _table, url = one_table_with_clock(live_server, director)
    page = browser.new_context(**PHONE).new_page()
    page.goto(url)
    notices = page.locator("#hall-notices")
    page.tap("button.call-button")
    sync_api.expect(notices.locator(".call-state.open")).to_have_text(CALLED)
    hall.mark_done(DirectorCall.objects.get(), director)
    page.evaluate(SHOWN)
    sync_api.expect(notices.locator(".call-state.done")).to_contain_text("erledigt")
    with page.expect_response(lambda response: "/rufen/" in response.url) as answer:
        page.tap("button.call-button")
    # htmx shows no 4xx answer: the refusal comes with 200 to the phone's script
    assert answer.value.status == 200
    sync_api.expect(notices.locator(".err[role=alert]")).to_contain_text(
        "Schon oft gerufen", timeout=3_000
    )
