"""django-tables2 tables: the standings (screen, CSV and XLSX export)."""

from __future__ import annotations

import django_tables2 as tables
from django.conf import settings
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from tournament import formatting
from tournament.models import Category, Tournament

from .selectors import PairRow, StandingRow, category_standings, pair_standings, standings


def _cells(classes: str) -> dict:
    """Column attrs giving header and data cells the same ``classes``."""
    return {"th": {"class": classes}, "td": {"class": classes}}


class PointsColumn(tables.Column):
    """A column of points: shown grouped with a real minus sign in the active language
    ("−1.720", :func:`tournament.formatting.points`), exported as the plain integer."""

    def render(self, value, record, bound_column):
        # a player without any result yet has no total: "—" as for an empty cell (the
        # lean body_html() does the same; exports keep the plain 0)
        if bound_column.name == "total" and isinstance(record, dict) and record.get("waiting"):
            return bound_column.default
        return formatting.points(value)

    def value(self, value):
        return value


def _numbers_and_columns(
    tournament: Tournament, round_number: int | None
) -> tuple[list[int], list[tuple[str, tables.Column]]]:
    """The round numbers shown (all, or ``round_number``) and the columns a standings
    table adds to its fixed ones: one per round (``r1`` …), the lost-game fee when the
    tournament charges one, and the unconfirmed entries when it marks them."""
    numbers = [round_number] if round_number else list(range(1, tournament.rounds + 1))
    extra = [
        (
            f"r{n}",
            PointsColumn(verbose_name=_("R%(n)s") % {"n": n}, attrs=_cells("num c-round")),
        )
        for n in numbers
    ]
    if tournament.lost_game_fee is not None:
        extra.append(("fee", tables.Column(verbose_name=_("Gebühr €"), attrs=_cells("num c-fee"))))
    if tournament.marks_provisional:
        extra.append(
            (
                "provisional",
                tables.Column(
                    verbose_name=_("unbestätigt"), attrs=_cells("num provisional c-provisional")
                ),
            )
        )
    return numbers, extra


def _tail(tournament: Tournament, numbers: list[int]) -> list[str]:
    """The column order after the names: rounds, total, games, fee, unconfirmed."""
    sequence = [*[f"r{n}" for n in numbers], "total", "won", "lost"]
    if tournament.lost_game_fee is not None:
        sequence.append("fee")
    if tournament.marks_provisional:
        sequence.append("provisional")
    return sequence


