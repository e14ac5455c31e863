"""The hall (issue 41, parts 1–4) through its pages: the director's console, calls from a
table's phone, announcements on the projector, the phones and the public standings, and
the round clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from hall.models import Announcement, DirectorCall
from scoring import links, services
from tests.factories.tournaments import close_round_anyway, three_table
from tests.factories.web import form_data, link_page, phone

pytestmark = pytest.mark.django_db


def _console(tournament) -> str:
    return reverse("hall:console", args=[tournament.pk])


def _notices(tournament, large=False) -> str:
    return reverse("hall:notices", args=[tournament.pk]) + ("?gross=1" if large else "")


def _table_notices(link) -> str:
    return reverse("hall:table_notices", args=[link.token])


def _call(client: Client, link, reason: str = "", **headers):
    client.get(link_page(link))  # the phone page first: its CSRF cookie
    return client.post(
        reverse("hall:table_call", args=[link.token]),
        {"reason": reason, "csrfmiddlewaretoken": client.cookies["csrftoken"].value},
        **headers,
    )


def _live(as_director, tournament) -> str:
    response = as_director.get(
        reverse("hall:console_live", args=[tournament.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    return response.content.decode()


# ------------------------------------------------------------------- announcements


def test_an_announcement_shows_everywhere_until_withdrawn_and_stays_in_the_history(
    at_table, as_director
):
    text = "Parkplatz: Auto HN-AB 123 bitte umparken <b>sofort</b>"
    response = as_director.post(
        reverse("hall:announce", args=[at_table.pk]), {"text": text, "minutes": ""}
    )
    assert response.status_code == 302
    link = links.live_link(three_table(at_table))
    escaped = "Parkplatz: Auto HN-AB 123 bitte umparken &lt;b&gt;sofort&lt;/b&gt;"
    pages = {
        "standings": Client().get(_notices(at_table)),
        "projector": Client().get(_notices(at_table, large=True)),
        "phone": phone().get(_table_notices(link)),
    }
    for where, page in pages.items():
        body = page.content.decode()
        assert page.status_code == 200, where
        assert escaped in body and "<b>sofort" not in body, where
    assert 'class="hall-notices large"' in pages["projector"].content.decode()
    # every page that shows notices fetches them
    for url in (
        reverse("scoring:standings", args=[at_table.pk]),
        reverse("scoring:projector", args=[at_table.pk]),
    ):
        assert _notices(at_table) in Client().get(url).content.decode()
    assert _table_notices(link) in phone().get(link_page(link)).content.decode()

    announcement = Announcement.objects.get()
    as_director.post(reverse("hall:withdraw", args=[at_table.pk, announcement.pk]))
    assert "Parkplatz" not in Client().get(_notices(at_table)).content.decode()
    assert "Parkplatz" not in phone().get(_table_notices(link)).content.decode()
    console = as_director.get(_console(at_table)).content.decode()
    assert escaped in console and "zurückgenommen" in console
    announcement.refresh_from_db()
    assert announcement.withdrawn_by.username == "director"


def test_an_announcement_with_minutes_expires_by_itself(at_table, as_director):
    as_director.post(
        reverse("hall:announce", args=[at_table.pk]), {"text": "Pause bis 20:15", "minutes": "10"}
    )
    assert "Pause bis 20:15" in Client().get(_notices(at_table)).content.decode()
    Announcement.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert "Pause bis 20:15" not in Client().get(_notices(at_table)).content.decode()
    assert "abgelaufen" in as_director.get(_console(at_table)).content.decode()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"text": "   ", "minutes": ""}, "Durchsage"),
        ({"text": "x" * 201, "minutes": ""}, "höchstens 200 Zeichen"),
        ({"text": "Runde 2", "minutes": "0"}, "Anzeigen für"),
        ({"text": "Runde 2", "minutes": "601"}, "Anzeigen für"),
        ({"text": "Runde\x072", "minutes": ""}, "Durchsage: Enthält das Zeichen U+0007"),
        ({"text": "Runde\x002", "minutes": ""}, "Nullzeichen"),
    ],
)
def test_a_bad_announcement_is_refused_at_its_field(at_table, as_director, data, words):
    response = as_director.post(reverse("hall:announce", args=[at_table.pk]), data)
    assert response.status_code == 422
    body = response.content.decode()
    assert words in body and 'role="alert"' in body
    assert not Announcement.objects.exists()


def test_only_the_director_reaches_the_console(at_table, client, clerk):
    assert client.get(_console(at_table)).status_code == 302  # to the login
    client.force_login(clerk)
    assert client.get(_console(at_table)).status_code == 403
    assert (
        client.post(reverse("hall:announce", args=[at_table.pk]), {"text": "Hallo"}).status_code
        == 403
    )
    assert not Announcement.objects.exists()


# --------------------------------------------------------------------------- calls


def test_a_table_calls_the_director_who_marks_it_done_and_the_phone_sees_it(at_table, as_director):
    table = three_table(at_table)
    link = links.live_link(table)
    caller = phone()
    answer = _call(caller, link, "Streit um Spiel 4", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert "Die Turnierleitung ist gerufen" in answer.content.decode()
    call = DirectorCall.objects.get()
    assert (call.table, call.link, call.reason) == (table, link, "Streit um Spiel 4")

    live = _live(as_director, at_table)
    assert "ruft seit" in live and "Streit um Spiel 4" in live
    # a second tap, from another phone of the table, adds nothing
    assert _call(phone(), link, "nochmal").status_code == 302
    assert DirectorCall.objects.count() == 1

    done = as_director.post(
        reverse("hall:call_done", args=[at_table.pk, call.pk]), HTTP_HX_REQUEST="true"
    )
    assert done.status_code == 200 and "ruft seit" not in done.content.decode()
    assert "erledigt" in done.content.decode()
    notice = caller.get(_table_notices(link)).content.decode()
    assert "wurde um" in notice and "erledigt" in notice
    assert "Turnierleitung rufen" in notice  # and may call again
    call.refresh_from_db()
    assert call.done_by.username == "director" and call.done_at is not None


def test_no_call_from_a_revoked_link_or_a_closed_round(at_table):
    table = three_table(at_table)
    old = links.live_link(table)
    caller = phone()
    caller.get(link_page(old))
    token = caller.cookies["csrftoken"].value
    links.renew_link(table)
    revoked = caller.post(
        reverse("hall:table_call", args=[old.token]), {"csrfmiddlewaretoken": token}
    )
    assert revoked.status_code == 410
    live = links.live_link(table)
    late = phone()
    late.get(link_page(live))  # opened while the round ran
    close_round_anyway(at_table)
    closed = late.post(
        reverse("hall:table_call", args=[live.token]),
        {"csrfmiddlewaretoken": late.cookies["csrftoken"].value},
    )
    assert closed.status_code == 410
    assert not DirectorCall.objects.exists()


@override_settings(DIRECTOR_CALL_RATE="2/h")
def test_calls_from_one_link_are_throttled(at_table, as_director):
    link = links.live_link(three_table(at_table))
    for _ in range(2):
        assert _call(phone(), link).status_code == 302
        # taps while the call is open change nothing and are not counted
        assert _call(phone(), link).status_code == 302
        assert _call(phone(), link).status_code == 302
        DirectorCall.objects.update(done_at=timezone.now())
    refused = _call(phone(), link)
    assert refused.status_code == 429
    assert "Bitte gehen Sie selbst zur Turnierleitung" in refused.content.decode()
    # the phone's script (htmx) shows no 4xx answer: it gets the message with a 200
    shown = _call(phone(), link, HTTP_HX_REQUEST="true")
    assert shown.status_code == 200 and "Schon oft gerufen" in shown.content.decode()
    assert 'hx-preserve="true"' in shown.content.decode()  # a typed reason survives a poll
    assert DirectorCall.objects.count() == 2


def test_a_reason_too_long_is_refused_at_its_field(at_table):
    link = links.live_link(three_table(at_table))
    answer = _call(phone(), link, "x" * 121)
    assert answer.status_code == 422
    assert 'id="call-reason-error"' in answer.content.decode()
    shown = _call(phone(), link, "x" * 121, HTTP_HX_REQUEST="true")
    assert shown.status_code == 200 and 'id="call-reason-error"' in shown.content.decode()
    assert not DirectorCall.objects.exists()


# ---------------------------------------------------------------- the round clock


def _set_clock(as_director, tournament, round_minutes, idle_minutes=15):
    return as_director.post(
        reverse("hall:clock", args=[tournament.pk]),
        {"round_minutes": round_minutes, "idle_minutes": idle_minutes},
    )


def _started_ago(tournament, minutes: int) -> None:
    tournament.round_set.filter(number=1).update(
        started_at=timezone.now() - timedelta(minutes=minutes)
    )


def test_the_round_clock_shows_the_time_left_and_when_it_is_up(at_table, as_director):
    round_ = at_table.round_set.get(number=1)
    assert round_.started_at is not None  # recorded when the round started
    assert "endet um" not in Client().get(_notices(at_table)).content.decode()  # no clock yet
    assert _set_clock(as_director, at_table, 90).status_code == 302
    _started_ago(at_table, 30)
    public = Client().get(_notices(at_table)).content.decode()
    assert "Runde 1 endet um" in public and "noch 60 Minuten" in public
    link = links.live_link(three_table(at_table))
    assert "noch 60 Minuten" in phone().get(_table_notices(link)).content.decode()
    _started_ago(at_table, 95)
    public = Client().get(_notices(at_table, large=True)).content.decode()
    assert "Zeit abgelaufen" in public and "5 Minuten darüber" in public
    assert "round-clock over" in public


def test_the_console_marks_idle_tables_and_tables_far_behind_the_clock(at_table, as_director):
    _set_clock(as_director, at_table, 90, idle_minutes=20)
    _started_ago(at_table, 60)  # two thirds of the time: 8 of 12 games expected
    table = three_table(at_table)
    client = phone()
    link = links.live_link(table)
    for n in range(1, 8):
        data = form_data(table, number=n, dealer=services.dealer_for(table, 3, n))
        assert client.post(link_page(link), data).status_code == 302
    assert table.hands.count() == 7
    live = _live(as_director, at_table)
    # the other two tables entered nothing for an hour: idle and 8 games behind
    assert live.count("seit 60 Minuten keine Eingabe") == 2
    assert live.count("8 Spiele hinter der Uhr") == 2
    # the busy table, 1 game behind, is not warned about
    assert "1 Spiel hinter der Uhr" not in live
    assert "7 / 12" in live


def test_a_bad_clock_is_refused_at_its_field(at_table, as_director):
    response = _set_clock(as_director, at_table, 5)
    assert response.status_code == 422
    assert "10" in response.content.decode() and 'role="alert"' in response.content.decode()
    at_table.refresh_from_db()
    assert at_table.round_minutes is None


def test_the_console_refreshes_itself_and_its_notices_are_shared_cacheable(at_table, as_director):
    page = as_director.get(_console(at_table)).content.decode()
    assert reverse("hall:console_live", args=[at_table.pk]) in page
    assert 'hx-trigger="every 10s, binokel:shown from:document"' in page
    public = Client().get(_notices(at_table))
    assert "public" in public["Cache-Control"] and "s-maxage" in public["Cache-Control"]
    link = links.live_link(three_table(at_table))
    private = phone().get(_table_notices(link))
    assert "no-store" in private["Cache-Control"]
    assert private["Referrer-Policy"] == "strict-origin"


def test_round_totals_from_paper_raise_no_idle_alarm(at_table, as_director):
    at_table.entry_mode = "totals"
    at_table.save()
    _set_clock(as_director, at_table, 90)
    _started_ago(at_table, 80)
    live = _live(as_director, at_table)
    assert "keine Eingabe" not in live and "hinter der Uhr" not in live


def test_a_call_is_marked_done_from_the_list_too(at_table, as_director):
    link = links.live_link(three_table(at_table))
    _call(phone(), link, "Frage")
    call = DirectorCall.objects.get()
    close_round_anyway(at_table)  # no running round: only the list shows the call
    live = _live(as_director, at_table)
    assert reverse("hall:call_done", args=[at_table.pk, call.pk]) in live
    as_director.post(reverse("hall:call_done", args=[at_table.pk, call.pk]))
    call.refresh_from_db()
    assert call.done_at is not None


def test_a_phone_polling_its_notices_learns_that_the_round_closed(at_table):
    link = links.live_link(three_table(at_table))
    close_round_anyway(at_table)
    assert phone().get(_table_notices(link)).status_code == 410  # a page: says why
    polled = phone().get(_table_notices(link), HTTP_HX_REQUEST="true")
    assert polled.status_code == 200  # htmx shows no 4xx: the message comes with 200
    body = polled.content.decode()
    assert 'role="alert"' in body and "Bitte die Seite neu laden" in body
    assert "Turnierleitung rufen" not in body
    assert "no-store" in polled["Cache-Control"]
