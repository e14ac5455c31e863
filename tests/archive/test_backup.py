"""Backups and moves: online SQLite backup and restore, and one tournament exported to JSON
and imported elsewhere under new ids, complete with history."""

from __future__ import annotations

import json
import sqlite3
from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections
from django.db.migrations.loader import MigrationLoader

from archive import backup, transfer
from scoring import selectors, services
from scoring.models import Hand, RoundTotal
from tests.factories.backups import file_copy_of_test_database, file_row_counts, small_database
from tests.factories.hands import acting_as, play_round
from tests.factories.tournaments import make_tournament
from tournament.models import Player, Registration, Tournament

sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="copies the SQLite test database into a file"
)


# --------------------------------------------------------------------------- helpers


def standings_of(tournament):
    """Every standings table (overall and per round) as comparable rows."""
    return {
        number: [
            (r.rank, r.start_number, r.name, r.club, r.rounds, r.total, r.won, r.lost, r.fee)
            for r in selectors.standings(tournament, round_number=number, public=False)
        ]
        for number in [None, *range(1, tournament.rounds + 1)]
    }


def history_of(tournament):
    """Each hand's history records, oldest first, by (round, table, game)."""
    out = {}
    for hand in Hand.objects.filter(table__round__tournament=tournament).select_related(
        "table__round"
    ):
        out[(hand.table.round.number, hand.table.number, hand.number)] = [
            (
                r.version,
                r.history_type,
                r.history_user_label or None,
                r.history_date,
                r.bid,
                r.scores,
                r.entered_by.username if r.entered_by else r.entered_by_name,
            )
            for r in hand.history.order_by("history_date", "history_id")
        ]
    return out


def without_ids(data):
    """An export's records with everything that names a primary key taken out, sorted:
    two exports of the same tournament under different ids compare equal."""
    plan = {entry.label: entry for entry in transfer.transfer_plan()}
    out = {}
    for obj in data["objects"]:
        entry = plan[obj["model"]]
        ids = {
            f.name
            for f in entry.model._meta.concrete_fields
            if f.is_relation and f.related_model._meta.label_lower in plan
        }
        if entry.history_of is not None:
            ids.add(entry.history_of._meta.pk.attname)
        fields = {k: v for k, v in obj["fields"].items() if k not in ids}
        out.setdefault(obj["model"], []).append(json.dumps(fields, sort_keys=True))
    return {label: sorted(rows) for label, rows in out.items()}


def via_json(data):
    return json.loads(json.dumps(data))


def database_state():
    """Rows per model of the plan, and accounts: to show that nothing was written."""
    counts = {e.label: e.model._base_manager.count() for e in transfer.transfer_plan()}
    counts["accounts"] = get_user_model().objects.count()
    return counts


# --------------------------------------------------------------------------- export/import


def test_export_then_import_into_the_same_database(played, tmp_path):
    path = tmp_path / "turnier.json"
    call_command("export_tournament", played.pk, str(path), stdout=StringIO())
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["version"]) == (transfer.FORMAT, transfer.VERSION)
    accounts = get_user_model().objects.count()
    out = StringIO()
    call_command("import_tournament", str(path), stdout=out)
    copy = Tournament.objects.exclude(pk=played.pk).get()
    assert f"Nr. {copy.pk}" in out.getvalue()

    assert standings_of(copy) == standings_of(played)
    assert any(row[7] for row in standings_of(copy)[None])  # lost games, hence fees
    history = history_of(copy)
    assert history == history_of(played)
    assert len(history[(1, 1, 2)]) == 3  # entered, corrected twice
    assert [r[2] for r in history[(1, 1, 2)]] == ["clerk", "director", "clerk"]
    # the deleted hand's history came along, under an id no hand will ever have
    lost = Hand.history.filter(table__round__tournament=copy, history_type="-").get()
    assert lost.id < 0 and Hand.history.filter(id=lost.id).count() == 2

    # new rows everywhere, the original untouched, no new accounts
    assert not set(
        Registration.objects.filter(tournament=copy).values_list("player", flat=True)
    ) & (set(Registration.objects.filter(tournament=played).values_list("player", flat=True)))
    assert Player.objects.count() == 20
    assert get_user_model().objects.count() == accounts
    # the clerk list is shown, never granted: the director gives the rights by hand
    assert "Schreiber in der Datei: clerk; Rechte bitte von Hand vergeben" in out.getvalue()
    assert not copy.clerks.exists()
    copy.clerks.set(played.clerks.all())
    again = transfer.export_tournament(copy)
    assert again["counts"] == data["counts"]
    assert without_ids(again) == without_ids(data)  # every field of every row, timestamps too


