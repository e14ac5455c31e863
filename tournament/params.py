"""Numbers from the address or a hidden field (``?runde=2``, ``?spiel=5``, a confirmation's
``spiel``/``version``): one parser for all of them.

Python's ``str.isdigit`` is true for "²", "①" or the Arabic-Indic "٣", and ``int`` then
fails or reads a digit nobody typed on a German keyboard; so only the ASCII digits 0-9
count, and every other value is a :class:`BadNumber` (a 400 with a message naming the
parameter) instead of a 500.  Form fields (Django's ``IntegerField``) parse what users
type into forms.

Primary keys (a player's number, a tournament or account chosen in a form) are read with
:func:`id_value`: only 1 … :data:`MAX_ID`.  A bigger number would otherwise reach the
database, where SQLite cannot hold it ("Python int too large to convert to SQLite
INTEGER", an ``OverflowError`` Django's choice fields do not catch) and PostgreSQL refuses
it as out of range for ``bigint``; the id fields of :mod:`tournament.forms` use it.
"""

from __future__ import annotations

import re

from django.core.exceptions import BadRequest
from django.utils.translation import gettext as _

ASCII_DIGITS = re.compile(r"[0-9]+")
# PostgreSQL ``integer``; hand, round and table numbers are ``smallint`` (32,767)
DEFAULT_MAXIMUM = 2_147_483_647
#: Highest primary key: the range of Django's ``BigAutoField`` (PostgreSQL ``bigint``, a
#: SQLite ``INTEGER``); the smaller ``AutoField`` ids are all below it.
MAX_ID = 2**63 - 1
ASCII_ID = re.compile(r"[0-9]{1,19}")


class BadNumber(BadRequest):
    """A parameter that is not a whole number 0 … ``maximum`` written in ASCII digits.
    Django answers it with status 400 (the message is shown on the 400 page)."""


def parse_number(value: str | None, name: str, maximum: int = DEFAULT_MAXIMUM) -> int:
    """``value`` as an ``int`` (0 … ``maximum``), or raise :class:`BadNumber` whose message
    names the parameter ``name`` (e.g. ``"runde"``).  Surrounding blanks are allowed; a
    sign, a decimal point and Unicode digits are not, and a number of any length above
    ``maximum`` is named as such."""
    text = (value or "").strip()
    if not ASCII_DIGITS.fullmatch(text):
        raise BadNumber(
            _("Ungültige Angabe für „%(name)s“: bitte eine ganze Zahl aus den Ziffern 0–9.")
            % {"name": name}
        )
    digits = text.lstrip("0") or "0"
    # more digits than the maximum has: refused before ``int`` reads a 5,000-digit text
    if len(digits) > len(str(maximum)) or int(digits) > maximum:
        raise BadNumber(
            _("Ungültige Angabe für „%(name)s“: höchstens %(max)s.")
            % {"name": name, "max": maximum}
        )
    return int(digits)


def id_value(value) -> int | None:
    """``value`` (text from a form or the address, or an ``int``) as a primary key
    1 … :data:`MAX_ID`, or ``None`` for anything else: a sign, a decimal point, Unicode
    digits, blanks, a bool, a number the database's id column cannot hold.  Callers say
    what is wrong in their own words (a form error naming the field)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and ASCII_ID.fullmatch(value):
        number = int(value)
    else:
        return None
    return number if 1 <= number <= MAX_ID else None
