"""Table entry: the private link of each table and round, and what a phone may do with it.

The link (``/t/<token>/``, :class:`~scoring.models.TableLink`) replaces an account: whoever
holds it may enter and confirm the hands of that one table while its round runs, nothing
else.  Writes go through :func:`scoring.services.save_hand` and
:func:`scoring.services.confirm_hand_at_table` with a :class:`~scoring.services.TableSource`,
so the rules engine, the optimistic version check and the history are the clerk's.

What "bestätigt" proves (security review, round 3, finding 5).  A table has no accounts, so
nothing can prove that a *different person* confirmed: one player with two browsers (a
private window is enough) is two "phones".  What a confirmation does prove: it came from a
browser session other than the one that entered the hand, and that session once typed the
table's confirmation code (:func:`confirmation_code`, four digits printed on the table card
beside the QR code and shown on the director's Tisch-Links page, never on the phone page).
So a link that left the table (a forwarded photo of the QR code) can enter hands but not
confirm them, and a confirmation needs someone with the card in front of them.  Wrong codes
are throttled per table (:func:`scoring.throttle.code_guesses_left`).  The independent check
is still the clerk's or the director's look at the provisional hands before the round
closes, and the score sheet signed at the table.
"""

from __future__ import annotations

import re
import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from tournament import services as tournament_services
from tournament.models import Round, Table, Tournament
from tournament.services import lock_round

from .models import TableLink
from .services import TableSource

#: bytes of randomness in a token: 20 bytes = 160 bits (the issue asks for at least 128)
TOKEN_BYTES = 20
#: session key under which a phone keeps its random device id
DEVICE_SESSION_KEY = "table_device"
#: session key listing the links (ids) whose confirmation code this phone has typed
CONFIRMER_SESSION_KEY = "table_confirmer"
#: digits of a table's confirmation code
CODE_DIGITS = 4


class LinkRefused(Exception):
    """The link does not open a table now.  ``str()`` is the message for the phone;
    ``reason`` is one of ``unknown``, ``revoked``, ``off``, ``planned``, ``closed``."""

    def __init__(self, reason: str, message: str):
        self.reason = reason
        super().__init__(message)


def new_token() -> str:
    """A fresh URL-safe token of :data:`TOKEN_BYTES` random bytes (27 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def live_link(table: Table, user=None) -> TableLink:
    """The table's live link, created on first use (by ``user``, the director)."""
    link = table.links.filter(revoked_at__isnull=True).first()
    if link is not None:
        return link
    try:
        with transaction.atomic():
            return TableLink.objects.create(table=table, token=new_token(), created_by=user)
    except IntegrityError:  # created meanwhile by another request
        return table.links.get(revoked_at__isnull=True)


def round_links(round_: Round, user=None) -> dict[int, TableLink]:
    """The live link of every table of ``round_`` (table id → link), creating missing ones."""
    tables = list(round_.tables.order_by("number"))
    links = {
        link.table_id: link
        for link in TableLink.objects.filter(table__round=round_, revoked_at__isnull=True)
    }
    for table in tables:
        if table.pk not in links:
            links[table.pk] = live_link(table, user)
    return links


def start_round(round_: Round, user=None) -> dict[int, TableLink]:
    """Start ``round_`` (:func:`tournament.services.start_round`) and, when the tournament
    has table entry on, issue the live link of every table in the same transaction, so the
    QR codes exist from the first minute of the round (issue 13: "when the director starts
    a round, each table gets an unguessable token").  Tables that already have a live link
    (printed on the blank sheets after the draw) keep it.

    Returns table id → live link (empty without table entry).  Raises ``ValidationError``
    as the tournament service does (not drawn, already running, previous round open).
    Queries: a fixed number (one bulk insert), whatever the number of tables."""
    with transaction.atomic():
        tournament_services.start_round(round_)
        if not round_.tournament.table_entry:
            return {}
        live_links = TableLink.objects.filter(table__round=round_, revoked_at__isnull=True)
        have = set(live_links.values_list("table_id", flat=True))
        missing = [
            TableLink(table_id=table_id, token=new_token(), created_by=user)
            for table_id in round_.tables.values_list("pk", flat=True)
            if table_id not in have
        ]
        # a link created meanwhile by a print or the Tisch-Links page (live_link does not
        # lock the round) wins: its row is skipped here instead of failing the start
        TableLink.objects.bulk_create(missing, ignore_conflicts=True)
        return {link.table_id: link for link in live_links}


def renew_link(table: Table, user=None) -> TableLink:
    """Revoke the table's live link and issue a new one ("neuer Link"): phones holding the
    old one get the "link no longer valid" page from now on.  The round is locked so that
    no entry through the old link commits after the revocation."""
    with transaction.atomic():
        lock_round(table.round_id)
        table.links.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        return TableLink.objects.create(table=table, token=new_token(), created_by=user)


def resolve(token: str) -> TableLink:
    """The link of ``token`` if it opens its table now, with table, round and tournament
    loaded.  Raises :class:`LinkRefused` for an unknown or revoked token, a tournament
    without table entry (or one that enters round totals only), and a round that has not
    started or is closed."""
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
    round_ = link.table.round
    if link.revoked_at is not None:
        raise LinkRefused(
            "revoked",
            _("Dieser Tisch-Link gilt nicht mehr; die Turnierleitung hat einen neuen ausgegeben."),
        )
    if not round_.tournament.table_entry:
        raise LinkRefused("off", _("Bei diesem Turnier wird nicht am Tisch eingetragen."))
    if round_.tournament.entry_mode != Tournament.EntryMode.HANDS:
        raise LinkRefused("off", _("Dieses Turnier erfasst Rundensummen, keine einzelnen Spiele."))
    if round_.status == Round.Status.PLANNED:
        raise LinkRefused("planned", _("Die Runde hat noch nicht begonnen."))
    if round_.status == Round.Status.CLOSED:
        raise LinkRefused(
            "closed",
            _("Die Runde ist abgeschlossen; Korrekturen macht jetzt nur die Turnierleitung."),
        )
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


def confirms_at_table(tournament: Tournament) -> bool:
    """Whether an opponent's phone confirms hands entered at the table (else a clerk)."""
    return tournament.table_entry == Tournament.TableEntry.OPPONENT


def confirmation_code(link: TableLink) -> str:
    """The table's confirmation code: :data:`CODE_DIGITS` decimal digits derived from the
    link's token with the server's secret key (an HMAC), so it changes with a new link and
    cannot be worked out from the link itself.  Printed on the table card, shown to the
    director; the phone page never shows it."""
    digest = salted_hmac("binokel.table-link.confirmation-code", link.token).hexdigest()
    return f"{int(digest, 16) % 10**CODE_DIGITS:0{CODE_DIGITS}d}"


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
