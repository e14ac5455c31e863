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
