"""A NUL in an address is refused before it reaches the database: PostgreSQL refuses NUL in
text and would answer 500 (SQLite accepts it, so this file runs on both in CI)."""

from __future__ import annotations

import pytest

from tournament.models import Category

pytestmark = pytest.mark.django_db


@pytest.fixture
def with_category(tournament):
    Category.objects.create(tournament=tournament, name="Damen", slug="damen")
    return tournament


@pytest.mark.parametrize(
    "path",
    [
        "/turnier/{pk}/?kategorie=%00",
        "/turnier/{pk}/?kategorie=da%00men",
        "/turnier/{pk}/rangliste/?kategorie=%00",
        "/turnier/{pk}/export.csv?kategorie=%00",
        "/turnier/{pk}/druck/rangliste.pdf?kategorie=%00",
    ],
)
def test_nul_in_category_is_a_404(client, with_category, path):
    response = client.get(path.format(pk=with_category.pk))
    assert response.status_code == 404


def test_the_category_still_opens_by_short_name_and_id(client, with_category):
    category = with_category.categories.get()
    for value in ("damen", str(category.pk)):
        response = client.get(f"/turnier/{with_category.pk}/?kategorie={value}")
        assert response.status_code == 200
        assert "Damen" in response.content.decode()


@pytest.mark.parametrize("token", ["%00", "abc%00def", "x" * 80, "%C3%A4%C3%B6"])
def test_nul_or_foreign_characters_in_a_table_link_are_an_unknown_link(client, token):
    response = client.get(f"/t/{token}/")
    assert 400 <= response.status_code < 500
    assert "Diesen Tisch-Link gibt es nicht" in response.content.decode()


def test_nul_in_the_player_search_is_ignored(client, director, tournament):
    client.force_login(director)
    response = client.get("/spieler/suche/?q=Na%00ch")
    assert response.status_code == 200
    response = client.get("/spieler/?q=%00")
    assert response.status_code == 200


@pytest.mark.parametrize(
    "query",
    ["kategorie=%00", "kategorie=a%0D%0Ab", "runde=%00", "runde=1%0A", "kategorie=" + "x" * 300],
)
def test_odd_query_values_never_reach_a_cache_key(client, with_category, query):
    """Issue 37.42: the polled fragment looked its raw ``?kategorie=`` and ``?runde=`` up
    in the cache, so a NUL or CR/LF formed a key (Django warns: unsafe for memcached).
    Every key the request forms is checked against Django's own key validation."""
    import warnings

    from django.core.cache import cache
    from django.core.cache.backends.base import CacheKeyWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheKeyWarning)
        cache.clear()
        response = client.get(f"/turnier/{with_category.pk}/rangliste/?{query}")
    assert response.status_code in (200, 400, 404)  # "1\n" is read as round 1


def test_a_refused_host_is_one_warning_line(client, settings):
    """Issue 37.42: a wrong Host header was logged at ERROR with a whole traceback."""
    import logging

    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["turnier.example.org"]
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    logger = logging.getLogger("django.security.DisallowedHost")
    keep = Keep()
    logger.addHandler(keep)
    try:
        response = client.get("/", HTTP_HOST="boese.example.com")
    finally:
        logger.removeHandler(keep)
    assert response.status_code == 400
    assert len(records) == 1
    record = records[0]
    assert record.levelname == "WARNING" and record.exc_info is None
    assert "boese.example.com" in record.getMessage()
