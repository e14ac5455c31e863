"""Forms of the archive: the choices for the newspaper report (:mod:`archive.press`)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.text import StorableText

from . import press


class PressOptionsForm(forms.Form):
    """What the report lists: places up to N, the last place, players without consent."""

    places = forms.IntegerField(
        label=_("Plätze bis"), min_value=1, max_value=100, initial=10,
        help_text=_("Der Sieger und die Plätze danach bis zu dieser Zahl."),
    )  # fmt: skip
    lantern = forms.BooleanField(label=_("Rote Laterne nennen (letzter Platz)"), required=False)
    hidden = forms.ChoiceField(
        label=_("Spieler ohne Einwilligung"),
        choices=[
            (press.ANONYMOUS, _("„eine Person, die nicht genannt werden möchte“")),
            (press.OMIT, _("weglassen")),
        ],
        initial=press.ANONYMOUS,
    )

    def options(self) -> press.Options:
        """The valid form as :class:`archive.press.Options`."""
        data = self.cleaned_data
        return press.Options(data["places"], data["lantern"], data["hidden"])


class PressTextForm(forms.Form):
    """The report as edited on the page, and the file to download it as."""

    text = forms.CharField(
        label=_("Text"),
        widget=forms.Textarea(attrs={"rows": 18}),
        max_length=20000,
        validators=[StorableText()],
    )
    format = forms.ChoiceField(choices=[("txt", _("Text")), ("docx", _("Word (DOCX)"))])
