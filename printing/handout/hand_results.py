"""The handout's sections on what a hand scores: "Wertung" (won, lost, conceded) and
"Strafen" (revoke, misdiscard), with the phrases of a penalty and a bonus they share."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules.ruleset import Bonus, Penalty

from .context import Context
from .model import Section, Statement


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


def _abgehen_notes(c: Context) -> list[Statement]:
    """The list items of conceding (:attr:`rules.Ruleset.abgehen`), in the club's word
    (:attr:`_Words.concede`): what the declarer and the others score (``abgehen``),
    that the dealer sitting out does not count for a bonus per player
    (``abgehen.sitting_out``, the tournament's rule), when (``abgehen.when``) and, at
    four, that the partner's meld is lost (``abgehen.partner``); none without
    conceding."""
    ruleset = c.ruleset
    ab = ruleset.abgehen
    if ab is None:
        return []
    w = c.words
    st = c.st
    teams = c.teams
    in_play = c.in_play
    sit_out = c.sit_out
    notes: list[Statement] = []
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
        text += " " + _("War das Gebot nicht mehr zu erreichen, verliert er stattdessen %(p)s.") % {
            "p": _penalty(ab.declarer_when_unreachable)
        }
    notes.append(st("abgehen", text))
    if sit_out and ab.opponents_bonus.kind == "per-player" and 4 in ruleset.seat_counts:
        notes.append(
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
    notes.append(
        st(
            "abgehen.when",
            _("Nur vor dem ersten Ausspiel."),
            run_on=True,
        )
    )
    if teams:
        notes.append(
            st(
                "abgehen.partner",
                # the partner's meld does not count, whether or not he has shown it
                # (seed 000 concedes after the melds are shown; issue 37.10)
                _("Die Meldung des Partners verfällt."),
                run_on=True,
            )
        )
    return notes


def scoring_section(c: Context) -> Section:
    """Section 6, "Wertung": a game won (``won``), lost (``lost``; the flat loss of seeds
    001 and 002 is the tournament's reading, marked through the preset's ``house_rules``)
    and conceded (:func:`_abgehen_notes`)."""
    ruleset = c.ruleset
    st = c.st
    teams = c.teams
    in_play = c.in_play
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
    s.notes += _abgehen_notes(c)
    return s


def penalties_section(c: Context) -> Section | None:
    """Section 7, "Strafen": a revoke (``revoke``, ``revoke_rest``,
    ``revoke.declarer_bonus``) and a misdiscard (``misdiscard``; seeds 001 "Drücken" and
    002 "Falsches Drücken": the game counts as lost); ``None`` when the ruleset has
    neither."""
    ruleset = c.ruleset
    st = c.st
    teams = c.teams
    in_play = c.in_play
    has_dabb = c.has_dabb
    lost = c.ruleset.lost
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
        return s
    return None
