"""Security settings: login throttling (django-axes) and the production checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def attempt(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_five_failed_logins_lock_that_user_name_from_that_address(client, clerk, director):
    for _ in range(4):
        response = attempt(client, "clerk", "wrong")
        assert response.status_code == 200  # the form again, with its error
    assert attempt(client, "clerk", "wrong").status_code == 429  # the fifth locks
    locked = attempt(client, "clerk", "pw-clerk-123")  # even the right password now
    assert locked.status_code == 429
    assert "vorübergehend gesperrt" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    # another user behind the same venue router is not locked out
    response = attempt(client, "director", "pw-director-123")
    assert response.status_code == 302 and client.session.get("_auth_user_id")


def test_a_successful_login_resets_the_count(client, clerk):
    for _ in range(4):
        attempt(client, "clerk", "wrong")
    assert attempt(client, "clerk", "pw-clerk-123").status_code == 302
    client.logout()
    for _ in range(4):
        attempt(client, "clerk", "wrong")
    assert attempt(client, "clerk", "pw-clerk-123").status_code == 302


def test_production_settings_pass_check_deploy():
    # the browser test sets DJANGO_ALLOW_ASYNC_UNSAFE for its live server; not in production
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "k" * 20 + "-a-long-random-production-secret-value-1234567890",
        "DJANGO_ALLOWED_HOSTS": "turnier.example.org",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
