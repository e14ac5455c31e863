"""Who may write what: every write view against the public, a clerk of the tournament, a
clerk of another tournament and the director — and CSRF on every form post.

A refused request writes nothing: the counts of every table of the tournament and scoring
apps are compared before and after.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from scoring import services
from scoring.roles import CLERK_GROUP
from tests.conftest import make_tournament
from tests.web.test_services import entry, three_table

pytestmark = pytest.mark.django_db


def counts() -> dict[str, int]:
    return {
        m._meta.label: m._default_manager.count()
        for app in ("tournament", "scoring")
        for m in apps.get_app_config(app).get_models()
    }


@pytest.fixture
def setup(clerk, director, django_user_model):
    tournament = make_tournament(confirmation_required=True)
    table = three_table(tournament)
    services.save_hand(table, entry(), director)
    outsider = django_user_model.objects.create_user("fremd", password="pw-fremd-123")
    outsider.groups.add(Group.objects.get(name=CLERK_GROUP))  # a clerk, of no tournament here
    return tournament, table, outsider


def write_requests(tournament, table):
    """(name, url, POST data, who may: "clerk" = the tournament's clerks and the director,
    "director" = the director only)."""
    t, r, n = tournament.pk, table.round.number, table.number
    hand = {
        "number": 2, "dealer": 1, "declarer": 2, "bid": 300, "trump": "H",
        "outcome": "played", "melds_0": 20, "melds_1": 140, "melds_2": 60,
        "tricks_0": 30, "tricks_1": 175, "tricks_2": 45,
    }  # fmt: skip
    return [
        ("hand", reverse("scoring:table", args=[t, r, n]), hand, "clerk"),
        ("validate", reverse("scoring:validate", args=[t, r, n]), hand, "clerk"),
        (
            "confirm",
            reverse("scoring:confirm", args=[t, r, n]),
            {"spiel": 1, "version": 1},
            "clerk",
        ),
        (
            "ruling",
            reverse("scoring:ruling", args=[t, r, n]),
            {"hand_number": 1, "claim": "c", "decision": "d", "consequence": ""},
            "director",
        ),
        ("close", reverse("scoring:round_action", args=[t, 1, "abschliessen"]), {}, "director"),
        ("draw", reverse("scoring:round_action", args=[t, 2, "auslosen"]), {}, "director"),
        (
            "plan",
            reverse("tournament:round_plan", args=[t, 1]),
            {"action": "roles", "table": n, "first_dealer": 0, "scorer": 1},
            "director",
        ),
        (
            "register",
            reverse("tournament:registrations", args=[t]),
            {"first_name": "Neu", "last_name": "Spieler", "club": "", "first_round": 2},
            "director",
        ),
        ("withdraw", reverse("tournament:withdraw", args=[t, 1]), {"bestaetigt": 1}, "director"),
        (
            "create",
            reverse("tournament:create"),
            {
                "name": "X",
                "date": "2026-12-01",
                "preset": "club-tournament",
                "rounds": 3,
                "games_per_round": 12,
                "four_table_mode": "sit-out",
                "entry_mode": "hands",
            },
            "director",
        ),  # fmt: skip
    ]


def names(tournament, table, who):
    return [w[0] for w in write_requests(tournament, table) if w[3] == who]


@pytest.mark.parametrize("index", range(10))
def test_the_public_cannot_write(client, setup, index):
    tournament, table, _ = setup
    name, url, data, _who = write_requests(tournament, table)[index]
    before = counts()
    response = client.post(url, data)
    assert response.status_code in (302, 403), name
    if response.status_code == 302:
        assert reverse("login") in response["Location"], name
    assert counts() == before, name


@pytest.mark.parametrize("index", range(10))
def test_a_clerk_of_another_tournament_cannot_write_here(client, setup, index):
    tournament, table, outsider = setup
    name, url, data, _who = write_requests(tournament, table)[index]
    client.force_login(outsider)
    before = counts()
    assert client.post(url, data).status_code == 403, name
    assert counts() == before, name


@pytest.mark.parametrize("index", range(10))
def test_the_tournaments_clerk_may_enter_but_not_direct(client, setup, clerk, index):
    tournament, table, _ = setup
    name, url, data, who = write_requests(tournament, table)[index]
    client.force_login(clerk)
    before = counts()
    response = client.post(url, data)
    if who == "director":
        assert response.status_code == 403, name
        assert counts() == before, name
    else:
        assert response.status_code in (200, 302), name


@pytest.mark.parametrize("index", range(10))
def test_the_director_may_do_everything(client, setup, director, index):
    tournament, table, _ = setup
    name, url, data, _who = write_requests(tournament, table)[index]
    client.force_login(director)
    response = client.post(url, data)
    assert response.status_code in (200, 302), (name, response.status_code)


@pytest.mark.parametrize("index", range(10))
def test_every_form_post_needs_the_csrf_token(setup, director, index):
    tournament, table, _ = setup
    name, url, data, _who = write_requests(tournament, table)[index]
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    before = counts()
    assert client.post(url, data).status_code == 403, name
    assert counts() == before, name


def test_clerk_pages_of_another_tournament_are_closed(client, setup):
    tournament, table, outsider = setup
    client.force_login(outsider)
    for url in (
        reverse("scoring:clerk", args=[tournament.pk]),
        reverse("scoring:table", args=[tournament.pk, 1, table.number]),
    ):
        assert client.get(url).status_code == 403


def test_clerks_cannot_change_rulesets_or_use_the_admin(client, setup, clerk):
    client.force_login(clerk)
    tournament, _table, _ = setup
    assert client.get(reverse("admin:index")).status_code == 302  # not staff: to the login
    response = client.post(
        reverse("admin:tournament_tournament_change", args=[tournament.pk]),
        {"name": "Umbenannt"},
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.name == "Testturnier"
    assert not clerk.has_perm("tournament.change_tournament")
    assert not clerk.has_perm("tournament.change_round")
