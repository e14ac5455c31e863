"""Table entry on the phones: what a phone holding a table's link may do.

The link (``/t/<token>/``, :class:`~scoring.models.TableLink`, issued by
:mod:`scoring.links`) replaces an account: whoever holds it may enter and confirm the hands
of that one table while its round runs, nothing else.  :func:`resolve` checks that on every
request.  Writes go through :func:`scoring.services.save_hand` and
:func:`scoring.services.confirm_hand_at_table` with the :class:`~scoring.services.TableSource`
made here, so the rules engine, the optimistic version check and the history are the
clerk's.

What "bestätigt" proves (security review, round 3, finding 5).  A table has no accounts, so
nothing can prove that a *different person* confirmed: one player with two browsers (a
private window is enough) is two "phones".  What a confirmation does prove: it came from a
browser session other than the one that entered the hand, and that session once typed the
table's confirmation code (:func:`scoring.links.confirmation_code`, four digits printed on
the table card beside the QR code and shown on the director's Tisch-Links page, never on
the phone page).  So a link that left the table (a forwarded photo of the QR code) can
enter hands but not confirm them, and a confirmation needs someone with the card in front
of them.  Wrong codes are throttled per table (:func:`table_entry.throttle.code_guesses_left`).
The independent check is still the clerk's or the director's look at the provisional hands
before the round closes, and the score sheet signed at the table.
"""

from __future__ import annotations

import re
import secrets

from django.utils.translation import gettext as _

from scoring.errors import EntryRefused
from scoring.links import confirmation_code
from scoring.models import TableLink
from scoring.services import TableSource, link_refusal

#: session key under which a phone keeps its random device id
DEVICE_SESSION_KEY = "table_device"
#: session key listing the links (ids) whose confirmation code this phone has typed
CONFIRMER_SESSION_KEY = "table_confirmer"


#: A link that does not open its table now: the scoring app's one refusal type, whose
#: ``reason`` is ``unknown``, ``revoked``, ``off``, ``planned`` or ``closed`` here.
LinkRefused = EntryRefused


def resolve(token: str) -> TableLink:
    """The link of ``token`` if it opens its table now, with table, round and tournament
    loaded.  Raises :class:`LinkRefused` (:class:`scoring.errors.EntryRefused`) for an
    unknown token (``unknown``), and for every state :func:`scoring.services.link_refusal`
    refuses: a revoked link, a tournament without table entry or entering round totals, a
    round that has not started or is closed, with the same message a write would get."""
    # only URL-safe characters can be a token; anything else (a NUL, which PostgreSQL
    # refuses in text) is unknown without asking the database
    link = None
    if re.fullmatch(r"[A-Za-z0-9_-]{1,64}", token):
        link = (
            TableLink.objects.select_related("table__round__tournament").filter(token=token).first()
        )
    if link is None or not secrets.compare_digest(link.token, token):
        raise LinkRefused(
            "unknown", _("Diesen Tisch-Link gibt es nicht. Bitte den QR-Code am Tisch neu scannen.")
        )
    if (refused := link_refusal(link, link.table.round)) is not None:
        raise refused
    return link


def device_id(session) -> str:
    """This phone's random id (16 hex digits), kept in its session: it tells the enterer's
    phone from an opponent's and is noted in the history (never the session key)."""
    device = session.get(DEVICE_SESSION_KEY)
    if not isinstance(device, str) or len(device) != 16:
        device = secrets.token_hex(8)
        session[DEVICE_SESSION_KEY] = device
    return device


def source(link: TableLink, device: str) -> TableSource:
    """The writer for :func:`scoring.services.save_hand`: the link, the phone, and
    "Tisch 7 (Link)" as author."""
    return TableSource(link=link, device=device, label=link.author)


def is_confirmer(session, link: TableLink) -> bool:
    """Whether the phone of ``session`` has typed ``link``'s confirmation code."""
    return link.pk in session.get(CONFIRMER_SESSION_KEY, [])


def check_confirmation_code(session, link: TableLink, code: str) -> bool:
    """Whether ``code`` (as typed; spaces ignored) is ``link``'s confirmation code; if so
    the phone of ``session`` is remembered as a confirmer of that link."""
    typed = "".join((code or "").split())
    if not secrets.compare_digest(typed.encode(), confirmation_code(link).encode()):
        return False
    known = [pk for pk in session.get(CONFIRMER_SESSION_KEY, []) if isinstance(pk, int)]
    session[CONFIRMER_SESSION_KEY] = [*known[-20:], link.pk]
    return True
