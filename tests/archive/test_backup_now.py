"""Issue 37.28: "Sicherung jetzt" on the entry overview: the director writes a checked
copy of the evening's database into a folder of his choice (a USB stick), or into the
venue's backup folder; a wrong folder is a German message, never a 500."""

from __future__ import annotations

from django.db import connection
from django.urls import reverse

from tests.factories.tournaments import make_tournament


def test_the_director_backs_up_now_into_a_chosen_folder(client, director, settings, tmp_path):
    tournament = make_tournament(players=3)
    venue_folder, stick = tmp_path / "sicherungen", tmp_path / "usb"
    venue_folder.mkdir()
    stick.mkdir()
    settings.BACKUP_DIR = str(venue_folder)
    client.force_login(director)
    overview = client.get(reverse("scoring:clerk", args=[tournament.pk])).content.decode()
    assert "Sicherung jetzt" in overview and 'name="ordner"' in overview
    url = reverse("archive:backup_now", args=[tournament.pk])
    response = client.post(url, {"ordner": str(stick)}, follow=True)
    said = " ".join(str(m) for m in response.context["messages"])
    if connection.vendor == "sqlite":
        copies = list(stick.iterdir())
        assert len(copies) == 1 and copies[0].stat().st_size > 0
        assert "Sicherung geschrieben" in said and "Prüfung: ok" in said
        # empty field: into the venue's backup folder
        client.post(url, {"ordner": ""})
        assert len(list(venue_folder.iterdir())) == 1
    else:  # a server on PostgreSQL backs up with pg_dump: said so, nothing written
        assert "pg_dump" in said and list(stick.iterdir()) == []
    # a folder that is not there (the stick not plugged in)
    missing = client.post(url, {"ordner": str(tmp_path / "nicht-da")}, follow=True)
    assert missing.status_code == 200
    assert "gibt es nicht" in " ".join(str(m) for m in missing.context["messages"])
    relative = client.post(url, {"ordner": "usb"}, follow=True)
    assert "gibt es nicht" in " ".join(str(m) for m in relative.context["messages"])


def test_backup_now_is_the_directors_and_only_at_the_venue(client, clerk, director, settings):
    tournament = make_tournament(players=3)
    url = reverse("archive:backup_now", args=[tournament.pk])
    settings.BACKUP_DIR = ""
    client.force_login(director)
    assert client.post(url).status_code == 404  # a server without a venue folder
    assert client.get(url).status_code == 405
    client.force_login(clerk)
    settings.BACKUP_DIR = "/tmp"
    assert client.post(url).status_code == 403


def test_backup_now_refuses_folders_it_must_not_write(client, director, settings, tmp_path):
    """Review of issue 37.28: a folder in the program or its served static files would
    let the copy be downloaded; "~nobody" and a NUL byte made a 500."""
    from django.conf import settings as django_settings

    tournament = make_tournament(players=3)
    settings.BACKUP_DIR = str(tmp_path)
    client.force_login(director)
    url = reverse("archive:backup_now", args=[tournament.pk])
    for folder in (
        str(django_settings.BASE_DIR),
        str(django_settings.BASE_DIR / "static"),
        "~kein-solcher-benutzer/usb",
        "/tmp/\x00x",
    ):
        response = client.post(url, {"ordner": folder}, follow=True)
        assert response.status_code == 200, folder
        said = " ".join(str(m) for m in response.context["messages"])
        assert "Ordner" in said and "geschrieben" not in said, (folder, said)
    assert not list(django_settings.BASE_DIR.glob("binokel-*.sqlite3"))


def test_a_name_of_spaces_only_is_printed_as_its_start_number():
    from printing.documents import name_forms

    assert name_forms("12 \u3000") == "\u206812\u2069"
    assert name_forms("12 Anna Maria")[0] == "\u206812 Anna Maria\u2069"
    assert name_forms("") == ""
