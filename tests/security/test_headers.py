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


def test_every_answer_carries_a_content_security_policy(client, director, tournament):
    """Issue 38.9: a second line behind escaping; no inline script or style allowed."""
    answers = [
        client.get("/"),
        client.get(reverse("scoring:standings", args=[tournament.pk])),
        client.get("/gibt-es-nicht/"),
        client.get("/accounts/login/"),
    ]
    client.force_login(director)
    answers += [client.get("/admin/"), client.get(reverse("scoring:clerk", args=[tournament.pk]))]
    for response in answers:
        policy = response.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_no_template_holds_an_inline_script_or_event_handler():
    """What the policy would refuse in the browser: an inline ``<script>`` without ``src``
    or an ``on…=`` attribute in any of the app's templates."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    found = []
    checked = 0
    for path in root.glob("**/templates/**/*.html"):
        # the project's own templates, not those of installed packages (.venv, .venv-3.13)
        inside = path.relative_to(root).parts
        if any(part.startswith(".") or part == "site-packages" for part in inside):
            continue
        checked += 1
        text = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            if "src=" not in tag and "application/json" not in tag:
                found.append(f"{path.relative_to(root)}: {tag}")
        found += [f"{path.relative_to(root)}: {m}" for m in re.findall(r"\son[a-z]+=\"", text)]
    assert checked > 40 and found == []
