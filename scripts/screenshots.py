"""Screenshots of the main pages of a running demo server, for the README and reviews.

Usage: ``.venv/bin/python scripts/screenshots.py [BASE_URL] [OUT_DIR]`` with the demo
(``./scripts/demo``) running; defaults http://127.0.0.1:8000 and docs/screenshots.
Needs Chromium (Debian package ``chromium``) and Playwright (test extra).
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
OUT = Path(sys.argv[2] if len(sys.argv) > 2 else "docs/screenshots")

# (file, path, login, viewport width, full page[, viewport height]); German pages
PAGES = [
    ("rangliste", "/turnier/1/", None, 1280, True),
    ("rangliste-handy", "/turnier/1/", None, 360, False),
    ("spieler", "/turnier/1/spieler/7/", None, 390, True),
    ("beamer", "/turnier/1/beamer/", None, 1920, False),
    ("uebersicht", "/turnier/1/erfassung/", "schreiber", 1280, True),
    ("erfassung", "/turnier/1/runde/3/tisch/6/", "schreiber", 1280, True),
    ("tischplan", "/turnier/1/runde/3/plan/", "leitung", 1280, True),
    # the phone as a player holds it and the hall's projector, at their real screen sizes
    ("standings-phone", "/turnier/1/", None, 360, False, 740),
    ("projector", "/turnier/1/beamer/", None, 1920, False, 1080),
]
PASSWORDS = {"schreiber": "schreiber-demo", "leitung": "leitung-demo"}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        for name, path, login, width, full, *height in PAGES:
            context = browser.new_context(
                viewport={"width": width, "height": height[0] if height else 1000},
                locale="de-DE",
            )
            page = context.new_page()
            if login:
                page.goto(f"{BASE}/accounts/login/?next={path}")
                page.fill("#id_username", login)
                page.fill("#id_password", PASSWORDS[login])
                page.keyboard.press("Enter")
                page.wait_for_url(BASE + path)
            else:
                page.goto(BASE + path)
            page.screenshot(path=str(OUT / f"{name}.png"), full_page=full)
            print(OUT / f"{name}.png")
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
