"""Issue 11, part 3: the score sheets, results list and table plan are readable and complete
as printed.  Checked on the PDF itself: its text (pdftotext) and where each word sits on
the page (pdftotext -bbox, in points)."""

from __future__ import annotations

import re
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.urls import reverse
from django.utils import translation

from printing import documents, pdfs
from scoring import services as scoring_services
from scoring.services import close_round
from tests.factories.hands import play_hand
from tests.factories.pdf import Page, layout, needs_pdftotext, pages, squash, text_of
from tests.factories.tournaments import (
    LONG_CLUB,
    LONG_FIRST,
    LONG_LAST,
    make_tournament,
    mixed_tournament,
)
from tournament import services as tournament_services
from tournament.models import Player

pytestmark = [pytest.mark.django_db, needs_pdftotext]

MM = 72 / 25.4  # points per millimetre


def assert_inside_page(page: Page) -> None:
    """No word reaches into the outer 4 mm of the sheet (a printer's unprintable edge)."""
    for w in page.words:
        assert w.x0 >= 4 * MM and w.x1 <= page.width - 4 * MM, w
        assert w.y0 >= 4 * MM and w.y1 <= page.height - 4 * MM, w


# --------------------------------------------------------------------------- score sheets

SUBHEADERS = {"de": ["Meld.", "Stiche", "Pkt.", "Summe"], "en": ["Meld", "Tricks", "Pts", "Total"]}


@pytest.mark.parametrize("language", ["de", "en"])
def test_four_player_blank_sheet_has_room_for_four_digits_and_separate_headers(db, language):
    tournament, round_, four = mixed_tournament()
    with translation.override(language):
        pdf = pdfs.score_sheets_pdf(round_, filled=False)
    sheet_pages = layout(pdf)
    assert len(sheet_pages) == 2 == len(pages(text_of(pdf)))
    page = sheet_pages[four.number - 1]
    first = page.find(SUBHEADERS[language][0])
    assert first, "no sub-header on the 4-player sheet"
    headers = [w for w in page.line_of(first[0]) if w.text in SUBHEADERS[language]]
    assert [w.text for w in headers] == SUBHEADERS[language] * 4
    # meld, points and running total are at least 11.5 mm wide: four handwritten digits
    # and a sign; trick points have at most three digits (250) and no sign: 10.5 mm
    need = {SUBHEADERS[language][1]: 10.5 * MM}
    for left, right in zip(headers, headers[1:], strict=False):
        # never run together: a clear gap between neighbouring headers
        assert right.x0 - left.x1 >= 1 * MM, (left, right)
        wanted = (need.get(left.text, 11.5 * MM) + need.get(right.text, 11.5 * MM)) / 2
        assert right.centre - left.centre >= wanted - 0.2 * MM, (left, right)
    assert_inside_page(page)
    # layout mode keeps them apart too
    assert re.search(
        r"(Meld\.?\s+(Stiche|Tricks)\s+(Pkt\.|Pts)\s+(Summe|Total)\s*){4}", text_of(pdf)
    )


HEADERS = {"de": ["Spielführer", "Ausgang"], "en": ["Declarer", "Outcome"]}


@pytest.mark.parametrize("language", ["de", "en"])
def test_four_player_blank_sheet_keeps_headers_whole_and_rows_even(db, language):
    """Issue 26: 'Spielfüh-rer' and 'Aus-gang' were hyphenated, a dealer named
    'Maximiliane-Friederike' broke before her hyphen over three lines and made her rows
    taller than the others."""
    tournament, round_, four = mixed_tournament()
    dealer = four.seats.get(position=1).registration.player
    dealer.first_name = "Maximiliane-Friederike"
    dealer.save()
    with translation.override(language):
        pdf = pdfs.score_sheets_pdf(round_, filled=False)
    page = layout(pdf)[four.number - 1]
    words = [w.text for w in page.words]
    for header in HEADERS[language]:
        assert header in words, (header, words[:40])
    # the dealer's first name never breaks before its hyphen; at 8 pt not even its first
    # part fits the column, so her rows print her start number and initial (issue 37.24)
    assert "M." in words and "Maximiliane" not in words
    assert not any(w.startswith("-Friederike") for w in words)
    # the game numbers in the first column: every row has the same height
    # (right-aligned in the "Spiel" column; the dealer start numbers begin right of it)
    head = page.find({"de": "Spiel", "en": "Game"}[language])[0]
    rows = {
        int(w.text): w
        for w in page.words
        if w.text.isdigit() and w.x1 < head.x1 + 1 and w.y0 > head.y1
    }
    assert sorted(rows) == list(range(1, 13)), sorted(rows)
    tops = [rows[n].y0 for n in range(1, 13)]
    gaps = [b - a for a, b in zip(tops, tops[1:], strict=False)]
    assert max(gaps) - min(gaps) < 0.5, gaps
    # the Spielführer column has room for a handwritten start number and name
    header = page.find(HEADERS[language][0])[0]
    bid = page.find({"de": "Reiz", "en": "Bid"}[language])[0]
    assert bid.x0 - header.x0 >= 18 * MM


