"""The demo's well-known logins never reach a real evening (security review, round 3,
finding 2): ``scripts/venue --demo`` into a data folder, then a plain ``scripts/venue`` on
the same folder, must not leave ``leitung``/``leitung-demo`` usable."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command

from operations import venue
from operations.demo import DEMO_USERS


@pytest.fixture
def demo_logins(db):
    """The demo's accounts as ``load_demo`` leaves them (same names, same passwords)."""
    made = []
    for name, password, group in DEMO_USERS:
        user = get_user_model().objects.create_user(
            name, password=password, is_superuser=name == "leitung", is_staff=name == "leitung"
        )
        user.groups.add(Group.objects.get(name=group))
        made.append(user)
    return made


def test_a_plain_venue_start_switches_the_demo_logins_off(demo_logins, rf):
    assert authenticate(rf.post("/"), username="leitung", password="leitung-demo")
    out = StringIO()
    call_command("disable_demo_logins", stdout=out)
    assert "leitung, schreiber" in out.getvalue() and "abgeschaltet" in out.getvalue()
    for name, password, _ in DEMO_USERS:
        assert authenticate(rf.post("/"), username=name, password=password) is None
        user = get_user_model().objects.get(username=name)
        assert not user.is_active and not user.has_usable_password()
    again = StringIO()
    call_command("disable_demo_logins", stdout=again)
    assert again.getvalue() == ""  # nothing left to switch off, nothing said


def test_a_demo_account_with_a_password_of_its_own_stays(demo_logins, rf):
    leitung = demo_logins[0]
    leitung.set_password("Vereinsheim-2026-Plochingen")
    leitung.save()
    call_command("disable_demo_logins", stdout=StringIO())
    assert authenticate(rf.post("/"), username="leitung", password="Vereinsheim-2026-Plochingen")
    assert authenticate(rf.post("/"), username="schreiber", password="schreiber-demo") is None


def test_the_venue_runs_the_switch_off_unless_it_loads_the_demo():
    assert venue.setup_commands(demo=False)[-1] == ("disable_demo_logins",)
    assert ("load_demo",) in venue.setup_commands(demo=True)
    assert ("disable_demo_logins",) not in venue.setup_commands(demo=True)
    assert venue.setup_commands(demo=False)[0] == ("migrate", "-v0")


def test_after_the_switch_off_the_laptop_is_led_to_make_its_own_account(demo_logins, settings):
    from django.test import Client

    settings.FIRST_RUN_PAGE = True  # the venue's setting (operations.venue.environment)

    from tournament import accounts

    assert accounts.has_accounts()
    call_command("disable_demo_logins", stdout=StringIO())
    assert not accounts.has_accounts()
    assert Client(REMOTE_ADDR="127.0.0.1").get("/")["Location"] == "/einrichten/"
