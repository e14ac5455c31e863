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
