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
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules import Ruleset, best_meld
from rules.cards import SUITS, deck_ranks
from rules.ruleset import Bonus, MeldSpec, Penalty
from scoring.selectors import tie_break_note
from tournament import formatting
from tournament.formatting import euro, ordinal_word
from tournament.models import Tournament

# the one minus sign of every printed document and page, U+2212 as the lists and sheets
# print it (issue 37.20; issue 26 had asked for one sign, then the hyphen everywhere)
MINUS = formatting.MINUS

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


@dataclass
class Statement:
    """One rule on the sheet: ``key`` names it for tests (the parameter behind it),
    ``text`` is the sentence, ``house_rule`` marks a value the tournament chose
    ("Turnierregel"); ``run_on`` prints a list item's statement in the item before it
    (a rule's details, each marked on its own, without a bullet of their own)."""

    key: str
    text: str
    house_rule: bool = False
    run_on: bool = False


@dataclass
class Table:
    """A small table: ``head`` cells and ``rows`` of cells; the last ``numeric`` columns
    are right-aligned.  A cell ``None`` is covered by the cell before it (colspan)."""

    head: list[str]
    rows: list[list[str | None]]
    numeric: int = 1

    def cells(self) -> list[list[tuple[str, int, bool]]]:
        """Rows as ``(text, colspan, numeric)`` for the template."""
        width = len(self.head)
        out = []
        for row in self.rows:
            cells: list[tuple[str, int, bool]] = []
            for i, cell in enumerate(row):
                if cell is None:
                    text, span, _num = cells[-1]
                    cells[-1] = (text, span + 1, True)
                else:
                    cells.append((cell, 1, i >= width - self.numeric))
            out.append(cells)
        return out


@dataclass
class Section:
    """One block of the sheet: a heading, paragraphs (each a list of statements printed
    as one paragraph), tables, and list items (one statement each)."""

    title: str
    paragraphs: list[list[Statement]] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[Statement] = field(default_factory=list)

    def note_items(self) -> list[list[Statement]]:
        """The list items: each note, with the ``run_on`` notes after it in its item."""
        items: list[list[Statement]] = []
        for note in self.notes:
            if note.run_on and items:
                items[-1].append(note)
            else:
                items.append([note])
        return items


@dataclass
class Handout:
    """The whole sheet: ``name``, ``fingerprint`` and ``version`` of the ruleset, and its
    sections."""

    name: str
    fingerprint: str
    version: int
    sections: list[Section]

    def statements(self) -> Iterator[Statement]:
        """Every statement of the sheet, in reading order (tables left out)."""
        for section in self.sections:
            for paragraph in section.paragraphs:
                yield from paragraph
            yield from section.notes

    def statement(self, key: str) -> Statement | None:
        """The statement with ``key``, or ``None`` if the sheet does not state it."""
        return next((s for s in self.statements() if s.key == key), None)


class _Words:
    """Rank, suit and game words of one ruleset in one language."""

    def __init__(self, ruleset: Ruleset, lang: str) -> None:
        self.lang = lang
        self.terms = TERMS[ruleset.wording]
        self.french = ruleset.wording in ("club", "pinochle")

    def rank(self, rank: str) -> str:
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
        return SUITS_EN[suit] if self.lang == "en" else self.terms["suits"][suit]

    def card(self, code: str) -> str:
        if self.lang == "en":
            return f"{self.rank(code[0])} of {self.suit(code[1])}"
        return f"{self.terms['prefix'][code[1]]}-{self.rank(code[0])}"

    @property
    def dabb(self) -> str:
        return self.terms["dabb"]

    @property
    def concede(self) -> str:
        """The club's word for conceding; in English the German word in brackets."""
        word = self.terms["concede"]
        return _("Aufgeben (%(word)s)") % {"word": word} if self.lang == "en" else word


def _penalty(p: Penalty) -> str:
    """What a side loses, as the object of "verliert": "den Reizwert", "das Doppelte des
    Reizwerts", "den Reizwert und 100 Punkte"."""
    if p.bid_factor == 1:
        base = _("den Reizwert")
    elif p.bid_factor == 2:
        base = _("das Doppelte des Reizwerts")
    else:
        base = _("das %(n)sfache des Reizwerts") % {"n": p.bid_factor}
    if p.extra:
        base += " " + _("und %(n)s Punkte") % {"n": p.extra}
    return base


def _others_score(bonus: str | None, teams: bool = True) -> str:
    """The other sides' score after a lost game or a misdiscard: "Jede Gegenpartei
    schreibt Meldung, Stichpunkte und 100 Punkte dazu." (a side of partners scores the
    bonus once, :func:`rules.score_hand`); without ``teams`` each opponent on his own
    ("Jeder Gegenspieler ...")."""
    if not teams:
        if bonus:
            return _("Jeder Gegenspieler schreibt Meldung, Stichpunkte und %(b)s dazu.") % {
                "b": bonus
            }
        return _("Jeder Gegenspieler schreibt Meldung und Stichpunkte.")
    if bonus:
        return _("Jede Gegenpartei schreibt Meldung, Stichpunkte und %(b)s dazu.") % {"b": bonus}
    return _("Jede Gegenpartei schreibt Meldung und Stichpunkte.")


def _bonus(b: Bonus, seats: tuple[int, ...] = ()) -> str | None:
    """What each other side adds, as the object of "schreibt ... dazu": "100 Punkte",
    "den halben Reizwert ...", or for a bonus per player the amount for each table size
    in ``seats`` (the players in the hand, as :meth:`rules.ruleset.Bonus.points` counts
    them: "10 Punkte je Spieler im Spiel, zu dritt 30, zu viert 40"); ``None`` for no
    bonus."""
    if b.kind == "fixed":
        return _("%(n)s Punkte") % {"n": b.amount}
    if b.kind == "per-player":
        text = _("%(n)s Punkte je Spieler im Spiel") % {"n": b.amount}
        sizes = {3: _("zu dritt %(n)s"), 4: _("zu viert %(n)s"), 2: _("zu zweit %(n)s")}
        values = [sizes[n] % {"n": b.points(0, n)} for n in seats if n in sizes]
        return f"{text} ({', '.join(values)})" if values else text
    if b.kind == "half-bid":
        return _("den halben Reizwert (auf Zehner aufgerundet)")
    return None


