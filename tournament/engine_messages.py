"""The engine's field errors in the user's language.

The rules engine reports each problem as a stable ``code`` with ``params`` and an English
sentence; the web app shows its own translated sentence for every code the clerk can cause,
naming the field in the words of the score sheet.  Unknown codes fall back to the engine's
English text, so no error is ever swallowed.

:func:`engine_message` looks the code up in ``_ENGINE_MESSAGES``: one builder per code,
called with the error's ``params``, the field's base name (``"melds"`` for
``"melds[2]"``) and the ruleset, returning the sentence, or ``None`` where the code has no
sentence of its own for that field (then the engine's English text is shown).  The
sentences are translated when the builder runs, in the request's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.utils.translation import gettext as _

from rules import FieldError, Ruleset

#: A message builder: ``(params, base field name, ruleset) -> sentence or None``.
_Builder = Callable[[Mapping, str, Ruleset], "str | None"]


def engine_message(error: FieldError, ruleset: Ruleset) -> str:
    """A translated message for one engine :class:`rules.FieldError`."""
    base = error.field.split("[")[0].split(".")[0]
    build = _ENGINE_MESSAGES.get(error.code)
    text = build(error.params, base, ruleset) if build is not None else None
    return error.message if text is None else text


def _step(p, base, ruleset):
    return (
        _("Reizwert %(bid)s passt nicht zu den Reizstufen (ab %(min)s in Schritten von %(step)s).")
        % p
    )


def _last_trick(p, base, ruleset):
    return (
        _(
            "Diese Stichpunkte passen an keinem Tisch zusammen: nur ein Spieler macht den "
            "letzten Stich (+%(bonus)s), hier bräuchten ihn mehrere."
        )
        % p
    )


def _impossible(p, base, ruleset):
    if p.get("taken") is not None:
        return _("%(value)s Stichpunkte sind mit %(taken)s Stichen nicht möglich.") % p
    return _("%(value)s Stichpunkte sind mit diesen Kartenwerten nicht möglich.") % p


def _multiple(p, base, ruleset):
    if base == "melds":
        return _("Meldung %(value)s ist kein Vielfaches von 10.") % p
    if base == "points":
        return (
            _(
                "%(value)s ist kein Vielfaches von 10; nach diesem Regelwerk wird auf Zehner gerundet."
            )
            % p
        )
    return None  # another field: the engine's text


def _range(p, base, ruleset):
    return (
        _("%(value)s Punkte sind in dieser Runde nicht möglich (erlaubt: %(low)s bis %(high)s).")
        % p
    )


def _meld_impossible(p, base, ruleset):
    if p.get("below") is not None and p.get("above") is not None:
        return (
            _(
                "Meldung %(value)s ist mit %(cards)s Karten nicht möglich; die nächsten "
                "möglichen Meldungen sind %(below)s und %(above)s."
            )
            % p
        )
    if p.get("above") is not None:
        return (
            _(
                "Meldung %(value)s ist mit %(cards)s Karten nicht möglich; die kleinste "
                "mögliche Meldung ist %(above)s."
            )
            % p
        )
    return (
        _(
            "Meldung %(value)s ist mit %(cards)s Karten nicht möglich; die höchste mögliche "
            "Meldung ist %(max)s."
        )
        % p
    )


def _meld_rare(p, base, ruleset):
    return (
        _(
            "Meldung %(value)s ist sehr selten: nur 1 von 1000 Händen hat mehr als "
            "%(threshold)s. Wirklich?"
        )
        % p
    )


def _required(p, base, ruleset):
    return {
        "melds": _("Meldungen fehlen."),
        "tricks": _("Stichpunkte fehlen."),
        "won": _("Bitte angeben, ob das Sonderspiel gewonnen wurde."),
    }.get(base, _("Pflichtfeld."))


def _not_played(p, base, ruleset):
    if base == "outcome":
        return _("Dieses Spiel wird nach dem Regelwerk „%(name)s“ nicht gespielt.") % {
            "name": ruleset.name_de
        }
    return _("Diese Strafe kennt das Regelwerk nicht.")


def _abgehen_not_allowed(p, base, ruleset):
    return (
        _(
            "Abgehen ist nur erlaubt, wenn der Reizwert %(bid)s über Meldung + alle Stichpunkte "
            "(%(limit)s) liegt."
        )
        % p
    )


def _no_trump_in_special(p, base, ruleset):
    if p.get("outcome") == "bettel":
        return _("Trumpf: Ein Bettel wird ohne Trumpf gespielt – bitte keinen Trumpf angeben.")
    return _("Trumpf: Ein Durch wird ohne Trumpf gespielt – bitte keinen Trumpf angeben.")


def _too_many(p, base, ruleset):
    if "length" in p and "limit" in p:
        return _("%(length)s Karten sind zu viele; höchstens %(limit)s.") % p
    return _("Zu viele Karten.")


def _type(p, base, ruleset):
    return (
        _("Bitte eine ganze Zahl eingeben.")
        if base in ("bid", "melds", "tricks", "points", "won", "lost")
        else _("Bitte auswählen.")
    )


#: The message builder of each engine error code the clerk can cause (see the module
#: docstring); a code not listed shows the engine's English text.
_ENGINE_MESSAGES: dict[str, _Builder] = {
    "min_bid": lambda p, base, ruleset: (
        _("Reizwert %(bid)s liegt unter dem Mindestgebot %(min)s.") % p
    ),
    "step": _step,
    "sum": lambda p, base, ruleset: _("Die Stichpunkte ergeben %(sum)s statt %(total)s.") % p,
    "last_trick": _last_trick,
    "impossible": _impossible,
    "multiple": _multiple,
    "range": _range,
    "games": lambda p, base, ruleset: (
        _("%(won)s gewonnene + %(lost)s verlorene Spiele sind mehr als %(games)s Spiele.") % p
    ),
    "meld_impossible": _meld_impossible,
    "meld_rare": _meld_rare,
    "negative": lambda p, base, ruleset: _("Darf nicht negativ sein."),
    "required": _required,
    "not_played": _not_played,
    "abgehen_not_allowed": _abgehen_not_allowed,
    "no_melds_in_special": lambda p, base, ruleset: _("Bei Durch und Bettel wird nicht gemeldet."),
    "no_trump_in_special": _no_trump_in_special,
    "not_counted": lambda p, base, ruleset: _("Bei diesem Ausgang werden keine Stiche gezählt."),
    "misdiscard_seat": lambda p, base, ruleset: _("Falsch drücken kann nur der Spielführer."),
    "seat": lambda p, base, ruleset: _("Dieser Platz ist nicht am Tisch."),
    "choice": lambda p, base, ruleset: _("Ungültige Auswahl."),
    "card": lambda p, base, ruleset: _("Kein Kartencode (Rang, dann Farbe, z. B. AH, TC, 9S)."),
    "not_in_pack": lambda p, base, ruleset: (
        _("Diese Karte gibt es im Blatt mit %(deck)s Karten nicht.") % {"deck": ruleset.deck_size}
    ),
    "copies": lambda p, base, ruleset: _("Jede Karte gibt es nur zweimal im Blatt."),
    "too_many": _too_many,
    "not_in_hand": lambda p, base, ruleset: _("Die gespielte Karte muss in der Hand sein."),
    "empty": lambda p, base, ruleset: _("Bitte die Karten der Hand angeben."),
    "trump": lambda p, base, ruleset: _("Bitte eine Trumpffarbe wählen."),
    "type": _type,
}


def ruleset_message(error: FieldError) -> str:
    """A translated message for one error in a ruleset or its overrides
    (:class:`rules.RulesetError`), prefixed with the parameter path it concerns."""
    p = error.params
    expected = {
        "object": _("ein JSON-Objekt"),
        "list": _("eine Liste"),
        "bool": _("true oder false"),
        "int": _("eine ganze Zahl"),
        "str": _("ein Text"),
    }
    text = {
        "type": lambda: _("muss %(what)s sein.") % {"what": expected.get(p.get("expected"), "?")},
        "choice": lambda: _("erlaubt sind: %(allowed)s.") % p,
        "unknown": lambda: _("unbekannter Parameter."),
        "missing": lambda: _("fehlt."),
        "json": lambda: _("kein gültiges JSON."),
        "schema": lambda: _("unbekannte Fassung des Regelwerks."),
        "fingerprint": lambda: _("Fingerabdruck passt nicht; das Regelwerk wurde verändert."),
        "id": lambda: _("darf nicht leer sein."),
        "deck_size": lambda: _("ein Binokel-Blatt hat 40 oder 48 Karten."),
        "no_deals": lambda: _("mindestens eine Tischgröße ist nötig."),
        "table_size": lambda: _("ein Tisch hat 2, 3 oder 4 Spieler."),
        "twice": lambda: _("%(value)s ist doppelt angegeben.") % p,
        "deal_counts": lambda: _(
            "Karten je Spieler müssen positiv sein, der Dabb darf nicht negativ sein."
        ),
        "deal_sum": lambda: (
            _(
                "%(seats)s × %(cards)s Karten + Dabb %(dabb)s ergeben nicht das Blatt mit "
                "%(deck)s Karten."
            )
            % p
        ),
        "tens": lambda: _("muss ein positives Vielfaches von 10 sein."),
        "max_raise": lambda: _("muss mindestens so groß wie die Reizstufe sein."),
        "negative": lambda: _("darf nicht negativ sein."),
        "positive": lambda: _("muss positiv sein."),
        "meld_shape": lambda: _(
            "eine feste Meldung nennt Karten, eine Farb- oder Rangmeldung nennt Ränge."
        ),
        "card": lambda: _("%(value)s ist kein gültiger Kartencode.") % p,
        "not_in_pack": lambda: _("%(value)s gibt es im Blatt mit %(deck)s Karten nicht.") % p,
        "two_copies": lambda: _("jede Karte gibt es nur zweimal."),
        "partnerships": lambda: _("Partnerschaften brauchen einen Vierertisch."),
        "too_long": lambda: _("höchstens %(limit)s Zeichen (hier %(length)s).") % p,
        "too_few": lambda: _("mindestens %(limit)s Einträge nötig.") % p,
        "too_many": lambda: _("höchstens %(limit)s Einträge (hier %(length)s).") % p,
    }.get(error.code)
    return f"{error.field}: {text() if text else error.message}"
