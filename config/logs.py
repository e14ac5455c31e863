"""What the server logs, and keeping table tokens out of it.

Errors go to stderr in every mode and, when ``BINOKEL_LOG_FILE`` is set (the venue command
sets ``<data folder>/binokel.log``), also to that file (``LOGGING`` in settings):

- :class:`ProblemsOnly` lets through errors of every logger and warnings of this project's
  own loggers (Django's warnings are every 404 and 403 of the evening);
- :class:`ProblemFormatter` writes one line per record, ``<time> <LEVEL> <logger> [<pid>]
  <message>`` (the time with its UTC offset), with the traceback below it;
- :class:`PrivateLogFile` is the file: mode 0600 (it holds paths and names), rotated at
  2 MB with 5 old files kept, and it follows a rotation made by another process (every
  gunicorn worker writes the same file);
- :class:`GunicornLogger` (``--logger-class config.logs.GunicornLogger``) redacts
  gunicorn's access log and writes gunicorn's own warnings and errors (a worker that timed
  out or was killed, an error handling a request) to the same file.

A table's link (``/t/<token>/``) is its permission, so every log line that may carry a path
shows ``/t/…/`` instead: :class:`RedactTableTokens` (a filter on ``django.request`` and on
every handler) rewrites the message and the traceback, and the formatter redacts once more
what it wrote.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import re
import time

TOKEN_PATH = re.compile(r"/t/[^/\s?\"']+")
REDACTED = "/t/…"
#: the environment variable naming the log file (none: stderr only)
LOG_FILE_VARIABLE = "BINOKEL_LOG_FILE"
#: one record: time, level, logger, process, message (the traceback on the lines below)
PROBLEM_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"
#: the start of a record's first line in that format (a traceback's lines do not match)
PROBLEM_LINE = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}(?:[+-]\d{4})? "
    r"(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL) "
)


def redact(text: str) -> str:
    """``text`` with every ``/t/<token>`` written as ``/t/…``."""
    return TOKEN_PATH.sub(REDACTED, text)


def _request_token(record: logging.LogRecord) -> str:
    """The table token in the path of the record's request (Django's ``django.request``
    records carry the request), or ``""``."""
    path = getattr(getattr(record, "request", None), "path", "")
    match = TOKEN_PATH.match(path) if isinstance(path, str) else None
    return match.group(0)[len("/t/") :] if match else ""


class RedactTableTokens(logging.Filter):
    """Rewrites a record so that no table token is left in what any handler writes: the
    message (formatted with its arguments), the traceback and the stack, with the token of
    the request's path also where it stands alone (say in an exception's message); drops
    the request (whose path an error report would show).  Never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        token = _request_token(record)

        def clean(text: str) -> str:
            text = redact(text)
            return text.replace(token, "…") if token else text

        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a broken format: logging reports it as it is
            message = None
        if message is not None:
            record.msg, record.args = clean(message), ()
        if record.exc_info and not record.exc_text:
            # formatted once here; every handler's formatter uses this text
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = clean(record.exc_text)
        if record.stack_info:
            record.stack_info = clean(record.stack_info)
        if token:
            record.request = None
        return True


class OneLineWarning(logging.Filter):
    """Turns a record into one warning line: no traceback, level WARNING.  For what
    anyone on the network can cause and nobody needs to fix, such as a refused ``Host``
    header (Django logs it as an ERROR with a whole traceback; issue 37.42)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class ProblemsOnly(logging.Filter):
    """Errors of every logger; warnings only of loggers outside ``quiet`` (Django's
    warnings are the 4xx answers of a normal evening).  The handler's level does the rest."""

    def __init__(self, quiet: tuple[str, ...] = ("django",)) -> None:
        super().__init__()
        self.quiet = tuple(quiet)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        return not any(record.name == q or record.name.startswith(q + ".") for q in self.quiet)


class ProblemFormatter(logging.Formatter):
    """:data:`PROBLEM_FORMAT`, with table tokens redacted in the whole text (traceback
    included), whatever filters the record went through."""

    def __init__(self, fmt: str | None = None, datefmt: str | None = None, **kwargs) -> None:
        super().__init__(fmt or PROBLEM_FORMAT, datefmt, **kwargs)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        """Local time with its UTC offset, ``2026-11-21 20:15:03,042+0100``: gunicorn's
        master keeps the system's zone, Django's workers switch to ``TIME_ZONE``."""
        if datefmt:
            return super().formatTime(record, datefmt)
        moment = self.converter(record.created)
        return (
            f"{time.strftime('%Y-%m-%d %H:%M:%S', moment)},{int(record.msecs):03d}"
            f"{time.strftime('%z', moment)}"
        )


class PrivateLogFile(logging.handlers.RotatingFileHandler):
    """A log file only its owner can read (0600, also when it existed with a wider mode),
    rotated at ``maxBytes`` (default 2 MB) keeping ``backupCount`` (default 5) old files.

    Several processes write it (the gunicorn workers, the master): when another process
    has rotated the file, the next record reopens the path instead of writing on into the
    renamed file (as :class:`logging.handlers.WatchedFileHandler` does)."""

    def __init__(self, filename, maxBytes: int = 2_000_000, backupCount: int = 5, **kwargs):
        kwargs.setdefault("encoding", "utf-8")
        super().__init__(filename, maxBytes=maxBytes, backupCount=backupCount, **kwargs)

    def _open(self):
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.fchmod(fd, 0o600)
        except OSError:  # pragma: no cover - not the owner: keep its mode, still write
            pass
        return open(fd, "a", encoding=self.encoding, errors=self.errors)

    def _moved(self) -> bool:
        try:
            on_disk = os.stat(self.baseFilename)
        except FileNotFoundError:
            return True
        mine = os.fstat(self.stream.fileno())
        return (on_disk.st_dev, on_disk.st_ino) != (mine.st_dev, mine.st_ino)

    def emit(self, record: logging.LogRecord) -> None:
        if self.stream is not None and self._moved():
            self.stream.close()
            self.stream = None  # opened again by the rollover check
        super().emit(record)


def problem_file_handler(path: str, level: int = logging.WARNING) -> PrivateLogFile:
    """The file handler of ``LOGGING``'s ``file`` built by hand (for gunicorn's logger):
    :class:`PrivateLogFile` at ``level``, redacting, one line per record."""
    handler = PrivateLogFile(path)
    handler.setLevel(level)
    handler.addFilter(RedactTableTokens())
    handler.setFormatter(ProblemFormatter())
    return handler


try:  # gunicorn is a dependency of the server, not of the tests
    from gunicorn.glogging import Logger as _GunicornLogger
except ImportError:  # pragma: no cover
    _GunicornLogger = object


class GunicornLogger(_GunicornLogger):
    """gunicorn's logger with the path, request line and Referer of the access log
    redacted (``r``, ``U``, ``f`` and the raw URI), table tokens redacted in its error log
    ("Error handling request /t/…/"), and the error log's warnings and errors also written
    to ``BINOKEL_LOG_FILE`` when that is set (stderr keeps everything gunicorn writes)."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        if not any(isinstance(f, RedactTableTokens) for f in self.error_log.filters):
            self.error_log.addFilter(RedactTableTokens())
        for handler in list(self.error_log.handlers):  # a configuration reload runs setup
            if isinstance(handler, PrivateLogFile):
                self.error_log.removeHandler(handler)
                handler.close()
        path = os.environ.get(LOG_FILE_VARIABLE, "")
        if path:
            self.error_log.addHandler(problem_file_handler(path))

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "f", "{raw_uri}e", "{path_info}e", "{referer}i"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        return atoms
