"""Venue mode (issue 12.1): ``python -m operations.venue`` started as a subprocess on a
loopback address with its own data folder, as a director starts it on the club laptop."""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import stat
import subprocess
import time
from pathlib import Path

import pytest

from bench.load_test import _free_port
from operations import venue
from scoring.qr import qr_svg
from tests.factories.venue import Venue, http_get

pytestmark = pytest.mark.usefixtures("venue_on_sqlite")


@contextlib.contextmanager
def _unwritable(path: Path):
    """``path`` cannot be written while inside: read-only for a normal user; for root
    (CI), who writes read-only files anyway, immutable (``chattr +i``)."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(mode)


def test_venue_serves_phones_with_debug_off_and_resumes_after_a_restart(tmp_path):
    data = tmp_path / "daten"
    port = _free_port()
    first = Venue(data, port, tmp_path / "venue.log")
    try:
        first.wait()
        status, headers, body = http_get(f"{first.base}/turnier/1/")
        assert status == 200 and "Rangliste" in body.decode()

        # the QR code on the projector and join screen is the standings address for phones
        status, headers, svg = http_get(f"{first.base}/turnier/1/qr.svg")
        assert status == 200 and headers["Content-Type"] == "image/svg+xml"
        assert svg == qr_svg(f"{first.base}/turnier/1/")
        assert http_get(f"{first.base}/turnier/1/beitreten/")[0] == 200
        status, headers, pdf = http_get(f"{first.base}/turnier/1/druck/aushang.pdf")
        assert status == 200 and pdf.startswith(b"%PDF")

        # DEBUG is off: a wrong address gets the plain 404, no URL list, no settings
        status, _, body = http_get(f"{first.base}/gibt-es-nicht/")
        assert status == 404
        assert b"URLconf" not in body and b"DEBUG" not in body
        # static files are served (WhiteNoise, hashed names after collectstatic)
        page = http_get(f"{first.base}/turnier/1/")[2].decode()
        css = page.split('href="', 2)[1].split('"')[0] if 'href="/static/' in page else None
        assert css and http_get(f"{first.base}{css}")[0] == 200

        # a second venue on the same data folder refuses to start, and says why
        other = Venue(data, _free_port(), tmp_path / "other.log")
        assert other.process.wait(timeout=60) == 1
        assert "läuft schon ein Turnierabend" in (tmp_path / "other.log").read_text()
        assert http_get(f"{first.base}/turnier/1/")[0] == 200  # the first one runs on

        # backups by the timer (every 1.2 s here) land in the data folder
        deadline = time.monotonic() + 30
        while not list((data / "sicherungen").glob("auto-*-timer.sqlite3")):
            assert time.monotonic() < deadline, (tmp_path / "venue.log").read_text()[-2000:]
            time.sleep(0.3)
    finally:
        assert first.stop() == 0
    backups = list((data / "sicherungen").glob("auto-*.sqlite3"))
    assert [b for b in backups if b.name.endswith("-ende.sqlite3")]
    # they hold session keys and password hashes: the owner's only
    assert {stat.S_IMODE(b.stat().st_mode) for b in backups} == {0o600}

    key_file = data / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = key_file.read_text()
    assert len(key.strip()) >= 50

    # a database the venue cannot write is refused at the start with a German sentence
    # (it used to start and answer every login with the 500 page)
    database = data / "binokel.sqlite3"
    with _unwritable(database):
        refused = Venue(data, port, tmp_path / "readonly.log", demo=False)
        assert refused.process.wait(timeout=60) == 1
    assert "kann nicht geschrieben werden" in (tmp_path / "readonly.log").read_text()

    # half-written backups a killed venue left behind are removed at the next start
    part = data / "sicherungen" / ".auto-2026-11-21-2200-runde.sqlite3.4711.part"
    part.write_bytes(b"half")

    # a restart with the same folder, now for the real evening (no --demo), resumes: same
    # key, same tournament, no second demo, and the demo's well-known logins switched off
    second = Venue(data, port, tmp_path / "venue.log", demo=False)
    try:
        second.wait()
        assert key_file.read_text() == key
        # the demo holds three evenings (1 running, 2 and 3 finished): a second demo
        # would add a fourth
        assert http_get(f"{second.base}/turnier/3/")[0] == 200
        assert http_get(f"{second.base}/turnier/4/")[0] == 404
        assert not part.exists()
        assert "Halbe Sicherung entfernt" in (tmp_path / "venue.log").read_text()
    finally:
        assert second.stop() == 0
    assert (
        "Demo-Zugänge leitung, schreiber sind abgeschaltet" in (tmp_path / "venue.log").read_text()
    )
    conn = sqlite3.connect(data / "binokel.sqlite3")
    accounts = conn.execute(
        "SELECT username, is_active, password FROM auth_user ORDER BY username"
    ).fetchall()
    conn.close()
    assert [(name, active, hashed[:1]) for name, active, hashed in accounts] == [
        ("leitung", 0, "!"),  # unusable password, inactive
        ("schreiber", 0, "!"),
    ]


def test_secret_key_is_made_once_with_owner_only_rights(tmp_path):
    path = tmp_path / "secret_key"
    assert venue.ensure_secret_key(path) is True
    key = path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    os.chmod(path, 0o644)
    assert venue.ensure_secret_key(path) is False
    assert path.read_text() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_allowed_hosts_hold_loopback_the_addresses_and_extra_names():
    hosts = venue.allowed_hosts(["192.168.1.20"], "turnier.local, beamer")
    assert {"localhost", "127.0.0.1", "192.168.1.20", "turnier.local", "beamer"} <= set(hosts)
    assert "*" not in hosts


@pytest.mark.django_db(transaction=True)
def test_closing_a_round_writes_a_backup_and_the_overview_shows_its_time(
    client, director, clerk, tmp_path, settings
):
    from scoring import services
    from tests.factories.tournaments import make_tournament

    settings.BACKUP_DIR = str(tmp_path / "sicherungen")
    tournament = make_tournament(players=9)
    client.force_login(director)
    overview = client.get(f"/turnier/{tournament.pk}/erfassung/").content.decode()
    assert "Noch keine automatische Sicherung" in overview

    services.close_round(tournament.round_set.get(number=1), reason="Test: ohne Spiele")
    backups = list((tmp_path / "sicherungen").glob("auto-*-runde-1.sqlite3"))
    assert len(backups) == 1
    overview = client.get(f"/turnier/{tournament.pk}/erfassung/").content.decode()
    assert "Letzte Sicherung" in overview


@pytest.mark.django_db(transaction=True)
def test_automatic_backups_keep_the_newest_twenty(tmp_path, settings):
    from archive import backup

    folder = tmp_path / "sicherungen"
    folder.mkdir()
    for i in range(25):  # older backups, by name
        (folder / f"auto-2026-01-01-0000{i:02d}-timer.sqlite3").write_bytes(b"x")
    (folder / "von-hand.sqlite3").write_bytes(b"x")
    backup.automatic_backup(folder, "timer")
    kept = backup.automatic_backups(folder)
    assert len(kept) == 20
    assert not kept[0].name.startswith("auto-2026-01-01")  # the new one, newest first
    names = {p.name for p in kept}
    assert "auto-2026-01-01-000024-timer.sqlite3" in names
    assert "auto-2026-01-01-000005-timer.sqlite3" not in names  # the six oldest are gone
    assert (folder / "von-hand.sqlite3").exists()


def test_the_laptops_addresses_come_from_the_systems_own_list():
    """ifaddr replaced parsing the output of ``ip`` (Linux) or ``ifconfig`` (macOS), which
    Windows has neither of: on this Linux machine it lists every IPv4 address ``ip``
    shows, loopback included, and the LAN guess keeps the non-loopback ones."""
    listing = subprocess.run(
        ["ip", "-4", "-o", "addr", "show"], capture_output=True, text=True, check=True
    ).stdout
    from_ip = re.findall(r"\binet (\d{1,3}(?:\.\d{1,3}){3})", listing)
    found = venue.adapter_addresses()
    assert "127.0.0.1" in found and set(from_ip) <= set(found)
    lan = venue.lan_addresses()
    assert "127.0.0.1" not in lan
    assert {a for a in from_ip if not a.startswith("127.")} <= set(lan)


def test_an_empty_secret_key_file_is_refused_not_used(tmp_path):
    path = tmp_path / "secret_key"
    path.write_text("\n")
    with pytest.raises(OSError, match="leer"):
        venue.ensure_secret_key(path)


@pytest.mark.django_db(transaction=True)
def test_a_failing_backup_never_undoes_or_breaks_a_round_close(tmp_path, settings):
    from scoring import services
    from tests.factories.tournaments import make_tournament

    blocker = tmp_path / "keine-mappe"
    blocker.write_text("a file where the backup folder should be")
    settings.BACKUP_DIR = str(blocker / "sicherungen")  # mkdir raises NotADirectoryError
    tournament = make_tournament(players=9)
    services.close_round(tournament.round_set.get(number=1), reason="Test: ohne Spiele")
    assert tournament.round_set.get(number=1).status == "closed"


def test_a_damaged_database_is_left_to_the_restore_not_refused_as_read_only(tmp_path):
    """Review finding: the start's write check took a damaged database for a read-only
    one, so ``scripts/venue --restore`` was refused exactly when it was needed."""
    data = tmp_path / "daten"
    (data / venue.BACKUP_FOLDER).mkdir(parents=True)
    (data / venue.DATABASE_FILE).write_bytes(b"kein SQLite " * 100)
    assert venue.write_problems(data) == []
    assert venue.write_problems(data, check_database=False) == []
