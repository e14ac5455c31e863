"""No silent skips in CI (issue 29): with ``CI`` set, a test or module that skips for any
reason not listed in :data:`ALLOWED_IN_CI` fails the run, so a missing tool, seed text,
browser or service shows up as lost coverage instead of a green run.  Loaded by
tests/conftest.py; ``.ci/run`` exports ``CI=1``."""

from __future__ import annotations

import os

import pytest

# The only skips CI accepts: the test belongs to the other database's run (CI runs the
# suite on SQLite and again on PostgreSQL).  Reasons are matched exactly.
ALLOWED_IN_CI = frozenset(
    {
        "venue mode runs on SQLite; checked in the SQLite run",
        "copies the SQLite test database into a file",
        "SQLite file locking (PostgreSQL uses pg_dump)",
        "SQLite settings",
        "restores SQLite files",
        "two app servers need a database both can reach (the PostgreSQL run)",
    }
)

_unlisted: list[tuple[str, str]] = []


def skip_reason(report) -> str | None:
    """The reason of a skipped test or collection ``report`` (``"Skipped: "`` removed), or
    ``None`` when it did not skip (an expected failure counts as no skip)."""
    if not report.skipped or hasattr(report, "wasxfail"):
        return None
    longrepr = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return text.removeprefix("Skipped: ")


def _note(report) -> None:
    reason = skip_reason(report)
    if reason is not None and os.environ.get("CI") and reason not in ALLOWED_IN_CI:
        _unlisted.append((report.nodeid, reason))


def pytest_runtest_logreport(report) -> None:
    _note(report)


def pytest_collectreport(report) -> None:
    _note(report)


def pytest_sessionfinish(session, exitstatus) -> None:
    if _unlisted and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter) -> None:
    if _unlisted:
        terminalreporter.section("skips not allowed in CI", sep="=", red=True)
        for nodeid, reason in _unlisted:
            terminalreporter.line(f"{nodeid}: {reason}")
        terminalreporter.line(
            f"{len(_unlisted)} unlisted skip(s): install what is missing, or list the reason "
            "in tests/skip_guard.py ALLOWED_IN_CI if the skip is by design"
        )
