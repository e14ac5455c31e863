"""Series pages: the public series standings and their CSV/XLSX files; the director's
pages to create a series, attach evenings and change its rule (which recomputes the
standings: they are read from the results on every request)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournament import formatting
from tournament.forms import apply_errors
from tournament.models import Series

from .forms import SeriesForm
from .selectors import SeriesStandings, series_standings
from .services import save_series


def series_rows_html(standings: SeriesStandings) -> str:
    """The body rows of the series table as HTML, every typed text escaped.

    Built in Python rather than in the template: 600 players × 10 evenings are 6,000
    cells, which Django's template engine renders in about a second on the venue laptop,
    this loop in a tenth of it (docs/performance.md, "Series")."""
    placement = standings.series.counting == Series.Counting.PLACEMENT
    struck_title = escape(_("gestrichen: zählt nicht"))
    separator = formatting.thousands_separator()

    def pts(value):
        return formatting.points(value, separator)

    out = []
    for row in standings.rows:
        rank = "–" if row.rank is None else f"{row.rank}."
        if row.public:
            name = f"<bdi>{escape(row.name)}</bdi>"  # isolated: see StandingsTable
        else:
            label = escape(row.hidden_label)
            name = f'<span class="muted">{label}</span>'
        cells = []
        for c in row.evenings:
            if not c.played:
                cells.append('<td class="num c-round"><span class="muted">·</span></td>')
                continue
            sub = ""
            if placement:
                place = f"{c.place}." if c.place else "–"
                sub = f'<br><span class="small muted">{place} ({pts(c.points)})</span>'
            if c.struck:
                cells.append(
                    f'<td class="num c-round struck" title="{struck_title}">{pts(c.value)}{sub}</td>'
                )
            else:
                cells.append(f'<td class="num c-round">{pts(c.value)}{sub}</td>')
        unranked = ' class="unranked"' if row.rank is None else ""
        out.append(
            f'<tr{unranked}><td class="num">{rank}</td>'
            f'<td class="c-name">{name}</td><td class="c-club"><bdi>{escape(row.club)}</bdi></td>'
            f'{"".join(cells)}<td class="num">{row.played}</td>'
            f'<td class="num total c-total">{pts(row.total)}</td></tr>'
        )
    # typed text (name, club) and the translated labels go through escape() above; the
    # rest are ints and fixed markup (tests/security/test_fast_rows.py)
    return mark_safe("\n".join(out))  # noqa: S308 - built from escaped text and numbers


def series_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Public series standings: places, each evening's points (struck-out evenings
    visible), evenings played, total; names only with consent at every evening."""
    series = get_object_or_404(Series, pk=pk)
    standings = series_standings(series, public=True)
    return render(
        request,
        "series/series.html",
        {"series": series, "standings": standings, "rows_html": series_rows_html(standings)},
    )


def _edit(request: HttpRequest, series: Series | None) -> HttpResponse:
    initial = None
    if series is not None:
        initial = {
            "name": series.name,
            "season": series.season,
            "tournaments": list(series.tournaments.all()),
            "counting": series.counting,
            "placement_points": series.placement_points,
            "best_of": series.best_of,
            "min_evenings": series.min_evenings,
        }
    form = SeriesForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            saved = save_series(series, **form.cleaned_data, user=request.user)
        except ValidationError as exc:
            apply_errors(form, exc)
        else:
            messages.success(
                request,
                _("Serie gespeichert; die Wertung ist neu berechnet.")
                if series
                else _("Serie angelegt."),
            )
            return redirect("series:page", pk=saved.pk)
    return render(
        request,
        "series/series_form.html",
        {"form": form, "series": series},
        status=422 if form.errors else 200,
    )


@login_required
@permission_required("tournament.add_series", raise_exception=True)
def series_create(request: HttpRequest) -> HttpResponse:
    """Director: a new series from finished or coming tournaments."""
    return _edit(request, None)


@login_required
@permission_required("tournament.change_series", raise_exception=True)
def series_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Director: change a series' evenings or rule; the standings follow at once."""
    return _edit(request, get_object_or_404(Series, pk=pk))
