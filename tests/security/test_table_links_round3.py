"""Table links after the third security review: a ruling cannot be undone from the table
(finding 4) and "stimmt" needs the code on the table card (finding 5)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.urls import reverse
from django_ratelimit import core as ratelimit_core

from scoring import links, services
from scoring.models import Hand
from tests.factories.tournaments import three_table
from tests.factories.web import form_data, link_page, phone

pytestmark = pytest.mark.django_db


def _ruled(tournament, director):
    """Hand 1 of a three-player table entered through its link, then a Verwerfen by
    position 2 set by the director's ruling (version 2)."""
    table = three_table(tournament)
    link = links.live_link(table)
    assert phone().post(link_page(link), form_data(table)).status_code == 302
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
    response = phone().post(link_page(link), form_data(table, version=2))  # penalty emptied
    assert response.status_code == 422
    assert "hat die Turnierleitung entschieden" in response.content.decode()
    assert _stored(table) == before
    as_json = phone().post(
        link_page(link), form_data(table, version=2), HTTP_ACCEPT="application/json"
    )
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


def test_stimmt_needs_the_code_from_the_table_card_once_per_phone(at_table, settings):
    settings.TABLE_CONFIRM_CODE_RATE = "3/h"  # an hour's window: no window ends mid-test
    table = three_table(at_table)
    link = links.live_link(table)
    scorer, opponent = phone(), phone()
    scorer.post(link_page(link), form_data(table))
    scorer.post(link_page(link), form_data(table, number=2, dealer=1))
    code = links.confirmation_code(link)
    assert len(code) == 4 and code.isdigit()
    # the phone page never shows the code, to the entering phone or any other
    for client in (scorer, opponent):
        assert code not in client.get(link_page(link)).content.decode().replace(link.token, "")
    confirm = reverse("table_entry:confirm", args=[link.token])
    wrong = f"{(int(code) + 1) % 10000:04d}"
    for sent in ({}, {"code": wrong}):
        response = opponent.post(confirm, {"spiel": 1, "version": 1, **sent}, follow=True)
        assert "Tischcode" in response.content.decode()
    assert not Hand.objects.filter(confirmed_at__isnull=False).exists()
    opponent.post(confirm, {"spiel": 1, "version": 1, "code": f" {code[:2]} {code[2:]} "})
    # once typed, the phone confirms the next hand with one tap
    opponent.post(confirm, {"spiel": 2, "version": 1})
    assert set(
        Hand.objects.filter(confirmed_at__isnull=False).values_list("number", flat=True)
    ) == {
        1,
        2,
    }


def test_wrong_codes_are_throttled_per_phone_and_per_table(at_table, settings, director, client):
    """Issue 38.7: 20 wrong codes from someone holding only the link locked the honest
    confirmer out for 10 minutes.  Wrong codes now count per phone (the guesser locks
    himself out) and, with a higher limit, per table (all phones together still cannot
    walk through 10,000 codes); the director sees a locked table and lifts the lock."""
    settings.TABLE_CONFIRM_CODE_RATE = "3/h"  # an hour's window: no window ends mid-test
    settings.TABLE_CONFIRM_CODE_LINK_RATE = "6/h"
    table = three_table(at_table)
    link = links.live_link(table)
    phone().post(link_page(link), form_data(table))
    phone().post(link_page(link), form_data(table, number=2, dealer=1))
    code = links.confirmation_code(link)
    wrong = f"{(int(code) + 1) % 10000:04d}"
    confirm = reverse("table_entry:confirm", args=[link.token])
    guesser = phone()
    for _ in range(3):
        guesser.post(confirm, {"spiel": 1, "version": 1, "code": wrong})
    # the guesser's own phone is locked, even with the right code
    response = guesser.post(confirm, {"spiel": 1, "version": 1, "code": code}, follow=True)
    assert "Zu viele falsche Tischcodes" in response.content.decode()
    # the honest confirmer's phone is not
    honest = phone()
    honest.post(confirm, {"spiel": 1, "version": 1, "code": code})
    assert Hand.objects.get(number=1).confirmed
    # a second guessing phone uses up the table's limit: now every phone is refused
    for _ in range(3):
        phone().post(confirm, {"spiel": 2, "version": 1, "code": wrong})
    late = phone()
    response = late.post(confirm, {"spiel": 2, "version": 1, "code": code}, follow=True)
    assert "Zu viele falsche Tischcodes" in response.content.decode()
    assert not Hand.objects.get(number=2).confirmed
    # the director sees it and lifts it
    client.force_login(director)
    links_page = reverse("table_entry:director", args=[at_table.pk])
    assert "Gesperrt: zu viele falsche Tischcodes" in client.get(links_page).content.decode()
    lifted = client.post(
        links_page, {"runde": table.round.number, "tisch": table.number, "entsperren": "1"}
    )
    assert lifted.status_code == 302
    assert "Gesperrt" not in client.get(links_page).content.decode()
    late.post(confirm, {"spiel": 2, "version": 1, "code": code})
    assert Hand.objects.get(number=2).confirmed


