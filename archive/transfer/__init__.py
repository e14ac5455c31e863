"""Move one tournament between databases as JSON: export it completely, import it under
new primary keys.

The export is generic: it walks every concrete model of the ``tournament``, ``scoring`` and
``prizes`` apps (:data:`APPS`), django-simple-history's historical models included, finds how each one belongs to a
tournament (a chain of foreign keys ending at :class:`~tournament.models.Tournament`), and
serializes the rows with Django's ``python`` serializer, so a field or model added later
travels without changes here.  Rows of the two apps that an exported row refers to without
belonging to a tournament themselves (players: a player may enter many tournaments) are
exported too.  Accounts (foreign keys to ``AUTH_USER_MODEL``: ``entered_by``,
``history_user`` …) are written as user names.

:func:`transfer_plan` is that walk; :func:`uncovered_models` names any model of the two
apps it cannot place (a test keeps the list empty, so a forgotten model fails the suite).

The file (``export_tournament`` returns it as a dict, ready for ``json.dump``)::

    {
      "format": "binokel-turnier/tournament",   # FORMAT
      "version": 1,                             # VERSION
      "exported_at": "2026-11-21T22:15:03.123456+00:00",
      "tournament": 3,                          # pk of the tournament record below
      "migrations": {"tournament": ["0001_initial", ...], "scoring": [...]},
      "counts": {"tournament.tournament": 1, "tournament.player": 30, ...},  # every model
      "objects": [                              # in import order (dependencies first)
        {"model": "tournament.tournament", "pk": 3, "fields": {"name": "...", ...}},
        {"model": "scoring.hand", "pk": 17,
         "fields": {"table": 5, "entered_by": "schreiber", "scores": [50, 320, 110], ...}},
        {"model": "scoring.historicalhand", "pk": 40,
         "fields": {"id": 17, "history_user": "leitung", "history_type": "~", ...}},
        ...
      ]
    }

``fields`` are Django's ``python`` serialization made JSON-safe: datetimes, dates and times
in ISO 8601 (microseconds kept), decimals as strings, foreign keys as the referenced row's
``pk`` in this file, accounts as user names, other models with a natural key as that key;
many-to-many fields as sorted lists of the same (e.g. ``"clerks": ["schreiber"]``).

An import (:func:`run_import`) trusts nothing in the file: it checks the file's form, loads
the ruleset with the engine's validation and its fingerprint, checks every value's type,
range and length and the model's own validation (``full_clean``), re-scores every hand with
the engine as hand entry does (``--rescore`` takes the engine's points instead of refusing),
checks seat scores and round totals, and never creates or grants an account: unknown user
names stay as text (``entered_by_name``, ``history_user_name`` …), the clerk list is only
reported.  Everything in one transaction: a refused file writes nothing.

Limits: a generic relation (content type + object id) is copied, not remapped; a model of
the two apps that can be reached neither from a tournament nor from an exported row is
reported by :func:`uncovered_models` and must be added to :data:`EXCLUDED` or linked.

The work is split by job: :mod:`~archive.transfer.plan` (what is exported, in which
order), :mod:`~archive.transfer.export` (writing the file),
:mod:`~archive.transfer.checks` (validating an incoming file),
:mod:`~archive.transfer.importer` (creating the rows) and
:mod:`~archive.transfer.rescore` (re-scoring the imported hands).  Every public name is
importable from here as before.
"""

from __future__ import annotations

from .checks import (
    BOUNDS,
    CONTROL_CHARACTERS,
    MAX_JSON_CHARS,
    MAX_TEXT_CHARS,
    SEAT_LISTS,
    YEARS,
    current_labels,
    summarize,
    validate,
)
from .export import export_tournament
from .importer import ImportReport, import_tournament, run_import
from .plan import (
    APPS,
    EXCLUDED,
    FORMAT,
    MOVED,
    VERSION,
    ModelPlan,
    TransferError,
    transfer_plan,
    uncovered_models,
)
from .rescore import SHOWN_DIFFERENCES, ScoreChange

__all__ = [
    "APPS",
    "BOUNDS",
    "CONTROL_CHARACTERS",
    "EXCLUDED",
    "FORMAT",
    "MAX_JSON_CHARS",
    "MAX_TEXT_CHARS",
    "MOVED",
    "SEAT_LISTS",
    "SHOWN_DIFFERENCES",
    "VERSION",
    "YEARS",
    "ImportReport",
    "ModelPlan",
    "ScoreChange",
    "TransferError",
    "current_labels",
    "export_tournament",
    "import_tournament",
    "run_import",
    "summarize",
    "transfer_plan",
    "uncovered_models",
    "validate",
]
