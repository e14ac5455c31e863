"""The evening's report for the local newspaper (issue 28): the facts a press officer sends
the next day, as plain text the director can edit, and as a Word document (python-docx).

It names players only with their consent, as the public pages do.  A player without it is
either "eine Person, die nicht genannt werden möchte" or left out, as the director
chooses (:data:`ANONYMOUS`, :data:`OMIT`); a place that is left out keeps its number for the
others ("2. …, 4. …").
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO

import docx
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import selectors
from scoring.models import RoundTotal
from series.selectors import series_standings
from tournament import formatting
from tournament.models import Round, Seat, Tournament
from tournament.text import xml_safe

from .models import PressReport

ANONYMOUS = "anonymous"
OMIT = "omit"


@dataclass(frozen=True)
class Options:
    """What the director chose: ``places`` listed after the winner's (the winner is place
    1: ``places=10`` lists places 2 to 10), ``lantern`` whether the last place (the "rote
    Laterne") is named, ``hidden`` how a player without consent appears (:data:`ANONYMOUS`
    or :data:`OMIT`)."""

    places: int = 10
    lantern: bool = False
    hidden: str = ANONYMOUS


def _points(value: int) -> str:
    return formatting.points(value)


def _listing(names: list[str]) -> str:
    """ "A", "A und B", "A, B und C"."""
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s und %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def _who(row, options: Options) -> str | None:
    """A row of the standings (or of a series') as the report names it: "Anna Maier (TSV
    Plochingen)"; for a pairs event's row both partners ("A (TSV) / B (SV)"); ``None``
    for a player without consent when the director leaves them out."""
    members = getattr(row, "members", None)
    if members is not None:
        names = [w for w in (_who(m, options) for m in members) if w]
        return " / ".join(names) if names else None
    if not row.name:
        return None if options.hidden == OMIT else _anonymous()
    return f"{row.name} ({row.club})" if row.club else row.name


def _anonymous() -> str:
    """How the report names a player who declined publication: a neutral phrase (the
    registration says nothing of a player's sex)."""
    return _("eine Person, die nicht genannt werden möchte")


def _anonymous_once(text: str) -> str:
    """``text`` with the anonymous phrase (:func:`_anonymous`) in full only where it first
    stands; after that the short form (issue 37.6: four times in one paragraph)."""
    phrase = _anonymous()
    first = text.find(phrase)
    if first < 0:
        return text
    head, tail = text[: first + len(phrase)], text[first + len(phrase) :]
    return head + tail.replace(phrase, _("eine weitere Person ohne Namensnennung"))


def _named(rows, options: Options) -> str:
    """The names of ``rows`` (:func:`_who`, those left out dropped), listed."""
    return _listing([w for w in (_who(r, options) for r in rows) if w])


def _players(tournament: Tournament) -> int:
    """How many players played in a closed round: at a table, or by round totals from
    paper."""
    closed = Round.objects.filter(tournament=tournament, status=Round.Status.CLOSED)
    seated = set(Seat.objects.filter(round__in=closed).values_list("registration_id", flat=True))
    seated |= set(
        RoundTotal.objects.filter(round__in=closed).values_list("registration_id", flat=True)
    )
    return len(seated)


def press_report(tournament: Tournament, options: Options = Options()) -> str:
    """The report of ``tournament`` in the active language: a title line, then paragraphs
    separated by blank lines: the evening (date, venue, players, tables, rounds played and
    games, ruleset); once a round is closed, the winner or winners with club and points,
    the next places up to ``options.places``, each category's best, the last place if
    ``options.lantern``; and, once the evening is finished, the leader of each series it
    belongs to as the series stood after it.  A pairs event lists pairs.  Points are game
    points.  Each name stands at the end of its sentence or before a comma, so "eine
    Person, die nicht genannt werden möchte" reads in every place (in full the first
    time, then short).  Characters a
    file cannot hold (older data: a control character in a name) are spaces."""
    closed = tournament.round_set.filter(status=Round.Status.CLOSED).count()
    if tournament.event_type == Tournament.EventType.PAIRS:
        rows = selectors.pair_standings(tournament, public=True)
    else:
        rows = selectors.standings(tournament, public=True)
    placed = [r for r in rows if r.rank is not None]
    first_round = tournament.round_set.filter(number=1).first()
    tables = first_round.tables.count() if first_round is not None else 0
    where = f"{tournament.venue}, " if tournament.venue else ""
    played = ngettext(
        "gespielt wurde %(rounds)s Runde mit %(games)s Spielen",
        "gespielt wurden %(rounds)s Runden mit je %(games)s Spielen",
        closed,
    ) % {"rounds": closed, "games": tournament.games_per_round}
    paragraphs = [_("Binokel: %(name)s") % {"name": tournament.name}]
    if not closed:
        # before any result: the evening's frame, no counts of nothing, no ranking
        paragraphs.append(
            _("%(where)s%(date)s: Turnier „%(name)s“ nach dem Regelwerk „%(ruleset)s“.")
            % {
                "where": where,
                "date": tournament.date.strftime("%d.%m.%Y"),
                "name": tournament.name,
                "ruleset": formatting.ruleset_name(tournament.ruleset),
            }
        )
        paragraphs.append(_("Noch ist keine Runde abgeschlossen."))
        return xml_safe("\n\n".join(paragraphs))
    paragraphs.append(
        _(
            "%(where)s%(date)s. %(players)s Spielerinnen und Spieler kamen beim Turnier "
            "„%(name)s“ an %(tables)s Tischen zusammen; %(played)s nach dem Regelwerk "
            "„%(ruleset)s“."
        )
        % {
            "where": where,
            "date": tournament.date.strftime("%d.%m.%Y"),
            "players": _players(tournament),
            "name": tournament.name,
            "tables": tables,
            "played": played,
            "ruleset": formatting.ruleset_name(tournament.ruleset),
        }
    )
    running = closed < tournament.rounds
    if running:
        paragraphs.append(
            _("Stand nach %(rounds)s von %(of)s Runden:")
            % {"rounds": closed, "of": tournament.rounds}
        )
    winners = [r for r in placed if r.rank == 1]
    names = _named(winners, options)
    if winners and not names:
        # a winner who declined to be named, left out by the director: the place is told
        names = _("jemand, der nicht genannt werden möchte")
    if names:
        # neutral words (the registration says nothing of a player's sex); while rounds
        # are still to play nobody has won yet (issue 37.6)
        if len(winners) > 1:
            text = _("Punktgleich auf Platz 1 mit je %(points)s Punkten: %(who)s.")
        elif running:
            text = _("In Führung mit %(points)s Punkten: %(who)s.")
        elif tournament.event_type == Tournament.EventType.PAIRS:
            text = _("Den ersten Platz belegten mit %(points)s Punkten: %(who)s.")
        else:
            text = _("Den ersten Platz belegte mit %(points)s Punkten: %(who)s.")
        paragraphs.append(text % {"who": names, "points": _points(winners[0].total)})
    following = [
        _("%(place)s. %(who)s, %(points)s Punkte")
        % {"place": r.rank, "who": who, "points": _points(r.total)}
        for r in placed
        if 1 < r.rank <= options.places and (who := _who(r, options))
    ]
    if following:
        paragraphs.append(_("Die weiteren Plätze: %(list)s.") % {"list": "; ".join(following)})
    for category in tournament.categories.all():
        best = [r for r in selectors.category_standings(tournament, category) if r.rank == 1]
        if names := _named(best, options):
            paragraphs.append(
                _("Beste in der Wertung %(category)s mit %(points)s Punkten: %(who)s.")
                % {"category": category.name, "who": names, "points": _points(best[0].total)}
            )
    if options.lantern and len(placed) > 1:
        last = [r for r in placed if r.rank == placed[-1].rank]
        if names := _named(last, options):
            paragraphs.append(
                _("Die Rote Laterne mit %(points)s Punkten: %(who)s.")
                % {"who": names, "points": _points(last[0].total)}
            )
    if running:
        return xml_safe(_anonymous_once("\n\n".join(paragraphs)))  # series: finished only
    for series in tournament.series.all():
        standing = series_standings(series, public=True, until=tournament)
        leaders = [r for r in standing.rows if r.rank == 1]
        if names := _named(leaders, options):
            paragraphs.append(
                _(
                    "In der Serie %(series)s %(season)s führt nach diesem Abend mit %(points)s Punkten: %(who)s."
                )
                % {
                    "series": series.name,
                    "season": series.season,
                    "who": names,
                    "points": _points(leaders[0].total),
                }
            )
    return xml_safe(_anonymous_once("\n\n".join(paragraphs)))


def paragraphs_of(text: str) -> list[str]:
    """``text`` as the report's paragraphs: split at blank lines, each paragraph's lines
    joined by spaces, empty ones dropped."""
    blocks = text.replace("\r\n", "\n").split("\n\n")
    return [
        " ".join(line.strip() for line in b.splitlines() if line.strip())
        for b in blocks
        if b.strip()
    ]


def save_report(tournament: Tournament, text: str, user=None):
    """Keep ``text`` (the report as edited) as the tournament's newest
    :class:`archive.models.PressReport`, unless it equals the newest already kept; returns
    the newest version."""
    latest = saved_report(tournament)
    if latest is not None and latest.text == text:
        return latest
    return PressReport.objects.create(tournament=tournament, text=text, saved_by=user)


def saved_report(tournament: Tournament):
    """The newest saved version of the report (:class:`archive.models.PressReport`) or
    ``None``."""
    return PressReport.objects.filter(tournament=tournament).select_related("saved_by").first()


def report_docx(text: str, title: str, author: str = "") -> bytes:
    """``text`` (:func:`paragraphs_of`) as a Word document: the first paragraph a heading,
    the others body text.  Its properties: ``title``, ``author`` (default "Turnierleitung"),
    the active language (``de-DE`` or ``en-GB``, so Word checks the spelling in it) and
    now as the time it was made and changed (python-docx's template says 2013)."""
    from django.utils import timezone, translation

    document = docx.Document()
    properties = document.core_properties
    # characters XML cannot hold (control characters, U+FFFE) become spaces
    properties.title = xml_safe(title)
    properties.author = xml_safe(author) or _("Turnierleitung")
    properties.last_modified_by = properties.author
    properties.language = "en-GB" if translation.get_language() == "en" else "de-DE"
    properties.created = properties.modified = timezone.now()
    properties.comments = ""
    parts = [xml_safe(p) for p in paragraphs_of(text)]
    if parts:
        document.add_heading(parts[0], level=1)
    for paragraph in parts[1:]:
        document.add_paragraph(paragraph)
    buffer = BytesIO()
    document.save(buffer)
    return buffer.getvalue()
