"""The words of a score sheet: a player's label and its shorter forms, the trump and its
sign, the seat order and direction, the correction marks, the parties at a table of
partners, a game's outcome and the note on a corrected game."""

from __future__ import annotations

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from rules import Ruleset
from scoring import selectors
from scoring.models import Hand, account_label
from scoring.services import partner_teams
from tournament import formatting
from tournament.models import Seat, Tournament

from ..handout import SUITS_EN, TERMS
from .common import isolate

CLOCKWISE = "clockwise"


def name_forms(label: str) -> tuple[str, ...] | str:
    """A player's label in a game row of a score sheet ("12 Anna-Katharina Magdalena":
    start number and first name) and its shorter forms, longest first, each isolated
    (:func:`isolate`): the first given name ("12 Anna-Katharina"), its first part ("12
    Anna"), its initial ("12 A."),
    the start number alone ("12").  The stamper takes the first that stays readable
    (:meth:`printing.stamping.Stamper.fit`; issue 37.24: long first names fell to 5.7 pt
    on four-seat sheets).  The start number is unique at the table, so every form names
    the player."""
    if not label:
        return ""
    number, _space, name = str(label).partition(" ")
    if not name.split():  # no name, or only spaces (older data)
        return isolate(number)
    first = name.split()[0]
    part = first.split("-")[0] or first
    forms = [
        f"{number} {name}",
        f"{number} {first}",
        f"{number} {part}",
        f"{number} {first[0]}.",
        number,
    ]
    return tuple(isolate(f) for f in dict.fromkeys(forms))


#: a trump suit's sign, the short form of its name on a score sheet (issue 37.23:
#: "Diamonds" broke inside the word in the English trump column)
SUIT_SIGNS = {"C": "\u2663", "S": "\u2660", "H": "\u2665", "D": "\u2666"}


def trump_forms(trump: str, wording: str = "swabian") -> tuple[str, ...] | str:
    """The trump of a game row and its suit sign (♦) as the short form; "" for a game
    without trump.  In German the suit is named in the ruleset's own words (``wording``,
    :data:`printing.handout.TERMS`: "Pik" in the club rules, "Bollen" in dabb-app), as the
    rules handout names it (issue 37.25); in English "Diamonds" etc."""
    if not trump:
        return ""
    if translation.get_language() == "en":
        name = SUITS_EN[trump]
    else:
        name = TERMS.get(wording, TERMS["swabian"])["suits"][trump]
    return (name, SUIT_SIGNS[trump])


def play_direction(ruleset: Ruleset) -> str:
    """The direction in which deal, bidding and play pass on: ``"clockwise"`` or
    ``"counter-clockwise"``.

    Read from the ruleset's ``direction`` parameter (each preset sets its seed's direction,
    e.g. seed 001: counter-clockwise); a ruleset without one plays clockwise."""
    for holder in (ruleset, getattr(ruleset, "play", None)):
        value = getattr(holder, "direction", None)
        if isinstance(value, str) and value:
            return value
    return CLOCKWISE


def seating_text(ruleset: Ruleset, size: int) -> str:
    """The seat order and direction printed on a score sheet: "Platz 1 → 2 → 3 → 4,
    gespielt wird im Uhrzeigersinn" (the deal passes from seat to seat in that order,
    :func:`scoring.services.dealer_for`) for a table of ``size`` players and the
    ruleset's :func:`play_direction`."""
    seats = " → ".join(str(n) for n in range(1, size + 1))
    if play_direction(ruleset) == CLOCKWISE:
        return _("Platz %(seats)s, gespielt wird im Uhrzeigersinn") % {"seats": seats}
    return _("Platz %(seats)s, gespielt wird gegen den Uhrzeigersinn") % {"seats": seats}


def correction_marks() -> dict[str, str]:
    """The letters that mark a game on a filled score sheet: ``corrected`` (saved more than
    once, "K") and ``adjusted`` (changed by the director after the round was closed, "N"),
    in the active language."""
    return {
        "corrected": pgettext("Korrekturzeichen: korrigiert", "K"),
        "adjusted": pgettext("Korrekturzeichen: Nachtrag der Turnierleitung", "N"),
    }


def _teams(tournament: Tournament, seats: list[Seat]) -> dict:
    """At a table of partners (:func:`scoring.services.partner_teams`): ``teams``, the
    party letter per position ("A" for seats 1+3, "B" for 2+4), and ``teams_text`` for the
    sheet's head ("A: Platz 1 + 3 · B: Platz 2 + 4; beide Partner schreiben die Punkte der
    Partei"); empty elsewhere."""
    teams = partner_teams(tournament, seats)
    if not teams:
        return {}
    letters = {}
    parts = []
    for letter, team in zip("AB", teams, strict=True):
        for seat in team:
            letters[seat.position] = letter
        parts.append(
            _("%(party)s: Platz %(seats)s")
            % {"party": letter, "seats": " + ".join(str(s.position + 1) for s in team)}
        )
    text = " · ".join(parts) + _("; beide Partner schreiben die Punkte ihrer Partei")
    return {"teams": letters, "teams_text": text}


def _outcome_text(hand: Hand, names: dict[int, str], wording: str = "swabian") -> str:
    """ "gewonnen" or "verloren" for a played game, else the kind of game with it
    ("Bettel, verloren", "Abgehen, verloren"), as the standings count the declarer's
    won and lost games; then any penalty ("· Verwerfen (3 Anna)").  In German, conceding
    and the Dabb carry the ruleset's own words (``wording``, :data:`printing.handout.
    TERMS`: "Abschreiben", "Durch ohne Tapp" in the club rules; issue 37.25)."""
    result = _("gewonnen") if hand.declarer_won else _("verloren")
    terms = TERMS.get(wording, TERMS["swabian"])
    german = translation.get_language() != "en"
    if hand.outcome == Hand.Outcome.PLAYED:
        text = result
    elif german and hand.outcome == Hand.Outcome.ABGEHEN:
        text = f"{terms['concede']}, {result}"
    elif german and hand.outcome == Hand.Outcome.DURCH_OHNE_DABB:
        text = f"Durch ohne {terms['dabb']}, {result}"
    else:
        text = f"{hand.get_outcome_display()}, {result}"
    if hand.penalty_type:
        text += f" · {hand.get_penalty_type_display()}"
        if hand.penalty_seat is not None:
            text += f" ({names.get(hand.penalty_seat, '?')})"
    return text


def _correction_text(hand: Hand, versions: list[selectors.HandVersion]) -> str:
    """ "Spiel 3: 2. Fassung von X am …; vorher a / b / c Punkte; Nachtrag der
    Turnierleitung: <reason>"."""
    previous = versions[-2] if len(versions) >= 2 else None
    latest = versions[-1] if versions else None
    who = latest.user if latest else account_label(hand.entered_by, hand.entered_by_name)
    when = latest.when if latest else hand.updated_at
    text = _("Spiel %(n)s: %(v)s. Fassung von %(who)s, %(when)s") % {
        "n": hand.number,
        "v": hand.version,
        "who": isolate(who),
        "when": timezone.localtime(when).strftime("%d.%m.%Y %H:%M"),
    }
    if previous is not None:
        before = " / ".join(formatting.points(s) for s in previous.scores)
        text += "; " + _("vorher %(before)s Punkte") % {"before": before}
    if latest is not None and latest.adjustment:
        text += "; " + _("Nachtrag der Turnierleitung nach Rundenschluss: %(reason)s") % {
            "reason": isolate(latest.reason)
        }
    elif latest is not None and latest.reason:
        text += "; " + _("Grund: %(reason)s") % {"reason": isolate(latest.reason)}
    return text
