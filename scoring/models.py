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
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords
from simple_history.signals import pre_create_historical_record

from tournament.models import Registration, Round, Table, Tournament


def _confirmation_constraint(prefix: str) -> models.CheckConstraint:
    """Confirmer and time of confirmation are set together or not at all; an imported
    confirmation by an account this database lacks names the confirmer as text
    (``confirmed_by_name``) instead."""
    return models.CheckConstraint(
        condition=models.Q(
            confirmed_by__isnull=True, confirmed_by_name="", confirmed_at__isnull=True
        )
        | (
            models.Q(confirmed_at__isnull=False)
            & (models.Q(confirmed_by__isnull=False) | ~models.Q(confirmed_by_name=""))
        ),
        name=f"{prefix}_confirmed_by_and_at",
    )


def account_label(user, name: str) -> str:
    """How a page names the account behind an entry: the account (``user``) when the
    database has it, else the user name an import kept as text (``name``), else ``""``."""
    return str(user) if user is not None else (name or "")


def _name_field(verbose_name) -> models.CharField:
    """A user name kept as text: the account named in an imported file that this database
    does not have (an import never creates or links accounts it does not know)."""
    return models.CharField(verbose_name, max_length=150, blank=True, default="")


class ImportedHistoryUser(models.Model):
    """Base of every history model of this app: ``history_user_name`` keeps the user name
    of an imported history record whose account this database lacks (``history_user``
    stays empty then)."""

    history_user_name = _name_field(_("Konto laut Import"))

    class Meta:
        abstract = True

    @property
    def history_user_label(self) -> str:
        return account_label(self.history_user, self.history_user_name)


def _confirmer_differs_constraint(prefix: str) -> models.CheckConstraint:
    """Nobody confirms their own entry (FIELD-NOTES: enterer and confirmer differ)."""
    return models.CheckConstraint(
        condition=models.Q(confirmed_by__isnull=True)
        | ~models.Q(confirmed_by=models.F("entered_by")),
        name=f"{prefix}_confirmer_not_enterer",
    )


class Confirmable(models.Model):
    """Fields of an entry a second account confirms (tournaments with confirmation):
    ``confirmed_by``/``confirmed_at`` are set together, never to the enterer (constraints
    in each model's Meta), and cleared by the next correction."""

    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("bestätigt von"),
    )
    confirmed_by_name = _name_field(_("bestätigt von (Name aus Import)"))
    confirmed_at = models.DateTimeField(_("bestätigt am"), null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def confirmed(self) -> bool:
        """Whether a second account confirmed this version."""
        return self.confirmed_at is not None

    @property
    def confirmer(self) -> str:
        """Who confirmed this version (account or imported name), ``""`` if nobody."""
        return account_label(self.confirmed_by, self.confirmed_by_name)

    @property
    def enterer(self) -> str:
        """Who entered this version (account or imported name)."""
        return account_label(self.entered_by, self.entered_by_name)


class TableLink(models.Model):
    """The private link of one table in one round ("Tisch-Link", ``/t/<token>/``): the
    players of that table enter and confirm its hands on their phones without an account.

    ``token`` is 160 random bits (:func:`secrets.token_urlsafe`, 27 characters); it opens
    only its table, only while the round runs and the tournament's ``table_entry`` is on.
    A "new link" revokes the old one (``revoked_at``); at most one link per table is live
    (database constraint).  Issued by :mod:`scoring.links`; phones: :mod:`table_entry.services`."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="links")
    token = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("erstellt von"),
    )
    revoked_at = models.DateTimeField(_("widerrufen am"), null=True, blank=True)

    class Meta:
        ordering = ["table", "-created_at"]
        verbose_name = _("Tisch-Link")
        verbose_name_plural = _("Tisch-Links")
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(revoked_at__isnull=True),
                name="one_live_link_per_table",
            )
        ]

    def __str__(self) -> str:
        # never the token: this text may reach logs and the admin's history
        return _("Link für %(table)s") % {"table": self.table}

    @property
    def author(self) -> str:
        """How history names entries made through this link: "Tisch 7 (Link)"."""
        return _("Tisch %(n)s (Link)") % {"n": self.table.number}


class Hand(Confirmable):
    """One game at one table, as the clerk entered it, with the engine's verdict.

    Per-seat lists (``melds``, ``tricks``, ``scores``) are indexed by table position
    (0 … 3); at a 4-player table where the dealer sits out, the dealer's entries are
    ``null`` in ``melds``/``tricks`` and 0 in ``scores``.  Points are game points.
    ``version`` grows with every save (optimistic concurrency).  ``confirmed_by`` is the
    second account that confirmed this version (tournaments with confirmation); a correction
    clears it.  A hand entered at the table has ``table_link`` and ``entered_device`` set and
    ``entered_by_name`` "Tisch 7 (Link)"; an opponent's "stimmt" names the link and that
    device in ``confirmed_by_name``.  The reason for a correction (required once the round is closed) is kept as
    the history record's change reason.
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
        null=True,
        blank=True,
        verbose_name=_("erfasst von"),
    )
    entered_by_name = _name_field(_("erfasst von (Name aus Import)"))
    # entered at the table through its link: which link and which phone (a random id kept in
    # that phone's session, never the session key); null/"" for a clerk's entry
    table_link = models.ForeignKey(
        TableLink,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("erfasst über Tisch-Link"),
    )
    entered_device = models.CharField(_("Gerät"), max_length=32, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(bases=[ImportedHistoryUser])

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("Spiel")
        verbose_name_plural = _("Spiele")
        permissions = [
            ("correct_closed_round", _("Einträge abgeschlossener Runden korrigieren")),
        ]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_hand_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=models.Q(dealer__lt=4, declarer__lt=4), name="hand_seats_0_3"
            ),
            models.CheckConstraint(
                condition=models.Q(penalty_seat__isnull=True) | models.Q(penalty_seat__lt=4),
                name="hand_penalty_seat_0_3",
            ),
            _confirmation_constraint("hand"),
            _confirmer_differs_constraint("hand"),
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
        verbose_name = _("Punkte je Spieler und Spiel")
        verbose_name_plural = _("Punkte je Spieler und Spiel")
        constraints = [
            models.UniqueConstraint(fields=["hand", "registration"], name="one_score_per_hand")
        ]
        # covering the standings aggregate (scoring.selectors.standings): the database sums
        # from the index alone, in the order it groups by, without reading the table
        indexes = [
            models.Index(
                fields=[
                    "tournament",
                    "registration",
                    "round_number",
                    "points",
                    "declarer",
                    "declarer_won",
                ],
                name="seatscore_standings_idx",
            )
        ]


