"""The table link's own checks in :mod:`scoring.services`, called directly.

The table-entry view checks the link and the round before it calls the services, so the
services' own checks were never reached by a test: removing the table check of
:func:`scoring.services.confirm_hand_at_table` or the closed-round check of
:func:`scoring.services.check_link_live` left every table-link test green (issue 29).  The
services are the last line (an import, a script, a future view), so each check is tested
here on its own, next to the same call that is allowed.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from scoring import links, services
from scoring.errors import EntryRefused
from scoring.models import Hand
from table_entry import services as table_entry_services
from tests.factories.hands import entry
from tests.factories.tournaments import close_round_anyway, first_round_tables
from tournament.models import Round

pytestmark = pytest.mark.django_db

ENTERING_PHONE = "a1" * 8
OPPONENT_PHONE = "b2" * 8


def entered_at(table) -> Hand:
    """Hand 1 of ``table``, entered through the table's own link from ENTERING_PHONE."""
    via = table_entry_services.source(links.live_link(table), ENTERING_PHONE)
    hand, evaluation = services.save_hand(table, entry(), None, via=via)
    assert hand is not None, evaluation.errors
    assert hand.table_link_id is not None and hand.confirmed_at is None
    return hand


def confirmation(hand: Hand) -> tuple:
    hand = Hand.objects.get(pk=hand.pk)
    return (hand.confirmed_by_id, hand.confirmed_by_name, hand.confirmed_at, hand.version)


def test_a_link_cannot_confirm_a_hand_of_another_table(at_table):
    first, second, *_ = first_round_tables(at_table)
    hand = entered_at(second)
    before = confirmation(hand)
    other_table = table_entry_services.source(links.live_link(first), OPPONENT_PHONE)
    with pytest.raises(EntryRefused, match=r"^Dieses Spiel gehört nicht zu diesem Tisch\.$"):
        services.confirm_hand_at_table(hand, other_table, expected_version=1)
    assert confirmation(hand) == before
    assert not hand.history.filter(history_change_reason="bestätigt").exists()
    # the same phone through the hand's own table's link may confirm it
    own_table = table_entry_services.source(links.live_link(second), OPPONENT_PHONE)
    confirmed = services.confirm_hand_at_table(hand, own_table, expected_version=1)
    assert confirmed.confirmed_at is not None
    assert confirmed.confirmed_by_name == f"Tisch {second.number} (Link), Gerät b2b2b2"


def test_check_link_live_refuses_a_closed_round(at_table):
    table = first_round_tables(at_table)[0]
    link = links.live_link(table)
    round_ = table.round
    services.check_link_live(link, round_)  # running: the link is live
    close_round_anyway(at_table)
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    with pytest.raises(
        EntryRefused,
        match=r"^Die Runde ist abgeschlossen; nur die Turnierleitung kann noch korrigieren\.$",
    ):
        services.check_link_live(link, round_)


def test_check_link_live_says_why_a_link_is_not_live(at_table):
    table = first_round_tables(at_table)[0]
    link = links.live_link(table)
    round_ = table.round

    def refusal() -> str:
        with pytest.raises(EntryRefused) as refused:
            services.check_link_live(link, round_)
        return str(refused.value)

    round_.status = Round.Status.PLANNED
    assert refusal() == "Die Runde hat noch nicht begonnen; Einträge sind gesperrt."
    round_.status = Round.Status.RUNNING
    at_table.table_entry = ""
    assert refusal() == "Bei diesem Turnier wird nicht am Tisch eingetragen."
    at_table.table_entry = "opponent"
    services.check_link_live(link, round_)  # live again
    # revoked meanwhile by the director: read from the database, not from the object
    type(link).objects.filter(pk=link.pk).update(revoked_at=timezone.now())
    assert refusal() == (
        "Dieser Tisch-Link gilt nicht mehr; die Turnierleitung hat einen neuen ausgegeben."
    )


def test_a_hand_of_a_closed_round_cannot_be_confirmed_through_its_link(at_table):
    """:func:`confirm_hand_at_table` has no round check of its own: the link's check is all
    that keeps an opponent's "stimmt" out of a closed round."""
    table = first_round_tables(at_table)[0]
    hand = entered_at(table)
    close_round_anyway(at_table)
    before = confirmation(hand)
    via = table_entry_services.source(links.live_link(table), OPPONENT_PHONE)
    with pytest.raises(EntryRefused, match="Die Runde ist abgeschlossen"):
        services.confirm_hand_at_table(hand, via, expected_version=1)
    assert confirmation(hand) == before


