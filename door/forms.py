"""The director's door settings (shapes only; :func:`door.services.set_door` checks and
saves)."""

from __future__ import annotations

from django import forms

from tournament.models import Tournament


class DoorSettingsForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ["check_in", "start_fee", "clerks_at_door"]
