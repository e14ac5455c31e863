"""Card codes as a clerk or a file may write them (``rules.cards.parse_card``), and the
packs (``deck_ranks``, ``make_deck``). The codes follow shared/GLOSSARY.md: rank then suit.
Found by mutation testing (issue 29): the error words were checked only where the rank and
the suit were the same letter, so reading the wrong character went unnoticed."""

from __future__ import annotations

import pytest

from rules.cards import CardError, deck_ranks, make_deck, parse_card


@pytest.mark.parametrize(
    ("written", "canonical"),
    [("AH", "AH"), ("th", "TH"), (" qS ", "QS"), ("7D", "9D"), ("9c", "9C"), ("Jd", "JD")],
)
def test_a_code_is_read_whatever_its_case_spacing_or_low_card_spelling(written, canonical):
    assert parse_card(written) == canonical


@pytest.mark.parametrize(
    ("written", "words"),
    [
        (7, "a card must be a string like 'AH', got int"),
        (None, "a card must be a string like 'AH', got NoneType"),
        (["AH"], "a card must be a string like 'AH', got list"),
        ("A", "'A' is not a card code (rank then suit, e.g. 'AH')"),
        ("AHS", "'AHS' is not a card code (rank then suit, e.g. 'AH')"),
        ("", "'' is not a card code (rank then suit, e.g. 'AH')"),
        ("ZH", "'ZH' has an unknown rank 'Z' (A T K Q J 9/7)"),
        ("8s", "'8s' has an unknown rank '8' (A T K Q J 9/7)"),
        ("AX", "'AX' has an unknown suit 'X' (C S H D)"),
        ("tz", "'tz' has an unknown suit 'Z' (C S H D)"),
    ],
)
def test_a_bad_code_is_refused_with_what_is_wrong(written, words):
    with pytest.raises(CardError) as raised:
        parse_card(written)
    assert str(raised.value) == words
    assert isinstance(raised.value, ValueError)


def test_the_two_packs():
    assert deck_ranks(40) == ("A", "T", "K", "Q", "J")
    assert deck_ranks(48) == ("A", "T", "K", "Q", "J", "9")
    with pytest.raises(ValueError) as raised:
        deck_ranks(36)
    assert str(raised.value) == "a Binokel pack has 40 or 48 cards, not 36"


def test_a_pack_holds_two_copies_of_each_card_in_suit_then_rank_order():
    deck = make_deck(40)
    assert len(deck) == 40 and len(make_deck(48)) == 48
    assert deck[:10] == ["AC", "AC", "TC", "TC", "KC", "KC", "QC", "QC", "JC", "JC"]
    assert deck[10:12] == ["AS", "AS"] and deck[-2:] == ["JD", "JD"]
    assert make_deck(48)[10:12] == ["9C", "9C"]


def test_card_words_read_codes_and_the_clubs_names_in_any_mix():
    from rules.cards import CardWordError, card_name, parse_card_words

    assert parse_card_words("Herz-Ass, Schippen-Ober; Eichel Zehn  Bollen-7 kd") == [
        "AH", "QS", "TC", "9D", "KD",
    ]  # fmt: skip
    assert parse_card_words("Pik Dame Karo Bube Kreuz König") == ["QS", "JD", "KC"]
    assert parse_card_words("") == []
    for text, word, reason in (
        ("Herz", "Herz", "rank missing"),
        ("Schippe-Asss", "Schippe Asss", "rank missing"),
        ("Herz-Ass XY", "XY", "unknown"),
    ):
        with pytest.raises(CardWordError) as caught:
            parse_card_words(text)
        assert (caught.value.word, caught.value.reason) == (word, reason)
    assert card_name("QS") == "Schippe-Ober" and card_name("9D", "en") == "nine of diamonds"
