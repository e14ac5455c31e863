"""Issue 37, items 9-18: the rules handout read sentence by sentence against the seeds.

Each test names its item; it asserts on the handout as printed (the PDF's text, ``prose_of``,
or the statements ``printing.handout`` builds) and failed before the item was fixed.
"""

from __future__ import annotations

import re
from dataclasses import fields

import pytest
from django.utils import translation

from printing import handout, pdfs
from rules import PRESETS, Ruleset, best_meld, score_request
from rules.errors import InvalidInput
from tests.factories.handouts import handout_pdf, tournament_for
from tests.factories.pdf import prose_of
from tournament.models import Tournament


def printed(preset: str, mode: str, lang: str = "de", **settings) -> str:
    """The rendered handout of a tournament on ``preset`` seating four as ``mode``."""
    tournament = tournament_for(PRESETS[preset])
    tournament.four_table_mode = mode
    for name, value in settings.items():
        setattr(tournament, name, value)
    return prose_of(pdfs.rules_pdf(tournament, lang))


def statements(preset: str, mode: str, lang: str = "de") -> dict[str, handout.Statement]:
    with translation.override(lang):
        return {s.key: s for s in handout.build(PRESETS[preset], lang, mode).statements()}


SIT_OUT_PRESETS = ["club-tournament", "swabian-traditional", "dabb-app"]


# ------------------------------------------------------------------------- 37.9


@pytest.mark.parametrize("preset", SIT_OUT_PRESETS)
def test_37_9_the_dealer_sitting_out_leaves_single_players_not_sides(preset):
    """Nobody plays in pairs when the dealer of four sits out: no "Partei" on the sheet."""
    german = printed(preset, "sit-out")
    assert "Partei" not in german, re.findall(r".{40}Partei.{20}", german)
    assert "Jeder Gegenspieler schreibt" in german
    assert "schreibt jeder Spieler Meldung plus Stichpunkte" in german
    assert "Verfehlt er das Gebot, verliert er " in german
    assert "Meldungen zählen nur, wenn der Spieler mindestens einen Stich macht." in german
    assert "Der Schuldige verliert" in german
    english = printed(preset, "sit-out", "en")
    assert not re.search(r"\bsides?\b", english), re.findall(r".{40}\bsides?\b.{20}", english)
    assert "Each opponent scores" in english
    # with partners the sheet still speaks of sides
    assert "Jede Gegenpartei schreibt" in prose_of(handout_pdf(preset))


# ------------------------------------------------------------------------ 37.10


def test_37_10_conceding_in_partnership_250_strikes_the_partners_shown_meld():
    """Seed 000 concedes after the melds are shown: the partner's meld lapses (he did meld)."""
    german = prose_of(handout_pdf("partnership-250"))
    assert "Die Meldung des Partners verfällt." in german
    assert "meldet auch nichts" not in german
    assert "His partner scores no melds either." in prose_of(handout_pdf("partnership-250", "en"))


# ------------------------------------------------------------------------ 37.11


def test_37_11_seed_001_gives_the_direction_only_the_rotation_is_the_tournaments():
    found = statements("swabian-traditional", "kreuz")
    assert not found["direction"].house_rule
    assert found["dealer_rotation"].house_rule
    text = prose_of(handout_pdf("swabian-traditional"))
    assert (
        "Gegeben, gereizt und gespielt wird gegen den Uhrzeigersinn (nach rechts). In dieser "
        "Richtung wechselt auch der Geber. (Turnierregel)" in text
    )
    # the house_rules of the preset no longer mark the direction, only the rotation is
    assert "direction" not in PRESETS["swabian-traditional"].house_rules
    # where the seed is silent on the direction it stays the tournament's choice
    assert statements("club-tournament", "kreuz")["direction"].house_rule


# ------------------------------------------------------------------------ 37.12


@pytest.mark.parametrize("preset", list(PRESETS))
def test_37_12_partners_are_each_credited_their_sides_points(preset):
    german = prose_of(handout_pdf(preset))
    assert "Jeder Partner bekommt die Punkte seiner Partei." in german
    assert "Each partner is credited with his side's points." in prose_of(handout_pdf(preset, "en"))
    if preset != "partnership-250":
        assert "Jeder Partner bekommt" not in printed(preset, "sit-out")
    # a pairs event ranks the pair, not each partner
    pairs = printed(preset, "kreuz", event_type=Tournament.EventType.PAIRS)
    assert "Gewertet wird je Paar" in pairs and "Jeder Partner bekommt" not in pairs


# ------------------------------------------------------------------------ 37.13


