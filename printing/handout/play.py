"""The handout's sections on the play of a hand: "Stichregeln" (leads and the obligations
of play) and "Zählen" (card points, the last trick, rounding)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .context import Context
from .model import Section


def trick_play_section(c: Context) -> Section:
    """Section 4, "Stichregeln": the first lead (``first_lead``) and, as list items, the
    obligations of play (``must_follow_suit``, ``heading``, ``must_trump``,
    ``must_overtrump``) and which of two equal cards wins (``first_played_wins``)."""
    ruleset = c.ruleset
    st = c.st
    teams = c.teams
    side = c.side
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
    return s


def counting_section(c: Context) -> Section:
    """Section 5, "Zählen": the card points (``card_points``), the last trick and the
    total (``last_trick_bonus``), the discards (``discards_count``), rounding
    (``rounding``, ``rounding_fives``) and whether the bid is checked unrounded
    (``bid_checked_exact``)."""
    ruleset = c.ruleset
    w = c.words
    st = c.st
    teams = c.teams
    has_dabb = c.has_dabb
    ranks = c.ranks
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
    return s
