"""A series names a player only if they consented at every evening they played (README,
"Series over several evenings"; "Players who have not consented to be named appear by start
number only on every public page, export and printed list").

One series over two finished evenings: some players consented everywhere, some nowhere,
some at one evening only.  The public series page, its results PDF and its CSV, German CSV
and XLSX files must name the first and show the others only by their start numbers — never
their names or clubs (issue 29: making the PDF or the files print every name left the
suite green).
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from datetime import date

import openpyxl
import pytest
from django.urls import reverse

from scoring.models import RoundTotal
from series.services import save_series
from tournament import services as tournament_services
from tournament.models import Player, Round, Series, Tournament

pytestmark = pytest.mark.django_db

# (first name, last name, club, consent at evening 1, consent at evening 2; None = absent)
PEOPLE = [
    ("Anna", "Offenbach", "SV Offenhausen", True, True),
    ("Bruno", "Sichtbar", "TSV Sichtbarfeld", True, None),
    ("Xaver", "Verborgenmeier", "Geheimclub Zwiebelhausen", False, False),
    ("Yvonne", "Halbherzig", "Halbclub Rettichingen", True, False),
    ("Zeno", "Spaetzuspruch", "Zweitclub Lauchstetten", False, True),
]
NAMED = [("Anna Offenbach", "SV Offenhausen"), ("Bruno Sichtbar", "TSV Sichtbarfeld")]
# every part of a hidden player's name and club: none may appear anywhere
HIDDEN_WORDS = [
    "Xaver",
    "Verborgenmeier",
    "Geheimclub",
    "Zwiebelhausen",
    "Yvonne",
    "Halbherzig",
    "Halbclub",
    "Rettichingen",
    "Zeno",
    "Spaetzuspruch",
    "Zweitclub",
    "Lauchstetten",
]
# start numbers in registration order: evening 1 registers everybody in PEOPLE's order,
# evening 2 registers Xaver, Anna, Yvonne, Zeno (Bruno stays at home)
HIDDEN_ROWS = [
    "Nr. 3 (Abend 1), Nr. 1 (Abend 2)",
    "Nr. 4 (Abend 1), Nr. 3 (Abend 2)",
    "Nr. 5 (Abend 1), Nr. 4 (Abend 2)",
]


def finished_evening(day: int, results: list[tuple[Player, int, bool]]) -> Tournament:
    """A one-round paper-mode evening with ``(player, points, consent)`` in registration
    order, its round closed (finished, so it counts in the series)."""
    tournament = tournament_services.create_tournament(
        name=f"Abend {day}",
        date=date(2026, 2, day),
        rounds=1,
        entry_mode=Tournament.EntryMode.TOTALS,
    )
    round_ = tournament.round_set.get()
    for player, points, consent in results:
        reg = tournament_services.register(tournament, player, consent_public=consent)
        RoundTotal.objects.create(round=round_, registration=reg, points=points)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
    return tournament


@pytest.fixture
def series():
    anna, bruno, xaver, yvonne, zeno = (
        Player.objects.create(first_name=f, last_name=la, club=c) for f, la, c, *_ in PEOPLE
    )
    first = finished_evening(
        3,
        [
            (anna, 500, True),
            (bruno, 450, True),
            (xaver, 400, False),
            (yvonne, 350, True),
            (zeno, 300, False),
        ],
    )
    second = finished_evening(
        10, [(xaver, 600, False), (anna, 200, True), (yvonne, 150, False), (zeno, 100, True)]
    )
    return save_series(
        name="Winterserie", season="2026", tournaments=[first, second], min_evenings=1
    )


def assert_private(text: str, where: str) -> None:
    """``text`` names the consenting players and shows the others by start number only."""
    leaked = [word for word in HIDDEN_WORDS if word in text]
    assert leaked == [], (where, leaked)
    for name, club in NAMED:
        assert name in text, (where, name)
        assert club in text, (where, club)
    for row in HIDDEN_ROWS:
        assert row in text, (where, row)


def test_the_standings_behind_every_output_hide_the_same_players(series):
    """The fixture is what the tests below assume: three players hidden, two named."""
    from series.selectors import series_standings

    rows = series_standings(Series.objects.get(pk=series.pk)).rows
    hidden = sorted(r.start_numbers for r in rows if not r.public)
    assert hidden == [[3, 1], [4, 3], [5, 4]]
    assert sorted(r.name for r in rows if r.public) == ["Anna Offenbach", "Bruno Sichtbar"]


def test_series_page_names_only_players_who_consented_at_every_evening(client, series):
    response = client.get(reverse("series:page", args=[series.pk]))
    assert response.status_code == 200
    assert_private(response.content.decode(), "page")


@pytest.mark.parametrize("fmt", ["csv", "de.csv"])
def test_series_csv_names_only_players_who_consented(client, series, fmt):
    response = client.get(reverse("archive:series", args=[series.pk, fmt]))
    assert response.status_code == 200
    text = response.content.decode("utf-8-sig")
    assert_private(text, fmt)
    # one line per player, the hidden ones' start numbers in the name column
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 + len(PEOPLE)


def test_series_xlsx_names_only_players_who_consented(client, series):
    response = client.get(reverse("archive:series", args=[series.pk, "xlsx"]))
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    rows = [[cell for cell in row] for row in sheet.iter_rows(values_only=True)]
    assert len(rows) == 1 + len(PEOPLE)
    text = "\n".join(" | ".join("" if c is None else str(c) for c in row) for row in rows)
    assert_private(text, "xlsx")
    names = {row[1] for row in rows[1:]}
    assert names == {"Anna Offenbach", "Bruno Sichtbar", *HIDDEN_ROWS}


@pytest.mark.skipif(
    shutil.which("pdftotext") is None and not os.environ.get("CI"),
    reason="needs poppler-utils (pdftotext)",
)
def test_series_results_pdf_names_only_players_who_consented(client, series):
    response = client.get(reverse("printing:series_results", args=[series.pk]))
    assert response.status_code == 200
    pdf = b"".join(response.streaming_content) if response.streaming else response.content
    assert pdf.startswith(b"%PDF-")
    # reading order, not -layout: a hidden player's label wraps inside its cell
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    text = " ".join(text.replace("\u2068", "").replace("\u2069", "").split())
    assert "Serienwertung" in text and "Winterserie" in text
    assert_private(text, "pdf")
