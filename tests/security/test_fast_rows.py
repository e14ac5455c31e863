"""The three places that build table rows in Python and mark them safe (the standings body,
the pair names, the series rows) escape every typed text: hostile names and clubs come out
as text, never as markup."""

from __future__ import annotations

from datetime import date

import pytest
from django.utils.html import conditional_escape

from scoring.models import RoundTotal
from series.services import save_series
from tournament import services
from tournament.models import Player, Round, Tournament

pytestmark = pytest.mark.django_db

HOSTILE = [
    ("Ma\"ier'", "<script>alert(1)</script>"),
    ("Cr\rLf\nFf\f", "url(file:///etc/passwd)"),
    ("</td><td>x", "<img src=x onerror=alert(1)>"),
    ("Eve", '"><style>@import url(file:///etc/passwd)</style>'),
]


def evening(day: int, pairs: bool = False) -> Tournament:
    extra = (
        {
            "preset": "partnership-250",
            "four_table_mode": Tournament.FourTableMode.KREUZ,
            "event_type": Tournament.EventType.PAIRS,
        }
        if pairs
        else {}
    )
    tournament = services.create_tournament(
        name=f"Abend {day}",
        date=date(2026, 2, day),
        rounds=1,
        entry_mode=Tournament.EntryMode.TOTALS,
        **extra,
    )
    round_ = tournament.round_set.get()
    for points, (first, club) in enumerate(HOSTILE, start=1):
        player, _ = Player.objects.get_or_create(first_name=first, last_name="<b>N</b>", club=club)
        reg = services.register(tournament, player, consent_public=True)
        RoundTotal.objects.create(round=round_, registration=reg, points=points * 10)
    if pairs:
        services.form_pair(tournament, 1, 2)
        services.form_pair(tournament, 3, 4)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
    return tournament


def assert_inert(page: str) -> None:
    for first, club in HOSTILE:
        for text in (first, club):
            if any(c in text for c in "<>\"'"):
                assert text not in page, text
    assert "<script>" not in page and "<img" not in page and "<style>@import" not in page
    assert "<b>N</b>" not in page and "&lt;b&gt;N&lt;/b&gt;" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_standings_body_escapes_hostile_names_and_clubs(client):
    tournament = evening(1)
    for path in (f"/turnier/{tournament.pk}/", f"/turnier/{tournament.pk}/rangliste/"):
        response = client.get(path)
        assert response.status_code == 200
        assert_inert(response.content.decode())


def test_pair_standings_escape_each_partner(client):
    tournament = evening(2, pairs=True)
    page = client.get(f"/turnier/{tournament.pk}/").content.decode()
    assert "Paar" in page
    assert_inert(page)


@pytest.mark.parametrize("text", [text for pair in HOSTILE for text in pair])
def test_pair_start_number_cell_escapes_all_but_its_line_break(text):
    # the name cell marks only its "<br>" and its own tags safe; were anything but digits
    # ever to reach the start numbers beside the names, they would come out as text
    from scoring.tables import PairStandingsTable

    html = str(PairStandingsTable([]).render_name(["A", "B"], {"start_numbers": f"3 / {text}"}))
    first, second = html.split("<br>")
    assert first == '<span class="pair-no">3</span> <bdi>A</bdi>'
    assert second == f'<span class="pair-no">{conditional_escape(text)}</span> <bdi>B</bdi>'
    assert "<script>" not in html and "<img" not in html and "<style>" not in html


def test_series_rows_escape_hostile_names_and_clubs(client):
    series = save_series(name="Cup", season="2026", tournaments=[evening(3), evening(4)])
    page = client.get(f"/serie/{series.pk}/").content.decode()
    assert_inert(page)


def test_pair_names_are_escaped_inside_their_isolates():
    """The pairs table marks only its literal ``<br>`` safe; each partner's typed name is
    escaped inside its ``<bdi>`` (issue 38.10)."""
    from scoring.tables import PairStandingsTable

    hostile = ['"><script>alert(1)</script>', "Anna\r\x0curl(file:///etc/passwd)"]
    html = str(PairStandingsTable.render_name(None, hostile, {"start_numbers": "1 / 2"}))
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert html.count("<bdi>") == 2 and html.count("<br>") == 1
    assert "&quot;&gt;" in html or "&#x27;" in html or "&quot;" in html
