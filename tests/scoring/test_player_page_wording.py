"""The player page names each hand's declarer and says what happened from the player's
point of view: an opponent of a declarer who went out (Abgehen) or lost gained from it
and gets no ✗; the declarer's own lost game does.  Names follow the public-name consent:
a player without it is named by start number alone (findings of a real evening)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import services
from tests.factories.tournaments import make_tournament, running_table_of_eight
from tests.factories.web import enter_partnership_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(clerk):
    """One table of three: start number 2 without consent to public names.  Hand 1: no. 2
    is declarer and goes out (Abgehen); hand 2: the declarer with consent plays and loses;
    hand 3: the same declarer plays and wins."""
    tournament = make_tournament(players=3, consent=lambda i: i != 2)
    table = tournament.round_set.get(number=1).tables.get()
    position = {s.registration.start_number: s.position for s in table.seats.all()}
    shy, named = position[2], position[1]

    def save(number, declarer, **kw):
        values = dict(
            number=number,
            dealer=services.dealer_for(table, 3, number),
            declarer=declarer,
            bid=300,
            outcome="played",
            trump="H",
            melds={p: 0 for p in range(3)},
            tricks={p: None for p in range(3)},
        )
        values.update(kw)
        hand, evaluation = services.save_hand(table, services.HandInput(**values), clerk)
        assert hand is not None, evaluation.errors
        return hand

    gone = save(1, shy, outcome="abgehen", trump="")
    lost_tricks = {p: 100 if p == named else 75 for p in range(3)}
    lost = save(2, named, tricks=lost_tricks)
    won_tricks = {p: 200 if p == named else 25 for p in range(3)}
    won = save(3, named, melds={p: 100 if p == named else 0 for p in range(3)}, tricks=won_tricks)
    assert not gone.declarer_won and not lost.declarer_won and won.declarer_won
    return tournament, position


def _rows(client, tournament, start_number) -> list[str]:
    """The text of each hand's "Ausgang" cell on the player page of ``start_number``."""
    url = reverse("scoring:player", args=[tournament.pk, start_number])
    page = client.get(url).content.decode()
    cells = re.findall(r'<td class="what"[^>]*>(.*?)</td>', page, flags=re.S)
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in cells]


def test_opponents_of_a_declarer_who_went_out_see_who_it_was_and_no_cross(client, evening):
    tournament, _position = evening
    rows = _rows(client, tournament, 3)  # an opponent in every hand
    assert len(rows) == 3
    # no. 2 has not consented: start number only, never the name
    assert rows[0] == "Spielführer: Nr. 2 – abgegangen"
    assert rows[1] == "Spielführer: Vorname1 Nachname1 (Nr. 1) – verloren"
    assert rows[2] == "Spielführer: Vorname1 Nachname1 (Nr. 1) – gewonnen"
    assert not any("✗" in row for row in rows)  # the opponents gained from those games
    page = client.get(reverse("scoring:player", args=[tournament.pk, 3])).content.decode()
    assert "Vorname2" not in page and "Nachname2" not in page


def test_the_declarer_sees_his_own_games_and_a_cross_where_he_lost(client, evening):
    tournament, _position = evening
    gone, lost, won = _rows(client, tournament, 2)[0], *_rows(client, tournament, 1)[1:]
    assert gone == "Eigenes Spiel – abgegangen ✗"
    assert lost == "Eigenes Spiel – verloren ✗"
    assert won == "Eigenes Spiel – gewonnen"
    # and no. 1, an opponent of no. 2's Abgehen, sees no cross for it
    assert _rows(client, tournament, 1)[0] == "Spielführer: Nr. 2 – abgegangen"


def test_partners_see_their_sides_lost_game_and_the_other_side_no_cross(client, clerk):
    tournament, table = running_table_of_eight(clerk)
    client.force_login(clerk)
    # position 0 declares 500 with partner 2 and misses it: a lost game for their side
    response = enter_partnership_hand(client, tournament, table, bid=500)
    assert response.status_code == 302, response.content.decode()[:2000]
    client.logout()
    seat = {s.position: s.registration for s in table.seats.all()}
    declarer = f"V{seat[0].start_number} N{seat[0].start_number} (Nr. {seat[0].start_number})"
    assert _rows(client, tournament, seat[0].start_number) == ["Eigenes Spiel – verloren ✗"]
    assert _rows(client, tournament, seat[2].start_number) == [
        f"Spielführer: {declarer}, Partner – verloren ✗"
    ]
    for opponent in (seat[1], seat[3]):
        assert _rows(client, tournament, opponent.start_number) == [
            f"Spielführer: {declarer} – verloren"
        ]
