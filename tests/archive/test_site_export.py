"""Issue 28, part 1: the results as a static website (archive/site.py): every page the
export links to is in it, it shows what the live pages show, and nothing private leaves
the laptop with it."""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from urllib.parse import urlsplit

import lxml.html
import pytest
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from archive import site
from scoring import selectors
from series.services import save_series
from tests.factories.evenings import define_prizes, paper_evening, prize_evening
from tests.factories.web import standings_rows
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

LAN = "http://192.168.1.20:8000"


def links_of(html: str) -> list[str]:
    document = lxml.html.document_fromstring(html)
    return [e.get("href") for e in document.iter("a", "link") if e.get("href")] + [
        e.get("src") for e in document.iter("img", "script") if e.get("src")
    ]


@override_settings(PUBLIC_BASE_URL=LAN)
def test_every_link_resolves_and_the_pages_show_the_live_standings(results_night, client):
    files = site.export_site(results_night)
    assert {"index.html", "gesamt.html", "runde-1.html", "runde-3.html", "regeln.pdf"} <= set(files)
    assert {"kategorie-damen.html", "kategorie-damen-runde-1.html", "static/css/app.css"} <= set(
        files
    )
    assert files["regeln.pdf"].startswith(b"%PDF-")
    pages = {name: content.decode() for name, content in files.items() if name.endswith(".html")}
    for name, html in pages.items():
        for link in links_of(html):
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc and not link.startswith("/"), (name, link)
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), parts.path))
            assert target in files, (name, link)
    # the same places and points as the live public pages
    live = client.get(reverse("scoring:standings", args=[results_night.pk])).content.decode()
    assert standings_rows(pages["gesamt.html"]) == standings_rows(live)
    assert len(standings_rows(live)) > 9
    live_round = client.get(reverse("scoring:standings", args=[results_night.pk]) + "?runde=1")
    assert standings_rows(pages["runde-1.html"]) == standings_rows(live_round.content.decode())
    live_ladies = client.get(
        reverse("scoring:standings", args=[results_night.pk]) + "?kategorie=damen"
    )
    assert standings_rows(pages["kategorie-damen.html"]) == standings_rows(
        live_ladies.content.decode()
    )
    assert "aktualisiert sich" in live and "aktualisiert sich" not in pages["gesamt.html"]
    # the tabs lead where they say: "Gesamt" on a round's page and "Alle" on a category's
    for name, label in (("runde-1.html", "Gesamt"), ("kategorie-damen.html", "Alle")):
        tabs = lxml.html.document_fromstring(pages[name]).iter("a")
        assert [a.get("href") for a in tabs if a.text_content() == label] == ["gesamt.html"]
    tabs = lxml.html.document_fromstring(pages["kategorie-damen-runde-1.html"]).iter("a")
    hrefs = {a.text_content(): a.get("href") for a in tabs}
    assert (
        hrefs["Gesamt"] == "kategorie-damen.html"
        and hrefs["Runde 2"] == "kategorie-damen-runde-2.html"
    )
    # a page for each player named with consent, per round played, and none for the others
    for registration in results_night.registrations.all():
        exported = f"spieler/{registration.start_number}.html" in files
        assert exported == registration.consent_public, registration.start_number
        assert (f"spieler/{registration.start_number}-runde-1.html" in files) == exported
    named = next(r for r in results_night.registrations.all() if r.consent_public)
    live_player = client.get(reverse("scoring:player", args=[results_night.pk, named.start_number]))
    assert standings_rows(pages[f"spieler/{named.start_number}.html"]) == standings_rows(
        live_player.content.decode()
    )
    index = pages["index.html"]
    assert results_night.ruleset_fingerprint in index and "21.11.2026" in index


