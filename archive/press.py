"""The evening's report for the local newspaper (issue 28): the facts a press officer sends
the next day, as plain text the director can edit, and as a Word document (python-docx).

It names players only with their consent, as the public pages do.  A player without it is
either "ein Teilnehmer, der nicht genannt werden möchte" or left out, as the director
chooses (:data:`ANONYMOUS`, :data:`OMIT`); a place that is left out keeps its number for the
others ("2. …, 4. …").
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO

import docx
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scoring import selectors
from series.selectors import series_standings
from tournament.models import Tournament

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
    return number_format(value, force_grouping=True)


def _listing(names: list[str]) -> str:
    """ "A", "A und B", "A, B und C"."""
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s und %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def _who(row, options: Options) -> str | None:
    """A row of the standings (or of a series') as the report names it: "Anna Maier (TSV
    Plochingen)"; ``None`` for a player without consent when the director leaves them out."""
    if not row.name:
        return (
            None if options.hidden == OMIT else _("ein Teilnehmer, der nicht genannt werden möchte")
        )
    return f"{row.name} ({row.club})" if row.club else row.name


def press_report(tournament: Tournament, options: Options = Options()) -> str:
    """The report of ``tournament`` in the active language: a title line, then paragraphs
    separated by blank lines: the evening (date, venue, players, tables, rounds and games,
    ruleset), the winner or winners with club and points, the next places up to
    ``options.places``, each category's winner, the last place if ``options.lantern``, and
    the leader of each series the evening belongs to.  Points are game points."""
    rows = selectors.standings(tournament, public=True)
    placed = [r for r in rows if r.rank is not None]
    first_round = tournament.round_set.filter(number=1).first()
    tables = first_round.tables.count() if first_round is not None else 0
    paragraphs = [
        _("Binokel: %(name)s") % {"name": tournament.name},
        _(
            "%(venue)s, %(date)s. %(players)s Spielerinnen und Spieler kamen zum %(name)s "
            "an %(tables)s Tischen zusammen; gespielt wurden %(rounds)s Runden mit je "
            "%(games)s Spielen nach dem Regelwerk „%(ruleset)s“."
        )
        % {
            "venue": tournament.venue or _("Ohne Ort"),
            "date": tournament.date.strftime("%d.%m.%Y"),
            "players": len(rows),
            "name": tournament.name,
            "tables": tables,
            "rounds": tournament.rounds,
            "games": tournament.games_per_round,
            "ruleset": tournament.ruleset.name_de,
        },
    ]
    winners = [r for r in placed if r.rank == 1]
    named = [w for w in (_who(r, options) for r in winners) if w]
    if winners and named:
        if len(winners) == 1:
            text = _("Sieger wurde %(who)s mit %(points)s Punkten.")
        else:
            text = _("Punktgleich auf Platz 1: %(who)s mit je %(points)s Punkten.")
        paragraphs.append(text % {"who": _listing(named), "points": _points(winners[0].total)})
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
        names = [w for w in (_who(r, options) for r in best) if w]
        if names:
            paragraphs.append(
                _("Beste in der Wertung %(category)s: %(who)s mit %(points)s Punkten.")
                % {
                    "category": category.name,
                    "who": _listing(names),
                    "points": _points(best[0].total),
                }
            )
    if options.lantern and len(placed) > 1:
        last = [r for r in placed if r.rank == placed[-1].rank]
        names = [w for w in (_who(r, options) for r in last) if w]
        if names:
            paragraphs.append(
                _("Die Rote Laterne ging an %(who)s mit %(points)s Punkten.")
                % {"who": _listing(names), "points": _points(last[0].total)}
            )
    for series in tournament.series.all():
        standing = series_standings(series, public=True, until=tournament)
        leaders = [r for r in standing.rows if r.rank == 1]
        names = [w for w in (_who(r, options) for r in leaders) if w]
        if names:
            paragraphs.append(
                _(
                    "In der Serie %(series)s %(season)s führt nach diesem Abend %(who)s mit %(points)s Punkten."
                )
                % {
                    "series": series.name,
                    "season": series.season,
                    "who": _listing(names),
                    "points": _points(leaders[0].total),
                }
            )
    return "\n\n".join(paragraphs)


def paragraphs_of(text: str) -> list[str]:
    """``text`` as the report's paragraphs: split at blank lines, each paragraph's lines
    joined by spaces, empty ones dropped."""
    blocks = text.replace("\r\n", "\n").split("\n\n")
    return [
        " ".join(line.strip() for line in b.splitlines() if line.strip())
        for b in blocks
        if b.strip()
    ]


def report_docx(text: str, title: str) -> bytes:
    """``text`` (:func:`paragraphs_of`) as a Word document: the first paragraph a heading,
    the others body text; ``title`` in the document's properties."""
    document = docx.Document()
    document.core_properties.title = title
    parts = paragraphs_of(text)
    if parts:
        document.add_heading(parts[0], level=1)
    for paragraph in parts[1:]:
        document.add_paragraph(paragraph)
    buffer = BytesIO()
    document.save(buffer)
    return buffer.getvalue()
