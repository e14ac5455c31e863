"""Real browser (Playwright driving Debian's Chromium), a club's own first evening on an
empty database, with no /admin/ and no manage.py (issue 24, "Done when"): the laptop's
browser is led to the first-run page and makes the director's account; the director makes
two clerk accounts on the clerk page, creates the tournament with both clerks ticked,
registers three players, draws and starts round 1; a clerk logs in and enters a hand; the
director closes the round."""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import pytest
from django.db import connection

from bench.load_test import _free_port
from tests.factories.browser import require_chromium
from tests.factories.venue import Venue, http_get

require_chromium()

sync_api = pytest.importorskip("playwright.sync_api")

CLERKS = {"schreiberin-anna": "Herz-Ober-Eichel-7", "schreiber-ben": "Schellen-Unter-Laub-8"}
DIRECTOR = ("leitung", "Binokel-Abend-2026")


@pytest.fixture
def venue(tmp_path):
    """``python -m operations.venue --data <empty dir> --bind 127.0.0.1`` (no --demo) as a
    subprocess, once it answers; stopped after the test."""
    if connection.vendor != "sqlite":
        pytest.skip("venue mode runs on SQLite; checked in the SQLite run")
    server = Venue(tmp_path / "daten", _free_port(), tmp_path / "venue.log", demo=False)
    deadline = time.monotonic() + 120
    while True:
        assert server.process.poll() is None, server.log.read_text()[-3000:]
        try:
            if http_get(f"{server.base}/")[0] == 200:
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, server.log.read_text()[-3000:]
        time.sleep(0.3)
    yield server
    assert server.stop() == 0


def query(data: Path, sql: str) -> list[tuple]:
    """Rows of ``sql`` from the venue's database, read through SQLite itself."""
    conn = sqlite3.connect(f"file:{data / 'binokel.sqlite3'}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def log_in(page, base: str, name: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.get_by_role("button", name="Einloggen").click()
    assert page.locator(".who").inner_text() == name


def log_out(page) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name="Ausloggen").click()


def click(page, name: str) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name=name, exact=True).click()


def test_first_evening_from_an_empty_database(venue, browser, tmp_path):
    data = tmp_path / "daten"
    assert query(data, "SELECT COUNT(*) FROM auth_user") == [(0,)]
    assert "Noch kein Konto" in venue.log.read_text()  # the start message says what to do
    base = venue.base
    page = browser.new_context().new_page()

    # 1. the laptop's own browser is led to the first-run page
    page.goto(f"{base}/")
    assert page.url == f"{base}/einrichten/"
    page.fill("#id_username", DIRECTOR[0])
    page.fill("#id_password1", DIRECTOR[1])
    page.fill("#id_password2", DIRECTOR[1])
    click(page, "Konto anlegen")
    assert page.locator(".who").inner_text() == DIRECTOR[0]

    # 2. two clerk accounts, made on the clerk page
    page.goto(f"{base}/schreiber/")
    for name, password in CLERKS.items():
        form = page.locator("form.clerk-new")
        form.locator("input[name='new-username']").fill(name)
        form.locator("input[name='new-password1']").fill(password)
        form.locator("input[name='new-password2']").fill(password)
        click(page, "Schreiber anlegen")
        assert name in page.locator("main").inner_text(), page.locator(".err").all_inner_texts()

    # 3. the tournament, with both clerks ticked in its set-up
    page.goto(f"{base}/turnier/neu/")
    page.fill("#id_name", "Vereinsabend Esslingen")
    page.fill("#id_date", "2026-11-27")
    page.fill("#id_venue", "Esslingen, Zum Hirsch")
    page.fill("#id_games_per_round", "3")
    for name in CLERKS:
        page.get_by_label(name, exact=True).check()
    click(page, "Turnier anlegen")
    ((pk,),) = query(data, "SELECT id FROM tournament_tournament")
    clerks = query(
        data,
        "SELECT u.username FROM auth_user u JOIN tournament_tournament_clerks c"
        " ON c.user_id = u.id ORDER BY u.username",
    )
    assert [name for (name,) in clerks] == sorted(CLERKS)

    # 4. three players at the door, one after the other
    page.goto(f"{base}/turnier/{pk}/anmeldungen/")
    for first, last in [("Rosa", "Haller"), ("Karl", "Bader"), ("Emil", "Keck")]:
        page.fill("#id_first_name", first)
        page.fill("#id_last_name", last)
        click(page, "Anmelden")
    assert query(data, "SELECT COUNT(*) FROM tournament_registration") == [(3,)]

    # 5. round 1 drawn and started from the entry overview (starting asks first)
    page.goto(f"{base}/turnier/{pk}/erfassung/")
    click(page, "Auslosen")
    click(page, "Runde starten")
    assert "Danach steht die Sitzordnung fest" in page.locator("main").inner_text()
    click(page, "Ja, Runde starten")
    round_status = "SELECT status FROM tournament_round WHERE number = 1"
    assert query(data, round_status) == [("running",)]
    log_out(page)

    # 6. a clerk logs in and enters the first hand of table 1: the declarer goes out
    name, password = next(iter(CLERKS.items()))
    log_in(page, base, name, password)
    page.goto(f"{base}/turnier/{pk}/erfassung/")
    with page.expect_navigation(url=re.compile(r"/runde/1/tisch/1/$")):
        page.get_by_role("link", name="Tisch 1", exact=True).click()
    declarer = page.locator("[name='declarer'] option:not([value=''])").first
    page.select_option("[name='declarer']", declarer.get_attribute("value"))
    page.fill("[name='bid']", "200")
    page.select_option("[name='outcome']", "abgehen")
    with page.expect_navigation():
        page.get_by_role("button", name="Speichern").click()
    hands = query(data, "SELECT number, bid, outcome FROM scoring_hand")
    assert hands == [(1, 200, "abgehen")], page.locator(".err").all_inner_texts()
    log_out(page)

    # 7. the director closes the round: two hands are missing, so he gives a reason
    log_in(page, base, *DIRECTOR)
    page.goto(f"{base}/turnier/{pk}/erfassung/")
    click(page, "Runde abschließen")
    page.fill("#id_grund", "Zwei Spiele nicht mehr gespielt, Saal schließt")
    click(page, "Trotzdem abschließen")
    assert query(data, round_status) == [("closed",)]
    assert "/admin/" not in page.url
