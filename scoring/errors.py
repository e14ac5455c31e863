"""The scoring app's exceptions, in one place.

A service refuses a write with :class:`EntryRefused` (who may not write here, or not now),
:class:`WriteRefused` (one form field's value may not be stored) or
:class:`ConfirmationRefused`; a concurrent change is :class:`StaleEntry` or
:class:`StaleTotals`.  The views turn each into its answer: a form error, a 409 with the
current values, or a refusal whose HTTP status follows :attr:`EntryRefused.reason`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Hand, RoundTotal


class EntryRefused(Exception):
    """Nobody may write this entry here now.  ``str()`` is the message for the person
    (German, or English through i18n); ``reason`` says why, so a view can answer with the
    right status instead of one "closed" for every refusal:

    - ``not_clerk``: the account is not one of the tournament's clerks or its director;
    - ``planned``: the round has not started;
    - ``closed``: the round is closed (only the director corrects it, with a reason);
    - ``reason_required``: the director's correction of a closed round has no reason;
    - ``wrong_mode``: the tournament enters round totals, not hands, or the other way;
    - ``off``: the tournament does not enter at the tables;
    - ``revoked``: the table link was replaced by a new one;
    - ``unknown``: there is no such table link;
    - ``wrong_table``: the hand belongs to another table than the link's.
    """

    def __init__(self, reason: str, message: str):
        self.reason = reason
        super().__init__(message)


class StaleEntry(Exception):
    """The hand was changed by someone else since the clerk loaded it."""

    def __init__(self, hand: Hand):
        self.hand = hand
        super().__init__(f"hand {hand.pk} is at version {hand.version}")


class WriteRefused(Exception):
    """A correction refused under the round's lock, with the message for one form field:
    ``field`` is the field, ``str()`` the German message (:func:`save_hand` returns it as
    an error of the evaluation)."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(message)


class RulingStands(WriteRefused):
    """A write would change what a director's ruling decided on a hand (security review,
    round 3, finding 4)."""


class ConfirmationRefused(Exception):
    """A confirmation that may not be given (own entry, nothing to confirm, or the
    tournament does not confirm entries); ``str()`` is the message for the user."""


class StaleTotals(Exception):
    """Round totals of the table were changed by someone else since the clerk loaded them;
    ``totals`` holds the current ones by table position, ``changed`` the positions whose
    version differs from the one the clerk loaded."""

    def __init__(self, totals: dict[int, RoundTotal], changed: list[int]):
        self.totals = totals
        self.changed = changed
        super().__init__("round totals changed meanwhile")
