"""Hand records as data: the fields of one deal's record, and the validated record.

A hand record is what the clerk writes on the score sheet for one deal::

    {"seats": 3, "declarer": 0, "bid": 300, "outcome": "played",
     "melds": [140, 60, 20], "tricks": [175, 45, 30], "tricks_taken": [6, 4, 2],
     "penalty": {"type": "verwerfen", "seat": 2}}

- ``seats``: players at the table who take part in the hand (a ruleset's table size);
- ``declarer``: seat index 0 … seats − 1 of the player who won the bidding;
- ``bid``: game points;
- ``outcome``: ``"played"``, ``"abgehen"``, ``"durch"``, ``"durch-aufgelegt"``,
  ``"durch-ohne-dabb"`` or ``"bettel"``, as the ruleset allows;
- ``melds``: meld points per seat (game points, multiples of 10); required for ``played``
  and ``abgehen``; in a Durch or Bettel nobody melds (omit, or all zero);
- ``tricks``: raw trick points per seat including the last-trick bonus and the declarer's
  discards; required for ``played``, absent otherwise;
- ``tricks_taken``: optional number of tricks per seat (``played`` only); without it a seat
  with no trick points is taken to have taken no trick;
- ``won``: for the special games only, whether the declarer made it;
- ``trump``: optional suit letter (``C S H D``) of the trump as written on the sheet; not
  allowed for an outcome the ruleset plays without trump
  (:meth:`rules.ruleset.Ruleset.plays_without_trump`: a Durch where
  ``durch_trump == "none"``, seed 002 "Der Durch"; a Bettel, seed 001 "Der
  Untendurch/Bettel");
- ``penalty``: optional ``{"type": "verwerfen" | "falsch-druecken", "seat": n}`` on a played
  hand; a misdiscard is always the declarer's.

At 4 seats with partnerships (seats 0+2 against 1+3) melds and tricks are pooled per team,
the bid is checked on the team total, and each partner is credited the team's score.

This module holds the record's vocabulary (:data:`OUTCOMES`, :data:`SPECIAL_OUTCOMES`,
:data:`PENALTY_TYPES`, :data:`RECORD_KEYS`) and the validated record
(:class:`HandRecord`, :class:`PenaltyRecord`).  A raw record is validated by
:func:`rules.validation.parse_record` and scored by :func:`rules.scoring.score_hand`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OUTCOMES = ("played", "abgehen", "durch", "durch-aufgelegt", "durch-ohne-dabb", "bettel")
SPECIAL_OUTCOMES = ("durch", "durch-aufgelegt", "durch-ohne-dabb", "bettel")
PENALTY_TYPES = ("verwerfen", "falsch-druecken")
RECORD_KEYS = (
    "seats",
    "declarer",
    "bid",
    "outcome",
    "melds",
    "tricks",
    "tricks_taken",
    "won",
    "penalty",
    "trump",
)


@dataclass(frozen=True)
class PenaltyRecord:
    """A penalty on a hand: ``type`` (``"verwerfen"`` or ``"falsch-druecken"``) and the
    offender's ``seat``."""

    type: str
    seat: int


@dataclass(frozen=True)
class HandRecord:
    """A validated hand record (see the module docstring for the fields and units)."""

    seats: int
    declarer: int
    bid: int
    outcome: str
    melds: tuple[int, ...] | None = None
    tricks: tuple[int, ...] | None = None
    tricks_taken: tuple[int, ...] | None = None
    won: bool | None = None
    penalty: PenaltyRecord | None = None
    trump: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data, omitting absent fields."""
        data: dict[str, Any] = {
            "seats": self.seats,
            "declarer": self.declarer,
            "bid": self.bid,
            "outcome": self.outcome,
        }
        for key in ("melds", "tricks", "tricks_taken"):
            value = getattr(self, key)
            if value is not None:
                data[key] = list(value)
        if self.won is not None:
            data["won"] = self.won
        if self.penalty is not None:
            data["penalty"] = {"type": self.penalty.type, "seat": self.penalty.seat}
        if self.trump is not None:
            data["trump"] = self.trump
        return data
