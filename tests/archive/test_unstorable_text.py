"""Characters no file can hold (issues 37.4 and 38.3): a name with U+FFFE, U+FFFF or a
control character made the standings' and the series' XLSX and the press report's DOCX
answer 500.  Such characters are refused where text is typed or imported, with a message
naming the character at its field; what older data still holds is dropped by every
export (tournament.text)."""

from __future__ import annotations

import io
import json

import docx
import pytest
from django.urls import reverse
from openpyxl import load_workbook

from archive import site, transfer
from series.services import save_series
from tests.factories.tournaments import make_tournament
from tournament.models import Player, Registration
from tournament.text import StorableText, first_unstorable, xml_safe

pytestmark = pytest.mark.django_db

BAD = ["\ufffe", "\uffff", "\x01", "\x1b", "\x0c"]


@pytest.mark.parametrize("char", BAD)
def test_the_helpers_find_and_drop_every_character_xml_cannot_hold(char):
    assert first_unstorable(f"Anna{char}") == f"U+{ord(char):04X}"
    assert xml_safe(f"An{char}na") == "An na"
    assert first_unstorable("Çağlar Øst 王 \t\n") is None  # letters of every script stay
    with pytest.raises(Exception) as exc:
        StorableText()(f"x{char}")
    assert f"U+{ord(char):04X}" in " ".join(exc.value.messages)


def test_registration_refuses_the_character_at_its_field(client, director):
    tournament = make_tournament(players=3)
    client.force_login(director)
    url = reverse("tournament:registrations", args=[tournament.pk])
    before = Registration.objects.count()
    response = client.post(
        url,
        {"action": "one", "first_name": "Ann\ufffea", "last_name": "Maier", "first_round": 1},
    )
    assert response.status_code in (200, 422)
    errors = response.context["form"].errors
    assert "first_name" in errors and "U+FFFE" in errors["first_name"][0], errors
    assert Registration.objects.count() == before
    response = client.post(
        url, {"action": "preview", "players": "Maier, Anna\uffff; SV", "first_round": 1}
    )
    assert "U+FFFF" in response.content.decode()
    assert Registration.objects.count() == before


def test_the_press_text_refuses_it_at_its_field(client, director, results_night):
    client.force_login(director)
    url = reverse("archive:press", args=[results_night.pk])
    response = client.post(url, {"text": "Bericht\ufffe", "format": "docx"})
    assert response.status_code == 422
    assert "U+FFFE" in response.content.decode()


def test_an_import_refuses_it_naming_the_field(director, results_night):
    data = json.loads(json.dumps(transfer.export_tournament(results_night)))
    player = next(row for row in data["objects"] if row["model"] == "tournament.player")
    player["fields"]["first_name"] = "Ann\ufffea"
    with pytest.raises(transfer.TransferError) as exc:
        transfer.import_tournament(data)
    assert "U+FFFE" in str(exc.value) and "first_name" in str(exc.value)


def test_older_data_with_such_names_downloads_everywhere(client, director, results_night):
    """A name stored before the check (here written straight into the database): the
    standings' XLSX and CSV, the series XLSX, the press report and its DOCX, and the
    website are all made, with the character dropped."""
    reg = results_night.registrations.order_by("start_number").first()
    Player.objects.filter(pk=reg.player_id).update(first_name="Ann\ufffea\x01", club="SV\uffff")
    for fmt in ("xlsx", "csv", "de.csv"):
        response = client.get(reverse("archive:standings", args=[results_night.pk, fmt]))
        assert response.status_code == 200, fmt
        if fmt != "xlsx":  # a ZIP: read below
            text = response.content.decode("utf-8-sig")
            assert "\ufffe" not in text and "\x01" not in text and "Ann a" in text
    sheet = load_workbook(
        io.BytesIO(
            client.get(reverse("archive:standings", args=[results_night.pk, "xlsx"])).content
        )
    ).active
    assert any("Ann a" in str(c.value) for row in sheet.iter_rows() for c in row)

    series = save_series(name="Serie", season="2026", tournaments=[results_night], min_evenings=1)
    response = client.get(reverse("archive:series", args=[series.pk, "xlsx"]))
    assert response.status_code == 200

    client.force_login(director)
    url = reverse("archive:press", args=[results_night.pk])
    page = client.get(url)
    assert page.status_code == 200 and "\ufffe" not in page.content.decode()
    response = client.post(url, {"text": "Bericht\n\nAnn a", "format": "docx"})
    assert response.status_code == 200
    document = docx.Document(io.BytesIO(response.content))
    assert document.core_properties.language == "de-DE"
    assert document.core_properties.author == director.get_username()
    assert document.core_properties.created.year >= 2026

    files = site.export_site(results_night)
    for name, content in files.items():
        if name.endswith(".html"):
            assert "\ufffe" not in content.decode() and "\x01" not in content.decode(), name