def test_long_names_and_venue_wrap_instead_of_being_cut(db, clerk):
    tournament, round_, four = mixed_tournament()
    four.scorer = 2  # the long name is the scorer's
    four.save()
    for filled in (False, True):
        pdf = pdfs.score_sheets_pdf(round_, filled=filled)
        sheet = layout(pdf)[four.number - 1]
        assert_inside_page(sheet)
        words = [w.text for w in sheet.words]
        # the name in the seat header, as scorer and at the signature: whole every time
        # (it may break after a hyphen)
        joined = " ".join(words).replace("- ", "-")
        assert joined.count(f"{LONG_FIRST} {LONG_LAST}") >= 3, joined
        assert "Neckar" in words  # the venue's end in the running head


def test_filled_sheet_outcome_marks_seats_and_direction(db, clerk, director):
    tournament, round_, four = mixed_tournament()
    won = play_hand(four, 1, 4, clerk, declarer_wins=True)
    play_hand(four, 2, 4, clerk, declarer_wins=False)
    # a correction gets the mark K in the marks column
    dealer = scoring_services.dealer_for(four, 4, 1)
    playing = scoring_services.active_positions(tournament, 4, dealer)
    corrected, evaluation = scoring_services.save_hand(
        four,
        scoring_services.HandInput(
            number=1, dealer=dealer, declarer=playing[0], bid=310, outcome="played",
            trump="H", melds=dict(zip(playing, (140, 20, 60), strict=True)),
            tricks=dict(zip(playing, (175, 30, 45), strict=True)),
        ),
        director,
        expected_version=won.version,
        reason="Reizwert laut Spielliste",
    )  # fmt: skip
    assert corrected is not None, evaluation.errors
    text = text_of(pdfs.score_sheets_pdf(round_, filled=True))
    page = pages(text)[four.number - 1]
    won_lines = [line for line in page.splitlines() if "gewonnen" in line]
    lost_lines = [line for line in page.splitlines() if "verloren" in line]
    assert len(won_lines) == 1 and won_lines[0].rstrip().endswith(" K")
    assert len(lost_lines) == 1 and not lost_lines[0].rstrip().endswith("K")
    assert page.index(won_lines[0]) < page.index(lost_lines[0])  # game 1 won, game 2 lost
    # the marks column has a header, the seats their numbers, the sheet its direction
    assert re.search(r"K/N", page)
    for n in range(1, 5):
        assert f"Platz {n}" in page
    # club-tournament (seed 002) plays counter-clockwise
    assert "Sitzordnung Platz 1 → 2 → 3 → 4, gespielt wird gegen den Uhrzeigersinn" in squash(page)
    three = pages(text)[1 - (four.number - 1)]
    assert "Platz 1 → 2 → 3, gespielt wird gegen den Uhrzeigersinn" in squash(three)
    assert "Platz 4" not in three


def test_the_sheet_of_a_running_round_keeps_every_game_row_and_says_provisional(db, clerk):
    """Issue 26: a running round's sheet showed 6 of 12 rows and final-looking totals under
    "amtliches Protokoll"."""
    tournament, round_, four = mixed_tournament()
    play_hand(four, 1, 4, clerk, declarer_wins=True)
    play_hand(four, 2, 4, clerk, declarer_wins=False)
    sheets = documents.score_sheets(round_, filled=True)
    sheet = next(s for s in sheets if s.table.pk == four.pk)
    rows = [row for page in sheet.pages for row in page]
    assert [row.number for row in rows] == list(range(1, tournament.games_per_round + 1))
    assert sheet.provisional
    page = squash(pages(text_of(pdfs.score_sheets_pdf(round_, filled=True)))[four.number - 1])
    assert "vorläufig: die Runde läuft noch" in page and "amtliches Protokoll" not in page
    assert "Zwischenstand (vorläufig)" in page and "Rundensumme" not in page
    close_round(round_, reason="Test: Abbruch")
    closed = next(s for s in documents.score_sheets(round_, filled=True) if s.table.pk == four.pk)
    assert not closed.provisional and len(closed.pages[0]) == 2  # the games entered


