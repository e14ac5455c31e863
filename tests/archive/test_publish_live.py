"""Publishing while the evening runs (issue 40.1): the director sets the target once on
the *Vereinsseite* page (kept in the data folder, 0600, never in the database); the
venue's publisher uploads in its own thread at the interval, after each round's close and
on the button, backs off while the server cannot be reached, and the entry overview says
"offline seit …" until it can again."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from django.urls import reverse

from archive.publish import live
from archive.publish.sync import MANIFEST
from tests.factories.tournaments import close_round_anyway, make_tournament

pytestmark = pytest.mark.django_db


class Clock:
    """A monotonic clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the probe goes


@pytest.fixture
def venue(tmp_path, settings):
    """The venue's data folder, with publishing possible (as ``scripts/venue`` sets it)."""
    data = tmp_path / "daten"
    data.mkdir()
    settings.PUBLISH_DIR = str(data)
    settings.PUBLISH_KNOWN_HOSTS = str(data / "serverschluessel")
    return data


def test_the_publisher_uploads_at_its_interval_and_when_asked(results_night, venue, tmp_path):
    site = tmp_path / "vereinsseite"
    live.save_settings(venue, live.PublishSettings(results_night.pk, str(site), "", "", 5))
    assert (venue / live.SETTINGS_FILE).stat().st_mode & 0o777 == 0o600
    clock = Clock()
    publisher = live.LivePublisher(venue, clock)
    publisher.run(live.load_settings(venue))
    status = live.read_status(venue)
    assert status["ok_at"] and status["offline_since"] is None and status["uploaded"] > 10
    assert (site / "gesamt.html").exists() and (site / MANIFEST).exists()
    assert publisher.next_due == clock.now + 300
    clock.now += 299
    assert not publisher.tick()  # not due yet
    live.request_publish(venue)  # the button, or a round's close
    assert publisher.tick()
    publisher.thread.join(timeout=60)
    assert not (venue / live.TRIGGER_FILE).exists()


def test_without_internet_it_backs_off_and_says_since_when(results_night, venue, tmp_path):
    port = closed_port()
    target = f"ftps://verein@127.0.0.1:{port}/www"
    live.save_settings(venue, live.PublishSettings(results_night.pk, target, "geheim", "", 5))
    clock = Clock()
    publisher = live.LivePublisher(venue, clock)
    values = live.load_settings(venue)
    publisher.run(values)
    first = live.read_status(venue)
    assert "nicht erreichbar" in first["error"] and first["offline_since"]
    assert publisher.next_due == clock.now + 30
    clock.now += 40
    publisher.run(values)
    assert publisher.next_due == clock.now + 60  # doubled
    assert live.read_status(venue)["offline_since"] == first["offline_since"]
    for _ in range(6):
        publisher.run(values)
    assert publisher.next_due == clock.now + 300  # never later than the interval
    # the club's web space is reachable again (here: a folder)
    live.save_settings(
        venue, live.PublishSettings(results_night.pk, str(tmp_path / "www"), "", "", 5)
    )
    publisher.run(live.load_settings(venue))
    back = live.read_status(venue)
    assert back["offline_since"] is None and back["error"] == "" and back["ok_at"]


def test_a_round_close_asks_for_a_publish(
    results_night, venue, tmp_path, django_capture_on_commit_callbacks
):
    live.save_settings(
        venue, live.PublishSettings(results_night.pk, str(tmp_path / "www"), "", "", 0)
    )
    with django_capture_on_commit_callbacks(execute=True):  # round_closed: after the commit
        close_round_anyway(results_night, 2)
    assert (venue / live.TRIGGER_FILE).exists()
    publisher = live.LivePublisher(venue, Clock())
    publisher.next_due = float("inf")  # interval 0: only when asked
    assert publisher.tick()
    publisher.thread.join(timeout=60)


def test_the_page_stores_the_target_privately_and_keeps_the_password(
    results_night, venue, as_director
):
    url = reverse("archive:publish", args=[results_night.pk])
    empty = as_director.get(url).content.decode()
    assert "sftp://benutzer@server:22/ordner" in empty  # how a target is written
    data = {
        "target": "sftp://verein@web.example:22/turnier",
        "password": "geheim-123",
        "key_file": "",
        "interval_minutes": "5",
        "aktion": "speichern",
    }
    assert as_director.post(url, data).status_code == 302
    stored = json.loads((venue / live.SETTINGS_FILE).read_text("utf-8"))
    assert stored["password"] == "geheim-123" and stored["tournament_id"] == results_night.pk
    assert (venue / live.SETTINGS_FILE).stat().st_mode & 0o777 == 0o600
    assert (venue / live.TRIGGER_FILE).exists()  # a first upload is asked for
    page = as_director.get(url).content.decode()
    assert "geheim-123" not in page and "Ein Passwort ist gespeichert." in page
    assert (
        as_director.post(url, {**data, "password": "", "interval_minutes": "0"}).status_code == 302
    )
    stored = json.loads((venue / live.SETTINGS_FILE).read_text("utf-8"))
    assert stored["password"] == "geheim-123" and stored["interval_minutes"] == 0


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("sftp://verein:pw@web.example/x", "Passwort gehört nicht in die Zieladresse"),
        ("gopher://verein@web.example/x", "Unbekannte Zieladresse"),
        ("relativer/ordner", "vollen Pfad"),
    ],
)
def test_a_target_that_cannot_be_used_is_an_error_at_its_field(
    results_night, venue, as_director, target, words
):
    url = reverse("archive:publish", args=[results_night.pk])
    response = as_director.post(
        url, {"target": target, "interval_minutes": "5", "aktion": "speichern"}
    )
    assert response.status_code == 200
    assert words in str(response.context["form"].errors["target"])
    assert not (venue / live.SETTINGS_FILE).exists()


