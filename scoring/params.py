"""Numbers from the address or a hidden field (``?runde=2``, ``?spiel=5``, a confirmation's
``spiel``/``version``): one parser for all of them.

Python's ``str.isdigit`` is true for "²", "①" or the Arabic-Indic "٣", and ``int`` then
fails or reads a digit nobody typed on a German keyboard; so only the ASCII digits 0-9
count, and every other value is a :class:`BadNumber` (a 400 with a message naming the
parameter) instead of a 500.  Form fields (Django's ``IntegerField``) parse what users
type into forms.
"""

from __future__ import annotations

import re

from django.core.exceptions import BadRequest
from django.utils.translation import gettext as _

ASCII_NUMBER = re.compile(r"[0-9]{1,10}")
# PostgreSQL ``integer``; hand, round and table numbers are ``smallint`` (32,767)
DEFAULT_MAXIMUM = 2_147_483_647


class BadNumber(BadRequest):
    """A parameter that is not a whole number 0 … ``maximum`` written in ASCII digits.
    Django answers it with status 400 (the message is shown on the 400 page)."""


def parse_number(value: str | None, name: str, maximum: int = DEFAULT_MAXIMUM) -> int:
    """``value`` as an ``int`` (0 … ``maximum``), or raise :class:`BadNumber` whose message
    names the parameter ``name`` (e.g. ``"runde"``).  Surrounding blanks are allowed; a
    sign, a decimal point, Unicode digits and more than 10 digits are not."""
    text = (value or "").strip()
    if not ASCII_NUMBER.fullmatch(text):
        raise BadNumber(
            _("Ungültige Angabe für „%(name)s“: bitte eine ganze Zahl aus den Ziffern 0–9.")
            % {"name": name}
        )
    if int(text) > maximum:
        raise BadNumber(
            _("Ungültige Angabe für „%(name)s“: höchstens %(max)s.")
            % {"name": name, "max": maximum}
        )
    return int(text)