def test_filled_sheet_in_english(db, clerk):
    tournament, round_, four = mixed_tournament()
    play_hand(four, 1, 4, clerk, declarer_wins=False)
    with translation.override("en"):
        text = text_of(pdfs.score_sheets_pdf(round_, filled=True))
    page = squash(pages(text)[four.number - 1])
    assert "lost" in page and "C/A" in page and "Seat 4" in page
    assert "Seating Seat 1 → 2 → 3 → 4, play goes counter-clockwise" in page
    assert "Vereinsturnier" not in page and "Club tournament" in page


def test_every_printed_document_uses_one_minus_sign(db, clerk):
    """Issue 26 asked for one minus sign on sheets, lists and handout; issue 37.20 for the
    real one (U+2212) rather than the hyphen ("-1200")."""
    tournament, round_, four = mixed_tournament(
        preset="swabian-traditional"  # it has a Durch and a Bettel that can be lost
    )
    play_hand(four, 1, 4, clerk, declarer_wins=False)  # bid 600, lost: -1200 for the declarer
    sheet = text_of(pdfs.score_sheets_pdf(round_, filled=True))
    results = text_of(pdfs.results_pdf(tournament))
    handout = squash(text_of(pdfs.rules_pdf(tournament), layout=False))
    assert "\u22121200" in sheet and "\u22121200" in results
    assert "Verloren \u2212" in handout and "verloren \u22121000." in handout
    for text in (sheet, results, handout):
        assert not re.search(r"(?<![\w.])-\d", text), re.search(r".{20}(?<![\w.])-\d.{5}", text)


def test_direction_is_read_from_the_ruleset_in_one_place():
    assert documents.play_direction(SimpleNamespace()) == "clockwise"
    counter = SimpleNamespace(direction="counter-clockwise")
    assert documents.play_direction(counter) == "counter-clockwise"
    nested = SimpleNamespace(play=SimpleNamespace(direction="counter-clockwise"))
    assert documents.play_direction(nested) == "counter-clockwise"
    assert documents.seating_text(counter, 3) == (
        "Platz 1 → 2 → 3, gespielt wird gegen den Uhrzeigersinn"
    )


# --------------------------------------------------------------------------- results list


def big_field(extra: int = 150, consent=lambda i: i % 3 != 0):
    """12 players seated in round 1 (running) and ``extra`` more who join in round 2:
    several pages of results."""
    tournament = make_tournament(players=12, lost_game_fee=Decimal("0.50"))
    for i in range(extra):
        player = Player.objects.create(first_name=f"Spät{i}", last_name="Nachzügler", club="TSV")
        tournament_services.register(tournament, player, first_round=2, consent_public=consent(i))
    first = tournament.registrations.get(start_number=1)
    long = first.player
    long.first_name, long.last_name, long.club = LONG_FIRST, LONG_LAST, LONG_CLUB
    long.save()
    first.consent_public = True
    first.save()
    return tournament


def assert_numbered(text: str) -> int:
    result_pages = pages(text)
    for n, page in enumerate(result_pages, start=1):
        assert f"Seite {n} von {len(result_pages)}" in page
    return len(result_pages)


