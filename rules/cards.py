"""Cards, suits, ranks and decks of the Binokel pack.

Card codes follow ``shared/GLOSSARY.md``: rank then suit, e.g. ``"AH"`` (Herz-Ass),
``"QS"`` (Schippen-Ober), ``"JD"`` (Schellen-Unter).  Ranks, strongest first:
``A`` (Ass/Sau), ``T`` (Zehn), ``K`` (König), ``Q`` (Ober), ``J`` (Unter), and the low card,
written ``9`` or ``7`` (Siebener/Neun).  Suits: ``C`` (Kreuz/Eichel), ``S`` (Schippe),
``H`` (Herz), ``D`` (Schellen/Bollen).

The engine's canonical spelling of the low card is ``9``; ``7`` is accepted on input and
means the same card.  Every Binokel pack holds two copies of each card: 40 cards without the
low card, 48 with it (seed 001, "Karten" and "Geben").
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS: tuple[str, ...] = ("C", "S", "H", "D")
"""The four suits in the engine's display order (Kreuz, Schippe, Herz, Schellen)."""

RANKS: tuple[str, ...] = ("A", "T", "K", "Q", "J", "9")
"""The six ranks, strongest first (seed 001, "Stichkraft"; seed 003, rank table)."""

LOW_RANK = "9"

RANK_STRENGTH: dict[str, int] = {rank: len(RANKS) - i for i, rank in enumerate(RANKS)}
"""Trick-taking strength of each rank: A=6 > T=5 > K=4 > Q=3 > J=2 > 9=1."""

SUIT_NAMES_DE = {"C": "Kreuz", "S": "Schippe", "H": "Herz", "D": "Schellen"}
RANK_NAMES_DE = {"A": "Ass", "T": "Zehn", "K": "König", "Q": "Ober", "J": "Unter", "9": "Siebener"}
SUIT_NAMES_EN = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
RANK_NAMES_EN = {"A": "ace", "T": "ten", "K": "king", "Q": "queen", "J": "jack", "9": "nine"}


class CardError(ValueError):
    """A card code that is not a Binokel card (raised by :func:`parse_card`)."""


def parse_card(code: object) -> str:
    """Return the canonical code of one card.

    ``code`` is a string such as ``"AH"``, ``"th"`` or ``"7D"``; case is ignored and ``7``
    becomes ``9``.  Raises :class:`CardError` for anything else (wrong type, unknown rank
    or suit, extra characters).
    """
    if not isinstance(code, str):
        raise CardError(f"a card must be a string like 'AH', got {type(code).__name__}")
    text = code.strip().upper()
    if len(text) != 2:
        raise CardError(f"{code!r} is not a card code (rank then suit, e.g. 'AH')")
    rank, suit = text[0], text[1]
    if rank == "7":
        rank = LOW_RANK
    if rank not in RANK_STRENGTH:
        raise CardError(f"{code!r} has an unknown rank {text[0]!r} (A T K Q J 9/7)")
    if suit not in SUITS:
        raise CardError(f"{code!r} has an unknown suit {text[1]!r} (C S H D)")
    return rank + suit


#: Words for the suits as clubs write them (GLOSSARY: German and French suits, regional
#: names), lower case, each with its code; a trailing "n" ("Schippen-Ober") is also read.
SUIT_WORDS: dict[str, str] = {
    "kreuz": "C", "eichel": "C", "eicheln": "C", "treff": "C",
    "schippe": "S", "schippen": "S", "pik": "S", "blatt": "S", "grün": "S", "gruen": "S",
    "laub": "S",
    "herz": "H", "rot": "H",
    "schellen": "D", "schelle": "D", "bollen": "D", "karo": "D",
}  # fmt: skip

#: Words for the ranks (GLOSSARY), lower case, each with its code; the low card is "9"
#: whether it is called Neun or Siebener.
RANK_WORDS: dict[str, str] = {
    "ass": "A", "as": "A", "sau": "A", "daus": "A",
    "zehn": "T", "zehner": "T", "10": "T",
    "könig": "K", "koenig": "K", "kenig": "K",
    "ober": "Q", "dame": "Q",
    "unter": "J", "bube": "J",
    "neun": "9", "neuner": "9", "9": "9", "sieben": "9", "siebener": "9", "7": "9",
}  # fmt: skip


class CardWordError(CardError):
    """Text that :func:`parse_card_words` cannot read as cards; ``word`` is the piece of
    text it stopped at (for a message at the form field)."""

    def __init__(self, word: str, reason: str):
        super().__init__(f"{word!r}: {reason}")
        self.word = word
        self.reason = reason


def parse_card_words(text: str) -> list[str]:
    """The cards in ``text``, written as codes ("AH TC") or as the club says them
    ("Herz-Ass, Schippen-Ober", "Eichel Zehn", "Bollen 7"), in any mix, separated by
    spaces, commas, semicolons or hyphens; returns canonical codes in order (``["AH",
    "QS"]``).  A name is suit then rank, the order clubs use.  Raises
    :class:`CardWordError` naming the first word it cannot read (``reason``:
    ``"unknown"``, or ``"rank missing"`` after a suit word)."""
    words = [w for w in text.replace(",", " ").replace(";", " ").replace("-", " ").split() if w]
    cards: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        low = word.lower()
        suit = SUIT_WORDS.get(low)
        if suit is not None:
            following = words[i + 1].lower() if i + 1 < len(words) else ""
            rank = RANK_WORDS.get(following)
            if rank is None:
                shown = f"{word} {words[i + 1]}" if i + 1 < len(words) else word
                raise CardWordError(shown, "rank missing")
            cards.append(rank + suit)
            i += 2
            continue
        try:
            cards.append(parse_card(word))
        except CardError:
            raise CardWordError(word, "unknown") from None
        i += 1
    return cards


def card_name(code: str, language: str = "de") -> str:
    """The name of a card for people: "Herz-Ass", "Schippe-Ober" in German (the names of
    :data:`SUIT_NAMES_DE`, :data:`RANK_NAMES_DE`), "ace of hearts" in English."""
    rank, suit = code[0], code[1]
    if language == "en":
        return f"{RANK_NAMES_EN[rank]} of {SUIT_NAMES_EN[suit]}"
    return f"{SUIT_NAMES_DE[suit]}-{RANK_NAMES_DE[rank]}"


def deck_ranks(deck_size: int) -> tuple[str, ...]:
    """Ranks in a pack of ``deck_size`` cards (40: A T K Q J; 48: also the low card).

    Raises ``ValueError`` for any other size.
    """
    if deck_size == 40:
        return RANKS[:5]
    if deck_size == 48:
        return RANKS
    raise ValueError(f"a Binokel pack has 40 or 48 cards, not {deck_size}")


def make_deck(deck_size: int) -> list[str]:
    """Every card of the pack, two copies each, in suit then rank order (40 or 48 codes)."""
    return [rank + suit for suit in SUITS for rank in deck_ranks(deck_size) for _ in range(2)]


def sort_cards(cards: Iterable[str], trump: str | None = None) -> list[str]:
    """Cards sorted for display: trump suit first, then C S H D; strongest rank first."""
    order = list(SUITS)
    if trump in order:
        order.remove(trump)
        order.insert(0, trump)
    return sorted(cards, key=lambda c: (order.index(c[1]), -RANK_STRENGTH[c[0]]))
