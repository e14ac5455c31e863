"""Hand entry through the service layer: engine validation mapped to form fields, scoring
stored with the entry, corrections with history and version checks."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.errors import EntryRefused
from scoring.models import Hand, SeatScore
from scoring.services.evaluation import _field_for
from tests.factories.hands import entry
from tests.factories.tournaments import make_tournament, three_table
from tournament.models import Round, Tournament


def test_save_stores_entry_and_engine_scores(tournament, clerk):
    table = three_table(tournament)
    hand, evaluation = services.save_hand(table, entry(), clerk)
    assert evaluation.ok
    assert hand.scores == [50, 320, 110]
    assert hand.declarer_won is True
    by_reg = {s.registration.pk: s.points for s in SeatScore.objects.filter(hand=hand)}
    seats = {s.position: s.registration_id for s in table.seats.all()}
    assert by_reg == {seats[0]: 50, seats[1]: 320, seats[2]: 110}


def test_last_trick_field_is_computed_from_the_total(tournament, clerk):
    table = three_table(tournament)
    hand, evaluation = services.save_hand(table, entry(tricks={0: 30, 1: 175, 2: None}), clerk)
    assert evaluation.computed == {2: 45}
    assert hand.tricks == [30, 175, 45]


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"bid": 155}, "bid", "Reizstufen"),
        ({"bid": 100}, "bid", "Mindestgebot"),
        ({"tricks": {0: 30, 1: 175, 2: 55}}, "tricks", "250"),
        ({"melds": {0: 25, 1: 140, 2: 60}}, "melds_0", "Vielfaches"),
        ({"tricks": {0: 1, 1: 175, 2: 74}}, "tricks_0", "nicht möglich"),
        ({"outcome": "bettel"}, "outcome", "nicht gespielt"),
        ({"trump": ""}, "trump", "Trumpf"),
        ({"penalty_type": "falsch-druecken", "penalty_seat": 2}, "penalty_seat", "Spielführer"),
    ],
)
def test_engine_errors_reach_the_named_field_in_german_and_nothing_is_saved(
    tournament, clerk, change, field, words
):
    table = three_table(tournament)
    hand, evaluation = services.save_hand(table, entry(**change), clerk)
    assert hand is None
    assert field in evaluation.errors, evaluation.errors
    assert any(words in m for m in evaluation.errors[field]), evaluation.errors[field]
    assert not Hand.objects.exists() and not SeatScore.objects.exists()


def test_correction_needs_the_current_version_and_keeps_history(tournament, clerk, director):
    table = three_table(tournament)
    hand, _ = services.save_hand(table, entry(), clerk)
    with pytest.raises(services.StaleEntry):
        services.save_hand(table, entry(bid=310), director, expected_version=None)
    fixed, _ = services.save_hand(
        table, entry(bid=400), director, expected_version=1, reason="Reizwert 400"
    )
    assert fixed.version == 2 and fixed.scores == [150, -800, 210]
    with pytest.raises(services.StaleEntry) as exc:
        services.save_hand(table, entry(bid=310), clerk, expected_version=1)
    assert exc.value.hand.entered_by == director
    history = list(
        fixed.history.order_by("history_date").values_list("bid", "version", "history_type")
    )
    assert history == [(300, 1, "+"), (400, 2, "~")]
    assert sorted(SeatScore.objects.filter(hand=fixed).values_list("points", flat=True)) == [
        -800,
        150,
        210,
    ]


def test_closed_round_refuses_entries(tournament, clerk):
    table = three_table(tournament)
    round_ = table.round
    round_.status = Round.Status.CLOSED
    round_.save()
    with pytest.raises(EntryRefused):
        services.save_hand(table, entry(), clerk)


def test_four_table_dealer_sits_out(db, clerk):
    tournament = make_tournament(players=10)
    table = tournament.round_set.get(number=1).tables.get(seats__position=3)
    # dealer at position 2: positions 3, 0, 1 play, in that order
    assert services.active_positions(tournament, 4, 2) == [3, 0, 1]
    hand, evaluation = services.save_hand(
        table,
        entry(dealer=2, declarer=0, melds={3: 20, 0: 140, 1: 60}, tricks={3: 30, 0: 175, 1: 45}),
        clerk,
    )
    assert evaluation.ok, evaluation.errors
    assert hand.scores == [320, 110, 0, 50]
    assert hand.melds[2] is None
    sitting_out = table.seats.get(position=2).registration
    assert not SeatScore.objects.filter(hand=hand, registration=sitting_out).exists()
    _, refused = services.save_hand(table, entry(number=2, dealer=2, declarer=2), clerk)
    assert "declarer" in refused.errors


def test_kreuzbinokel_teams_are_credited_the_team_score(db, clerk):
    tournament = make_tournament(players=4, four_table_mode=Tournament.FourTableMode.KREUZ)
    table = tournament.round_set.get(number=1).tables.get()
    hand, evaluation = services.save_hand(
        table,
        entry(
            dealer=3,
            declarer=0,
            melds={0: 100, 1: 20, 2: 40, 3: 0},
            tricks={0: 100, 1: 50, 2: 60, 3: 40},
        ),
        clerk,
    )
    assert evaluation.ok, evaluation.errors
    # team 0+2: 140 melds + 160 tricks = 300 >= 300; team 1+3: 20 + 90
    assert hand.scores == [300, 110, 300, 110]


@pytest.mark.parametrize(
    ("engine_field", "form_field"),
    [
        # per-seat inputs: the engine counts the hand's seats, the form names table places
        ("melds[0]", "melds_2"),
        ("tricks[1]", "tricks_0"),
        ("tricks_taken[2]", "tricks_taken_1"),
        # anything else with an index is the whole field, never a made-up place
        ("melds[x]", "melds"),
        ("melds[\u0661]", "melds"),  # an Arabic-Indic one: a digit, but no index
        ("melds[1][2]", "melds"),
        ("bid[0]", "bid"),
        ("penalty.type", "penalty_type"),
        ("penalty.seat", "penalty_seat"),
        ("penalty", "penalty_type"),
        ("seats", "__all__"),
        ("trump", "trump"),
    ],
)
def test_an_engine_error_lands_at_its_form_field(engine_field, form_field):
    """The seats of the hand are table places 2, 0, 1 here (the dealer of four sits out)."""
    assert _field_for(engine_field, [2, 0, 1]) == form_field


def test_a_value_typed_for_the_dealer_who_sits_out_is_refused_at_its_field(db):
    """Issue 37.31: at a table of four where the dealer sits out, his meld and trick
    fields took a value and the save dropped it without a word."""
    tournament = make_tournament(players=4)
    table = tournament.round_set.get(number=1).tables.get()
    assert table.seats.count() == 4
    # dealer 0 sits out; 1, 2, 3 play
    good = entry(
        dealer=0,
        declarer=1,
        melds={1: 140, 2: 20, 3: 60},
        tricks={1: 175, 2: 30, 3: 45},
    )
    assert services.evaluate(tournament, 4, good).ok
    for field_name, values in (
        ("melds_0", {"melds": {0: 20, 1: 140, 2: 20, 3: 60}}),
        ("tricks_0", {"tricks": {0: 10, 1: 175, 2: 30, 3: 45}}),
    ):
        bad = entry(
            dealer=0, declarer=1, **{**{"melds": good.melds, "tricks": good.tricks}, **values}
        )
        evaluation = services.evaluate(tournament, 4, bad)
        assert not evaluation.ok
        assert "setzt in diesem Spiel aus" in " ".join(evaluation.errors[field_name])
