"""Small things that answered 500 or said too much (issue 16, item 5): Unicode digits in
numbers, the revoke checker open to other tournaments' clerks, nonsensical ruleset
overrides, a bare 403, and the app's own error pages."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group
from django.template import loader
from django.test import override_settings
from django.urls import reverse

from rules import PRESETS, RulesetError
from scoring import services as scoring_services
from tests.factories.hands import entry
from tests.factories.tournaments import make_tournament
from tests.factories.web import NEW_TOURNAMENT
from tournament.models import Tournament
from tournament.roles import CLERK_GROUP

pytestmark = pytest.mark.django_db

ODD_DIGITS = ["²", "①", "٣", "３", "1²", "-1", "1.0", "x"]


def first_table(tournament):
    return tournament.round_set.get(number=1).tables.order_by("number").first()


# --------------------------------------------------------------------- Unicode digits


@pytest.mark.parametrize("value", ODD_DIGITS)
def test_odd_round_numbers_are_a_clear_400(client, tournament, value):
    pk = tournament.pk
    for url in (
        reverse("scoring:standings", args=[pk]),
        reverse("scoring:standings_fragment", args=[pk]),
        reverse("scoring:projector", args=[pk]),
        reverse("archive:standings", args=[pk, "csv"]),
        reverse("printing:results", args=[pk]),
    ):
        response = client.get(url, {"runde": value})
        assert response.status_code == 400, (url, value)
        assert "runde" in response.content.decode(), url


@pytest.mark.parametrize("value", ODD_DIGITS)
def test_odd_hand_numbers_in_the_address_are_a_clear_400(client, tournament, director, value):
    client.force_login(director)
    table = first_table(tournament)
    scoring_services.save_hand(table, entry(), director)
    args = [tournament.pk, 1, table.number]
    for name in ("scoring:table", "scoring:ruling"):
        response = client.get(reverse(name, args=args), {"spiel": value})
        assert response.status_code == 400, (name, value)
        assert "spiel" in response.content.decode()
    assert client.get(reverse("scoring:table", args=args), {"spiel": "1"}).status_code == 200
    assert client.get(reverse("scoring:table", args=args), {"spiel": "500"}).status_code == 200


@pytest.mark.parametrize("field", ["spiel", "version"])
@pytest.mark.parametrize("value", ODD_DIGITS)
def test_odd_confirmation_numbers_are_a_message_not_a_500(client, field, value, django_user_model):
    tournament = make_tournament(players=3, confirmation_required=True)
    director = django_user_model.objects.create_superuser("boss", password="pw-boss-123")
    table = first_table(tournament)
    scoring_services.save_hand(table, entry(), director)
    clerk = django_user_model.objects.create_user("second", password="pw-second-123")
    clerk.groups.add(Group.objects.get(name=CLERK_GROUP))
    tournament.clerks.add(clerk)
    client.force_login(clerk)
    client.raise_request_exception = False
    data = {"spiel": "1", "version": "1", field: value}
    response = client.post(
        reverse("scoring:confirm", args=[tournament.pk, 1, table.number]), data, follow=True
    )
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]]
    hand = table.hands.get(number=1)
    assert hand.confirmed_by is None


@pytest.mark.parametrize("value", ["²", "①", "1²"])
def test_odd_hand_numbers_in_the_form_are_a_field_error(client, tournament, director, value):
    client.force_login(director)
    table = first_table(tournament)
    data = {**hand_form(), "number": value}
    response = client.post(reverse("scoring:table", args=[tournament.pk, 1, table.number]), data)
    assert response.status_code == 422
    assert not table.hands.exists()


def hand_form() -> dict:
    return {
        "number": 1, "dealer": 0, "declarer": 1, "bid": 300, "trump": "H",
        "outcome": "played", "melds_0": 20, "melds_1": 140, "melds_2": 60,
        "tricks_0": 30, "tricks_1": 175, "tricks_2": 45,
    }  # fmt: skip


# ------------------------------------------------------------ revoke checker access


def other_clerk(django_user_model):
    """A clerk of some other tournament, not of the fixture's."""
    user = django_user_model.objects.create_user("fremd", password="pw-fremd-123")
    user.groups.add(Group.objects.get(name=CLERK_GROUP))
    other = make_tournament(players=3, clerks=[user])
    return user, other


