"""Errors of the rules engine: each names the field it is about.

A :class:`FieldError` is a value, not an exception: validation collects all of them so a
clerk sees every problem of an entry at once.  ``field`` is the input key (``"bid"``,
``"tricks[2]"``, ``"lost.declarer.bid_factor"``), ``code`` a stable machine word the web app
translates (``"min_bid"``, ``"step"``, ``"sum"``, …), ``params`` the numbers the message
quotes, and ``message`` an English sentence for the command line and logs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class FieldError:
    """One problem with one input field (see the module docstring for the fields)."""

    field: str
    message: str
    code: str = "invalid"
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict[str, Any]:
        """``{"field": ..., "message": ...}``, the command line's error shape."""
        return {"field": self.field, "message": self.message}


class RulesError(ValueError):
    """Base of the engine's exceptions; ``errors`` lists every :class:`FieldError`."""

    def __init__(self, errors: list[FieldError]):
        self.errors = list(errors)
        super().__init__("; ".join(f"{e.field}: {e.message}" for e in self.errors))


class RulesetError(RulesError):
    """A ruleset that is malformed or not playable (raised when building one)."""


class InvalidInput(RulesError):
    """A hand record, a meld request or a play that fails validation."""
