"""Issue 28: the newspaper report (archive/press.py): the evening's facts in press style,
names only with consent (the others as "ein Teilnehmer, der nicht genannt werden möchte" or
left out), editable on the page, downloaded as text or DOCX."""

from __future__ import annotations

import io
from datetime import date

import docx
import pytest
from django.urls import reverse

from archive import press
from scoring import selectors
from series.services import save_series
from tests.factories.evenings import paper_evening
from tests.factories.tournaments import close_round_anyway, make_tournament
from tournament import services as tournament_services
from tournament.models import Player, Round

pytestmark = pytest.mark.django_db

NOBODY = "eine Person, die nicht genannt werden möchte"
AGAIN = "eine weitere Person ohne Namensnennung"


def test_the_report_gives_the_evenings_facts(results_night):
    rows = selectors.standings(results_night, public=True)
    text = press.press_report(results_night)
    title, facts, standing, winners, places, *_rest = text.split("\n\n")
    assert title == "Binokel: Testturnier"
    assert facts == (
        "Plochingen, 21.11.2026. 9 Spielerinnen und Spieler kamen beim Turnier „Testturnier“ "
        "an 3 Tischen zusammen; gespielt wurde 1 Runde mit 12 Spielen nach dem Regelwerk "
        "„Vereinsturnier“."
    )
    assert standing == "Stand nach 1 von 3 Runden:"  # round 2 runs, round 3 is to come
    # a shared first place: the one who consented named with club, the others not
    first = [r for r in rows if r.rank == 1]
    assert len(first) == 3 and [r.name for r in first].count("") == 2
    assert winners == (
        f"Punktgleich auf Platz 1 mit je {first[0].total} Punkten: {NOBODY}, "
        f"Vorname8 Nachname8 (TSV) und {AGAIN}."
    )
    # issue 37.6: the long phrase once in the whole report, then the short one
    assert text.count(NOBODY) == 1 and AGAIN in places
    assert places.startswith("Die weiteren Plätze: 4. ")
    assert "7. Vorname2 Nachname2 (TSV), \u2212560 Punkte" in places
    for hidden in ("Vorname3", "Vorname6", "Vorname9"):
        assert hidden not in text


def test_the_director_chooses_places_lantern_and_leaving_out(results_night):
    short = press.press_report(
        results_night, press.Options(places=4, lantern=True, hidden=press.OMIT)
    )
    assert NOBODY not in short
    assert "Punktgleich auf Platz 1 mit je 430 Punkten: Vorname8 Nachname8 (TSV)." in short
    assert "4. Vorname1 Nachname1 (TSV), 250 Punkte" in short
    assert "4. Vorname7 Nachname7 (TSV), 250 Punkte" in short
    assert "7. " not in short.split("Rote Laterne")[0]  # only places up to 4 in the list
    assert short.endswith(
        "Die Rote Laterne mit \u2212560 Punkten: Vorname2 Nachname2 (TSV), Vorname4 Nachname4 (TSV) "
        "und Vorname5 Nachname5 (TSV)."
    )
    plain = press.press_report(results_night, press.Options(places=4))
    assert "Rote Laterne" not in plain
    assert "4. " + AGAIN + ", 250 Punkte" in plain  # start number 3 (named once above)


def test_category_winners_and_the_series_leader(results_night):
    text = press.press_report(results_night)
    assert "Beste in der Wertung Damen mit 250 Punkten: Vorname1 Nachname1 (TSV)." in text
    save_series(name="Cup", season="2026", tournaments=[results_night])
    assert "Serie" not in press.press_report(results_night)  # not finished yet
    close_round_anyway(results_night, 2)
    round_3 = results_night.round_set.get(number=3)
    tournament_services.draw_round(round_3, seed=3)
    tournament_services.start_round(round_3)
    close_round_anyway(results_night, 3)
    report = press.press_report(results_night)
    assert "gespielt wurden 3 Runden mit je 12 Spielen" in report and "Stand nach" not in report
    leader = report.split("\n\n")[-1]
    assert leader.startswith("In der Serie Cup 2026 führt nach diesem Abend mit 430 Punkten: ")
    assert "Vorname8 Nachname8 (TSV)" in leader and AGAIN in leader


