"""The browser every browser test drives: Debian's Chromium through Playwright."""

from __future__ import annotations

import pytest


@pytest.fixture
def browser():
    """A headless Chromium (``tests.factories.browser.CHROMIUM`` with its ``ARGS``),
    closed after the test."""
    from playwright.sync_api import sync_playwright

    from tests.factories.browser import ARGS, CHROMIUM

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
