"""Data made by an earlier version of the program still comes across whole.

``tests/data/backup-before-app-split.sqlite3`` is a ``backup_db`` backup and
``tests/data/export-before-app-split-{1,2}.json`` are ``export_tournament`` files, all made
by the code of commit d6370b4, before the apps were split (the prize list then lived in
``scoring``).  They hold two tournaments with a row of every kind: hands with a correction
(two versions of game 1 at table 1 of round 2), a ruling, a category with members, prizes
(one edited, so four history records), paper round totals and a table link.

The backup test restores the file with ``restore_db`` into a fresh SQLite database, runs
``migrate`` (both in subprocesses, as a director would on a new laptop) and counts every
row through the current models.  The export tests import the old files through the
current importer.  The expected numbers are written out, read off the files when they were
made (``backup_db`` printed them)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from django.apps import apps

from archive import transfer
from tests.factories.backups import manage_on

DATA = Path(__file__).resolve().parent.parent / "data"

#: rows per model in the old backup, by the model's label in the current code
BACKUP_ROWS = {
    "tournament.Tournament": 2,
    "tournament.Player": 6,
    "tournament.HistoricalPlayer": 12,
    "tournament.Registration": 9,
    "tournament.HistoricalRegistration": 9,
    "tournament.Round": 3,
    "tournament.Table": 5,
    "tournament.Seat": 15,
    "tournament.Category": 1,
    "tournament.HistoricalCategory": 2,
    "scoring.TableLink": 1,
    "scoring.Hand": 12,
    "scoring.HistoricalHand": 13,
    "scoring.SeatScore": 36,
    "scoring.RoundTotal": 3,
    "scoring.HistoricalRoundTotal": 3,
    "scoring.Ruling": 1,
    "scoring.HistoricalRuling": 1,
    "prizes.Prize": 3,
    "prizes.HistoricalPrize": 4,
}

_COUNT_SCRIPT = """
import json
from django.apps import apps
from django.contrib.auth.models import Group
labels = json.loads(%r)
counts = {label: apps.get_model(label).objects.count() for label in labels}
Hand = apps.get_model("scoring.Hand")
corrected = Hand.objects.get(table__round__tournament__name="Altbestand", table__round__number=2,
                             table__number=1, number=1)
Prize = apps.get_model(%r)
director = Group.objects.get(name="Turnierleitung")
print(json.dumps({
    "counts": counts,
    "corrected_version": corrected.version,
    "corrected_history": list(corrected.history.order_by("history_id")
                              .values_list("history_change_reason", flat=True)),
    "prizes": sorted(Prize.objects.values_list("description", flat=True)),
    "prize_history": sorted(Prize.history.values_list("description", flat=True)),
    "director_may_change_prizes": director.permissions.filter(
        codename="change_prize", content_type__app_label=Prize._meta.app_label).exists(),
}))
"""


def test_a_backup_of_the_old_layout_restores_and_migrates_with_every_row(tmp_path):
    backup = tmp_path / "alt.sqlite3"
    shutil.copyfile(DATA / "backup-before-app-split.sqlite3", backup)
    db = tmp_path / "neu.sqlite3"
    manage_on(db, "migrate", "-v0")
    manage_on(db, "restore_db", str(backup), "--yes", "--no-safety-copy", "--neue-konten")
    manage_on(db, "migrate", "-v0")
    prize = apps.get_model("prizes.Prize")._meta.label
    out = manage_on(db, "shell", "-c", _COUNT_SCRIPT % (json.dumps(list(BACKUP_ROWS)), prize))
    found = json.loads(out.strip().splitlines()[-1])
    assert found["counts"] == BACKUP_ROWS
    assert found["corrected_version"] == 2
    assert found["corrected_history"] == [None, "Meldung nachgerechnet"]
    assert found["prizes"] == ["", "Blumen", "Rote Laterne"]
    assert found["prize_history"] == ["", "Blumen", "Laterne", "Rote Laterne"]
    assert found["director_may_change_prizes"] is True


def _old_export(number: int) -> dict:
    return json.loads((DATA / f"export-before-app-split-{number}.json").read_text("utf-8"))


@pytest.mark.django_db
def test_an_old_export_with_prizes_and_a_ruling_imports():
    report = transfer.run_import(_old_export(1))
    tournament = report.tournament
    assert tournament.name == "Altbestand"
    assert tournament.registrations.count() == 6
    hands = apps.get_model("scoring.Hand").objects.filter(table__round__tournament=tournament)
    assert hands.count() == 12
    corrected = hands.get(table__round__number=2, table__number=1, number=1)
    assert corrected.version == 2
    assert corrected.history.count() == 2
    prizes = apps.get_model("prizes.Prize").objects.filter(tournament=tournament)
    assert sorted(p.description for p in prizes) == ["", "Blumen", "Rote Laterne"]
    assert prizes.get(description="Blumen").category.name == "Damen"
    assert (
        apps.get_model("scoring.Ruling").objects.filter(table__round__tournament=tournament).count()
        == 1
    )


@pytest.mark.django_db
def test_an_old_export_with_round_totals_and_a_table_link_imports():
    report = transfer.run_import(_old_export(2))
    tournament = report.tournament
    totals = apps.get_model("scoring.RoundTotal").objects.filter(round__tournament=tournament)
    assert sorted(t.points for t in totals) == [300, 310, 320]
    links = apps.get_model("scoring.TableLink").objects.filter(table__round__tournament=tournament)
    assert links.count() == 1
    # the link's maker has no account here: the link comes without one, and the report
    # names him (before, the whole import was refused)
    assert links.get().created_by is None
    assert "leitung" in report.unknown_users
