"""Binokel rules engine: rulesets as data, meld counting, trick legality, hand scoring.

Pure Python (standard library only): no Django, no I/O outside :mod:`rules.cli`.  The web
app calls it through ``scoring.services``.  Main entry points:

- :data:`PRESETS`, :func:`get_preset`, :func:`resolve_ruleset` — the four seed rulesets;
- :class:`Ruleset` — immutable, JSON round-trip, :attr:`Ruleset.fingerprint`;
- :func:`best_meld` / :func:`meld_request` — cards + trump → best meld and breakdown;
- :func:`check_play` / :func:`play_request` / :func:`legal_cards` — trick legality;
- :func:`parse_record`, :func:`score_hand`, :func:`score_request`, :func:`validate_record`
  — hand validation (every error names its field) and scoring;
- :mod:`rules.simulate` — deal and play hands out with legal cards.
"""

from .errors import FieldError, InvalidInput, RulesError, RulesetError
from .feasibility import possible_trick_points
from .melds import Meld, MeldResult, best_meld, meld_request
from .play import PlayVerdict, check_play, legal_cards, play_request, trick_winner
from .presets import DEFAULT_PRESET, PRESETS, get_preset, resolve_ruleset
from .record import HandRecord, PenaltyRecord
from .ruleset import Ruleset
from .scoring import HandScore, round_trick_points, score_hand, score_request
from .validation import parse_record, validate_record

__all__ = [
    "DEFAULT_PRESET",
    "PRESETS",
    "FieldError",
    "HandRecord",
    "HandScore",
    "InvalidInput",
    "Meld",
    "MeldResult",
    "PenaltyRecord",
    "PlayVerdict",
    "Ruleset",
    "RulesError",
    "RulesetError",
    "best_meld",
    "check_play",
    "get_preset",
    "legal_cards",
    "meld_request",
    "parse_record",
    "play_request",
    "possible_trick_points",
    "resolve_ruleset",
    "round_trick_points",
    "score_hand",
    "score_request",
    "trick_winner",
    "validate_record",
]