def test_results_list_is_provisional_on_every_page_while_a_round_runs(db):
    tournament = big_field()
    pdf = pdfs.results_pdf(tournament)
    text = text_of(pdf)
    count = assert_numbered(text)
    assert count >= 4
    for page in pages(text):
        assert "Vorläufig – Runde 1 läuft noch" in page
        assert re.search(r"Platz\s+Nr\.\s+Name\s+Verein\s+R1\s+R2\s+R3\s+Gesamt", page)
    assert "(vorläufig)" in pages(text)[0]
    with translation.override("en"):
        english = text_of(pdfs.results_pdf(tournament))
    assert all("Provisional – round 1 still in progress" in p for p in pages(english))
    # nothing is cut: the long name and club are whole, inside their columns
    first = layout(pdf)[0]
    assert_inside_page(first)
    verein = first.find("Verein")[0]
    r1 = first.find("R1")[0]
    name_words = [w for w in first.words if w.text in (LONG_FIRST, LONG_LAST)]
    assert len(name_words) == 2 and all(w.x1 < verein.x0 for w in name_words)
    # the club may break after a hyphen as well as at spaces
    tokens = re.findall(r"[^\s-]+-?", LONG_CLUB)
    # (in the table: under its header row, not in the notes above it)
    club_words = [
        w
        for w in first.words
        if (w.text in tokens or w.text in LONG_CLUB.split()) and w.y0 > verein.y0
    ]
    assert "".join(re.findall(r"[^\s-]+-?", " ".join(w.text for w in club_words))) == "".join(
        tokens
    )
    assert all(verein.x0 <= w.x0 and w.x1 < r1.x0 for w in club_words)
    # the totals and the fee keep inside the page, right of their headers' start
    gesamt = first.find("Gesamt")[0]
    gebuehr = first.find("Gebühr")[0]
    assert gebuehr.x1 <= first.width - 10 * MM
    assert any(w.text == "€" and w.x0 > gesamt.x1 for w in first.words)


def test_results_list_is_final_when_every_round_is_closed(db):
    tournament = make_tournament(players=6)
    tournament.rounds = 1
    tournament.save()
    round_ = tournament.round_set.get(number=1)
    tournament.round_set.exclude(number=1).delete()
    assert "Vorläufig" in text_of(pdfs.results_pdf(tournament))
    close_round(round_, reason="Test: ohne Spiele")
    text = text_of(pdfs.results_pdf(tournament))
    assert "Vorläufig" not in text and "vorläufig" not in text
    # between rounds: the next round is named
    two = make_tournament(players=6)
    close_round(two.round_set.get(number=1), reason="Test: ohne Spiele")
    assert "Vorläufig – Runde 2 ist noch nicht gespielt" in text_of(pdfs.results_pdf(two))
    assert documents.provisional_note(two, 1) == ""


@pytest.mark.parametrize("public", [True, False])
def test_results_of_thirty_players_fill_one_page_and_long_lists_fill_theirs(db, public):
    """WeasyPrint breaks the pages (one table, its header repeated).  30 players whose
    clubs (over 16 characters) and names (over 22) still print on one line each are one
    page, in the public list and in the prize-giving one; the old estimate counted them as
    two lines and broke after 25 and 21 rows, leaving page 1 40 % empty."""
    tournament = make_tournament(players=30, lost_game_fee=Decimal("0.50"))
    for i, player in enumerate(Player.objects.filter(registrations__tournament=tournament)):
        player.first_name, player.last_name = "Annelie", f"Schneiderhan{i:02d}"
        player.club = "Binokelfreunde Wernau"
        player.save()
    text = text_of(pdfs.results_pdf(tournament, public=public))
    assert assert_numbered(text) == 1
    assert "Schneiderhan29" in text or public

    long = big_field(extra=150)
    text = text_of(pdfs.results_pdf(long))
    assert assert_numbered(text) >= 3
    for page in pages(text):
        assert re.search(r"Platz\s+Nr\.\s+Name\s+Verein", page)
        assert "Vorläufig" in page


def test_prize_giving_version_names_everybody_for_the_director_only(db, client, clerk, director):
    tournament = big_field(extra=6)
    public = squash(text_of(pdfs.results_pdf(tournament)))
    assert "Vorname3" not in public and "Spät0" not in public
    url = reverse("printing:results", args=[tournament.pk]) + "?fassung=siegerehrung"
    assert client.get(url).status_code == 302
    client.force_login(clerk)
    assert client.get(url).status_code == 403
    client.force_login(director)
    response = client.get(url)
    assert response.status_code == 200
    assert "rangliste-siegerehrung.pdf" in response["Content-Disposition"]
    full = squash(text_of(response.content))
    for i in range(2, 13):
        assert f"Vorname{i} Nachname{i}" in full
    assert "Spät0 Nachzügler" in full and "Spät1 Nachzügler" in full
    assert "Siegerehrung" in full and "nicht aushängen" in full
    assert "Vorläufig – Runde 1 läuft noch" in full
    bad = reverse("printing:results", args=[tournament.pk]) + "?fassung=alles"
    assert client.get(bad).status_code == 404


# ----------------------------------------------------------------------------- table plan