def test_the_code_is_on_the_table_card_and_the_director_s_links_page(at_table, director, client):
    from printing.documents import table_cards

    table = three_table(at_table)
    link = links.live_link(table)
    code = links.confirmation_code(link)
    card = next(c for c in table_cards(table.round) if c.number == table.number)
    assert card.confirm_code == code
    client.force_login(director)
    listing = client.get(reverse("table_entry:director", args=[at_table.pk]))
    assert code in listing.content.decode()
    renewed = links.renew_link(table)
    assert links.confirmation_code(renewed) != code or renewed.token != link.token


def test_a_clerk_may_correct_other_values_of_a_ruled_hand_but_not_its_penalty(
    at_table, director, clerk
):
    table, _ = _ruled(at_table, director)
    stored = Hand.objects.get(table=table, number=1)
    same_penalty = services.hand_input_from(stored, bid=stored.bid + 10)
    hand, evaluation = services.save_hand(
        table, same_penalty, clerk, expected_version=2, reason="Reizwert"
    )
    assert hand is not None, evaluation.errors
    assert (hand.version, hand.penalty_type, hand.penalty_seat) == (3, "verwerfen", 2)
    other_seat = services.hand_input_from(hand, penalty_seat=1)
    refused, evaluation = services.save_hand(
        table, other_seat, clerk, expected_version=3, reason="Strafe"
    )
    assert refused is None and "penalty_type" in evaluation.errors


def test_guessing_cannot_push_a_table_s_wrong_codes_out_of_the_cache(
    at_table, settings, monkeypatch
):
    """Each guessed prefix used to get a counter of its own: 400 junk guesses filled the
    local-memory cache (300 entries) and a locked table's wrong codes were forgotten."""
    # the rate windows stand still: a window that ends during the test (django-ratelimit
    # staggers them by key) would start a counter afresh and fail it once in a few hundred
    # runs (seen once in CI)
    monkeypatch.setattr(ratelimit_core, "time", SimpleNamespace(time=lambda: 1_800_000_000.0))
    settings.TABLE_CONFIRM_CODE_RATE = "3/h"
    settings.TABLE_CONFIRM_CODE_LINK_RATE = "3/h"  # the table's counter is the one to keep
    settings.TABLE_LINK_RATE_MISSES = "5/h"
    table = three_table(at_table)
    link = links.live_link(table)
    phone().post(link_page(link), form_data(table))
    code = links.confirmation_code(link)
    confirm = reverse("table_entry:confirm", args=[link.token])
    guesser = phone()
    for _ in range(3):
        guesser.post(confirm, {"spiel": 1, "version": 1, "code": f"{(int(code) + 1) % 10000:04d}"})
    for i in range(400):
        guesser.get(reverse("table_entry:page", args=[f"{i:08d}" + "x" * 19]))
    response = phone().post(confirm, {"spiel": 1, "version": 1, "code": code}, follow=True)
    assert "Zu viele falsche Tischcodes" in response.content.decode()
    assert not Hand.objects.get().confirmed
