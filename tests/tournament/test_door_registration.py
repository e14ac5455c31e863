"""Registration at the door (issue 17.6): autofocus, a pasted list with a preview that
flags duplicates and is saved all or nothing, corrections with history, quick consent, and
a login button that is not the "register players" button."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories.tournaments import make_tournament
from tournament import services
from tournament.models import Registration

pytestmark = pytest.mark.django_db

LIST = """Maier, Anna; SV Musterdorf

Huber,  Karl
Nachname1, Vorname1; TSV
"""


@pytest.fixture
def fresh(db):
    return make_tournament(players=3)


def test_parse_flags_registered_and_repeated_players(fresh):
    entries = services.parse_player_list(fresh, LIST + "maier, anna; sv musterdorf\n")
    assert [(e.line, e.last_name, e.first_name, e.club, e.duplicate) for e in entries] == [
        (1, "Maier", "Anna", "SV Musterdorf", ""),
        (3, "Huber", "Karl", "", ""),
        (4, "Nachname1", "Vorname1", "TSV", "registered"),
        (5, "maier", "anna", "sv musterdorf", "list"),
    ]


def test_unreadable_lines_are_named(fresh):
    with pytest.raises(ValidationError) as exc:
        services.parse_player_list(fresh, "Maier Anna\nHuber, Karl\n, Eva")
    messages = exc.value.message_dict["players"]
    assert len(messages) == 2 and "Zeile 1" in messages[0] and "Zeile 3" in messages[1]


def test_register_many_is_all_or_nothing(fresh):
    before = Registration.objects.count()
    with pytest.raises(ValidationError) as exc:
        services.register_many(fresh, LIST)
    assert "Zeile 4" in exc.value.message_dict["players"][0]
    assert Registration.objects.count() == before
    regs = services.register_many(fresh, "Maier, Anna; SV Musterdorf\nHuber, Karl")
    assert [(r.start_number, str(r.player), r.consent_public) for r in regs] == [
        (4, "Anna Maier", False),
        (5, "Karl Huber", False),
    ]


def test_update_registration_keeps_history(fresh):
    reg = fresh.registrations.get(start_number=1)
    services.update_registration(
        reg,
        first_name="Vorname1",
        last_name="Nachnahme1",
        club="TSV Plochingen",
        consent_public=True,
    )
    services.update_registration(
        reg,
        first_name="Vorname1",
        last_name="Nachname1",
        club="TSV Plochingen",
        consent_public=True,
    )
    reg.refresh_from_db()
    assert str(reg.player) == "Vorname1 Nachname1" and reg.player.club == "TSV Plochingen"
    names = [h.last_name for h in reg.player.history.order_by("history_date")]
    assert "Nachnahme1" in names and names[-1] == "Nachname1"
    with pytest.raises(ValidationError):
        services.update_registration(reg, first_name="Vorname2", last_name="Nachname2", club="TSV")


def test_set_consents_ticks_only_the_given_numbers(fresh):
    fresh.registrations.update(consent_public=False)
    assert services.set_consents(fresh, [1, 3]) == 2
    assert list(
        fresh.registrations.filter(consent_public=True).values_list("start_number", flat=True)
    ) == [1, 3]


def test_page_preview_then_save(client, director, fresh):
    client.force_login(director)
    url = reverse("tournament:registrations", args=[fresh.pk])
    page = client.get(url).content.decode()
    assert re.search(r'<input[^>]*name="first_name"[^>]*autofocus', page)
    response = client.post(url, {"action": "preview", "players": LIST, "first_round": 1})
    page = response.content.decode()
    assert response.status_code == 200 and "schon angemeldet" in page
    assert 'value="save"' not in page  # duplicates: no save button
    assert Registration.objects.filter(tournament=fresh).count() == 3
    clean = "Maier, Anna; SV Musterdorf\nHuber, Karl"
    page = client.post(url, {"action": "preview", "players": clean, "first_round": 1})
    assert 'value="save"' in page.content.decode()
    response = client.post(url, {"action": "save", "players": clean, "first_round": 2})
    assert response.status_code == 302
    assert fresh.registrations.get(start_number=5).first_round == 2


def test_page_edit_and_history(client, director, fresh):
    client.force_login(director)
    url = reverse("tournament:registration_edit", args=[fresh.pk, 2])
    assert client.get(url).status_code == 200
    response = client.post(
        url, {"first_name": "Vorname2", "last_name": "Nachname2", "club": "SV Neu"}
    )
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "SV Neu" in page and "TSV" in page  # the new and the earlier club


def test_page_consent_column(client, director, fresh):
    client.force_login(director)
    fresh.registrations.update(consent_public=False)
    url = reverse("tournament:registrations", args=[fresh.pk])
    response = client.post(url, {"action": "consent", "consent": ["2", "x"]})
    assert response.status_code == 302
    assert fresh.registrations.get(start_number=2).consent_public
    assert not fresh.registrations.get(start_number=1).consent_public


def test_login_button_is_not_the_register_button(client, director):
    # (an account exists: on an empty database the login leads to the first-run page)
    page = client.get(reverse("login")).content.decode()
    assert "Einloggen" in page and ">Anmelden<" not in page
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = client.get(reverse("login")).content.decode()
    assert "Log in" in page
