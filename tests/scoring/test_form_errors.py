"""Errors where the eye is (issue 17.3): a wrong field in the collapsed section opens it,
is marked and focused; Abgehen with trick points asks before dropping them; an error about
the computed trick field names the typed ones; the lost-game fee follows the locale."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

import pytest
from django.utils import translation

from scoring.models import Hand
from tests.factories.web import form_data, table_url
from tournament.forms import TournamentForm

pytestmark = pytest.mark.django_db


def _tag(page: str, name: str) -> str:
    """The opening tag of the form control named ``name``."""
    match = re.search(rf'<(?:input|select)[^>]*name="{name}"[^>]*>', page)
    assert match, name
    return match.group(0)


def test_durch_without_won_opens_the_section_marks_and_focuses_the_field(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    data = form_data(table, outcome="durch", trump="", bid=1000)
    for key in list(data):
        if key.startswith(("melds_", "tricks_")):
            data[key] = ""
    response = client.post(url, data)
    page = response.content.decode()
    assert response.status_code == 422 and not Hand.objects.exists()
    assert re.search(r'<details class="more" open>', page)
    won = _tag(page, "won")
    assert 'aria-invalid="true"' in won and "autofocus" in won
    assert page.count("autofocus") == 1  # only the wrong field, not the declarer
    assert re.search(r'id="err-won">\s*\S', page)


def test_first_wrong_field_gets_the_focus(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    page = client.post(url, form_data(table, bid="abc")).content.decode()
    assert "autofocus" in _tag(page, "bid") and 'aria-invalid="true"' in _tag(page, "bid")
    assert "autofocus" not in _tag(page, "declarer")
    assert '<details class="more">' in page  # nothing wrong there: stays closed


def test_abgehen_with_trick_points_is_not_saved_silently(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    data = form_data(table, outcome="abgehen", trump="")
    response = client.post(url, data)
    page = response.content.decode()
    assert response.status_code == 422 and not Hand.objects.exists()
    assert "Bei Abgehen zählen keine Stichpunkte – Felder leeren?" in page
    assert 'aria-invalid="true"' in _tag(page, "tricks_0")
    assert 'id="clear-tricks"' in page and 'id="clear-tricks" hidden' not in page
    # the clerk agrees: the points are dropped and the hand is saved
    response = client.post(url, {**data, "clear_tricks": "on"})
    assert response.status_code == 302
    assert Hand.objects.get().outcome == "abgehen"


def test_abgehen_without_trick_points_saves(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    data = form_data(table, outcome="abgehen", trump="", tricks_0="", tricks_1="", tricks_2="")
    assert client.post(url, data).status_code == 302
    hand = Hand.objects.get()
    assert (hand.table, hand.number, hand.dealer, hand.declarer) == (table, 1, 0, 1)
    assert (hand.outcome, hand.bid, hand.trump, hand.tricks) == ("abgehen", 300, "", None)
    assert hand.entered_by == clerk and hand.version == 1
    # seed 002 "Abschreiben": the declarer is charged the bid, his melds do not count; the
    # others each get their melds (20 and 60, already tens)
    assert hand.scores == [20, -300, 60] and hand.declarer_won is False
    by_seat = {s.registration_id: s.points for s in hand.seat_scores.all()}
    seats = {s.position: s.registration_id for s in table.seats.all()}
    assert by_seat == {seats[0]: 20, seats[1]: -300, seats[2]: 60}


def test_error_about_the_computed_trick_field_names_the_typed_fields(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    response = client.post(url, form_data(table, tricks_0=200, tricks_1=100, tricks_2=""))
    page = response.content.decode()
    assert response.status_code == 422
    # one message for the row, under the trick fields, not one under each typed field
    row = re.search(r'id="err-tricks">([^<]*)<', page).group(1)
    assert "300" in row and "-50" in row
    assert page.count("für das leere Feld bliebe") == 1
    assert re.search(r'id="err-tricks_0" data-wrong>\s*<', page)
    # the typed fields are marked, the blank, computed one is not blamed
    assert 'aria-invalid="true"' in _tag(page, "tricks_0")
    assert 'aria-invalid="true"' in _tag(page, "tricks_1")
    assert "aria-invalid" not in _tag(page, "tricks_2")
    assert re.search(r'id="err-tricks_2">\s*<', page)


def _setup(**kw):
    data = {
        "name": "Abend",
        "date": date(2026, 11, 21).isoformat(),
        "preset": "club-tournament",
        "rounds": 3,
        "games_per_round": 12,
        "four_table_mode": "sit-out",
        "entry_mode": "hands",
        "mark_unconfirmed": "on",
    }
    data.update(kw)
    return TournamentForm(data)


def test_fee_with_german_decimal_comma():
    with translation.override("de"):
        form = _setup(lost_game_fee="0,50")
        assert form.is_valid(), form.errors
        assert form.cleaned_data["lost_game_fee"] == Decimal("0.50")


def test_fee_with_english_decimal_point():
    with translation.override("en"):
        form = _setup(lost_game_fee="0.50")
        assert form.is_valid(), form.errors
        assert form.cleaned_data["lost_game_fee"] == Decimal("0.50")


def test_fee_in_cents_typed_as_euros_is_refused_with_a_clear_message():
    with translation.override("de"):
        form = _setup(lost_game_fee="50")
        assert not form.is_valid()
        message = form.errors["lost_game_fee"][0]
        assert "50" in message and "0,50" in message and "20" in message


def test_fee_is_shown_again_with_the_decimal_comma():
    with translation.override("de"):
        form = _setup(lost_game_fee="0,50", rounds="")  # another field is wrong
        assert not form.is_valid() and "lost_game_fee" not in form.errors
        assert 'value="0,50"' in str(form["lost_game_fee"])
        unbound = TournamentForm(initial={"lost_game_fee": Decimal("0.50")})
        assert 'value="0,50"' in str(unbound["lost_game_fee"])


def test_json_parser_error_is_in_the_active_language():
    with translation.override("de"):
        form = _setup(overrides='{"min_bid": }')
        assert not form.is_valid()
        assert "Kein gültiges JSON" in form.errors["overrides"][0]
        assert "Expecting" not in form.errors["overrides"][0]
    with translation.override("en"):
        form = _setup(overrides='{"min_bid": }')
        assert not form.is_valid()
        assert "line 1" in form.errors["overrides"][0]


def test_each_seat_input_points_to_its_own_and_its_rows_error(client, tournament, clerk):
    """A sum error is shown once under the row (issue 24): a screen reader on a seat's
    input hears it too, through aria-describedby, and the ids it names exist."""
    client.force_login(clerk)
    url, table = table_url(tournament)
    page = client.get(url).content.decode()
    for position in range(3):
        for kind in ("melds", "tricks"):
            tag = _tag(page, f"{kind}_{position}")
            described = re.search(r'aria-describedby="([^"]+)"', tag).group(1).split()
            assert described == [f"err-{kind}_{position}", f"err-{kind}"]
            for error_id in described:
                assert f'id="{error_id}"' in page
