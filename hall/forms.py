"""The hall's forms: field shapes only; the services check the rest (bounds, storable
text) and their errors are shown at the fields (:func:`tournament.forms.apply_errors`)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.forms import model_length
from tournament.models import Tournament

from .models import Announcement, DirectorCall
from .services import MAX_ANNOUNCEMENT_MINUTES


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label=_("Durchsage"),
        max_length=model_length(Announcement, "text"),
        widget=forms.TextInput(attrs={"placeholder": _("z. B. Runde 2 beginnt um 20:15")}),
    )
    minutes = forms.IntegerField(
        label=_("Anzeigen für (Minuten, leer: bis zum Zurücknehmen)"),
        required=False,
        min_value=1,
        max_value=MAX_ANNOUNCEMENT_MINUTES,
    )


class CallForm(forms.Form):
    reason = forms.CharField(
        label=_("Grund (freiwillig)"),
        max_length=model_length(DirectorCall, "reason"),
        required=False,
        widget=forms.TextInput(attrs={"placeholder": _("z. B. Streit um ein Spiel")}),
    )


class ClockForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ["round_minutes", "idle_minutes"]
        help_texts = {
            "round_minutes": _("Leer: keine Rundenuhr. Bei Zeitablauf passiert nichts von selbst."),
        }
