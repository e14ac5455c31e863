"""The rules handout of each preset, printed once per test process."""

from __future__ import annotations

from datetime import date

from printing import pdfs
from rules import PRESETS
from tournament.models import Tournament


def tournament_for(ruleset) -> Tournament:
    """An unsaved tournament scored by ``ruleset`` (enough to print its handout)."""
    return Tournament(
        name="Regeltest",
        date=date(2026, 11, 21),
        ruleset_json=ruleset.to_dict(),
        ruleset_fingerprint=ruleset.fingerprint,
        four_table_mode="kreuz",
    )


_pdf_cache: dict[tuple[str, str], bytes] = {}


def handout_pdf(preset: str, lang: str = "de") -> bytes:
    """The handout of ``preset`` in ``lang`` (:func:`tournament_for`), kept for the next
    test that asks."""
    if (preset, lang) not in _pdf_cache:
        _pdf_cache[preset, lang] = pdfs.rules_pdf(tournament_for(PRESETS[preset]), lang)
    return _pdf_cache[preset, lang]
