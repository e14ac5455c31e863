"""Issue 27: the score sheets are a grid WeasyPrint lays out once per kind of page, with
each table's text stamped on (printing/sheets.py, printing/stamping.py).  Each kind of sheet
is compared page by page with the same pages laid out wholly by WeasyPrint, the way every
sheet was made before: the same words on every page (pypdf's text extraction), every word
within :data:`MAX_SHIFT` of its place (pdftotext -bbox), and at most :data:`MAX_DIFFERENT` of
the pixels different at 100 dpi (pdftoppm)."""

from __future__ import annotations

import io
import re
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from django.utils import translation
from PIL import Image, ImageChops
from pypdf import PdfReader

from printing import pdfs, sheets, stamping
from printing.render import render_pdf
from scoring import services as scoring_services
from tests.factories.hands import play_hand
from tests.factories.pdf import layout, needs_pdftotext
from tests.factories.tournaments import (
    close_round_anyway,
    make_tournament,
    mixed_tournament,
    running_table_of_eight,
)

pytestmark = [pytest.mark.django_db, needs_pdftotext]

#: share of a page's pixels that may differ at 100 dpi: the same glyphs rasterised from
#: another font subset at positions a fraction of a point apart; the sheets compared here
#: differ in under 0.7 % of their pixels
MAX_DIFFERENT = 0.015
#: a pixel differs when one of its colour channels differs by more than this (of 255):
#: antialiasing at the edge of a glyph shifted by a fraction of a pixel stays below it
CHANNEL_TOLERANCE = 96
#: how far a word may sit from its place in the reference, in points (about 0.25 mm; a
#: field put in the wrong cell is off by 20 points or more)
MAX_SHIFT = 0.75
BIDI = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def both_ways(round_, filled: bool, link_base: str | None = None) -> tuple[bytes, bytes]:
    """The round's sheets stamped (as printed) and laid out wholly by WeasyPrint from the
    same template and pages, the way every sheet was printed before issue 27 (kept here as
    the reference)."""
    pages, context = pdfs.score_sheet_pages(round_, filled, link_base)
    stamped = sheets.score_sheets_pdf(pages, context)
    return stamped, render_pdf(sheets.TEMPLATE, {**context, "pages": pages})


def words(pdf: bytes) -> list[Counter]:
    """Per page, its words as pypdf extracts them (invisible bidi isolates dropped)."""
    return [
        Counter(BIDI.sub("", page.extract_text() or "").split())
        for page in PdfReader(io.BytesIO(pdf)).pages
    ]


def images(pdf: bytes, folder: Path, name: str) -> list[Image.Image]:
    """Each page as an RGB image at 100 dpi."""
    subprocess.run(
        ["pdftoppm", "-r", "100", "-png", "-", str(folder / name)], input=pdf, check=True
    )
    return [Image.open(path).convert("RGB") for path in sorted(folder.glob(f"{name}-*.png"))]


def different(a: Image.Image, b: Image.Image) -> float:
    """Share of the pixels in which ``a`` and ``b`` differ (:data:`CHANNEL_TOLERANCE`)."""
    assert a.size == b.size
    diff = (
        ImageChops.difference(a, b)
        .convert("L")
        .point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    )
    return diff.histogram()[255] / (a.size[0] * a.size[1])


def misplaced_words(mine: list, theirs: list) -> list:
    """The reference's words (pdftotext -bbox) that have no word of the same text in
    ``mine`` within :data:`MAX_SHIFT` points of their place."""
    left = list(mine)
    missing = []
    for word in theirs:
        match = next(
            (
                w for w in left
                if BIDI.sub("", w.text) == BIDI.sub("", word.text)
                and abs(w.x0 - word.x0) <= MAX_SHIFT and abs(w.y1 - word.y1) <= MAX_SHIFT
            ),
            None,
        )  # fmt: skip
        if match is None:
            near = [
                (round(w.x0 - word.x0, 2), round(w.y1 - word.y1, 2))
                for w in mine
                if w.text == word.text and abs(w.y1 - word.y1) < 20
            ]
            missing.append((word, near))
        else:
            left.remove(match)
    return missing


def assert_like_reference(round_, filled: bool, link_base: str | None = None) -> list[float]:
    """The stamped sheets have the reference's pages and words, every word in its place,
    and look alike; returns each page's share of different pixels."""
    stamped, reference = both_ways(round_, filled, link_base)
    stamped_words, reference_words = words(stamped), words(reference)
    assert len(stamped_words) == len(reference_words)
    for number, (mine, theirs) in enumerate(
        zip(stamped_words, reference_words, strict=True), start=1
    ):
        assert mine == theirs, (number, mine - theirs, theirs - mine)
    for number, (mine, theirs) in enumerate(
        zip(layout(stamped), layout(reference), strict=True), start=1
    ):
        misplaced = misplaced_words(mine.words, theirs.words)
        assert not misplaced, (number, misplaced)
    with tempfile.TemporaryDirectory() as folder:
        shares = [
            different(a, b)
            for a, b in zip(
                images(stamped, Path(folder), "new"),
                images(reference, Path(folder), "old"),
                strict=True,
            )
        ]
    assert max(shares) <= MAX_DIFFERENT, shares
    return shares