def test_import_into_a_database_that_holds_another_tournament(played, clerk, director):
    data = via_json(transfer.export_tournament(played))
    expected_standings, expected_history = standings_of(played), history_of(played)
    # another server: none of these rows, no account "clerk", a tournament of its own
    # (on SQLite its ids are the very ones the file uses)
    for entry in reversed(transfer.transfer_plan()):
        entry.model._base_manager.all().delete()
    clerk.delete()
    other = make_tournament(players=7)
    play_round(other.round_set.get(number=1), director, [1, 2, 3])
    other_standings, other_history = standings_of(other), history_of(other)

    imported = transfer.import_tournament(data)

    assert standings_of(imported) == expected_standings
    assert history_of(imported) == expected_history
    assert standings_of(other) == other_standings and history_of(other) == other_history
    assert Player.objects.count() == 7 + 10
    # no account is created for "clerk": the rows keep the name as text, nobody is granted
    assert not get_user_model().objects.filter(username="clerk").exists()
    assert not imported.clerks.exists()
    assert Hand.history.filter(table__round__tournament=imported, history_user=director).exists()


def test_paper_mode_totals_and_their_history_travel(clerk, director):
    tournament = make_tournament(entry_mode="totals")
    table = tournament.round_set.get(number=1).tables.order_by("number").first()
    seats = services.table_seats(table)
    points = [1230, -180, 2450] + [0] * (len(seats) - 3)
    entries = {
        s.position: services.TotalInput(points=p, won=1, lost=1)
        for s, p in zip(seats, points, strict=True)
    }
    with acting_as(clerk):
        services.save_round_totals(table, entries, clerk)
    entries[seats[0].position] = services.TotalInput(points=1240, won=2, lost=1)
    with acting_as(director):
        services.save_round_totals(
            table, entries, director, expected_versions={s.position: 1 for s in seats}
        )

    imported = transfer.import_tournament(via_json(transfer.export_tournament(tournament)))

    assert standings_of(imported) == standings_of(tournament)

    def totals_history(t):
        return {
            total.registration.start_number: [
                (r.points, r.version, r.history_user_label, r.history_date)
                for r in total.history.order_by("history_date", "history_id")
            ]
            for total in RoundTotal.objects.filter(round__tournament=t)
        }

    history = totals_history(imported)
    assert history == totals_history(tournament)
    assert len(history[seats[0].registration.start_number]) == 2


def test_every_model_of_both_apps_is_exported(played):
    """A model added to either app later must be placed by the export (or be listed in
    ``transfer.EXCLUDED`` with a reason); historical models included."""
    assert transfer.uncovered_models() == []
    labels = {
        model._meta.label_lower
        for app in transfer.APPS
        for model in apps.get_app_config(app).get_models()
        if not model._meta.proxy and model._meta.label not in transfer.EXCLUDED
    }
    assert {"scoring.historicalhand", "scoring.historicalroundtotal"} <= labels
    data = transfer.export_tournament(played)
    assert set(data["counts"]) == labels
    assert data["counts"]["scoring.ruling"] == data["counts"]["scoring.historicalruling"] == 1
    # the database holds just this tournament: the export must have every row of it
    for label in labels:
        model = apps.get_model(label)
        assert data["counts"][label] == model._base_manager.count(), label


