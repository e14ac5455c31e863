"""The club's words of a ruleset in one language: rank and suit names, the name of the Dabb
and of conceding (:data:`TERMS`, by :attr:`rules.Ruleset.wording`), their English names,
and :class:`_Words`, which picks the right one for a ruleset and a language."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules import Ruleset

# The club's words: German rank and suit names, the name of the Dabb and of conceding.
TERMS = {
    "swabian": {
        "ranks": {
            "A": "Ass",
            "T": "Zehn",
            "K": "König",
            "Q": "Ober",
            "J": "Unter",
            "9": "Siebener",
        },
        "suits": {"C": "Kreuz", "S": "Schippe", "H": "Herz", "D": "Schellen"},
        "prefix": {"C": "Kreuz", "S": "Schippen", "H": "Herz", "D": "Schellen"},
        "dabb": "Dabb",
        "concede": "Abgehen",
    },
    "club": {
        "ranks": {
            "A": "Ass",
            "T": "Zehner",
            "K": "König",
            "Q": "Dame",
            "J": "Bube",
            "9": "Siebener",
        },
        "suits": {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Schellen"},
        "prefix": {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Schellen"},
        "dabb": "Tapp",
        "concede": "Abschreiben",
    },
    "app": {
        "ranks": {
            "A": "Ass",
            "T": "Zehn",
            "K": "König",
            "Q": "Ober",
            "J": "Buabe",
            "9": "Siebener",
        },
        "suits": {"C": "Kreuz", "S": "Schippe", "H": "Herz", "D": "Bollen"},
        "prefix": {"C": "Kreuz", "S": "Schippe", "H": "Herz", "D": "Bollen"},
        "dabb": "Dabb",
        "concede": "Abgehen",
    },
    "pinochle": {
        "ranks": {"A": "Ass", "T": "Zehn", "K": "König", "Q": "Dame", "J": "Bube", "9": "Neun"},
        "suits": {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"},
        "prefix": {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"},
        "dabb": "Dabb",
        "concede": "Aufgeben",
    },
}
RANKS_EN = {"A": "Ace", "T": "Ten", "K": "King", "Q": "Ober", "J": "Unter", "9": "Seven"}
RANKS_EN_FRENCH = {"Q": "Queen", "J": "Jack"}
SUITS_EN = {"C": "Clubs", "S": "Spades", "H": "Hearts", "D": "Diamonds"}


class _Words:
    """Rank, suit and game words of one ruleset in one language."""

    def __init__(self, ruleset: Ruleset, lang: str) -> None:
        self.lang = lang
        self.terms = TERMS[ruleset.wording]
        self.french = ruleset.wording in ("club", "pinochle")

    def rank(self, rank: str) -> str:
        """The name of ``rank`` (``"A"``, ``"T"``, ``"K"``, ``"Q"``, ``"J"``, ``"9"``)."""
        if self.lang == "en":
            if self.french and rank in RANKS_EN_FRENCH:
                return RANKS_EN_FRENCH[rank]
            if rank == "9" and self.terms["ranks"]["9"] == "Neun":
                return "Nine"
            return RANKS_EN[rank]
        return self.terms["ranks"][rank]

    @property
    def lows(self) -> str:
        """The low card in the plural: Siebener, Neunen; Sevens, Nines."""
        if self.lang == "en":
            return "Nines" if self.terms["ranks"]["9"] == "Neun" else "Sevens"
        return "Neunen" if self.terms["ranks"]["9"] == "Neun" else "Siebener"

    def suit(self, suit: str) -> str:
        """The name of ``suit`` (``"C"``, ``"S"``, ``"H"``, ``"D"``)."""
        return SUITS_EN[suit] if self.lang == "en" else self.terms["suits"][suit]

    def card(self, code: str) -> str:
        """The name of the card ``code`` (rank and suit, ``"QS"``): "Schippen-Ober",
        "Ober of Spades"."""
        if self.lang == "en":
            return f"{self.rank(code[0])} of {self.suit(code[1])}"
        return f"{self.terms['prefix'][code[1]]}-{self.rank(code[0])}"

    @property
    def dabb(self) -> str:
        """The club's name of the Dabb ("Dabb", "Tapp")."""
        return self.terms["dabb"]

    @property
    def concede(self) -> str:
        """The club's word for conceding; in English the German word in brackets."""
        word = self.terms["concede"]
        return _("Aufgeben (%(word)s)") % {"word": word} if self.lang == "en" else word
