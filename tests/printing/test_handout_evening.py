"""The rules handout states the tournament's own settings ("Dieses Turnier"): rounds and
games, the table of four, the lost-game fee, the tie-break, missed rounds and who
confirms entries — each from the field the standings use, and changed when the field is.

The handout is read as the players read it: the PDF's text (pdftotext, poppler-utils).
New sentences are checked in German (their English translations live in ``locale/``);
sentences that already had a translation are checked in English too."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from io import BytesIO

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from printing import documents, handout, pdfs
from rules import PRESETS
from scoring.selectors import tie_break_note
from tests.factories.pdf import needs_pdftotext, prose_of
from tests.factories.tournaments import make_tournament
from tournament.models import Tournament

pytestmark = [pytest.mark.django_db, needs_pdftotext]

BEST_ROUND_DE = (
    "Bei gleicher Gesamtpunktzahl entscheidet die beste Einzelrunde, dann die kleinere "
    "Zahl verlorener Spiele; sind auch diese gleich, teilen sich die Spieler den Platz."
)


def page_count(pdf: bytes) -> int:
    return len(PdfReader(BytesIO(pdf)).pages)


def plain_evening() -> Tournament:
    """The defaults: 3 rounds of 12, dealer sits out at four, no fee, shared places,
    0 points for a missed round, no confirmation."""
    return make_tournament(players=3)


def busy_evening() -> Tournament:
    """Every setting away from its default."""
    tournament = make_tournament(
        players=3,
        rounds=2,
        games_per_round=15,
        four_table_mode=Tournament.FourTableMode.KREUZ,
        lost_game_fee=Decimal("0.50"),
        tie_break=Tournament.TieBreak.BEST_ROUND,
        missed_rounds=Tournament.MissedRounds.UNPLACED,
    )
    tournament.lost_game_fee_from = 5
    tournament.table_entry = Tournament.TableEntry.OPPONENT
    tournament.save()
    return tournament


def test_two_tournaments_each_handout_states_its_own_settings():
    plain, busy = plain_evening(), busy_evening()
    plain_text, busy_text = prose_of(pdfs.rules_pdf(plain)), prose_of(pdfs.rules_pdf(busy))

    assert "Dieses Turnier" in plain_text and "Dieses Turnier" in busy_text
    assert "3 Runden mit je 12 Spielen. An Vierertischen setzt jeweils der Geber aus." in plain_text
    assert (
        "2 Runden mit je 15 Spielen. An Vierertischen spielen je zwei gegen zwei (Kreuzbinokel)."
        in busy_text
    )

    # no fee: said plainly; a fee: amount in euros, from which lost game, what counts
    assert "Für verlorene Spiele gibt es keine Gebühr." in plain_text
    assert "Gebühr:" not in plain_text
    assert (
        "Gebühr: 0,50 € für jedes als Spielführer verlorene Spiel, vom fünften verlorenen "
        "Spiel an. Abschreiben zählt als verloren." in busy_text
    )
    assert "keine Gebühr" not in busy_text

    # the tie-break: shared places are stated too, not only the exception
    assert "Gleiche Punktzahl, gleicher Platz." in plain_text
    assert "beste Einzelrunde" not in plain_text
    assert BEST_ROUND_DE in busy_text
    assert "Gleiche Punktzahl, gleicher Platz." not in busy_text

    assert "Wer eine Runde verpasst, bekommt für sie 0 Punkte." in plain_text
    assert (
        "Wer eine Runde verpasst, steht ohne Platz und ohne Preis in der Gesamtwertung."
        in busy_text
    )

    # entry at the table is news for the players; the defaults say nothing about entry
    assert (
        "Eingetragen wird am Tisch (QR-Code der Tischkarte); ein Gegenspieler bestätigt "
        "jedes Spiel. Bis dahin steht „unbestätigt“ in der Rangliste." in busy_text
    )
    assert "Eingetragen wird" not in plain_text and "unbestätigt" not in plain_text


@pytest.mark.parametrize(
    ("changes", "before", "after"),
    [
        ({"rounds": 4, "games_per_round": 9}, "3 Runden mit je 12", "4 Runden mit je 9 Spielen"),
        ({"rounds": 1}, "3 Runden mit je 12", "1 Runde mit 12 Spielen."),
        (
            {"four_table_mode": Tournament.FourTableMode.KREUZ},
            "An Vierertischen setzt jeweils der Geber aus.",
            "An Vierertischen spielen je zwei gegen zwei (Kreuzbinokel).",
        ),
        (
            {"lost_game_fee": Decimal("1.00")},
            "keine Gebühr",
            "Gebühr: 1,00 € für jedes als Spielführer verlorene Spiel. Abschreiben zählt",
        ),
        ({"tie_break": Tournament.TieBreak.BEST_ROUND}, "gleicher Platz.", BEST_ROUND_DE),
        (
            {"missed_rounds": Tournament.MissedRounds.EXCLUDED},
            "bekommt für sie 0 Punkte",
            "Wer eine Runde verpasst, kommt nicht in die Gesamtwertung, nur in die seiner Runden.",
        ),
        (
            {"confirmation_required": True},
            "Wer eine Runde verpasst",  # (nothing on confirmation before)
            "Jede Eingabe prüft und bestätigt ein zweiter Schreiber. Bis dahin steht",
        ),
        (
            {"confirmation_required": True, "mark_unconfirmed": False},
            "Wer eine Runde verpasst",
            "Jede Eingabe prüft und bestätigt ein zweiter Schreiber.",
        ),
        (
            {"table_entry": Tournament.TableEntry.CLERK},
            "Wer eine Runde verpasst",
            "Eingetragen wird am Tisch (QR-Code der Tischkarte); ein Schreiber bestätigt.",
        ),
    ],
)
def test_the_downloaded_handout_changes_with_the_setting(
    client, changes, before, after, django_capture_on_commit_callbacks
):
    """Through the public address, so its cache follows the saved setting too."""
    tournament = plain_evening()
    url = reverse("printing:rules", args=[tournament.pk])
    old = prose_of(client.get(url).content)
    assert before in old and after not in old
    for field, value in changes.items():
        setattr(tournament, field, value)
    with django_capture_on_commit_callbacks(execute=True):
        tournament.save()
    new = prose_of(client.get(url).content)
    assert after in new
    if changes == {"confirmation_required": True, "mark_unconfirmed": False}:
        assert "unbestätigt" not in new  # nothing marked: nothing to look for


def test_the_tie_rule_is_the_one_the_results_list_prints(tournament):
    """One source: the handout's sentence is the results list's, for either tie-break and
    in either language."""
    for tie_break in Tournament.TieBreak.values:
        tournament.tie_break = tie_break
        for lang in ("de", "en"):
            with translation.override(lang):
                section = handout.tournament_section(tournament, lang)
                results_note = documents.results_list(tournament)["tie_break_note"]
            stated = next(s.text for s in section.notes if s.key == "tournament.tie_break")
            assert stated == results_note
            with translation.override(lang):
                assert stated == tie_break_note(tournament)


def test_the_shared_place_rule_is_printed_in_english_too(tournament):
    text = prose_of(pdfs.rules_pdf(tournament, "en"))
    assert "Equal points share a place." in text
    tournament.tie_break = Tournament.TieBreak.BEST_ROUND
    text = prose_of(pdfs.rules_pdf(tournament, "en"))
    assert "On equal total points the best single round decides" in text
    assert "Equal points share a place." not in text


def test_the_table_of_four_reads_as_a_sentence_in_english(tournament):
    """Issue 26: the choice's label began mid-sentence: "Table of four: Dealer sits out."."""
    text = prose_of(pdfs.rules_pdf(tournament, "en"))
    assert "At tables of four the dealer sits out each game." in text
    assert "Dealer sits out" not in text
    tournament.four_table_mode = Tournament.FourTableMode.KREUZ
    text = prose_of(pdfs.rules_pdf(tournament, "en"))
    assert "At tables of four two play against two (Kreuzbinokel)." in text


