"""Typed text that every file the app writes can hold.

XML 1.0 (the inside of XLSX and DOCX files, and what the exported website's pages should
be) allows only tab, line feed, carriage return and the characters from U+0020 on, without
the surrogates and the non-characters U+FFFE and U+FFFF.  A name holding anything else made
the XLSX and DOCX downloads answer 500 (issues 37.4 and 38.3), so:

- typed text is refused at entry (:class:`StorableText`, on the registration forms, the
  player list, the set-up form and the press report's text; :func:`first_unstorable` for
  the import of a tournament file), with a message naming the character;
- every export passes text through :func:`xml_safe`, for what older data may still hold.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

#: one character XML 1.0 cannot hold
XML_UNSAFE = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str, replacement: str = " ") -> str:
    """``text`` with every character XML 1.0 cannot hold replaced by ``replacement`` (a
    space: "Form\\x0cfeed" stays two words)."""
    return XML_UNSAFE.sub(replacement, text)


def first_unstorable(text: str) -> str | None:
    """The first character of ``text`` that XML cannot hold, written ``U+FFFE``, or
    ``None`` when there is none."""
    match = XML_UNSAFE.search(text)
    return None if match is None else f"U+{ord(match.group()):04X}"


@deconstructible
class StorableText:
    """A form field's validator: refuses text holding a control character or a
    non-character (:data:`XML_UNSAFE`) with a message that names it.  Raises
    ``ValidationError`` (code ``unstorable``)."""

    message = _(
        "Enthält das Zeichen %(code)s (ein Steuer- oder Nichtzeichen), das in keiner Datei "
        "gespeichert werden kann; bitte entfernen."
    )

    def __call__(self, value) -> None:
        code = first_unstorable(str(value))
        if code is not None:
            raise ValidationError(self.message, code="unstorable", params={"code": code})

    def __eq__(self, other) -> bool:
        return isinstance(other, StorableText)
