"""Director forms: a new tournament, registering a player, adjusting a round's seating."""

from __future__ import annotations

import json
from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, SetPasswordForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils import formats
from django.utils.translation import gettext_lazy as _

from rules import PRESETS
from tournament.roles import CLERK_GROUP

from .models import Player, Registration, Table, Tournament
from .params import id_value
from .text import StorableText

#: Highest lost-game fee in euros the set-up form accepts; more is almost surely cents typed
#: as euros (a club charges cents to a few euros per lost game).
MAX_FEE = Decimal("20")


# --------------------------------------------------------------------------- id fields


def _shown(value) -> str:
    """``value`` as a short printable text for an error message."""
    text = str(value)
    shown = "".join(c if c.isprintable() else "?" for c in text[:24])
    return f"{shown}…" if len(text) > 24 else shown


def _id_error(field: forms.Field, value, message) -> ValidationError:
    """The error of an id field: ``message`` naming the field (its label) and the value."""
    return ValidationError(
        message, code="invalid_choice", params={"field": field.label or "", "value": _shown(value)}
    )


class IdField(forms.IntegerField):
    """A primary key typed into a form (a player's number): ASCII digits 1 …
    :data:`tournament.params.MAX_ID` only.  Anything else is refused with a message naming the
    field before it reaches the database (where SQLite raises ``OverflowError`` for a number
    beyond 64 bits and PostgreSQL an out-of-range error)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 1)
        super().__init__(**kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        number = id_value(str(value).strip())
        if number is None:
            raise _id_error(self, value, _("„%(field)s“: %(value)s ist keine gültige Nummer."))
        return number


class IdChoiceMixin:
    """For choice fields of model instances by primary key: a value that is no id
    (:func:`tournament.params.id_value`: ASCII digits 1 … ``MAX_ID``) is refused as an invalid
    choice before any query, and every invalid choice is named with the field's label."""

    invalid_id_message = _("„%(field)s“: %(value)s ist keine gültige Auswahl.")

    def _check_id(self, value) -> None:
        if not isinstance(value, self.queryset.model) and id_value(value) is None:
            raise _id_error(self, value, self.invalid_id_message)

    def _named(self, exc: ValidationError, value) -> ValidationError:
        """Django's own "invalid choice" error, reworded to name the field."""
        if getattr(exc, "code", None) == "invalid_choice":
            return _id_error(self, (exc.params or {}).get("value", value), self.invalid_id_message)
        return exc


class IdChoiceField(IdChoiceMixin, forms.ModelChoiceField):
    """``ModelChoiceField`` by primary key that refuses what is no id (:class:`IdChoiceMixin`)."""

    def to_python(self, value):
        if value in self.empty_values or isinstance(value, self.queryset.model):
            return super().to_python(value)
        self._check_id(value)
        try:
            return super().to_python(value)
        except ValidationError as exc:
            raise self._named(exc, value) from exc


class IdMultipleChoiceField(IdChoiceMixin, forms.ModelMultipleChoiceField):
    """``ModelMultipleChoiceField`` by primary key that refuses what is no id
    (:class:`IdChoiceMixin`); Django would send every value to the database in one
    ``pk__in`` query, which is where a 30-digit number made a 500."""

    def _check_values(self, value):
        try:
            values = sorted(frozenset(value), key=str)
        except TypeError:  # not a list of values: Django's own error
            return super()._check_values(value)
        for item in values:
            self._check_id(item)
        try:
            return super()._check_values(value)
        except ValidationError as exc:
            raise self._named(exc, value) from exc


def model_length(model, field: str) -> int:
    """The ``max_length`` of ``model``'s ``field``: the one bound a form field reads, so
    the form and the database column never disagree (issue 39.2)."""
    return model._meta.get_field(field).max_length


