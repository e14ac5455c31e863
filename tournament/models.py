"""Tournament set-up: the event, its frozen ruleset, players, registrations, rounds, tables.

Business rules live in :mod:`tournament.services` (draw, registration) and
:mod:`scoring.services` (hand entry); models hold data and database constraints only.
"""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from rules import Ruleset


class Tournament(models.Model):
    """One event ("Turnier"): its date and venue, the ruleset frozen at set-up, and the
    number of rounds and games per round (FIELD-NOTES: 3 rounds of 9, 12 or 15 games).

    With ``confirmation_required`` every entry counts as provisional until a second account
    confirms it (FIELD-NOTES: enterer and confirmer differ); ``mark_unconfirmed`` then
    flags provisional points in the public standings.  ``event_type``: individual play
    (the default) or fixed pairs (``pairs``: only with a ruleset played at tables of four
    by partners, see :func:`tournament.services.create_tournament`).  ``missed_rounds`` says how the
    overall standings treat a player who missed a round (club's decision): 0 points, ranked
    but without a prize place, or left out.  ``tie_break`` orders players on equal points
    (FIELD-NOTES: shared places are the custom; some clubs take the best single round, then
    fewer lost games).  Only the accounts in ``clerks`` (and the director) enter results of
    this tournament — and, with ``table_entry`` switched on, the players of a table through
    its private link (:class:`scoring.models.TableLink`), confirmed by an opponent's device
    or by a clerk as ``table_entry`` says."""

    #: The one bound of games per round (FIELD-NOTES: 9, 12 or 15 are usual), read by the
    #: model, the set-up form and the import checks.  A game number is 1 … the
    #: tournament's ``games_per_round`` (:func:`scoring.services.game_number_error`), so
    #: no game number and no count of games won or lost exceeds the maximum.
    GAMES_PER_ROUND_MIN = 3
    GAMES_PER_ROUND_MAX = 60

    class FourTableMode(models.TextChoices):
        SIT_OUT = "sit-out", _("Geber setzt aus")
        KREUZ = "kreuz", _("Kreuzbinokel (2 gegen 2)")

    class EntryMode(models.TextChoices):
        HANDS = "hands", _("Jedes Spiel eintragen")
        TOTALS = "totals", _("Nur Rundensummen eintragen")

    class TableEntry(models.TextChoices):
        OFF = "", _("Aus: nur Schreiber erfassen")
        OPPONENT = "opponent", _("Am Tisch: ein Gegenspieler bestätigt mit „stimmt“")
        CLERK = "clerk", _("Am Tisch: ein Schreiber bestätigt")

    class EventType(models.TextChoices):
        INDIVIDUAL = "individual", _("Einzelwertung")
        PAIRS = "pairs", _("Paarwertung (feste Partner)")

    class MissedRounds(models.TextChoices):
        ZERO = "zero", _("Verpasste Runden zählen 0 Punkte")
        UNPLACED = "unplaced", _("Mitgewertet, gekennzeichnet, ohne Preisplatz")
        EXCLUDED = "excluded", _("Nicht in der Gesamtwertung")

    class TieBreak(models.TextChoices):
        SHARED = "shared", _("Gleicher Platz bei Punktgleichheit")
        BEST_ROUND = (
            "best-round",
            _("Beste Einzelrunde, dann weniger verlorene Spiele, dann gleicher Platz"),
        )

    name = models.CharField(_("Name"), max_length=200)
    date = models.DateField(_("Datum"))
    venue = models.CharField(_("Ort"), max_length=200, blank=True)
    preset = models.CharField(_("Regelwerk (Vorlage)"), max_length=60)
    ruleset_json = models.JSONField(_("Regelwerk (eingefroren)"))
    ruleset_fingerprint = models.CharField(_("Fingerabdruck"), max_length=16, editable=False)
    rounds = models.PositiveSmallIntegerField(
        _("Runden"), default=3, validators=[MinValueValidator(1)]
    )
    games_per_round = models.PositiveSmallIntegerField(
        _("Spiele je Runde"),
        default=12,
        validators=[
            MinValueValidator(GAMES_PER_ROUND_MIN),
            MaxValueValidator(GAMES_PER_ROUND_MAX),
        ],
    )
    four_table_mode = models.CharField(
        _("Vierertisch"), max_length=10, choices=FourTableMode, default=FourTableMode.SIT_OUT
    )
    entry_mode = models.CharField(
        _("Erfassung"), max_length=10, choices=EntryMode, default=EntryMode.HANDS
    )
    event_type = models.CharField(
        _("Einzel- oder Paarwertung"),
        max_length=10,
        choices=EventType,
        default=EventType.INDIVIDUAL,
        help_text=_(
            "Paarwertung nur mit einem Partner-Regelwerk an Vierertischen (Partnerschaft 250): "
            "feste Paare, die Rangliste zählt je Paar."
        ),
    )
    #: the round clock (issue 41): the planned length of a round, shown as time left on
    #: the projector and the phones; ``None``: no clock.  Nothing happens by itself when
    #: the time is up: the director decides.
    round_minutes = models.PositiveSmallIntegerField(
        _("geplante Dauer je Runde (Minuten)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(10), MaxValueValidator(600)],
    )
    #: the director's console marks a table idle when nothing was entered for so long
    idle_minutes = models.PositiveSmallIntegerField(
        _("Tisch ohne Eingabe markieren nach (Minuten)"),
        default=15,
        validators=[MinValueValidator(1), MaxValueValidator(120)],
    )
    lost_game_fee = models.DecimalField(
        _("Gebühr je verlorenem Spiel (EUR)"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
    )
    lost_game_fee_from = models.PositiveSmallIntegerField(
        _("Gebühr ab dem n-ten verlorenen Spiel"), default=1, validators=[MinValueValidator(1)]
    )
    confirmation_required = models.BooleanField(
        _("Eingaben bestätigen lassen"),
        default=False,
        help_text=_("Jede Eingabe bestätigt ein zweites Konto, nie dasselbe, das sie erfasst hat."),
    )
    mark_unconfirmed = models.BooleanField(
        _("Unbestätigte Eingaben in der Rangliste kennzeichnen"), default=True
    )
    missed_rounds = models.CharField(
        _("Späte Ankunft, vorzeitiger Abschied"),
        max_length=10,
        choices=MissedRounds,
        default=MissedRounds.ZERO,
        help_text=_(
            "Wie die Gesamtwertung Spieler führt, die eine Runde verpasst haben (ab Runde 2 "
            "dabei oder vorher abgereist)."
        ),
    )
    tie_break = models.CharField(
        _("Gleichstand"),
        max_length=12,
        choices=TieBreak,
        default=TieBreak.SHARED,
        help_text=_(
            "Wie punktgleiche Spieler in der Gesamtwertung geordnet werden. Verbreitet ist der "
            "gleiche Platz; manche Vereine entscheiden nach der besten Einzelrunde."
        ),
    )
    table_entry = models.CharField(
        _("Eintragen am Tisch"),
        max_length=10,
        choices=TableEntry,
        blank=True,
        default=TableEntry.OFF,
        help_text=_(
            "Spieler tragen die Spiele ihres Tisches über den Tisch-Link (QR-Code) selbst ein; "
            "bis zur Bestätigung zählen sie vorläufig."
        ),
    )
    clerks = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="clerk_of",
        verbose_name=_("Schreiber"),
        help_text=_("Konten, die bei diesem Turnier Spiele erfassen und bestätigen dürfen."),
    )
    #: the door (issue 41.6): with ``check_in`` a round is drawn only among the players
    #: checked in at the door (registered beforehand: "angemeldet"); ``start_fee`` is the
    #: start fee per player; ``clerks_at_door``: the tournament's clerks may check players
    #: in and mark fees, not only the director
    check_in = models.BooleanField(
        _("Einlass mit Check-in"),
        default=False,
        help_text=_("Ausgelost werden nur Spieler, die am Einlass eingecheckt sind."),
    )
    start_fee = models.DecimalField(
        _("Startgeld (EUR)"),
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    clerks_at_door = models.BooleanField(
        _("Schreiber dürfen einchecken und Startgeld vermerken"), default=False
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: loaded by ``manage.py load_demo``: every page of a database holding one says so
    is_demo = models.BooleanField(_("Demo-Turnier"), default=False, editable=False)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("Turnier")
        verbose_name_plural = _("Turniere")

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d.%m.%Y})"

    @property
    def marks_provisional(self) -> bool:
        """Whether the standings flag provisional points: entries await confirmation
        (``confirmation_required``, or hands entered at the table) and the tournament
        marks them (``mark_unconfirmed``)."""
        return (self.confirmation_required or bool(self.table_entry)) and self.mark_unconfirmed

    @cached_property
    def ruleset(self) -> Ruleset:
        """The frozen :class:`rules.Ruleset` this tournament is scored by."""
        return Ruleset.from_dict(self.ruleset_json)


class Player(models.Model):
    """A person who plays, reused by name and club for every tournament they enter (and
    chosen by type-ahead at registration, so a series recognises them across evenings).
    ``year_of_birth`` is optional.  Two records of one person are merged by
    :func:`tournament.services.merge_players`.

    Whether the name may appear publicly is decided per tournament by
    :attr:`Registration.consent_public` (FIELD-NOTES: players must consent, and consent is
    given for one event).  ``last_consent_public`` is only the answer given at the latest
    registration, to pre-fill the next one: never read it to decide what is shown."""

    first_name = models.CharField(_("Vorname"), max_length=100)
    last_name = models.CharField(_("Nachname"), max_length=100)
    club = models.CharField(_("Verein"), max_length=200, blank=True)
    year_of_birth = models.PositiveSmallIntegerField(
        _("Geburtsjahr"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1900), MaxValueValidator(2100)],
        help_text=_("Freiwillig; für Wertungen nach Alter (z. B. Jugend)."),
    )
    last_consent_public = models.BooleanField(
        _("Zuletzt gegebene Zustimmung (nur zum Vorbelegen)"),
        default=False,
        help_text=_(
            "Die Antwort bei der letzten Anmeldung. Ob der Name erscheint, entscheidet die "
            "Zustimmung der Anmeldung zum jeweiligen Turnier."
        ),
    )
    # corrections at the door (a typo in the name, the club) keep the earlier values
    history = HistoricalRecords()

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("Spieler")
        verbose_name_plural = _("Spieler")

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"


