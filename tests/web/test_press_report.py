"""Issue 28: the newspaper report (archive/press.py): the evening's facts in press style,
names only with consent (the others as "ein Teilnehmer, der nicht genannt werden möchte" or
left out), editable on the page, downloaded as text or DOCX."""

from __future__ import annotations

import io

import docx
import pytest
from django.urls import reverse

from archive import press
from scoring import selectors
from series.services import save_series
from tests.conftest import close_round_anyway, make_tournament
from tournament import services as tournament_services
from tournament.models import Player

pytestmark = pytest.mark.django_db

NOBODY = "ein Teilnehmer, der nicht genannt werden möchte"


def test_the_report_gives_the_evenings_facts(results_night):
    rows = selectors.standings(results_night, public=True)
    text = press.press_report(results_night)
    title, facts, winners, places, *_rest = text.split("\n\n")
    assert title == "Binokel: Testturnier"
    assert facts.startswith("Plochingen, 21.11.2026. 9 Spielerinnen und Spieler")
    assert "an 3 Tischen" in facts and "3 Runden mit je 12 Spielen" in facts
    # a shared first place: the one who consented named with club and points, the others not
    first = [r for r in rows if r.rank == 1]
    assert len(first) == 3 and [r.name for r in first].count("") == 2
    assert (
        winners.startswith("Punktgleich auf Platz 1:")
        and f"mit je {first[0].total} Punkten" in winners
    )
    assert winners.count(NOBODY) == 2 and "Vorname8 Nachname8 (TSV)" in winners
    assert (
        places.startswith("Die weiteren Plätze: 4. ")
        and "7. Vorname2 Nachname2 (TSV), -560 Punkte" in places
    )
    for hidden in ("Vorname3", "Vorname6", "Vorname9"):
        assert hidden not in text


def test_the_director_chooses_places_lantern_and_leaving_out(results_night):
    short = press.press_report(
        results_night, press.Options(places=4, lantern=True, hidden=press.OMIT)
    )
    assert NOBODY not in short
    assert "Sieger wurde Vorname8 Nachname8 (TSV)" in short or "Platz 1: Vorname8" in short
    assert "4. Vorname1 Nachname1 (TSV), 250 Punkte" in short
    assert "4. Vorname7 Nachname7 (TSV), 250 Punkte" in short
    assert "7. " not in short.split("Rote Laterne")[0]  # only places up to 4 in the list
    assert (
        "Die Rote Laterne ging an Vorname2 Nachname2 (TSV), Vorname4 Nachname4 (TSV) und " in short
    )
    assert "mit -560 Punkten." in short
    plain = press.press_report(results_night, press.Options(places=4))
    assert (
        "Rote Laterne" not in plain and "4. " + NOBODY + ", 250 Punkte" in plain
    )  # start number 3


def test_category_winners_and_the_series_leader(results_night):
    text = press.press_report(results_night)
    assert "Beste in der Wertung Damen: Vorname1 Nachname1 (TSV) mit 250 Punkten." in text
    series = save_series(name="Cup", season="2026", tournaments=[results_night])
    assert "Serie" not in press.press_report(results_night)  # the results_night is not finished yet
    for number in (2, 3):
        round_ = results_night.round_set.get(number=number)
        tournament_services.draw_round(round_, seed=number)
        tournament_services.start_round(round_)
        close_round_anyway(results_night, number)
    leader = press.press_report(results_night).split("\n\n")[-1]
    assert leader.startswith("In der Serie Cup 2026 führt nach diesem Abend ")
    assert series.pk and "Vorname8 Nachname8 (TSV)" in leader and NOBODY in leader


def test_the_page_edits_and_downloads_the_report(results_night, client, clerk, director):
    address = reverse("archive:press", args=[results_night.pk])
    assert client.get(address).status_code == 302
    client.force_login(clerk)
    assert client.get(address).status_code == 403
    client.force_login(director)
    page = client.get(address + "?places=3&lantern=on&hidden=omit")
    assert page.status_code == 200
    assert "Rote Laterne" in page.content.decode()
    bad = client.get(address + "?places=zwei&hidden=omit")
    assert bad.status_code == 422 and "ganze Zahl" in bad.content.decode()
    edited = "Binokel in Plochingen\n\nDer Verein dankt allen Helfern.\nBis zum nächsten Mal."
    text = client.post(address, {"text": edited, "format": "txt"})
    assert text["Content-Type"].startswith("text/plain") and text.content.decode() == edited
    word = client.post(address, {"text": edited, "format": "docx"})
    assert word["Content-Disposition"].endswith('.docx"')
    paragraphs = [p.text for p in docx.Document(io.BytesIO(word.content)).paragraphs]
    assert paragraphs == [
        "Binokel in Plochingen",
        "Der Verein dankt allen Helfern. Bis zum nächsten Mal.",
    ]
    empty = client.post(address, {"text": "", "format": "docx"})
    assert empty.status_code == 422
    assert address in client.get(reverse("scoring:clerk", args=[results_night.pk])).content.decode()


def test_the_series_leader_is_the_one_after_that_evening():
    from tests.web.test_series import evening as paper_evening

    anna, bert = (
        Player.objects.create(first_name=n, last_name=f"Spieler{n}", club="TSV")
        for n in ("Anna", "Bert")
    )
    first = paper_evening(1, {anna: 500, bert: 300})
    second = paper_evening(2, {anna: 100, bert: 600})
    save_series(name="Cup", season="2026", tournaments=[first, second])
    after_first = press.press_report(first).split("\n\n")[-1]
    assert after_first == (
        "In der Serie Cup 2026 führt nach diesem Abend Anna SpielerAnna (TSV) mit 500 Punkten."
    )
    after_second = press.press_report(second).split("\n\n")[-1]
    assert "Bert SpielerBert (TSV) mit 900 Punkten" in after_second


def test_the_start_page_keeps_past_evenings_by_season_with_their_winners(client, director):
    from tests.web.test_series import evening as paper_evening

    anna, bert = (
        Player.objects.create(first_name=n, last_name=f"Spieler{n}", club="TSV")
        for n in ("Anna", "Bert")
    )
    autumn = paper_evening(1, {anna: 500, bert: 300})
    winter = paper_evening(2, {anna: 100, bert: 600}, consent=False)
    save_series(name="Cup", season="2026/27", tournaments=[autumn, winter])
    old = paper_evening(3, {anna: 700, bert: 100})
    old.date = old.date.replace(year=2025)
    old.save()
    running = make_tournament()
    page = client.get(reverse("home")).content.decode()
    current, archive = page.split("Archiv", 1)
    assert running.name in current and "Abend 1" not in current
    assert archive.index("Saison 2026/27") < archive.index("Saison 2025")
    newer, older = archive.split("Saison 2025")
    assert "Abend 1" in newer and "Abend 2" in newer and "Abend 3" in older
    assert "Sieger: &#x2068;Anna SpielerAnna&#x2069;" in newer  # evening 1, with consent
    assert "Sieger: &#x2068;Startnummer 2&#x2069;" in newer  # evening 2: Bert, no consent
    assert "SpielerBert" not in page
    assert reverse("printing:results", args=[autumn.pk]) in archive
    assert reverse("archive:press", args=[autumn.pk]) not in page  # the director's only
    client.force_login(director)
    page = client.get(reverse("home")).content.decode()
    assert reverse("archive:press", args=[autumn.pk]) in page
    assert reverse("archive:site", args=[old.pk]) in page