def correct(table, number: int, clerk, reason: str):
    """Save game ``number`` of ``table`` (three players) once more, trump Schippen and 20
    more melded by the declarer: a correction, marked "K" and listed under the sheet."""
    hand = table.hands.get(number=number)
    playing = scoring_services.active_positions(table.round.tournament, 3, hand.dealer)
    entry = scoring_services.HandInput(
        number=number, dealer=hand.dealer, declarer=playing[0], bid=300, outcome="played",
        trump="S", melds=dict(zip(playing, (160, 20, 60), strict=True)),
        tricks=dict(zip(playing, (175, 30, 45), strict=True)),
    )  # fmt: skip
    saved, evaluation = scoring_services.save_hand(
        table, entry, clerk, expected_version=hand.version, reason=reason
    )
    assert saved is not None, evaluation.errors
    return saved


def first_table_played(clerk, games: int, played: int):
    """Six players at two tables, ``games`` games a round; games 1 to ``played`` entered at
    the first table: the tournament, round 1 and that table."""
    tournament = make_tournament(players=6, games_per_round=games)
    round_ = tournament.round_set.get(number=1)
    table = round_.tables.order_by("number").first()
    for number in range(1, played + 1):
        play_hand(table, number, 3, clerk)
    return tournament, round_, table


def assert_blank_and_filled_like_reference(round_, language: str) -> None:
    """The blank and the filled sheets of ``round_`` in ``language`` like the reference."""
    with translation.override(language):
        for filled in (False, True):
            assert_like_reference(round_, filled)