class Registration(models.Model):
    """A player's entry in one tournament with a start number.  Late arrivals join from
    ``first_round``; a withdrawal sets ``withdrawn_after_round``.  ``consent_public``: the
    player agreed to be named on this tournament's public pages, exports and printed lists
    (and only this tournament's); without it they appear by start number only.  ``pair``:
    in a pairs event, the pair number the two partners share (set by
    :func:`tournament.services.form_pair`, never more than two registrations a number)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )

    class Fee(models.TextChoices):
        OPEN = "", _("offen")
        PAID = "paid", _("bezahlt")
        WAIVED = "waived", _("erlassen")

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    start_number = models.PositiveIntegerField(_("Startnummer"), validators=[MinValueValidator(1)])
    first_round = models.PositiveSmallIntegerField(_("ab Runde"), default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(
        _("abgemeldet nach Runde"), null=True, blank=True
    )
    consent_public = models.BooleanField(
        _("Name darf veröffentlicht werden"),
        default=False,
        help_text=_("Gilt nur für dieses Turnier."),
    )
    pair = models.PositiveSmallIntegerField(
        _("Paar"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Paarwertung: die zwei Anmeldungen mit derselben Paarnummer spielen zusammen."),
    )
    #: when the player arrived at the door (``None``: registered, not (yet) there)
    checked_in_at = models.DateTimeField(_("eingecheckt um"), null=True, blank=True)
    fee = models.CharField(_("Startgeld"), max_length=10, choices=Fee, blank=True, default=Fee.OPEN)
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "start_number"]
        verbose_name = _("Anmeldung")
        verbose_name_plural = _("Anmeldungen")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "start_number"], name="unique_start_number"
            ),
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_player_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.start_number}: {self.player}"

    def present(self) -> bool:
        """Whether the player may be drawn: checked in at the door, or the tournament has
        no check-in (every registration is taken as present, as before issue 41)."""
        return self.checked_in_at is not None or not self.tournament.check_in

    def plays_in(self, round_number: int) -> bool:
        """Whether this player is seated in round ``round_number``."""
        if round_number < self.first_round:
            return False
        return self.withdrawn_after_round is None or round_number <= self.withdrawn_after_round

    def public_name(self) -> str:
        """The name for public pages: the player's name with consent to this tournament,
        else the start number."""
        if self.consent_public:
            return str(self.player)
        return _("Startnummer %(number)s") % {"number": self.start_number}


def validate_missing_entries(value) -> None:
    """``Round.forced_close_missing`` must be a list of ``{"table": n, "games": [n, …],
    "players": [n, …]}`` with whole numbers ≥ 1 (at most 500 tables, 1000 numbers each),
    and ``"unconfirmed": true`` on entries that were there but unconfirmed at the close;
    raises ``ValidationError`` otherwise (an imported file is checked like typed input)."""

    def numbers(items) -> bool:
        return (
            isinstance(items, list)
            and len(items) <= 1000
            and all(type(n) is int and 1 <= n <= 100_000 for n in items)
        )

    ok = isinstance(value, list) and len(value) <= 500
    for item in value if ok else []:
        ok = (
            isinstance(item, dict)
            and set(item) <= {"table", "games", "players", "unconfirmed"}
            and type(item.get("unconfirmed", False)) is bool
            and type(item.get("table")) is int
            and 1 <= item["table"] <= 10_000
            and numbers(item.get("games", []))
            and numbers(item.get("players", []))
        )
        if not ok:
            break
    if not ok:
        raise ValidationError(
            _(
                "Fehlende Eingaben: erwartet wird eine Liste von Tischen mit Spiel- oder Startnummern."
            )
        )


class Round(models.Model):
    """A round ("Runde", "Durchgang"): its seeded draw and its state.  ``closed_at`` is when
    the director closed it; a change to its entries after that is an adjustment."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("geplant")
        RUNNING = "running", _("läuft")
        CLOSED = "closed", _("abgeschlossen")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("Runde"), validators=[MinValueValidator(1)])
    seed = models.BigIntegerField(_("Auslosungs-Seed"), null=True, blank=True)
    status = models.CharField(_("Status"), max_length=10, choices=Status, default=Status.PLANNED)
    #: when the director started the round (the round clock counts from here)
    started_at = models.DateTimeField(_("gestartet am"), null=True, blank=True)
    closed_at = models.DateTimeField(_("abgeschlossen am"), null=True, blank=True)
    # A round closed although entries were missing or unconfirmed: the director's reason
    # and what was missing ([{"table": 4, "games": [11, 12], "players": []}, …]; unconfirmed
    # ones marked "unconfirmed": true), printed on the results.
    forced_close_reason = models.TextField(
        _("Grund für den Abschluss trotz fehlender Eingaben"),
        blank=True,
        default="",
        max_length=500,
    )
    forced_close_missing = models.JSONField(
        _("beim Abschluss fehlende Eingaben"),
        blank=True,
        default=list,
        validators=[validate_missing_entries],
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("Runde")
        verbose_name_plural = _("Runden")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")
        ]

    def __str__(self) -> str:
        return _("Runde %(number)s") % {"number": self.number}