def test_table_entry_is_stated_only_where_table_links_work(tournament):
    """Table links enter single hands: a tournament entering round totals only refuses them,
    so its handout does not send players to the QR code."""
    tournament.table_entry = Tournament.TableEntry.OPPONENT
    with translation.override("de"):
        hands = handout.tournament_section(tournament).notes[-1]
        assert hands.key == "tournament.confirmation"
        assert "Eingetragen wird am Tisch" in hands.text
        tournament.entry_mode = Tournament.EntryMode.TOTALS
        keys = [s.key for s in handout.tournament_section(tournament).notes]
        assert "tournament.confirmation" not in keys
        tournament.confirmation_required = True
        totals = handout.tournament_section(tournament).notes[-1]
        assert totals.text.startswith("Jede Eingabe prüft und bestätigt ein zweiter Schreiber.")


def unsaved_evening(preset: str, name: str, **settings) -> Tournament:
    """A tournament on ``preset``'s ruleset with ``settings``, not saved (a handout needs
    no database)."""
    ruleset = PRESETS[preset]
    return Tournament(
        name=name,
        date=date(2026, 11, 21),
        ruleset_json=ruleset.to_dict(),
        ruleset_fingerprint=ruleset.fingerprint,
        **settings,
    )


def test_pairs_scoring_is_stated_only_for_a_pairs_event():
    evening = unsaved_evening(
        "partnership-250",
        "Paare",
        four_table_mode=Tournament.FourTableMode.KREUZ,
        event_type=Tournament.EventType.PAIRS,
    )
    with translation.override("de"):
        rounds = handout.tournament_section(evening).notes[0]
        assert rounds.key == "tournament.rounds"
        assert "Gewertet wird je Paar (feste Partner)." in rounds.text
        evening.event_type = Tournament.EventType.INDIVIDUAL
        assert "je Paar" not in handout.tournament_section(evening).notes[0].text