LANGUAGES = ["de", "en"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_three_player_tables_closed_with_a_correction(db, clerk, language):
    tournament = make_tournament(players=9)
    round_ = tournament.round_set.get(number=1)
    tables = list(round_.tables.order_by("number"))
    for number in range(1, 13):
        play_hand(tables[0], number, 3, clerk, declarer_wins=number % 4 != 0)
    for number in range(1, 5):
        play_hand(tables[1], number, 3, clerk)
    assert correct(tables[0], 2, clerk, "Meldung verschrieben").version == 2
    close_round_anyway(tournament)
    round_.refresh_from_db()
    assert_blank_and_filled_like_reference(round_, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_four_player_table_with_a_long_name_and_sitting_out(db, clerk, language):
    _tournament, round_, four = mixed_tournament()
    for number in range(1, 6):
        play_hand(four, number, 4, clerk)
    assert_blank_and_filled_like_reference(round_, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_two_against_two(db, clerk, language):
    tournament, _table = running_table_of_eight(clerk)
    round_ = tournament.round_set.get(number=1)
    assert_blank_and_filled_like_reference(round_, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_eighteen_games_over_two_pages(db, clerk, language):
    _tournament, round_, _table = first_table_played(clerk, games=18, played=16)
    assert_blank_and_filled_like_reference(round_, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_blank_sheets_with_the_tables_qr_code(db, language):
    tournament = make_tournament(players=7)
    tournament.table_entry = "opponent"
    tournament.save()
    round_ = tournament.round_set.get(number=1)
    with translation.override(language):
        shares = assert_like_reference(round_, False, "http://192.168.1.20:8000")
    # a QR code of other modules would differ in about half of its 26 mm square: over 0.4 %
    # of the page; the same code drawn as squares differs only along a few edges
    assert max(shares) < 0.002


@pytest.mark.parametrize("language", LANGUAGES)
def test_fifteen_games_with_a_long_corrections_list_run_onto_a_second_page(db, clerk, language):
    tournament, round_, table = first_table_played(clerk, games=15, played=15)
    reason = "Die Meldung des Spielführers war falsch zusammengezählt, am Tisch nachgerechnet"
    for number in range(1, 9):
        correct(table, number, clerk, reason)
    close_round_anyway(tournament)
    round_.refresh_from_db()
    with translation.override(language):
        _stamped, reference = both_ways(round_, True)
        # the first table's sheet runs over: one page more than there are tables
        assert len(words(reference)) == round_.tables.count() + 1
        assert_like_reference(round_, True)


# ------------------------------------------------------------------------- the grid itself


def test_a_round_of_one_kind_is_laid_out_once_and_the_grid_names_no_table(db):
    tournament = make_tournament(players=36)  # 12 tables of three
    round_ = tournament.round_set.get(number=1)
    pages, context = pdfs.score_sheet_pages(round_, False)
    stamped, grids, under = sheets.stamp(pages, context)
    assert len(grids) == 1 and len(PdfReader(io.BytesIO(grids[0])).pages) == 1
    assert under == [(0, 0)] * 12
    grid_text = PdfReader(io.BytesIO(grids[0])).pages[0].extract_text()
    assert "Spielführer" in grid_text and "Unterschrift" in grid_text  # the shared grid
    for word in ("Vorname", "Nachname", "Seite"):  # but nothing of one table
        assert word not in grid_text
    assert not re.search(r"Tisch \d|\d+ von \d+", grid_text)
    assert "Tisch 7" in words_of_page(stamped, 6) and "Tisch 8" not in words_of_page(stamped, 6)


def words_of_page(pdf: bytes, index: int) -> str:
    return PdfReader(io.BytesIO(pdf)).pages[index].extract_text()


def test_names_print_without_their_bidi_isolates(db, clerk):
    _tournament, round_, _four = mixed_tournament()
    pdf = pdfs.score_sheets_pdf(round_, True)
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Maximilian-Alexander" in text.replace("\n", "")
    assert not BIDI.search(text)  # not drawn at all, so no empty boxes either


def test_wrapping_follows_the_browsers_break_rules():
    face = stamping.font("DejaVu Sans", False)
    wide = face.width("Spiel 1: vorher 320 / 50 /", 7.5)
    # never before the slash, after a space; after a hyphen between letters
    lines = stamping.wrap("Spiel 1: vorher 320 / 50 / 110", face, 7.5, wide + 1, "words")
    assert lines == ["Spiel 1: vorher 320 / 50 /", "110"]
    lines = stamping.wrap("Spiel 1: vorher 320 / 50 / 110", face, 7.5, wide - 1, "words")
    assert lines == ["Spiel 1: vorher 320 /", "50 / 110"]
    name = "Maximilian-Alexander Württemberger"
    assert stamping.wrap(name, face, 7.5, face.width("Maximilian-Ale", 7.5), "words") == [
        "Maximilian-",
        "Alexander",
        "Württemberger",
    ]
    # a minus sign stays with its number; a word too long breaks only where allowed
    narrow = face.width("vorher", 7.5)
    assert stamping.wrap("vorher -2000", face, 7.5, narrow, "words") == ["vorher", "-2000"]
    assert stamping.wrap("Württemberger", face, 7.5, narrow, "words") == ["Württemberger"]
    parts = stamping.wrap("Württemberger", face, 7.5, narrow, "anywhere")
    assert "".join(parts) == "Württemberger" and len(parts) == 3
    assert all(face.width(part, 7.5) <= narrow for part in parts)
    assert stamping.wrap("", face, 7.5, narrow, "words") == []


def test_kerning_is_the_fonts_own():
    face = stamping.font("DejaVu Sans", False)
    assert face.kerning[("T", "o")] < 0  # "To" sits closer than its two letters
    plain = stamping.pdfmetrics.stringWidth("To", face.name, 10)
    assert face.width("To", 10) == pytest.approx(plain + 10 * face.kerning[("T", "o")])
    assert [run for _offset, run in face.runs("Tor", 10)] == ["T", "or"]


def test_a_font_the_stamper_does_not_know_is_an_error():
    with pytest.raises(ValueError, match="Comic Sans"):
        stamping.font("Comic Sans", False)


def test_a_text_too_long_for_its_box_shrinks_until_it_fits():
    """A game row cannot grow on a grid: a name that needs more lines than the cell holds
    is set smaller (the box: a dealer cell of a blank sheet at four, 18 mm × 7.4 mm)."""
    face = stamping.font("DejaVu Sans", False)
    box = stamping.Box(
        left=100, top=100, right=151, bottom=121, font=face, size=7.5, line_height=9.0,
        color=(0, 0, 0), align="left", wrap="anywhere",
    )  # fmt: skip
    page = stamping.GridPage(width=300, height=300, boxes={"name": box})
    name = "Maximiliane-Friederike von Württemberg-Hohenlohe"
    assert len(box.lines(name)) * box.line_height > box.height  # too long at 7.5 pt
    stamper = stamping.Stamper()
    stamper.page(page)
    stamper.text(box, name)
    (drawn,) = layout(stamper.finish())
    assert "".join(w.text for w in drawn.words) == name.replace(" ", "")
    for word in drawn.words:  # every word inside the box (pdftotext's boxes, 0.5 pt slack)
        assert box.left - 0.5 <= word.x0 and word.x1 <= box.right + 0.5, word
        assert box.top - 0.5 <= word.y0 and word.y1 <= box.bottom + 0.5, word
