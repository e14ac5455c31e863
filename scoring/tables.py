"""django-tables2 tables: the standings (screen, CSV and XLSX export)."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament

from .selectors import StandingRow


class StandingsTable(tables.Table):
    """Standings: place, start number, name, club, points per round, total, games won and
    lost as declarer, the lost-game fee when the tournament charges one, and the number of
    unconfirmed entries when the tournament confirms entries and marks them."""

    rank = tables.Column(verbose_name=_("Platz"), attrs={"td": {"class": "num"}})
    start_number = tables.Column(verbose_name=_("Nr."), attrs={"td": {"class": "num"}})
    name = tables.Column(verbose_name=_("Name"))
    club = tables.Column(verbose_name=_("Verein"))
    total = tables.Column(verbose_name=_("Gesamt"), attrs={"td": {"class": "num total"}})
    won = tables.Column(verbose_name=_("gew."), attrs={"td": {"class": "num"}})
    lost = tables.Column(verbose_name=_("verl."), attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        template_name = "django_tables2/table.html"

    @classmethod
    def for_tournament(
        cls, rows: list[StandingRow], tournament: Tournament, round_number: int | None
    ) -> StandingsTable:
        """A table for ``rows`` with one column per round shown (all, or ``round_number``)
        and a fee column when the tournament charges a lost-game fee."""
        numbers = [round_number] if round_number else list(range(1, tournament.rounds + 1))
        extra = []
        data = []
        for n in numbers:
            extra.append(
                (
                    f"r{n}",
                    tables.Column(
                        verbose_name=_("R%(n)s") % {"n": n}, attrs={"td": {"class": "num"}}
                    ),
                )
            )
        if tournament.lost_game_fee is not None:
            extra.append(
                ("fee", tables.Column(verbose_name=_("Gebühr €"), attrs={"td": {"class": "num"}}))
            )
        marked = tournament.confirmation_required and tournament.mark_unconfirmed
        if marked:
            extra.append(
                (
                    "provisional",
                    tables.Column(
                        verbose_name=_("unbestätigt"),
                        attrs={"td": {"class": "num provisional"}},
                    ),
                )
            )
        for row in rows:
            item = {
                "rank": row.rank,
                "start_number": row.start_number,
                "name": row.name or "—",
                "club": row.club,
                "total": row.total,
                "won": row.won,
                "lost": row.lost,
                "fee": row.fee,
                "provisional": row.provisional or "",
            }
            for n, points in zip(numbers, row.rounds, strict=True):
                item[f"r{n}"] = "" if points is None else points
            data.append(item)
        sequence = [
            "rank",
            "start_number",
            "name",
            "club",
            *[f"r{n}" for n in numbers],
            "total",
            "won",
            "lost",
        ]
        if tournament.lost_game_fee is not None:
            sequence.append("fee")
        if marked:
            sequence.append("provisional")
        return cls(data, extra_columns=extra, sequence=sequence)
