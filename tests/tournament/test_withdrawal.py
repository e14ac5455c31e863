"""Withdrawing a player ("abmelden") asks first, and can be undone ("wieder anmelden") while
no round after the withdrawal has started without the player; registering a withdrawn
player again points to "wieder anmelden"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories.tournaments import close_round_anyway
from tournament import services
from tournament.models import Round

pytestmark = pytest.mark.django_db

NAME = "Vorname1 Nachname1"  # start number 1 of ``make_tournament``


def withdraw_url(tournament, number: int = 1) -> str:
    return reverse("tournament:withdraw", args=[tournament.pk, number])


def reinstate_url(tournament, number: int = 1) -> str:
    return reverse("tournament:reinstate", args=[tournament.pk, number])


def registration(tournament, number: int = 1):
    return tournament.registrations.get(start_number=number)


def seated_in(round_: Round) -> set[int]:
    return set(round_.seats.values_list("registration__start_number", flat=True))


def test_the_button_only_asks_and_names_player_number_and_round(client, director, tournament):
    client.force_login(director)
    page = client.get(reverse("tournament:registrations", args=[tournament.pk])).content.decode()
    assert f'action="{withdraw_url(tournament)}"' in page  # the list's "abmelden" button
    for response in (
        client.post(withdraw_url(tournament)),  # the button: no confirmation
        client.post(withdraw_url(tournament), {"bestaetigt": "ja"}),  # not the confirmation
        client.get(withdraw_url(tournament)),
    ):
        assert response.status_code == 200
        text = response.content.decode()
        assert f"{NAME} (Startnummer 1) abmelden?" in text
        assert "wird nach Runde 1 abgemeldet" in text  # round 1 is running
        assert "Ja, abmelden" in text and "Abbrechen" in text
        assert 'name="bestaetigt" value="1"' in text
    reg = registration(tournament)
    assert reg.withdrawn_after_round is None
    assert reg.history.count() == 1  # only the creation


def test_the_confirmed_post_withdraws_once_with_a_history_row(client, director, tournament):
    client.force_login(director)
    response = client.post(withdraw_url(tournament), {"bestaetigt": "1"}, follow=True)
    assert f"{NAME} ist abgemeldet." in response.content.decode()
    reg = registration(tournament)
    assert reg.withdrawn_after_round == 1
    latest = reg.history.first()
    assert latest.withdrawn_after_round == 1
    assert latest.history_change_reason == "Abgemeldet nach Runde 1"
    assert latest.history_user == director
    # an old confirmation page sent again after round 2 started does not move the withdrawal
    close_round_anyway(tournament)
    round_2 = tournament.round_set.get(number=2)
    services.draw_round(round_2, seed=3)
    services.start_round(round_2)
    again = client.post(withdraw_url(tournament), {"bestaetigt": "1"}, follow=True)
    assert f"{NAME} ist schon abgemeldet (nach Runde 1)." in again.content.decode()
    reg.refresh_from_db()
    assert reg.withdrawn_after_round == 1 and reg.history.count() == 2
    assert 1 not in seated_in(round_2)


def test_wieder_anmelden_undoes_the_withdrawal_and_both_are_in_the_history(
    client, director, tournament
):
    client.force_login(director)
    client.post(withdraw_url(tournament), {"bestaetigt": "1"})
    page = client.get(reverse("tournament:registrations", args=[tournament.pk])).content.decode()
    assert "abgemeldet nach Runde 1" in page
    assert f'action="{reinstate_url(tournament)}"' in page and "wieder anmelden" in page
    response = client.post(reinstate_url(tournament), follow=True)
    assert f"{NAME} ist wieder angemeldet." in response.content.decode()
    reg = registration(tournament)
    assert reg.withdrawn_after_round is None
    undone, withdrawn = reg.history.all()[:2]
    assert withdrawn.withdrawn_after_round == 1
    assert withdrawn.history_change_reason == "Abgemeldet nach Runde 1"
    assert undone.withdrawn_after_round is None
    assert undone.history_change_reason == "Wieder angemeldet (war abgemeldet nach Runde 1)"
    assert undone.history_user == director
    # the player's page shows both changes in its history, newest first
    history = client.get(
        reverse("tournament:registration_edit", args=[tournament.pk, 1])
    ).content.decode()
    shown = history.index("Wieder angemeldet (war abgemeldet nach Runde 1)")
    assert shown < history.index("Abgemeldet nach Runde 1")
    close_round_anyway(tournament)
    round_2 = tournament.round_set.get(number=2)
    services.draw_round(round_2, seed=3)
    assert 1 in seated_in(round_2)


def test_undo_after_the_next_draw_asks_then_clears_that_draw(client, director, tournament):
    client.force_login(director)
    client.post(withdraw_url(tournament), {"bestaetigt": "1"})
    close_round_anyway(tournament)
    round_2 = tournament.round_set.get(number=2)
    services.draw_round(round_2, seed=3)
    assert 1 not in seated_in(round_2)
    asked = client.post(reinstate_url(tournament))
    assert asked.status_code == 200
    text = asked.content.decode()
    assert f"Runde 2 ist schon ohne {NAME} ausgelost" in text and "Ja, wieder anmelden" in text
    assert registration(tournament).withdrawn_after_round == 1
    assert round_2.tables.exists()

    done = client.post(reinstate_url(tournament), {"bestaetigt": "1"}, follow=True)
    assert "Runde 2 neu auslosen" in done.content.decode()
    assert registration(tournament).withdrawn_after_round is None
    round_2.refresh_from_db()
    assert not round_2.tables.exists() and round_2.seed is None
    services.draw_round(round_2, seed=3)
    assert 1 in seated_in(round_2) and len(seated_in(round_2)) == 9


def test_undo_is_refused_once_a_later_round_started_without_the_player(
    client, director, tournament
):
    client.force_login(director)
    client.post(withdraw_url(tournament), {"bestaetigt": "1"})
    close_round_anyway(tournament)
    round_2 = tournament.round_set.get(number=2)
    services.draw_round(round_2, seed=3)
    services.start_round(round_2)
    response = client.post(reinstate_url(tournament), {"bestaetigt": "1"}, follow=True)
    text = response.content.decode()
    assert f"„Wieder anmelden“ ist nicht mehr möglich: Runde 2 hat ohne {NAME} begonnen" in text
    assert "bleibt abgemeldet nach Runde 1" in text
    reg = registration(tournament)
    assert reg.withdrawn_after_round == 1 and reg.history.count() == 2
    assert round_2.tables.exists()
    page = client.get(reverse("tournament:registrations", args=[tournament.pk])).content.decode()
    assert "endgültig abgemeldet" in page
    assert f'action="{reinstate_url(tournament)}"' not in page


def test_withdrawing_a_player_seated_in_a_drawn_round_clears_that_draw(
    client, director, tournament
):
    client.force_login(director)
    close_round_anyway(tournament)
    round_2 = tournament.round_set.get(number=2)
    services.draw_round(round_2, seed=3)
    assert 1 in seated_in(round_2)
    asked = client.get(withdraw_url(tournament)).content.decode()
    assert f"Runde 2 ist schon ausgelost, mit {NAME}" in asked
    done = client.post(withdraw_url(tournament), {"bestaetigt": "1"}, follow=True)
    assert "Runde 2 neu auslosen" in done.content.decode()
    assert registration(tournament).withdrawn_after_round == 1
    assert not round_2.tables.exists()
    services.draw_round(round_2, seed=3)
    assert seated_in(round_2) == set(range(2, 10))


def test_undo_of_a_player_who_is_not_withdrawn_changes_nothing(client, director, tournament):
    client.force_login(director)
    response = client.post(reinstate_url(tournament), {"bestaetigt": "1"}, follow=True)
    assert f"{NAME} ist nicht abgemeldet." in response.content.decode()
    assert registration(tournament).history.count() == 1


def test_clerks_and_visitors_can_neither_withdraw_nor_undo(client, clerk, director, tournament):
    for url in (withdraw_url(tournament), reinstate_url(tournament)):
        response = client.post(url, {"bestaetigt": "1"})
        assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(clerk)
    assert client.get(withdraw_url(tournament)).status_code == 403
    assert client.post(withdraw_url(tournament), {"bestaetigt": "1"}).status_code == 403
    assert registration(tournament).withdrawn_after_round is None
    services.withdraw(registration(tournament))
    assert client.post(reinstate_url(tournament), {"bestaetigt": "1"}).status_code == 403
    assert registration(tournament).withdrawn_after_round == 1


def test_registering_a_withdrawn_player_again_points_to_wieder_anmelden(
    client, director, tournament
):
    client.force_login(director)
    url = reverse("tournament:registrations", args=[tournament.pk])
    client.post(withdraw_url(tournament), {"bestaetigt": "1"})
    again = {"first_name": "Vorname1", "last_name": "Nachname1", "club": "TSV", "first_round": 1}
    response = client.post(url, again)
    assert response.status_code == 422
    error = " ".join(response.context["form"].errors["last_name"])
    assert "Startnummer 1" in error and "abgemeldet nach Runde 1" in error
    assert "„wieder anmelden“" in error and "schon angemeldet" not in error
    listed = client.post(
        url, {"action": "save", "players": "Nachname1, Vorname1; TSV", "first_round": 1}
    )
    assert listed.status_code == 422
    assert "Zeile 1: Vorname1 Nachname1 ist abgemeldet." in listed.content.decode()
    assert [e.duplicate for e in listed.context["preview"]] == ["withdrawn"]
    assert tournament.registrations.count() == 9

    close_round_anyway(tournament)  # once round 2 runs without him, the message says so
    round_2 = tournament.round_set.get(number=2)
    services.draw_round(round_2, seed=3)
    services.start_round(round_2)
    late = client.post(url, again)
    error = " ".join(late.context["form"].errors["last_name"])
    assert "nicht mehr möglich: Runde 2 hat ohne" in error
