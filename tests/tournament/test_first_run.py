"""First start on an empty database (issue 24.1): the laptop's own browser is led to a page
that makes the director's account; a phone on the Wi-Fi cannot; the command line has a
German equivalent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from tournament.roles import DIRECTOR_GROUP

pytestmark = pytest.mark.django_db

FIRST = "/einrichten/"


@pytest.fixture(autouse=True)
def venue_settings(settings):
    """The venue offers the first-run page (operations.venue.environment sets
    BINOKEL_FIRST_RUN_PAGE=1); a server does not (tests below switch it off)."""
    settings.FIRST_RUN_PAGE = True
    return settings


GOOD = {"username": "vorstand", "password1": "Ochsen-Wirt-1987", "password2": "Ochsen-Wirt-1987"}


def laptop() -> Client:
    return Client(REMOTE_ADDR="127.0.0.1")


def phone() -> Client:
    return Client(REMOTE_ADDR="192.168.1.57")


def test_the_laptop_is_led_to_the_first_account_and_is_director_after_it():
    client = laptop()
    for start in ("/", reverse("login")):
        response = client.get(start)
        assert response.status_code == 302 and response["Location"] == FIRST
    page = client.get(FIRST).content.decode()
    assert "Konto der Turnierleitung" in page and 'name="password2"' in page
    response = client.post(FIRST, GOOD)
    assert response.status_code == 302 and response["Location"] == "/"
    user = get_user_model().objects.get()
    assert user.username == "vorstand" and user.is_superuser and user.is_staff
    assert list(user.groups.values_list("name", flat=True)) == [DIRECTOR_GROUP]
    assert user.check_password(GOOD["password1"])
    home = client.get("/").content.decode()
    assert "Neues Turnier anlegen" in home and "angelegt" in home
    # from now on the page is gone: the login is where one goes
    assert client.get(FIRST)["Location"] == reverse("login")
    assert laptop().post(FIRST, {**GOOD, "username": "zweiter"}).status_code == 302
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"password2": "Ochsen-Wirt-1988"}, "password2", "nicht identisch"),
        ({"password1": "12345678", "password2": "12345678"}, "password2", "Passwort"),
        ({"password1": "kurz", "password2": "kurz"}, "password2", "zu kurz"),
        ({"username": ""}, "username", "erforderlich"),
    ],
)
def test_a_bad_entry_is_shown_at_its_field_and_makes_no_account(change, field, words):
    response = laptop().post(FIRST, {**GOOD, **change})
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert field in errors and any(words in e for e in errors[field]), errors
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize(
    "client",
    [phone(), Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.57")],
    ids=["phone on the wifi", "behind a proxy"],
)
def test_nobody_but_the_laptop_can_make_the_first_account(client):
    assert client.get("/").status_code == 200  # the start page, saying where to do it
    assert "am Laptop selbst" in client.get("/").content.decode()
    assert client.get(FIRST).status_code == 403
    assert client.post(FIRST, GOOD).status_code == 403
    assert not get_user_model().objects.exists()


def test_a_server_never_offers_the_first_account_page(venue_settings):
    """Issue 38.1: without the venue's flag even the machine's own loopback address (which
    is what every visitor behind a reverse proxy looks like) gets no first-run page."""
    venue_settings.FIRST_RUN_PAGE = False
    client = laptop()
    assert client.get("/").status_code == 200
    assert client.get(reverse("login")).status_code == 200
    assert client.get(FIRST).status_code == 403
    assert client.post(FIRST, GOOD).status_code == 403
    assert not get_user_model().objects.exists()


def test_the_venue_sets_the_first_run_flag_and_a_server_default_does_not(tmp_path):
    import os
    import subprocess
    import sys

    from operations import venue

    env = venue.environment(tmp_path, "http://192.168.1.20:8000", ["192.168.1.20"])
    assert env["BINOKEL_FIRST_RUN_PAGE"] == "1"
    # the settings as a server reads them: no such variable
    clean = {k: v for k, v in os.environ.items() if k != "BINOKEL_FIRST_RUN_PAGE"}
    read = "import config.settings as s; print(s.FIRST_RUN_PAGE, s.TRUSTED_PROXIES)"
    out = subprocess.run(
        [sys.executable, "-c", read], env=clean, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "[]"]


def test_through_a_trusted_proxy_the_client_is_never_the_laptop(venue_settings):
    """Behind a configured proxy the request is the proxy's, whatever the header says;
    X-Forwarded-For naming 127.0.0.1 (typed by the client) makes no difference."""
    venue_settings.TRUSTED_PROXIES = ["127.0.0.1"]
    for extra in ({}, {"HTTP_X_FORWARDED_FOR": "127.0.0.1"}):
        client = Client(REMOTE_ADDR="127.0.0.1", **extra)
        assert client.get("/").status_code == 200
        assert client.get(FIRST).status_code == 403
        assert client.post(FIRST, GOOD).status_code == 403
    assert not get_user_model().objects.exists()


def test_the_command_line_makes_a_director_in_german(monkeypatch):
    answers = iter(["kurz", "kurz", GOOD["password1"], GOOD["password1"]])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    monkeypatch.setattr("builtins.input", lambda prompt="": "vorstand")
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    out, err = StringIO(), StringIO()
    call_command("leitung_anlegen", stdout=out, stderr=err)
    assert "zu kurz" in err.getvalue()
    assert "Konto vorstand für die Turnierleitung angelegt" in out.getvalue()
    user = get_user_model().objects.get()
    assert user.is_superuser and user.groups.filter(name=DIRECTOR_GROUP).exists()
    answers = iter(["x"] * 6)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    with pytest.raises(CommandError, match="Kein Konto angelegt"):
        call_command("leitung_anlegen", benutzer="vorstand", stdout=out, stderr=StringIO())


def test_the_laptop_on_a_dual_stack_socket_is_local(venue_settings):
    """Review finding: with ``--bind ::`` the laptop's browser arrives as
    ``::ffff:127.0.0.1``, which is not "loopback" to Python's ipaddress."""
    from django.test import RequestFactory

    from tournament import accounts

    request = RequestFactory().get("/", REMOTE_ADDR="::ffff:127.0.0.1")
    assert accounts.is_local(request)
    assert not accounts.is_local(RequestFactory().get("/", REMOTE_ADDR="::ffff:192.168.1.5"))
