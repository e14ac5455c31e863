"""What a director's ruling protects, called on the services directly
(:func:`scoring.services.save_hand` → ``_check_ruling``): through a table link no change
of a ruled hand, by a clerk no change of the penalty a ruling set, and nothing more than
that.  Found by mutation testing (issue 29): the ruling's own hand and table, a ruling
without penalty, and the message at the table were not checked on their own."""

from __future__ import annotations

import pytest

from scoring import links, services
from scoring.models import Hand
from table_entry import services as table_entry_services
from tests.factories.hands import entry
from tests.factories.tournaments import first_round_tables

pytestmark = pytest.mark.django_db

PHONE = "c3" * 8
AT_TABLE_REFUSAL = (
    "Zu Spiel 1 hat die Turnierleitung entschieden; am Tisch lässt es sich nicht mehr "
    "ändern. Bitte die Turnierleitung rufen."
)


def via(table):
    return table_entry_services.source(links.live_link(table), PHONE)


def enter_at_table(table, number=1, **changes):
    hand, evaluation = services.save_hand(
        table, entry(number=number, **changes), None, via=via(table)
    )
    assert hand is not None, evaluation.errors
    return hand


def rule(table, director, number=1, consequence="verwerfen"):
    ruling, errors = services.record_ruling(
        table,
        hand_number=number,
        claim="Herz nicht bedient",
        decision="Verworfen" if consequence else "Spiel zählt wie eingetragen",
        consequence=consequence,
        offender=2 if consequence else None,
        user=director,
    )
    assert ruling is not None and not errors, errors
    return ruling


def correct_at_table(table, number=1, **changes):
    version = Hand.objects.get(table=table, number=number).version
    return services.save_hand(
        table,
        entry(number=number, **changes),
        None,
        expected_version=version,
        reason="am Tisch berichtigt",
        via=via(table),
    )


def test_a_ruled_hand_cannot_be_changed_at_the_table_and_says_whom_to_call(at_table, director):
    table = first_round_tables(at_table)[0]
    enter_at_table(table)
    rule(table, director, consequence="")  # even a ruling that set no penalty
    hand, evaluation = correct_at_table(table, bid=320)
    assert hand is None
    assert evaluation.errors == {"__all__": [AT_TABLE_REFUSAL]}
    assert Hand.objects.get(table=table, number=1).bid == 300


def test_a_ruling_binds_only_its_own_table_and_game(at_table, director):
    first, second, _ = first_round_tables(at_table)
    enter_at_table(first, number=1)
    enter_at_table(first, number=2)
    enter_at_table(second, number=1)
    rule(first, director, number=1, consequence="")
    # game 1 of another table, and game 2 of the ruled table, stay open to the table
    for table, number in ((second, 1), (first, 2)):
        hand, evaluation = correct_at_table(table, number=number, bid=320)
        assert hand is not None, evaluation.errors
        assert (hand.bid, hand.version) == (320, 2)


def test_a_clerk_may_set_a_penalty_where_the_ruling_set_none(tournament, clerk, director):
    table = first_round_tables(tournament)[0]
    first, _ = services.save_hand(table, entry(), clerk)
    rule(table, director, consequence="")
    hand, evaluation = services.save_hand(
        table,
        entry(penalty_type="verwerfen", penalty_seat=0),
        clerk,
        expected_version=first.version,
        reason="Verwerfen nachgetragen",
    )
    assert hand is not None, evaluation.errors
    assert (hand.penalty_type, hand.penalty_seat) == ("verwerfen", 0)


def test_after_the_director_lifted_the_penalty_a_clerk_may_correct_the_rest(
    tournament, clerk, director
):
    table = first_round_tables(tournament)[0]
    services.save_hand(table, entry(), clerk)
    rule(table, director)  # Verwerfen by position 2: version 2
    lifted, evaluation = services.save_hand(
        table, entry(), director, expected_version=2, reason="Strafe aufgehoben"
    )
    assert lifted is not None and lifted.penalty_type == "", evaluation.errors
    # the stored hand has no penalty, the clerk's correction has none: nothing is undone
    hand, evaluation = services.save_hand(
        table, entry(bid=320), clerk, expected_version=lifted.version, reason="Gebot berichtigt"
    )
    assert hand is not None, evaluation.errors
    assert (hand.bid, hand.penalty_type, hand.penalty_seat) == (320, "", None)


def test_a_clerk_cannot_change_the_penalty_a_ruling_set(tournament, clerk, director):
    table = first_round_tables(tournament)[0]
    services.save_hand(table, entry(), clerk)
    rule(table, director)  # Verwerfen by position 2: version 2
    hand, evaluation = services.save_hand(
        table, entry(), clerk, expected_version=2, reason="Strafe war falsch"
    )
    assert hand is None
    assert evaluation.errors == {
        "penalty_type": [
            "Die Strafe in Spiel 1 hat die Turnierleitung entschieden; ändern kann sie nur "
            "die Turnierleitung."
        ]
    }
    stored = Hand.objects.get(table=table, number=1)
    assert (stored.version, stored.penalty_type, stored.penalty_seat) == (2, "verwerfen", 2)
