"""Numbers and amounts as people read them, in the active language (German first)."""

from __future__ import annotations

from decimal import Decimal

from django.utils import formats, translation
from django.utils.translation import gettext as _


def euro(amount: Decimal | int | float) -> str:
    """``amount`` (euros) with two decimals in the active language's style: "0,50 €" in
    German, "€0.50" in English (issue 37.22: the English pages said "0.50 €")."""
    number = formats.number_format(Decimal(amount), 2, use_l10n=True, force_grouping=True)
    if translation.get_language() == "en":
        return f"€{number}"
    return f"{number}\u00a0€"


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
