"""The CI skip guard (tests/skip_guard.py) fails a run with an unlisted skip and lets a
listed one pass; without ``CI`` a skip stays a skip."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SAMPLE = """
import pytest

def test_runs():
    assert True

def test_skips():
    pytest.skip(REASON)
"""


def run(pytester, monkeypatch, reason: str, ci: bool):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    if ci:
        monkeypatch.setenv("CI", "1")
    else:
        monkeypatch.delenv("CI", raising=False)
    pytester.makepyfile(test_sample=SAMPLE.replace("REASON", repr(reason)))
    return pytester.runpytest_subprocess(
        "-p", "no:django", "-p", "tests.skip_guard", "-p", "no:cacheprovider"
    )


@pytest.mark.parametrize("reason", ["pdftotext (poppler-utils) missing", "no Redis"])
def test_an_unlisted_skip_fails_the_ci_run(pytester, monkeypatch, reason):
    result = run(pytester, monkeypatch, reason, ci=True)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*skips not allowed in CI*", f"*test_skips: {reason}"])


def test_a_listed_skip_passes_in_ci(pytester, monkeypatch):
    result = run(pytester, monkeypatch, "SQLite settings", ci=True)
    assert result.ret == pytest.ExitCode.OK
    result.assert_outcomes(passed=1, skipped=1)


def test_outside_ci_a_skip_is_only_a_skip(pytester, monkeypatch):
    result = run(pytester, monkeypatch, "no Redis", ci=False)
    assert result.ret == pytest.ExitCode.OK
    assert "skips not allowed" not in result.stdout.str()


def test_a_module_level_skip_counts_too(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("CI", "1")
    pytester.makepyfile(test_mod="import pytest\npytest.importorskip('no_such_module_xyz')\n")
    result = pytester.runpytest_subprocess(
        "-p", "no:django", "-p", "tests.skip_guard", "-p", "no:cacheprovider"
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*no_such_module_xyz*"])
