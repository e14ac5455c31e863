"""The mark beside a player who missed rounds, in the standings (FIELD-NOTES: late
arrivals and early leavers): written out for each case, including a player who withdrew
before the first round he was to play (it said "bis Runde 0")."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from scoring.selectors import missed_note


@pytest.mark.parametrize(
    ("first_round", "withdrawn_after", "note"),
    [
        (1, None, ""),
        (1, 3, ""),  # withdrew after the last round: played them all
        (2, None, "ab Runde 2"),
        (1, 2, "bis Runde 2"),
        (2, 3, "ab Runde 2"),
        (2, 2, "nur Runde 2"),
        (1, 1, "bis Runde 1"),
        (1, 0, "abgemeldet vor Runde 1"),
        (2, 1, "abgemeldet vor Runde 2"),  # registered for round 2, withdrew after round 1
    ],
)
def test_missed_note(first_round, withdrawn_after, note):
    registration = SimpleNamespace(first_round=first_round, withdrawn_after_round=withdrawn_after)
    assert missed_note(registration, rounds=3) == note
