"""Meld totals in the clerk's form: impossible ones are refused at the seat's melds field,
rare ones need the clerk's "Ja, wirklich" before the hand is saved (issue 17, item 2)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.meldrange import meld_range
from rules.meldrare import rare_threshold
from scoring.models import Hand
from tests.factories.web import form_data, table_url

pytestmark = pytest.mark.django_db


def test_an_impossible_meld_is_refused_at_that_seats_field(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    response = client.post(url, form_data(table, melds_2=3000))
    assert response.status_code == 422
    html = response.content.decode()
    assert (
        'id="err-melds_2">Meldung 3000 ist mit 12 Karten nicht möglich; die höchste mögliche '
        "Meldung ist 1380.</div>" in html
    )
    assert 'id="err-melds_1"></div>' in html and 'id="err-melds_0"></div>' in html
    assert not Hand.objects.exists()
    live = client.post(
        reverse("scoring:validate", args=[tournament.pk, 1, table.number]),
        form_data(table, melds_0=1390),
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert 'id="err-melds_0" hx-swap-oob="true">Meldung 1390 ist mit 12 Karten' in live


def test_a_meld_in_a_gap_names_the_nearest_possible_totals(client, tournament, clerk):
    """Evening finding: "Meldung 900 … nicht möglich (höchstens 1380)" read as if it
    contradicted itself.  The numbers in the message are the engine's own."""
    below, above = meld_range(tournament.ruleset, 12).nearest(900)
    assert 900 not in meld_range(tournament.ruleset, 12) and (below, above) == (590, 1000)
    client.force_login(clerk)
    url, table = table_url(tournament)
    html = client.post(url, form_data(table, melds_1=900)).content.decode()
    assert (
        f'id="err-melds_1">Meldung 900 ist mit 12 Karten nicht möglich; die nächsten möglichen '
        f"Meldungen sind {below} und {above}.</div>" in html
    )
    assert "höchstens" not in html.split('id="err-melds_1">', 1)[1].split("</div>", 1)[0]
    assert not Hand.objects.exists()


def test_a_rare_meld_needs_ja_wirklich_before_it_is_saved(client, tournament, clerk):
    assert rare_threshold(tournament.ruleset, 3) < 1000
    client.force_login(clerk)
    url, table = table_url(tournament)
    live = client.post(
        reverse("scoring:validate", args=[tournament.pk, 1, table.number]),
        form_data(table, melds_1=1000),
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Meldung 1000 ist sehr selten" in live and 'name="confirm_rare"' in live
    assert "Vorschau" in live  # scored as typed; only the save waits for the tick

    refused = client.post(url, form_data(table, melds_1=1000))
    assert refused.status_code == 422
    html = refused.content.decode()
    assert 'id="err-confirm_rare">Seltene Meldung: bitte „Ja, wirklich“ ankreuzen' in html
    assert "Ja, wirklich" in html and not Hand.objects.exists()

    saved = client.post(url, form_data(table, melds_1=1000, confirm_rare="on"))
    assert saved.status_code == 302
    assert Hand.objects.get().melds[1] == 1000


def test_usual_melds_need_no_tick(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    html = client.get(url).content.decode()
    assert 'name="confirm_rare"' not in html
    assert client.post(url, form_data(table)).status_code == 302
