"""The mark beside a player who missed rounds, in the standings (FIELD-NOTES: late
arrivals and early leavers): written out for each case, including a player who withdrew
before the first round he was to play (it said "bis Runde 0")."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from scoring.selectors import missed_note


@pytest.mark.parametrize(
    ("first_round", "withdrawn_after", "note"),
    [
        (1, None, ""),
        (1, 3, ""),  # withdrew after the last round: played them all
        (2, None, "ab Runde 2"),
        (1, 2, "bis Runde 2"),
        (2, 3, "ab Runde 2"),
        (2, 2, "nur Runde 2"),
        (1, 1, "bis Runde 1"),
        (1, 0, "abgemeldet vor Runde 1"),
        (2, 1, "abgemeldet vor Runde 2"),  # registered for round 2, withdrew after round 1
    ],
)
def test_missed_note(first_round, withdrawn_after, note):
    registration = SimpleNamespace(first_round=first_round, withdrawn_after_round=withdrawn_after)
    assert missed_note(registration, rounds=3) == note


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["csv", "de.csv", "xlsx"])
def test_exports_carry_the_name_and_the_note_as_plain_text(client, fmt):
    """Issue 37.3: the CSV and XLSX cells held ``Ernst Kübler <span class="missed-note">
    bis Runde 2</span>``; the name stands alone, the note in its own column."""
    import io

    from django.urls import reverse
    from openpyxl import load_workbook

    from tests.factories.tournaments import make_tournament

    tournament = make_tournament(players=6, rounds=3)
    reg = tournament.registrations.order_by("start_number").first()
    reg.first_round = 2
    reg.save()
    response = client.get(reverse("archive:standings", args=[tournament.pk, fmt]))
    assert response.status_code == 200
    if fmt == "xlsx":
        sheet = load_workbook(io.BytesIO(response.content)).active
        rows = [[c for c in row] for row in sheet.iter_rows(values_only=True)]
    else:
        import csv

        text = response.content.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text), delimiter=";" if fmt == "de.csv" else ","))
    header = list(rows[0])
    name, note = header.index("Name"), header.index("Hinweis")
    mine = next(row for row in rows[1:] if row[name] == str(reg.player))
    assert mine[note] == "ab Runde 2"
    assert not [cell for row in rows for cell in row if "<" in str(cell or "")]
