"""The load test's own data (``bench.load_test``): every hand its clerks post must be one the
entry form and the engine accept, or the load test measures refusals instead of saves.
No server, no locust, no timing."""

from __future__ import annotations

import random
import sys

import pytest
from django.urls import reverse

from bench.load_test import hand_form_data
from scoring import services
from scoring.forms import HandForm
from scoring.models import Hand
from tests.factories.tournaments import make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def load_tournament(clerk):
    # 10 players: one table of 4 (the dealer sits out) and two of 3
    return make_tournament(players=10, games_per_round=60)


def test_importing_the_load_test_does_not_start_locust():
    assert "locust" not in sys.modules  # gevent would patch the test process


def test_generated_hands_pass_the_form_and_the_engine(load_tournament):
    tables = list(load_tournament.round_set.get(number=1).tables.order_by("number"))
    assert sorted(t.seats.count() for t in tables) == [3, 3, 4]
    for table in tables:
        seats = services.table_seats(table)
        for seed in range(40):
            rng = random.Random(seed)
            number = seed % load_tournament.games_per_round + 1
            data = hand_form_data(load_tournament, table, len(seats), number, rng)
            form = HandForm(data, seats=seats, ruleset=load_tournament.ruleset)
            assert form.is_valid(), (seed, table.number, form.errors)
            entry = form.to_input()
            assert entry.dealer == services.dealer_for(table, len(seats), number)
            evaluation = services.evaluate(load_tournament, len(seats), entry)
            assert evaluation.ok, (seed, table.number, data, evaluation.errors)


def test_posted_hands_are_saved(client, clerk, load_tournament):
    """A clerk's run of hands at the table of 4, posted as the load test posts them."""
    client.force_login(clerk)
    table = next(
        t for t in load_tournament.round_set.get(number=1).tables.all() if t.seats.count() == 4
    )
    url = reverse("scoring:table", args=[load_tournament.pk, 1, table.number])
    rng = random.Random(5)
    for number in range(1, 9):
        data = hand_form_data(load_tournament, table, 4, number, rng)
        response = client.post(url, data)
        assert response.status_code == 302, (number, data, response.content[-2000:])
    assert Hand.objects.filter(table=table).count() == 8
