"""Real browser (Playwright, Debian's Chromium), issue 17.1: the director closes a round with
games missing only after giving a reason on the page that asks first, then draws and
starts the next round; the reason is on the results list.  No JavaScript is needed for any
of it, so the test runs with JavaScript off."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.factories.browser import ARGS, CHROMIUM, require_chromium
from tests.factories.tournaments import make_tournament
from tournament.models import Round

require_chromium()

sync_api = pytest.importorskip("playwright.sync_api")


def test_director_closes_an_incomplete_round_with_a_reason_then_runs_the_next(
    transactional_db, live_server, django_user_model
):
    from django.contrib.auth.models import Group

    tournament = make_tournament(players=9, games_per_round=3)
    director = django_user_model.objects.create_user("leitung", password="pw-leitung-123")
    director.groups.add(Group.objects.get(name="Turnierleitung"))
    overview = f"{live_server.url}/turnier/{tournament.pk}/erfassung/"

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_context(
            java_script_enabled=False, viewport={"width": 390, "height": 740}
        ).new_page()
        page.goto(f"{live_server.url}/accounts/login/?next=/turnier/{tournament.pk}/erfassung/")
        page.fill("#id_username", "leitung")
        page.fill("#id_password", "pw-leitung-123")
        page.click("main form button")
        page.wait_for_url(overview)

        # round 2 cannot be drawn while round 1 runs: no button for it, a note instead
        assert page.locator("form[action$='/runde/2/auslosen/']").count() == 0
        assert "erst, wenn die Runden davor abgeschlossen sind" in page.content()

        page.click("form[action$='/runde/1/abschliessen/'] button")
        assert page.locator("h1").inner_text() == "Runde 1 abschließen?"
        assert "Tisch 1 (Spiele 1–3)" in page.locator(".missing").inner_text()
        # the reason is required: the app says so in German at the field (no browser bubble)
        page.click("button.primary")
        assert page.locator("h1").inner_text() == "Runde 1 abschließen?"
        assert page.locator("#err-grund").inner_text().startswith("Grund: bitte angeben")
        assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.RUNNING
        page.fill("#id_grund", "Stromausfall, Turnierleitung beendet die Runde")
        page.click("button.primary")
        page.wait_for_url(overview)
        assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.CLOSED

        page.fill("form[action$='/runde/2/auslosen/'] input[name=seed]", "42")
        page.click("form[action$='/runde/2/auslosen/'] button")
        page.wait_for_url(overview)
        page.click("form[action$='/runde/2/starten/'] button")
        assert page.locator("h1").inner_text() == "Runde 2 starten?"
        page.click("button.primary")
        page.wait_for_url(overview)
        # the running round comes first on the overview
        assert page.locator("section.round h2").first.inner_text().startswith("Runde 2")

        pdf = page.request.get(f"{live_server.url}/turnier/{tournament.pk}/druck/rangliste.pdf")
        assert pdf.ok
        text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.body())).pages)
        assert "Stromausfall, Turnierleitung beendet die Runde" in " ".join(text.split())
        browser.close()

    second = Round.objects.get(tournament=tournament, number=2)
    assert second.status == Round.Status.RUNNING and second.seed == 42
    first = Round.objects.get(tournament=tournament, number=1)
    assert first.forced_close_reason == "Stromausfall, Turnierleitung beendet die Runde"
