"""The handout's section "Melden": when melds are shown, the meld tables in the ruleset's
own card names, how often a card counts, the Rundgang and when melds count at all."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules import Ruleset, best_meld
from rules.cards import SUITS
from rules.ruleset import MeldSpec

from .context import Context
from .model import Section, Table
from .words import _Words


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
    """``cards`` without repeats, in their first order."""
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


def melds_section(c: Context) -> Section:
    """Section 3, "Melden": when melds are shown (``meld_time``), the meld tables
    (:func:`_meld_tables`), how often a card counts (``meld_classes``, with an example,
    :func:`_meld_classes_example`; ``family_pair``, ``no_tens``), the Rundgang
    (``rundgang``, ``rundgang_family``: :func:`_rundgang`, seed 001 "Rundgang") and when
    melds count at all (``meld_requires_trick``, ``scoreless_without_trick_points``)."""
    ruleset = c.ruleset
    lang = c.lang
    w = c.words
    st = c.st
    teams = c.teams
    has_dabb = c.has_dabb
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
    return s