class TournamentForm(forms.Form):
    """A new tournament: a preset ruleset, optionally with parameter overrides as JSON
    (e.g. ``{"min_bid": 200}``), frozen into the tournament by the service."""

    name = forms.CharField(
        label=_("Name"), max_length=model_length(Tournament, "name"), validators=[StorableText()]
    )
    date = forms.DateField(label=_("Datum"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(
        label=_("Ort"),
        max_length=model_length(Tournament, "venue"),
        required=False,
        validators=[StorableText()],
    )
    preset = forms.ChoiceField(
        label=_("Regelwerk"), choices=[(rid, rs.name_de) for rid, rs in PRESETS.items()]
    )
    overrides = forms.CharField(
        label=_("Abweichungen vom Regelwerk (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": '{"min_bid": 200}'}),
    )
    rounds = forms.IntegerField(label=_("Runden"), min_value=1, max_value=10, initial=3)
    games_per_round = forms.IntegerField(
        label=_("Spiele je Runde"),
        min_value=Tournament.GAMES_PER_ROUND_MIN,
        max_value=Tournament.GAMES_PER_ROUND_MAX,
        initial=12,
    )
    four_table_mode = forms.ChoiceField(
        label=_("Vierertisch"), choices=Tournament.FourTableMode.choices
    )
    entry_mode = forms.ChoiceField(label=_("Erfassung"), choices=Tournament.EntryMode.choices)
    event_type = forms.ChoiceField(
        label=_("Einzel- oder Paarwertung"),
        choices=Tournament.EventType.choices,
        initial=Tournament.EventType.INDIVIDUAL,
        required=False,  # left out (older scripts posting the form): individual
        help_text=Tournament._meta.get_field("event_type").help_text,
    )
    lost_game_fee = forms.DecimalField(
        label=_("Gebühr je verlorenem Spiel (EUR)"),
        required=False,
        min_value=0,
        max_digits=5,
        decimal_places=2,
        localize=True,  # "0,50" in German, "0.50" in English
        widget=forms.TextInput(attrs={"inputmode": "decimal", "placeholder": "0,50"}),
        help_text=_("In Euro, z. B. 0,50 für 50 Cent."),
    )

    round_minutes = forms.IntegerField(
        label=_("geplante Dauer je Runde (Minuten)"),
        required=False,
        min_value=10,
        max_value=600,
        help_text=_(
            "Freiwillig: Beamer und Handys zeigen die Restzeit der Runde; bei Zeitablauf "
            "passiert nichts von selbst."
        ),
    )

    confirmation_required = forms.BooleanField(
        label=_("Eingaben bestätigen lassen (zweiter Schreiber)"), required=False
    )
    mark_unconfirmed = forms.BooleanField(
        label=_("Unbestätigte Eingaben in der Rangliste kennzeichnen"), required=False, initial=True
    )
    missed_rounds = forms.ChoiceField(
        label=_("Späte Ankunft, vorzeitiger Abschied"),
        choices=Tournament.MissedRounds.choices,
        initial=Tournament.MissedRounds.ZERO,
        required=False,  # left out (older scripts posting the form): the default
        help_text=Tournament._meta.get_field("missed_rounds").help_text,
    )
    tie_break = forms.ChoiceField(
        label=_("Gleichstand"),
        choices=Tournament.TieBreak.choices,
        initial=Tournament.TieBreak.SHARED,
        required=False,  # left out: shared places, the clubs' custom
        help_text=Tournament._meta.get_field("tie_break").help_text,
    )

    clerks = IdMultipleChoiceField(
        label=_("Schreiber dieses Turniers"),
        queryset=get_user_model().objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Nur diese Konten (und die Turnierleitung) erfassen hier Ergebnisse."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["clerks"].queryset = (
            get_user_model()
            .objects.filter(groups__name=CLERK_GROUP, is_active=True)
            .order_by("username")
        )
        # the director's last choice: the clerks of the newest tournament are ticked
        last = Tournament.objects.order_by("-date", "-pk").first()
        if last is not None and "clerks" not in self.initial:
            self.initial["clerks"] = list(last.clerks.values_list("pk", flat=True))

    def clean_lost_game_fee(self):
        """Refuse a fee above :data:`MAX_FEE` euros: "50" is almost surely meant as cents."""
        fee = self.cleaned_data.get("lost_game_fee")
        if fee is not None and fee > MAX_FEE:
            raise forms.ValidationError(
                _(
                    "%(fee)s € je verlorenem Spiel ist ungewöhnlich hoch (höchstens %(max)s €). "
                    "Für Cent bitte Euro mit Komma eingeben, z. B. 0,50."
                )
                % {"fee": formats.localize(fee), "max": formats.localize(MAX_FEE)}
            )
        return fee

    def clean_tie_break(self) -> str:
        return self.cleaned_data["tie_break"] or Tournament.TieBreak.SHARED

    def clean_event_type(self) -> str:
        return self.cleaned_data["event_type"] or Tournament.EventType.INDIVIDUAL

    def clean_missed_rounds(self) -> str:
        return self.cleaned_data["missed_rounds"] or Tournament.MissedRounds.ZERO

    def clean_overrides(self) -> dict:
        text = self.cleaned_data["overrides"].strip()
        if not text:
            return {}
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            # json's own message is English: say where, in the active language
            raise forms.ValidationError(
                _("Kein gültiges JSON: Fehler in Zeile %(line)s, Spalte %(col)s.")
                % {"line": exc.lineno, "col": exc.colno}
            ) from exc
        except (ValueError, RecursionError) as exc:  # an endless number or nesting
            raise forms.ValidationError(
                _("Kein gültiges JSON: eine Zahl ist zu lang oder die Schachtelung zu tief.")
            ) from exc
        if not isinstance(value, dict):
            raise forms.ValidationError(_('Bitte ein JSON-Objekt angeben, z. B. {"min_bid": 200}.'))
        if "\\u0000" in json.dumps(value):  # json writes a NUL character as \u0000
            # PostgreSQL's jsonb cannot store it; no ruleset text needs it
            raise forms.ValidationError(_("Das Zeichen \\u0000 ist nicht erlaubt."))
        return value


class RegistrationForm(forms.ModelForm):
    """A player for this tournament; an existing player with the same name and club is
    reused.  Without a start number the next free one is given.  ``consent_public`` is the
    answer for this tournament only."""

    consent_public = forms.BooleanField(
        label=_("Name darf bei diesem Turnier veröffentlicht werden"),
        required=False,
        help_text=_("Gilt nur für dieses Turnier."),
    )
    start_number = forms.IntegerField(
        label=_("Startnummer"), min_value=1, max_value=99_999, required=False
    )
    first_round = forms.IntegerField(label=_("ab Runde"), min_value=1, max_value=99, initial=1)
    # set by the type-ahead when a known player is chosen (static/js/registration.js)
    player_id = IdField(label=_("Spieler-Nr."), required=False, widget=forms.HiddenInput)

    class Meta:
        model = Player
        fields = ["first_name", "last_name", "club", "year_of_birth"]
        widgets = {
            "first_name": forms.TextInput(attrs={"autofocus": True, "autocomplete": "off"}),
            "last_name": forms.TextInput(attrs={"autocomplete": "off"}),
            "year_of_birth": forms.NumberInput(attrs={"placeholder": "1961"}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("first_name", "last_name", "club"):
            self.fields[name].validators.append(StorableText())


class PlayerListForm(forms.Form):
    """A pasted list of players, one a line as ``Nachname, Vorname; Verein``; read and
    checked by :func:`tournament.services.parse_player_list`.  ``confirm`` is set by the
    preview's "Alle anmelden" button."""

    players = forms.CharField(
        label=_("Spielerliste (eine Zeile je Spieler: Nachname, Vorname; Verein)"),
        max_length=20_000,
        validators=[StorableText()],
        widget=forms.Textarea(
            attrs={"rows": 6, "cols": 50, "placeholder": "Maier, Anna; SV Musterdorf"}
        ),
    )
    first_round = forms.IntegerField(label=_("ab Runde"), min_value=1, max_value=99, initial=1)


class RegistrationEditForm(forms.Form):
    """Correct a registration: the player's name and club, and this tournament's consent."""

    first_name = forms.CharField(
        label=_("Vorname"),
        max_length=model_length(Player, "first_name"),
        widget=forms.TextInput(attrs={"autofocus": True}),
        validators=[StorableText()],
    )
    last_name = forms.CharField(
        label=_("Nachname"),
        max_length=model_length(Player, "last_name"),
        validators=[StorableText()],
    )
    club = forms.CharField(
        label=_("Verein"),
        max_length=model_length(Player, "club"),
        required=False,
        validators=[StorableText()],
    )
    consent_public = forms.BooleanField(
        label=_("Name darf bei diesem Turnier veröffentlicht werden"), required=False
    )


class PairForm(forms.Form):
    """Two start numbers that play together as a fixed pair (pairs event); checked by
    :func:`tournament.services.form_pair`."""

    first = forms.IntegerField(label=_("Startnummer"), min_value=1, max_value=99999)
    second = forms.IntegerField(label=_("Partner (Startnummer)"), min_value=1, max_value=99999)

    def clean(self):
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", _("Bitte zwei verschiedene Startnummern angeben."))
        return data


class SwapForm(forms.Form):
    """Two start numbers whose seats are exchanged before the round starts."""

    first = forms.IntegerField(label=_("Startnummer"), min_value=1, max_value=99999)
    second = forms.IntegerField(label=_("tauschen mit Startnummer"), min_value=1, max_value=99999)

    def clean(self):
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            self.add_error("second", _("Bitte zwei verschiedene Startnummern angeben."))
        return data

    def registrations(self, tournament: Tournament) -> tuple[Registration, Registration]:
        """The two registrations; raises ``ValidationError`` naming the field of an unknown
        start number."""
        found = {
            r.start_number: r
            for r in tournament.registrations.filter(
                start_number__in=[self.cleaned_data["first"], self.cleaned_data["second"]]
            )
        }
        errors = {
            name: [_("Startnummer %(n)s ist nicht angemeldet.") % {"n": self.cleaned_data[name]}]
            for name in ("first", "second")
            if self.cleaned_data[name] not in found
        }
        if errors:
            raise forms.ValidationError(errors)
        return found[self.cleaned_data["first"]], found[self.cleaned_data["second"]]


class TableRolesForm(forms.Form):
    """First dealer and scorer of one table, chosen among its players."""

    def __init__(self, *args, table: Table, **kwargs):
        kwargs.setdefault("initial", {"first_dealer": table.first_dealer, "scorer": table.scorer})
        super().__init__(*args, **kwargs)
        players = [
            (s.position, f"{s.registration.start_number} {s.registration.player}")
            for s in table.seats.all()
        ]
        self.fields["first_dealer"] = forms.TypedChoiceField(
            label=_("erster Geber"), choices=players, coerce=int
        )
        self.fields["scorer"] = forms.TypedChoiceField(
            label=_("Schreiber"), choices=players, coerce=int
        )


class PlayerMergeForm(forms.Form):
    """Two records of one person by their player numbers: ``keep`` stays, ``duplicate``
    is merged into it (:func:`tournament.services.merge_players`)."""

    keep = IdField(label=_("Behalten: Spieler-Nr."))
    duplicate = IdField(label=_("Zusammenführen: Spieler-Nr."))

    def players(self) -> tuple[Player, Player]:
        """The two players; raises ``ValidationError`` naming the field of an unknown
        number."""
        found = Player.objects.in_bulk([self.cleaned_data["keep"], self.cleaned_data["duplicate"]])
        errors = {
            name: [_("Spieler-Nr. %(n)s gibt es nicht.") % {"n": self.cleaned_data[name]}]
            for name in ("keep", "duplicate")
            if self.cleaned_data[name] not in found
        }
        if errors:
            raise forms.ValidationError(errors)
        return found[self.cleaned_data["keep"]], found[self.cleaned_data["duplicate"]]


class LoginForm(AuthenticationForm):
    """Django's login form with the user name's length enforced before any lookup, so an
    over-long name is a field error (django-axes records failed names in a 255-character
    column)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].validators.append(
            MaxLengthValidator(self.fields["username"].max_length or 150)
        )


class NewAccountForm(UserCreationForm):
    """A new account's name and its password typed twice, checked by Django's password
    validators (``AUTH_PASSWORD_VALIDATORS``): the first-run page and the director's
    clerk page.  Errors are German at their field."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = _("Buchstaben, Ziffern und @ . + - _")
        self.fields["username"].validators.append(
            MaxLengthValidator(self.fields["username"].max_length or 150)
        )


class ClerkPasswordForm(SetPasswordForm):
    """A clerk's new password typed twice (Django's validators), set by the director."""


class ClerkTournamentsForm(forms.Form):
    """The tournaments a clerk may enter for (ticked boxes), newest first."""

    tournaments = IdMultipleChoiceField(
        label=_("darf erfassen bei"),
        queryset=Tournament.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournaments"].queryset = Tournament.objects.order_by("-date", "-pk")


def apply_errors(form, exc: ValidationError) -> None:
    """Show a service's ``ValidationError`` on ``form``: at its field where it names one of
    the form's fields, else above the form.  Used by every director page that calls a
    service (the tournament's and the series' pages)."""
    if not hasattr(exc, "error_dict"):
        for error in exc.messages:
            form.add_error(None, error)
        return
    for field, errors in exc.message_dict.items():
        for error in errors:
            form.add_error(field if field in form.fields else None, error)