def _case(change):
    def apply(data):
        change(data)
        return json.dumps(data)

    return apply


def _dangling_after_a_new_account(data):
    hands = [o for o in data["objects"] if o["model"] == "scoring.hand"]
    hands[0]["fields"]["entered_by"] = "neu-im-team"  # would be created first …
    hands[-1]["fields"]["table"] = 999_999  # … then a hand points at no table


def _hand_field(name, value):
    def change(data):
        hand = next(o for o in data["objects"] if o["model"] == "scoring.hand")
        hand["fields"][name] = value

    return change


BAD_FILES = {
    "truncated": (lambda data: json.dumps(data)[:5000], "keine gültige JSON-Datei"),
    "not an object": (lambda data: "[1, 2, 3]", "kein Turnier-Export"),
    "wrong marker": (_case(lambda d: d.update(format="dumpdata")), "kein Turnier-Export"),
    "no marker": (_case(lambda d: d.pop("format")), "kein Turnier-Export"),
    "newer version": (_case(lambda d: d.update(version=2)), "Formatversion 2"),
    "missing objects": (_case(lambda d: d.pop("objects")), "fehlen Angaben: objects"),
    "missing counts": (_case(lambda d: d.pop("counts")), "fehlen Angaben: counts"),
    "record without fields": (
        _case(lambda d: d["objects"][2].pop("fields")),
        "nicht model, pk und fields",
    ),
    "records removed": (_case(lambda d: d["objects"].pop()), "unvollständig"),
    "an account smuggled in": (
        _case(
            lambda d: d["objects"].append(
                {"model": "auth.user", "pk": 99, "fields": {"username": "x", "is_superuser": 1}}
            )
        ),
        "»auth.user«",
    ),
    "unknown field": (_case(_hand_field("colour", "red")), "Felder, die diese Programmversion"),
    "bad value": (_case(_hand_field("bid", "viel")), "Feld »bid«: muss eine ganze Zahl sein"),
    "account as a number": (_case(_hand_field("entered_by", 1)), "ungültiger Benutzername"),
    "dangling reference": (_case(_dangling_after_a_new_account), "das fehlt"),
    "database behind the file": (
        _case(lambda d: d["migrations"]["scoring"].append("9999_future")),
        "manage.py migrate",
    ),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_a_bad_file_is_refused_and_nothing_is_written(played, tmp_path, case):
    spoil, words = BAD_FILES[case]
    path = tmp_path / "turnier.json"
    path.write_text(spoil(via_json(transfer.export_tournament(played))), encoding="utf-8")
    before = database_state()
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), stdout=StringIO())
    assert words in str(refused.value)
    assert database_state() == before


def test_import_dry_run_writes_nothing(played, tmp_path):
    path = tmp_path / "turnier.json"
    path.write_text(json.dumps(transfer.export_tournament(played)), encoding="utf-8")
    before = database_state()
    out = StringIO()
    call_command("import_tournament", str(path), dry_run=True, stdout=out)
    assert "Probelauf" in out.getvalue()
    assert database_state() == before


def test_export_refuses_an_unknown_tournament_and_an_existing_file(played, tmp_path):
    with pytest.raises(CommandError, match="gibt es nicht"):
        call_command("export_tournament", played.pk + 1000, str(tmp_path / "x.json"))
    (tmp_path / "x.json").write_text("{}")
    with pytest.raises(CommandError, match="--overwrite"):
        call_command("export_tournament", played.pk, str(tmp_path / "x.json"))


# --------------------------------------------------------------------------- backup/restore


