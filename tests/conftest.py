"""Shared fixtures: users in the two staff roles, a small running tournament and a played
one (the builders behind them are in ``tests/factories``)."""

from __future__ import annotations

import os
import tempfile
from contextlib import closing
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.db import connection

from scoring import services
from tests.factories.evenings import results_evening
from tests.factories.tournaments import (
    assign_to_all_tournaments,
    make_tournament,
    three_table,
)
from tournament.roles import CLERK_GROUP, DIRECTOR_GROUP

# no silent skips in CI; pytester for the guard's own test
pytest_plugins = ["tests.skip_guard", "pytester"]


def _fast_password_hashing() -> None:
    """Accounts made and logins checked in this test process hash with MD5: Django's
    PBKDF2 (1,000,000 rounds) costs 0.37 s per account or login on the CI machine, minutes
    over the suite.  PBKDF2 stays second in the list, so the stored hashes of old backups
    and fixtures still verify.  Servers the tests start as subprocesses (venue, nginx)
    keep the real settings."""
    from django.conf import settings
    from django.contrib.auth import hashers

    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()


_fast_password_hashing()


@pytest.fixture
def clerk(db, django_user_model):
    user = django_user_model.objects.create_user("clerk", password="pw-clerk-123")
    user.groups.add(Group.objects.get(name=CLERK_GROUP))
    assign_to_all_tournaments(user)
    return user


@pytest.fixture
def director(db, django_user_model):
    user = django_user_model.objects.create_user("director", password="pw-director-123")
    user.groups.add(Group.objects.get(name=DIRECTOR_GROUP))
    return user


@pytest.fixture
def tournament(db):
    return make_tournament()


@pytest.fixture
def played(clerk, director):
    """:func:`tests.factories.backups.played_tournament`: 10 players, round 1 played with
    corrections, a deletion and a ruling, then closed; round 2 running with two hands per
    table (the backup, restore and lock tests)."""
    from tests.factories.backups import played_tournament

    return played_tournament(clerk, director)


@pytest.fixture
def at_table(tournament):
    """The ``tournament`` (three tables of three, round 1 running) with entry at the
    table: a hand entered through a table's link is confirmed by an opponent's phone."""
    tournament.table_entry = "opponent"
    tournament.save()
    return tournament


@pytest.fixture(autouse=True)
def _german_first():
    """Each test starts in the site's language: a request an earlier test made in English
    leaves the thread's language active (LocaleMiddleware activates it per request and
    nothing switches it back), and a later test calling services directly would get
    English messages."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache (ids repeat across test databases)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def _mutmut_db_template() -> Path | None:
    """Under mutation testing, a migrated SQLite test database that each forked run starts
    from instead of migrating a new one (``BINOKEL_MUTMUT_DB_TEMPLATE``, made once with
    ``--reuse-db``; docs/testing.md).  ``None`` otherwise."""
    name = os.environ.get("BINOKEL_MUTMUT_DB_TEMPLATE", "")
    if os.environ.get("MUTANT_UNDER_TEST") and name and Path(name).is_file():
        return Path(name)
    return None


@pytest.fixture(scope="session")
def django_db_keepdb(request) -> bool:
    """``--reuse-db``, or a run under mutation testing that starts from the template."""
    return bool(request.config.getvalue("reuse_db")) or _mutmut_db_template() is not None


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """Under mutation testing, each run gets a SQLite test database of its own.

    ``config/settings.py`` names the test database after the process id, but mutmut
    loads the settings once and forks a process for each mutant, two at a time: both
    would create, fill and delete the same file. While mutmut runs (it sets
    ``MUTANT_UNDER_TEST``) the name is therefore taken again in the forked process, and
    the file is copied from the template when there is one (through SQLite's backup, and
    deleted at the end).
    """
    import sqlite3

    from django.conf import settings

    default = settings.DATABASES["default"]
    own = None
    if (
        os.environ.get("MUTANT_UNDER_TEST")
        and default["ENGINE"] == "django.db.backends.sqlite3"
        and not os.environ.get("DJANGO_TEST_SQLITE")
    ):
        own = Path(tempfile.gettempdir()) / f"binokel-test-{os.getpid()}.sqlite3"
        default.setdefault("TEST", {})["NAME"] = str(own)
        template = _mutmut_db_template()
        if template is not None:
            with closing(sqlite3.connect(template)) as source:
                with closing(sqlite3.connect(own)) as target:
                    source.backup(target)
    yield
    if own is not None and _mutmut_db_template() is not None:
        for path in (own, Path(f"{own}-wal"), Path(f"{own}-shm")):
            path.unlink(missing_ok=True)


# ---------------------------------------------------- shared by the app and security suites


@pytest.fixture
def second_clerk(django_user_model):
    """A clerk of every tournament besides ``clerk``: the one who confirms."""
    user = django_user_model.objects.create_user("clerk2", password="pw-clerk2-123")
    user.groups.add(Group.objects.get(name=CLERK_GROUP))
    assign_to_all_tournaments(user)
    return user


@pytest.fixture
def as_director(client, director):
    """The test client, logged in as the director."""
    client.force_login(director)
    return client


@pytest.fixture
def paper_table(clerk):
    """A table of a paper-mode evening that confirms entries, its three round totals
    (1230, -180, 2450) entered by ``clerk`` and not yet confirmed."""
    paper = make_tournament(entry_mode="totals", confirmation_required=True)
    table = three_table(paper)
    inputs = {
        0: services.TotalInput(1230, 2, 1),
        1: services.TotalInput(-180, 1, 2),
        2: services.TotalInput(2450, 4, 0),
    }
    services.save_round_totals(table, inputs, clerk)
    return table


@pytest.fixture
def results_night(clerk):
    """:func:`results_evening`: the evening whose results the site export and the press
    report are tested on."""
    return results_evening(clerk)


@pytest.fixture
def venue_on_sqlite():
    """Skips in the PostgreSQL run: the venue keeps its own SQLite file, and running it
    again there adds nothing (``pytestmark = pytest.mark.usefixtures(...)`` of the venue
    modules)."""
    if connection.vendor != "sqlite":
        pytest.skip("venue mode runs on SQLite; checked in the SQLite run")