class StandingsTable(tables.Table):
    """Standings: place, start number, name, club, points per round, total, games won and
    lost as declarer, the lost-game fee when the tournament charges one, and the number of
    unconfirmed entries when the tournament confirms entries and marks them."""

    # the classes c-* let a phone hide what does not fit (static/css/app.css): rounds,
    # games, fee and club go; place, start number, name and total stay
    rank = tables.Column(verbose_name=_("Platz"), attrs=_cells("num c-rank"))
    start_number = tables.Column(verbose_name=_("Nr."), attrs=_cells("num c-no"))
    name = tables.Column(verbose_name=_("Name"), attrs=_cells("c-name"))
    club = tables.Column(verbose_name=_("Verein"), attrs=_cells("c-club"))
    total = PointsColumn(verbose_name=_("Gesamt"), attrs=_cells("num total c-total"))
    won = tables.Column(verbose_name=_("gew."), attrs=_cells("num c-games"))
    lost = tables.Column(verbose_name=_("verl."), attrs=_cells("num c-games"))
    # shown after the name on the page, a column of its own in the exports
    note = tables.Column(verbose_name=_("Hinweis"), visible=False)

    def render_name(self, value, record):
        # typed text isolated (<bdi>): a right-to-left override in a name cannot reorder
        # the note beside it (issue 38.10; the PDFs isolate with U+2068 … U+2069)
        if record.get("note"):
            return format_html(
                '<bdi>{}</bdi><span class="missed-note"> {}</span>', value, record["note"]
            )
        return format_html("<bdi>{}</bdi>", value)

    def render_club(self, value):
        """The club isolated like the name (:meth:`render_name`)."""
        return format_html("<bdi>{}</bdi>", value)

    def value_club(self, value):
        """The club as plain text in an export."""
        return value

    def value_name(self, value):
        """The name alone in an export: the note has its own column there ("Hinweis"), and
        a spreadsheet cell holds text, not HTML (issue 37: ``<span class="missed-note">``
        stood in CSV and XLSX cells)."""
        return value

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        # django-tables2's template, with the body from body_html()
        template_name = "scoring/_standings_table.html"

    def body_html(self) -> SafeString:
        """The ``<tbody>`` rows as django-tables2's template renders them (``even``/``odd``
        rows, the columns' ``td`` attributes, the column default "—" for an empty value,
        values localised and escaped, the name through :meth:`render_name`), built in one
        pass: about 20 times faster than a template render per cell at 600 rows."""
        columns = [
            (column.name, column.attrs["td"].as_html(), column.default) for column in self.columns
        ]
        grouped = settings.USE_THOUSAND_SEPARATOR
        separator = formatting.thousands_separator()
        point_columns = {c.name for c in self.columns if isinstance(c.column, PointsColumn)}
        parts = []
        for counter, record in enumerate(self.data.data):
            parts.append('<tr class="odd">' if counter % 2 else '<tr class="even">')
            for name, attrs, default in columns:
                value = record.get(name)
                if value is None or value == "" or (name == "total" and record.get("waiting")):
                    cell = default  # no result yet: "—" on the page, 0 in the exports
                elif name == "name":
                    cell = self.render_name(value, record)
                elif name == "club":
                    cell = self.render_club(value)
                else:
                    cell = value
                if type(cell) is int and name in point_columns:
                    text = formatting.points(cell, separator)  # "−1.720" (issue 37.20)
                elif type(cell) is int and not grouped:
                    text = str(cell)  # what localize() gives an int without grouping
                else:
                    text = conditional_escape(localize(cell))
                parts.append(f"<td {attrs}>{text}</td>")
            parts.append("</tr>")
        # no typed text reaches this unescaped: names and clubs pass conditional_escape
        # (render_name's format_html escapes too), numbers are ints or localised numbers;
        # tests/security/test_fast_rows.py renders hostile names through it
        return mark_safe("".join(parts))  # noqa: S308 - every cell is escaped above

    @classmethod
    def for_tournament(
        cls, rows: list[StandingRow], tournament: Tournament, round_number: int | None
    ) -> StandingsTable:
        """A table for ``rows`` with one column per round shown (all, or ``round_number``)
        and a fee column when the tournament charges a lost-game fee."""
        numbers, extra = _numbers_and_columns(tournament, round_number)
        data = []
        for row in rows:
            item = {
                "rank": "–" if row.rank is None else row.rank,
                "start_number": row.start_number,
                "name": row.name or "—",
                "club": row.club,
                "total": row.total,
                "waiting": row.waiting,
                "won": row.won,
                "lost": row.lost,
                "fee": row.fee,
                "provisional": row.provisional or "",
                "note": row.note,
            }
            for n, points in zip(numbers, row.round_cells, strict=True):
                item[f"r{n}"] = "" if points is None else points
            data.append(item)
        sequence = ["rank", "start_number", "name", "club", *_tail(tournament, numbers), "note"]
        exclude = () if any(row.note for row in rows) else ("note",)
        return cls(data, extra_columns=extra, sequence=sequence, exclude=exclude)


