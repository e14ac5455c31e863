"""Real browser (Playwright driving Debian's Chromium), findings of a real evening:

1. the standings on a 360/390 px phone show the start number ("Nr."), so a player without
   consent to public names ("—") finds his row, and still fit the screen;
2. the projector keeps its column headings in view under the title while the rows
   scroll, and stands still at the top for a few seconds before it starts scrolling;
3. the table's phone page (and the clerk's form) shows an error about the trick points
   of several fields once, at the width of the form, not under every trick field.
"""

from __future__ import annotations

import re

import pytest
from django.db.models import F

from scoring import links
from scoring.models import Hand, RoundTotal
from tests.factories.browser import PHONE, focused_field, login, require_chromium
from tests.factories.tournaments import make_tournament
from tournament.models import Player, Registration, Tournament

require_chromium()

sync_api = pytest.importorskip("playwright.sync_api")

PLAYERS = 30
# the sum message of a wrong trick row: 200 + 100 typed, the blank field would be -50
SUM_MESSAGE = "für das leere Feld bliebe -50"


@pytest.fixture
def evening(transactional_db):
    """30 players in round 1 of 3 (paper mode) with three-digit start numbers (101 …),
    every third without consent to public names, a long name, four-digit totals (two
    negative), a lost-game fee and unconfirmed totals marked: every column a phone might
    have to show."""
    tournament = make_tournament(
        players=PLAYERS,
        entry_mode=Tournament.EntryMode.TOTALS,
        lost_game_fee="0.50",
        confirmation_required=True,
        mark_unconfirmed=True,
    )
    Registration.objects.filter(tournament=tournament).update(start_number=F("start_number") + 100)
    Player.objects.filter(registrations__start_number=105).update(
        first_name="Hans-Joachim Maximilian", last_name="Schwarzwälder-Kirschenbaum"
    )
    round_ = tournament.round_set.get(number=1)
    for reg in tournament.registrations.all():
        n = reg.start_number - 100
        points = 1240 + 37 * n if n > 2 else -1050
        RoundTotal.objects.create(round=round_, registration=reg, points=points, games_lost=3)
    assert tournament.marks_provisional
    return tournament


def _px(locator, prop: str = "font-size") -> float:
    return float(locator.evaluate(f"e => getComputedStyle(e)['{prop}']").removesuffix("px"))


# -- 1. the start number on a phone ----------------------------------------------------


@pytest.mark.parametrize("width", [360, 390])
def test_phone_standings_show_the_start_number_and_fit(live_server, browser, evening, width):
    page = browser.new_context(viewport={"width": width, "height": 740}).new_page()
    page.goto(f"{live_server.url}/turnier/{evening.pk}/")
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == PLAYERS
    heading = page.locator("table.standings thead th.c-no")
    assert heading.is_visible() and heading.inner_text().strip() == "Nr."
    # no sideways scroll of the page, and the table fits its own box too
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wrap = page.locator(".standings-wrap")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")
    for i in range(PLAYERS):
        row = rows.nth(i)
        for cell in ("td.c-rank", "td.c-no", "td.c-name", "td.c-total"):
            box = row.locator(cell).bounding_box()
            assert box is not None and box["width"] > 0, (i, cell)
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (i, cell, box)
        assert row.locator("td.c-no").inner_text().strip().isdigit()
    # every third player has not consented: "—" for the name, but his number is there
    shy = rows.filter(has=page.locator("td.c-no", has_text="103"))
    assert shy.count() == 1
    assert shy.locator("td.c-name").inner_text().strip() == "—"
    assert shy.locator("td.c-no").is_visible()
    # the leader's row reads place, number, name, total
    first = rows.first.locator("td:visible").all_inner_texts()
    assert first[:2] == ["1", "130"], first
    # text at reading size
    assert _px(rows.first.locator("td.c-no")) >= 16
    assert _px(page.locator(".standings-wrap p.small").first) >= 16


# -- 2. the projector ------------------------------------------------------------------


def test_projector_pauses_at_the_top_and_keeps_the_column_headings(live_server, browser, evening):
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.clock.install()  # the page's timers run only as the test lets them
    page.goto(f"{live_server.url}/turnier/{evening.pk}/beamer/")
    assert page.evaluate("document.documentElement.scrollHeight") > 1080  # it must scroll
    name_heading = page.locator("table.standings thead th.c-name")

    # the top rows stand still for a few seconds
    page.clock.run_for(3000)
    assert page.evaluate("window.scrollY") == 0
    # then the list scrolls
    page.clock.run_for(8000)
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 20

    def headings_in_view() -> None:
        # read once no refresh is swapping the header in (a box read mid-swap is None)
        title, box = _settled_boxes(page, "#projector-head", "table.standings thead th.c-name")
        assert title["y"] == pytest.approx(0, abs=2)
        # right under the title, not under it or scrolled away
        assert box["y"] == pytest.approx(title["y"] + title["height"], abs=2), (title, box)
        hit = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('th')?.className || ''",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert "c-name" in hit  # nothing covers it
        assert name_heading.inner_text().strip() == "Name"

    headings_in_view()
    # far down the list
    page.evaluate("window.scrollTo(0, 600)")
    page.clock.run_for(100)
    assert page.evaluate("window.scrollY") >= 500
    headings_in_view()
    # a row scrolled past passes under the headings, which stay in front
    first_row = page.locator("table.standings tbody tr").first.bounding_box()
    assert first_row["y"] < name_heading.bounding_box()["y"]
    # the list is refreshed (as every 10 s): a new title, the headings still right under it
    page.evaluate("document.getElementById('projector-head').dataset.old = '1'")
    page.evaluate(
        "htmx.ajax('GET', document.getElementById('standings').getAttribute('hx-get'),"
        " {target: '#standings', swap: 'innerHTML'})"
    )
    for _ in range(50):
        page.clock.run_for(50)
        page.wait_for_timeout(50)
        if page.evaluate("!document.getElementById('projector-head').dataset.old"):
            break
    else:
        pytest.fail("the projector's list was not refreshed")
    page.clock.run_for(100)
    assert page.evaluate("window.scrollY") >= 500
    headings_in_view()


