"""The handout's section "Sonderspiele": the Durch and the Bettel, their values, who
leads and how they are announced."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .context import Context
from .model import MINUS, Section, Statement


def _durch_paragraph(c: Context, lead_text: str) -> list[Statement]:
    """The Durch's paragraph: the game (``durch``), its trump (``durch_trump``), who leads
    (``special_lead``, ``lead_text``), its values won and lost with the Durch laid open
    and without the Dabb (``durch.won``, ``durch.lost``), the values in points."""
    ruleset = c.ruleset
    w = c.words
    st = c.st
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
    return [
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


def _bettel_paragraph(c: Context, lead_text: str) -> list[Statement]:
    """The Bettel's paragraph: the game (``bettel``), who leads (``special_lead.bettel``,
    ``lead_text``), that following suit and heading hold (``bettel.obligations``) and its
    values won and lost in points (``bettel.won``)."""
    ruleset = c.ruleset
    st = c.st
    play = c.play
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
    return bettel


def special_games_section(c: Context) -> Section:
    """Section 8, "Sonderspiele": the Durch (:func:`_durch_paragraph`) and the Bettel
    (:func:`_bettel_paragraph`) with who leads (``special_lead``) and how they are
    announced (``specials_announced``), or that there are none (``no_specials``)."""
    ruleset = c.ruleset
    st = c.st
    side = c.side
    s = Section(_("Sonderspiele"))
    lead_text = (
        _("Er spielt aus.")
        if ruleset.special_lead == "declarer"
        else _("Es spielt der Spieler %(side)s vom Geber aus.") % {"side": side}
    )
    if ruleset.durch is not None:
        s.paragraphs.append(_durch_paragraph(c, lead_text))
    if ruleset.bettel is not None:
        s.paragraphs.append(_bettel_paragraph(c, lead_text))
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
    return s
