"""A page whose tab is hidden stops polling (issue 41): a phone in a pocket or a tab in
the background sends no standings request and uses no data; shown again, it refreshes at
once (static/js/polling.js)."""

from __future__ import annotations

import time

import pytest

from tests.factories.browser import PHONE_VIEWPORT, require_chromium
from tests.factories.tournaments import make_tournament

require_chromium()

sync_api = pytest.importorskip("playwright.sync_api")

HIDE = (
    "Object.defineProperty(document, 'hidden', {get: () => true, configurable: true});"
    "document.dispatchEvent(new Event('visibilitychange'))"
)
SHOW = (
    "Object.defineProperty(document, 'hidden', {get: () => false, configurable: true});"
    "document.dispatchEvent(new Event('visibilitychange'))"
)


def test_a_hidden_tab_sends_no_poll_and_refreshes_when_shown(
    live_server, browser, transactional_db
):
    tournament = make_tournament(players=9)
    page = browser.new_context(viewport=PHONE_VIEWPORT).new_page()
    polls: list[float] = []
    fragment = f"/turnier/{tournament.pk}/rangliste/"
    page.on(
        "request",
        lambda request: polls.append(time.monotonic()) if fragment in request.url else None,
    )
    page.goto(f"{live_server.url}/turnier/{tournament.pk}/")
    page.wait_for_load_state("networkidle")
    page.evaluate(HIDE)
    hidden_since = time.monotonic()
    page.wait_for_timeout(11_500)  # more than one 10 s interval
    assert not [t for t in polls if t > hidden_since], "a hidden tab polled"
    shown_at = time.monotonic()
    page.evaluate(SHOW)
    page.wait_for_timeout(1_500)
    assert [t for t in polls if t > shown_at], "no refresh when the tab was shown again"
