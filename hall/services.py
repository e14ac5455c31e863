"""What the director and the tables do in the hall: announce and withdraw, call the
director and mark a call done, set the round clock.  Each raises ``ValidationError``
(German, keyed by the form field) for bad input and writes nothing then."""

from __future__ import annotations

from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import TableLink
from tournament.models import Tournament
from tournament.text import StorableText

from .models import Announcement, DirectorCall

#: the longest an announcement may be shown before it expires by itself (minutes)
MAX_ANNOUNCEMENT_MINUTES = 600


def _clean_text(value: str, field: str, label: str, max_length: int, required: bool) -> str:
    text = " ".join((value or "").split())  # one line: no line breaks on the projector
    if required and not text:
        raise ValidationError(
            {field: _("%(label)s: bitte einen Text eingeben.") % {"label": label}}
        )
    if len(text) > max_length:
        raise ValidationError(
            {
                field: _("%(label)s: höchstens %(n)s Zeichen (jetzt %(length)s).")
                % {"label": label, "n": max_length, "length": len(text)}
            }
        )
    try:
        StorableText()(text)
    except ValidationError as exc:
        raise ValidationError({field: f"{label}: {exc.messages[0]}"}) from None
    return text


def announce(tournament: Tournament, text: str, user, minutes: int | None = None) -> Announcement:
    """Show ``text`` (at most :attr:`Announcement.MAX_LENGTH` characters, one line) to the
    hall from now on, for ``minutes`` (1 … :data:`MAX_ANNOUNCEMENT_MINUTES`) or, with
    ``None``, until withdrawn.  Raises ``ValidationError`` keyed ``text`` or ``minutes``."""
    text = _clean_text(text, "text", _("Durchsage"), Announcement.MAX_LENGTH, required=True)
    if minutes is not None and not 1 <= minutes <= MAX_ANNOUNCEMENT_MINUTES:
        raise ValidationError(
            {
                "minutes": _("Anzeigen für: 1 bis %(n)s Minuten, oder leer lassen.")
                % {"n": MAX_ANNOUNCEMENT_MINUTES}
            }
        )
    now = timezone.now()
    return Announcement.objects.create(
        tournament=tournament,
        text=text,
        created_at=now,
        created_by=user,
        expires_at=now + timedelta(minutes=minutes) if minutes else None,
    )


def withdraw(announcement: Announcement, user) -> bool:
    """Stop showing ``announcement`` (kept, with who withdrew it and when).  Returns
    whether it was still shown."""
    updated = Announcement.objects.filter(pk=announcement.pk, withdrawn_at__isnull=True).update(
        withdrawn_at=timezone.now(), withdrawn_by=user
    )
    return bool(updated)


def call_director(link: TableLink, reason: str = "") -> tuple[DirectorCall, bool]:
    """The table of ``link`` calls the director, with an optional short ``reason`` (at most
    :attr:`DirectorCall.REASON_LENGTH` characters).  A table has one open call at a time:
    while one is open, the same call is returned and nothing is added.  Returns ``(call,
    created)``.  The link must be live (the caller resolved it: a revoked link or a closed
    round never gets here).  Raises ``ValidationError`` keyed ``reason``."""
    reason = _clean_text(reason, "reason", _("Grund"), DirectorCall.REASON_LENGTH, required=False)
    open_call = DirectorCall.objects.filter(table=link.table, done_at__isnull=True).first()
    if open_call is not None:
        return open_call, False
    try:
        with transaction.atomic():
            return DirectorCall.objects.create(table=link.table, link=link, reason=reason), True
    except IntegrityError:  # a second phone of the table called at the same moment
        return DirectorCall.objects.get(table=link.table, done_at__isnull=True), False


def mark_done(call: DirectorCall, user) -> bool:
    """The director has seen to ``call``; the table's phone shows it.  Returns whether
    it was still open."""
    updated = DirectorCall.objects.filter(pk=call.pk, done_at__isnull=True).update(
        done_at=timezone.now(), done_by=user
    )
    return bool(updated)


def set_clock(tournament: Tournament, round_minutes: int | None, idle_minutes: int) -> None:
    """Set the planned length of a round (``None``: no round clock) and after how many
    minutes without an entry the console marks a table idle.  Raises
    ``ValidationError`` keyed by the field (the model's bounds)."""
    tournament.round_minutes = round_minutes
    tournament.idle_minutes = idle_minutes
    tournament.full_clean(
        exclude=[
            f.name
            for f in Tournament._meta.fields
            if f.name not in ("round_minutes", "idle_minutes")
        ]
    )
    tournament.save(update_fields=["round_minutes", "idle_minutes"])
