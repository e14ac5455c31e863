"""What the archive's management commands share."""

from __future__ import annotations

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from tournament.models import Series, Tournament


def tournament_or_error(tournament_id: int) -> Tournament:
    """The tournament with id ``tournament_id``; ``CommandError`` saying it does not exist."""
    try:
        return Tournament.objects.get(pk=tournament_id)
    except Tournament.DoesNotExist as exc:
        raise CommandError(_("Turnier %(id)s gibt es nicht.") % {"id": tournament_id}) from exc


def series_or_error(series_id: int) -> Series:
    """The series with id ``series_id``; ``CommandError`` saying it does not exist."""
    try:
        return Series.objects.get(pk=series_id)
    except Series.DoesNotExist as exc:
        raise CommandError(_("Serie %(id)s gibt es nicht.") % {"id": series_id}) from exc
