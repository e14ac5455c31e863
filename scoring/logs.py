"""Keeping table tokens out of the logs: a table's link (``/t/<token>/``) is its
permission, so every log line that may carry a path shows ``/t/…/`` instead.

:class:`RedactTableTokens` is a logging filter for Django's loggers (``LOGGING`` in
settings); :class:`GunicornLogger` does the same for gunicorn's access log
(``--logger-class scoring.logs.GunicornLogger``).
"""

from __future__ import annotations

import logging
import re

TOKEN_PATH = re.compile(r"/t/[^/\s?\"']+")
REDACTED = "/t/…"


def redact(text: str) -> str:
    """``text`` with every ``/t/<token>`` written as ``/t/…``."""
    return TOKEN_PATH.sub(REDACTED, text)


class RedactTableTokens(logging.Filter):
    """Rewrites a record's message and arguments (and drops the request, whose path the
    error e-mail would show) when they hold a table token; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        request = getattr(record, "request", None)
        path = getattr(request, "path", "")
        if isinstance(path, str) and TOKEN_PATH.search(path):
            record.request = None
        return True


try:  # gunicorn is a dependency of the server, not of the tests
    from gunicorn.glogging import Logger as _GunicornLogger
except ImportError:  # pragma: no cover
    _GunicornLogger = object


class GunicornLogger(_GunicornLogger):
    """gunicorn's logger with the path, request line and Referer of the access log
    redacted (``r``, ``U``, ``f`` and the raw URI)."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "f", "{raw_uri}e", "{path_info}e", "{referer}i"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        return atoms
