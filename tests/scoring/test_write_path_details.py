"""Details of the write paths that mutation testing found unchecked (issue 29): who a
correction names as its enterer, a tournament that does not confirm entries, and the
list of what is missing when a round cannot be closed."""

from __future__ import annotations

import logging

import pytest
from django.core.exceptions import ValidationError

from scoring import links, services
from scoring.models import Hand, RoundTotal
from table_entry import services as table_entry_services
from tests.factories.hands import entry
from tests.factories.tournaments import close_round_anyway, make_tournament, three_table
from tournament import services as tournament_services
from tournament.models import Round

pytestmark = pytest.mark.django_db

PHONE = "d4" * 8
NOT_CONFIRMED_HERE = "Dieses Turnier lässt Eingaben nicht bestätigen."


def test_a_correction_names_whoever_made_it(tournament, clerk):
    tournament.table_entry = "opponent"
    tournament.save()
    table = three_table(tournament)
    link = links.live_link(table)
    via = table_entry_services.source(link, PHONE)
    first, _ = services.save_hand(table, entry(), None, via=via)
    assert (first.entered_by, first.entered_by_name) == (None, link.author)
    # corrected at the table: still the table's link as enterer
    again, errors = services.save_hand(
        table, entry(bid=320), None, expected_version=1, reason="vertippt", via=via
    )
    assert again is not None, errors
    assert (again.entered_by, again.entered_by_name, again.table_link) == (None, link.author, link)
    # corrected by the clerk: the clerk, and no table label left over
    by_clerk, errors = services.save_hand(
        table, entry(bid=340), clerk, expected_version=2, reason="laut Zettel"
    )
    assert by_clerk is not None, errors
    stored = Hand.objects.get(pk=by_clerk.pk)
    assert (stored.entered_by, stored.entered_by_name, stored.table_link) == (clerk, "", None)


def test_a_corrected_round_total_names_the_clerk_only(clerk):
    paper = make_tournament(entry_mode="totals")
    table = three_table(paper)
    inputs = {p: services.TotalInput(points) for p, points in enumerate((1230, -180, 2450))}
    services.save_round_totals(table, inputs, clerk)
    # a total imported from another program carries the name it was entered under
    RoundTotal.objects.filter(round__tournament=paper).update(entered_by_name="Altdaten")
    versions = {p: 1 for p in range(3)}
    saved, errors = services.save_round_totals(
        table, {**inputs, 1: services.TotalInput(-150)}, clerk, versions, reason="Zettel"
    )
    assert not errors
    corrected = RoundTotal.objects.get(pk=saved[1].pk)
    assert (corrected.entered_by, corrected.entered_by_name, corrected.version) == (clerk, "", 2)
    untouched = RoundTotal.objects.get(pk=saved[0].pk)
    assert (untouched.entered_by_name, untouched.version) == ("Altdaten", 1)


def test_without_confirmation_a_clerk_cannot_confirm_a_hand_or_totals(clerk, second_clerk):
    evening = make_tournament()
    table = three_table(evening)
    hand, _ = services.save_hand(table, entry(), clerk)
    with pytest.raises(services.ConfirmationRefused, match=f"^{NOT_CONFIRMED_HERE}$"):
        services.confirm_hand(hand, second_clerk, expected_version=1)
    paper = make_tournament(entry_mode="totals")
    paper_table = three_table(paper)
    inputs = {p: services.TotalInput(points) for p, points in enumerate((1230, -180, 2450))}
    services.save_round_totals(paper_table, inputs, clerk)
    with pytest.raises(services.ConfirmationRefused, match=f"^{NOT_CONFIRMED_HERE}$"):
        services.confirm_table_totals(paper_table, second_clerk, {0: 1, 1: 1, 2: 1})
    assert not RoundTotal.objects.filter(confirmed_at__isnull=False).exists()
    assert Hand.objects.get(pk=hand.pk).confirmed_at is None


def test_a_refused_close_lists_each_table_s_gaps_apart(tournament, clerk):
    first, second, third = tournament.round_set.get(number=1).tables.order_by("number")
    for table in (first, second):
        for number in range(1, tournament.games_per_round + 1):
            if (table, number) != (second, 2):
                services.save_hand(table, entry(number=number), clerk)
    round_ = tournament.round_set.get(number=1)
    with pytest.raises(services.RoundIncomplete) as refused:
        services.close_round(round_)
    last = tournament.games_per_round
    assert refused.value.messages == [
        f"Runde 1 kann nicht abgeschlossen werden, es fehlen Eingaben: Tisch {second.number} "
        f"(Spiel 2); Tisch {third.number} (Spiele 1–{last})."
    ]


def test_only_a_running_round_closes_and_a_reason_may_have_500_characters(tournament):
    round_ = tournament.round_set.get(number=1)
    with pytest.raises(ValidationError) as too_long:
        services.close_round(round_, reason="x" * 501)
    assert too_long.value.messages == ["Grund: höchstens 500 Zeichen."]
    services.close_round(round_, reason="y" * 500)  # hands missing: closed with its reason
    round_.refresh_from_db()
    assert (round_.status, round_.forced_close_reason) == ("closed", "y" * 500)
    with pytest.raises(ValidationError) as again:
        services.close_round(round_, reason="noch einmal")
    assert again.value.messages == ["Nur eine laufende Runde kann abgeschlossen werden."]


