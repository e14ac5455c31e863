"""Throttling of the table-entry links (django-ratelimit, counters in Django's cache).

Three limits, each a django-ratelimit rate (``"300/m"``), set in settings:

- ``TABLE_LINK_RATE_TOKEN`` per token: one table's phones, live validation included
  (htmx checks the form 300 ms after typing stops, so a table typing a hand sends a few
  dozen requests a minute);
- ``TABLE_LINK_RATE_ADDRESS`` per address over all tokens: generous, because a whole venue
  may reach a hosted server through one router address;
- ``TABLE_LINK_RATE_MISSES`` per address for unknown or revoked tokens: guessing tokens is
  hopeless at 160 bits, and this keeps a guesser from even trying at speed.

The cache must be shared by the server's processes for the limits to hold across them
(Redis with ``REDIS_URL``; the default local-memory cache counts per process).
"""

from __future__ import annotations

from django.conf import settings
from django_ratelimit.core import get_usage, is_ratelimited


def _token_key(token: str):
    def key(group, request) -> str:
        return token

    return key


def limited(request, token: str) -> bool:
    """Count this request against its token and its address; ``True`` when either limit
    is exceeded, or the address has used up its misses (then nothing is counted)."""
    misses = get_usage(
        request,
        group="table-link-miss",
        key="ip",
        rate=settings.TABLE_LINK_RATE_MISSES,
        increment=False,
    )
    if misses is not None and misses["count"] >= misses["limit"]:
        return True
    by_address = is_ratelimited(
        request,
        group="table-link-address",
        key="ip",
        rate=settings.TABLE_LINK_RATE_ADDRESS,
        increment=True,
    )
    by_token = is_ratelimited(
        request,
        group="table-link-token",
        key=_token_key(token[:64]),
        rate=settings.TABLE_LINK_RATE_TOKEN,
        increment=True,
    )
    return by_address or by_token


def count_miss(request) -> None:
    """Count a request with an unknown or revoked token against its address."""
    is_ratelimited(
        request,
        group="table-link-miss",
        key="ip",
        rate=settings.TABLE_LINK_RATE_MISSES,
        increment=True,
    )
