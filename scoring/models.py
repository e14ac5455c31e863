"""Entered results: hands (with history), per-player points derived from them, and round
totals for tournaments that keep paper sheets.

Writes go through :mod:`scoring.services`, which validates with the rules engine and stores
the entry and the engine's scores in one transaction.  Every save of a :class:`Hand` or
:class:`RoundTotal` is kept by django-simple-history, so a correction never overwrites
silently.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournament.models import Registration, Round, Table, Tournament


class Hand(models.Model):
    """One game at one table, as the clerk entered it, with the engine's verdict.

    Per-seat lists (``melds``, ``tricks``, ``scores``) are indexed by table position
    (0 … 3); at a 4-player table where the dealer sits out, the dealer's entries are
    ``null`` in ``melds``/``tricks`` and 0 in ``scores``.  Points are game points.
    ``version`` grows with every save (optimistic concurrency).
    """

    class Outcome(models.TextChoices):
        PLAYED = "played", _("gespielt")
        ABGEHEN = "abgehen", _("abgegangen")
        DURCH = "durch", _("Durch")
        DURCH_AUFGELEGT = "durch-aufgelegt", _("Durch aufgelegt")
        DURCH_OHNE_DABB = "durch-ohne-dabb", _("Durch ohne Dabb")
        BETTEL = "bettel", _("Bettel")

    class Trump(models.TextChoices):
        CLUBS = "C", _("Kreuz")
        SPADES = "S", _("Schippe")
        HEARTS = "H", _("Herz")
        DIAMONDS = "D", _("Schellen")

    class PenaltyType(models.TextChoices):
        NONE = "", _("keine")
        VERWERFEN = "verwerfen", _("Verwerfen")
        FALSCH_DRUECKEN = "falsch-druecken", _("Falsch gedrückt")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("Spiel"))
    dealer = models.PositiveSmallIntegerField(_("Geber"))
    declarer = models.PositiveSmallIntegerField(_("Spielführer"))
    bid = models.PositiveIntegerField(_("Reizwert"))
    trump = models.CharField(_("Trumpf"), max_length=1, choices=Trump, blank=True)
    outcome = models.CharField(_("Ausgang"), max_length=20, choices=Outcome)
    melds = models.JSONField(_("Meldungen"))
    tricks = models.JSONField(_("Stichpunkte"), null=True, blank=True)
    won = models.BooleanField(_("Sonderspiel gewonnen"), null=True, blank=True)
    penalty_type = models.CharField(
        _("Strafe"), max_length=20, choices=PenaltyType, blank=True, default=""
    )
    penalty_seat = models.PositiveSmallIntegerField(_("Strafe für Platz"), null=True, blank=True)
    scores = models.JSONField(_("Punkte"))
    declarer_won = models.BooleanField(_("Spielführer gewonnen"))
    version = models.PositiveIntegerField(default=1)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("erfasst von"),
    )
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("Spiel")
        verbose_name_plural = _("Spiele")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_hand_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="hand_number_positive"),
        ]

    def __str__(self) -> str:
        return _("%(table)s, Spiel %(number)s") % {"table": self.table, "number": self.number}


class SeatScore(models.Model):
    """Points one registered player got from one hand: the engine's score, denormalised so
    that standings are one aggregate query whatever the tournament's size.  Rebuilt by the
    service on every save of its hand; never edited by hand."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="seat_scores")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    round_number = models.PositiveSmallIntegerField()
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="seat_scores"
    )
    points = models.IntegerField()
    declarer = models.BooleanField(default=False)
    declarer_won = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "registration"], name="one_score_per_hand")
        ]
        indexes = [models.Index(fields=["tournament", "registration", "round_number"])]


class RoundTotal(models.Model):
    """A player's round total typed from a paper sheet (entry mode "totals")."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="totals")
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="round_totals"
    )
    points = models.IntegerField(_("Punkte"))
    games_won = models.PositiveSmallIntegerField(_("gewonnene Spiele"), default=0)
    games_lost = models.PositiveSmallIntegerField(_("verlorene Spiele"), default=0)
    version = models.PositiveIntegerField(default=1)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("Rundensumme")
        verbose_name_plural = _("Rundensummen")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "registration"], name="one_total_per_player_per_round"
            )
        ]
