"""What the printed documents share: typed text isolated for print (:func:`isolate`), the
one place consent to being named is read (:func:`consents`), the ruleset's printed name
(:data:`ruleset_name`), and a round's seats and live table links (for the score sheets
and the table cards)."""

from __future__ import annotations

from collections import defaultdict

from django.conf import settings
from django.urls import reverse

from scoring import links
from tournament import formatting
from tournament.models import Registration, Round, Seat


def isolate(text) -> str:
    """``text`` between U+2068 and U+2069 (Unicode isolates), so a right-to-left override
    typed into it cannot reorder what is printed after it (docs/security.md)."""
    return f"\u2068{text}\u2069"


def consents(registration: Registration) -> bool:
    """Whether the player agreed to be named in this tournament's public documents.

    The one place the printed documents read consent: it is given per registration
    (``Registration.consent_public``; FIELD-NOTES: players must consent)."""
    return registration.consent_public


#: the ruleset's name as the documents print it (:func:`tournament.formatting.ruleset_name`)
ruleset_name = formatting.ruleset_name


def _seats_by_table(round_: Round) -> dict[int, list[Seat]]:
    """Table id → its seats in seat order, players loaded (one query)."""
    seats_by_table: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(round=round_)
        .select_related("registration__player")
        .order_by("table_id", "position")
    ):
        seats_by_table[seat.table_id].append(seat)
    return seats_by_table


def _live_links(round_: Round, user=None) -> dict:
    """Table id → live link for the documents that carry them: only while the round is not
    closed and the tournament has table entry on (missing links are made, by ``user``)."""
    if round_.tournament.table_entry and round_.status != Round.Status.CLOSED:
        return links.round_links(round_, user)
    return {}


def _link_address(link, link_base: str | None) -> str:
    """The address printed for table ``link``: ``link_base`` (scheme and host) or else
    ``PUBLIC_BASE_URL`` before the path of its entry page."""
    path = reverse("table_entry:page", args=[link.token])
    return (link_base if link_base is not None else settings.PUBLIC_BASE_URL or "") + path
