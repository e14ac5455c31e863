"""The prize list of a tournament: what each place, the best of a category and the last
place receive.  Who wins is resolved from the standings by :mod:`prizes.selectors`."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournament.models import Tournament


class Prize(models.Model):
    """One line of a tournament's prize list (FIELD-NOTES: cash for the top places, the
    others choose from the prize table in rank order, a joke prize for the last place).

    ``kind``: ``place`` — each of the places ``place`` … ``place_to`` (or ``place`` alone)
    gets ``cash`` (EUR) and/or the thing in ``description``; ``table`` — the places
    ``place`` … ``place_to`` pick from the prize table in that order (``place`` picks
    first); ``category`` — the best of ``category``; ``last`` — the last place ("rote
    Laterne").  Which players win is resolved from the standings by
    :func:`prizes.selectors.prize_list`."""

    class Kind(models.TextChoices):
        PLACE = "place", _("Platz")
        TABLE = "table", _("Preistisch (Wahl nach Platz)")
        CATEGORY = "category", _("Beste(r) einer Kategorie")
        LAST = "last", _("Letzter Platz (rote Laterne)")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prizes")
    kind = models.CharField(_("Art"), max_length=10, choices=Kind, default=Kind.PLACE)
    place = models.PositiveSmallIntegerField(_("Platz"), null=True, blank=True)
    place_to = models.PositiveSmallIntegerField(_("bis Platz"), null=True, blank=True)
    category = models.ForeignKey(
        "tournament.Category",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="prizes",
        verbose_name=_("Kategorie"),
    )
    cash = models.DecimalField(
        _("Geldpreis (EUR)"), max_digits=7, decimal_places=2, null=True, blank=True
    )
    description = models.CharField(_("Preis"), max_length=200, blank=True)
    # the table names of the app this model was moved from (scoring, until 2026-11): kept,
    # so that a move changed no table (migrations/0001_initial.py)
    history = HistoricalRecords(table_name="scoring_historicalprize")

    class Meta:
        db_table = "scoring_prize"
        ordering = ["tournament", "kind", "place", "pk"]
        verbose_name = _("Preis")
        verbose_name_plural = _("Preise")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(cash__isnull=True) | models.Q(cash__gte=0),
                name="prize_cash_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.description or self.get_kind_display()
