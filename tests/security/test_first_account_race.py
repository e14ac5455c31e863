"""At most one first account, also when several first-run submissions arrive at once
(issue 38.1: on PostgreSQL ``select_for_update()`` on the empty user table locked nothing,
and four simultaneous POSTs made four superusers).

Four threads, each with its own database connection, call
:func:`tournament.accounts.create_director` with ``first=True`` at the same moment; the
account's insert is slowed by 0.2 s so that without a lock all four would pass the check.
Runs on SQLite (immediate transactions) and on PostgreSQL (an advisory lock)."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import connection

from tournament import accounts

pytestmark = pytest.mark.django_db(transaction=True)


def test_four_simultaneous_first_accounts_make_one(monkeypatch):
    original = accounts._new_account

    def slow_new_account(*args, **kwargs):
        time.sleep(0.2)  # the window in which the others check for accounts
        return original(*args, **kwargs)

    monkeypatch.setattr(accounts, "_new_account", slow_new_account)
    start = threading.Barrier(4)
    made, refused, failed = [], [], []

    def submit(n: int) -> None:
        try:
            start.wait()
            made.append(accounts.create_director(f"leitung{n}", "Ochsen-Wirt-1987", first=True))
        except PermissionDenied:
            refused.append(n)
        except Exception as error:  # noqa: BLE001 - reported below
            failed.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert failed == []
    assert len(made) == 1 and len(refused) == 3, (made, refused)
    assert get_user_model().objects.filter(is_superuser=True).count() == 1
