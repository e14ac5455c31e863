"""Every public page, read by older players on phones in a dim hall and on the projector:
axe-core (axe-playwright-python, in Debian's Chromium) finds no "serious" or "critical"
violation, at 390 px and at 1920×1080, in German and in English; on the phone no visible
text is smaller than 16 px (issue 24.6).  Colour contrast (WCAG AA) is axe's
``color-contrast`` rule, whose violations are "serious"."""

from __future__ import annotations

import pytest
from django.conf import settings

from scoring import links
from tests.factories.browser import BLOCKING, PHONE, SMALLEST_TEXT, describe, require_chromium
from tests.factories.hands import play_round
from tests.factories.tournaments import make_tournament
from tournament.models import Category, Tournament

require_chromium()

sync_api = pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

PROJECTOR = {"viewport": {"width": 1920, "height": 1080}}


@pytest.fixture
def evening(transactional_db, clerk):
    """9 players (every third without consent to a public name) in round 1 of 3, two hands
    on each table, a category, and table entry by link on: the tournament and the path of
    table 1's link."""
    tournament = make_tournament(players=9)
    tournament.table_entry = Tournament.TableEntry.OPPONENT
    tournament.save()
    round_ = tournament.round_set.get(number=1)
    play_round(round_, clerk, [1, 2])
    category = Category.objects.create(tournament=tournament, name="Damen", slug="damen")
    category.registrations.set(tournament.registrations.filter(start_number__lte=4))
    link = links.live_link(round_.tables.get(number=1))
    return tournament, f"/t/{link.token}/"


def public_pages(tournament, table_path) -> dict[str, str]:
    """Name → path of every page a player or the hall sees without logging in."""
    base = f"/turnier/{tournament.pk}/"
    return {
        "Startseite": "/",
        "Rangliste": base,
        "Runde 1": f"{base}?runde=1",
        "Kategorie": f"{base}?kategorie=damen",
        "Spieler": f"{base}spieler/2/",
        "Beamer": f"{base}beamer/",
        "Beitreten": f"{base}beitreten/",
        "Tischeingabe": table_path,
    }


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("device", ["phone", "projector"])
def test_public_pages_have_no_serious_axe_violations(
    live_server, browser, evening, language, device
):
    tournament, table_path = evening
    context = browser.new_context(**(PHONE if device == "phone" else PROJECTOR))
    host = live_server.url.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "domain": host, "path": "/"}]
    )
    page = context.new_page()
    axe = axe_sync.Axe()
    found: list[str] = []
    too_small: list[str] = []
    for name, path in public_pages(tournament, table_path).items():
        response = page.goto(live_server.url + path)
        assert response.status == 200, (name, response.status)
        assert page.locator("html").get_attribute("lang") == language, name
        results = axe.run(page)
        found += [
            f"{name}: {describe(v)}"
            for v in results.response["violations"]
            if v["impact"] in BLOCKING
        ]
        if device == "phone":
            smallest = page.evaluate(SMALLEST_TEXT)
            if smallest and smallest["size"] < 16:
                too_small.append(f"{name}: {smallest}")
    assert not found + too_small, "\n".join(found + too_small)
    context.close()