@override_settings(PUBLIC_BASE_URL=LAN)
def test_nothing_private_is_in_the_export(results_night):
    hidden = [
        f"{r.player.first_name} {r.player.last_name}"
        for r in results_night.registrations.select_related("player")
        if not r.consent_public
    ]
    shown = [
        r.player.last_name
        for r in results_night.registrations.select_related("player")
        if r.consent_public
    ]
    # the links of round 1 (closed) and of round 2 (running: live, on the staff pages)
    tokens = {
        number: [
            link.token
            for table in results_night.round_set.get(number=number).tables.all()
            for link in table.links.all()
        ]
        for number in (1, 2)
    }
    assert hidden and shown and tokens[1] and tokens[2]
    tokens = tokens[1] + tokens[2]
    text = "\n".join(
        content.decode("utf-8", "replace") for content in site.export_site(results_night).values()
    )
    assert any(name in text for name in shown)  # the consenting players are there
    for name in hidden:
        assert name not in text and name.split()[1] not in text
    for token in tokens:
        assert token not in text
    for private in ("192.168.1.20", "127.0.0.1", "localhost", "csrfmiddlewaretoken", "/t/"):
        assert private not in text, private
    assert not re.search(r"<script|hx-[a-z]+=|javascript:", text, re.I)


def test_export_site_command_writes_a_folder_or_a_zip(results_night, tmp_path):
    call_command("export_site", results_night.pk, str(tmp_path / "site"), stdout=io.StringIO())
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "static" / "css" / "app.css").is_file()
    call_command("export_site", results_night.pk, str(tmp_path / "site.zip"), stdout=io.StringIO())
    with zipfile.ZipFile(tmp_path / "site.zip") as archive:
        assert "gesamt.html" in archive.namelist()
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="exists"):
        call_command("export_site", results_night.pk, str(tmp_path / "site"), stdout=io.StringIO())


def test_only_the_director_downloads_the_website(results_night, client, clerk, director):
    address = reverse("archive:site", args=[results_night.pk])
    assert client.get(address).status_code == 302  # to the login
    client.force_login(clerk)
    assert client.get(address).status_code == 403
    client.force_login(director)
    response = client.get(address)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        assert "index.html" in archive.namelist()
    overview = client.get(reverse("scoring:clerk", args=[results_night.pk])).content.decode()
    assert address in overview


def test_a_player_page_shows_any_round_he_played(results_night, client):
    named = next(r for r in results_night.registrations.all() if r.consent_public)
    address = reverse("scoring:player", args=[results_night.pk, named.start_number])
    assert client.get(address + "?runde=3").status_code == 404  # round 3 not played yet
    assert client.get(address + "?runde=x").status_code == 400
    page = client.get(address).content.decode()
    assert "Runde 2, Tisch" in page and 'href="?runde=1"' in page  # the last, tabs for both
    earlier = client.get(address + "?runde=1").content.decode()
    assert "Runde 1, Tisch" in earlier and "Summe dieser Runde" in earlier