class PairStandingsTable(tables.Table):
    """Standings of a pairs event (:func:`scoring.selectors.pair_standings`): place, pair
    number, the partners' start numbers, names and clubs, points per round, total, the
    pair's games won and lost as declaring side, the pair's lost-game fee and unconfirmed
    entries as in :class:`StandingsTable`."""

    rank = tables.Column(verbose_name=_("Platz"), attrs=_cells("num c-rank"))
    pair = tables.Column(verbose_name=_("Paar"), attrs=_cells("num c-pair"))
    # on the page each partner's start number stands in the name cell on the partner's own
    # line (issue 37.40: in a column of their own, a wrapped name put the second number
    # beside the first name); the exports keep them in a column ("3 / 11")
    start_numbers = tables.Column(verbose_name=_("Nr."), visible=False)
    name = tables.Column(verbose_name=_("Spieler"), attrs=_cells("c-name"))
    club = tables.Column(verbose_name=_("Verein"), attrs=_cells("c-club"))
    total = PointsColumn(verbose_name=_("Gesamt"), attrs=_cells("num total c-total"))
    won = tables.Column(verbose_name=_("gew."), attrs=_cells("num c-games"))
    lost = tables.Column(verbose_name=_("verl."), attrs=_cells("num c-games"))

    def value_start_numbers(self, value):
        """Both in one cell of an export: "3 / 11"."""
        return value

    def render_name(self, value, record):
        """One partner a line on the page, each after his start number ("3 Anna Maier"): a
        partner without consent to public names is "—" and found by the number; the
        typed name isolated (<bdi>)."""
        numbers = record["start_numbers"].split(" / ")
        # only the literal separator is marked safe; numbers and names are escaped by "{}"
        return format_html_join(
            mark_safe("<br>"),
            '<span class="pair-no">{}</span> <bdi>{}</bdi>',
            zip(numbers, value, strict=False),
        )

    def value_name(self, value):
        """Both partners in one cell of an export: "Anna Maier / Bernd Huber"."""
        return " / ".join(value)

    class Meta:
        orderable = False
        attrs = {"class": "standings pairs"}
        template_name = "django_tables2/table.html"

    @classmethod
    def for_tournament(
        cls, rows: list[PairRow], tournament: Tournament, round_number: int | None
    ) -> PairStandingsTable:
        """A table for pair ``rows``, columns as :meth:`StandingsTable.for_tournament`."""
        numbers, extra = _numbers_and_columns(tournament, round_number)
        data = []
        for row in rows:
            clubs = list(dict.fromkeys(m.club for m in row.members if m.club))
            item = {
                "rank": "–" if row.rank is None else row.rank,
                "pair": row.pair,
                "start_numbers": row.start_numbers,
                "name": [m.name or "—" for m in row.members],
                "club": " / ".join(clubs),
                "total": row.total,
                "waiting": row.waiting,
                "won": row.won,
                "lost": row.lost,
                "fee": row.fee,
                "provisional": row.provisional or "",
            }
            for n, points in zip(numbers, row.round_cells, strict=True):
                item[f"r{n}"] = "" if points is None else points
            data.append(item)
        sequence = ["rank", "pair", "start_numbers", "name", "club", *_tail(tournament, numbers)]
        return cls(data, extra_columns=extra, sequence=sequence)


def standings_table(
    tournament: Tournament,
    round_number: int | None,
    public: bool = True,
    category: Category | None = None,
) -> tables.Table:
    """The standings table a page or export shows: per pair in a pairs event
    (:func:`scoring.selectors.pair_standings`), else per player; with ``category`` only
    that category's players, with their own places
    (:func:`scoring.selectors.category_standings`, per player also in a pairs event)."""
    if category is not None:
        rows = category_standings(tournament, category, round_number, public=public)
        return StandingsTable.for_tournament(rows, tournament, round_number)
    if tournament.event_type == Tournament.EventType.PAIRS:
        rows = pair_standings(tournament, round_number, public=public)
        return PairStandingsTable.for_tournament(rows, tournament, round_number)
    rows = standings(tournament, round_number, public=public)
    return StandingsTable.for_tournament(rows, tournament, round_number)