def _rundgang(ruleset: Ruleset) -> tuple[int, int | None, int | None] | None:
    """The engine's value of a Rundgang (King + Ober in every suit, Kreuz trump): alone,
    what it adds beside the trump family (Kreuz) and beside a plain family (Herz); a
    family the ruleset does not have gives ``None``.  ``None`` if the ruleset has no
    pairs.  The Rundgang is no meld of its own (seed 001 "Rundgang"): each value is
    :func:`rules.best_meld` of the cards minus the family's own points."""
    if not any(m.ranks == "KQ" for m in ruleset.melds):
        return None
    pairs = [r + s for s in SUITS for r in "KQ"]
    alone = best_meld(ruleset, pairs, "C").total

    def beside(suit: str, kind: str) -> int | None:
        family = next((m for m in ruleset.melds if m.suit == kind and m.ranks == "ATKQJ"), None)
        if family is None:
            return None
        cards = [*pairs, "A" + suit, "T" + suit, "J" + suit]
        return best_meld(ruleset, cards, "C").total - family.points

    return alone, beside("C", "trump"), beside("H", "plain")


def _meld_tables(ruleset: Ruleset, w: _Words) -> list[Table]:
    """Suit melds (plain and trump value side by side), Binokel, and the melds of four or
    eight equal cards as a grid by rank."""
    suit_rows: dict[str, list[str | None]] = {}
    rows: list[list[str | None]] = []
    kinds: dict[str, dict[int, int]] = {}
    families = [m for m in ruleset.melds if m.ranks == "ATKQJ"]
    # the family by its plain name ("Familie", not "Familie in Trumpf"; seed 000's Sequenz
    # is made only in trump)
    family = next((m for m in families if m.suit != "trump"), families[0] if families else None)
    binokel = next((m for m in ruleset.melds if m.suit == "fixed" and len(m.cards) == 2), None)
    for spec in ruleset.melds:
        label = spec.label_en if w.lang == "en" else spec.label_de
        if spec.suit == "each":
            kinds.setdefault(spec.ranks[0], {})[len(spec.ranks)] = spec.points
        elif spec.suit == "fixed":
            cards = " + ".join(w.card(c) for c in _distinct(spec.cards))
            if binokel is not None and sorted(spec.cards) == sorted(binokel.cards * 2):
                # the Binokel's cards twice: "der Binokel zweimal", one line shorter in
                # the narrow column than the cards again (issue 37: room on the sheet)
                name = binokel.label_en if w.lang == "en" else binokel.label_de
                cards = _("der %(binokel)s zweimal") % {"binokel": name}
            elif len(spec.cards) > len(_distinct(spec.cards)):
                cards = _("%(cards)s, je zweimal") % {"cards": cards}
            rows.append([label, cards, str(spec.points), None])
        else:
            row = suit_rows.get(spec.ranks)
            if row is None:
                cards = _meld_ranks(spec, w, family)
                row = [label, cards, "–", "–"]
                suit_rows[spec.ranks] = row
                rows.append(row)
            if spec.suit == "any":
                row[0], row[2], row[3] = label, str(spec.points), None
            elif spec.suit == "plain":
                row[2] = str(spec.points)
                row[0] = _join_labels(label, row[0]) if row[3] != "–" else label
            else:
                row[3] = str(spec.points)
                if row[2] != "–":
                    row[0] = _join_labels(row[0], label)
    tables = [Table([_("Meldung"), _("Karten"), _("Farbe"), _("Trumpf")], rows, numeric=2)]
    if kinds:
        ranks = [r for r in "AKQJ" if r in kinds]
        head = [_("Gleiche"), *(w.rank(r) for r in ranks)]
        grid = [
            [_("vier (je eine Farbe)") if n == 1 else _("acht (alle)")]
            + [str(kinds[r].get(n, "–")) for r in ranks]
            for n in (1, 2)
            if any(n in kinds[r] for r in ranks)
        ]
        tables.append(Table(head, grid, numeric=len(ranks)))
    return tables


def _join_labels(plain: str, trump: str) -> str:
    """The label of a meld row with a plain and a trump value: the plain meld's name, or
    both names when the trump meld has one of its own (seed 000: "Einfache Hochzeit" and
    "Königliche Hochzeit"), not just the plain name with "in Trumpf"/"Trump"."""
    if plain.lower() in trump.lower():
        return plain
    return f"{plain} / {trump}"


def _distinct(cards: tuple[str, ...]) -> list[str]:
    seen: list[str] = []
    for c in cards:
        if c not in seen:
            seen.append(c)
    return seen


def _meld_ranks(spec: MeldSpec, w: _Words, family: MeldSpec | None = None) -> str:
    """The cards of a suit meld by rank: a family as "Ass bis Unter" (the ranks in the
    order the sheet lists them first), a meld of the ``family``'s cards twice as "die
    Familie zweimal"; each one line in the table's narrow column (issue 37: room for the
    sentences it added)."""
    ranks = [w.rank(r) for r in spec.ranks]
    if spec.ranks == "ATKQJ":
        return _("%(high)s bis %(low)s") % {"high": w.rank("A"), "low": w.rank("J")}
    if family is not None and sorted(spec.ranks) == sorted(family.ranks * 2):
        label = family.label_en.lower() if w.lang == "en" else family.label_de
        return _("die %(family)s zweimal") % {"family": label}
    if len(spec.ranks) >= 10:
        return _("je zwei von %(ranks)s") % {"ranks": ", ".join(_distinct(tuple(ranks)))}
    return ", ".join(ranks)


