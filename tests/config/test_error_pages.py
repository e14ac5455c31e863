"""The app's own error pages (issue 24.3 and 24.5): also with DEBUG on, as the demo runs,
in the visitor's language; a GET on a POST-only address says what to do; the page head's
log-out link says "Ausloggen" (not "Abmelden", which withdraws a player); no favicon 404."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("debug", [True, False])
def test_404_and_400_are_the_app_s_pages_in_german_and_english(debug, tournament):
    with override_settings(DEBUG=debug):
        client = Client()
        page = client.get("/gibt-es-nicht/")
        assert page.status_code == 404 and "Seite nicht gefunden" in page.content.decode()
        assert b"URLconf" not in page.content and b"Traceback" not in page.content
        missing = client.get(reverse("scoring:standings", args=[tournament.pk + 1000]))
        assert missing.status_code == 404 and "Seite nicht gefunden" in missing.content.decode()
        bad = client.get(reverse("scoring:standings", args=[tournament.pk]) + "?runde=%C2%B2")
        assert bad.status_code == 400 and "runde" in bad.content.decode()
        client.get("/sprache/en/")
        english = client.get("/gibt-es-nicht/").content.decode()
        assert "Page not found" in english or "not found" in english.lower()


def test_a_500_with_debug_on_is_the_app_s_page_and_is_logged(tournament, monkeypatch, caplog):
    from scoring.views import public as views

    def broken(*args, **kwargs):
        raise RuntimeError("kaputt")

    monkeypatch.setattr(views, "standings_table", broken)
    with override_settings(DEBUG=True), caplog.at_level("ERROR", logger="django.request"):
        response = Client(raise_request_exception=False).get(
            reverse("scoring:standings", args=[tournament.pk])
        )
    assert response.status_code == 500 and b"Traceback" not in response.content
    assert "Interner Fehler" in response.content.decode()
    assert any(r.exc_info and "kaputt" in str(r.exc_info[1]) for r in caplog.records)


def test_a_get_on_a_post_only_address_explains_itself(client, director, tournament):
    client.force_login(director)
    table = tournament.round_set.get(number=1).tables.order_by("number").first()
    url = reverse("scoring:confirm", args=[tournament.pk, 1, table.number])
    response = client.get(url)
    assert response.status_code == 405 and "POST" in response["Allow"]
    assert "Schaltfläche" in response.content.decode()


def test_log_out_says_ausloggen_and_the_favicon_is_there(client, director):
    client.force_login(director)
    page = client.get("/").content.decode()
    assert ">Ausloggen<" in page and ">Abmelden<" not in page
    assert "favicon.svg" in page
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")


def test_a_database_with_the_demo_says_so_on_every_page(tournament, client, director):
    from django.core.cache import cache

    standings = reverse("scoring:standings", args=[tournament.pk])
    assert "demo-banner" not in client.get(standings).content.decode()
    tournament.is_demo = True  # as load_demo marks what it loaded
    tournament.save()
    cache.clear()
    for url in ("/", standings, reverse("scoring:projector", args=[tournament.pk]), "/gibt-es/"):
        assert "Diese Daten sind ausgedacht" in client.get(url).content.decode(), url
