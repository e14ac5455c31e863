"""The engine's field errors in the user's language.

The rules engine reports each problem as a stable ``code`` with ``params`` and an English
sentence; the web app shows its own translated sentence for every code the clerk can cause,
naming the field in the words of the score sheet.  Unknown codes fall back to the engine's
English text, so no error is ever swallowed.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from rules import FieldError, Ruleset


def engine_message(error: FieldError, ruleset: Ruleset) -> str:
    """A translated message for one engine :class:`rules.FieldError`."""
    p = error.params
    base = error.field.split("[")[0].split(".")[0]
    code = error.code
    if code == "min_bid":
        return _("Reizwert %(bid)s liegt unter dem Mindestgebot %(min)s.") % p
    if code == "step":
        return (
            _(
                "Reizwert %(bid)s passt nicht zu den Reizstufen (ab %(min)s in Schritten von %(step)s)."
            )
            % p
        )
    if code == "sum":
        return _("Die Stichpunkte ergeben %(sum)s statt %(total)s.") % p
    if code == "impossible":
        if p.get("taken") is not None:
            return _("%(value)s Stichpunkte sind mit %(taken)s Stichen nicht möglich.") % p
        return _("%(value)s Stichpunkte sind mit diesen Kartenwerten nicht möglich.") % p
    if code == "multiple" and base == "melds":
        return _("Meldung %(value)s ist kein Vielfaches von 10.") % p
    if code == "negative":
        return _("Darf nicht negativ sein.")
    if code == "required":
        return {
            "melds": _("Meldungen fehlen."),
            "tricks": _("Stichpunkte fehlen."),
            "won": _("Bitte angeben, ob das Sonderspiel gewonnen wurde."),
        }.get(base, _("Pflichtfeld."))
    if code == "not_played":
        if base == "outcome":
            return _("Dieses Spiel wird nach dem Regelwerk „%(name)s“ nicht gespielt.") % {
                "name": ruleset.name_de
            }
        return _("Diese Strafe kennt das Regelwerk nicht.")
    if code == "abgehen_not_allowed":
        return (
            _(
                "Abgehen ist nur erlaubt, wenn der Reizwert %(bid)s über Meldung + alle Stichpunkte "
                "(%(limit)s) liegt."
            )
            % p
        )
    if code == "no_melds_in_special":
        return _("Bei Durch und Bettel wird nicht gemeldet.")
    if code == "not_counted":
        return _("Bei diesem Ausgang werden keine Stiche gezählt.")
    if code == "misdiscard_seat":
        return _("Falsch drücken kann nur der Spielführer.")
    if code == "seat":
        return _("Dieser Platz ist nicht am Tisch.")
    if code == "choice":
        return _("Ungültige Auswahl.")
    if code == "type":
        return (
            _("Bitte eine ganze Zahl eingeben.")
            if base in ("bid", "melds", "tricks")
            else _("Bitte auswählen.")
        )
    return error.message