def test_no_closed_round_no_results_and_no_venue_no_comma(db):
    tournament = make_tournament(players=6)
    tournament.venue = ""
    tournament.save()
    # issue 37.6: no "0 Spielerinnen und Spieler … gespielt wurden 0 Runden", no ranking
    assert press.press_report(tournament).split("\n\n")[1:] == [
        "21.11.2026: Turnier „Testturnier“ nach dem Regelwerk „Vereinsturnier“.",
        "Noch ist keine Runde abgeschlossen.",
    ]


def test_a_pairs_evening_is_reported_by_pairs(db):
    """Four pairs from paper round totals (each partner carries the pair's points)."""
    from scoring.models import RoundTotal
    from tournament.models import Tournament

    tournament = tournament_services.create_tournament(
        name="Paarabend", date=date(2026, 11, 28), rounds=1, preset="partnership-250",
        four_table_mode=Tournament.FourTableMode.KREUZ,
        event_type=Tournament.EventType.PAIRS, entry_mode=Tournament.EntryMode.TOTALS,
    )  # fmt: skip
    round_ = tournament.round_set.get()
    points = {1: 900, 2: 900, 3: 400, 4: 400, 5: 400, 6: 400, 7: 100, 8: 100}
    for number, total in points.items():
        player = Player.objects.create(first_name=f"V{number}", last_name=f"N{number}")
        registration = tournament_services.register(tournament, player, consent_public=True)
        RoundTotal.objects.create(round=round_, registration=registration, points=total)
    for first in (1, 3, 5, 7):
        tournament_services.form_pair(tournament, first, first + 1)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
    paragraphs = press.press_report(tournament, press.Options(lantern=True)).split("\n\n")
    assert paragraphs[2] == "Den ersten Platz belegten mit 900 Punkten: V1 N1 / V2 N2."
    assert paragraphs[3] == (
        "Die weiteren Plätze: 2. V3 N3 / V4 N4, 400 Punkte; 2. V5 N5 / V6 N6, 400 Punkte; "
        "4. V7 N7 / V8 N8, 100 Punkte."
    )
    assert paragraphs[4] == "Die Rote Laterne mit 100 Punkten: V7 N7 / V8 N8."


def test_the_word_file_takes_control_characters_as_spaces():
    content = press.report_docx("Titel\x01\n\nEin\x1bText", "Abend\x02")
    document = docx.Document(io.BytesIO(content))
    assert [p.text for p in document.paragraphs] == ["Titel ", "Ein Text"]
    assert document.core_properties.title == "Abend "


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

    anna, bert = (
        Player.objects.create(first_name=n, last_name=f"Spieler{n}", club="TSV")
        for n in ("Anna", "Bert")
    )
    first = paper_evening(1, {anna: 500, bert: 300})
    second = paper_evening(2, {anna: 100, bert: 600})
    save_series(name="Cup", season="2026", tournaments=[first, second])
    after_first = press.press_report(first).split("\n\n")[-1]
    assert after_first == (
        "In der Serie Cup 2026 führt nach diesem Abend mit 500 Punkten: Anna SpielerAnna (TSV)."
    )
    after_second = press.press_report(second).split("\n\n")[-1]
    assert after_second.endswith("mit 900 Punkten: Bert SpielerBert (TSV).")


def test_the_start_page_keeps_past_evenings_by_season_with_their_winners(client, director):

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


