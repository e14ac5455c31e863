"""Table entry through a table's private link: what the link opens (only its table, only
while its round runs), entry and correction through the clerk's service with the table as
author, an opponent's "stimmt", provisional standings, the director's "neuer Link"."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from scoring import links, services
from scoring.errors import EntryRefused
from scoring.models import Hand, TableLink
from table_entry import services as table_entry_services
from tests.factories.tournaments import close_round_anyway, make_tournament, three_table
from tests.factories.web import form_data, link_page, phone

pytestmark = pytest.mark.django_db


def test_token_has_at_least_128_random_bits_and_is_unique_per_table(at_table):
    round_ = at_table.round_set.get(number=1)
    live = links.round_links(round_)
    tokens = [link.token for link in live.values()]
    assert len(tokens) == round_.tables.count() == len(set(tokens))
    assert all(len(t) >= 22 for t in tokens)  # 22 url-safe characters = 132 bits
    assert links.TOKEN_BYTES * 8 >= 128
    # the same table keeps its link until the director asks for a new one
    assert links.round_links(round_) == live


def test_a_table_enters_a_hand_with_the_table_as_author(at_table):
    table = three_table(at_table)
    link = links.live_link(table)
    client = phone()
    response = client.get(link_page(link))
    body = response.content.decode()
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "strict-origin"
    assert 'inputmode="numeric"' in body and "Spiel eintragen" in body
    assert "Abmelden" not in body and "Einloggen" not in body  # nothing else of the app
    response = client.post(link_page(link), form_data(table))
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.scores == [50, 320, 110]
    assert hand.entered_by is None and hand.entered_by_name == f"Tisch {table.number} (Link)"
    assert hand.table_link == link and len(hand.entered_device) == 16
    record = hand.history.get()
    assert record.history_user_label == f"Tisch {table.number} (Link)"
    assert record.entered_device == hand.entered_device


def test_engine_errors_show_inline_and_save_nothing(at_table):
    table = three_table(at_table)
    link = links.live_link(table)
    client = phone()
    response = client.post(link_page(link), form_data(table, tricks_0=90))
    assert response.status_code == 422
    assert not Hand.objects.exists()
    check = client.post(
        reverse("table_entry:validate", args=[link.token]), form_data(table, tricks_0=90)
    )
    assert check.status_code == 200 and 'hx-swap-oob="true"' in check.content.decode()
    assert "250" in check.content.decode()


def test_correction_from_the_table_is_a_new_version_in_history(at_table):
    table = three_table(at_table)
    link = links.live_link(table)
    client = phone()
    client.post(link_page(link), form_data(table))
    client.post(link_page(link), form_data(table, bid=310, version=1, reason="Reizwert 310"))
    hand = Hand.objects.get()
    assert hand.version == 2 and hand.bid == 310
    assert [r.history_user_label for r in hand.history.all()] == [
        f"Tisch {table.number} (Link)"
    ] * 2


def test_repeated_send_of_the_same_new_hand_is_saved_once(at_table):
    """The offline queue may send an entry again when the answer was lost."""
    table = three_table(at_table)
    link = links.live_link(table)
    client = phone()
    for _ in range(2):
        response = client.post(link_page(link), form_data(table), HTTP_ACCEPT="application/json")
        assert response.status_code == 200 and response.json()["status"] == "saved"
    assert Hand.objects.count() == 1 and Hand.objects.get().version == 1


def test_conflicting_new_hand_shows_both_versions_and_overwrites_nothing(at_table, clerk):
    table = three_table(at_table)
    link = links.live_link(table)
    services.save_hand(table, _input(table), clerk)  # the clerk typed game 1 meanwhile
    client = phone()
    response = client.post(link_page(link), form_data(table, bid=310))
    assert response.status_code == 409
    body = response.content.decode()
    assert "Zwei Fassungen" in body and "310" in body and "300" in body
    assert Hand.objects.get().bid == 300
    as_json = client.post(
        link_page(link), form_data(table, bid=310), HTTP_ACCEPT="application/json"
    )
    assert as_json.status_code == 409 and as_json.json()["status"] == "conflict"


def _input(table):
    return services.HandInput(
        number=1,
        dealer=0,
        declarer=1,
        bid=300,
        outcome="played",
        trump="H",
        melds={0: 20, 1: 140, 2: 60},
        tricks={0: 30, 1: 175, 2: 45},
    )


def test_opponent_confirms_with_stimmt_but_not_the_entering_phone(at_table, client):
    table = three_table(at_table)
    link = links.live_link(table)
    scorer, opponent = phone(), phone()
    scorer.post(link_page(link), form_data(table))
    hand = Hand.objects.get()
    confirm = reverse("table_entry:confirm", args=[link.token])
    # provisional in the public standings until confirmed
    standings = client.get(reverse("scoring:standings", args=[at_table.pk])).content.decode()
    assert "vorläufig" in standings or "unbestätigt" in standings
    code = links.confirmation_code(link)
    scorer.post(confirm, {"spiel": 1, "version": 1, "code": code})
    hand.refresh_from_db()
    assert not hand.confirmed
    assert "stimmt" in opponent.get(link_page(link)).content.decode()
    opponent.post(confirm, {"spiel": 1, "version": 1, "code": code})
    hand.refresh_from_db()
    assert hand.confirmed and hand.confirmer.startswith(f"Tisch {table.number} (Link), Gerät")
    assert all(not r.provisional for r in _standings(at_table))


def _standings(tournament):
    from scoring import selectors

    return selectors.standings(tournament, public=False)


def test_provisional_counts_only_hands_from_the_table(at_table, clerk):
    table = three_table(at_table)
    services.save_hand(table, _input(table), clerk)
    assert all(not r.provisional for r in _standings(at_table))
    link = links.live_link(table)
    phone().post(link_page(link), form_data(table, number=2, dealer=1))
    assert sum(r.provisional for r in _standings(at_table)) == 3


def test_with_clerk_confirmation_the_table_cannot_confirm_but_the_clerk_can(
    at_table, clerk, client
):
    at_table.table_entry = "clerk"
    at_table.save()
    table = three_table(at_table)
    link = links.live_link(table)
    phone().post(link_page(link), form_data(table))
    phone().post(
        reverse("table_entry:confirm", args=[link.token]),
        {"spiel": 1, "version": 1, "code": links.confirmation_code(link)},
    )
    hand = Hand.objects.get()
    assert not hand.confirmed
    client.force_login(clerk)
    clerk_page = client.get(reverse("scoring:table", args=[at_table.pk, 1, table.number]))
    assert f"Tisch {table.number} (Link)" in clerk_page.content.decode()  # who entered it
    assert "bestätigen" in clerk_page.content.decode()
    client.post(
        reverse("scoring:confirm", args=[at_table.pk, 1, table.number]),
        {"spiel": 1, "version": 1},
    )
    hand.refresh_from_db()
    assert hand.confirmed and hand.confirmed_by == clerk


# ------------------------------------------------------------------------ permissions


def test_token_cannot_write_another_table(at_table):
    round_ = at_table.round_set.get(number=1)
    mine, other = list(round_.tables.order_by("number"))[:2]
    link = links.live_link(mine)
    client = phone()
    # the table is the link's, whatever the form says: there is no table field to change
    client.post(link_page(link), {**form_data(mine), "table": other.pk})
    assert not other.hands.exists()
    services.save_hand(other, _input(other), None)
    other_hand = other.hands.get()
    response = client.post(
        reverse("table_entry:confirm", args=[link.token]),
        {"spiel": 1, "version": 1, "code": links.confirmation_code(link)},
    )
    assert response.status_code == 302
    other_hand.refresh_from_db()
    assert not other_hand.confirmed
    # and another table's hands are not shown
    assert f"Tisch {other.number} ·" not in client.get(link_page(link)).content.decode()


def test_token_cannot_read_or_write_another_round_or_tournament(at_table, director):
    table = three_table(at_table)
    link = links.live_link(table)
    other = make_tournament(players=6)
    other.table_entry = "opponent"
    other.save()
    other_table = other.round_set.get(number=1).tables.first()
    client = phone()
    for url in (
        reverse("scoring:table", args=[other.pk, 1, other_table.number]),
        reverse("scoring:table", args=[at_table.pk, 1, table.number]),
        reverse("scoring:clerk", args=[at_table.pk]),
        reverse("table_entry:director", args=[at_table.pk]),
        reverse("tournament:registrations", args=[at_table.pk]),
        reverse("admin:index"),
    ):
        client.get(link_page(link))  # holding the link gives no session rights
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response["Location"], url
    # the next round's tables are not reachable with this round's token
    close_round_anyway(at_table)
    round2 = at_table.round_set.get(number=2)
    from tournament import services as tournament_services

    tournament_services.draw_round(round2, seed=3)
    tournament_services.start_round(round2)
    response = client.get(link_page(link))
    assert response.status_code == 410 and "abgeschlossen" in response.content.decode()
    assert client.post(link_page(link), form_data(table)).status_code == 410
    assert not Hand.objects.exists()


def test_after_close_the_token_gives_a_clear_page_and_writes_nothing(at_table):
    table = three_table(at_table)
    link = links.live_link(table)
    client = phone()
    client.post(link_page(link), form_data(table))
    close_round_anyway(at_table)
    response = client.get(link_page(link))
    assert response.status_code == 410
    assert "Runde abgeschlossen" in response.content.decode()
    assert response["Referrer-Policy"] == "strict-origin"
    response = client.post(link_page(link), form_data(table, bid=310, version=1))
    assert response.status_code == 410
    response = client.post(
        reverse("table_entry:confirm", args=[link.token]), {"spiel": 1, "version": 1}
    )
    assert response.status_code == 410
    hand = Hand.objects.get()
    assert hand.bid == 300 and not hand.confirmed


def test_unknown_and_planned_and_switched_off_links_give_clear_pages(tournament):
    table = three_table(tournament)
    link = links.live_link(table)
    client = phone()
    response = client.get(link_page(link))  # table entry is off in this tournament
    assert response.status_code == 403 and "nicht am Tisch" in response.content.decode()
    tournament.table_entry = "opponent"
    tournament.save()
    tournament.entry_mode = "totals"
    tournament.save()
    assert client.get(link_page(link)).status_code == 403  # paper mode: round totals only
    tournament.entry_mode = "hands"
    tournament.save()
    assert client.get(reverse("table_entry:page", args=["x" * 27])).status_code == 404
    assert client.get(reverse("table_entry:page", args=["ä" * 300])).status_code == 404
    close_round_anyway(tournament)
    round2 = tournament.round_set.get(number=2)
    from tournament import services as tournament_services

    tournament_services.draw_round(round2, seed=3)
    planned = links.live_link(round2.tables.first())
    response = client.get(link_page(planned))
    assert response.status_code == 403 and "noch nicht begonnen" in response.content.decode()


def test_director_lists_links_and_a_new_link_revokes_the_old(at_table, director, client, clerk):
    client.force_login(clerk)
    url = reverse("table_entry:director", args=[at_table.pk])
    assert client.get(url).status_code == 403  # a clerk is not the director
    client.force_login(director)
    response = client.get(url)
    body = response.content.decode()
    table = three_table(at_table)
    old = links.live_link(table)
    assert response.status_code == 200 and old.token in body and "data:image/svg+xml" in body
    assert response["Referrer-Policy"] == "strict-origin"
    response = client.post(url, {"runde": 1, "tisch": table.number, "neu": 1})
    assert response.status_code == 302
    old.refresh_from_db()
    assert old.revoked_at is not None
    new = links.live_link(table)
    assert new.token != old.token
    gone = phone().get(link_page(old))
    assert gone.status_code == 410 and "gilt nicht mehr" in gone.content.decode()
    assert phone().get(link_page(new)).status_code == 200
    assert TableLink.objects.filter(table=table).count() == 2


def test_director_switches_table_entry_on(tournament, director, client):
    client.force_login(director)
    url = reverse("table_entry:director", args=[tournament.pk])
    client.post(url, {"table_entry": "clerk", "einstellung": 1})
    tournament.refresh_from_db()
    assert tournament.table_entry == "clerk"
    client.post(url, {"table_entry": "bogus", "einstellung": 1})
    tournament.refresh_from_db()
    assert tournament.table_entry == "clerk"


def test_revoked_link_cannot_write_even_if_resolved_before(at_table):
    """A link revoked between the page load and the save writes nothing (checked under
    the round's lock)."""
    table = three_table(at_table)
    link = links.live_link(table)
    via = table_entry_services.source(link, "a" * 16)
    links.renew_link(table)
    with pytest.raises(EntryRefused):
        services.save_hand(table, _input(table), None, via=via)
    assert not Hand.objects.exists()


# ------------------------------------------------------------------- abuse, logs


def test_throttled_per_token_with_a_clear_page(at_table, settings):
    # per hour, not per minute: django-ratelimit counts in fixed windows, and a window that
    # ends between the third and the fourth request would let the fourth through
    settings.TABLE_LINK_RATE_TOKEN = "3/h"
    link = links.live_link(three_table(at_table))
    client = phone()
    assert [client.get(link_page(link)).status_code for _ in range(3)] == [200] * 3
    response = client.get(link_page(link))
    assert response.status_code == 429 and "Bitte kurz warten" in response.content.decode()
    # another table's link from another phone is not affected
    other = links.live_link(at_table.round_set.get(number=1).tables.exclude(pk=link.table_id)[0])
    assert phone().get(link_page(other)).status_code == 200


def test_guessing_tokens_is_throttled_per_address_and_prefix_never_the_valid_links(
    at_table, settings
):
    settings.TABLE_LINK_RATE_MISSES = "5/h"  # an hour's window: see the test above
    link = links.live_link(three_table(at_table))
    client = phone()
    codes = [
        client.get(reverse("table_entry:page", args=[f"guess{i:022d}"])).status_code
        for i in range(6)
    ]
    assert codes == [404] * 5 + [429]
    # behind the hall's one router address the valid links go on working (round 3, 6.)
    assert [client.get(link_page(link)).status_code for _ in range(3)] == [200] * 3
    assert phone().post(link_page(link), form_data(link.table)).status_code == 302
    # the guessed prefix is refused from any address; another prefix elsewhere is not
    other = phone()
    guess = reverse("table_entry:page", args=["guess" + "0" * 21 + "9"])  # same 8 first
    assert other.get(guess, REMOTE_ADDR="10.0.0.9").status_code == 429
    fresh = reverse("table_entry:page", args=["other" + "9" * 22])
    assert other.get(fresh, REMOTE_ADDR="10.0.0.9").status_code == 404


def test_csrf_is_kept_on_table_pages(at_table):
    table = three_table(at_table)
    link = links.live_link(table)
    client = Client(enforce_csrf_checks=True)
    client.get(link_page(link))
    assert client.post(link_page(link), form_data(table)).status_code == 403
    assert not Hand.objects.exists()
    token = client.cookies["csrftoken"].value
    response = client.post(link_page(link), {**form_data(table), "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and Hand.objects.count() == 1


def test_tokens_never_reach_the_logs(at_table, caplog):
    from config.logs import GunicornLogger, RedactTableTokens, redact

    link = links.live_link(three_table(at_table))
    links.renew_link(link.table)
    with caplog.at_level("WARNING", logger="django.request"):
        phone().get(link_page(link))  # 410: Django logs "Gone: <path>"
    logged = [r for r in caplog.records if r.name == "django.request"]
    assert logged and "/t/…/" in logged[0].getMessage()
    assert all(link.token not in r.getMessage() for r in logged)
    assert RedactTableTokens().filter(logged[0])
    assert redact(f"GET /t/{link.token}/pruefen/ HTTP/1.1") == "GET /t/…/pruefen/ HTTP/1.1"

    class Response:
        status = "200 OK"
        headers = {}
        sent = 10

    import datetime
    from types import SimpleNamespace

    logger = GunicornLogger(SimpleNamespace(**_gunicorn_cfg()))
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/t/{link.token}/",
        "PATH_INFO": f"/t/{link.token}/",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "QUERY_STRING": "",
    }
    atoms = logger.atoms(Response(), {}, environ, datetime.timedelta(seconds=1))
    assert link.token not in atoms["r"] and link.token not in atoms["U"]


def _gunicorn_cfg():
    from gunicorn.config import Config

    cfg = Config()
    return {name: setting.get() for name, setting in cfg.settings.items()} | {
        "settings": cfg.settings,
        "logconfig_dict": {},
        "logconfig_json": None,
        "logconfig": None,
        "syslog": False,
        "loglevel": "info",
        "errorlog": "-",
        "accesslog": None,
        "user": 0,
        "group": 0,
    }


def test_clerk_overview_shows_entered_at_table_confirmed_missing_and_silent(
    at_table, clerk, client
):
    from datetime import timedelta

    from django.utils import timezone

    round_ = at_table.round_set.get(number=1)
    table = three_table(at_table)
    link = links.live_link(table)
    phone().post(link_page(link), form_data(table))
    client.force_login(clerk)
    body = client.get(reverse("scoring:clerk", args=[at_table.pk])).content.decode()
    assert "1 am Tisch eingetragen" in body and "1 unbestätigt" in body
    assert "noch nichts gesendet" in body  # the other tables
    assert "still seit" not in body
    Hand.objects.update(updated_at=timezone.now() - timedelta(minutes=16))
    body = client.get(reverse("scoring:clerk", args=[at_table.pk])).content.decode()
    assert "still seit" in body
    from scoring.selectors import round_progress

    progress = {p.table.pk: p for p in round_progress(round_)}
    assert progress[table.pk].silent and progress[table.pk].at_table == 1
    assert progress[table.pk].missing == at_table.games_per_round - 1


def test_a_copied_tournament_gets_its_own_links(at_table):
    """Export and import into the same database: the copy's links have new tokens (the
    printed QR codes keep opening the original), the hand keeps its table author."""
    from archive import transfer

    table = three_table(at_table)
    link = links.live_link(table)
    services.save_hand(table, _input(table), None, via=table_entry_services.source(link, "a" * 16))
    copy = transfer.import_tournament(transfer.export_tournament(at_table))
    copied = TableLink.objects.get(table__round__tournament=copy)
    assert copied.token != link.token and len(copied.token) >= 22
    hand = Hand.objects.get(table__round__tournament=copy)
    assert hand.table_link == copied and hand.entered_by_name == f"Tisch {table.number} (Link)"


def test_the_phone_page_names_its_buttons_in_the_tables_words(at_table):
    """Issue 37.36: the correction's button said "Spiel eintragen", and the button that
    drops an unsent entry said "verwerfen", the name of a Binokel penalty."""
    table = three_table(at_table)
    link = links.live_link(table)
    client = phone()
    new = client.get(link_page(link)).content.decode()
    assert "Spiel eintragen" in new and 'data-drop="Eingabe löschen"' in new
    client.post(link_page(link), form_data(table))
    correction = client.get(link_page(link) + "?spiel=1").content.decode()
    assert "Korrektur speichern" in correction and "Spiel eintragen" not in correction
