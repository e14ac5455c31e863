"""Categories (issue 14.3): tags on registrations, assigned on the registrations page;
the standings page, exports and results list filtered to one category, with its own
places."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from openpyxl import load_workbook

from scoring import selectors
from tests.factories.evenings import prize_evening, ranks
from tournament import services
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def with_ladies(tie_break=Tournament.TieBreak.SHARED):
    tournament = prize_evening(tie_break)
    ladies = services.add_category(tournament, "Damen")
    services.set_categories(tournament, {ladies.pk: [3, 5, 6, 7]})
    return tournament, ladies


def test_category_has_its_own_places():
    tournament, ladies = with_ladies()
    rows = selectors.category_standings(tournament, ladies)
    assert ranks(rows) == [(3, 1), (6, 1), (5, 3), (7, 4)]
    # the overall standings are unchanged
    assert [r.rank for r in selectors.standings(tournament)][:4] == [1, 1, 1, 1]


def test_category_places_follow_the_tie_break():
    tournament, ladies = with_ladies(Tournament.TieBreak.BEST_ROUND)
    assert ranks(selectors.category_standings(tournament, ladies)) == [
        (6, 1),
        (3, 2),
        (5, 3),
        (7, 4),
    ]


def test_names_must_be_new_and_readable():
    tournament, _ = with_ladies()
    with pytest.raises(ValidationError, match="gibt es schon"):
        services.add_category(tournament, " damen ")
    with pytest.raises(ValidationError, match="Namen"):
        services.add_category(tournament, "!!")


def test_assignment_is_replaced_and_kept_in_history():
    tournament, ladies = with_ladies()
    assert services.set_categories(tournament, {ladies.pk: [3, 5]}) == 2
    assert sorted(r.start_number for r in ladies.registrations.all()) == [3, 5]
    assert ladies.history.count() >= 2


def test_registrations_page_creates_and_assigns(client, director):
    tournament = prize_evening()
    client.force_login(director)
    url = reverse("tournament:registrations", args=[tournament.pk])
    assert client.post(url, {"action": "category_add", "name": "Jugend U18"}).status_code == 302
    youth = tournament.categories.get()
    assert youth.slug == "jugend-u18"
    response = client.post(url, {"action": "category_add", "name": "jugend u18"})
    assert response.status_code == 422
    assert "gibt es schon" in response.content.decode()
    client.post(url, {"action": "categories", f"cat-{youth.pk}": ["2", "4", "x"]})
    assert sorted(r.start_number for r in youth.registrations.all()) == [2, 4]
    page = client.get(url).content.decode()
    assert f'name="cat-{youth.pk}" value="2" checked' in page


def test_standings_page_filters_and_links_to_categories(client):
    tournament, ladies = with_ladies()
    url = reverse("scoring:standings", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert "?kategorie=damen" in page
    filtered = client.get(url, {"kategorie": "damen"}).content.decode()
    assert "Nur die Kategorie „Damen“" in filtered
    assert "Nach4" not in filtered and "Nach5" in filtered
    # by id too; an unknown category is a 404
    assert client.get(url, {"kategorie": ladies.pk}).status_code == 200
    assert client.get(url, {"kategorie": "herren"}).status_code == 404
    fragment = reverse("scoring:standings_fragment", args=[tournament.pk])
    assert "Nach4" not in client.get(fragment, {"kategorie": "damen"}).content.decode()


def test_exports_are_filtered_with_own_places(client):
    tournament, _ = with_ladies()
    csv = client.get(
        reverse("archive:standings", args=[tournament.pk, "csv"]), {"kategorie": "damen"}
    )
    assert "damen" in csv["Content-Disposition"]
    lines = csv.content.decode().splitlines()
    assert len(lines) == 5  # header + 4 ladies
    assert [line.split(",")[0] for line in lines[1:]] == ["1", "1", "3", "4"]
    xlsx = client.get(
        reverse("archive:standings", args=[tournament.pk, "xlsx"]), {"kategorie": "damen"}
    )
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    assert sheet.max_row == 5


def test_results_pdf_for_a_category(client):
    tournament, _ = with_ladies()
    response = client.get(reverse("printing:results", args=[tournament.pk]), {"kategorie": "damen"})
    assert response.status_code == 200
    assert "damen" in response["Content-Disposition"]
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) missing")
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=response.content, capture_output=True, check=True
    ).stdout.decode()
    assert "Damen" in text and "Nach5" in text and "Nach4" not in text


def test_a_changed_category_shows_at_once_on_the_cached_page(client):
    tournament, ladies = with_ladies()
    url = reverse("scoring:standings_fragment", args=[tournament.pk])
    assert "Nach4" not in client.get(url, {"kategorie": "damen"}).content.decode()
    services.set_categories(tournament, {ladies.pk: [4]})
    assert "Nach4" in client.get(url, {"kategorie": "damen"}).content.decode()


def test_consent_and_categories_are_saved_by_one_button(client, director):
    """Issue 37.33: consent and categories sat in one table with two forms; "Kategorien
    speichern" dropped a consent ticked beside it without a word, and one change read
    "1 Zuordnungen"."""
    tournament = prize_evening()  # start numbers 3 and 6 have not consented
    youth = services.add_category(tournament, "Jugend")
    client.force_login(director)
    url = reverse("tournament:registrations", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert page.count('form="marks-form"') >= 2 * tournament.registrations.count() - 2
    assert "category-form" not in page and "consent-form" not in page
    assert page.count('type="submit" form="marks-form"') == 1
    response = client.post(
        url, {"action": "marks", "consent": ["3"], f"cat-{youth.pk}": ["5"]}, follow=True
    )
    assert tournament.registrations.get(start_number=3).consent_public
    assert [r.start_number for r in youth.registrations.all()] == [5]
    said = [str(m) for m in response.context["messages"]]
    assert "Kategorien: 1 Zuordnung geändert." in said
    assert "Zustimmung bei 1 Anmeldung eingetragen." in said
    # sent again unchanged: nothing changes, and the page says so
    again = client.post(
        url, {"action": "marks", "consent": ["3"], f"cat-{youth.pk}": ["5"]}, follow=True
    )
    assert [str(m) for m in again.context["messages"]] == ["Nichts geändert."]
