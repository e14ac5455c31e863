"""Forms of the prize set-up page: one line of the prize list, and the tie-break."""

from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy as _

from tournament.forms import IdChoiceField
from tournament.models import Category, Tournament

from .models import Prize

#: Highest cash prize the prize list accepts, in EUR (a typo with extra zeros is refused).
MAX_PRIZE = 100_000


class PrizeForm(forms.ModelForm):
    """One line of the prize list.  Cash in EUR with the language's decimal separator
    ("100" or "12,50"); which of place, "bis Platz" and category a line needs depends on
    its kind, and a missing one is named at its field."""

    cash = forms.DecimalField(
        label=_("Geld (EUR)"),
        required=False,
        min_value=0,
        max_value=MAX_PRIZE,
        max_digits=7,
        decimal_places=2,
        localize=True,  # "12,50" in German, "12.50" in English
        widget=forms.TextInput(attrs={"inputmode": "decimal", "placeholder": "100", "size": 7}),
    )

    class Meta:
        model = Prize
        fields = ["kind", "place", "place_to", "category", "cash", "description"]
        field_classes = {"category": IdChoiceField}  # only ids reach the database
        widgets = {
            "place": forms.NumberInput(attrs={"min": 1, "max": 9999, "size": 4}),
            "place_to": forms.NumberInput(attrs={"min": 1, "max": 9999, "size": 4}),
            "description": forms.TextInput(
                attrs={"placeholder": _("z. B. Präsentkorb"), "size": 18}
            ),
        }

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].queryset = (
            tournament.categories.all() if tournament is not None else Category.objects.none()
        )
        self.fields["place"].validators.append(MaxValueValidator(9999))
        self.fields["place_to"].validators.append(MaxValueValidator(9999))

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        place, place_to = data.get("place"), data.get("place_to")
        if kind in (Prize.Kind.PLACE, Prize.Kind.TABLE):
            if place is None and "place" not in self.errors:
                self.add_error("place", _("Bitte den Platz angeben."))
            if place is not None and place < 1:
                self.add_error("place", _("Plätze beginnen bei 1."))
            if place is not None and place_to is not None and place_to < place:
                self.add_error("place_to", _("„bis Platz“ darf nicht vor dem Platz liegen."))
        if kind == Prize.Kind.CATEGORY and data.get("category") is None:
            if "category" not in self.errors:
                self.add_error("category", _("Bitte die Kategorie wählen."))
        if kind in (Prize.Kind.PLACE, Prize.Kind.CATEGORY, Prize.Kind.LAST):
            if data.get("cash") is None and not data.get("description"):
                self.add_error("description", _("Bitte Geld oder einen Preis angeben."))
        return data


class TieBreakForm(forms.ModelForm):
    """The tournament's tie-break (:attr:`tournament.models.Tournament.tie_break`)."""

    class Meta:
        model = Tournament
        fields = ["tie_break"]
        widgets = {"tie_break": forms.RadioSelect}
