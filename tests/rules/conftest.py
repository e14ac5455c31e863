"""Make the engine's import-time and cached work visible to mutation testing.

mutmut imports the project once and forks a process for each mutant. Two kinds of code
then never run in their mutated form:

- ``rules/presets.py`` builds the four presets (their melds, via ``_suit_melds`` and
  ``_kind_melds``) when it is imported;
- the meld search (``melds._compile``), the meld ranges (``meldrange._meld_range``) and the
  trick-point feasibility (``feasibility._sums_by_card_count``, ``_possible_trick_points``)
  keep their results in an ``lru_cache`` that may be filled before the fork, by a test
  module's parameters.

Only while mutmut runs (it sets ``MUTANT_UNDER_TEST``), each test therefore starts with
empty caches and with the presets built again, so a mutant there is run, and its tests are
found by mutmut's coverage of each test. In a normal run this fixture does nothing.
"""

from __future__ import annotations

import importlib
import os

import pytest

# the caches whose contents depend on mutable engine code; (module, function) pairs
_CACHED = (
    ("rules.melds", "_compile"),
    ("rules.meldrange", "_meld_range"),
    ("rules.feasibility", "_sums_by_card_count"),
    ("rules.feasibility", "_possible_trick_points"),
    ("rules.feasibility", "_trick_point_sets"),
)


# mutants whose code runs at import or behind one of the caches above; for any other
# mutant the rebuild would only cost time (it more than doubles the tests' run time)
_REBUILT_FOR = (
    "rules.presets.x__suit_melds_",
    "rules.presets.x__kind_melds_",
    "rules.melds.x__compile_",
    "rules.melds.x__expand_",
    "rules.melds.x__find_",
    "rules.melds.xǁ_Componentǁ__init__",
    "rules.meldrange.",
    "rules.feasibility.x__sums_by_card_count_",
    "rules.feasibility.x__possible_trick_points_",
    "rules.feasibility.x__trick_point_sets_",
)


def _mutmut_active() -> bool:
    """Whether mutmut runs: while it records which test calls which function ("stats"),
    for its forced failure ("fail"), or with a mutant whose code needs the rebuild."""
    name = os.environ.get("MUTANT_UNDER_TEST", "")
    return name in ("stats", "fail") or name.startswith(_REBUILT_FOR)


def rebuild_engine_state() -> None:
    """Empty the engine's caches and build the presets again, in place.

    The preset dict keeps its identity (``rules.PRESETS`` and ``rules.cli`` hold it), so
    everything that looks a preset up sees the rebuilt one.
    """
    for module_name, function_name in _CACHED:
        getattr(importlib.import_module(module_name), function_name).cache_clear()
    presets = importlib.import_module("rules.presets")
    kept = presets.PRESETS
    importlib.reload(presets)
    rebuilt = presets.PRESETS
    kept.clear()
    kept.update(rebuilt)
    presets.PRESETS = kept


def _rebuild_recording_only_rebuilt_code() -> None:
    """Rebuild while mutmut records which test calls which function ("stats").

    The rebuild calls the preset builders, the cached functions and, through the presets'
    ``Ruleset``, its validation. Only the first two run again under their mutants, so only
    they are recorded as called by the test; a validation mutant (``check_limits``,
    ``_check_consistency``) is then run with the tests that call it themselves, not with
    every engine test.
    """
    from mutmut.state import state

    recorded = state()._stats
    before = set(recorded)
    rebuild_engine_state()
    for name in recorded - before:
        if not (name + "__mutmut_").startswith(_REBUILT_FOR):
            recorded.discard(name)


@pytest.fixture(autouse=True)
def _fresh_engine_state_under_mutmut():
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        _rebuild_recording_only_rebuilt_code()
    elif _mutmut_active():
        rebuild_engine_state()
    yield
