"""What every section of one handout reads: :class:`Context`, made once per handout by
:func:`printing.handout.build` from the ruleset, the language and the tournament's way of
seating four, and passed to each section's function."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from rules import Ruleset
from rules.cards import deck_ranks
from rules.ruleset import PlayRules

from .model import Statement
from .words import _Words


@dataclass(frozen=True)
class Context:
    """One handout's ruleset and language, and what the sections derive from them.

    ``ruleset`` and ``lang`` (``"de"`` or ``"en"``, the active translation);
    ``four_table_mode`` the tournament's choice for tables of four (``"sit-out"``,
    ``"kreuz"``) or ``None`` for the ruleset alone; ``words`` the ruleset's rank, suit
    and game words in ``lang`` (:class:`printing.handout.words._Words`, holding the
    club's :data:`printing.handout.words.TERMS`); ``sit_out`` whether the dealer of four
    sits out; ``in_play`` the table sizes of the hands played; ``teams`` whether sides of
    two partners play; ``ranks`` the pack's ranks, high to low; ``has_dabb`` whether any
    deal has a Dabb; ``low`` the low card's name; ``side`` ("links"/"rechts") where the
    first bidder sits from the dealer; ``clockwise`` the direction of play.  Make one with
    :meth:`of`.
    """

    ruleset: Ruleset
    lang: str
    four_table_mode: str | None
    words: _Words
    sit_out: bool
    in_play: tuple[int, ...]
    teams: bool
    ranks: tuple[str, ...]
    has_dabb: bool
    low: str
    side: str
    clockwise: bool

    @classmethod
    def of(cls, ruleset: Ruleset, lang: str = "de", four_table_mode: str | None = None) -> Context:
        """The context of ``ruleset``'s handout in ``lang`` for ``four_table_mode`` (as
        :func:`printing.handout.build` takes them; gettext must already be switched to
        ``lang``).  Raises ``ValueError`` for a pack size other than 40 or 48
        (:func:`rules.cards.deck_ranks`)."""
        w = _Words(ruleset, lang)
        # the dealer sits out only where the engine scores the hand of three that leaves
        # (``rules.score_request`` refuses a table size the ruleset does not deal): a ruleset
        # dealt only to four (seed 000) plays every hand of four in teams, so its sheet says
        # what the engine plays, not the tournament's setting (issue 37.15)
        sit_out = four_table_mode == "sit-out" and 3 in ruleset.seat_counts
        # the table sizes of the hands played: a tournament seats three or four (the dealer
        # of four sitting out plays a hand of three), so "Zu 2" is left off its sheet
        in_play = tuple(
            n
            for n in ruleset.seat_counts
            if four_table_mode is None or (n == 3 or (n == 4 and not sit_out))
        )
        # sides of two partners: without them (the dealer sitting out at four, or no
        # partnerships) the sheet speaks of single players, not of "Partei" (issue 37.9)
        teams = ruleset.partnerships and 4 in in_play
        return cls(
            ruleset=ruleset,
            lang=lang,
            four_table_mode=four_table_mode,
            words=w,
            sit_out=sit_out,
            in_play=in_play,
            teams=teams,
            ranks=deck_ranks(ruleset.deck_size),
            has_dabb=any(d.dabb for d in ruleset.deals),
            low=w.rank("9"),
            side={"left": _("links"), "right": _("rechts")}[ruleset.first_bidder],
            clockwise=ruleset.direction == "clockwise",
        )

    @property
    def play(self) -> PlayRules:
        """The ruleset's rules of trick play (:attr:`rules.Ruleset.play`)."""
        return self.ruleset.play

    def st(
        self, key: str, text: str, *paths: str, house: bool = False, run_on: bool = False
    ) -> Statement:
        """A statement, marked "Turnierregel" if ``key`` or one of ``paths`` is in the
        ruleset's ``house_rules``, or if ``house`` (a choice of the tournament itself);
        ``run_on`` prints it in the list item before it (:meth:`Section.note_items`)."""
        return Statement(key, text, house or self.ruleset.is_house_rule(key, *paths), run_on)