def test_a_close_tells_the_caller_the_standings_and_the_archive(
    tournament, django_capture_on_commit_callbacks
):
    from scoring.signals import round_closed

    round_ = tournament.round_set.get(number=1)
    before = services.standings_cache_key(tournament.pk)
    heard = []

    def receiver(sender, **kwargs):
        heard.append((sender, kwargs["round_number"], kwargs["tournament_id"]))

    round_closed.connect(receiver, sender=Round)  # as a receiver for rounds only listens
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.close_round(round_, reason="Tisch 3 abgereist")
    finally:
        round_closed.disconnect(receiver)
    # the caller's own object shows the close without reading it again
    assert (round_.status, round_.forced_close_reason) == ("closed", "Tisch 3 abgereist")
    assert [m["table"] for m in round_.forced_close_missing] == [1, 2, 3]
    # the public standings are stale, and the archive heard which round of which evening
    assert services.standings_cache_key(tournament.pk) != before
    assert heard == [(Round, 1, tournament.pk)]


def test_a_failing_receiver_leaves_the_close_standing_and_is_logged(
    tournament, django_capture_on_commit_callbacks, caplog
):
    """The archive's backup listens to the close; when a receiver fails, the round stays
    closed, the director's page answers, and the error is in the log."""
    from scoring.signals import round_closed

    def broken(sender, **kwargs):
        raise RuntimeError("Sicherung fehlgeschlagen")

    round_ = tournament.round_set.get(number=1)
    round_closed.connect(broken)
    try:
        with caplog.at_level(logging.ERROR):
            with django_capture_on_commit_callbacks(execute=True):
                services.close_round(round_, reason="Tisch 3 abgereist")
    finally:
        round_closed.disconnect(broken)
    round_.refresh_from_db()
    assert round_.status == "closed"
    assert [r.exc_info[1].args for r in caplog.records if r.exc_info] == [
        ("Sicherung fehlgeschlagen",)
    ]


def test_paper_mode_waits_only_for_this_rounds_unconfirmed_totals(paper_table, clerk, second_clerk):
    """Round 1 was closed with its totals unconfirmed; in round 2 one table is confirmed
    and one waits: only the waiting table of round 2 is listed, with its players."""
    paper = paper_table.round.tournament
    close_round_anyway(paper)
    second = paper.round_set.get(number=2)
    tournament_services.draw_round(second, seed=3)
    tournament_services.start_round(second)
    # the draw seats round 1's waiting players at different tables of round 2, so a mix-up
    # of the rounds would list more tables or players
    confirmed, waiting = second.tables.order_by("number")[:2]
    for table in (confirmed, waiting):
        inputs = {p: services.TotalInput(points) for p, points in enumerate((1230, -180, 2450))}
        assert services.save_round_totals(table, inputs, clerk)[1] == {}
    assert services.confirm_table_totals(confirmed, second_clerk, {0: 1, 1: 1, 2: 1}) == 3

    starts = tuple(sorted(waiting.seats.values_list("registration__start_number", flat=True)))
    assert services.unconfirmed_entries(second) == [
        services.MissingEntries(table=waiting.number, players=starts, unconfirmed=True)
    ]


@pytest.mark.parametrize("number", [0, 13])
def test_a_game_number_outside_the_round_is_refused_on_its_field(tournament, clerk, number):
    assert tournament.games_per_round == 12
    table = three_table(tournament)
    hand, evaluation = services.save_hand(table, entry(number=number), clerk)
    assert hand is None
    assert evaluation.errors == {"number": ["Spielnummer muss zwischen 1 und 12 liegen."]}
    assert not Hand.objects.filter(table=table).exists()


def test_a_hand_added_after_the_close_needs_a_reason_and_keeps_it_and_a_clerks_hand_no_device(
    tournament, clerk, director
):
    table = three_table(tournament)
    first, _ = services.save_hand(table, entry(number=1), clerk)
    assert (first.entered_device, first.table_link) == ("", None)
    close_round_anyway(tournament)
    table.round.refresh_from_db()  # as the next request reads it: closed
    refused, evaluation = services.save_hand(table, entry(number=2), director)
    assert refused is None
    assert evaluation.errors == {
        "reason": ["Die Runde ist abgeschlossen: bitte den Grund der Korrektur angeben."]
    }
    added, evaluation = services.save_hand(
        table, entry(number=2), director, reason="Zettel nachgereicht"
    )
    assert added is not None, evaluation.errors
    (record,) = added.history.all()
    assert (record.history_change_reason, record.entered_device) == ("Zettel nachgereicht", "")


def test_hand_mode_gaps_and_waiting_hands_are_this_rounds_own(clerk):
    """Round 1 was closed with a hand unconfirmed; in round 2 one hand is in. Round 2's
    gaps and waiting hands are its own, by table number. Another evening comes first, so
    the tables' database ids are not their numbers."""
    make_tournament()
    evening = make_tournament(confirmation_required=True)
    hand, _ = services.save_hand(three_table(evening), entry(number=1), clerk)
    assert hand is not None and hand.confirmed_at is None
    close_round_anyway(evening)
    second = evening.round_set.get(number=2)
    tournament_services.draw_round(second, seed=3)
    tournament_services.start_round(second)
    tables = list(second.tables.order_by("number"))
    assert [t.pk for t in tables] != [t.number for t in tables]
    entered, _ = services.save_hand(tables[0], entry(number=1), clerk)
    assert entered is not None

    assert services.unconfirmed_entries(second) == [
        services.MissingEntries(table=tables[0].number, games=(1,), unconfirmed=True)
    ]
    assert services.missing_entries(second) == [
        services.MissingEntries(table=t.number, games=tuple(range(2 if t == tables[0] else 1, 13)))
        for t in tables
    ]
