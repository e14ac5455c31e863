"""The public standings page for visitors who are not signed in: no per-visitor CSRF token,
cached whole by standings version, round and language; signed-in staff get a fresh page
with working CSRF protection on their forms."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories.tournaments import make_tournament
from tests.factories.web import form_data, table_url
from tournament import services as tournament_services

pytestmark = pytest.mark.django_db


def _page(client, tournament, query=""):
    return client.get(reverse("scoring:standings", args=[tournament.pk]) + query)


def test_anonymous_page_has_no_csrf_token_and_sets_no_cookie(client, tournament):
    for query in ("", "?runde=1"):
        for _ in range(2):  # the render and the cached copy
            response = _page(client, tournament, query)
            body = response.content.decode()
            assert response.status_code == 200
            assert "csrfmiddlewaretoken" not in body and "X-CSRFToken" not in body
            assert "csrftoken" not in response.cookies and not response.cookies
            assert "Cookie" in response["Vary"]  # a cache in between keeps users apart
    # the language switch is a plain link for them
    assert reverse("choose_language", args=["en"]) + "?next=" in body


def test_signed_in_clerk_gets_a_fresh_page_and_csrf_still_guards_posts(tournament, clerk):
    anonymous = Client()
    _page(anonymous, tournament)  # fills the cache
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(clerk)
    page = _page(browser, tournament).content.decode()
    assert "clerk" in page  # not the cached anonymous page
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert 'hx-headers=\'{"X-CSRFToken": "' in page
    assert "clerk" not in _page(anonymous, tournament).content.decode()

    url, table = table_url(tournament)
    assert browser.post(url, form_data(table)).status_code == 403  # no token: refused
    response = browser.post(url, {**form_data(table), "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    # logging out and switching the language by POST still need the token
    assert browser.post(reverse("set_language"), {"language": "en"}).status_code == 403
    assert browser.post(reverse("logout")).status_code == 403


def test_cached_page_costs_no_query_and_changes_after_a_saved_hand(
    client, tournament, clerk, django_assert_num_queries, django_capture_on_commit_callbacks
):
    first = _page(client, tournament)
    with django_assert_num_queries(0):
        again = _page(client, tournament)
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert _page(client, tournament, "").status_code == 200
    assert (
        client.get(
            reverse("scoring:standings", args=[tournament.pk]), HTTP_IF_NONE_MATCH=first["ETag"]
        ).status_code
        == 304
    )

    clerk_client = Client()
    clerk_client.force_login(clerk)
    url, table = table_url(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        assert clerk_client.post(url, form_data(table)).status_code == 302
    after = _page(client, tournament)
    assert after.content != first.content and after["ETag"] != first["ETag"]
    assert ">320<" in after.content.decode()


def test_cached_page_changes_after_a_consent_change(client, django_capture_on_commit_callbacks):
    tournament = make_tournament(players=9, consent=lambda i: False)
    assert "Nachname4" not in _page(client, tournament).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        assert tournament_services.set_consents(tournament, [4]) == 1
    assert "Nachname4" in _page(client, tournament).content.decode()


def test_cached_page_changes_after_a_players_name_is_corrected(
    client, tournament, django_capture_on_commit_callbacks
):
    registration = tournament.registrations.get(start_number=1)
    assert "Nachname1" in _page(client, tournament).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        registration.player.last_name = "Berichtigt"
        registration.player.save()
    body = _page(client, tournament).content.decode()
    assert "Berichtigt" in body and "Nachname1<" not in body


def test_language_variants_do_not_mix(tournament):
    german, english = Client(), Client()
    response = english.get(reverse("choose_language", args=["en"]) + "?next=/turnier/1/")
    assert response.status_code == 302 and response.cookies["django_language"].value == "en"
    for _ in range(2):  # render, then from the cache, in either order
        de = _page(german, tournament).content.decode()
        en = _page(english, tournament).content.decode()
        assert '<html lang="de">' in de and "Gesamt" in de
        assert '<html lang="en">' in en and ">Total<" in en and "Platz" not in en


def test_language_link_stays_on_this_site_and_knows_its_languages(client, tournament):
    url = reverse("choose_language", args=["en"])
    page = reverse("scoring:standings", args=[tournament.pk]) + "?runde=1"
    assert client.get(url, {"next": page})["Location"] == page
    assert client.get(url, {"next": "https://example.org/"})["Location"] == "/"
    assert client.get(reverse("choose_language", args=["fr"])).status_code == 404
    assert client.post(url).status_code == 405  # a link, not a form


def test_other_query_strings_and_messages_are_not_served_from_the_page_cache(client, tournament):
    _page(client, tournament)
    with CaptureQueriesContext(connection) as queries:
        response = _page(client, tournament, "?utm=x")
    assert response.status_code == 200 and len(queries) > 0
    assert "utm%3Dx" in response.content.decode()  # its own address in the language links


def test_cold_page_queries_do_not_grow_with_the_players(client):
    counts = []
    for players in (9, 31):
        tournament = make_tournament(players=players)
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            assert _page(client, tournament).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


@pytest.mark.parametrize("language", ["de", "en"])
def test_lean_table_body_is_the_markup_django_tables2_renders(
    tournament, clerk, django_capture_on_commit_callbacks, language
):
    """StandingsTable.body_html() against django-tables2's own template, with every kind of
    cell: a fee with decimals (localised), empty rounds and clubs ("—"), a name without
    consent, a missed-round note after the name, an escaped name."""
    from decimal import Decimal

    from django.template.loader import render_to_string
    from django.utils import translation

    from scoring import selectors
    from scoring.tables import StandingsTable
    from tournament.models import Player

    tournament.lost_game_fee = Decimal("0.50")
    tournament.lost_game_fee_from = 1
    tournament.confirmation_required = True
    tournament.save()
    Player.objects.filter(pk=tournament.registrations.get(start_number=2).player_id).update(
        last_name="<b>Keller & Co</b>", club=""
    )
    reg = tournament.registrations.get(start_number=4)
    reg.withdrawn_after_round = 1
    reg.save()
    clerk_client = Client()
    clerk_client.force_login(clerk)
    url, table = table_url(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        assert clerk_client.post(url, form_data(table)).status_code == 302

    with translation.override(language):
        for round_number in (None, 1):
            rows = selectors.standings(tournament, round_number)
            lean = StandingsTable.for_tournament(rows, tournament, round_number)
            plain = StandingsTable.for_tournament(rows, tournament, round_number)
            plain.template_name = "django_tables2/table.html"
            ours = render_to_string("scoring/_standings_table.html", {"table": lean})
            theirs = render_to_string("django_tables2/table.html", {"table": plain})
            body = re.compile(r"<tbody[^>]*>(.*)</tbody>", re.S)
            expected = re.sub(r">\s+<", "><", body.search(theirs).group(1).strip())
            assert body.search(ours).group(1) == expected
            assert "&lt;b&gt;Keller &amp; Co&lt;/b&gt;" in expected
            assert ("0,00" if language == "de" else "0.00") in expected or round_number
            assert 'class="missed-note"' in expected or round_number


def test_the_standings_version_never_repeats_after_its_counter_expired(db):
    """The counter lives for the cache's default timeout; started again from 1 it would
    repeat a version that a cached page or PDF (60 s) was stored under."""
    from django.core.cache import cache

    from scoring import services

    first = services.standings_cache_key(4711)
    services.invalidate_standings(4711)
    second = services.standings_cache_key(4711)
    cache.delete("standings-version:4711")  # expired or evicted
    third = services.standings_cache_key(4711)
    services.invalidate_standings(4711)
    fourth = services.standings_cache_key(4711)
    assert len({first, second, third, fourth}) == 4
