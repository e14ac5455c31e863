"""Backups, exports and imports: copies of the test database as a file, small hand-made
database files, played tournaments to export, and what the tests compare afterwards."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from archive import transfer
from scoring import services
from scoring.models import Hand
from tests.factories.hands import acting_as, hand_entry, play_round
from tests.factories.tournaments import make_tournament
from tournament import services as tournament_services
from tournament.models import Table

# ------------------------------------------------------------------ played tournaments


def played_tournament(clerk, director):
    """10 players (tables of 4, 3, 3), a lost-game fee; round 1: three hands per table, one
    hand corrected twice, one deleted, a ruling, then closed; round 2: two hands per table."""
    tournament = make_tournament(players=10, lost_game_fee=Decimal("0.50"))
    first = tournament.round_set.get(number=1)
    play_round(first, clerk, [1, 2, 3])
    table = first.tables.get(number=1)
    with acting_as(director):
        services.save_hand(
            table, hand_entry(table, 2, bid=400), director, expected_version=1, reason="Reizwert"
        )
    with acting_as(clerk):
        services.save_hand(
            table, hand_entry(table, 2, bid=350), clerk, expected_version=2, reason="Reizwert"
        )
        Hand.objects.get(table__round=first, table__number=2, number=3).delete()
    with acting_as(director):
        _, errors = services.record_ruling(
            table,
            hand_number=1,
            claim="Karte zu früh aufgedeckt",
            decision="Spiel zählt",
            consequence="",
            offender=None,
            user=director,
        )
        assert not errors
    services.close_round(first, reason="Test: Runde ohne alle Spiele")
    second = tournament.round_set.get(number=2)
    tournament_services.draw_round(second, seed=8)
    tournament_services.start_round(second)
    play_round(second, clerk, [1, 2])
    return tournament


def small_tournament(clerk, director, **kwargs):
    """7 players (tables of 4 and 3, the dealer sits out at four), confirmation required;
    round 1: two hands per table, one confirmed, one corrected, a ruling with a penalty.
    The small exported tournament of the import tests (issue 16, item 3)."""
    tournament = make_tournament(players=7, confirmation_required=True, **kwargs)
    first = tournament.round_set.get(number=1)
    play_round(first, clerk, [1, 2])
    table = first.tables.order_by("number").first()
    hand = Hand.objects.get(table=table, number=1)
    size = table.seats.count()
    with acting_as(director):
        services.confirm_hand(hand, director, expected_version=hand.version)
        services.save_hand(
            table, hand_entry(table, 2, bid=350), director, expected_version=1, reason="Reizwert"
        )
        _, errors = services.record_ruling(
            table,
            hand_number=2,
            claim="Farbe nicht bedient",
            decision="Verworfen",
            consequence="verwerfen",
            offender=services.active_positions(
                tournament, size, services.dealer_for(table, size, 2)
            )[0],
            user=director,
        )
        assert not errors, errors
    return tournament


# ------------------------------------------------------------------ exports and imports


def exported(tournament) -> dict:
    """The export of ``tournament`` as it comes back from a JSON file."""
    return json.loads(json.dumps(transfer.export_tournament(tournament)))


def objects_of(data: dict, label: str) -> list[dict]:
    """The objects of model ``label`` ("scoring.hand") in an export."""
    return [o for o in data["objects"] if o["model"] == label]


def model_row_counts() -> dict[str, int]:
    """Rows of every model of every installed app (accounts and groups included)."""
    return {
        model._meta.label: model._base_manager.count()
        for model in apps.get_models(include_auto_created=True)
    }


def page_statuses(tournament) -> dict[str, int]:
    """Status of every page of ``tournament`` a visitor or the director opens: standings,
    a player's view, projector, CSV, XLSX, rules PDF and results PDF."""
    client = Client()
    director = get_user_model().objects.filter(username="director").first()
    if director is not None:
        client.force_login(director)
    registration = tournament.registrations.order_by("start_number").first()
    base = f"/turnier/{tournament.pk}"
    urls = [
        f"{base}/",
        f"{base}/rangliste/",
        f"{base}/beamer/",
        f"{base}/export.csv",
        f"{base}/export.xlsx",
        f"{base}/druck/regeln.pdf",
        f"{base}/druck/rangliste.pdf",
    ]
    if registration is not None:
        urls.append(f"{base}/spieler/{registration.start_number}/")
    table = Table.objects.filter(round__tournament=tournament, seats__isnull=False).first()
    if table is not None:  # the director's table page: entries, versions, rulings
        urls.append(f"{base}/runde/{table.round.number}/tisch/{table.number}/")
    return {url: client.get(url).status_code for url in urls}


# ------------------------------------------------------------------ SQLite files


def file_copy_of_test_database(path: Path) -> Path:
    """The (committed) test database copied into the file ``path``, in WAL mode like the
    server's database."""
    connection.ensure_connection()
    target = sqlite3.connect(path)
    connection.connection.backup(target)
    target.execute("PRAGMA journal_mode=WAL")
    target.close()
    return path


def file_row_counts(path) -> dict[str, int]:
    """Rows of every table of the SQLite file ``path``."""
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    finally:
        conn.close()


def small_database(path: Path, migrations=("0001_initial",), page_size=4096, wal=False) -> Path:
    """A hand-made SQLite file at ``path`` that looks like this program's: the migrations
    ``migrations`` of both apps applied and 500 tournaments (independent of the test
    database)."""
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA page_size={page_size}")
    if wal:
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY, app, name, applied)")
    for app in ("tournament", "scoring"):
        for name in migrations:
            conn.execute("INSERT INTO django_migrations (app, name) VALUES (?, ?)", (app, name))
    conn.execute("CREATE TABLE tournament_tournament (id INTEGER PRIMARY KEY, name)")
    conn.executemany(
        "INSERT INTO tournament_tournament (name) VALUES (?)", [(f"T{i}",) for i in range(500)]
    )
    conn.execute("CREATE INDEX by_name ON tournament_tournament (name)")
    conn.commit()
    conn.close()
    return path


def manage_on(db: Path, *args: str) -> str:
    """Run ``manage.py`` with ``args`` on the SQLite file ``db`` in a subprocess, as a
    director would on a laptop (the settings read ``DATABASE_URL``); its output, or an
    assertion error with its output when it fails."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout
