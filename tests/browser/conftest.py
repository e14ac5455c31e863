"""The browser every browser test drives: Debian's Chromium through Playwright."""

from __future__ import annotations

import pytest


@pytest.fixture
def browser():
    """A headless Chromium (``tests.browser.test_clerk_round.CHROMIUM`` with its ``ARGS``),
    closed after the test."""
    from playwright.sync_api import sync_playwright

    from tests.browser.test_clerk_round import ARGS, CHROMIUM

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