class RoundTotal(Confirmable):
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
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("erfasst von"),
    )
    entered_by_name = _name_field(_("erfasst von (Name aus Import)"))
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords(bases=[ImportedHistoryUser])

    class Meta:
        verbose_name = _("Rundensumme")
        verbose_name_plural = _("Rundensummen")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "registration"], name="one_total_per_player_per_round"
            ),
            _confirmation_constraint("roundtotal"),
            _confirmer_differs_constraint("roundtotal"),
        ]


class Ruling(models.Model):
    """A director's ruling on a dispute at a table: the game it concerns, what was claimed,
    the decision, and its consequence.  A consequence other than "none" is a penalty on the
    hand (Verwerfen by ``offender``, or a misdiscard by the declarer) that the service
    applies to the stored hand, so the rules engine scores it; ``hand_version`` is the
    hand's version that carries it.  ``offender`` is a table position (0 … 3)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rulings")
    hand_number = models.PositiveSmallIntegerField(_("Spiel"))
    hand = models.ForeignKey(
        Hand, on_delete=models.PROTECT, related_name="rulings", null=True, blank=True
    )
    claim = models.TextField(_("Beanstandung"), max_length=2000)
    decision = models.TextField(_("Entscheidung"), max_length=2000)
    consequence = models.CharField(
        _("Folge"), max_length=20, choices=Hand.PenaltyType, blank=True, default=""
    )
    offender = models.PositiveSmallIntegerField(_("betroffener Spieler"), null=True, blank=True)
    hand_version = models.PositiveIntegerField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("entschieden von"),
    )
    decided_by_name = _name_field(_("entschieden von (Name aus Import)"))
    decided_at = models.DateTimeField(_("entschieden am"), auto_now_add=True)
    history = HistoricalRecords(bases=[ImportedHistoryUser])

    class Meta:
        ordering = ["table", "hand_number", "decided_at"]
        verbose_name = _("Entscheidung")
        verbose_name_plural = _("Entscheidungen")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(hand_number__gte=1), name="ruling_hand_number_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(consequence="")
                | models.Q(offender__isnull=False, offender__lt=4, hand__isnull=False),
                name="ruling_penalty_names_offender_and_hand",
            ),
        ]

    @property
    def decider(self) -> str:
        """Who decided (account or imported name)."""
        return account_label(self.decided_by, self.decided_by_name)

    def __str__(self) -> str:
        return _("Entscheidung zu %(table)s, Spiel %(number)s") % {
            "table": self.table,
            "number": self.hand_number,
        }


@receiver(pre_create_historical_record)
def _history_author_text(sender, instance, history_instance, **kwargs) -> None:
    """A version written through a table link has no account: its history record names
    the table ("Tisch 7 (Link)", set by the service as ``_history_user_name``)."""
    name = getattr(instance, "_history_user_name", "")
    if name and hasattr(history_instance, "history_user_name"):
        history_instance.history_user_name = name
