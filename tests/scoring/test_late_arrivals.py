"""Late arrivals and withdrawals in the overall standings, by the tournament's
``missed_rounds`` setting (issue 17.4): ranks, "—" for a missed round (never 0), the
marking "ab Runde 2", and the same in the CSV/XLSX exports and the results list PDF."""

from __future__ import annotations

import io
import shutil
import subprocess
from datetime import date

import pytest
from django.core.cache import cache
from django.urls import reverse
from openpyxl import load_workbook

from scoring import selectors
from scoring.models import RoundTotal
from tournament import services
from tournament.models import Player, Registration, Round, Tournament

pytestmark = pytest.mark.django_db

# start number: (first round, withdrawn after round, points in round 1, round 2)
PLAYERS = {
    1: (1, None, 300, 200),  # 500
    2: (1, None, 100, 100),  # 200
    3: (1, None, 150, 200),  # 350
    4: (2, None, None, 600),  # joins in round 2: 600, the most points
    5: (1, 1, 400, None),  # leaves after round 1: 400
}


def evening(missed_rounds: str) -> Tournament:
    """Two rounds entered as totals; player 4 joins in round 2, player 5 leaves after 1."""
    cache.clear()
    tournament = services.create_tournament(
        name="Spätkommer",
        date=date(2026, 11, 21),
        rounds=2,
        entry_mode=Tournament.EntryMode.TOTALS,
        missed_rounds=missed_rounds,
    )
    rounds = {r.number: r for r in tournament.round_set.all()}
    for number, (first, withdrawn, *points) in PLAYERS.items():
        player = Player.objects.create(first_name=f"Vor{number}", last_name=f"Nach{number}")
        reg = services.register(
            tournament, player, start_number=number, first_round=first, consent_public=True
        )
        if withdrawn is not None:
            Registration.objects.filter(pk=reg.pk).update(withdrawn_after_round=withdrawn)
        for n, p in enumerate(points, start=1):
            if p is not None:
                RoundTotal.objects.create(round=rounds[n], registration=reg, points=p)
    Round.objects.filter(tournament=tournament).update(status=Round.Status.CLOSED)
    return tournament


def ranks(rows) -> dict[int, int | None]:
    return {r.start_number: r.rank for r in rows}


def test_zero_ranks_everyone_but_shows_a_dash_for_the_missed_round():
    rows = selectors.standings(evening("zero"))
    assert ranks(rows) == {4: 1, 1: 2, 5: 3, 3: 4, 2: 5}
    by_number = {r.start_number: r for r in rows}
    assert by_number[4].round_cells == ["—", 600]
    assert by_number[4].note == "ab Runde 2"
    assert by_number[5].round_cells == [400, "—"]
    assert by_number[5].note == "bis Runde 1"
    assert by_number[1].round_cells == [300, 200] and by_number[1].note == ""


def test_unplaced_lists_them_without_a_place_and_ranks_the_others_without_them():
    rows = selectors.standings(evening("unplaced"))
    assert [r.start_number for r in rows] == [4, 1, 5, 3, 2]
    assert ranks(rows) == {4: None, 1: 1, 5: None, 3: 2, 2: 3}


def test_excluded_leaves_them_out_of_the_overall_standings_only():
    tournament = evening("excluded")
    assert ranks(selectors.standings(tournament)) == {1: 1, 3: 2, 2: 3}
    # the round standings still show what they played
    assert ranks(selectors.standings(tournament, round_number=2)) == {4: 1, 1: 2, 3: 2, 2: 4}


def test_standings_page_shows_dash_and_marking(client):
    tournament = evening("unplaced")
    html = client.get(reverse("scoring:standings", args=[tournament.pk])).content.decode()
    assert "ab Runde 2" in html and "bis Runde 1" in html
    assert "nicht um Preisplätze" in html
    row = html[html.index("Nach4") :].split("</tr>")[0]
    assert '<td class="c-round num">—</td><td class="c-round num">600</td>' in row


def test_csv_and_xlsx_exports_show_dash_place_and_marking(client):
    tournament = evening("unplaced")
    csv = client.get(reverse("archive:standings", args=[tournament.pk, "csv"])).content.decode()
    lines = csv.splitlines()
    assert lines[0].endswith(",Hinweis")
    late = next(line for line in lines if "Nach4" in line)
    assert late.startswith("–,4,") and ",—,600,600," in late and late.endswith(",ab Runde 2")
    first = next(line for line in lines if "Nach1" in line)
    assert first.startswith("1,1,") and first.endswith(",")
    xlsx = client.get(reverse("archive:standings", args=[tournament.pk, "xlsx"])).content
    sheet = load_workbook(io.BytesIO(xlsx)).active
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    late_row = next(v for v in values if v[2] and "Nach4" in v[2])
    assert late_row[0] == "–" and late_row[4] == "—" and late_row[5] == 600
    assert late_row[-1] == "ab Runde 2"


def test_no_marking_column_when_nobody_missed_a_round(client):
    tournament = evening("zero")
    Registration.objects.filter(tournament=tournament, start_number__in=[4, 5]).delete()
    csv = client.get(reverse("archive:standings", args=[tournament.pk, "csv"])).content.decode()
    assert "Hinweis" not in csv


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
@pytest.mark.parametrize("setting", ["zero", "unplaced", "excluded"])
def test_results_list_pdf(client, director, setting):
    tournament = evening(setting)
    client.force_login(director)
    pdf = client.get(reverse("printing:results", args=[tournament.pk])).content
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    lines = {
        n: next((line for line in text.splitlines() if f"Nach{n}" in line), "") for n in PLAYERS
    }
    if setting == "excluded":
        assert lines[4] == "" and lines[5] == ""
        assert lines[1].split()[0] == "1."
        return
    assert "ab Runde 2" in lines[4] and "—" in lines[4]
    assert "bis Runde 1" in lines[5] and "—" in lines[5]
    if setting == "zero":
        assert lines[4].split()[0] == "1." and lines[1].split()[0] == "2."
    else:
        assert lines[4].split()[0] == "–" and lines[1].split()[0] == "1."
        assert lines[3].split()[0] == "2."
        assert "Preisplätze" in text


def test_setting_on_the_set_up_form(client, director):
    client.force_login(director)
    page = client.get(reverse("tournament:create")).content.decode()
    assert 'name="missed_rounds"' in page and "ohne Preisplatz" in page


def test_setting_is_stored_from_the_form_and_shown_in_the_admin(client, director, admin_client):
    client.force_login(director)
    form = {
        "name": "Frühjahr",
        "date": "2026-03-14",
        "preset": "club-tournament",
        "rounds": 3,
        "games_per_round": 12,
        "four_table_mode": "sit-out",
        "entry_mode": "hands",
        "lost_game_fee_from": 1,
        "missed_rounds": "unplaced",
    }
    assert client.post(reverse("tournament:create"), form).status_code == 302
    tournament = Tournament.objects.get(name="Frühjahr")
    assert tournament.missed_rounds == Tournament.MissedRounds.UNPLACED
    bad = client.post(reverse("tournament:create"), dict(form, missed_rounds="nope"))
    assert bad.status_code == 422 and "missed_rounds" in bad.context["form"].errors
    page = admin_client.get(
        reverse("admin:tournament_tournament_change", args=[tournament.pk])
    ).content.decode()
    assert 'name="missed_rounds"' in page