def _meld_classes_example(ruleset: Ruleset, w: _Words) -> str | None:
    """An example of the meld classes in the ruleset's own card names (issue 37.14): the
    Binokel's Ober may count up to three times, in a pair with its King, in the Binokel
    and among four Ober.  ``None`` if the ruleset lacks one of those melds
    (``tests/printing/test_handout_issue37.py`` checks the example with
    :func:`rules.best_meld`)."""
    binokel = ruleset.meld("binokel")
    queen = next((c for c in binokel.cards if c[0] == "Q"), None) if binokel else None
    pair = any(m.ranks == "KQ" and m.suit in ("plain", "any") for m in ruleset.melds)
    four = any(m.suit == "each" and m.ranks == "Q" for m in ruleset.melds)
    if queen is None or not pair or not four:
        return None
    card = w.card(queen)
    # the article by the German rank's gender (die Dame, der Ober); "the" in English
    article = (_("die %(card)s") if w.rank("Q") == "Dame" else _("der %(card)s")) % {"card": card}
    return _("%(card)s zählt also bis zu dreimal") % {"card": article}


def build(ruleset: Ruleset, lang: str = "de", four_table_mode: str | None = None) -> Handout:
    """The handout of ``ruleset`` in ``lang`` (``"de"`` or ``"en"``; gettext must be
    switched to the same language by the caller).

    ``four_table_mode`` is the tournament's choice for tables of four (``"sit-out"``: the
    dealer sits out each game; ``"kreuz"``: partnerships); ``None`` describes the ruleset
    alone.  Which statement rests on which line of the preset's seed text is pinned in
    ``tests/printing/test_handout_seeds.py``.
    """
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
    ranks = deck_ranks(ruleset.deck_size)
    has_dabb = any(d.dabb for d in ruleset.deals)
    low = w.rank("9")

    def st(
        key: str, text: str, *paths: str, house: bool = False, run_on: bool = False
    ) -> Statement:
        """A statement, marked "Turnierregel" if ``key`` or one of ``paths`` is in the
        ruleset's ``house_rules``, or if ``house`` (a choice of the tournament itself);
        ``run_on`` prints it in the list item before it (:meth:`Section.note_items`)."""
        return Statement(key, text, house or ruleset.is_house_rule(key, *paths), run_on)

    sections: list[Section] = []
    side = {"left": _("links"), "right": _("rechts")}[ruleset.first_bidder]
    clockwise = ruleset.direction == "clockwise"

    # 1. players, cards, seating ------------------------------------------------------
    s = Section(_("Spieler und Karten"))
    if ruleset.deck_size == 48:
        with_lows = w.lows if lang == "en" or w.lows == "Neunen" else "Siebenern"
        pack = _("%(n)s Karten (mit %(low)s)") % {"n": 48, "low": with_lows}
    else:
        pack = _("%(n)s Karten (ohne %(low)s)") % {"n": 40, "low": w.lows}
    s.paragraphs.append(
        [
            st(
                "deck_size",
                _("%(pack)s: %(ranks)s in %(suits)s, jede Karte zweimal.")
                % {
                    "pack": pack,
                    "ranks": ", ".join(w.rank(r) for r in ranks),
                    "suits": ", ".join(w.suit(x) for x in SUITS),
                },
            )
        ]
    )
    deals = []
    for deal in ruleset.deals:
        if deal.seats not in in_play:
            continue
        if deal.dabb:
            text = _("Zu %(seats)s: je %(cards)s Karten, %(dabb)s in den %(name)s.") % {
                "seats": deal.seats,
                "cards": deal.cards_per_player,
                "dabb": deal.dabb,
                "name": w.dabb,
            }
        else:
            text = _("Zu %(seats)s: je %(cards)s Karten.") % {
                "seats": deal.seats,
                "cards": deal.cards_per_player,
            }
        deals.append(st(f"deals.{deal.seats}", text))
    s.paragraphs.append(deals)
    seating = [
        st(
            "direction",
            (
                (
                    _("Gegeben, gereizt und gespielt wird im Uhrzeigersinn (nach links).")
                    if clockwise
                    else _(
                        "Gegeben, gereizt und gespielt wird gegen den Uhrzeigersinn (nach rechts)."
                    )
                )
                if has_dabb
                else _("Gegeben, geboten und gespielt wird im Uhrzeigersinn (nach links).")
                if clockwise
                else _("Gegeben, geboten und gespielt wird gegen den Uhrzeigersinn (nach rechts).")
            ),
        ),
        st(
            "dealer_rotation",
            _("In dieser Richtung wechselt auch der Geber."),
            # a statement of its own (issue 37.11): a seed may give the direction (seed
            # 001 "Geben", "Ausspielen"), but who deals which game of a round the
            # tournament fixes, its score sheets name the dealer of every game
            house=True,
        ),
    ]
    if sit_out and 4 in ruleset.seat_counts:
        seating.append(
            st(
                "four_table_mode",
                _("Am Vierertisch setzt der Geber aus; die anderen drei spielen wie zu dritt."),
                # the tournament's choice: the seeds that seat four play in teams
                house=True,
            )
        )
    elif ruleset.partnerships:
        seating.append(
            st(
                "partnerships",
                _(
                    "Zu viert spielen die Gegenübersitzenden als eine Partei zusammen; ihre "
                    "Meldungen und Stichpunkte zählen gemeinsam."
                ),
            )
        )
    s.paragraphs.append(seating)
    sections.append(s)

    # 2. bidding, Dabb, trump ---------------------------------------------------------
    s = Section(
        _("Reizen, %(dabb)s und Trumpf") % {"dabb": w.dabb} if has_dabb else _("Bieten und Trumpf")
    )
    bidding = [
        st(
            "first_bidder",
            (
                _("Der Spieler %(side)s vom Geber reizt zuerst.")
                if has_dabb
                else _("Der Spieler %(side)s vom Geber bietet zuerst.")
            )
            % {"side": side},
        ),
        st(
            "min_bid",
            (
                _("Gereizt wird ab %(min)s in Schritten von %(step)s.")
                if has_dabb
                else _("Geboten wird ab %(min)s in Schritten von %(step)s.")
            )
            % {"min": ruleset.min_bid, "step": ruleset.bid_step},
            "bid_step",
        ),
    ]
    if ruleset.max_raise is not None:
        bidding.append(
            st(
                "max_raise",
                _("Erhöht wird um höchstens %(n)s.") % {"n": ruleset.max_raise},
            )
        )
    bidding.append(
        st(
            "all_pass",
            {
                "first-bidder-must-bid": _(
                    "Der erste Bieter muss mindestens das Mindestgebot reizen."
                ),
                "dealer-takes-minimum": _("Passen alle, spielt der Geber zum Mindestgebot."),
                "redeal": _("Passen alle, wird neu gegeben."),
            }[ruleset.all_pass],
        )
    )
    s.paragraphs.append(bidding)
    if has_dabb:
        dabb = [
            st(
                "dabb",
                _(
                    "Wer am höchsten reizt, ist Spielführer: er nimmt den %(dabb)s auf, bestimmt "
                    "Trumpf und drückt ebenso viele Karten."
                )
                % {"dabb": w.dabb},
            )
        ]
        if ruleset.discard_melds != "free":
            text = _("Er darf keine Karte drücken, die er meldet.")
            if ruleset.meld("dix") is not None:
                text += " " + _(
                    "Ausgenommen ist der Trumpf-%(low)s: er zählt trotzdem als gemeldet, das "
                    "Drücken muss er ansagen."
                ) % {"low": low}
            dabb.append(st("discard_melds", text))
        s.paragraphs.append(dabb)
    else:
        s.paragraphs.append(
            [st("declarer", _("Wer am höchsten bietet, ist Spielführer und bestimmt Trumpf."))]
        )
    if ruleset.partner_exchange:
        s.paragraphs.append(
            [
                st(
                    "partner_exchange",
                    _(
                        "Dann gibt ihm sein Partner genau %(n)s Karten und bekommt %(n)s "
                        "zurück, ohne Absprache; die Gegner tauschen nicht."
                    )
                    % {"n": ruleset.partner_exchange},
                )
            ]
        )
    sections.append(s)

    # 3. melds ------------------------------------------------------------------------
    s = Section(_("Melden"))
    when = (
        _("Gemeldet wird nach dem Drücken, vor dem ersten Stich.")
        if has_dabb
        else _("Gemeldet wird nach dem Kartentausch, vor dem ersten Stich.")
        if ruleset.partner_exchange
        else _("Gemeldet wird vor dem ersten Stich.")
    )
    s.paragraphs.append([st("meld_time", when)])
    s.tables = _meld_tables(ruleset, w)
    family = next((m for m in ruleset.melds if m.ranks == "ATKQJ"), None)
    # the pair inside a family: a plain one beside a family in any suit; beside a family
    # made only in trump (seed 000's Sequenz) the trump pair, the Königliche Hochzeit
    want_trump = family is not None and family.suit == "trump"
    pair = next(
        (m for m in ruleset.melds if m.ranks == "KQ" and (m.suit == "trump") == want_trump),
        None,
    )
    example = _meld_classes_example(ruleset, w)
    classes_text = (
        _(
            "Eine Karte zählt je einmal in Farbmeldungen, im Binokel und bei den Gleichen: "
            "%(example)s."
        )
        % {"example": example}
        if example
        else _("Eine Karte zählt je einmal in Farbmeldungen, im Binokel und bei den Gleichen.")
    )
    classes = [st("meld_classes", classes_text)]
    if family is not None and pair is not None:
        classes.append(
            st(
                "family_pair",
                _("König und %(ober)s einer %(family)s zählen nicht noch als %(pair)s.")
                % {
                    "ober": w.rank("Q"),
                    "family": family.label_en.lower() if lang == "en" else family.label_de,
                    "pair": pair.label_en.lower() if lang == "en" else pair.label_de,
                },
            )
        )
    classes += [
        st(
            "no_tens",
            _("Zehner und %(low)s bilden keine Gleichen.") % {"low": w.lows}
            if ruleset.deck_size == 48
            else _("Zehner bilden keine Gleichen."),
            "melds.eight-tens",
        ),
    ]
    s.paragraphs.append(classes)
    extra = []
    rundgang = _rundgang(ruleset)
    if rundgang is not None and ruleset.wording in ("swabian", "club"):
        alone, beside_trump, beside_plain = rundgang
        extra.append(
            st(
                "rundgang",
                _("Rundgang (ein Paar in jeder Farbe): %(alone)s.") % {"alone": alone},
            )
        )
        if beside_trump is not None and beside_plain is not None:
            extra.append(
                st(
                    "rundgang_family",
                    _(
                        "Neben der Trumpf-Familie zählt er %(trump)s, neben einer anderen "
                        "Familie %(plain)s."
                    )
                    % {"trump": beside_trump, "plain": beside_plain},
                )
            )
    if ruleset.meld_requires_trick:
        extra.append(
            st(
                "meld_requires_trick",
                _("Meldungen zählen nur, wenn die Partei mindestens einen Stich macht.")
                if teams
                else _("Meldungen zählen nur, wenn der Spieler mindestens einen Stich macht."),
            )
        )
    if ruleset.scoreless_without_trick_points:
        extra.append(
            st(
                "scoreless_without_trick_points",
                _("Eine Partei ohne Stichpunkte schreibt gar nichts, auch keine Meldung.")
                if teams
                else _("Ein Spieler ohne Stichpunkte schreibt gar nichts, auch keine Meldung."),
            )
        )
    if extra:
        s.paragraphs.append(extra)
    sections.append(s)

    # 4. trick play -------------------------------------------------------------------
    s = Section(_("Stichregeln"))
    play = ruleset.play
    lead = (
        _("Den ersten Stich spielt der Spieler %(side)s vom Geber aus.") % {"side": side}
        if play.first_lead == "forehand"
        else _("Den ersten Stich spielt der Spielführer aus.")
    )
    s.paragraphs.append(
        [st("first_lead", lead + " " + _("Wer den Stich macht, spielt zum nächsten aus."))]
    )
    if play.must_follow_suit:
        s.notes.append(
            st("must_follow_suit", _("Farbzwang: Wer die ausgespielte Farbe hat, muss bedienen."))
        )
    heading = {
        "none": None,
        "led-suit": _(
            "Stichzwang: Wer bedient, muss überbieten, wenn er kann, auch wenn schon getrumpft ist."
        ),
        "winnable": _(
            "Stichzwang: Wer bedient, muss überbieten, wenn er kann (nicht mehr, wenn schon "
            "getrumpft ist)."
        ),
        "win": _("Stichzwang: Jeder muss den Stich gewinnen, wenn es die Regeln erlauben.")
        + (
            " " + _("Das gilt auch, wenn der eigene Partner den Stich gerade hält.")
            if teams
            else ""
        ),
    }[play.heading]
    if heading:
        s.notes.append(st("heading", heading))
    if play.must_trump:
        s.notes.append(
            st("must_trump", _("Trumpfzwang: Wer nicht bedienen kann, muss Trumpf spielen."))
        )
    if play.must_overtrump:
        s.notes.append(
            st(
                "must_overtrump",
                _("Wer trumpft, muss einen liegenden Trumpf überbieten, wenn er kann."),
            )
        )
    s.notes.append(
        st(
            "first_played_wins",
            _("Von zwei gleichen Karten gewinnt die zuerst gespielte."),
        )
    )
    sections.append(s)

    # 5. counting ---------------------------------------------------------------------
    s = Section(_("Zählen"))
    cp = ruleset.card_points
    counting = [
        st(
            "card_points",
            _("Augen: %(values)s.")
            % {"values": ", ".join(f"{w.rank(r)} {cp.value(r)}" for r in ranks)},
        )
    ]
    if ruleset.last_trick_bonus:
        counting.append(
            st(
                "last_trick_bonus",
                _("Der letzte Stich zählt %(bonus)s extra; zusammen %(total)s Stichpunkte.")
                % {"bonus": ruleset.last_trick_bonus, "total": ruleset.trick_points_total},
            )
        )
    else:
        counting.append(
            st(
                "last_trick_bonus",
                _("Zusammen gibt es %(total)s Stichpunkte.")
                % {"total": ruleset.trick_points_total},
            )
        )
    if has_dabb:
        counting.append(
            st(
                "discards_count",
                _("Die gedrückten Karten zählen für den Spielführer."),
            )
        )
    if ruleset.rounding == "tens":
        counting.append(st("rounding", _("Stichpunkte werden auf Zehner gerundet.")))
        counting.append(
            st(
                "rounding_fives",
                _("Eine 5 wird aufgerundet.")
                if ruleset.rounding_fives == "up"
                else _(
                    "Enden zwei Parteien auf 5, rundet nur der Spielführer (sonst die Partei "
                    "mit mehr Punkten) auf."
                )
                if teams
                else _(
                    "Enden zwei Spieler auf 5, rundet nur der Spielführer (sonst der Spieler "
                    "mit mehr Punkten) auf."
                ),
            )
        )
        if ruleset.bid_checked_exact:
            counting.append(
                st(
                    "bid_checked_exact",
                    _("Ob das Gebot erreicht ist, entscheiden die ungerundeten Punkte."),
                )
            )
    else:
        counting.append(st("rounding", _("Stichpunkte werden genau geschrieben, ohne Rundung.")))
    s.paragraphs.append(counting)
    sections.append(s)

    # 6. results of a hand ------------------------------------------------------------
    s = Section(_("Wertung"))
    s.notes.append(
        st(
            "won",
            _(
                "Gewonnen: Erreicht der Spielführer mit Meldung und Stichpunkten sein Gebot, "
                "schreibt jede Partei Meldung plus Stichpunkte."
            )
            if teams
            else _(
                "Gewonnen: Erreicht der Spielführer mit Meldung und Stichpunkten sein Gebot, "
                "schreibt jeder Spieler Meldung plus Stichpunkte."
            ),
        )
    )
    lost = ruleset.lost
    if teams:
        text = _("Verloren: Verfehlt er das Gebot, verliert seine Partei %(p)s") % {
            "p": _penalty(lost.declarer)
        }
        text += (
            _("; ihre Meldung zählt trotzdem, ihre Stichpunkte nicht.")
            if lost.declarer_keeps_melds
            else _("; ihre Meldung und Stichpunkte zählen nicht.")
        )
    else:
        text = _("Verloren: Verfehlt er das Gebot, verliert er %(p)s") % {
            "p": _penalty(lost.declarer)
        }
        text += (
            _("; seine Meldung zählt trotzdem, seine Stichpunkte nicht.")
            if lost.declarer_keeps_melds
            else _("; seine Meldung und Stichpunkte zählen nicht.")
        )
    text += " " + _others_score(_bonus(lost.opponents_bonus, in_play), teams)
    # seeds 001 and 002 strike the melds and charge double the bid but leave the trick
    # points open; the flat loss is the tournament's reading there, marked through the
    # preset's house_rules ("lost", "lost.declarer"; issue 37.16, docs/rules-engine.md)
    s.notes.append(st("lost", text, "lost.declarer", "lost.opponents_bonus"))
    if ruleset.abgehen is not None:
        ab = ruleset.abgehen
        text = _("%(word)s: Der Spielführer gibt auf") % {"word": w.concede}
        text += _(" und nennt die Farbe, in der er abgeht.") if ab.names_trump else "."
        text += " " + (
            _("Seine Partei verliert %(p)s; er schreibt keine Meldung.")
            if teams
            else _("Er verliert %(p)s und schreibt keine Meldung.")
        ) % {"p": _penalty(ab.declarer)}
        bonus = _bonus(ab.opponents_bonus, in_play)
        if teams:
            text += " " + (
                _("Jede Gegenpartei schreibt ihre Meldung und %(b)s dazu.") % {"b": bonus}
                if bonus
                else _("Jede Gegenpartei schreibt ihre Meldung.")
            )
        else:
            text += " " + (
                _("Jeder Gegenspieler schreibt seine Meldung und %(b)s dazu.") % {"b": bonus}
                if bonus
                else _("Jeder Gegenspieler schreibt seine Meldung.")
            )
        if ab.only_when_unreachable:
            text += " " + (
                _(
                    "Erlaubt nur, wenn das Gebot höher ist als die Meldung seiner Partei plus "
                    "alle %(total)s Stichpunkte."
                )
                if teams
                else _(
                    "Erlaubt nur, wenn das Gebot höher ist als seine Meldung plus alle "
                    "%(total)s Stichpunkte."
                )
            ) % {"total": ruleset.trick_points_total}
        if ab.declarer_when_unreachable is not None:
            text += " " + _(
                "War das Gebot nicht mehr zu erreichen, verliert er stattdessen %(p)s."
            ) % {"p": _penalty(ab.declarer_when_unreachable)}
        s.notes.append(st("abgehen", text))
        if sit_out and ab.opponents_bonus.kind == "per-player" and 4 in ruleset.seat_counts:
            s.notes.append(
                st(
                    "abgehen.sitting_out",
                    _("Der aussetzende Geber zählt dabei nicht mit."),
                    # the seed counts the players of the hand; whether the dealer who sits
                    # out is one of them it does not say
                    house=True,
                    run_on=True,
                )
            )
        # when and, at four, the partner: statements of their own, so a preset whose seed
        # says neither (seed 002 "Abschreiben") marks them
        s.notes.append(
            st(
                "abgehen.when",
                _("Nur vor dem ersten Ausspiel."),
                run_on=True,
            )
        )
        if teams:
            s.notes.append(
                st(
                    "abgehen.partner",
                    # the partner's meld does not count, whether or not he has shown it
                    # (seed 000 concedes after the melds are shown; issue 37.10)
                    _("Die Meldung des Partners verfällt."),
                    run_on=True,
                )
            )
    sections.append(s)

    # 7. penalties --------------------------------------------------------------------
    penalties = []
    if ruleset.revoke is not None:
        penalties.append(
            st(
                "revoke",
                (
                    _(
                        "Verwerfen (Farb-, Stich- oder Trumpfzwang verletzt): Die Partei des "
                        "Schuldigen verliert %(p)s; ihre Meldung und Stichpunkte zählen nicht."
                    )
                    if teams
                    else _(
                        "Verwerfen (Farb-, Stich- oder Trumpfzwang verletzt): Der Schuldige "
                        "verliert %(p)s; seine Meldung und Stichpunkte zählen nicht."
                    )
                )
                % {"p": _penalty(ruleset.revoke.offender)},
            )
        )
        penalties.append(
            st(
                "revoke_rest",
                _(
                    "Die übrigen Karten werden offen zu Ende gespielt; die anderen schreiben "
                    "Meldung und Stichpunkte."
                ),
                # the seeds say only what the offender loses; a table of three needs a
                # ruling on the others' tricks, as two of them score apart
                house=True,
            )
        )
        bonus = _bonus(lost.opponents_bonus, in_play)
        if bonus:
            penalties.append(
                st(
                    "revoke.declarer_bonus",
                    (
                        _("Verwirft der Spielführer, bekommt jede Gegenpartei %(b)s dazu.")
                        if teams
                        else _("Verwirft der Spielführer, bekommt jeder Gegenspieler %(b)s dazu.")
                    )
                    % {"b": bonus},
                )
            )
    if ruleset.misdiscard is not None and has_dabb:
        md = ruleset.misdiscard
        if md == ruleset.lost:
            # seeds 001 "Drücken" and 002 "Falsches Drücken": the game counts as lost
            text = _(
                "Falsch gedrückt (nicht so viele Karten wie aufgenommen): Das Spiel zählt als "
                "verloren."
            )
        else:
            text = (
                _(
                    "Falsch gedrückt (nicht so viele Karten wie aufgenommen): Die Partei des "
                    "Spielführers verliert %(p)s"
                )
                if teams
                else _(
                    "Falsch gedrückt (nicht so viele Karten wie aufgenommen): Der Spielführer "
                    "verliert %(p)s"
                )
            ) % {"p": _penalty(md.declarer)}
            if teams:
                text += (
                    _("; ihre Meldung und Stichpunkte zählen nicht.")
                    if not md.declarer_keeps_melds
                    else _("; ihre Stichpunkte zählen nicht.")
                )
            else:
                text += (
                    _("; seine Meldung und Stichpunkte zählen nicht.")
                    if not md.declarer_keeps_melds
                    else _("; seine Stichpunkte zählen nicht.")
                )
            text += " " + _others_score(_bonus(md.opponents_bonus, in_play), teams)
        if ruleset.discard_melds == "misdiscard":
            text += " " + _("Das gilt auch, wenn er eine gemeldete Karte drückt.")
        penalties.append(st("misdiscard", text))
    if penalties:
        s = Section(_("Strafen"))
        s.notes = penalties
        sections.append(s)

    # 8. special games ----------------------------------------------------------------
    s = Section(_("Sonderspiele"))
    lead_text = (
        _("Er spielt aus.")
        if ruleset.special_lead == "declarer"
        else _("Es spielt der Spieler %(side)s vom Geber aus.") % {"side": side}
    )
    if ruleset.durch is not None:
        values = [f"+{ruleset.durch.won}"]
        losses = {ruleset.durch.lost}
        for game, name in (
            (ruleset.durch_aufgelegt, _("aufgelegt (Karten offen)")),
            (
                ruleset.durch_ohne_dabb,
                # seed 001 "Der Durch": the 2000 is for a Durch laid open from the hand,
                # the Dabb never turned; seed 002's "ohne Tapp" asks only the second
                _("ohne %(dabb)s, aufgelegt (%(dabb)s bleibt zu)") % {"dabb": w.dabb}
                if ruleset.wording == "swabian"
                else _("ohne %(dabb)s (%(dabb)s bleibt zu)") % {"dabb": w.dabb},
            ),
        ):
            if game is not None:
                values.append(f"{name} +{game.won}")
                losses.add(game.lost)
        s.paragraphs.append(
            [
                # a preset whose seed has no special games ("no_specials"): a Durch the
                # tournament adds is its own rule, with every value of it
                st(
                    "durch",
                    _("Durch: Der Spielführer macht alle Stiche, ohne Meldung."),
                    "no_specials",
                ),
                st(
                    "durch_trump",
                    # "none": no trump (seed 002 "Der Durch"; seed 001 also names the
                    # first card's suit as a regional custom)
                    _("Trumpf gibt es keinen.")
                    if ruleset.durch_trump == "none"
                    else _("Trumpf ist die Farbe der ersten ausgespielten Karte."),
                ),
                st("special_lead", lead_text),
                st(
                    "durch.won",
                    _("Wert %(values)s.") % {"values": ", ".join(values)},
                    "durch_aufgelegt.won",
                    "durch_ohne_dabb.won",
                    "no_specials",
                ),
                st(
                    "durch.lost",
                    _("Verloren %(values)s.")
                    % {"values": ", ".join(f"{MINUS}{n}" for n in sorted(losses))},
                    "durch_aufgelegt.lost",
                    "durch_ohne_dabb.lost",
                    "no_specials",
                ),
            ]
        )
    if ruleset.bettel is not None:
        bettel = [
            st(
                "bettel",
                _("Bettel: Der Spielführer macht keinen Stich, ohne Trumpf und Meldung."),
                "no_specials",
            ),
            st("special_lead.bettel", lead_text),
        ]
        if play.must_follow_suit and play.heading != "none":
            bettel.append(st("bettel.obligations", _("Farb- und Stichzwang gelten auch hier.")))
        bettel.append(
            st(
                "bettel.won",
                _("Wert +%(won)s, verloren %(minus)s%(lost)s.")
                % {"won": ruleset.bettel.won, "lost": ruleset.bettel.lost, "minus": MINUS},
                "bettel.lost",
                "no_specials",
            )
        )
        s.paragraphs.append(bettel)
    if ruleset.durch is not None or ruleset.bettel is not None:
        # named, not "they": a sheet with the Durch alone has no special games in the
        # plural to refer back to (issue 37.13)
        if ruleset.bettel is None:
            announced = _(
                "Der Durch wird vor dem ersten Ausspiel angesagt; die Gegner schreiben nichts."
            )
        elif ruleset.durch is None:
            announced = _(
                "Der Bettel wird vor dem ersten Ausspiel angesagt; die Gegner schreiben nichts."
            )
        else:
            announced = _(
                "Beide werden vor dem ersten Ausspiel angesagt; die Gegner schreiben nichts."
            )
        # that they count like any other game (specials_kept_apart has no effect) is the
        # tournament's rule, said in tournament_section (issue 37.17)
        s.paragraphs.append([st("specials_announced", announced)])
    else:
        s.paragraphs.append([st("no_specials", _("Durch und Bettel gibt es nicht."))])
    sections.append(s)

    return Handout(
        name=ruleset.name_en if lang == "en" else ruleset.name_de,
        fingerprint=ruleset.fingerprint,
        version=ruleset.version,
        sections=sections,
    )


