"""Table links after the third security review: a ruling cannot be undone from the table
(finding 4) and "stimmt" needs the code on the table card (finding 5)."""

from __future__ import annotations

import pytest

from scoring import services
from scoring import table_entry_services as links
from scoring.models import Hand
from tests.web.test_table_entry import page, phone, three_table
from tests.web.test_views import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def at_table(tournament):
    tournament.table_entry = "opponent"
    tournament.save()
    return tournament


def _ruled(tournament, director):
    """Hand 1 of a three-player table entered through its link, then a Verwerfen by
    position 2 set by the director's ruling (version 2)."""
    table = three_table(tournament)
    link = links.live_link(table)
    assert phone().post(page(link), form_data(table)).status_code == 302
    ruling, errors = services.record_ruling(
        table,
        hand_number=1,
        claim="Herz nicht bedient",
        decision="Verworfen",
        consequence="verwerfen",
        offender=2,
        user=director,
    )
    assert not errors and ruling.hand_version == 2
    return table, link


def _stored(table):
    hand = Hand.objects.get(table=table, number=1)
    return hand.version, hand.penalty_type, hand.penalty_seat, list(hand.scores)


def test_a_table_link_cannot_undo_the_director_s_ruling(at_table, director):
    table, link = _ruled(at_table, director)
    before = _stored(table)
    assert before[:3] == (2, "verwerfen", 2)
    response = phone().post(page(link), form_data(table, version=2))  # penalty emptied
    assert response.status_code == 422
    assert "hat die Turnierleitung entschieden" in response.content.decode()
    assert _stored(table) == before
    as_json = phone().post(page(link), form_data(table, version=2), HTTP_ACCEPT="application/json")
    assert as_json.status_code == 422 and "__all__" in as_json.json()["errors"]
    assert _stored(table) == before


def test_a_clerk_keeps_the_ruling_s_penalty_and_the_director_may_change_it(
    at_table, director, clerk
):
    table, _ = _ruled(at_table, director)
    before = _stored(table)
    cleared = services.hand_input_from(Hand.objects.get(table=table, number=1), penalty_type="")
    hand, evaluation = services.save_hand(table, cleared, clerk, expected_version=2, reason="x")
    assert hand is None and "penalty_type" in evaluation.errors
    assert _stored(table) == before
    hand, evaluation = services.save_hand(table, cleared, director, expected_version=2, reason="x")
    assert hand is not None and (hand.version, hand.penalty_type) == (3, "")
