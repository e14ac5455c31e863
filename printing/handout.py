"""The rules handout ("Regelblatt"), written from a ruleset's parameters.

Every number and every variant on the sheet comes from the :class:`rules.Ruleset` the
tournament scores with, and the worked values (a Rundgang, a lost game at the minimum bid)
are computed by the engine itself, so sheet and scoring cannot disagree.  The wording is
the project's own; German first, English through Django's i18n (call :func:`build` inside
``translation.override``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from rules import Ruleset, best_meld
from rules.cards import SUITS, deck_ranks
from rules.ruleset import Bonus, MeldSpec, Penalty

RANK_NAMES = {
    "A": ("Ass", "Ace"),
    "T": ("Zehn", "Ten"),
    "K": ("König", "King"),
    "Q": ("Ober", "Ober"),
    "J": ("Unter", "Unter"),
    "9": ("Siebener", "Seven"),
}
SUIT_NAMES = {
    "C": ("Kreuz", "Clubs"),
    "S": ("Schippe", "Spades"),
    "H": ("Herz", "Hearts"),
    "D": ("Schellen", "Diamonds"),
}
SUIT_PREFIX_DE = {"C": "Kreuz", "S": "Schippen", "H": "Herz", "D": "Schellen"}
CLASS_ORDER = ("suit", "binokel", "kind")


@dataclass
class Section:
    """One block of the sheet: a heading, paragraphs and optional table rows."""

    title: str
    paragraphs: list[str] = field(default_factory=list)
    table_head: list[str] = field(default_factory=list)
    table: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class Handout:
    """The whole sheet: ``name`` and ``fingerprint`` of the ruleset, and its sections."""

    name: str
    fingerprint: str
    version: int
    sections: list[Section]


def _rank(rank: str, lang: str) -> str:
    return RANK_NAMES[rank][lang == "en"]


def _suit(suit: str, lang: str) -> str:
    return SUIT_NAMES[suit][lang == "en"]


def _penalty(p: Penalty) -> str:
    """ "das Doppelte des Reizwerts", "den Reizwert + 100" … (a deduction)."""
    if p.bid_factor == 1:
        base = _("den Reizwert")
    elif p.bid_factor == 2:
        base = _("das Doppelte des Reizwerts")
    else:
        base = _("das %(n)s-fache des Reizwerts") % {"n": p.bid_factor}
    if p.extra:
        base += " " + _("und %(n)s Punkte") % {"n": p.extra}
    return base


def _bonus(b: Bonus) -> str | None:
    if b.kind == "fixed":
        return _("%(n)s Punkte") % {"n": b.amount}
    if b.kind == "per-player":
        return _("%(n)s Punkte je Spieler am Tisch") % {"n": b.amount}
    if b.kind == "half-bid":
        return _("den halben Reizwert (auf Zehner aufgerundet)")
    return None


def _meld_cards(spec: MeldSpec, lang: str) -> str:
    """What a meld consists of, in words."""
    if spec.suit == "fixed":
        if lang == "en":
            return " + ".join(f"{_rank(c[0], lang)} of {_suit(c[1], lang)}" for c in spec.cards)
        return " + ".join(f"{SUIT_PREFIX_DE[c[1]]}-{_rank(c[0], lang)}" for c in spec.cards)
    ranks = ", ".join(_rank(r, lang) for r in spec.ranks)
    if spec.suit == "each":
        return _("je %(n)s × %(rank)s in jeder Farbe") % {
            "n": len(spec.ranks),
            "rank": _rank(spec.ranks[0], lang),
        }
    where = {
        "trump": _("in Trumpf"),
        "plain": _("in einer Farbe, die nicht Trumpf ist"),
        "any": _("in einer Farbe"),
    }[spec.suit]
    return f"{ranks} {where}"


def _rundgang(ruleset: Ruleset) -> tuple[int, int] | None:
    """The engine's value of a Rundgang (K + O in every suit, Kreuz trump) alone, and what
    it adds beside a trump family; ``None`` if the ruleset has no pairs."""
    if not any(m.ranks == "KQ" for m in ruleset.melds):
        return None
    pairs = [r + s for s in SUITS for r in "KQ"]
    alone = best_meld(ruleset, pairs, "C").total
    family = next(
        (m for m in ruleset.melds if m.suit == "trump" and m.ranks == "ATKQJ"),
        None,
    )
    if family is None:
        return alone, alone
    with_family = best_meld(ruleset, [*pairs, "AC", "TC", "JC"], "C").total
    return alone, with_family - family.points


def build(ruleset: Ruleset, lang: str = "de", four_table_mode: str | None = None) -> Handout:
    """The handout of ``ruleset`` in ``lang`` (``"de"`` or ``"en"``; gettext must be
    switched to the same language by the caller).

    ``four_table_mode`` is the tournament's choice for tables of four (``"sit-out"``: the
    dealer sits out each game; ``"kreuz"``: partnerships); ``None`` describes the ruleset
    alone.
    """
    sit_out = four_table_mode == "sit-out"
    ranks = deck_ranks(ruleset.deck_size)
    sections: list[Section] = []

    # 1. players and cards
    s = Section(_("Spieler und Karten"))
    s.paragraphs.append(
        _(
            "Gespielt wird mit %(deck)s Karten: %(ranks)s in den Farben %(suits)s, jede Karte "
            "zweimal. Im Stich sticht die höhere Karte in dieser Reihenfolge: %(order)s."
        )
        % {
            "deck": ruleset.deck_size,
            "ranks": ", ".join(_rank(r, lang) for r in ranks),
            "suits": ", ".join(_suit(x, lang) for x in SUITS),
            "order": " > ".join(_rank(r, lang) for r in ranks),
        }
    )
    for deal in ruleset.deals:
        if sit_out and deal.seats == 4:
            continue
        if deal.dabb:
            s.paragraphs.append(
                _("Zu %(seats)s: je %(cards)s Karten, %(dabb)s Karten in den Dabb.")
                % {"seats": deal.seats, "cards": deal.cards_per_player, "dabb": deal.dabb}
            )
        else:
            s.paragraphs.append(
                _("Zu %(seats)s: je %(cards)s Karten, kein Dabb.")
                % {"seats": deal.seats, "cards": deal.cards_per_player}
            )
    if sit_out and 4 in ruleset.seat_counts:
        s.paragraphs.append(
            _(
                "Am Vierertisch setzt in jedem Spiel der Geber aus; die anderen drei spielen "
                "wie am Dreiertisch."
            )
        )
    elif ruleset.partnerships:
        s.paragraphs.append(
            _(
                "Am Vierertisch spielen die Gegenübersitzenden zusammen: Meldungen und "
                "Stichpunkte der Partner werden addiert, das Gebot gilt für beide, und jeder "
                "Partner schreibt das Ergebnis der Partei."
            )
        )
    s.paragraphs.append(_("Nach jedem Spiel gibt der nächste Spieler im Uhrzeigersinn."))
    sections.append(s)

    # 2. bidding, Dabb, trump
    s = Section(_("Reizen, Dabb und Trumpf"))
    text = _("Gereizt wird ab %(min)s in Schritten von %(step)s.") % {
        "min": ruleset.min_bid,
        "step": ruleset.bid_step,
    }
    if ruleset.max_raise is not None:
        text += " " + _("Ein einzelnes Gebot darf höchstens um %(n)s erhöhen.") % {
            "n": ruleset.max_raise
        }
    s.paragraphs.append(text)
    s.paragraphs.append(
        {
            "first-bidder-must-bid": _(
                "Will niemand reizen, muss der erste Bieter das Mindestgebot spielen."
            ),
            "dealer-takes-minimum": _("Will niemand reizen, spielt der Geber zum Mindestgebot."),
            "redeal": _("Will niemand reizen, wird neu gegeben."),
        }[ruleset.all_pass]
    )
    dabbs = {d.dabb for d in ruleset.deals if d.dabb}
    if dabbs:
        s.paragraphs.append(
            _(
                "Wer am höchsten reizt, wird Spielführer: er nimmt den Dabb auf, bestimmt "
                "Trumpf und drückt ebenso viele Karten, wie er aufgenommen hat. Die gedrückten "
                "Karten zählen zu seinen Stichpunkten; wer falsch drückt (zu viele oder zu "
                "wenige Karten), wird bestraft (siehe unten)."
            )
        )
    else:
        s.paragraphs.append(_("Wer am höchsten reizt, wird Spielführer und bestimmt Trumpf."))
    sections.append(s)

    # 3. melds
    s = Section(_("Melden"))
    s.table_head = [_("Meldung"), _("Karten"), _("Punkte")]
    for klass in CLASS_ORDER + tuple(sorted({m.klass for m in ruleset.melds} - set(CLASS_ORDER))):
        for spec in (m for m in ruleset.melds if m.klass == klass):
            label = spec.label_en if lang == "en" else spec.label_de
            s.table.append([label, _meld_cards(spec, lang), str(spec.points)])
    s.paragraphs.append(
        _(
            "Gemeldet wird nach dem Drücken, vor dem ersten Stich. Die Meldungen bilden "
            "Klassen: Farbmeldungen (Paare, Familien, Diß), Binokel und Gleiche (vier oder "
            "acht gleiche Karten). Eine Karte darf in jeder Klasse nur einmal verwendet "
            "werden, aber in verschiedenen Klassen: der Schippen-Ober kann zugleich im "
            "Binokel und bei vier Obern zählen, König und Ober einer Familie aber nicht "
            "noch einmal als Paar."
        )
    )
    rundgang = _rundgang(ruleset)
    if rundgang is not None:
        alone, beside = rundgang
        s.paragraphs.append(
            _(
                "Rundgang (in jeder Farbe König und Ober): er ist keine eigene Meldung, "
                "sondern ergibt sich aus den vier Paaren und den vier Königen und vier Obern: "
                "%(alone)s Punkte; neben einer Familie in Trumpf kommen noch %(beside)s "
                "Punkte dazu, weil das Trumpfpaar schon in der Familie steckt."
            )
            % {"alone": alone, "beside": beside}
        )
    if ruleset.meld_requires_trick:
        s.paragraphs.append(
            _("Meldungen zählen nur, wenn die Partei mindestens einen Stich macht.")
        )
    if ruleset.scoreless_without_trick_points:
        s.paragraphs.append(
            _("Eine Partei ohne Stichpunkte schreibt gar nichts, auch nicht ihre Meldung.")
        )
    sections.append(s)

    # 4. trick play
    s = Section(_("Stichregeln"))
    lead = {
        "forehand": _("Den ersten Stich spielt der Spieler links vom Geber aus."),
        "declarer": _("Den ersten Stich spielt der Spielführer aus."),
    }[ruleset.play.first_lead]
    s.paragraphs.append(lead + " " + _("Wer den Stich macht, spielt zum nächsten aus."))
    play = ruleset.play
    if play.must_follow_suit:
        s.notes.append(_("Farbzwang: Wer die ausgespielte Farbe hat, muss sie bedienen."))
    heading = {
        "none": None,
        "led-suit": _(
            "Stichzwang: Wer bedient, muss die höchste Karte der ausgespielten Farbe im Stich "
            "überbieten, wenn er kann, auch wenn schon gestochen wurde."
        ),
        "winnable": _(
            "Stichzwang: Wer bedient, muss die höchste Karte der ausgespielten Farbe "
            "überbieten, wenn er kann; ist schon mit Trumpf gestochen, entfällt diese Pflicht."
        ),
        "win": _(
            "Stichzwang: Jeder muss den Stich gewinnen, wenn es die anderen Regeln erlauben, "
            "auch durch Übertrumpfen."
        ),
    }[play.heading]
    if heading:
        s.notes.append(heading)
    if play.must_trump:
        s.notes.append(_("Trumpfzwang: Wer nicht bedienen kann, muss Trumpf spielen, wenn er hat."))
    if play.must_overtrump:
        s.notes.append(
            _("Wer mit Trumpf sticht, muss einen schon liegenden Trumpf überbieten, wenn er kann.")
        )
    s.notes.append(_("Bei zwei gleichen Karten gewinnt die zuerst gespielte."))
    sections.append(s)

    # 5. counting
    s = Section(_("Zählen"))
    cp = ruleset.card_points
    values = [(r, cp.value(r)) for r in ranks]
    s.table_head = [_("Karte"), _("Augen")]
    s.table = [[_rank(r, lang), str(v)] for r, v in values]
    s.paragraphs.append(
        _(
            "Der letzte Stich zählt %(bonus)s Augen extra; zusammen gibt es in jedem Spiel "
            "%(total)s Stichpunkte."
        )
        % {"bonus": ruleset.last_trick_bonus, "total": ruleset.trick_points_total}
        if ruleset.last_trick_bonus
        else _("Zusammen gibt es in jedem Spiel %(total)s Stichpunkte.")
        % {"total": ruleset.trick_points_total}
    )
    if ruleset.rounding == "tens":
        text = _("Stichpunkte werden auf Zehner gerundet")
        if ruleset.rounding_fives == "up":
            text += _("; eine 5 am Ende wird aufgerundet.")
        else:
            text += _(
                "; enden zwei Parteien auf 5, rundet nur der Spielführer (sonst die Partei "
                "mit mehr Punkten) auf, die andere ab."
            )
        if ruleset.bid_checked_exact:
            text += " " + _("Ob das Gebot erreicht ist, entscheiden die ungerundeten Punkte.")
        s.paragraphs.append(text)
    else:
        s.paragraphs.append(_("Stichpunkte werden genau geschrieben, ohne Rundung."))
    sections.append(s)

    # 6. results of a hand
    s = Section(_("Wertung"))
    s.notes.append(
        _(
            "Gewonnen: Erreicht der Spielführer mit Meldung und Stichpunkten mindestens sein "
            "Gebot, schreibt jede Partei ihre Meldung plus ihre Stichpunkte."
        )
    )
    lost = ruleset.lost
    text = _("Verloren: Verfehlt der Spielführer sein Gebot, werden ihm %(p)s abgezogen") % {
        "p": _penalty(lost.declarer)
    }
    text += (
        _("; seine Meldung zählt trotzdem.")
        if lost.declarer_keeps_melds
        else _("; seine Meldung verfällt.")
    )
    bonus = _bonus(lost.opponents_bonus)
    text += " " + (
        _("Die Gegner schreiben Meldung und Stichpunkte und dazu je %(b)s.") % {"b": bonus}
        if bonus
        else _("Die Gegner schreiben Meldung und Stichpunkte.")
    )
    s.notes.append(text)
    example = ruleset.min_bid + 10 * ruleset.bid_step
    s.notes.append(
        _(
            "Beispiel: ein verlorenes Spiel mit Gebot %(bid)s kostet den Spielführer %(loss)s Punkte."
        )
        % {"bid": example, "loss": lost.declarer.points(example)}
    )
    if ruleset.abgehen is not None:
        ab = ruleset.abgehen
        text = _(
            "Abgehen: Der Spielführer kann vor dem ersten Ausspiel aufgeben. Ihm werden %(p)s "
            "abgezogen, seine Meldung zählt nicht; die Gegner schreiben ihre Meldung"
        ) % {"p": _penalty(ab.declarer)}
        bonus = _bonus(ab.opponents_bonus)
        text += (_(" und dazu je %(b)s.") % {"b": bonus}) if bonus else "."
        if ab.only_when_unreachable:
            text += " " + _(
                "Abgehen ist nur erlaubt, wenn das Gebot höher ist als die eigene Meldung plus "
                "alle %(total)s Stichpunkte."
            ) % {"total": ruleset.trick_points_total}
        if ab.declarer_when_unreachable is not None:
            text += " " + _(
                "War das Gebot so nicht mehr zu erreichen, werden stattdessen %(p)s abgezogen."
            ) % {"p": _penalty(ab.declarer_when_unreachable)}
        s.notes.append(text)
    else:
        s.notes.append(_("Abgehen gibt es nicht: jedes Spiel wird gespielt."))
    sections.append(s)

    # 7. penalties
    s = Section(_("Strafen"))
    if ruleset.revoke is not None:
        s.notes.append(
            _(
                "Verwerfen (Farb-, Stich- oder Trumpfzwang verletzt): Das Spiel endet. Der "
                "Partei des Schuldigen werden %(p)s abgezogen, ihre Meldung verfällt; die "
                "anderen schreiben Meldung und Stichpunkte, die restlichen Karten gehören "
                "ihnen. Verwirft der Spielführer, bekommen die Gegner zusätzlich die Prämie "
                "eines verlorenen Spiels."
            )
            % {"p": _penalty(ruleset.revoke.offender)}
        )
    else:
        s.notes.append(_("Verwerfen: der Fehler wird berichtigt und weitergespielt."))
    if ruleset.misdiscard is not None:
        md = ruleset.misdiscard
        text = _(
            "Falsch gedrückt: gewertet wie ein verlorenes Spiel; dem Spielführer werden %(p)s abgezogen."
        ) % {"p": _penalty(md.declarer)}
        bonus = _bonus(md.opponents_bonus)
        if bonus:
            text += " " + _("Die Gegner bekommen dazu je %(b)s.") % {"b": bonus}
        s.notes.append(text)
    sections.append(s)

    # 8. special games
    specials = [
        (
            ruleset.durch,
            _("Durch: Der Spielführer macht alle Stiche, ohne Trumpf und ohne Meldung."),
        ),
        (ruleset.durch_aufgelegt, _("Durch aufgelegt: ein Durch mit offen aufgelegten Karten.")),
        (ruleset.durch_ohne_dabb, _("Durch ohne Dabb: ein Durch, ohne den Dabb aufzunehmen.")),
        (ruleset.bettel, _("Bettel: Der Spielführer macht keinen einzigen Stich.")),
    ]
    played = [(game, text) for game, text in specials if game is not None]
    s = Section(_("Sonderspiele"))
    if played:
        s.table_head = [_("Spiel"), _("gewonnen"), _("verloren")]
        for game, text in played:
            s.notes.append(text)
            s.table.append([text.split(":")[0], f"+{game.won}", f"−{game.lost}"])
        s.paragraphs.append(
            _("Sonderspiele werden vor dem Ausspiel angesagt; die Gegner schreiben dabei nichts.")
        )
        if ruleset.specials_kept_apart:
            s.paragraphs.append(_("Sonderspiele stehen in einer eigenen Spalte der Spielliste."))
    else:
        s.paragraphs.append(_("Durch und Bettel werden nach diesen Regeln nicht gespielt."))
    sections.append(s)

    return Handout(
        name=ruleset.name_en if lang == "en" else ruleset.name_de,
        fingerprint=ruleset.fingerprint,
        version=ruleset.version,
        sections=sections,
    )