def test_table_plan_sorts_the_german_way_and_prints_last_name_first(db):
    names = [
        ("Karl", "Knödler", True),
        ("Anna", "Kächele", True),
        ("Berta", "Jung", True),
        ("Emil", "Kaiser", True),
        ("Otto", "Öhler", True),
        ("Paul", "Ohm", True),
        ("Rosi", "Geheim", False),
        ("Hans", "Verborgen", False),
        ("Ute", "Abel", True),
    ]
    tournament = tournament_services.create_tournament(
        name="Sortiertest", date=__import__("datetime").date(2026, 11, 21)
    )
    for first, last, consent in names:
        player = Player.objects.create(first_name=first, last_name=last)
        tournament_services.register(tournament, player, consent_public=consent)
    round_ = tournament.round_set.get(number=1)
    tournament_services.draw_round(round_, seed=3)
    pdf = pdfs.table_plan_pdf(round_)
    text = text_of(pdf, layout=False)
    flat = squash(text)
    order = ["Abel", "Jung", "Kächele", "Kaiser", "Knödler", "Öhler", "Ohm"]
    first_names = dict((last, first) for first, last, _consent in names)
    for last in order:
        assert f"{last}, {first_names[last]} (" in flat
    # the list by name runs down the left column, then the right one
    page = next(p for p in layout(pdf) if p.find("Namen"))
    heading = next(w for w in page.find("Namen") if page.line_of(w)[0].text == "Nach")
    listed = [w for w in page.words if w.text.rstrip(",") in order and w.y0 > heading.y1]
    listed.sort(key=lambda w: (w.x0 > page.width / 2, w.y0))
    assert [w.text.rstrip(",") for w in listed] == order
    # players without consent: not by name anywhere, by start number in their own section
    assert "Geheim" not in text and "Verborgen" not in text
    unnamed = flat[flat.index("Ohne Namen, nach Startnummer") :]
    numbers = [r.start_number for r in tournament.registrations.all() if not r.consent_public]
    found = [int(n) for n in re.findall(r"Nr\. (\d+) Tisch", unnamed)]
    assert found == sorted(numbers)
    assert "9 Spieler" in flat
    assert len(pages(text)) == 1  # "Nach Namen" follows on the same page (issue 26)


def test_a_small_table_plan_is_one_page_and_its_title_does_not_wrap(db):
    """Issue 26: "Nach Namen" always began a new page (7 players on two nearly empty
    pages), and a long venue wrapped the running title ("Tischplan Runde / 1")."""
    tournament = make_tournament(players=7)
    tournament.venue = "Plochingen am Neckar, Gasthaus zum Goldenen Ochsen, Großer Festsaal oben"
    tournament.save()
    text = text_of(pdfs.table_plan_pdf(tournament.round_set.get(number=1)))
    assert len(pages(text)) == 1
    assert "Tischplan Runde 1" in pages(text)[0].splitlines()[0]


@pytest.mark.parametrize("filled", [True, False])
def test_names_and_trump_in_game_rows_stay_at_eight_point(db, clerk, monkeypatch, filled):
    """Issue 37.23 and 37.24: on four-seat sheets long first names shrank to 5.7 pt over
    three lines, the blank sheets' dealer column was 6.2–6.5 pt, and "Diamonds" broke
    inside the word. A row now prints a shorter form of the name (start number first, so
    it still names the player) or the suit's sign, never under 8 pt."""
    from printing.stamping import Stamper

    tournament, round_, four = mixed_tournament()
    for seat in four.seats.all():
        player = seat.registration.player
        player.first_name = "Anna-Katharina Magdalena Friederike"
        player.save()
    hand = play_hand(four, 1, 4, clerk)
    hand.trump = "D"
    hand.save(update_fields=["trump"])
    drawn: list[tuple[str, float, float]] = []
    fit = Stamper.fit

    def recording(self, box, text):
        chosen = fit(self, box, text)
        if not isinstance(text, str):  # a field with shorter forms: a game row's
            drawn.append((chosen[0], chosen[1], box.size))
        return chosen

    monkeypatch.setattr(Stamper, "fit", recording)
    with translation.override("en"):
        pdf = pdfs.score_sheets_pdf(round_, filled=filled)
    assert drawn, "no game row was stamped with its shorter forms"
    assert all(size >= 8 - 0.01 for _text, size, _box in drawn), drawn
    assert all(box >= 8 - 0.01 for _text, _size, box in drawn)
    texts = [text for text, _size, _box in drawn]
    start = four.seats.get(position=0).registration.start_number
    # the full name does not fit the column: a shorter form with its start number
    assert any(t.strip("\u2068\u2069").startswith(f"{start} ") for t in texts)
    if filled:
        assert "\u2666" in texts or "Diamonds" in texts
        page = squash(pages(text_of(pdf))[four.number - 1])
        assert "Diam-" not in page and "Diamond\n" not in page


