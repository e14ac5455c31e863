"""Series services: create a series of evenings and change its rule or its tournaments.

The standings of a series are read by :func:`series.selectors.series_standings`; nothing is
stored per player, so a changed rule or a newly attached evening recomputes them.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.models import Series, Tournament, parse_placement_points


def save_series(
    series: Series | None = None,
    *,
    name: str,
    season: str,
    tournaments: Sequence[Tournament],
    counting: str = Series.Counting.POINTS,
    placement_points: str = "",
    best_of: int | None = None,
    min_evenings: int | None = None,
    user=None,
) -> Series:
    """Create a series (``series=None``) or change one: name, season, the attached
    ``tournaments`` (each keeps its own frozen ruleset) and the rule (see
    :class:`tournament.models.Series`).  The previous rule stays in the series' history.

    Raises ``ValidationError`` by field: a placement rule without a valid points table;
    ``best_of`` or ``min_evenings`` above the number of evenings attached."""
    errors: dict[str, list[str]] = {}
    evenings = len(tournaments)
    table = placement_points.strip()
    if counting == Series.Counting.PLACEMENT and not table:
        errors["placement_points"] = [
            _("Für die Platzierungswertung bitte Punkte je Platz angeben, z. B. 25,20,16,13,11.")
        ]
    elif table:
        try:
            table = ",".join(str(p) for p in parse_placement_points(table))
        except ValidationError as exc:
            errors["placement_points"] = exc.messages
    if counting not in Series.Counting.values:
        errors["counting"] = [_("Unbekannte Wertung.")]
    for field, value, message in (
        (
            "best_of",
            best_of,
            _("Es können nicht die besten %(n)s von %(m)s Abenden zählen."),
        ),
        (
            "min_evenings",
            min_evenings,
            _("Mindestens %(n)s Abende ist mehr als die %(m)s Abende der Serie."),
        ),
    ):
        if value is not None and value < 1:
            errors[field] = [_("Bitte eine Zahl ab 1 angeben.")]
        elif value is not None and value > evenings:
            errors[field] = [message % {"n": value, "m": evenings}]
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        series = series or Series()
        series.name, series.season = name.strip(), season.strip()
        series.counting, series.placement_points = counting, table
        series.best_of, series.min_evenings = best_of, min_evenings
        if user is not None:
            series._history_user = user
        series.full_clean(exclude=["tournaments"])
        series.save()
        series.tournaments.set(tournaments)
    return series