def test_the_start_page_reads_each_past_evenings_winners_once(
    client, director, django_assert_max_num_queries
):

    anna = Player.objects.create(first_name="Anna", last_name="SpielerAnna", club="TSV")
    for day in range(1, 6):
        paper_evening(day, {anna: 100 * day})
    client.get(reverse("home"))  # fills the cache
    with django_assert_max_num_queries(6):  # not one standings computation per evening
        response = client.get(reverse("home"))
    page = response.content.decode()
    assert response.status_code == 200, response.status_code
    assert page.count("Sieger: &#x2068;Anna SpielerAnna&#x2069;") == 5


def test_a_leader_is_not_yet_a_winner_and_a_hidden_winner_keeps_the_sentence(db):
    """Issue 37.6: "Sieger" while rounds were still to play; a winner who declined to be
    named, left out by the director, lost the winner's sentence altogether."""
    from scoring.models import RoundTotal
    from tournament.models import Tournament

    tournament = tournament_services.create_tournament(
        name="Herbstturnier", date=date(2026, 11, 28), rounds=2,
        entry_mode=Tournament.EntryMode.TOTALS,
    )  # fmt: skip
    first = tournament.round_set.get(number=1)
    regs = []
    for number, total in enumerate((700, 500, 300), start=1):
        player = Player.objects.create(first_name=f"V{number}", last_name=f"N{number}")
        regs.append(tournament_services.register(tournament, player, consent_public=True))
        RoundTotal.objects.create(round=first, registration=regs[-1], points=total)
    Round.objects.filter(pk=first.pk).update(status=Round.Status.CLOSED)
    text = press.press_report(tournament)
    assert "In Führung mit 700 Punkten: V1 N1." in text
    assert "Sieger" not in text and "Den ersten Platz" not in text
    assert "kamen beim Turnier „Herbstturnier“ an" in text
    second = tournament.round_set.get(number=2)
    for reg, total in zip(regs, (100, 100, 100), strict=True):
        RoundTotal.objects.create(round=second, registration=reg, points=total)
    Round.objects.filter(pk=second.pk).update(status=Round.Status.CLOSED)
    assert "Den ersten Platz belegte mit 800 Punkten: V1 N1." in press.press_report(tournament)
    regs[0].consent_public = False
    regs[0].save()
    hidden = press.press_report(tournament, press.Options(hidden=press.OMIT))
    assert (
        "Den ersten Platz belegte mit 800 Punkten: jemand, der nicht genannt werden möchte."
        in hidden
    )
    assert "V1" not in hidden


def test_the_edited_report_is_kept_and_shown_again(client, director, results_night):
    """Issue 37.6: the director's edits were lost on leaving the page.  Every saved
    version is kept; the page opens with the newest; 'Text neu erstellen' offers a new
    text without dropping the saved one."""
    from archive.models import PressReport

    client.force_login(director)
    url = reverse("archive:press", args=[results_night.pk])
    edited = "Binokel: Testturnier\n\nUnser eigener Text mit dem Dank an die Wirtin."
    response = client.post(url, {"text": edited, "format": "docx", "action": "save"})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "Unser eigener Text mit dem Dank an die Wirtin." in page
    assert 'id="saved-note"' in page
    # downloading keeps the text as it went out, as a second version
    download = client.post(url, {"text": edited + " Nachtrag.", "format": "txt"})
    assert download.status_code == 200 and download.content.decode().endswith("Nachtrag.")
    versions = list(
        PressReport.objects.filter(tournament=results_night).values_list("text", flat=True)
    )
    assert versions == [edited + " Nachtrag.", edited]
    # a new text from the results is offered on request; the saved versions stay
    fresh = client.get(url, {"places": 10, "hidden": "anonymous"}).content.decode()
    assert "Unser eigener Text" not in fresh and "Die weiteren Plätze" in fresh
    assert PressReport.objects.filter(tournament=results_night).count() == 2
    # a text that cannot be stored is refused at its field and keeps nothing
    refused = client.post(url, {"text": "Bad \ufffe", "format": "txt", "action": "save"})
    assert refused.status_code == 422
    assert PressReport.objects.filter(tournament=results_night).count() == 2
