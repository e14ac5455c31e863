"""Director forms: a new tournament, and registering a player."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from rules import PRESETS

from .models import Player, Tournament


class TournamentForm(forms.Form):
    """A new tournament: a preset ruleset, optionally with parameter overrides as JSON
    (e.g. ``{"min_bid": 200}``), frozen into the tournament by the service."""

    name = forms.CharField(label=_("Name"), max_length=200)
    date = forms.DateField(label=_("Datum"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Ort"), max_length=200, required=False)
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
        label=_("Spiele je Runde"), min_value=3, max_value=60, initial=12
    )
    four_table_mode = forms.ChoiceField(
        label=_("Vierertisch"), choices=Tournament.FourTableMode.choices
    )
    entry_mode = forms.ChoiceField(label=_("Erfassung"), choices=Tournament.EntryMode.choices)
    lost_game_fee = forms.DecimalField(
        label=_("Gebühr je verlorenem Spiel (EUR)"),
        required=False,
        min_value=0,
        max_digits=5,
        decimal_places=2,
    )

    def clean_overrides(self) -> dict:
        text = self.cleaned_data["overrides"].strip()
        if not text:
            return {}
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(_("Kein gültiges JSON: %(e)s") % {"e": exc}) from exc
        if not isinstance(value, dict):
            raise forms.ValidationError(_('Bitte ein JSON-Objekt angeben, z. B. {"min_bid": 200}.'))
        return value


class RegistrationForm(forms.ModelForm):
    """A player for this tournament; an existing player with the same name and club is
    reused.  Without a start number the next free one is given."""

    start_number = forms.IntegerField(label=_("Startnummer"), min_value=1, required=False)
    first_round = forms.IntegerField(label=_("ab Runde"), min_value=1, initial=1)

    class Meta:
        model = Player
        fields = ["first_name", "last_name", "club", "consent_public"]
