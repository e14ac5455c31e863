"""Real browser (Debian's Chromium): a Durch saved without won/lost opens the collapsed
section and puts the cursor on the won/lost field (issue 17.3); Enter on a select saves.
The door registration page (issue 17.6) opens with the cursor on the name.  Both at a
phone's 390×740; set ``SCREENSHOT_DIR`` to keep screenshots to look at."""

from __future__ import annotations

import os
import re

from scoring.models import Hand
from tests.factories.browser import PHONE_VIEWPORT, focused_field, login, require_chromium
from tests.factories.tournaments import make_tournament

require_chromium()


def _shot(page, name):
    folder = os.environ.get("SCREENSHOT_DIR")
    if folder:
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


def test_durch_without_won_opens_section_and_focuses_it(
    transactional_db, live_server, browser, django_user_model
):
    from django.contrib.auth.models import Group

    tournament = make_tournament(players=3, consent=lambda i: True)
    clerk = django_user_model.objects.create_user("clerk", password="pw-clerk-123")
    clerk.groups.add(Group.objects.get(name="Schreiber"))
    tournament.clerks.add(clerk)
    path = f"/turnier/{tournament.pk}/runde/1/tisch/1/"
    page = login(browser, live_server, "clerk", "pw-clerk-123", path)

    assert focused_field(page, "declarer") == "declarer"
    assert not page.locator("details.more").evaluate("d => d.open")
    page.select_option("[name=declarer]", index=1)
    page.fill("[name=bid]", "1000")
    page.select_option("[name=outcome]", "durch")
    with page.expect_navigation():
        page.press("[name=outcome]", "Enter")  # Enter saves from a select too
    assert Hand.objects.count() == 0
    assert page.locator("details.more").evaluate("d => d.open")
    assert focused_field(page, "won") == "won"
    assert page.locator("[name=won]").get_attribute("aria-invalid") == "true"
    assert page.locator("#err-won").inner_text().strip()
    assert page.locator("[name=won]").is_visible()
    _shot(page, "hand-form-errors-390")

    # fixing it in the opened section and pressing Enter saves the hand
    page.select_option("[name=won]", "1")
    with page.expect_navigation(url=re.compile(r"/tisch/1/$")):
        page.press("[name=won]", "Enter")
    assert Hand.objects.get().outcome == "durch"


def test_registration_page_focuses_the_name(
    transactional_db, live_server, browser, django_user_model
):
    from django.contrib.auth.models import Group

    from tournament.roles import DIRECTOR_GROUP

    tournament = make_tournament(players=6)
    director = django_user_model.objects.create_user("leitung", password="pw-director-123")
    director.groups.add(Group.objects.get(name=DIRECTOR_GROUP))
    page = login(
        browser, live_server, "leitung", "pw-director-123", f"/turnier/{tournament.pk}/anmeldungen/"
    )
    assert focused_field(page, "first_name") == "first_name"
    page.locator("details.more summary", has_text="Liste einfügen").click()
    page.fill("[name=players]", "Maier, Anna; SV Musterdorf\nNachname1, Vorname1; TSV")
    with page.expect_navigation():
        page.click("button[value=preview]")
    assert "schon angemeldet" in page.locator("table.preview-list").inner_text()
    _shot(page, "registrations-390")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE_VIEWPORT["width"] + 1, width


def test_abgehen_with_trick_points_offers_to_clear_them_while_typing(
    transactional_db, live_server, browser, django_user_model
):
    from django.contrib.auth.models import Group

    tournament = make_tournament(players=3, consent=lambda i: True)
    clerk = django_user_model.objects.create_user("clerk", password="pw-clerk-123")
    clerk.groups.add(Group.objects.get(name="Schreiber"))
    tournament.clerks.add(clerk)
    path = f"/turnier/{tournament.pk}/runde/1/tisch/1/"
    page = login(browser, live_server, "clerk", "pw-clerk-123", path)
    page.select_option("[name=declarer]", index=1)
    page.fill("[name=bid]", "300")
    page.fill("[name=tricks_0]", "100")
    page.focus("[name=outcome]")
    page.select_option("[name=outcome]", "abgehen")
    offer = page.locator("#clear-tricks")
    offer.wait_for(state="visible")  # shown by the live check; the focus stays put
    assert focused_field(page, "outcome") == "outcome"
    assert "Felder leeren" in page.locator("#err-tricks_0").inner_text()
    page.click("[data-clear-tricks]")
    assert page.locator("[name=tricks_0]").input_value() == ""
    with page.expect_navigation(url=re.compile(r"/tisch/1/$")):
        page.click("button.primary")
    assert Hand.objects.get().outcome == "abgehen"


def test_registration_edit_shows_the_history(
    transactional_db, live_server, browser, django_user_model
):
    from django.contrib.auth.models import Group

    from tournament.roles import DIRECTOR_GROUP

    tournament = make_tournament(players=3)
    director = django_user_model.objects.create_user("leitung", password="pw-director-123")
    director.groups.add(Group.objects.get(name=DIRECTOR_GROUP))
    path = f"/turnier/{tournament.pk}/anmeldungen/2/"
    page = login(browser, live_server, "leitung", "pw-director-123", path)
    assert focused_field(page, "first_name") == "first_name"
    page.fill("[name=club]", "SV Neudorf")
    with page.expect_navigation():
        page.press("[name=club]", "Enter")
    page.goto(f"{live_server.url}{path}")
    history = page.locator("table.progress").inner_text()
    assert "SV Neudorf" in history and "TSV" in history and "leitung" in history
    _shot(page, "registration-edit-390")