@pytest.mark.parametrize(
    ("preset", "trump", "suit", "concede"),
    [
        ("club-tournament", "S", "Pik", "Abschreiben"),
        ("dabb-app", "D", "Bollen", "Abgehen"),
        ("swabian-traditional", "S", "Schippe", "Abgehen"),
    ],
)
def test_a_sheet_names_trump_and_conceding_in_its_rulesets_words(
    db, clerk, preset, trump, suit, concede
):
    """Issue 37.25: the club handout says "Pik" and "Abschreiben", the sheet said "Schippe"
    and "abgegangen". A filled sheet now uses the words of the ruleset's handout."""
    tournament = make_tournament(players=3, consent=lambda i: True, preset=preset)
    table = tournament.round_set.get(number=1).tables.get()

    def save(number, **kw):
        values = dict(
            number=number, dealer=scoring_services.dealer_for(table, 3, number), declarer=1,
            bid=300, outcome="played", trump=trump,
            melds={p: 0 for p in range(3)}, tricks={p: None for p in range(3)},
        )  # fmt: skip
        values.update(kw)
        hand, evaluation = scoring_services.save_hand(
            table, scoring_services.HandInput(**values), clerk
        )
        assert hand is not None, evaluation.errors

    save(1, outcome="abgehen", trump="")
    save(2, tricks={0: 100, 1: 75, 2: 75})
    sheet = squash(text_of(pdfs.score_sheets_pdf(table.round, filled=True)))
    assert f"{concede}, verloren" in sheet
    assert suit in sheet
    assert ("abgegangen" in sheet) is False


def test_right_to_left_names_are_joined_and_read_right_to_left_on_stamped_sheets(db):
    """Issue 37.26: Arabic names printed reversed and unjoined on stamped score sheets
    (reportlab draws code points left to right). They are shaped (joined letters) and put
    in visual order; the start number stays before the name; Greek, Cyrillic and Turkish
    print as they are (DejaVu Sans holds them all)."""
    import arabic_reshaper

    from printing.stamping import shaped, visual

    tournament, round_, four = mixed_tournament()
    names = {0: ("محمد", "الأحمد"), 1: ("Ελένη", "Παπαδοπούλου"), 3: ("Gülşen", "Öztürk")}
    for position, (first, last) in names.items():
        player = four.seats.get(position=position).registration.player
        player.first_name, player.last_name = first, last
        player.save()
    text = text_of(pdfs.score_sheets_pdf(round_, filled=False))
    number = four.seats.get(position=0).registration.start_number
    joined = arabic_reshaper.reshape("محمد الأحمد")
    # drawn joined and in visual order, which pdftotext reads back into typed order
    # (the letters' joined forms are what was drawn: unshaped letters never are)
    assert joined in text
    assert "Ελένη Παπαδοπούλου" in text and "Gülşen Öztürk" in text
    # the unjoined letters of the name in typed order are not what is printed
    assert "محمد الأحمد" not in text
    # the pieces: shaping joins, the visual order keeps the number on the left
    assert shaped("Anna") == "Anna" and visual("12 Anna") == "12 Anna"
    line = visual(f"{number} {shaped('محمد')}")
    assert line.startswith(f"{number} ") and line.endswith(shaped("محمد")[::-1])


def test_a_pairs_line_isolates_each_partners_name():
    """Issue 37.26: in the pairs results list "3 <Arabic name> / 4 Bernd" let the
    right-to-left name pull the next start number beside it. Each name is isolated."""
    from types import SimpleNamespace

    from printing.documents import PrintedPair

    members = [
        SimpleNamespace(start_number=3, name="محمد الأحمد", club="TSV"),
        SimpleNamespace(start_number=4, name="Bernd Huber", club=""),
        SimpleNamespace(start_number=5, name="", club=""),
    ]
    row = SimpleNamespace(
        rank=1, pair=2, members=members, round_cells=[10], total=10, won=1, lost=0, fee=None
    )
    printed = PrintedPair.of(row)
    assert printed.name == ("3 \u2068محمد الأحمد\u2069 / 4 \u2068Bernd Huber\u2069 / 5")