def add_player_row(conn: sqlite3.Connection) -> None:
    """Insert a copy of a player (whatever columns the table has by now)."""
    columns = [r[1] for r in conn.execute("PRAGMA table_info(tournament_player)") if r[1] != "id"]
    names = ", ".join(f'"{c}"' for c in columns)
    conn.execute(
        f"INSERT INTO tournament_player ({names}) SELECT {names} FROM tournament_player LIMIT 1"
    )


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_backup_while_the_server_reads_and_writes_then_restore_into_a_fresh_file(played, tmp_path):
    live = file_copy_of_test_database(tmp_path / "live.sqlite3")
    players = file_row_counts(live)["tournament_player"]
    reader = sqlite3.connect(live, isolation_level=None)  # the standings page, mid-query
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM tournament_player").fetchone() == (players,)
    writer = sqlite3.connect(live)  # a clerk saving: committed, still only in the WAL
    writer.execute("PRAGMA wal_autocheckpoint=0")
    add_player_row(writer)
    writer.commit()
    assert Path(f"{live}-wal").stat().st_size > 0
    expected = file_row_counts(live)
    assert expected["tournament_player"] == players + 1

    (tmp_path / "backups").mkdir()
    report = backup.backup_database(live, tmp_path / "backups")

    assert report.integrity == "ok"
    assert report.path.parent == tmp_path / "backups" and report.path.name.startswith("binokel-")
    assert not Path(f"{report.path}-wal").exists()  # one self-contained file
    assert file_row_counts(report.path) == expected
    assert ("Spiele", expected["scoring_hand"]) in report.counts
    # the reader kept its snapshot throughout and goes on
    assert reader.execute("SELECT count(*) FROM tournament_player").fetchone() == (players,)
    reader.execute("COMMIT")
    writer.close()
    reader.close()

    restored = backup.restore_database(report.path, tmp_path / "fresh.sqlite3")

    assert restored.safety_copy is None and restored.missing_migrations == []
    assert restored.restored.integrity == "ok"
    assert file_row_counts(tmp_path / "fresh.sqlite3") == expected


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_restore_over_the_live_database_keeps_a_safety_copy(played, tmp_path):
    live = file_copy_of_test_database(tmp_path / "live.sqlite3")
    saved = backup.backup_database(live, tmp_path / "evening.sqlite3")
    server = sqlite3.connect(live)  # the running server's connection stays open
    server.execute("DELETE FROM scoring_seatscore")
    server.commit()
    damaged = file_row_counts(live)

    result = backup.restore_database(saved.path, live)

    assert file_row_counts(live) == file_row_counts(saved.path)
    assert file_row_counts(result.safety_copy) == damaged
    assert server.execute("SELECT count(*) FROM scoring_seatscore").fetchone()[0] > 0
    assert server.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    server.close()


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_backup_db_and_restore_db_commands(played, tmp_path, monkeypatch):
    live = file_copy_of_test_database(tmp_path / "live.sqlite3")
    monkeypatch.setattr(backup, "configured_database", lambda alias="default": live)
    out = StringIO()
    call_command("backup_db", str(tmp_path), stdout=out)
    (made,) = tmp_path.glob("binokel-*.sqlite3")
    assert "Prüfung: ok" in out.getvalue() and str(made) in out.getvalue()
    with pytest.raises(CommandError, match="gibt es schon"):
        call_command("backup_db", str(made))

    fresh = tmp_path / "fresh.sqlite3"
    monkeypatch.setattr(backup, "configured_database", lambda alias="default": fresh)
    monkeypatch.setattr("sys.stdin", StringIO())  # not a terminal: nobody to ask
    with pytest.raises(CommandError, match="--yes"):
        call_command("restore_db", str(made), stdout=StringIO())
    assert not fresh.exists()
    out = StringIO()
    call_command("restore_db", str(made), yes=True, stdout=out)
    assert "Server neu starten" in out.getvalue()
    assert file_row_counts(fresh) == file_row_counts(live)


