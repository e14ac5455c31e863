"""Clerks without the admin (issue 24.2): the director makes clerk accounts, resets a
clerk's password, switches one off and ticks the tournaments each may enter for."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories.tournaments import make_tournament
from tournament.roles import CLERK_GROUP

pytestmark = pytest.mark.django_db
PAGE = "/schreiber/"


def _create(client, name="anna", password="Kreuz-Ober-42", tournaments=()):
    return client.post(
        PAGE,
        {
            "action": "create",
            "new-username": name,
            "new-password1": password,
            "new-password2": password,
            "new-tournaments": [t.pk for t in tournaments],
        },
    )


def test_the_director_makes_a_clerk_who_may_enter_for_the_ticked_tournament(as_director, client):
    first, second = make_tournament(), make_tournament()
    page = as_director.get(PAGE).content.decode()
    assert 'type="checkbox"' in page and "Testturnier" in page
    assert _create(as_director, tournaments=[second]).status_code == 302
    anna = get_user_model().objects.get(username="anna")
    assert list(anna.groups.values_list("name", flat=True)) == [CLERK_GROUP]
    assert not anna.is_staff and not anna.is_superuser
    assert list(anna.clerk_of.all()) == [second]
    # anna logs in and may enter at the second tournament only
    client.logout()
    login = client.post(reverse("login"), {"username": "anna", "password": "Kreuz-Ober-42"})
    assert login.status_code == 302
    assert client.get(reverse("scoring:clerk", args=[second.pk])).status_code == 200
    assert client.get(reverse("scoring:clerk", args=[first.pk])).status_code == 403


def test_a_weak_or_taken_name_or_password_is_refused_at_its_field(as_director, clerk):
    response = _create(as_director, password="12345678")
    assert response.status_code == 422
    assert response.context["create_form"].errors["password2"]
    response = _create(as_director, name="Clerk")  # the fixture's "clerk", other case
    assert response.status_code == 422
    assert "vergeben" in " ".join(response.context["create_form"].errors["username"])
    assert get_user_model().objects.filter(username__iexact="anna").count() == 0


def test_reset_switch_off_and_tournaments_of_a_clerk(as_director, clerk, client):
    tournament = make_tournament()
    response = as_director.post(
        PAGE,
        {
            "action": "password",
            "clerk": clerk.pk,
            f"pw{clerk.pk}-new_password1": "Schellen-Unter-7",
            f"pw{clerk.pk}-new_password2": "Schellen-Unter-7",
        },
    )
    assert response.status_code == 302
    clerk.refresh_from_db()
    assert clerk.check_password("Schellen-Unter-7")
    as_director.post(
        PAGE, {"action": "tournaments", "clerk": clerk.pk, f"t{clerk.pk}-tournaments": []}
    )
    assert not clerk.clerk_of.exists()
    as_director.post(
        PAGE,
        {"action": "tournaments", "clerk": clerk.pk, f"t{clerk.pk}-tournaments": [tournament.pk]},
    )
    assert list(clerk.clerk_of.all()) == [tournament]
    as_director.post(PAGE, {"action": "active", "clerk": clerk.pk, "active": "0"})
    clerk.refresh_from_db()
    assert not clerk.is_active
    page = as_director.get(PAGE).content.decode()
    assert "abgeschaltet" in page and "Konto wieder einschalten" in page


def test_the_page_never_touches_a_director_or_admin_account(as_director, director):
    before = director.password
    response = as_director.post(
        PAGE,
        {
            "action": "password",
            "clerk": director.pk,
            f"pw{director.pk}-new_password1": "Schellen-Unter-7",
            f"pw{director.pk}-new_password2": "Schellen-Unter-7",
        },
        follow=True,
    )
    assert "kein Schreiber-Konto" in response.content.decode()
    as_director.post(PAGE, {"action": "active", "clerk": director.pk, "active": "0"})
    director.refresh_from_db()
    assert director.password == before and director.is_active
    for bad in ("99999999999999999999", "x", ""):
        response = as_director.post(PAGE, {"action": "active", "clerk": bad, "active": "0"})
        assert response.status_code in (200, 302)


def test_clerks_may_not_open_the_page(client, clerk):
    client.force_login(clerk)
    assert client.get(PAGE).status_code == 403
    assert client.post(PAGE, {"action": "create", "new-username": "x"}).status_code == 403


def test_the_set_up_ticks_the_clerks_of_the_last_tournament(as_director, clerk):
    make_tournament()  # the fixture's clerk enters for it
    _create(as_director, name="berta")
    page = as_director.get(reverse("tournament:create")).content.decode()
    boxes = {
        line.split('value="')[1].split('"')[0]: "checked" in line
        for line in page.split("<input")
        if 'name="clerks"' in line
    }
    berta = get_user_model().objects.get(username="berta")
    assert boxes == {str(clerk.pk): True, str(berta.pk): False}
