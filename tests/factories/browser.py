"""What the browser tests share: Debian's Chromium and its arguments, the devices pages
are opened on, logging in, the engine's hands to type, and axe-core's findings."""

from __future__ import annotations

import os
import random
import shutil
import time

import pytest

from rules.simulate import simulate_hand
from scoring import services

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def require_chromium() -> None:
    """Called at the top of every browser test module: the ORM may be used from the test
    thread, and the module skips when Debian's chromium or Playwright is missing (in CI a
    missing chromium fails the run)."""
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # ORM checks from the test thread
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            raise RuntimeError("CI must install Debian's chromium for the browser test")
        pytest.skip("Debian's chromium is not installed", allow_module_level=True)
    pytest.importorskip("playwright.sync_api")


#: a phone held upright: the context options of ``browser.new_context(**PHONE)``
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
#: the viewport of a smaller phone, 390×740, that :func:`login` opens its page at
PHONE_VIEWPORT = {"width": 390, "height": 740}


def login(browser, live_server, user, password, path, viewport=PHONE_VIEWPORT):
    """A new page of ``viewport`` size, logged in as ``user``, at ``path``."""
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.fill("#id_username", user)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.press("#id_password", "Enter")
    return page


def hands_for(tournament, table, count):
    """``count`` hands dealt and played out by the engine, as the clerk will type them."""
    rng = random.Random(11)
    seats = {s.position: s.registration.start_number for s in table.seats.all()}
    out = []
    for number in range(1, count + 1):
        dealer = services.dealer_for(table, 3, number)
        sim = simulate_hand(tournament.ruleset, 3, dealer, rng)
        out.append((number, dealer, sim, seats))
    return out


# ------------------------------------------------------------------ accessibility (axe-core)

#: the impacts of an axe violation that fail a test
BLOCKING = {"serious", "critical"}

# the smallest computed font size of any visible element that has text of its own
SMALLEST_TEXT = """() => {
  let smallest = null;
  for (const el of document.body.querySelectorAll('*')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!box.width || !box.height || style.visibility === 'hidden') continue;
    if (el.closest('[aria-hidden="true"], .visually-hidden, .sr-only')) continue;
    const size = parseFloat(style.fontSize);
    if (smallest === null || size < smallest.size) {
      smallest = {size, tag: el.tagName, text: el.textContent.trim().slice(0, 40)};
    }
  }
  return smallest;
}"""


def describe(violation: dict) -> str:
    """An axe violation in one line: its rule, impact, help and the first four elements."""
    nodes = "; ".join(
        f"{' '.join(node['target'])}: {' '.join(node.get('failureSummary', '').split())}"
        for node in violation["nodes"][:4]
    )
    return f"{violation['id']} ({violation['impact']}): {violation['help']} — {nodes}"


def focused_field(page, expected: str, timeout: float = 5.0) -> str | None:
    """The ``name`` of the focused element, read until it is ``expected`` or ``timeout``
    seconds have passed: autofocus and the page's own focus script run after the load
    event, which a loaded machine can put after Playwright's return from ``goto``."""
    deadline = time.monotonic() + timeout
    while True:
        name = page.evaluate("document.activeElement && document.activeElement.name")
        if name == expected or time.monotonic() > deadline:
            return name
        page.wait_for_timeout(50)
