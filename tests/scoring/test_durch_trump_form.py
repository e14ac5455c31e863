"""A Durch is played without trump (seed 002 "Der Durch", the club-tournament preset): the
clerk's form, its live check and the table's phone page refuse a trump on a Durch at the
Trumpf field, tell the hand-form script which outcomes have no trump, and still import a
backup whose Durch was stored with a trump before the check existed."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from archive import transfer
from rules import PRESETS
from scoring import links, services
from scoring.models import Hand
from tests.factories.tournaments import three_table
from tests.factories.web import form_data, table_url

pytestmark = pytest.mark.django_db

DURCH_MESSAGE = "Trumpf: Ein Durch wird ohne Trumpf gespielt – bitte keinen Trumpf angeben."


def durch_data(table, **kw):
    """Form data of a won Durch (no melds, no trick points) by position 1."""
    data = form_data(table, **{"outcome": "durch", "bid": 1000, "won": "1", **kw})
    for key in list(data):
        if key.startswith(("melds_", "tricks_")):
            data[key] = ""
    return data


def _tag(page: str, name: str) -> str:
    match = re.search(rf'<select[^>]*name="{name}"[^>]*>', page)
    assert match, name
    return match.group(0)


@pytest.mark.parametrize("outcome", ["durch", "durch-aufgelegt", "durch-ohne-dabb"])
def test_the_clerk_form_refuses_a_trump_on_a_durch_at_the_trump_field(
    client, tournament, clerk, outcome
):
    assert tournament.ruleset.id == "club-tournament"
    client.force_login(clerk)
    url, table = table_url(tournament)
    response = client.post(url, durch_data(table, outcome=outcome, trump="S"))
    page = response.content.decode()
    assert response.status_code == 422 and not Hand.objects.exists()
    assert f'id="err-trump">{DURCH_MESSAGE}</div>' in page
    assert 'aria-invalid="true"' in _tag(page, "trump")
    # no trump: the same Durch is saved and scored
    response = client.post(url, durch_data(table, outcome=outcome, trump=""))
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert (hand.outcome, hand.trump) == (outcome, "")
    assert hand.scores[1] == tournament.ruleset.special(outcome).won


def test_the_live_check_names_the_trump_field(client, tournament, clerk):
    client.force_login(clerk)
    _, table = table_url(tournament)
    live = client.post(
        reverse("scoring:validate", args=[tournament.pk, 1, table.number]),
        durch_data(table, trump="H"),
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert f'id="err-trump" hx-swap-oob="true">{DURCH_MESSAGE}' in live


def test_a_played_hand_still_needs_its_trump(client, tournament, clerk):
    client.force_login(clerk)
    url, table = table_url(tournament)
    page = client.post(url, form_data(table, trump="")).content.decode()
    assert 'id="err-trump">Bitte Trumpf angeben.</div>' in page
    assert client.post(url, form_data(table)).status_code == 302


def test_the_outcome_select_lists_the_outcomes_without_trump(client, tournament, clerk):
    client.force_login(clerk)
    url, _ = table_url(tournament)
    page = client.get(url).content.decode()
    assert 'data-no-trump="durch durch-aufgelegt durch-ohne-dabb"' in _tag(page, "outcome")
    assert "hand-form.js" in page


def test_the_phone_page_refuses_a_trump_on_a_durch(tournament):
    tournament.table_entry = "opponent"
    tournament.save()
    table = three_table(tournament)
    link = links.live_link(table)
    url = reverse("table_entry:page", args=[link.token])
    from django.test import Client

    phone = Client()
    body = phone.get(url).content.decode()
    # the trump is a row of buttons, "ohne" first; the script locks the suits for a Durch
    assert re.search(r'<input type="radio" name="trump" value=""[^>]*>', body)
    assert 'data-no-trump="durch durch-aufgelegt durch-ohne-dabb"' in body
    assert "hand-form.js" in body

    response = phone.post(url, durch_data(table, trump="C"))
    assert response.status_code == 422 and not Hand.objects.exists()
    assert f'id="err-trump">{DURCH_MESSAGE}</div>' in response.content.decode()

    queued = phone.post(url, durch_data(table, trump="C"), HTTP_ACCEPT="application/json")
    assert queued.status_code == 422
    assert queued.json() == {"status": "invalid", "errors": {"trump": [DURCH_MESSAGE]}}
    assert not Hand.objects.exists()

    saved = phone.post(url, durch_data(table, trump=""), HTTP_ACCEPT="application/json")
    assert saved.json()["status"] == "saved"
    assert Hand.objects.get().trump == ""


def test_evaluate_refuses_the_trump_and_nothing_else(tournament):
    _, table = table_url(tournament)
    entry = services.HandInput(
        number=1, dealer=0, declarer=1, bid=1000, outcome="durch", trump="D", won=False
    )
    evaluation = services.evaluate(tournament, 3, entry)
    assert evaluation.errors == {"trump": [DURCH_MESSAGE]}
    entry.trump = ""
    assert services.evaluate(tournament, 3, entry).ok


def test_a_backup_with_a_durch_stored_with_a_trump_still_imports(tournament, clerk):
    """Hands entered before the check may carry a trump on a Durch; it never changed a
    score, so the import re-scores them as they are instead of refusing the file."""
    _, table = table_url(tournament)
    entry = services.HandInput(number=1, dealer=0, declarer=1, bid=1000, outcome="durch", won=True)
    hand, evaluation = services.save_hand(table, entry, clerk)
    assert evaluation.ok
    Hand.objects.filter(pk=hand.pk).update(trump="H")  # as stored before the check
    data = json.loads(json.dumps(transfer.export_tournament(tournament)))
    imported = transfer.import_tournament(data)
    copy = Hand.objects.get(table__round__tournament=imported)
    assert (copy.outcome, copy.trump, copy.scores) == ("durch", "H", hand.scores)


def test_the_handout_sentence_follows_durch_trump():
    from django.utils import translation

    from printing import handout

    def durch_statements(ruleset):
        with translation.override("de"):
            found = {s.key: s for s in handout.build(ruleset, "de", "kreuz").statements()}
        return found["durch"], found["durch_trump"]

    club = PRESETS["club-tournament"]
    game, trump = durch_statements(club)
    assert game.text == "Durch: Der Spielführer macht alle Stiche, ohne Meldung."
    assert trump.text == "Trumpf gibt es keinen."
    assert not game.house_rule and not trump.house_rule  # seed 002, "Der Durch"
    _, regional = durch_statements(club.with_overrides({"durch_trump": "first-lead"}))
    assert regional.text == "Trumpf ist die Farbe der ersten ausgespielten Karte."
    # seed 003 has no Durch: one a tournament adds is a Turnierregel, also for its trump
    added = PRESETS["dabb-app"].with_overrides({"durch": {"won": 1000, "lost": 2000}})
    game, trump = durch_statements(added)
    assert game.house_rule and trump.house_rule
