"""Caching headers and session lifetime (issue 38.8 and 38.9): the language comes from a
cookie, so answers vary by it; what staff see and what a table link shows is never kept
by a browser or proxy; staff sessions end with the browser and after 12 hours."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import links

pytestmark = pytest.mark.django_db


def _cache_control(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


def test_the_polled_fragment_varies_by_the_language_cookie(client, tournament):
    response = client.get(reverse("scoring:standings_fragment", args=[tournament.pk]))
    assert response.status_code == 200
    assert "Cookie" in response["Vary"]
    # public: phones may revalidate it, nothing private about it
    assert "no-store" not in _cache_control(response)


def test_staff_pages_and_downloads_are_never_stored(client, director, tournament):
    client.force_login(director)
    round_ = tournament.round_set.get(number=1)
    table = round_.tables.order_by("number").first()
    pages = [
        reverse("tournament:registrations", args=[tournament.pk]),
        reverse("scoring:clerk", args=[tournament.pk]),
        reverse("tournament:clerks"),
        reverse("scoring:table", args=[tournament.pk, 1, table.number]),
        reverse("archive:press", args=[tournament.pk]),
        reverse("archive:standings", args=[tournament.pk, "csv"]),
        reverse("scoring:standings_fragment", args=[tournament.pk]),
    ]
    for address in pages:
        response = client.get(address)
        assert response.status_code == 200, address
        assert {"private", "no-store"} <= _cache_control(response), (
            address,
            response.get("Cache-Control"),
        )
        assert "max-age=0" not in response.get("Cache-Control", "")


def test_the_public_standings_stay_cacheable(client, tournament):
    response = client.get(reverse("scoring:standings", args=[tournament.pk]))
    assert "no-store" not in _cache_control(response) and "private" not in _cache_control(response)


def test_a_table_link_page_is_never_stored(client, at_table):
    table = at_table.round_set.get(number=1).tables.order_by("number").first()
    link = links.live_link(table)
    response = client.get(reverse("table_entry:page", args=[link.token]))
    assert response.status_code == 200
    assert {"private", "no-store"} <= _cache_control(response)


def test_a_staff_session_ends_with_the_browser_and_after_twelve_hours(client, director, settings):
    assert settings.SESSION_COOKIE_AGE == 12 * 60 * 60
    client.force_login(director)
    assert client.session.get_expire_at_browser_close()
    response = client.post(
        reverse("login"), {"username": "director", "password": "pw-director-123"}
    )
    cookie = response.cookies.get(settings.SESSION_COOKIE_NAME)
    assert cookie is not None and not cookie["expires"] and not cookie["max-age"]