def test_revoke_checker_is_closed_to_clerks_of_other_tournaments(
    client, tournament, clerk, django_user_model
):
    user, other = other_clerk(django_user_model)
    query = {"trump": "S", "trick": "AH", "hand": "TH KC", "card": "TH"}
    client.force_login(user)
    assert client.get(reverse("scoring:play_check", args=[tournament.pk]), query).status_code == 403
    assert client.get(reverse("scoring:play_check", args=[other.pk]), query).status_code == 200
    client.force_login(clerk)
    assert client.get(reverse("scoring:play_check", args=[tournament.pk]), query).status_code == 200


# ----------------------------------------------------------- the 403 page for clerks


def test_a_clerk_of_another_tournament_sees_why_and_whom_to_ask(
    client, tournament, django_user_model
):
    user, _other = other_clerk(django_user_model)
    client.force_login(user)
    url = reverse("scoring:clerk", args=[tournament.pk])
    response = client.get(url)
    assert response.status_code == 403
    body = response.content.decode()
    assert '<header class="top">' in body  # the app's layout
    assert "nicht als Schreiber eingetragen" in body and "Testturnier" in body
    assert "Turnierleitung" in body
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    body = client.get(url).content.decode()
    assert "not registered as a clerk" in body and "tournament director" in body


# -------------------------------------------------------------- ruleset overrides


@pytest.mark.parametrize(
    "overrides, words",
    [
        ({"melds": []}, "melds"),
        ({"name_de": "x" * 100_000}, "name_de"),
        ({"name_en": "y" * 1000}, "name_en"),
        ({"source": "z" * 100_000}, "source"),
        ({"id": "i" * 1000}, "id"),
        ({"melds": [PRESETS["club-tournament"].to_dict()["melds"][0]] * 1000}, "melds"),
    ],
)
def test_nonsensical_overrides_are_refused_at_the_overrides_field(
    client, director, overrides, words
):
    with pytest.raises(RulesetError):
        PRESETS["club-tournament"].with_overrides(overrides)
    client.force_login(director)
    response = client.post(
        reverse("tournament:create"), dict(NEW_TOURNAMENT, overrides=json.dumps(overrides))
    )
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert "overrides" in errors and any(words in e for e in errors["overrides"]), errors
    assert all(len(e) < 200 for e in errors["overrides"])  # not the long text again
    assert not Tournament.objects.exists()


def test_every_preset_is_within_the_limits():
    for preset in PRESETS.values():
        assert preset.with_overrides({}) == preset


# ------------------------------------------------------------------- error pages


@override_settings(DEBUG=False, ROOT_URLCONF="tests.security.failing_urls")
@pytest.mark.parametrize("language", ["de", "en"])
def test_the_apps_own_500_page_without_details(client, language):
    """The 500 page is static (it must render when nothing else works), so it carries
    both languages whichever is chosen."""
    client.raise_request_exception = False
    client.cookies["django_language"] = language
    response = client.get("/kaputt/")
    assert response.status_code == 500
    body = response.content.decode()
    assert "Interner Fehler" in body and "Internal error" in body
    assert "secret detail" not in body and "Traceback" not in body
    assert "Turnierleitung" in body and "tournament director" in body


def test_the_500_page_needs_no_request_context():
    html = loader.get_template("500.html").render()
    assert "Interner Fehler" in html and "{%" not in html and "<link" not in html


@override_settings(DEBUG=False)
@pytest.mark.parametrize(
    "language, words", [("de", "Seite nicht gefunden"), ("en", "Page not found")]
)
def test_the_apps_own_404_page(client, language, words):
    client.cookies["django_language"] = language
    response = client.get("/gibt-es-nicht/")
    assert response.status_code == 404
    body = response.content.decode()
    assert words in body and '<header class="top">' in body
    response = client.get(reverse("scoring:standings", args=[999]))
    assert response.status_code == 404 and words in response.content.decode()


@override_settings(DEBUG=False)
@pytest.mark.parametrize("language, words", [("de", "Kein Zugriff"), ("en", "Access denied")])
def test_the_apps_own_403_page(client, clerk, language, words):
    client.cookies["django_language"] = language
    client.force_login(clerk)
    response = client.post(reverse("tournament:create"), NEW_TOURNAMENT)
    assert response.status_code == 403
    body = response.content.decode()
    assert words in body and '<header class="top">' in body


@override_settings(DEBUG=False)
def test_the_apps_own_400_page_says_what_was_wrong(client, tournament):
    response = client.get(reverse("scoring:standings", args=[tournament.pk]), {"runde": "²"})
    assert response.status_code == 400
    body = response.content.decode()
    assert '<header class="top">' in body and "runde" in body
