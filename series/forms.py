"""The form of a series' page: name, season, evenings and rule."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.forms import IdMultipleChoiceField, model_length
from tournament.models import Series, Tournament


class SeriesForm(forms.Form):
    """A series: name, season, the evenings (tournaments) and the rule; checked by
    :func:`series.services.save_series`."""

    name = forms.CharField(label=_("Name"), max_length=model_length(Series, "name"))
    season = forms.CharField(
        label=_("Saison"),
        max_length=model_length(Series, "season"),
        help_text=_("z. B. 2026 oder 2026/27"),
    )
    tournaments = IdMultipleChoiceField(
        label=_("Turniere (Abende)"),
        queryset=Tournament.objects.order_by("-date", "name"),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Jedes Turnier behält sein eigenes eingefrorenes Regelwerk."),
    )
    counting = forms.ChoiceField(label=_("Wertung"), choices=Series.Counting.choices)
    placement_points = forms.CharField(
        label=_("Punkte je Platz"),
        max_length=1000,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "25,20,16,13,11,10,9,8,7,6,5,4,3,2,1"}),
        help_text=Series._meta.get_field("placement_points").help_text,
    )
    best_of = forms.IntegerField(
        label=_("Nur die besten N Abende zählen"),
        min_value=1,
        max_value=100,
        required=False,
        help_text=_("Leer: alle Abende zählen."),
    )
    min_evenings = forms.IntegerField(
        label=_("Platz erst ab K gespielten Abenden"),
        min_value=1,
        max_value=100,
        required=False,
        help_text=_("Leer: nur wer an allen abgeschlossenen Abenden gespielt hat."),
    )
