"""One path for every hand (issue 39.2): the clerk's form and the table link share one
"who may write here" rule, one link-state check with one wording, refusals that keep
their reason, and one bound for game numbers."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from archive.transfer.checks import BOUNDS
from scoring import links, services
from scoring.errors import EntryRefused
from scoring.forms import HandForm
from table_entry import services as table_entry_services
from tests.factories.hands import entry
from tests.factories.tournaments import three_table
from tournament.models import Round, Tournament

pytestmark = pytest.mark.django_db


def _reason(call) -> tuple[str, str]:
    with pytest.raises(EntryRefused) as refused:
        call()
    return refused.value.reason, str(refused.value)


def test_each_refusal_keeps_its_reason(tournament, clerk, director, django_user_model):
    table = three_table(tournament)
    round_ = table.round
    stranger = django_user_model.objects.create_user("fremd", password="x" * 12)
    stranger.groups.add(*clerk.groups.all())
    assert _reason(lambda: services.save_hand(table, entry(), stranger))[0] == "not_clerk"
    hand, _ = services.save_hand(table, entry(), clerk)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PLANNED)
    table.round.refresh_from_db()
    assert _reason(lambda: services.save_hand(table, entry(number=2), clerk)) == (
        "planned",
        "Die Runde hat noch nicht begonnen; Einträge sind gesperrt.",
    )
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
    table.round.refresh_from_db()
    assert _reason(lambda: services.save_hand(table, entry(number=2), clerk))[0] == "closed"
    # the director corrects a closed round, but only with a reason (checked again under
    # the round's lock, where a round closed meanwhile is found)
    with transaction.atomic():
        assert _reason(lambda: services.access._lock_open_round(round_.pk, "hands", director, ""))[
            0
        ] == ("reason_required")
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.RUNNING)
    table.round.refresh_from_db()
    Tournament.objects.filter(pk=tournament.pk).update(entry_mode=Tournament.EntryMode.TOTALS)
    table.round.tournament.refresh_from_db()
    assert _reason(lambda: services.check_writable(table.round, "hands", clerk))[0] == (
        "wrong_mode"
    )


def test_a_closed_round_is_confirmed_by_nobody_and_its_page_offers_no_button(
    tournament, clerk, director, client
):
    """The page's rule and the service's rule are one (services.may_confirm): before,
    the page hid confirming in a closed round while the service let the director confirm."""
    tournament.confirmation_required = True
    tournament.save()
    table = three_table(tournament)
    hand, _ = services.save_hand(table, entry(), clerk)
    round_ = table.round
    assert services.may_confirm(round_, director)
    services.close_round(round_, reason="Test: unbestätigt abgeschlossen")
    round_.refresh_from_db()
    assert not services.may_confirm(round_, director)
    assert _reason(lambda: services.confirm_hand(hand, director, expected_version=1)) == (
        "closed",
        "Die Runde ist abgeschlossen; bestätigt wird nur in der laufenden Runde.",
    )
    client.force_login(director)
    page = client.get(reverse("scoring:table", args=[tournament.pk, 1, table.number]))
    assert "bestätigen</button>" not in page.content.decode()


def test_the_phone_page_and_a_write_say_one_thing_for_one_state(at_table):
    table = three_table(at_table)
    link = links.live_link(table)
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    with pytest.raises(EntryRefused) as on_page:
        table_entry_services.resolve(link.token)
    round_ = Round.objects.get(pk=table.round_id)
    with pytest.raises(EntryRefused) as on_write:
        services.check_link_live(link, round_)
    assert (on_page.value.reason, str(on_page.value)) == (
        on_write.value.reason,
        str(on_write.value),
    )
    assert table_entry_services.LinkRefused is EntryRefused


def test_a_game_number_has_one_bound(tournament, clerk, client):
    top = Tournament.GAMES_PER_ROUND_MAX
    table = three_table(tournament)
    form = HandForm(seats=services.table_seats(table), ruleset=tournament.ruleset)
    assert form.fields["number"].max_value == top
    assert BOUNDS["scoring.hand"]["number"] == (1, top)
    assert BOUNDS["scoring.ruling"]["hand_number"] == (1, top)
    assert BOUNDS["tournament.tournament"]["games_per_round"] == (
        Tournament.GAMES_PER_ROUND_MIN,
        top,
    )
    assert services.game_number_error(tournament, tournament.games_per_round) is None
    assert services.game_number_error(tournament, tournament.games_per_round + 1)
    client.force_login(clerk)
    url = reverse("scoring:table", args=[tournament.pk, 1, table.number])
    # the address looks a game up: a number without a hand offers its form (saving
    # checks the bound above); only what the column cannot hold is a 400
    assert client.get(url, {"spiel": top + 1}).status_code == 200
    assert client.get(url, {"spiel": 32_768}).status_code == 400


def test_a_repeated_send_is_saved_once_in_the_service_for_every_path(tournament, clerk):
    """The repeat check was in the phone's view only; the service now knows a repeated
    send of what is stored (a double tap, the offline queue) from a conflict."""
    table = three_table(tournament)
    first, _ = services.save_hand(table, entry(), clerk)
    again, evaluation = services.save_hand(table, entry(), clerk)
    assert evaluation.ok and again.pk == first.pk and again.version == 1
    assert first.history.count() == 1  # nothing written again
    # the same with the blank trick field the engine computes
    blank, _ = services.save_hand(table, entry(tricks={0: 30, 1: 175, 2: None}), clerk)
    assert blank.pk == first.pk and blank.version == 1
    with pytest.raises(services.StaleEntry) as conflict:
        services.save_hand(table, entry(bid=350), clerk)
    assert conflict.value.hand.bid == 300


def test_text_lengths_are_read_from_the_model():
    from series.forms import SeriesForm
    from tournament.forms import RegistrationEditForm, TournamentForm
    from tournament.models import Player, Series

    pairs = [
        (TournamentForm.base_fields["name"], Tournament, "name"),
        (TournamentForm.base_fields["venue"], Tournament, "venue"),
        (RegistrationEditForm.base_fields["first_name"], Player, "first_name"),
        (RegistrationEditForm.base_fields["last_name"], Player, "last_name"),
        (RegistrationEditForm.base_fields["club"], Player, "club"),
        (SeriesForm.base_fields["name"], Series, "name"),
        (SeriesForm.base_fields["season"], Series, "season"),
    ]
    for form_field, model, name in pairs:
        assert form_field.max_length == model._meta.get_field(name).max_length, name
