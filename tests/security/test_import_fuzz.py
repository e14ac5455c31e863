"""Fuzz the tournament import (issue 16, item 3): a valid export, mutated by hypothesis —
field values, types, lengths, references, whole rows — is either imported, and then every
page of the imported tournament answers below 500, or refused with a message, and then
the database is unchanged (row counts of every model, accounts included).

Runs on SQLite and PostgreSQL (``DATABASE_URL``); 40 examples, well under a minute.
"""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.factories.backups import exported, model_row_counts, page_statuses, small_tournament
from tournament.models import Tournament

pytestmark = pytest.mark.django_db

HOSTILE_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1,
    3,
    4,
    99,
    2**31,
    2**63,
    10**30,
    -(2**63) - 1,
    1.5,
    float("nan"),
    float("inf"),
    "",
    "x" * 201,
    "x" * 20_000,
    "a\x00b",
    '=HYPERLINK("http://x")',
    "</style><script>alert(1)</script>",
    "\u202egnalgnuL",
    "2026-13-45",
    "2026-11-21T20:00:00+00:00",
    "NaN",
    "1e400",
    "clerk",
    "director",
    "admin",
    [],
    [1, 2, 3, 4, 5],
    [None, None, None],
    [[1]],
    {},
    {"a": [1, {"b": None}]},
]


def _paths(value, prefix=()):
    """Every place inside a JSON value: paths of keys/indices to each element."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _set(data, path, value) -> None:
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def _get(data, path):
    for key in path:
        data = data[key]
    return data


@st.composite
def mutations(draw, data):
    """A copy of ``data`` with one to three changes."""
    data = copy.deepcopy(data)
    places = [p for p in _paths(data) if p and p[0] in ("objects", "tournament")]
    field_places = [p for p in places if len(p) >= 4 and p[2] == "fields"]
    for _ in range(draw(st.integers(1, 3))):
        try:
            _mutate(draw, data, places, field_places)
        except (KeyError, IndexError, TypeError):
            event("an earlier change moved this place")
    return data


def _mutate(draw, data, places, field_places) -> None:
    """One change of ``data`` in place, at one of ``places`` (paths found before the first
    change: a later one may no longer exist, the caller skips it then)."""
    kind = draw(st.sampled_from(["value", "value", "value", "copy", "drop", "duplicate", "swap"]))
    event(kind)
    if kind == "value":  # mostly a field of a row, sometimes deep inside a JSON field
        top = [p for p in field_places if len(p) == 4]
        nested = [p for p in field_places if len(p) > 4]
        path = draw(
            st.sampled_from(nested) if draw(st.integers(0, 3)) == 0 else st.sampled_from(top)
        )
        value = draw(
            st.one_of(
                st.sampled_from(HOSTILE_VALUES),
                st.integers(-(2**70), 2**70),
                st.text(max_size=300),
            )
        )
        _set(data, path, value)
    elif kind == "copy":  # a value from elsewhere in the file (often a valid reference)
        path, source = draw(st.sampled_from(field_places)), draw(st.sampled_from(places))
        _set(data, path, copy.deepcopy(_get(data, source)))
    elif kind == "drop":
        path = draw(st.sampled_from([p for p in field_places if len(p) == 4]))
        del data["objects"][path[1]]["fields"][path[3]]
    elif kind == "duplicate":  # a whole row twice, under a new pk, counts kept right
        index = draw(st.integers(0, len(data["objects"]) - 1))
        row = copy.deepcopy(data["objects"][index])
        row["pk"] = 10**6 + index
        data["objects"].append(row)
        data["counts"][row["model"]] = data["counts"].get(row["model"], 0) + 1
    else:  # swap one field between two rows of the same model
        first = draw(st.sampled_from([p for p in field_places if len(p) == 4]))
        model = data["objects"][first[1]]["model"]
        peers = [i for i, o in enumerate(data["objects"]) if o["model"] == model]
        other = draw(st.sampled_from(peers))
        a, b = data["objects"][first[1]]["fields"], data["objects"][other]["fields"]
        if first[3] in b:
            a[first[3]], b[first[3]] = b[first[3]], a[first[3]]


@pytest.fixture
def valid_export(clerk, director):
    return exported(small_tournament(clerk, director))


def test_a_mutated_export_is_imported_with_working_pages_or_refused_untouched(
    valid_export, tmp_path
):
    path = tmp_path / "turnier.json"

    @settings(
        max_examples=40,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(mutations(valid_export))
    def check(data):
        path.write_text(json.dumps(data), encoding="utf-8")
        before = model_row_counts()
        known = set(Tournament.objects.values_list("pk", flat=True))
        try:
            call_command("import_tournament", str(path), "--rescore", stdout=StringIO())
        except CommandError as exc:
            event("refused")
            assert str(exc).strip(), "a refusal says why"
            assert model_row_counts() == before
            return
        event("imported")
        imported = Tournament.objects.exclude(pk__in=known).get()
        statuses = page_statuses(imported)
        assert all(status < 500 for status in statuses.values()), statuses

    check()
