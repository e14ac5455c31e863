"""Printed documents: the text of each PDF (pdftotext, Debian poppler-utils), its pages,
who may download it, and that nothing is fetched from the network."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.core.management import call_command
from django.urls import reverse

from printing import pdfs
from printing.render import LocalOnlyFetcher
from scoring import services as scoring_services
from tests.factories.pdf import needs_pdftotext, pages, squash, text_of
from tests.factories.tournaments import make_tournament
from tournament.models import Player
from tournament.services import register

pytestmark = [pytest.mark.django_db, needs_pdftotext]


def hand(number, dealer, declarer=0, bid=300, **kw):
    melds = kw.pop("melds", {0: 140, 1: 20, 2: 60})
    tricks = kw.pop("tricks", {0: 175, 1: 30, 2: 45})
    melds = {(dealer + 1 + i) % 3: v for i, v in enumerate(melds.values())}
    tricks = {(dealer + 1 + i) % 3: v for i, v in enumerate(tricks.values())}
    return scoring_services.HandInput(
        number=number, dealer=dealer, declarer=declarer, bid=bid, outcome="played", trump="H",
        melds=melds, tricks=tricks, **kw,
    )  # fmt: skip


def three_tables(tournament):
    round_ = tournament.round_set.get(number=1)
    return round_, list(round_.tables.order_by("number"))


def test_blank_score_sheets_one_page_per_table_with_dealer_rotation(tournament):
    round_, tables = three_tables(tournament)
    text = text_of(pdfs.score_sheets_pdf(round_, filled=False))
    sheet_pages = pages(text)
    assert len(sheet_pages) == len(tables) == 3
    for page, table in zip(sheet_pages, tables, strict=True):
        seats = scoring_services.table_seats(table)
        assert f"Runde 1 · Tisch {table.number}" in page
        for seat in seats:
            assert f"{seat.registration.start_number} {seat.registration.player}" in page
            assert f"Unterschrift {seat.registration.start_number}" in page
        first = seats[table.first_dealer].registration
        assert f"Gibt zuerst {first.start_number} {first.player}" in squash(page)
        # dealer column by rotation, one row per game (12)
        rows = re.findall(r"^\s*(\d+)\s+(\d+) Vorname\d+", page, re.M)
        assert [int(n) for n, _ in rows] == list(range(1, 13))
        expected = [
            seats[scoring_services.dealer_for(table, 3, n)].registration.start_number
            for n in range(1, 13)
        ]
        assert [int(s) for _, s in rows] == expected
        assert "Seite" in page and "Testturnier · 21.11.2026" in page


def test_fifteen_games_fit_a_page_and_more_continue_on_a_second(db):
    fifteen = make_tournament(games_per_round=15)
    round_ = fifteen.round_set.get(number=1)
    assert len(pages(text_of(pdfs.score_sheets_pdf(round_, False)))) == 3
    eighteen = make_tournament(games_per_round=18)
    round_ = eighteen.round_set.get(number=1)
    text = text_of(pdfs.score_sheets_pdf(round_, False))
    assert len(pages(text)) == 6
    assert "Blatt 2/2" in text


def test_filled_sheet_shows_scores_totals_and_marks_corrections(tournament, clerk, director):
    round_, tables = three_tables(tournament)
    table = tables[0]
    size = 3
    saved, evaluation = scoring_services.save_hand(
        table,
        hand(1, scoring_services.dealer_for(table, size, 1), declarer=(table.first_dealer + 1) % 3),
        clerk,
    )
    assert saved is not None, evaluation.errors
    second, evaluation = scoring_services.save_hand(
        table,
        hand(2, scoring_services.dealer_for(table, size, 2), declarer=(table.first_dealer + 2) % 3),
        clerk,
    )
    assert second is not None, evaluation.errors
    before = list(second.scores)
    corrected, evaluation = scoring_services.save_hand(
        table,
        hand(
            2,
            scoring_services.dealer_for(table, size, 2),
            declarer=(table.first_dealer + 2) % 3,
            bid=350,
        ),
        director,
        expected_version=1,
        reason="Spielführer laut Spielliste",
    )
    assert corrected is not None and corrected.version == 2, evaluation.errors
    text = text_of(pdfs.score_sheets_pdf(round_, filled=True))
    page = pages(text)[0]
    assert "vorläufig: die Runde läuft noch" in page  # the round is still running
    totals = [a + b for a, b in zip(saved.scores, corrected.scores, strict=True)]
    total_line = next(line for line in page.splitlines() if "Zwischenstand" in line)
    assert [
        int(x.replace("\u2212", "-"))
        for x in re.findall(r"[-\u2212]?\d+", total_line.split(")", 1)[1])
    ] == totals
    assert "K = korrigiert, N = Nachtrag" in squash(page)
    # the English key names the English marks (issue 37.7: "K = corrected" beside "C")
    from django.utils import translation

    with translation.override("en"):
        english = squash(pages(text_of(pdfs.score_sheets_pdf(round_, filled=True)))[0])
    assert "C = corrected, A = director's adjustment" in english, english[-400:]
    flat = squash(page)
    assert "Spiel 2: 2. Fassung von director" in flat
    assert "vorher " + " / ".join(map(str, before)) + " Punkte" in flat
    # tables without hands still get their page
    # a table with nothing entered yet: its blank rows, marked provisional
    assert len(pages(text)) == 3 and "vorläufig: die Runde läuft noch" in pages(text)[1]


def test_table_plan_names_only_consenting_players(tournament):
    round_, _tables = three_tables(tournament)
    text = text_of(pdfs.table_plan_pdf(round_))
    flat = squash(text)
    # every third player (3, 6, 9) has not consented
    for i in range(1, 10):
        if i % 3:
            assert f"Nachname{i}, Vorname{i} ({i})" in flat
        else:
            assert f"Nachname{i}" not in text
            assert f"Nr. {i} " in flat
    assert "Nach Tischen" in text and "Nach Namen" in text
    assert "Ohne Namen, nach Startnummer" in text


def test_results_list_repeats_its_header_and_hides_names_without_consent(db):
    tournament = make_tournament(players=12)
    for i in range(200):
        player = Player.objects.create(first_name=f"Spät{i}", last_name="Nachzügler")
        register(tournament, player, first_round=2, consent_public=i % 2 == 0)
    text = text_of(pdfs.results_pdf(tournament))
    result_pages = pages(text)
    assert len(result_pages) >= 4
    for page in result_pages:
        assert re.search(r"Platz\s+Nr\.\s+Name\s+Verein\s+R1\s+R2\s+R3\s+Gesamt", page)
    assert "Spät0 Nachzügler" in text and "Spät1 Nachzügler" not in text
    assert "Vorname3" not in text and "Vorname1 Nachname1" in text
    assert f"Seite {len(result_pages)} von {len(result_pages)}" in result_pages[-1]


@pytest.mark.parametrize(
    ("preset", "expected", "absent"),
    [
        (
            "club-tournament",
            [
                "ab 150 in Schritten von 10",
                "acht (alle) 1000 1000 1000 1000",
                "auf Zehner gerundet",
                "ohne Tapp (Tapp bleibt zu) +2000. Verloren \u22122000.",
                "Rundgang (ein Paar in jeder Farbe): 240",
                "Abschreiben:",
            ],
            ["Bettel", "ohne Rundung", "Abgehen", "Siebener:"],
        ),
        (
            "swabian-traditional",
            [
                "48 Karten",
                "Siebener",
                "Doppelte",
                "1500",
                "Wert +1000, verloren \u22121000.",
                "10 Punkte je Spieler im Spiel (zu dritt 30, zu viert 40)",
            ],
            ["ohne Rundung", "Abschreiben"],
        ),
        (
            "dabb-app",
            [
                "ab 150 in Schritten von 10",
                "acht (alle) 1000 600 400 200",
                "ohne Rundung",
                "auch wenn schon getrumpft ist",
                "Jede Gegenpartei schreibt ihre Meldung und 40 Punkte dazu.",
            ],
            ["vor dem ersten Ausspiel angesagt", "Rundgang"],
        ),
        (
            "partnership-250",
            [
                "ab 250 in Schritten von 10",
                "um höchstens 20",
                "acht (alle) 1000 800 600 400",
                "Zu 4: je 12 Karten.",
                "Den ersten Stich spielt der Spielführer aus",
                "Erlaubt nur, wenn das Gebot höher ist",
            ],
            ["auf Zehner gerundet", "Dabb", "Drücken", "Ober", "Siebener"],
        ),
    ],
)
def test_each_preset_yields_its_own_handout(preset, expected, absent):
    from tournament.models import Tournament

    ruleset = __import__("rules").PRESETS[preset]
    tournament = Tournament(
        name="Regeltest", date=date(2026, 11, 21), ruleset_json=ruleset.to_dict(),
        ruleset_fingerprint=ruleset.fingerprint, four_table_mode="kreuz",
    )  # fmt: skip
    pdf = pdfs.rules_pdf(tournament)
    text = text_of(pdf, layout=False)
    # prose in reading order, and table rows on their lines
    flat = squash(text) + " ¦ " + squash(text_of(pdf))
    assert len(pages(text)) == 1
    assert ruleset.fingerprint in flat and ruleset.name_de in flat
    for words in expected:
        assert words in flat, words
    for words in absent:
        assert words not in flat, words


def test_a_parameter_change_shows_up_in_the_handout(db):
    plain = make_tournament(players=3)
    changed = make_tournament(
        players=3, overrides={"min_bid": 200, "lost": {"declarer": {"bid_factor": 3}}}
    )
    before = squash(text_of(pdfs.rules_pdf(plain), layout=False))
    after = squash(text_of(pdfs.rules_pdf(changed), layout=False))
    assert "ab 150 in Schritten" in before and "ab 200 in Schritten" in after
    # the dealer sits out at four: single players, no sides (issue 37.9)
    assert "verliert er das Doppelte des Reizwerts; seine Meldung" in before
    assert "verliert er das 3fache des Reizwerts; seine Meldung" in after
    assert changed.ruleset_fingerprint in after and plain.ruleset_fingerprint not in after
    # dealer sits out at four (the tournament's choice) instead of partnerships
    assert "Am Vierertisch setzt der Geber aus" in before


def test_handout_in_english(tournament):
    text = squash(text_of(pdfs.rules_pdf(tournament, "en"), layout=False))
    assert "Bidding starts at 150 in steps of 10." in text
    assert "Page 1 of 1" in text
    assert "Gereizt" not in text


def test_downloads_and_who_may_have_them(client, clerk, director, tournament):
    sheets = reverse("printing:score_sheets", args=[tournament.pk, 1])
    public = [
        reverse("printing:table_plan", args=[tournament.pk, 1]),
        reverse("printing:results", args=[tournament.pk]) + "?runde=1",
        reverse("printing:rules", args=[tournament.pk]) + "?sprache=en",
    ]
    for url in public:
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert client.get(sheets).status_code == 302  # to the login
    client.force_login(clerk)
    assert client.get(sheets).status_code == 403
    client.force_login(director)
    response = client.get(sheets + "?leer=1")
    assert response.status_code == 200
    assert "spielliste-runde-1-leer.pdf" in response["Content-Disposition"]
    assert client.get(reverse("printing:score_sheets", args=[tournament.pk, 2])).status_code == 404
    assert (
        client.get(reverse("printing:results", args=[tournament.pk]) + "?runde=9").status_code
        == 404
    )


def test_print_round_command_writes_every_document(tournament, tmp_path):
    call_command("print_round", tournament.pk, 1, out=str(tmp_path))
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(
        [
            "spielliste-runde-1-leer.pdf",
            "spielliste-runde-1-protokoll.pdf",
            "tischplan-runde-1.pdf",
            "rangliste-runde-1.pdf",
            "rangliste.pdf",
            "regeln-de.pdf",
            "regeln-en.pdf",
        ]
    )
    assert all(p.read_bytes().startswith(b"%PDF-") for p in tmp_path.iterdir())


def test_no_network_fetches():
    fetcher = LocalOnlyFetcher()
    with pytest.raises(ValueError):
        fetcher.fetch("http://127.0.0.1:9/style.css")
    with pytest.raises(ValueError):
        fetcher.fetch("https://example.org/font.woff")


def test_binokel_cards_are_named_in_each_language(tournament):
    german = squash(text_of(pdfs.rules_pdf(tournament)))
    english = squash(text_of(pdfs.rules_pdf(tournament, "en")))
    # the club's own words (seed 002 "Die Meldewerte": Pik Dame und Schellen Bube)
    assert "Pik-Dame +" in german and "Schellen-Bube" in german
    assert "Schippen-Ober" not in german
    assert "Queen of Spades +" in english and "Jack of Diamonds" in english
    assert "the Binokel twice" in english


def test_sheets_of_many_tables_keep_order_and_page_numbers(db):
    """Twelve tables: a page each, in table order, numbered 1 to 12 of 12."""
    tournament = make_tournament(players=36)  # 12 tables
    round_ = tournament.round_set.get(number=1)
    sheets = pages(text_of(pdfs.score_sheets_pdf(round_, False)))
    assert len(sheets) == 12
    for n, page in enumerate(sheets, start=1):
        assert f"Runde 1 · Tisch {n}" in page and f"Seite {n} von 12" in page
        assert f"Tisch {n + 1}" not in page


def test_filled_sheet_follows_the_dealer_the_clerk_entered(db, clerk):
    """At a 4-player table where the dealer sits out, the sheet shows who really sat out."""
    tournament = make_tournament(players=4)
    round_ = tournament.round_set.get(number=1)
    table = round_.tables.get()
    expected = scoring_services.dealer_for(table, 4, 1)
    dealer = (expected + 1) % 4  # the clerk corrected the rotation
    playing = scoring_services.active_positions(tournament, 4, dealer)
    entry = scoring_services.HandInput(
        number=1, dealer=dealer, declarer=playing[0], bid=300, outcome="played", trump="H",
        melds=dict(zip(playing, (140, 20, 60), strict=True)),
        tricks=dict(zip(playing, (175, 30, 45), strict=True)),
    )  # fmt: skip
    hand, evaluation = scoring_services.save_hand(table, entry, clerk)
    assert hand is not None, evaluation.errors
    sheets = __import__("printing.documents", fromlist=["x"]).score_sheets(round_, filled=True)
    row = sheets[0].pages[0][0]  # the running round also lists the games to come
    assert row.dealer == dealer and row.sitting_out == dealer
    assert row.cells[dealer][:2] == ("—", "—")
    assert [c[2] for c in row.cells] == hand.scores


def test_page_head_shows_names_with_special_characters_unescaped(db):
    tournament = make_tournament(players=3)
    tournament.name = "Müller & Söhne 'Cup'"
    tournament.save()
    text = text_of(pdfs.results_pdf(tournament))
    assert "Müller & Söhne 'Cup'" in text and "&amp;" not in text


def test_odd_round_numbers_are_400_or_404_not_500(client, tournament):
    url = reverse("printing:results", args=[tournament.pk])
    for value in ("²", "x", "-1", "99999999999999999999"):  # not a number: 400
        assert client.get(url + "?runde=" + value).status_code == 400, value
    for value in ("0", "4"):  # a number, but no round of this tournament
        assert client.get(url + "?runde=" + value).status_code == 404, value