class Table(models.Model):
    """A table of 3 or 4 players in one round.  ``first_dealer`` and ``scorer`` are seat
    positions (0-based)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("Tisch"), validators=[MinValueValidator(1)])
    first_dealer = models.PositiveSmallIntegerField(_("erster Geber"), default=0)
    scorer = models.PositiveSmallIntegerField(_("Schreiber"), default=0)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("Tisch")
        verbose_name_plural = _("Tische")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number")
        ]

    def __str__(self) -> str:
        return _("Tisch %(number)s") % {"number": self.number}


class Seat(models.Model):
    """A player's place at a table: ``position`` 0 … 3 in playing order."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    registration = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(_("Platz"))

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("Platz")
        verbose_name_plural = _("Plätze")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="unique_seat_position"),
            models.UniqueConstraint(
                fields=["round", "registration"], name="one_seat_per_player_per_round"
            ),
            models.CheckConstraint(condition=models.Q(position__lt=4), name="seat_position_0_3"),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.position}: {self.registration}"


def parse_placement_points(text: str) -> list[int]:
    """The placement points table of a series as typed ("25,20,16,13,11"): points for
    1st, 2nd, … place, whole numbers ≥ 0, comma- or space-separated, at most 200 places,
    never rising.  Raises ``ValidationError`` (German, naming the table) otherwise."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p.strip()]
    if not parts:
        raise ValidationError(_("Bitte Punkte je Platz angeben, z. B. 25,20,16,13,11."))
    if len(parts) > 200:
        raise ValidationError(_("Höchstens 200 Plätze in der Punktetabelle."))
    values = []
    for position, part in enumerate(parts, start=1):
        part = part.strip()
        if not (part.isascii() and part.isdigit()) or int(part) > 10_000:
            raise ValidationError(
                _("Platz %(n)s: „%(v)s“ ist keine ganze Zahl von 0 bis 10000.")
                % {"n": position, "v": part[:20]}
            )
        values.append(int(part))
    if any(b > a for a, b in zip(values, values[1:], strict=False)):
        raise ValidationError(_("Die Punkte dürfen mit schlechterem Platz nicht steigen."))
    return values


def validate_placement_points(value: str) -> None:
    """Field validator: an empty table or one :func:`parse_placement_points` accepts."""
    if value.strip():
        parse_placement_points(value)


class Series(models.Model):
    """A series of evenings ("Serie", "Cup", "Binokel-Triathlon"; FIELD-NOTES "The
    event"): several tournaments ranked together, each keeping its own frozen ruleset.

    The rule is data.  ``counting``: an evening gives its point total (``points``) or
    placement points from ``placement_points`` by the player's place that evening
    (``placement``; "25,20,16,…" for 1st, 2nd, 3rd …; places beyond the table give 0).
    ``best_of``: only a player's best N evenings count (empty: all).  ``min_evenings``:
    only players who played at least K evenings are ranked (empty: all evenings).
    Standings are computed from the results on every request
    (:func:`series.selectors.series_standings`), so a rule change recomputes them."""

    class Counting(models.TextChoices):
        POINTS = "points", _("Punkte aller gewerteten Abende addieren")
        PLACEMENT = "placement", _("Platzierungspunkte je Abend (Tabelle)")

    name = models.CharField(_("Name"), max_length=200)
    season = models.CharField(_("Saison"), max_length=40, help_text=_("z. B. 2026 oder 2026/27"))
    tournaments = models.ManyToManyField(
        Tournament, related_name="series", blank=True, verbose_name=_("Turniere (Abende)")
    )
    counting = models.CharField(
        _("Wertung"), max_length=10, choices=Counting, default=Counting.POINTS
    )
    placement_points = models.CharField(
        _("Punkte je Platz"),
        max_length=1000,
        blank=True,
        validators=[validate_placement_points],
        help_text=_("Für die Platzierungswertung: 1. Platz, 2. Platz, … z. B. 25,20,16,13,11"),
    )
    best_of = models.PositiveSmallIntegerField(
        _("Nur die besten N Abende zählen"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Leer: alle Abende zählen."),
    )
    min_evenings = models.PositiveSmallIntegerField(
        _("Gewertet ab K gespielten Abenden"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1)],
        help_text=_("Leer: nur wer an allen Abenden gespielt hat, erhält einen Platz."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # rule changes keep the earlier rule (who changed it, when)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-season", "name"]
        verbose_name = _("Serie")
        verbose_name_plural = _("Serien")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(counting="placement") | ~models.Q(placement_points=""),
                name="series_placement_needs_table",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.season})"

    @property
    def placement_table(self) -> list[int]:
        """``placement_points`` as numbers (``[]`` when empty)."""
        return parse_placement_points(self.placement_points) if self.placement_points else []


class Category(models.Model):
    """A category of one tournament ("Damen", "Jugend U18", "Gast", "Vereinsmitglied"): a
    tag the director gives to registrations, so the standings, exports and results list
    can be shown for the category alone with its own places.  ``slug`` is the name in the
    address (``?kategorie=damen``).  Changes of name and members are kept in the history."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(_("Kategorie"), max_length=60)
    slug = models.SlugField(_("Kurzname"), max_length=60)
    registrations = models.ManyToManyField(
        Registration, blank=True, related_name="categories", verbose_name=_("Spieler")
    )
    history = HistoricalRecords(m2m_fields=[registrations])

    class Meta:
        ordering = ["tournament", "name"]
        verbose_name = _("Kategorie")
        verbose_name_plural = _("Kategorien")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "slug"], name="unique_category_slug"),
        ]

    def __str__(self) -> str:
        return self.name
