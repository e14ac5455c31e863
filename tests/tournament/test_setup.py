"""Director set-up: creating a tournament freezes its ruleset; registering, late arrivals,
withdrawals; only the director may."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from rules import PRESETS
from tests.factories.tournaments import close_round_anyway, make_tournament
from tests.factories.web import NEW_TOURNAMENT
from tournament import services
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_director_creates_a_tournament_with_a_frozen_ruleset(client, director):
    client.force_login(director)
    response = client.post(
        reverse("tournament:create"), dict(NEW_TOURNAMENT, overrides='{"min_bid": 200}')
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Herbstbinokel")
    assert tournament.ruleset.min_bid == 200
    assert tournament.ruleset_fingerprint == tournament.ruleset.fingerprint
    assert tournament.ruleset_fingerprint != PRESETS["club-tournament"].fingerprint
    assert list(tournament.round_set.values_list("number", flat=True)) == [1, 2, 3]
    assert str(tournament.lost_game_fee) == "0.50"


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"overrides": "{nope"}, "overrides", "JSON"),
        (
            {"overrides": '{"min_bid": 155}'},
            "overrides",
            "min_bid: muss ein positives Vielfaches von 10 sein.",
        ),
        ({"overrides": '{"colour": 1}'}, "overrides", "colour: unbekannter Parameter."),
        (
            {"overrides": '{"rounding": "fives"}'},
            "overrides",
            "rounding: erlaubt sind: none, tens.",
        ),
        ({"overrides": '{"bid_step": "10"}'}, "overrides", "bid_step: muss eine ganze Zahl sein."),
        (
            {
                "overrides": '{"deals": [{"seats": 3, "cards_per_player": 11, "dabb": 4}, {"seats": 4, "cards_per_player": 9, "dabb": 4}]}'
            },
            "overrides",
            "3 × 11 Karten + Dabb 4 ergeben nicht das Blatt mit 40 Karten",
        ),
        ({"games_per_round": 10}, "games_per_round", "durch 3 teilbar"),
        # partnership-250 plays at tables of four only: all four play (issue 12.4)
        ({"preset": "partnership-250"}, "four_table_mode", "Kreuzbinokel (2 gegen 2)"),
        # the round clock (issue 41.4): 10 to 600 minutes
        ({"round_minutes": 5}, "round_minutes", "10"),
    ],
)
def test_bad_set_up_is_refused_at_its_field(client, director, change, field, words):
    client.force_login(director)
    response = client.post(reverse("tournament:create"), dict(NEW_TOURNAMENT, **change))
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert any(words in e for e in errors[field]), errors
    assert not Tournament.objects.exists()


def test_every_set_up_problem_is_shown_at_once(client, director):
    client.force_login(director)
    response = client.post(
        reverse("tournament:create"),
        dict(NEW_TOURNAMENT, overrides='{"min_bid": 155}', games_per_round=10),
    )
    assert set(response.context["form"].errors) == {"overrides", "games_per_round"}


def test_clerk_and_public_cannot_set_up(client, clerk):
    assert client.post(reverse("tournament:create"), NEW_TOURNAMENT).status_code == 302  # to login
    client.force_login(clerk)
    assert client.post(reverse("tournament:create"), NEW_TOURNAMENT).status_code == 403
    assert not Tournament.objects.exists()


def test_register_late_arrival_and_withdraw(client, director):
    tournament = make_tournament(players=9)
    client.force_login(director)
    url = reverse("tournament:registrations", args=[tournament.pk])
    data = {
        "first_name": "Lina",
        "last_name": "Kächele",
        "club": "TSV",
        "consent_public": "on",
        "first_round": 2,
    }
    assert client.post(url, data).status_code == 302
    late = tournament.registrations.get(player__last_name="Kächele")
    assert late.start_number == 10 and not late.plays_in(1) and late.plays_in(2)
    again = client.post(url, data)
    assert again.status_code == 422 and "schon angemeldet" in again.content.decode()
    taken = client.post(url, dict(data, last_name="Other", start_number=3))
    assert "Startnummer ist schon vergeben" in taken.content.decode()

    first = tournament.registrations.get(start_number=1)
    client.post(reverse("tournament:withdraw", args=[tournament.pk, 1]), {"bestaetigt": 1})
    first.refresh_from_db()
    assert first.withdrawn_after_round == 1  # round 1 is running
    close_round_anyway(tournament)
    round_2 = tournament.round_set.get(number=2)
    services.draw_round(round_2, seed=3)
    seated = set(round_2.seats.values_list("registration__start_number", flat=True))
    assert 1 not in seated and 10 in seated and len(seated) == 9


def test_admin_cannot_add_a_tournament_without_freezing_a_ruleset(client, django_user_model):
    admin = django_user_model.objects.create_superuser("admin", password="pw-admin-123")
    client.force_login(admin)
    assert client.get("/admin/tournament/tournament/add/").status_code == 403


def test_load_demo_fills_an_empty_database_once(django_user_model):
    from django.core.management import call_command

    from scoring.models import Hand
    from tournament.models import Series

    call_command("load_demo")
    # the demo evening (1, running) and two finished ones, with a series over the three
    assert Tournament.objects.count() == 3
    assert Tournament.objects.get(pk=1).round_set.filter(status="running").exists()
    assert Series.objects.get().tournaments.count() == 3
    hands = Hand.objects.count()
    assert hands > 0
    assert django_user_model.objects.filter(username__in=["leitung", "schreiber"]).count() == 2
    call_command("load_demo")  # a second run leaves the data alone
    assert Tournament.objects.count() == 3 and Hand.objects.count() == hands


def test_demo_series_shows_no_start_number_of_a_hidden_player(client):
    """Issue 37: the demo series listed "Nr. 15 (Abend 1), Nr. 8 (Abend 2)" for a player
    hidden at one evening and named at another under that start number."""
    import re

    from django.core.management import call_command

    from tournament.models import Registration, Series

    call_command("load_demo")
    series = Series.objects.get()
    consents: dict[int, set[bool]] = {}
    for player, consent in Registration.objects.filter(
        tournament__in=series.tournaments.all()
    ).values_list("player_id", "consent_public"):
        consents.setdefault(player, set()).add(consent)
    # the demo has the case: hidden at one evening, named at another
    assert any(both == {True, False} for both in consents.values())
    page = client.get(f"/serie/{series.pk}/").content.decode()
    assert "Anonym 1" in page
    assert re.search(r"Nr\.\s*\d+\s*\(Abend", page) is None


def test_generate_tournament_finish_plays_the_last_round_whole():
    """Issue 37.41: ``--finish`` crashed (the last round had only half its hands and could
    not be closed) unless ``--last-round 1`` was given too."""
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    from tournament.models import Round

    call_command(
        "generate_tournament", players=8, rounds=2, games=3, finish=True, stdout=StringIO()
    )
    tournament = Tournament.objects.get()
    assert set(tournament.round_set.values_list("status", flat=True)) == {Round.Status.CLOSED}
    with pytest.raises(CommandError, match="--last-round 1"):
        call_command(
            "generate_tournament", players=8, rounds=2, games=3, finish=True, last_round=0.5
        )


def test_the_round_clock_is_part_of_the_set_up(client, director):
    client.force_login(director)
    response = client.post(reverse("tournament:create"), dict(NEW_TOURNAMENT, round_minutes=75))
    assert response.status_code == 302
    assert Tournament.objects.get().round_minutes == 75
    with pytest.raises(ValidationError) as refused:
        services.create_tournament(name="X", date=date(2026, 1, 1), round_minutes=601)
    assert "round_minutes" in refused.value.message_dict
