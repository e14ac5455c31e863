"""Forms of the archive: the choices for the newspaper report (:mod:`archive.press`) and
where the club's website lives (:mod:`archive.publish`)."""

from __future__ import annotations

from pathlib import Path

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


class PublishForm(forms.Form):
    """Where the club's website lives, for the venue's publisher
    (:mod:`archive.publish.live`).  The password field left empty keeps the stored one."""

    target = forms.CharField(
        label=_("Ziel"), max_length=500,
        help_text=_(
            "sftp://benutzer@server:22/ordner, ftps://benutzer@server/ordner "
            "oder ein Ordner auf diesem Laptop (z. B. ein Cloud-Ordner)."
        ),
    )  # fmt: skip
    password = forms.CharField(
        label=_("Passwort"), max_length=200, required=False, strip=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
        help_text=_("Leer lassen: das gespeicherte bleibt."),
    )  # fmt: skip
    key_file = forms.CharField(
        label=_("SFTP-Schlüsseldatei (statt Passwort)"), max_length=500, required=False
    )
    interval_minutes = forms.IntegerField(
        label=_("Alle wie viele Minuten"), min_value=0, max_value=120, initial=5,
        help_text=_("0: nur nach jeder Runde und auf Knopfdruck."),
    )  # fmt: skip
    allow_plain_ftp = forms.BooleanField(
        label=_("Einfaches FTP erlauben (Passwort geht lesbar durchs Netz)"), required=False
    )

    def clean_target(self) -> str:
        from .publish import PublishError, parse_target

        value = self.cleaned_data["target"].strip()
        try:
            target = parse_target(value)
        except PublishError as exc:
            raise forms.ValidationError(str(exc)) from exc
        if target.scheme == "folder" and not Path(target.path).is_absolute():
            raise forms.ValidationError(_("Bitte den vollen Pfad des Ordners angeben."))
        return value
