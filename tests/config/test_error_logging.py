"""A 500 leaves a trace in every mode: the error and its traceback on stderr and, with
``BINOKEL_LOG_FILE``, in that file (mode 0600), with the table token redacted everywhere.

The server side runs in a child process with the settings as the venue has them
(``DJANGO_DEBUG=0``, ``DJANGO_HTTPS=0``): ``LOGGING`` is applied once when Django starts,
so ``override_settings`` in this process would test nothing.  A table link's view is made
to fail with the token in the exception's message, as a bug in the view might.
"""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from config import logs
from scoring.links import new_token

ROOT = Path(__file__).resolve().parents[2]

# the phone opens /t/<token>/ and the link's lookup fails with the token in its message
SERVER = """
import sys
from unittest import mock

import django

django.setup()
from django.test import Client

from table_entry import services as table_entry_services

token = sys.argv[1]


def broken(value):
    raise RuntimeError(f"kaputt: {value} (/t/{value}/)")


with mock.patch.object(table_entry_services, "resolve", broken):
    response = Client(raise_request_exception=False).get(f"/t/{token}/")
print("STATUS", response.status_code)
"""


def _serve_a_500(tmp_path: Path, debug: bool, log_file: Path | None):
    token = new_token()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "BINOKEL_")) and key not in ("DATABASE_URL", "REDIS_URL")
    }
    env |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "1" if debug else "0",
        "DJANGO_SECRET_KEY": "error-logging-test-" + "x" * 40,
        "DJANGO_HTTPS": "0",
        "DJANGO_ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
    }
    if log_file is not None:
        env["BINOKEL_LOG_FILE"] = str(log_file)
    done = subprocess.run(
        [sys.executable, "-c", SERVER, token],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "STATUS 500" in done.stdout
    return token, done.stderr


def _assert_logged(text: str, token: str) -> None:
    assert "Internal Server Error: /t/…/" in text
    assert "Traceback (most recent call last)" in text
    assert "RuntimeError: kaputt: … (/t/…/)" in text
    assert token not in text


@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_a_500_is_logged_on_stderr_and_in_the_log_file(tmp_path, debug):
    log_file = tmp_path / "binokel.log"
    token, stderr = _serve_a_500(tmp_path, debug, log_file)
    _assert_logged(stderr, token)
    _assert_logged(log_file.read_text(), token)
    assert stat.S_IMODE(log_file.stat().st_mode) == 0o600
    first = next(line for line in log_file.read_text().splitlines() if "Internal" in line)
    match = logs.PROBLEM_LINE.match(first)
    assert match and match["level"] == "ERROR" and " django.request [" in first


def test_without_a_log_file_the_500_is_on_stderr(tmp_path):
    token, stderr = _serve_a_500(tmp_path, False, None)
    _assert_logged(stderr, token)
    assert not list(tmp_path.glob("*.log"))


def test_the_log_file_is_made_private_and_follows_a_rotation(tmp_path):
    path = tmp_path / "binokel.log"
    path.write_text("")
    path.chmod(0o644)
    first, second = logs.problem_file_handler(str(path)), logs.problem_file_handler(str(path))
    logger = logging.getLogger("binokel.test_error_logging")
    logger.propagate = False
    try:
        logger.addHandler(first)
        logger.error("vorher")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        second.doRollover()  # another process rotates: "first" must follow
        logger.error("nachher")
    finally:
        logger.removeHandler(first)
        first.close()
        second.close()
    assert "nachher" in path.read_text() and "vorher" not in path.read_text()
    assert "vorher" in Path(f"{path}.1").read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_problems_only_keeps_djangos_warnings_out():
    def record(name, level):
        return logging.LogRecord(name, level, __file__, 1, "x", (), None)

    problems = logs.ProblemsOnly()
    assert not problems.filter(record("django.request", logging.WARNING))
    assert problems.filter(record("django.request", logging.ERROR))
    assert problems.filter(record("binokel.cache", logging.WARNING))
    assert problems.filter(record("scoring.services", logging.WARNING))
    assert problems.filter(record("djangoish", logging.WARNING))


def test_gunicorns_errors_reach_the_log_file_redacted(tmp_path, monkeypatch):
    from gunicorn.config import Config

    log_file = tmp_path / "binokel.log"
    monkeypatch.setenv(logs.LOG_FILE_VARIABLE, str(log_file))
    cfg = Config()
    settings = {name: setting.get() for name, setting in cfg.settings.items()}
    logger = logs.GunicornLogger(SimpleNamespace(**settings, settings=cfg.settings))
    try:
        logger.setup(SimpleNamespace(**settings, settings=cfg.settings))  # a reload
        token = new_token()
        try:
            raise OSError(f"broken pipe at /t/{token}/")
        except OSError:
            logger.exception("Error handling request %s", f"/t/{token}/stimmt/")
        logger.info("Booting worker with pid: 1")  # not a problem: stderr only
    finally:
        for handler in list(logger.error_log.handlers):
            if isinstance(handler, logs.PrivateLogFile):
                logger.error_log.removeHandler(handler)
                handler.close()
        logger.error_log.filters.clear()
    text = log_file.read_text()
    assert text.count("Error handling request /t/…/stimmt/") == 1  # one handler after reload
    assert "OSError: broken pipe at /t/…/" in text and token not in text
    assert "Booting" not in text
    assert stat.S_IMODE(log_file.stat().st_mode) == 0o600