# -- 3. one error for the row of trick fields ------------------------------------------


def _wrong_trick_sum(page) -> None:
    """Fill a played hand whose two typed trick fields add up to 300: the blank third
    would be -50."""
    page.select_option("[name='declarer']", index=1)
    page.fill("[name='bid']", "300")
    if page.locator("input[type='radio'][name='trump']").count():  # buttons on the phone
        page.check("[name='trump'][value='H']")
    else:
        page.select_option("[name='trump']", "H")
    page.select_option("[name='outcome']", "played")
    page.fill("[name='tricks_0']", "200")
    page.fill("[name='tricks_1']", "100")


def _settled_boxes(page, *selectors: str) -> list[dict]:
    """The boxes of the elements once no live check is in flight: a later answer swaps the
    error holders out of band, and a box read during a swap is None."""
    for _ in range(100):
        sync_api.expect(page.locator(".htmx-request")).to_have_count(0)
        boxes = [page.locator(selector).bounding_box() for selector in selectors]
        if all(box is not None for box in boxes):
            return boxes
        page.wait_for_timeout(50)
    pytest.fail(f"{selectors} never settled on the screen")


def _one_error_for_the_row(page, width: int) -> None:
    sync_api.expect(page.locator(".htmx-request")).to_have_count(0)
    holders = page.locator("#eingabe .err", has_text=SUM_MESSAGE)
    assert holders.count() == 1
    row = page.locator("#err-tricks")
    assert SUM_MESSAGE in row.inner_text()
    box, table = _settled_boxes(page, "#err-tricks", "table.seat-entry")
    # at the width of the trick fields' table (not in one ~70 px column), on the screen
    assert box["width"] >= table["width"] - 2 and box["width"] >= 300, (box, table)
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert box["y"] >= table["y"] + table["height"] - 1  # under the group of trick fields
    assert row.evaluate("e => e.scrollWidth <= e.clientWidth")
    for position in range(3):
        assert page.locator(f"#err-tricks_{position}").inner_text().strip() == ""
    # the typed fields are marked, the blank one is not blamed
    assert page.locator("[name='tricks_0']").get_attribute("aria-invalid") == "true"
    assert page.locator("[name='tricks_1']").get_attribute("aria-invalid") == "true"
    assert page.locator("[name='tricks_2']").get_attribute("aria-invalid") is None


def test_phone_entry_shows_a_trick_sum_error_once_at_full_width(
    transactional_db, live_server, browser
):
    tournament = make_tournament(players=3, consent=lambda i: True, games_per_round=3)
    tournament.table_entry = "opponent"
    tournament.save()
    table = tournament.round_set.get(number=1).tables.get()
    url = f"{live_server.url}/t/{links.live_link(table).token}/"
    page = browser.new_context(**PHONE).new_page()
    page.goto(url)
    _wrong_trick_sum(page)
    # the live check (htmx, out of band)
    # a locator, not a function string: the page's Content-Security-Policy forbids eval
    page.locator("#eingabe .err", has_text=SUM_MESSAGE).first.wait_for()
    _one_error_for_the_row(page, 390)
    assert _px(page.locator("#err-tricks")) >= 16
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # sent anyway: the page the server answers with shows it once too
    with page.expect_navigation():
        page.click("button.primary.big")
    assert Hand.objects.count() == 0
    _one_error_for_the_row(page, 390)
    assert focused_field(page, "tricks_0") == "tricks_0"


def test_clerk_form_shows_a_trick_sum_error_once(
    transactional_db, live_server, browser, django_user_model
):
    from django.contrib.auth.models import Group

    tournament = make_tournament(players=3, consent=lambda i: True)
    clerk = django_user_model.objects.create_user("clerk", password="pw-clerk-123")
    clerk.groups.add(Group.objects.get(name="Schreiber"))
    tournament.clerks.add(clerk)
    path = f"/turnier/{tournament.pk}/runde/1/tisch/1/"
    desktop = {"width": 1280, "height": 900}
    page = login(browser, live_server, "clerk", "pw-clerk-123", path, viewport=desktop)
    _wrong_trick_sum(page)
    # a locator, not a function string: the page's Content-Security-Policy forbids eval
    page.locator("#eingabe .err", has_text=SUM_MESSAGE).first.wait_for()
    _one_error_for_the_row(page, 1280)
    # fixed: the row's message goes, and so do the marks
    page.fill("[name='tricks_0']", "100")
    sync_api.expect(page.locator("#err-tricks")).to_have_text(re.compile(r"^\s*$"))
    assert page.locator("[name='tricks_0']").get_attribute("aria-invalid") is None
    assert page.locator("#eingabe .err", has_text="bliebe").count() == 0
