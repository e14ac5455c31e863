"""The private link of each table and round (``/t/<token>/``,
:class:`~scoring.models.TableLink`): issued when a round with table entry starts, printed
on the table cards, renewed by the director.

A link is a way of writing hands (a hand remembers the link it came through, and
:func:`scoring.services.save_hand` checks a link's writes), so issuing links lives here
with hand entry; what a phone holding a link may do is the ``table_entry`` app
(:mod:`table_entry.services`).  The confirmation code (:func:`confirmation_code`) is what
lets a phone confirm; why, see :mod:`table_entry.services`.
"""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from tournament import services as tournament_services
from tournament.models import Round, Table, Tournament
from tournament.services import lock_round

from .models import TableLink

#: bytes of randomness in a token: 20 bytes = 160 bits (the issue asks for at least 128)
TOKEN_BYTES = 20
#: digits of a table's confirmation code
CODE_DIGITS = 4


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
