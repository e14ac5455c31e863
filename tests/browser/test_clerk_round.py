"""Real browser (Playwright driving Debian's Chromium): a clerk enters a whole round of 12
hands at one table by keyboard alone; a wrong entry is rejected with its field named and
nothing saved; a public standings page in a second browser context shows the new totals
without a reload.  The hands are dealt and played out by the rules engine."""

from __future__ import annotations

import re

import pytest

from scoring.models import Hand
from tests.factories.browser import focused_field, hands_for, require_chromium
from tests.factories.tournaments import make_tournament

require_chromium()

sync_api = pytest.importorskip("playwright.sync_api")

OUTCOME_KEYS = {"played": "g", "abgehen": "a"}  # first letters of "gespielt", "abgegangen"
# type-ahead in the trump select: Kreuz, Schippe, Herz; Schellen is the second "S"
TRUMP_KEYS = {"C": ["k"], "S": ["s"], "H": ["h"], "D": ["s", "s"]}


def type_hand(page, sim, seats) -> int:
    """Type one hand with the keyboard only; returns the number of keystrokes."""
    record = sim.record
    keys: list[str] = [str(seats[record.declarer])[0], "Tab"]  # declarer select: first digit
    if len(str(seats[record.declarer])) > 1:
        keys[0:1] = list(str(seats[record.declarer]))
    keys += [
        *str(record.bid),
        "Tab",
        *TRUMP_KEYS[sim.trump],
        "Tab",
        OUTCOME_KEYS[record.outcome],
        "Tab",
    ]
    for meld in record.melds:
        keys += [*str(meld), "Tab"] if meld else ["Tab"]
    if record.tricks:
        for value in record.tricks[:-1]:  # the last player's tricks are computed from 250
            keys += [*str(value), "Tab"]
    for key in keys:
        page.keyboard.press(key)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    return len(keys) + 1


def test_clerk_enters_a_round_by_keyboard_and_public_page_follows(
    transactional_db, live_server, browser, django_user_model
):
    from django.contrib.auth.models import Group

    tournament = make_tournament(players=3, consent=lambda i: True)
    table = tournament.round_set.get(number=1).tables.get()
    clerk = django_user_model.objects.create_user("clerk", password="pw-clerk-123")
    clerk.groups.add(Group.objects.get(name="Schreiber"))
    tournament.clerks.add(clerk)

    public = browser.new_context().new_page()
    response = public.goto(f"{live_server.url}/turnier/{tournament.pk}/")
    assert response is not None and response.ok, response and response.status
    # no hand yet: no result, not 0 (issue 37.38)
    sync_api.expect(public.locator("#standings td.total").first).to_have_text("—")

    page = browser.new_context().new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/turnier/{tournament.pk}/runde/1/tisch/1/")
    page.keyboard.type("clerk")
    page.keyboard.press("Tab")
    page.keyboard.type("pw-clerk-123")
    with page.expect_navigation(url=re.compile(r"/tisch/1/$")):
        page.keyboard.press("Enter")

    # a wrong bid: rejected at its field, nothing saved
    page.keyboard.press(str(table.seats.get(position=1).registration.start_number)[0])
    page.keyboard.press("Tab")
    page.keyboard.type("155")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "Reizstufen" in page.locator("#err-bid").inner_text()
    assert Hand.objects.count() == 0

    page.goto(f"{live_server.url}/turnier/{tournament.pk}/runde/1/tisch/1/")
    keystrokes = []
    hands = hands_for(tournament, table, tournament.games_per_round)
    for number, _dealer, sim, seats in hands:
        assert page.locator("h2").first.inner_text().endswith(str(number))
        assert focused_field(page, "declarer") == "declarer"
        keystrokes.append(type_hand(page, sim, seats))
        assert Hand.objects.count() == number, page.locator(".err").all_inner_texts()

    stored = list(Hand.objects.order_by("number"))
    assert [h.scores for h in stored] == [list(sim.score.scores) for _n, _d, sim, _s in hands]
    assert "12 von 12 Spielen erfasst" in page.content()

    totals = {
        s.registration.start_number: sum(h.scores[s.position] for h in stored)
        for s in table.seats.all()
    }
    best = max(totals, key=totals.get)
    row = public.locator("#standings tbody tr").first
    sync_api.expect(row.locator("td.total")).to_have_text(str(totals[best]), timeout=15_000)
    print(
        f"keystrokes per hand: min {min(keystrokes)}, max {max(keystrokes)}, mean {sum(keystrokes) / len(keystrokes):.1f}"
    )