def test_the_overview_shows_how_the_last_upload_went(results_night, venue, as_director, tmp_path):
    overview = reverse("scoring:clerk", args=[results_night.pk])
    assert "Vereinsseite" in as_director.get(overview).content.decode()
    port = closed_port()
    live.save_settings(
        venue,
        live.PublishSettings(results_night.pk, f"ftps://v@127.0.0.1:{port}/w", "x", "", 5),
    )
    live.LivePublisher(venue, Clock()).run(live.load_settings(venue))
    assert "offline seit" in as_director.get(overview).content.decode()


def test_without_a_venue_there_is_no_page_and_nothing_is_asked(
    results_night, as_director, settings
):
    settings.PUBLISH_DIR = ""
    url = reverse("archive:publish", args=[results_night.pk])
    assert as_director.get(url).status_code == 404
    live.request_publish()  # no folder: nothing happens, no error
    overview = as_director.get(reverse("scoring:clerk", args=[results_night.pk]))
    assert "Vereinsseite" not in overview.content.decode()


def test_a_clerk_may_not_see_the_target(results_night, venue, client, clerk):
    client.force_login(clerk)
    assert client.get(reverse("archive:publish", args=[results_night.pk])).status_code == 403
    assert Path(venue).exists()


def test_with_interval_zero_a_failed_upload_is_still_tried_again(results_night, venue):
    port = closed_port()
    target = f"ftps://verein@127.0.0.1:{port}/www"
    live.save_settings(venue, live.PublishSettings(results_night.pk, target, "x", "", 0))
    clock = Clock()
    publisher = live.LivePublisher(venue, clock)
    publisher.run(live.load_settings(venue))  # the close's upload, without internet
    assert not publisher.tick()  # the back-off has not passed yet
    clock.now += 31
    assert publisher.tick()  # tried again although there is no timer
    publisher.thread.join(timeout=60)


def test_a_settings_file_that_is_no_object_keeps_publishing_off(venue):
    (venue / live.SETTINGS_FILE).write_text("[]")
    assert live.load_settings(venue) is None
    assert not live.LivePublisher(venue, Clock()).tick()


def test_another_tournament_under_the_same_number_is_not_published(results_night, venue, tmp_path):
    """A database started afresh or restored from elsewhere reuses ids: the stored target
    names its tournament, and another one under that number is refused."""
    site = tmp_path / "www"
    values = live.PublishSettings(
        results_night.pk, str(site), tournament_name="Vorige Woche", tournament_date="2026-11-20"
    )
    live.save_settings(venue, values)
    live.LivePublisher(venue, Clock()).run(live.load_settings(venue))
    status = live.read_status(venue)
    assert "Vorige Woche" in status["error"] and not site.exists()


def test_a_changed_address_does_not_get_the_stored_password_and_off_deletes_it(
    results_night, venue, as_director
):
    url = reverse("archive:publish", args=[results_night.pk])
    data = {"target": "sftp://verein@web.example/t", "interval_minutes": "5"}
    as_director.post(url, {**data, "password": " geheim mit Leerzeichen ", "aktion": "speichern"})
    stored = live.load_settings(venue)
    assert stored.password == " geheim mit Leerzeichen "  # a password keeps its spaces
    assert stored.tournament_name == results_night.name
    as_director.post(url, {**data, "target": "sftp://verein@tippfehler.example/t"})
    assert live.load_settings(venue).password == ""
    as_director.post(url, {"aktion": "aus"})
    assert live.load_settings(venue) is None
    assert not (venue / live.STATUS_FILE).exists()


def test_the_overview_shows_only_its_own_tournaments_upload(results_night, venue, as_director):
    port = closed_port()
    live.save_settings(
        venue, live.PublishSettings(results_night.pk, f"ftps://v@127.0.0.1:{port}/w", "x")
    )
    live.LivePublisher(venue, Clock()).run(live.load_settings(venue))
    other = make_tournament(players=3)
    page = as_director.get(reverse("scoring:clerk", args=[other.pk])).content.decode()
    assert "offline seit" not in page