# ----------------------------------------- every refusal's words, and what "stimmt" writes
# (mutation testing, docs/testing.md: these had no test that read them)


def test_each_refusal_of_stimmt_says_why_and_changes_nothing(at_table):
    table = first_round_tables(at_table)[0]
    hand = entered_at(table)
    before = confirmation(hand)
    entering = table_entry_services.source(links.live_link(table), ENTERING_PHONE)
    opponent = table_entry_services.source(links.live_link(table), OPPONENT_PHONE)
    with pytest.raises(services.ConfirmationRefused) as own_phone:
        services.confirm_hand_at_table(hand, entering, expected_version=1)
    assert str(own_phone.value) == (
        "Dieses Spiel wurde auf diesem Handy eingetragen; „stimmt“ tippt ein Gegenspieler "
        "auf seinem eigenen Handy."
    )
    with pytest.raises(services.StaleEntry) as stale:
        services.confirm_hand_at_table(hand, opponent, expected_version=2)
    assert (stale.value.hand.pk, stale.value.hand.version) == (hand.pk, 1)
    assert confirmation(hand) == before
    services.confirm_hand_at_table(hand, opponent, expected_version=1)
    with pytest.raises(services.ConfirmationRefused) as twice:
        services.confirm_hand_at_table(hand, opponent, expected_version=1)
    assert str(twice.value) == "Spiel 1 ist schon bestätigt."


def test_stimmt_is_refused_where_a_clerk_confirms(tournament):
    tournament.table_entry = "clerk"  # entered at the table, confirmed by a clerk
    tournament.save()
    table = first_round_tables(tournament)[0]
    hand = entered_at(table)
    before = confirmation(hand)
    opponent = table_entry_services.source(links.live_link(table), OPPONENT_PHONE)
    with pytest.raises(services.ConfirmationRefused) as refused:
        services.confirm_hand_at_table(hand, opponent, expected_version=1)
    assert str(refused.value) == (
        "Bei diesem Turnier bestätigt ein Schreiber die Spiele, nicht der Tisch."
    )
    assert confirmation(hand) == before


def test_stimmt_is_kept_in_the_history_and_makes_the_standings_stale(
    at_table, django_capture_on_commit_callbacks
):
    table = first_round_tables(at_table)[0]
    hand = entered_at(table)
    key = f"standings-version:{at_table.pk}"
    cached = services.cache_version(key)
    opponent = table_entry_services.source(links.live_link(table), OPPONENT_PHONE)
    with django_capture_on_commit_callbacks(execute=True):
        services.confirm_hand_at_table(hand, opponent, expected_version=1)
    assert services.cache_version(key) == cached + 1
    latest = Hand.objects.get(pk=hand.pk).history.order_by("-history_date", "-history_id")[0]
    assert latest.history_change_reason == "bestätigt"
    assert latest.version == 1 and latest.confirmed_at is not None
    # the history names the table that confirmed, as no account did
    assert latest.history_user is None
    assert latest.history_user_label == f"Tisch {table.number} (Link)"


def test_a_phone_remembers_the_last_twenty_one_tables_it_confirms_for(at_table):
    """The confirmation code is typed once per phone and table; the session keeps the
    newest links (at most 21), drops anything that is not a link id, and ignores spaces."""
    link = links.live_link(first_round_tables(at_table)[0])
    code = links.confirmation_code(link)
    session = {table_entry_services.CONFIRMER_SESSION_KEY: ["junk", *range(1000, 1030)]}
    assert not table_entry_services.check_confirmation_code(session, link, "0000" + code)
    assert not table_entry_services.check_confirmation_code(session, link, "")
    assert session[table_entry_services.CONFIRMER_SESSION_KEY][0] == "junk"  # untouched
    assert table_entry_services.check_confirmation_code(session, link, f" {code[:2]} {code[2:]}")
    remembered = session[table_entry_services.CONFIRMER_SESSION_KEY]
    assert remembered == [*range(1010, 1030), link.pk]
    assert table_entry_services.is_confirmer(session, link)
