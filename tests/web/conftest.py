"""Fixtures shared by the web tests: a second clerk (confirmations need another account),
a client logged in as the director, a paper table whose totals await confirmation, the
results evening, and the venue's "SQLite only"."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import connection

from scoring import services
from tests.factories.evenings import results_evening
from tests.factories.tournaments import assign_to_all_tournaments, make_tournament, three_table
from tournament.roles import CLERK_GROUP


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
