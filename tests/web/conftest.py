"""Fixtures shared by the web tests: a second clerk (confirmations need another account)
and a paper table whose totals await confirmation."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from scoring import services
from tests.conftest import assign_to_all_tournaments, make_tournament
from tests.web.results_night import results_evening
from tests.web.test_services import three_table
from tournament.roles import CLERK_GROUP


@pytest.fixture
def second_clerk(django_user_model):
    """A clerk of every tournament besides ``clerk``: the one who confirms."""
    user = django_user_model.objects.create_user("clerk2", password="pw-clerk2-123")
    user.groups.add(Group.objects.get(name=CLERK_GROUP))
    assign_to_all_tournaments(user)
    return user


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