def test_a_series_exports_its_table_and_each_evening(
    players_for_series, client, director, tmp_path
):
    a, b, c = players_for_series
    first = paper_evening(1, {a: 500, b: 300, c: 400})
    second = paper_evening(2, {a: 100, b: 300, c: 200}, consent=False)
    series = save_series(name="Cup", season="2026", tournaments=[first, second])
    files = site.export_series_site(series)
    assert {"index.html", "abend-1/index.html", "abend-2/gesamt.html"} <= set(files)
    index = files["index.html"].decode()
    document = lxml.html.document_fromstring(index)
    evenings = [e.get("href") for e in document.iter("a") if "Abend" in e.text_content()]
    assert evenings == ["abend-1/gesamt.html", "abend-2/gesamt.html"]
    for name, content in files.items():
        if name.endswith(".html"):
            for link in links_of(content.decode()):
                target = posixpath.normpath(posixpath.join(posixpath.dirname(name), link))
                assert target in files, (name, link)
    # no consent at evening 2: not named in the series table (which needs consent at every
    # results_night) nor at results_night 2; results_night 1's own pages name her, as they do live
    evening_2 = "\n".join(
        content.decode("utf-8", "replace")
        for name, content in files.items()
        if name.startswith("abend-2/")
    )
    assert "SpielerAnna" not in index and "SpielerAnna" not in evening_2
    assert "SpielerAnna" in files["abend-1/gesamt.html"].decode()
    # the command and the director's download
    call_command(
        "export_site", series.pk, str(tmp_path / "cup.zip"), "--series", stdout=io.StringIO()
    )
    assert zipfile.is_zipfile(tmp_path / "cup.zip")
    client.force_login(director)
    response = client.get(reverse("archive:series_site", args=[series.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert (
        reverse("archive:series_site", args=[series.pk])
        in client.get(reverse("series:page", args=[series.pk])).content.decode()
    )


@pytest.fixture
def players_for_series():
    return [
        Player.objects.create(first_name=n, last_name=f"Spieler{n}", club="TSV")
        for n in ("Anna", "Bert", "Carl")
    ]


def test_the_tie_break_shared_places_and_prizes_read_as_live(client):
    tournament = prize_evening(tie_break=Tournament.TieBreak.BEST_ROUND)
    define_prizes(tournament)
    files = site.export_site(tournament)
    # the prize list as the public page shows it, linked from the standings and the index
    live_prizes = client.get(reverse("prizes:list", args=[tournament.pk])).content.decode()
    assert standings_rows(files["preise.html"].decode()) == standings_rows(live_prizes)
    assert "Wurstkorb" in files["preise.html"].decode()
    assert 'href="preise.html"' in files["index.html"].decode()
    live = client.get(reverse("scoring:standings", args=[tournament.pk])).content.decode()
    exported = standings_rows(files["gesamt.html"].decode())
    assert exported == standings_rows(live)
    places = [row[0] for row in exported[1:]]
    assert places[:4] == ["1", "2", "2", "4"]  # broken by the best round, then shared
    note = selectors.tie_break_note(tournament)  # the tie-break explained under the table
    assert note and note in lxml.html.document_fromstring(files["gesamt.html"]).text_content()


def test_the_player_list_sorts_umlauts_as_the_table_plan_does(results_night):
    """Issue 37.30: the website's player list put "Grünenwald" before "Gößler" (an
    umlaut sorted after z); DIN 5007-1, as the table plan: ö = o, ß = ss."""
    named = results_night.registrations.filter(consent_public=True).order_by("start_number")
    first, second, third = (r.player for r in named[:3])
    Player.objects.filter(pk=first.pk).update(last_name="Grünenwald", first_name="Eva")
    Player.objects.filter(pk=second.pk).update(last_name="Gößler", first_name="Karl")
    Player.objects.filter(pk=third.pk).update(last_name="Goetz", first_name="Anna")
    index = site.export_site(results_night)["index.html"].decode()
    order = [index.index(name) for name in ("Goetz", "Gößler", "Grünenwald")]
    assert order == sorted(order)


def test_typed_text_is_isolated_on_the_website(results_night):
    """Issue 38.10: a right-to-left override typed into a name reordered the app's own
    words on the same line of the exported website (the PDFs isolate typed text)."""
    reg = results_night.registrations.filter(consent_public=True).order_by("start_number")[0]
    Player.objects.filter(pk=reg.player_id).update(
        first_name="Anna\u202e", last_name="Umgedreht", club="SV\u202eX"
    )
    files = site.export_site(results_night)
    page = files["gesamt.html"].decode()
    assert "<bdi>Anna\u202e Umgedreht</bdi>" in page
    assert "<bdi>SV\u202eX</bdi>" in page
    player = next(
        content.decode()
        for name, content in files.items()
        if name.startswith("spieler/") and "Umgedreht" in content.decode()
    )
    assert "<bdi>Anna\u202e Umgedreht</bdi>" in player


def test_an_english_site_heads_each_player_page_in_english(results_night):
    """Issue 37.39: an archived English player page was seen headed "Runde 3, Tisch 51".
    Every page of the English export, players' pages included, says "Round … table …"."""
    english = site.export_site(results_night, "en")
    players = {name: content.decode() for name, content in english.items() if "spieler/" in name}
    assert players
    for name, html in players.items():
        assert "Round 1, table" in html or "Round 2, table" in html, name
        assert "Runde" not in html and "Tisch " not in html, name
