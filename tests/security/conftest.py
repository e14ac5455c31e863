"""Fixtures shared by the security tests."""

from __future__ import annotations

import pytest

from tests.factories.backups import small_tournament


@pytest.fixture
def small(clerk, director):
    """:func:`tests.factories.backups.small_tournament`: the tournament the import tests
    export, change and import."""
    return small_tournament(clerk, director)