def tournament_section(tournament: Tournament, lang: str = "de") -> Section:
    """The section "Dieses Turnier": what ``tournament`` itself decides, one list item
    (:class:`Statement`, never marked "Turnierregel") each, keyed ``tournament.<field>``:

    - ``tournament.rounds``: rounds × games per round, what a table of four does
      (``four_table_mode``), and pairs scoring (``event_type``) when chosen; else, at
      tables of partners, that each partner is credited his side's points (issue 37.12);
      that special games count like any game where the ruleset's source writes them apart
      (``specials_kept_apart``, which nothing reads: 37.17); and that there is no target
      where the source plays to one (``target_score``, which nothing reads: 37.18).  The
      tournament's own rules, so nothing here is marked; they stand here, not among the
      rules, also so the fullest sheet (swabian-traditional) stays one page;
    - ``tournament.lost_game_fee``: the fee in EUR per game lost as declarer, from the
      ``lost_game_fee_from``-th on, as :func:`scoring.selectors.standings` charges it
      (conceding counts as lost); or that there is none;
    - ``tournament.tie_break``: :func:`scoring.selectors.tie_break_note`, the sentence the
      results list and the standings print;
    - ``tournament.missed_rounds``: how the overall standings treat a missed round;
    - ``tournament.confirmation``: who confirms entries and whether unconfirmed points are
      marked, only when entries are confirmed or entered at the table (``table_entry``,
      which works only when every hand is entered, ``entry_mode == "hands"``).

    ``lang`` (``"de"`` or ``"en"``) must match the active translation, as for
    :func:`build`.  Reads only the tournament's fields: no database query.
    """
    w = _Words(tournament.ruleset, lang)
    items: list[Statement] = []

    text = ngettext(
        "%(rounds)s Runde mit %(games)s Spielen.",
        "%(rounds)s Runden mit je %(games)s Spielen.",
        tournament.rounds,
    ) % {"rounds": tournament.rounds, "games": tournament.games_per_round}
    # a sentence of its own per mode: the choice's label ("Geber setzt aus") would begin
    # mid-sentence with a capital in English ("Table of four: Dealer sits out.")
    text += " " + (
        _("An Vierertischen setzt jeweils der Geber aus.")
        if tournament.four_table_mode == Tournament.FourTableMode.SIT_OUT
        else _("An Vierertischen spielen je zwei gegen zwei (Kreuzbinokel).")
    )
    ruleset = tournament.ruleset
    if tournament.event_type == Tournament.EventType.PAIRS:
        text += " " + _("Gewertet wird je Paar (feste Partner).")
    elif (
        tournament.four_table_mode != Tournament.FourTableMode.SIT_OUT
        and ruleset.partnerships
        and 4 in ruleset.seat_counts
    ):
        # the standings rank players singly: what the score sheet prints at a table of
        # partners (issue 37.12); no seed keeps standings of single players
        text += " " + _("Jeder Partner bekommt die Punkte seiner Partei.")
    if ruleset.specials_kept_apart and (ruleset.durch or ruleset.bettel):
        # seed 001 "Spezielle Spiele" writes special games apart; no score sheet or the
        # standings has a column for them, the engine adds them to the hand's score like
        # any other game: the tournament's rule (issue 37.17)
        text += " " + (
            _("Durch und Bettel zählen wie jedes Spiel.")
            if ruleset.durch and ruleset.bettel
            else _("Der Durch zählt wie jedes Spiel.")
            if ruleset.durch
            else _("Der Bettel zählt wie jedes Spiel.")
        )
    if ruleset.target_score is not None:
        # the seeds play to a target (000 "Das Spiel gewinnen", 001 "Ziel", 003
        # "Spielende"); a tournament has a fixed number of games and nothing reads
        # target_score (issue 37.18)
        text += " " + _("Ein Spielziel von %(n)s Punkten gibt es nicht.") % {
            "n": ruleset.target_score
        }
    items.append(Statement("tournament.rounds", text))

    if tournament.lost_game_fee is None:
        text = _("Für verlorene Spiele gibt es keine Gebühr.")
    else:
        fee = euro(tournament.lost_game_fee)
        if tournament.lost_game_fee_from > 1:
            # the ordinal written out: "ab dem 3." read as "from the 3rd Abgehen" (37.8)
            text = _(
                "Gebühr: %(fee)s für jedes als Spielführer verlorene Spiel, vom %(nth)s "
                "verlorenen Spiel an."
            ) % {"fee": fee, "nth": ordinal_word(tournament.lost_game_fee_from)}
        else:
            text = _("Gebühr: %(fee)s für jedes als Spielführer verlorene Spiel.") % {"fee": fee}
        if tournament.ruleset.abgehen is not None:
            text += " " + _("%(concede)s zählt als verloren.") % {"concede": w.concede}
    items.append(Statement("tournament.lost_game_fee", text))

    items.append(Statement("tournament.tie_break", tie_break_note(tournament)))

    items.append(
        Statement(
            "tournament.missed_rounds",
            {
                Tournament.MissedRounds.ZERO: _(
                    "Wer eine Runde verpasst, bekommt für sie 0 Punkte."
                ),
                Tournament.MissedRounds.UNPLACED: _(
                    "Wer eine Runde verpasst, steht ohne Platz und ohne Preis in der Gesamtwertung."
                ),
                Tournament.MissedRounds.EXCLUDED: _(
                    "Wer eine Runde verpasst, kommt nicht in die Gesamtwertung, nur in die "
                    "seiner Runden."
                ),
            }[tournament.missed_rounds],
        )
    )

    confirmation = {
        Tournament.TableEntry.OPPONENT: _(
            "Eingetragen wird am Tisch (QR-Code der Tischkarte); ein Gegenspieler bestätigt "
            "jedes Spiel."
        ),
        Tournament.TableEntry.CLERK: _(
            "Eingetragen wird am Tisch (QR-Code der Tischkarte); ein Schreiber bestätigt."
        ),
    }.get(tournament.table_entry)
    if tournament.entry_mode != Tournament.EntryMode.HANDS:
        confirmation = None  # table links enter single hands only (refused otherwise)
    if confirmation is None and tournament.confirmation_required:
        confirmation = _("Jede Eingabe prüft und bestätigt ein zweiter Schreiber.")
    if confirmation:
        if tournament.marks_provisional:
            confirmation += " " + _("Bis dahin steht „unbestätigt“ in der Rangliste.")
        items.append(Statement("tournament.confirmation", confirmation))

    return Section(_("Dieses Turnier"), notes=items)


def for_tournament(tournament: Tournament, lang: str = "de") -> Handout:
    """The handout of ``tournament``: :func:`build` for its frozen ruleset and its
    ``four_table_mode``, opened by :func:`tournament_section`."""
    handout = build(tournament.ruleset, lang, tournament.four_table_mode)
    handout.sections.insert(0, tournament_section(tournament, lang))
    return handout
