"""docs/rules-engine.md lists every sentence of each preset's handout with its source, and
the list and the printed handout stay in step.

The section "What each handout says, and where it comes from" has one table per preset:
``| `key` | sentence | source |``.  For both ways of seating four (partnerships, the dealer
sitting out) every statement of the German handout must have a row (``key [sit-out]`` where
the sentence differs when the dealer sits out) with the very sentence printed, and its
source must begin "Turnierregel:" exactly when the handout marks it so; a row no handout
uses fails too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from printing import handout
from rules import PRESETS

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules-engine.md"
ROW = re.compile(r"^\| `(?P<key>[^`]+)` \| (?P<sentence>.*) \| (?P<source>[^|]+) \|$")


def documented() -> dict[str, dict[str, tuple[str, str]]]:
    """Preset id → row key → (sentence, source), read from the doc's section."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## What each handout says, and where it comes from", 1)[1]
    section = section.split("\n## ", 1)[0]
    tables: dict[str, dict[str, tuple[str, str]]] = {}
    preset = None
    for line in section.splitlines():
        heading = re.match(r"^### `([^`]+)`", line)
        if heading:
            preset = heading.group(1)
            tables[preset] = {}
            continue
        match = ROW.match(line)
        if match and preset:
            assert match["key"] not in tables[preset], f"{preset}: {match['key']} twice"
            tables[preset][match["key"]] = (match["sentence"], match["source"].strip())
    return tables


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_doc_lists_every_sentence_of_the_handout_with_its_source(preset):
    rows = documented().get(preset)
    assert rows, f"docs/rules-engine.md has no table for {preset}"
    used = set()
    for mode in ("kreuz", "sit-out"):
        with translation.override("de"):
            statements = list(handout.build(PRESETS[preset], "de", mode).statements())
        for statement in statements:
            key = f"{statement.key} [sit-out]"
            if mode != "sit-out" or key not in rows:
                key = statement.key
            assert key in rows, f"{preset}: the doc does not list {key!r}"
            sentence, source = rows[key]
            assert sentence == statement.text, f"{preset} {key}: the doc's sentence differs"
            marked = source.startswith("Turnierregel:")
            assert marked == statement.house_rule, f"{preset} {key}: mark and source differ"
            if marked:
                assert len(source) > len("Turnierregel: ") + 10, f"{preset} {key}: no reason"
            else:
                assert re.match(r'seed 00\d ".+", line \d+$', source), f"{preset} {key}"
            used.add(key)
    assert set(rows) == used, f"{preset}: rows no handout prints: {set(rows) - used}"
