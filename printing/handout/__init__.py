"""The rules handout ("Regelblatt"), written from a ruleset's parameters.

Every statement on the sheet is driven by a parameter of the :class:`rules.Ruleset` the
tournament scores with, and says only what that parameter makes true: switch a parameter
off and its sentence disappears.  A statement whose value the project or the tournament
chose where the preset's source text is silent (:attr:`rules.Ruleset.house_rules`) is
marked "Turnierregel".  The words follow the club the preset comes from
(:attr:`rules.Ruleset.wording`: "Abschreiben" and "Tapp" in the club rules of seed 002,
Dame/Bube/Neun in the partnership game of seed 000).  The wording is the project's own;
German first, English through Django's i18n (call :func:`build` inside
``translation.override``).

The handout of a tournament (:func:`for_tournament`) opens with the section "Dieses
Turnier": the tournament's own settings (rounds and games, the table of four, the
lost-game fee, the tie-break, missed rounds, confirmation of entries), read from the very
fields the standings use.  A ruleset's handout alone (:func:`build`) has no such section.

The package builds the sheet one section at a time, each section a function of one
:class:`Context` (the ruleset, the language, the club's words and what follows from the
way of seating four): :mod:`.dealing` (players and cards; bidding, Dabb and trump),
:mod:`.melds`, :mod:`.play` (trick play; counting), :mod:`.hand_results` (a hand's
score; penalties), :mod:`.specials` (special games), and :mod:`.this_tournament` (the
section "Dieses Turnier").  :func:`build` assembles them; the sheet's building blocks
are in :mod:`.model`, the club's words in :mod:`.words`.
"""

from __future__ import annotations

from rules import Ruleset
from tournament.models import Tournament

from .context import Context
from .dealing import bidding_section, players_section
from .hand_results import penalties_section, scoring_section
from .melds import melds_section
from .model import MINUS, Handout, Section, Statement, Table
from .play import counting_section, trick_play_section
from .specials import special_games_section
from .this_tournament import tournament_section
from .words import RANKS_EN, RANKS_EN_FRENCH, SUITS_EN, TERMS

__all__ = [
    "MINUS",
    "RANKS_EN",
    "RANKS_EN_FRENCH",
    "SUITS_EN",
    "TERMS",
    "Context",
    "Handout",
    "Section",
    "Statement",
    "Table",
    "bidding_section",
    "build",
    "counting_section",
    "for_tournament",
    "melds_section",
    "penalties_section",
    "players_section",
    "scoring_section",
    "special_games_section",
    "tournament_section",
    "trick_play_section",
]


def build(ruleset: Ruleset, lang: str = "de", four_table_mode: str | None = None) -> Handout:
    """The handout of ``ruleset`` in ``lang`` (``"de"`` or ``"en"``; gettext must be
    switched to the same language by the caller).

    ``four_table_mode`` is the tournament's choice for tables of four (``"sit-out"``: the
    dealer sits out each game; ``"kreuz"``: partnerships); ``None`` describes the ruleset
    alone.  Which statement rests on which line of the preset's seed text is pinned in
    ``tests/printing/test_handout_seeds.py``.

    The sections, in order: :func:`players_section`, :func:`bidding_section`,
    :func:`melds_section`, :func:`trick_play_section`, :func:`counting_section`,
    :func:`scoring_section`, :func:`penalties_section` (left out when the ruleset has no
    penalty) and :func:`special_games_section`, each given the one :class:`Context`.
    Raises ``ValueError`` for a pack size other than 40 or 48.
    """
    c = Context.of(ruleset, lang, four_table_mode)
    sections: list[Section] = [
        players_section(c),
        bidding_section(c),
        melds_section(c),
        trick_play_section(c),
        counting_section(c),
        scoring_section(c),
    ]
    penalties = penalties_section(c)
    if penalties is not None:
        sections.append(penalties)
    sections.append(special_games_section(c))
    return Handout(
        name=ruleset.name_en if lang == "en" else ruleset.name_de,
        fingerprint=ruleset.fingerprint,
        version=ruleset.version,
        sections=sections,
    )


def for_tournament(tournament: Tournament, lang: str = "de") -> Handout:
    """The handout of ``tournament``: :func:`build` for its frozen ruleset and its
    ``four_table_mode``, opened by :func:`tournament_section`."""
    handout = build(tournament.ruleset, lang, tournament.four_table_mode)
    handout.sections.insert(0, tournament_section(tournament, lang))
    return handout