@pytest.mark.parametrize(
    ("vendor", "in_memory", "words"),
    [("postgresql", False, "pg_dump"), ("sqlite", True, "Arbeitsspeicher")],
)
def test_backup_and_restore_refuse_a_database_they_cannot_copy(
    db, tmp_path, monkeypatch, vendor, in_memory, words
):
    configured = connections["default"]
    monkeypatch.setattr(configured, "vendor", vendor)
    monkeypatch.setattr(configured, "is_in_memory_db", lambda: in_memory, raising=False)
    with pytest.raises(CommandError, match=words):
        call_command("backup_db", str(tmp_path))
    with pytest.raises(CommandError, match=words):
        call_command("restore_db", str(tmp_path / "x.sqlite3"), yes=True)
    assert list(tmp_path.iterdir()) == []


# restore checks on small hand-made database files: independent of the test database


def test_restore_refuses_files_that_are_no_usable_backup(tmp_path):
    target = tmp_path / "db.sqlite3"
    text = tmp_path / "notes.txt"
    text.write_text("Rundensummen: 1230, -180, 2450\n" * 10)
    with pytest.raises(backup.BackupError, match="keine SQLite-Datenbank"):
        backup.restore_database(text, target)

    foreign = tmp_path / "foreign.sqlite3"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE recipes (name)")
    conn.commit()
    conn.close()
    with pytest.raises(backup.BackupError, match="keine Datenbank dieses Programms"):
        backup.restore_database(foreign, target)

    damaged = small_database(tmp_path / "damaged.sqlite3")
    with open(damaged, "r+b") as fh:
        fh.seek(4096)
        fh.write(b"\xff" * 4096 * 3)
    with pytest.raises(backup.BackupError, match="beschädigt|lässt sich nicht lesen"):
        backup.restore_database(damaged, target)

    newer = small_database(tmp_path / "newer.sqlite3", migrations=("0001_initial", "9999_future"))
    with pytest.raises(backup.BackupError, match="neueren Programmversion"):
        backup.restore_database(newer, target)
    assert not target.exists()


def test_restore_of_an_older_backup_asks_for_migrate(tmp_path):
    result = backup.restore_database(small_database(tmp_path / "old.sqlite3"), tmp_path / "db")
    later = sorted(
        f"{app}.{name}"
        for app, name in MigrationLoader(None).disk_migrations
        if app in ("tournament", "scoring") and name != "0001_initial"
    )
    assert result.missing_migrations == later
    assert file_row_counts(tmp_path / "db")["tournament_tournament"] == 500


def test_restore_replaces_a_database_too_damaged_to_open(tmp_path):
    target = tmp_path / "db.sqlite3"
    target.write_bytes(b"\x00" * 8192)  # what a crash may leave
    Path(f"{target}-wal").write_bytes(b"\x01" * 100)
    result = backup.restore_database(small_database(tmp_path / "b.sqlite3"), target)
    assert file_row_counts(target)["tournament_tournament"] == 500
    assert result.safety_copy.read_bytes() == b"\x00" * 8192  # kept as it was


def test_restore_into_a_wal_database_of_another_page_size(tmp_path):
    target = small_database(tmp_path / "db.sqlite3", page_size=4096, wal=True)
    source = small_database(tmp_path / "b.sqlite3", page_size=8192)
    conn = sqlite3.connect(source)
    conn.execute("DELETE FROM tournament_tournament WHERE id > 10")
    conn.commit()
    conn.close()
    backup.restore_database(source, target)
    conn = sqlite3.connect(target)
    assert conn.execute("SELECT count(*) FROM tournament_tournament").fetchone() == (10,)
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()


def test_backup_of_a_file_refuses_a_missing_directory_and_keeps_existing_files(tmp_path):
    db = small_database(tmp_path / "db.sqlite3", wal=True)
    with pytest.raises(backup.BackupError, match="Verzeichnis"):
        backup.backup_database(db, f"{tmp_path}/fehlt/")
    made = backup.backup_database(db, tmp_path / "b.sqlite3")
    assert made.integrity == "ok" and ("Turniere", 500) in made.counts
    with pytest.raises(backup.BackupError, match="gibt es schon"):
        backup.backup_database(db, made.path)
    assert backup.backup_database(db, made.path, overwrite=True).path == made.path
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no partial file