def test_a_rulesets_handout_alone_has_no_tournament_section(tournament):
    """Without a tournament (the preset's rules only) nothing of an evening is stated; the
    tournament's handout opens with its settings, none marked "Turnierregel"."""
    with translation.override("de"):
        alone = handout.build(tournament.ruleset, "de", tournament.four_table_mode)
        full = handout.for_tournament(tournament, "de")
    assert not any(s.key.startswith("tournament.") for s in alone.statements())
    assert "Dieses Turnier" not in [s.title for s in alone.sections]
    first = full.sections[0]
    assert first.title == "Dieses Turnier"
    assert [s.key for s in first.notes] == [
        "tournament.rounds",
        "tournament.lost_game_fee",
        "tournament.tie_break",
        "tournament.missed_rounds",
    ]
    assert not any(s.house_rule for s in first.notes)
    assert [s.title for s in full.sections[1:]] == [s.title for s in alone.sections]


@pytest.mark.parametrize("mode", ["kreuz", "sit-out"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_fullest_handout_with_every_setting_still_fits_one_page(lang, mode):
    """swabian-traditional has the most rules; with every setting at its longest the sheet
    is laid out tighter, still one A4 page at 10 pt, and states all of it."""
    evening = unsaved_evening(
        "swabian-traditional",
        "Regeltest",
        four_table_mode=mode,
        lost_game_fee=Decimal("0.50"),
        lost_game_fee_from=5,
        tie_break=Tournament.TieBreak.BEST_ROUND,
        missed_rounds=Tournament.MissedRounds.UNPLACED,
        table_entry=Tournament.TableEntry.OPPONENT,
    )
    pdf = pdfs.rules_pdf(evening, lang)
    assert page_count(pdf) == 1
    text = prose_of(pdf)
    assert "Bettel" in text
    if lang == "de":
        assert BEST_ROUND_DE in text and "vom fünften verlorenen Spiel an." in text
    sizes = []
    page = PdfReader(BytesIO(pdf)).pages[0]

    def visit(text, cm, tm, font, size):
        if text.strip():
            scale = (tm[0] ** 2 + tm[1] ** 2) ** 0.5 * (cm[0] ** 2 + cm[1] ** 2) ** 0.5
            y = tm[5] * cm[3] + cm[5]
            sizes.append((size * scale, y, text))

    page.extract_text(visitor_text=visit)
    top = max(y for size, y, _text in sizes if abs(size - 10.5) < 0.05)
    small = [p for p in sizes if 40 < p[1] <= top + 1 and p[0] < 9.95]
    assert not small, f"body text under 10 pt: {small[:3]}"
