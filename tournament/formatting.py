"""Numbers and amounts as people read them, in the active language (German first)."""

from __future__ import annotations

from decimal import Decimal
from functools import cache

from django.utils import formats, translation
from django.utils.translation import gettext as _


def euro(amount: Decimal | int | float) -> str:
    """``amount`` (euros) with two decimals in the active language's style: "0,50 €" in
    German, "€0.50" in English (issue 37.22: the English pages said "0.50 €")."""
    number = formats.number_format(Decimal(amount), 2, use_l10n=True, force_grouping=True)
    if translation.get_language() == "en":
        return f"€{number}"
    return f"{number}\u00a0€"


def ruleset_name(ruleset) -> str:
    """The ruleset's name in the active language: ``name_en`` in English (issue 37.39: the
    English website's subtitle said "Partnerschaft 250"), else ``name_de``."""
    if translation.get_language() == "en" and getattr(ruleset, "name_en", ""):
        return ruleset.name_en
    return ruleset.name_de


MINUS = "\u2212"  # the typographic minus sign, not the hyphen (issue 37.20)


def thousands_separator() -> str:
    """The active language's thousands separator: "." in German, "," in English (Django's
    locale formats)."""
    return formats.get_format("THOUSAND_SEPARATOR", use_l10n=True)


def points(value, separator: str | None = None):
    """Points (an ``int``) as people read them, in one style on every page and print
    (issue 37.20 and 37.21: "-1720", "6 670" and "6.670" stood side by side):

    - a real minus sign (U+2212), never the hyphen: "−520";
    - four digits stay together, as Duden and the rule texts write them ("1500", "−2000");
      from five digits on, groups of three with the active language's separator (Django's
      locale formats): "12.340" in German, "12,340" in English.

    Anything that is not an ``int`` (a dash, "", ``None``) comes back unchanged.
    ``separator`` saves the locale lookup in a loop over thousands of cells
    (:func:`thousands_separator`).  Exports (CSV, XLSX) keep plain integers; this is for
    what is read."""
    if isinstance(value, bool) or not isinstance(value, int):
        return value
    magnitude = abs(value)
    if magnitude >= 10_000:
        sep = thousands_separator() if separator is None else separator
        text = f"{magnitude:,}".replace(",", sep)
    else:
        text = str(magnitude)
    return f"{MINUS}{text}" if value < 0 else text


def ordinal_word(n: int) -> str:
    """The ordinal of ``n`` as the word that follows "vom …" / "from the …": "dritten" /
    "third" for 2 to 12, else the figure with its mark ("13." / "13th")."""
    words = {
        2: _("zweiten"),
        3: _("dritten"),
        4: _("vierten"),
        5: _("fünften"),
        6: _("sechsten"),
        7: _("siebten"),
        8: _("achten"),
        9: _("neunten"),
        10: _("zehnten"),
        11: _("elften"),
        12: _("zwölften"),
    }
    if n in words:
        return words[n]
    return f"{n}th" if translation.get_language() == "en" else f"{n}."


@cache
def _collator():
    """The Unicode Collation Algorithm with its default table (DUCET, via ``pyuca``): an
    umlaut sorts with its base letter and ß as ss, as DIN 5007-1 orders names
    (Kächele between Jung and Kaiser).  Loaded once per process (about 0.5 s)."""
    import pyuca

    return pyuca.Collator()


def name_sort_key(last_name: str, first_name: str) -> tuple:
    """Sort key for "Nachname, Vorname" in German alphabetical order (DIN 5007-1: ä = a,
    ö = o, ü = u, ß = ss; case and accents only break ties).  Used wherever names are
    listed: the table plan, the website's player list (issue 37.30: "Grünenwald" stood
    before "Gößler" there)."""
    collator = _collator()
    return (collator.sort_key(last_name), collator.sort_key(first_name))