def test_37_13_the_durch_alone_is_announced_by_name():
    english = prose_of(handout_pdf("club-tournament", "en"))
    assert "The Durch is announced before the first lead; the opponents score nothing." in english
    assert "They are announced" not in english
    german = prose_of(handout_pdf("club-tournament"))
    assert "Der Durch wird vor dem ersten Ausspiel angesagt; die Gegner schreiben nichts." in german
    assert "Angesagt wird" not in german
    # with Durch and Bettel both just described, "both" names them
    assert "Both are announced before the first lead" in prose_of(
        handout_pdf("swabian-traditional", "en")
    )


# ------------------------------------------------------------------------ 37.14


@pytest.mark.parametrize(
    ("preset", "german", "english"),
    [
        ("swabian-traditional", "der Schippen-Ober zählt also bis zu dreimal", "Ober of Spades"),
        ("club-tournament", "die Pik-Dame zählt also bis zu dreimal", "Queen of Spades"),
        ("dabb-app", "der Schippe-Ober zählt also bis zu dreimal", "Ober of Spades"),
        ("partnership-250", "die Pik-Dame zählt also bis zu dreimal", "Queen of Spades"),
    ],
)
def test_37_14_the_meld_classes_come_with_an_example_in_the_rulesets_card_names(
    preset, german, english
):
    assert (
        "Eine Karte zählt je einmal in Farbmeldungen, im Binokel und bei den Gleichen: "
        + german
        + "."
    ) in prose_of(handout_pdf(preset))
    assert f"so the {english} may count up to three times." in prose_of(handout_pdf(preset, "en"))
    # the engine agrees: the Binokel's Ober in a pair, the Binokel and four of a kind at
    # once, but in one pair only
    ruleset = PRESETS[preset]
    result = best_meld(ruleset, ["KS", "QS", "JD", "QC", "QH", "QD"], "C")
    assert len([m for m in result.melds if "QS" in m.cards]) == 3
    assert best_meld(ruleset, ["KS", "QS", "QS"], "C").total == 20


# ------------------------------------------------------------------------ 37.15


def test_37_15_partnership_250_offers_no_dealer_sitting_out():
    """The engine refuses a hand of three for seed 000; so the sheet never seats three."""
    with pytest.raises(InvalidInput):
        score_request(
            PRESETS["partnership-250"],
            {"seats": 3, "declarer": 0, "bid": 250, "outcome": "played",
             "melds": [0, 0, 0], "tricks": [250, 0, 0]},
        )  # fmt: skip
    sit_out = statements("partnership-250", "sit-out")
    assert "four_table_mode" not in sit_out
    assert "partnerships" in sit_out and "deals.4" in sit_out
    assert [s.text for s in sit_out.values()] == [
        s.text for s in statements("partnership-250", "kreuz").values()
    ]
    assert "Geber aus" not in " ".join(s.text for s in sit_out.values())


# ------------------------------------------------------------------------ 37.16


@pytest.mark.parametrize("preset", ["club-tournament", "swabian-traditional"])
def test_37_16_the_flat_loss_of_seeds_001_and_002_is_marked_the_tournaments_reading(preset):
    for mode in ("kreuz", "sit-out"):
        assert statements(preset, mode)["lost"].house_rule
    text = prose_of(handout_pdf(preset))
    lost = re.search(r"Verloren: Verfehlt er das Gebot.*?\)", text).group(0)
    assert lost.endswith("(Turnierregel)")


def test_37_16_seeds_000_and_003_say_it_themselves():
    for preset in ("partnership-250", "dabb-app"):
        assert not statements(preset, "kreuz")["lost"].house_rule


# ------------------------------------------------------------------------ 37.17


def test_37_17_special_games_count_in_the_total_and_the_flag_stays_for_the_fingerprint():
    german = prose_of(handout_pdf("swabian-traditional"))
    assert "Durch und Bettel zählen wie jedes Spiel." in german
    assert "Durch and Bettel count like any other game." in prose_of(
        handout_pdf("swabian-traditional", "en")
    )
    assert "wie jedes Spiel" not in prose_of(handout_pdf("club-tournament"))  # not set there
    # the field is kept: it is part of every stored ruleset's fingerprint
    assert "specials_kept_apart" in {f.name for f in fields(Ruleset)}
    assert PRESETS["swabian-traditional"].fingerprint == "0a10a89551ac93d0"
    assert PRESETS["club-tournament"].fingerprint == "831f5b0a1123d82e"


# ------------------------------------------------------------------------ 37.18


@pytest.mark.parametrize(
    ("preset", "target"),
    [("swabian-traditional", 1500), ("partnership-250", 1500), ("dabb-app", 1000)],
)
def test_37_18_a_tournament_has_no_target_score(preset, target):
    assert f"Ein Spielziel von {target} Punkten gibt es nicht." in prose_of(handout_pdf(preset))
    assert f"There is no target of {target} points." in prose_of(handout_pdf(preset, "en"))


def test_37_18_no_target_sentence_where_the_seed_sets_none():
    assert PRESETS["club-tournament"].target_score is None
    assert "Spielziel" not in prose_of(handout_pdf("club-tournament"))
