"""Director's round plan: swap two players before the start, set first dealer and scorer."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services as scoring_services
from tests.factories.tournaments import close_round_anyway
from tournament import services
from tournament.models import Seat

pytestmark = pytest.mark.django_db


def seat_of(round_, start_number):
    return Seat.objects.get(round=round_, registration__start_number=start_number)


@pytest.fixture
def planned(tournament):
    close_round_anyway(tournament)
    round_ = tournament.round_set.get(number=2)
    services.draw_round(round_, seed=11)
    return round_


def test_director_swaps_two_players_before_the_round(client, director, tournament, planned):
    client.force_login(director)
    url = reverse("tournament:round_plan", args=[tournament.pk, 2])
    a, b = seat_of(planned, 1), seat_of(planned, 2)
    other = 2 if a.table_id != b.table_id else None
    assert other, "seed 11 seats 1 and 2 apart"
    assert "Zwei Spieler tauschen" in client.get(url).content.decode()
    response = client.post(url, {"swap-first": 1, "swap-second": 2})
    assert response.status_code == 302
    assert (seat_of(planned, 1).table_id, seat_of(planned, 1).position) == (b.table_id, b.position)
    assert (seat_of(planned, 2).table_id, seat_of(planned, 2).position) == (a.table_id, a.position)


def test_swap_errors_name_the_field(client, director, tournament, planned):
    client.force_login(director)
    url = reverse("tournament:round_plan", args=[tournament.pk, 2])
    before = list(Seat.objects.filter(round=planned).values_list("registration_id", "table_id"))
    html = client.post(url, {"swap-first": 1, "swap-second": 99}).content.decode()
    assert "Startnummer 99 ist nicht angemeldet." in html
    html = client.post(url, {"swap-first": 3, "swap-second": 3}).content.decode()
    assert "zwei verschiedene Startnummern" in html
    # a running round is fixed
    url1 = reverse("tournament:round_plan", args=[tournament.pk, 1])
    response = client.post(url1, {"swap-first": 1, "swap-second": 2})
    assert response.status_code == 422
    assert "vor Rundenbeginn" in response.content.decode()
    after = list(Seat.objects.filter(round=planned).values_list("registration_id", "table_id"))
    assert before == after


def test_director_sets_dealer_and_scorer_until_hands_are_entered(
    client, director, clerk, tournament
):
    client.force_login(director)
    round_ = tournament.round_set.get(number=1)
    table = round_.tables.get(number=1)
    url = reverse("tournament:round_plan", args=[tournament.pk, 1])
    response = client.post(url, {"t1-first_dealer": 2, "t1-scorer": 1})
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.first_dealer, table.scorer) == (2, 1)
    # once a hand is in, the first dealer is fixed; the scorer can still change
    entry = scoring_services.HandInput(
        number=1, dealer=2, declarer=0, bid=300, outcome="played", trump="H",
        melds={0: 140, 1: 20, 2: 60}, tricks={0: 175, 1: 30, 2: 45},
    )  # fmt: skip
    hand, evaluation = scoring_services.save_hand(table, entry, clerk)
    assert hand is not None, evaluation.errors
    response = client.post(url, {"t1-first_dealer": 0, "t1-scorer": 1})
    assert response.status_code == 422
    assert "der erste Geber steht fest" in response.content.decode()
    response = client.post(url, {"t1-first_dealer": 2, "t1-scorer": 0})
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.first_dealer, table.scorer) == (2, 0)


def test_clerks_and_public_cannot_change_the_plan(client, clerk, tournament, planned):
    url = reverse("tournament:round_plan", args=[tournament.pk, 2])
    before = list(Seat.objects.filter(round=planned).values_list("registration_id", "table_id"))
    response = client.post(url, {"swap-first": 1, "swap-second": 2})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(clerk)
    assert client.get(url).status_code == 403
    assert client.post(url, {"swap-first": 1, "swap-second": 2}).status_code == 403
    assert client.post(url, {"t1-first_dealer": 1, "t1-scorer": 1}).status_code == 403
    after = list(Seat.objects.filter(round=planned).values_list("registration_id", "table_id"))
    assert before == after


def test_absurd_start_numbers_are_a_field_error(client, director, tournament, planned):
    client.force_login(director)
    url = reverse("tournament:round_plan", args=[tournament.pk, 2])
    response = client.post(url, {"swap-first": "99999999999999999999", "swap-second": 1})
    assert response.status_code == 422
