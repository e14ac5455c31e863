"""Throttling of the table-entry links (django-ratelimit, counters in Django's cache).

Limits, each a django-ratelimit rate (``"300/m"``), set in settings:

- ``TABLE_LINK_RATE_TOKEN`` per token: one table's phones, live validation included
  (htmx checks the form 300 ms after typing stops, so a table typing a hand sends a few
  dozen requests a minute);
- ``TABLE_LINK_RATE_ADDRESS`` per address over all *valid* tokens: generous, because a
  whole venue may reach a hosted server through one router address;
- ``TABLE_LINK_RATE_MISSES`` for unknown or revoked tokens, per address and per guessed
  prefix (the first :data:`PREFIX` characters): guessing tokens is hopeless at 160 bits,
  and this keeps a guesser from even trying at speed.  Misses are counted and refused only
  for requests whose token turned out unknown, after the lookup: a guesser behind the
  hall's router address never locks out the valid links of the same address (security
  review, round 3, finding 6);
- ``TABLE_CONFIRM_CODE_RATE`` per phone and token for wrong confirmation codes, and
  ``TABLE_CONFIRM_CODE_LINK_RATE`` per token over all phones (:func:`code_guesses_left`):
  a guesser holding only the link locks out his own phone, not the honest confirmer's
  (issue 38.7), and all phones together still cannot try the 10,000 codes; the director
  sees a table locked for all phones and lifts it (:func:`lift_code_lock`).

The cache must be shared by the server's processes for the limits to hold across them
(Redis with ``REDIS_URL``; the default local-memory cache counts per process, so with the
venue's two workers every limit is up to twice as generous).  The local-memory cache
keeps up to ``MAX_ENTRIES`` (settings) entries; a guesser creates at most one new counter
per refused address, so counters are not pushed out by guessing.
"""

from __future__ import annotations

from django.conf import settings
from django_ratelimit.core import get_usage, is_ratelimited

#: characters of a guessed token that make its "prefix" for counting misses
PREFIX = 8


def _fixed_key(value: str):
    def key(group, request) -> str:
        return value

    return key


def limited(request, token: str) -> bool:
    """Count a request for a *valid* link against its token and, unless the token is over
    its own limit, against its address; ``True`` when either limit is exceeded.  Called
    after the token resolved, so unknown tokens never use up a shared address's budget."""
    if is_ratelimited(
        request,
        group="table-link-token",
        key=_fixed_key(token[:64]),
        rate=settings.TABLE_LINK_RATE_TOKEN,
        increment=True,
    ):
        return True
    return is_ratelimited(
        request,
        group="table-link-address",
        key="ip",
        rate=settings.TABLE_LINK_RATE_ADDRESS,
        increment=True,
    )


def count_miss(request, token: str) -> bool:
    """Count a request with an unknown or revoked ``token`` against its address and the
    token's first :data:`PREFIX` characters; ``True`` when either has used up its misses
    (the request then gets 429 instead of "unknown link")."""
    by_address = is_ratelimited(
        request,
        group="table-link-miss",
        key="ip",
        rate=settings.TABLE_LINK_RATE_MISSES,
        increment=True,
    )
    if by_address:
        # no new prefix counter once the address is refused: a guesser cannot fill the
        # cache with counters and so push other counters (a table's wrong codes) out
        return True
    by_prefix = is_ratelimited(
        request,
        group="table-link-miss-prefix",
        key=_fixed_key(token[:PREFIX]),
        rate=settings.TABLE_LINK_RATE_MISSES,
        increment=True,
    )
    return by_prefix


def _generation(token: str) -> int:
    """The count of lifts of the table's code lock: part of its counters' keys, so a
    lift starts them afresh (django-ratelimit has no reset of its own)."""
    from django.core.cache import cache

    return cache.get(f"table-code-lift:{token[:64]}", 0)


def lift_code_lock(token: str) -> None:
    """The director lifts the wrong-code lock of the table ``token`` for every phone."""
    from django.core.cache import cache

    key = f"table-code-lift:{token[:64]}"
    cache.set(key, cache.get(key, 0) + 1, None)


def _code_usage(request, token: str, device: str | None, wrong: bool):
    """django-ratelimit's usage of the wrong-code counter of ``device`` at the table
    ``token`` (``device`` ``None``: all phones together)."""
    base = f"{token[:64]}:g{_generation(token)}"
    if device is None:
        return get_usage(
            request,
            group="table-confirm-code-link",
            key=_fixed_key(base),
            rate=settings.TABLE_CONFIRM_CODE_LINK_RATE,
            increment=wrong,
        )
    return get_usage(
        request,
        group="table-confirm-code",
        key=_fixed_key(f"{base}:{device[:32]}"),
        rate=settings.TABLE_CONFIRM_CODE_RATE,
        increment=wrong,
    )


def _left(usage) -> bool:
    return usage is None or usage["count"] < usage["limit"]


def code_guesses_left(request, token: str, wrong: bool, device: str = "") -> bool:
    """Whether the phone ``device`` at the table of ``token`` may still try a confirmation
    code: ``False`` once that phone sent ``TABLE_CONFIRM_CODE_RATE`` wrong codes in the
    current window, or all phones of the table ``TABLE_CONFIRM_CODE_LINK_RATE``.
    ``wrong``: first count this attempt as a wrong code (for the phone and the table)."""
    own = _code_usage(request, token, device, wrong)
    table = _code_usage(request, token, None, wrong)
    return _left(own) and _left(table)


def code_locked(request, token: str) -> bool:
    """Whether every phone of the table ``token`` is locked out of confirming (the
    table's count of wrong codes is used up): shown to the director."""
    return not _left(_code_usage(request, token, None, False))
