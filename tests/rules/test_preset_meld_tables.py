"""The presets' meld tables, written out: each entry's id (stored with a hand's melds),
its German and English names (shown on the clerk's form, the handout and the standings;
terms from shared/GLOSSARY.md), its class (a card serves in one meld per class), its points
and where its cards come from. The tables are built by ``rules.presets._suit_melds`` and
``_kind_melds``; found by mutation testing (issue 29): a changed name, class or suit of a
meld left every test green."""

from __future__ import annotations

import pytest

import rules

FAMILY = "ATKQJ"
SUIT_MELDS = [
    ("pair", "Paar", "Pair", "suit", 20, "plain", "KQ"),
    ("trump-pair", "Paar in Trumpf", "Trump pair", "suit", 40, "trump", "KQ"),
    ("family", "Familie", "Family", "suit", 100, "plain", FAMILY),
    ("trump-family", "Familie in Trumpf", "Trump family", "suit", 150, "trump", FAMILY),
]
BINOKEL_MELDS = [
    ("binokel", "Binokel", "Binokel", "binokel", 40, "fixed", ("QS", "JD")),
    (
        "double-binokel",
        "Doppelter Binokel",
        "Double binokel",
        "binokel",
        300,
        "fixed",
        ("QS", "QS", "JD", "JD"),
    ),
]
FOUR_OF_A_KIND = [
    ("four-aces", "Vier Asse", "Four aces", "kind", 100, "each", "A"),
    ("four-kings", "Vier Könige", "Four kings", "kind", 80, "each", "K"),
    ("four-obers", "Vier Ober", "Four obers", "kind", 60, "each", "Q"),
    ("four-unters", "Vier Unter", "Four unters", "kind", 40, "each", "J"),
]


def eight_of_a_kind(aces: int, kings: int, obers: int, unters: int) -> list[tuple]:
    return [
        ("eight-aces", "Acht Asse", "Eight aces", "kind", aces, "each", "AA"),
        ("eight-kings", "Acht Könige", "Eight kings", "kind", kings, "each", "KK"),
        ("eight-obers", "Acht Ober", "Eight obers", "kind", obers, "each", "QQ"),
        ("eight-unters", "Acht Unter", "Eight unters", "kind", unters, "each", "JJ"),
    ]


def double_family(points: int) -> tuple:
    return (
        "double-family",
        "Doppelte Familie",
        "Double family",
        "suit",
        points,
        "any",
        "AATTKKQQJJ",
    )


DIX = ("dix", "Diß (Trumpf-Siebener)", "Dix", "suit", 10, "trump", "9")

EXPECTED = {
    "club-tournament": [
        *SUIT_MELDS,
        double_family(1000),
        *BINOKEL_MELDS,
        *FOUR_OF_A_KIND,
        *eight_of_a_kind(1000, 1000, 1000, 1000),
    ],
    "swabian-traditional": [
        *SUIT_MELDS,
        double_family(1500),
        DIX,
        *BINOKEL_MELDS,
        *FOUR_OF_A_KIND,
        *eight_of_a_kind(1000, 1000, 1000, 1000),
    ],
    "dabb-app": [
        *SUIT_MELDS,
        *BINOKEL_MELDS,
        *FOUR_OF_A_KIND,
        *eight_of_a_kind(1000, 600, 400, 200),
    ],
    "partnership-250": [
        ("trump-pair", "Königliche Hochzeit", "Royal marriage", "suit", 40, "trump", "KQ"),
        ("pair", "Einfache Hochzeit", "Marriage", "suit", 20, "plain", "KQ"),
        ("sequence", "Sequenz", "Sequence", "suit", 150, "trump", FAMILY),
        ("sequence-king", "Sequenz + König", "Sequence + king", "suit", 190, "trump", "ATKKQJ"),
        ("sequence-ober", "Sequenz + Dame", "Sequence + queen", "suit", 190, "trump", "ATKQQJ"),
        (
            "sequence-marriage",
            "Sequenz + Hochzeit",
            "Sequence + marriage",
            "suit",
            230,
            "trump",
            "ATKKQQJ",
        ),
        (
            "double-sequence",
            "Doppelte Sequenz",
            "Double sequence",
            "suit",
            1500,
            "trump",
            "AATTKKQQJJ",
        ),
        ("dix", "Kleiner Trumpf", "Dix", "suit", 10, "trump", "9"),
        *BINOKEL_MELDS,
        *FOUR_OF_A_KIND,
        *eight_of_a_kind(1000, 800, 600, 400),
    ],
}


@pytest.mark.parametrize("preset_id", EXPECTED)
def test_the_meld_table_of_each_preset(preset_id):
    table = [
        (
            m.id,
            m.label_de,
            m.label_en,
            m.klass,
            m.points,
            m.suit,
            m.cards if m.suit == "fixed" else m.ranks,
        )
        for m in rules.PRESETS[preset_id].melds
    ]
    assert table == EXPECTED[preset_id]


@pytest.mark.parametrize("preset_id", EXPECTED)
def test_a_suit_or_kind_meld_lists_no_cards_and_a_fixed_one_no_ranks(preset_id):
    for meld in rules.PRESETS[preset_id].melds:
        assert (meld.cards == ()) == (meld.suit != "fixed")
        assert (meld.ranks == "") == (meld.suit == "fixed")
