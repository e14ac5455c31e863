"""Pages as a browser sees them: roles, clerk entry, live validation, public standings,
consent, exports, conditional GET."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from scoring.models import Hand
from tests.factories.tournaments import close_round_anyway
from tests.factories.web import form_data, table_url

pytestmark = pytest.mark.django_db


def test_public_cannot_reach_or_write_clerk_pages(client, tournament):
    url, table = table_url(tournament)
    for target in (url, reverse("scoring:clerk", args=[tournament.pk])):
        response = client.get(target)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(url, form_data(table)).status_code == 302
    assert (
        client.post(
            reverse("scoring:validate", args=[tournament.pk, 1, table.number]), form_data(table)
        ).status_code
        == 302
    )
    assert not Hand.objects.exists()


def test_clerk_saves_a_hand_and_sees_it(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    page = client.get(url)
    assert page.status_code == 200
    assert 'name="declarer"' in page.content.decode() and "autofocus" in page.content.decode()
    response = client.post(url, form_data(table))
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.scores == [50, 320, 110] and hand.entered_by == clerk
    page = client.get(url).content.decode()
    assert "Neues Spiel" in page and "320" in page


def test_wrong_entry_names_the_field_in_german_and_saves_nothing(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    response = client.post(url, form_data(table, bid=155, tricks_2=55))
    assert response.status_code == 422
    html = response.content.decode()
    assert 'id="err-bid">Reizwert 155 passt nicht zu den Reizstufen' in html
    assert 'id="err-tricks">Die Stichpunkte ergeben 260 statt 250.' in html
    assert not Hand.objects.exists()


def test_live_validation_returns_field_errors_out_of_band_and_writes_nothing(
    client, tournament, clerk
):
    client.force_login(clerk)
    _, table = table_url(tournament)
    url = reverse("scoring:validate", args=[tournament.pk, 1, table.number])
    html = client.post(url, form_data(table, melds_1=145), HTTP_HX_REQUEST="true").content.decode()
    assert (
        '<div class="err" id="err-melds_1" hx-swap-oob="true">Meldung 145 ist kein Vielfaches von 10.</div>'
        in html
    )
    assert '<div class="err" id="err-bid" hx-swap-oob="true"></div>' in html
    ok = client.post(url, form_data(table, tricks_2=""), HTTP_HX_REQUEST="true").content.decode()
    assert "Vorschau" in ok and "320" in ok and "berechnete Stiche: 45" in ok
    assert not Hand.objects.exists()


def test_live_validation_checks_what_is_typed_while_other_fields_are_blank(
    client, tournament, clerk
):
    client.force_login(clerk)
    _, table = table_url(tournament)
    url = reverse("scoring:validate", args=[tournament.pk, 1, table.number])
    html = client.post(url, form_data(table, declarer="", bid=255, melds_1=145)).content.decode()
    assert 'id="err-declarer" hx-swap-oob="true">Dieses Feld ist zwingend erforderlich.' in html
    assert "Reizwert 255 passt nicht zu den Reizstufen (ab 150 in Schritten von 10)." in html
    assert "Meldung 145 ist kein Vielfaches von 10." in html


def test_clerk_cannot_run_director_actions(client, tournament, clerk, director):
    close_round_anyway(tournament)
    url = reverse("scoring:round_action", args=[tournament.pk, 2, "auslosen"])
    client.force_login(clerk)
    assert client.post(url).status_code == 403
    assert not tournament.round_set.get(number=2).tables.exists()
    client.force_login(director)
    assert client.post(url, {"seed": "12"}).status_code == 302
    round_ = tournament.round_set.get(number=2)
    assert round_.tables.count() == 3 and round_.seed == 12


def test_public_pages_show_names_only_with_consent(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    client.post(url, form_data(table))
    client.logout()
    regs = {r.start_number: r for r in tournament.registrations.select_related("player")}
    hidden = [str(r.player) for r in regs.values() if not r.consent_public]
    shown = [str(r.player) for r in regs.values() if r.consent_public]
    assert hidden and shown
    pages = [
        client.get(reverse("scoring:standings", args=[tournament.pk])),
        client.get(reverse("scoring:projector", args=[tournament.pk])),
        client.get(reverse("scoring:standings_fragment", args=[tournament.pk]) + "?runde=1"),
        client.get(reverse("archive:standings", args=[tournament.pk, "csv"])),
        client.get(reverse("scoring:player", args=[tournament.pk, 1])),
    ]
    for response in pages:
        assert response.status_code == 200
        body = response.content.decode()
        assert not any(name in body for name in hidden), response.request["PATH_INFO"]
    assert any(name in pages[0].content.decode() for name in shown)


def test_standings_fragment_supports_conditional_get_and_changes_after_a_save(
    client, tournament, clerk, django_capture_on_commit_callbacks
):
    url = reverse("scoring:standings_fragment", args=[tournament.pk])
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    client.force_login(clerk)
    turl, table = table_url(tournament)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        client.post(turl, form_data(table))
    assert len(callbacks) == 1  # the cache is invalidated only once the hand is committed
    client.logout()
    second = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert second.status_code == 200 and second["ETag"] != etag
    assert "320" in second.content.decode()
    # a fresh render of unchanged standings (another gunicorn worker, an expired cache
    # entry, a later minute) is the same bytes: the phone's ETag still matches
    cache.clear()
    with mock.patch(
        "django.utils.timezone.now", return_value=timezone.now() + timedelta(minutes=5)
    ):
        assert client.get(url, HTTP_IF_NONE_MATCH=second["ETag"]).status_code == 304


def test_xlsx_export(client, tournament):
    response = client.get(reverse("archive:standings", args=[tournament.pk, "xlsx"]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert response.content[:2] == b"PK"
    assert client.get(reverse("archive:standings", args=[tournament.pk, "pdf"])).status_code == 404


def test_german_first_whatever_the_browser_says_english_by_choice(client, tournament):
    url = reverse("scoring:standings", args=[tournament.pk])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="de">' in html and "Gesamt" in html
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = client.get(url).content.decode()
    assert '<html lang="en">' in html and ">Total<" in html and "Platz" not in html


def test_a_cached_fragment_costs_no_query_and_bad_rounds_still_refused(
    client, tournament, django_assert_num_queries
):
    url = reverse("scoring:standings_fragment", args=[tournament.pk])
    first = client.get(url + "?runde=1")
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = client.get(url + "?runde=1")
    assert again.content == first.content
    assert client.get(url + "?runde=9").status_code == 404
    assert client.get(url + "?runde=x").status_code == 400  # not a number at all
    assert (
        client.get(reverse("scoring:standings_fragment", args=[999]) + "?runde=1").status_code
        == 404
    )


def test_table_page_shows_a_corrected_hands_history(client, tournament, clerk, director):
    client.force_login(clerk)
    url, table = table_url(tournament)
    assert client.post(url, form_data(table)).status_code == 302
    client.force_login(director)
    response = client.post(url, form_data(table, bid=310, version=1, reason="Reizwert 310"))
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.version == 2 and hand.history.count() == 2
    page = client.get(url).content.decode()
    assert "Verlauf: 2 Fassungen" in page
    assert "Fassung 1 von clerk" in page and "Fassung 2 von director" in page
    assert "Reizwert 300 → 310" in page
    assert f'<tr class="history"><td colspan="{7 + 2 * 3}">' in page  # spans the whole table


def test_the_entry_overview_links_the_rules_handout(client, director, tournament):
    """Issue 37.34: the handout was linked only from the public standings; the director
    prints it from the entry overview's print menu, in German and in English."""
    from django.urls import reverse

    client.force_login(director)
    page = client.get(reverse("scoring:clerk", args=[tournament.pk])).content.decode()
    rules = reverse("printing:rules", args=[tournament.pk])
    assert f'href="{rules}"' in page and f'href="{rules}?sprache=en"' in page
