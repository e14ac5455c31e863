"""Django's Redis cache, made to keep the app answering while Redis is unreachable.

With ``REDIS_URL`` set, every app process shares one Redis for the standings cache, the
standings version counters and the table-link throttle (``config.settings``).  Django's
own ``RedisCache`` raises ``redis.exceptions.ConnectionError`` when Redis is restarting or
gone, and every page that touches the cache would answer 500 — a clerk's saved hand among
them, after the save had committed.  The cache holds nothing that is not in the database, so
:class:`TolerantRedisCache` answers as an empty cache instead: every read is a miss, every
write is dropped, ``incr`` raises ``ValueError`` as for a missing key.  Pages are then
rendered fresh on every request (slower, never stale); the throttle counts nothing until
Redis is back.  A warning is logged at most once a minute per process (logger
``binokel.cache``), so the operator sees the outage.
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("binokel.cache")

#: what an unreachable, restarting or overloaded Redis raises
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
#: seconds between two warnings about the same outage (per process)
WARN_EVERY = 60.0


class TolerantRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` that answers like an empty cache while
    Redis cannot be reached (see the module docstring).  Other errors still raise."""

    _last_warning = 0.0

    def _unreachable(self, operation: str, exc: Exception) -> None:
        now = time.monotonic()
        if now - TolerantRedisCache._last_warning >= WARN_EVERY:
            TolerantRedisCache._last_warning = now
            logger.warning(
                "Redis cache unreachable (%s: %s); answering as an empty cache", operation, exc
            )

    def _tolerant(self, operation: str, fallback, call, *args):
        """``call(*args)``, or ``fallback`` (logged) while Redis is unreachable."""
        try:
            return call(*args)
        except UNREACHABLE as exc:
            self._unreachable(operation, exc)
            return fallback

    def get(self, key, default=None, version=None):
        return self._tolerant("get", default, super().get, key, default, version)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._tolerant("add", False, super().add, key, value, timeout, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._tolerant("set", None, super().set, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._tolerant("touch", False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        return self._tolerant("delete", False, super().delete, key, version)

    def get_many(self, keys, version=None):
        return self._tolerant("get_many", {}, super().get_many, keys, version)

    def has_key(self, key, version=None):
        return self._tolerant("has_key", False, super().has_key, key, version)

    def incr(self, key, delta=1, version=None):
        """As Django's; ``ValueError`` (as for a missing key) while Redis is unreachable."""
        try:
            return super().incr(key, delta, version)
        except UNREACHABLE as exc:
            self._unreachable("incr", exc)
            raise ValueError(f"Key '{key}' not found: the cache is unreachable") from exc

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        # on failure: every key, as "not stored"
        return self._tolerant("set_many", list(data), super().set_many, data, timeout, version)

    def delete_many(self, keys, version=None):
        self._tolerant("delete_many", None, super().delete_many, keys, version)

    def clear(self):
        return self._tolerant("clear", False, super().clear)
