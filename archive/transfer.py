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
"""

from __future__ import annotations

import datetime
import decimal
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import (
    NON_FIELD_ERRORS,
    FieldDoesNotExist,
    ObjectDoesNotExist,
    ValidationError,
)
from django.core.serializers.base import DeserializationError
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, models, transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Min, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.models import HistoricalChanges

from rules import Ruleset, RulesetError
from scoring import services
from scoring.links import new_token
from scoring.models import Hand, RoundTotal, SeatScore, TableLink
from tournament.engine_messages import ruleset_message
from tournament.models import Seat, Table, Tournament
from tournament.text import first_unstorable

FORMAT = "binokel-turnier/tournament"
VERSION = 1
APPS = ("tournament", "scoring", "prizes")
#: Models that moved to another app since exports began, old label → current label: a file
#: made before the move still imports (:func:`current_labels`).
MOVED: dict[str, str] = {
    "scoring.prize": "prizes.prize",
    "scoring.historicalprize": "prizes.historicalprize",
}

#: Models of :data:`APPS` deliberately left out of the export, by label, with the reason.
#: A model that is neither exported nor listed here makes :func:`uncovered_models` (and
#: its test) fail.
_SERIES_REASON = (
    "a series spans several tournaments, and the export carries one; after importing the "
    "evenings the director attaches them to a series again (/serie/neu/)"
)
EXCLUDED: dict[str, str] = {
    "tournament.Series": _SERIES_REASON,
    "tournament.Series_tournaments": _SERIES_REASON,
    "tournament.HistoricalSeries": _SERIES_REASON,
}


class TransferError(Exception):
    """Export or import refused; ``str()`` is a German message for the director.  An
    import that raises it has written nothing."""


@dataclass(frozen=True)
class ModelPlan:
    """How one model takes part in a transfer.

    ``owners``: foreign keys (field names) to models nearer the tournament; a row belongs
    to the tournament when one of them points at an exported row.  ``history_of``: for a
    django-simple-history historical model, the tracked model (a history without owners
    exports the records of the exported rows it tracks).  ``depth``: length of the shortest chain of foreign keys
    to the tournament (0 for the tournament); ``None`` for a *shared* model, one that does
    not belong to a tournament (players): its rows are exported because exported rows refer
    to them, and an import always creates new ones.
    """

    model: type[models.Model]
    owners: tuple[str, ...] = ()
    history_of: type[models.Model] | None = None
    depth: int | None = None

    @property
    def label(self) -> str:
        return self.model._meta.label_lower

    @property
    def shared(self) -> bool:
        return self.depth is None


# --------------------------------------------------------------------------- the plan


def _app_models() -> list[type[models.Model]]:
    """Concrete models of :data:`APPS`, without auto-created many-to-many tables."""
    return [
        model
        for app in APPS
        for model in apps.get_app_config(app).get_models()
        if not model._meta.proxy and model._meta.label not in EXCLUDED
    ]


def _foreign_keys(model: type[models.Model]) -> list[models.ForeignKey]:
    return [f for f in model._meta.concrete_fields if f.is_relation and f.related_model]


def _many_to_many(model: type[models.Model]) -> list[models.ManyToManyField]:
    return [f for f in model._meta.local_many_to_many if f.remote_field.through._meta.auto_created]


def _tracked(model: type[models.Model]) -> type[models.Model] | None:
    """The model a django-simple-history historical model records, else ``None``."""
    if issubclass(model, HistoricalChanges):
        return getattr(model, "instance_type", None)
    return None


def _depths(candidates: list[type[models.Model]]) -> dict[type[models.Model], int]:
    """Length of the shortest chain of foreign keys (or history links) from each model to
    :class:`Tournament`; models without one are missing."""
    depth: dict[type[models.Model], int] = {Tournament: 0}
    changed = True
    while changed:
        changed = False
        for model in candidates:
            links = [f.related_model for f in _foreign_keys(model)]
            if (tracked := _tracked(model)) is not None:
                links.append(tracked)
            best = min((depth[t] + 1 for t in links if t in depth), default=None)
            if best is not None and best < depth.get(model, best + 1):
                depth[model] = best
                changed = True
    return depth


def _referenced(
    exported: set[type[models.Model]], candidates: list[type[models.Model]]
) -> list[type[models.Model]]:
    """Models of ``candidates`` that exported rows refer to (or whose rows a historical
    model records), found transitively; referring models come before referred ones."""
    shared: list[type[models.Model]] = []
    frontier = list(exported)
    while frontier:
        model = frontier.pop(0)
        targets = [f.related_model for f in _foreign_keys(model)]
        targets += [f.related_model for f in _many_to_many(model)]
        for target in targets:
            if target in candidates and target not in exported and target not in shared:
                shared.append(target)
                frontier.append(target)
        for history in candidates:
            if _tracked(history) in shared and history not in shared:
                shared.append(history)
                frontier.append(history)
    return shared


def _check_outside_references(plan_models: set[type[models.Model]]) -> None:
    """Refuse models whose foreign keys point outside the plan at something that is neither
    an account nor a model with a natural key (nothing to write into the file for it)."""
    user_model = get_user_model()
    for model in plan_models:
        for f in _foreign_keys(model) + _many_to_many(model):
            target = f.related_model
            if target in plan_models or target is user_model:
                continue
            if not hasattr(target, "natural_key"):
                raise TransferError(
                    _(
                        "%(model)s.%(field)s verweist auf %(target)s; das lässt sich nicht übertragen."
                    )
                    % {"model": model._meta.label, "field": f.name, "target": target._meta.label}
                )


def _import_order(entries: list[ModelPlan]) -> list[ModelPlan]:
    """``entries`` with every model after the models it refers to (a nullable reference may
    be broken to resolve a cycle: the import fills it in afterwards)."""
    by_model = {e.model: e for e in entries}
    hard: dict[type[models.Model], set] = {e.model: set() for e in entries}
    soft: dict[type[models.Model], set] = {e.model: set() for e in entries}
    for e in entries:
        for f in _foreign_keys(e.model):
            if f.related_model in by_model and f.related_model is not e.model:
                (soft if f.null else hard)[e.model].add(f.related_model)
        if e.history_of in by_model:
            soft[e.model].add(e.history_of)
    ordered: list[ModelPlan] = []
    done: set[type[models.Model]] = set()
    remaining = [e.model for e in entries]
    use_soft = True
    while remaining:
        ready = [m for m in remaining if hard[m] <= done and (not use_soft or soft[m] <= done)]
        if not ready:
            if not use_soft:
                names = ", ".join(m._meta.label for m in remaining)
                raise TransferError(
                    _("Zirkuläre Verweise zwischen %(models)s; Übertragung nicht möglich.")
                    % {"models": names}
                )
            use_soft = False
            continue
        for model in ready:
            ordered.append(by_model[model])
            done.add(model)
            remaining.remove(model)
        use_soft = True
    return ordered


def transfer_plan() -> list[ModelPlan]:
    """Every model a tournament export contains, in import order (a model after the models
    it refers to; a tracked model before its history).  Raises :class:`TransferError` when
    a model refers to something outside the plan that cannot be written to the file."""
    candidates = _app_models()
    depth = _depths(candidates)
    entries: list[ModelPlan] = []
    for model in candidates:
        if model not in depth:
            continue
        owners = tuple(
            f.name
            for f in _foreign_keys(model)
            if f.related_model in depth and depth[f.related_model] < depth[model]
        )
        entries.append(ModelPlan(model, owners, _tracked(model), depth[model]))
    for model in _referenced({e.model for e in entries}, candidates):
        entries.append(ModelPlan(model, history_of=_tracked(model)))
    _check_outside_references({e.model for e in entries})
    return _import_order(entries)


def uncovered_models() -> list[str]:
    """Labels of concrete models of :data:`APPS` (historical ones included) that an export
    would leave out without being listed in :data:`EXCLUDED`; empty when all is covered."""
    covered = {e.model for e in transfer_plan()}
    missing = []
    for app in APPS:
        for model in apps.get_app_config(app).get_models(include_auto_created=True):
            if model._meta.proxy or model._meta.label in EXCLUDED or model in covered:
                continue
            through_of = [
                m for m in covered for f in _many_to_many(m) if f.remote_field.through is model
            ]
            if not through_of:
                missing.append(model._meta.label)
    return sorted(missing)


# --------------------------------------------------------------------------- export


def _selection(
    tournament: Tournament, plan: list[ModelPlan], using: str
) -> dict[type, models.QuerySet]:
    """For each model of ``plan``, the (lazy) queryset of the rows ``tournament`` owns or
    exported rows refer to."""
    selected: dict[type[models.Model], models.QuerySet] = {
        Tournament: Tournament._base_manager.db_manager(using).filter(pk=tournament.pk)
    }

    def rows(model, condition: Q) -> models.QuerySet:
        return model._base_manager.db_manager(using).filter(condition)

    def history_link(entry: ModelPlan) -> Q:
        if entry.history_of in selected:
            attname = entry.history_of._meta.pk.attname
            return Q(**{f"{attname}__in": selected[entry.history_of].values("pk")})
        return Q(pk__in=[])

    owned = sorted(
        (e for e in plan if not e.shared and e.model is not Tournament),
        key=lambda e: (e.depth, e.history_of is not None),
    )
    for entry in owned:
        # a history with its own foreign keys to the tournament's rows goes by those (so it
        # keeps records of deleted rows and never picks up another tournament's records of a
        # reused id); one without goes by the ids of the rows it tracks
        condition = Q(pk__in=[]) if entry.owners else history_link(entry)
        for name in entry.owners:
            target = entry.model._meta.get_field(name).related_model
            condition |= Q(**{f"{name}__in": selected[target].values("pk")})
        selected[entry.model] = rows(entry.model, condition)

    # referring models first (import order reversed), histories after what they track
    shared = sorted(reversed([e for e in plan if e.shared]), key=lambda e: bool(e.history_of))
    for entry in shared:
        condition = history_link(entry)
        for model, queryset in list(selected.items()):
            for f in _foreign_keys(model):
                if f.related_model is entry.model:
                    condition |= Q(pk__in=queryset.values(f.attname))
            for f in _many_to_many(model):
                if f.related_model is entry.model:
                    condition |= Q(pk__in=queryset.values(f.name))
        selected[entry.model] = rows(entry.model, condition)
    return selected


def _jsonable(value):
    """A serialized field value as JSON can hold it (ISO 8601 with microseconds, decimals
    as strings); :meth:`Field.to_python` reads each back."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return str(value)
    return value


class _OutsideKeys:
    """Accounts as user names, other models outside the plan by natural key."""

    def __init__(self, using: str):
        self.using = using
        self.user_model = get_user_model()
        self.wanted: dict[type[models.Model], set] = defaultdict(set)
        self.keys: dict[type[models.Model], dict] = {}

    def want(self, target, value) -> None:
        if value is not None:
            self.wanted[target].add(value)

    def load(self) -> None:
        for target, pks in self.wanted.items():
            rows = target._base_manager.db_manager(self.using).filter(pk__in=pks)
            if target is self.user_model:
                self.keys[target] = {u.pk: u.get_username() for u in rows}
            else:
                self.keys[target] = {row.pk: list(row.natural_key()) for row in rows}

    def key(self, target, value):
        return None if value is None else self.keys[target].get(value)


def export_tournament(tournament: Tournament, using: str = DEFAULT_DB_ALIAS) -> dict:
    """The complete ``tournament`` as a JSON-ready dict (shape in the module docstring):
    every row of :func:`transfer_plan`'s models that belongs to it or that its rows refer to.

    Raises :class:`TransferError` when a model cannot be transferred or a row refers to one
    that is not exported (a foreign key into another tournament).
    """
    plan = transfer_plan()
    selected = _selection(tournament, plan, using)
    planned = {e.model for e in plan}
    outside = _OutsideKeys(using)
    records: list[tuple[ModelPlan, list[dict]]] = []
    for entry in plan:
        queryset = selected[entry.model].order_by("pk")
        rows = serializers.serialize("python", queryset)
        for row in rows:
            for f in _foreign_keys(entry.model) + _many_to_many(entry.model):
                if f.related_model not in planned and f.name in row["fields"]:
                    values = row["fields"][f.name]
                    for value in values if f.many_to_many else [values]:
                        outside.want(f.related_model, value)
        records.append((entry, rows))
    outside.load()

    exported_pks = {entry.model: {row["pk"] for row in rows} for entry, rows in records}
    objects = []
    for entry, rows in records:
        for row in rows:
            fields = row["fields"]
            for f in _foreign_keys(entry.model) + _many_to_many(entry.model):
                if f.name not in fields:
                    continue
                value = fields[f.name]
                if f.related_model in planned:
                    if f.many_to_many:
                        fields[f.name] = value = sorted(value, key=str)
                    missing = [
                        v
                        for v in (value if f.many_to_many else [value])
                        if v is not None and v not in exported_pks[f.related_model]
                    ]
                    if missing and getattr(f, "db_constraint", True):
                        raise TransferError(
                            _(
                                "%(model)s %(pk)s verweist über %(field)s auf einen Datensatz, "
                                "der nicht zu diesem Turnier gehört."
                            )
                            % {"model": entry.label, "pk": row["pk"], "field": f.name}
                        )
                elif f.many_to_many:
                    fields[f.name] = sorted(
                        (outside.key(f.related_model, v) for v in value), key=str
                    )
                else:
                    key = outside.key(f.related_model, value)
                    if key is None and value is not None and not f.null:
                        raise TransferError(
                            _(
                                "%(model)s %(pk)s: %(field)s verweist auf %(target)s %(value)s, das es nicht gibt."
                            )
                            % {
                                "model": entry.label,
                                "pk": row["pk"],
                                "field": f.name,
                                "target": f.related_model._meta.label_lower,
                                "value": value,
                            }
                        )
                    fields[f.name] = key
            objects.append(
                {
                    "model": entry.label,
                    "pk": _jsonable(row["pk"]),
                    "fields": {name: _jsonable(v) for name, v in fields.items()},
                }
            )
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": tournament.pk,
        "migrations": _applied_migrations(using),
        "counts": {entry.label: len(rows) for entry, rows in records},
        "objects": objects,
    }


def _applied_migrations(using: str) -> dict[str, list[str]]:
    applied = MigrationRecorder(connections[using]).applied_migrations()
    return {app: sorted(name for a, name in applied if a == app) for app in APPS}


# --------------------------------------------------------------------------- import


def summarize(data: dict) -> Counter:
    """Rows per model label in an export (as :func:`export_tournament` returns it)."""
    return Counter(
        obj["model"]
        for obj in _objects(data)
        if isinstance(obj, dict) and isinstance(obj.get("model"), str)
    )


def current_labels(data):
    """``data`` with the model labels of :data:`MOVED` replaced by today's, in ``objects``
    and ``counts`` (a new dict; ``data`` is not changed).  Anything that is not an export's
    shape is returned as it is, for :func:`validate` to refuse."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    objects, counts = data.get("objects"), data.get("counts")
    if isinstance(objects, list):
        out["objects"] = [
            {**obj, "model": MOVED[obj["model"]]}
            if isinstance(obj, dict) and obj.get("model") in MOVED
            else obj
            for obj in objects
        ]
    if isinstance(counts, dict):
        out["counts"] = {MOVED.get(label, label): n for label, n in counts.items()}
    return out


def _objects(data) -> list:
    objects = data.get("objects") if isinstance(data, dict) else None
    return objects if isinstance(objects, list) else []


def _refuse(message: str, **params) -> TransferError:
    return TransferError(message % params if params else message)


def validate(data, using: str = DEFAULT_DB_ALIAS) -> dict[str, ModelPlan]:
    """Check that ``data`` is an export this program can import into ``using``: format
    marker and version, the keys of the module docstring, one tournament, known models and
    fields, the counts, and migrations the database has.  Returns the plan by model label.
    Raises :class:`TransferError` (German) for the first problem found; writes nothing."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _refuse(_("Die Datei ist kein Turnier-Export dieses Programms (Kennung fehlt)."))
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version != VERSION:
        raise _refuse(
            _(
                "Die Datei hat die Formatversion %(found)s; dieses Programm liest nur "
                "Version %(version)s."
            ),
            found=version,
            version=VERSION,
        )
    missing = [k for k in ("tournament", "migrations", "counts", "objects") if k not in data]
    if missing:
        raise _refuse(
            _("Der Datei fehlen Angaben: %(keys)s. Ist sie unvollständig?"),
            keys=", ".join(missing),
        )
    objects, counts = data["objects"], data["counts"]
    if not isinstance(objects, list) or not isinstance(counts, dict):
        raise _refuse(_("Die Datei ist beschädigt: »objects« oder »counts« hat die falsche Form."))
    plan = {e.label: e for e in transfer_plan()}
    for obj in objects:
        if not (
            isinstance(obj, dict)
            and isinstance(obj.get("model"), str)
            and isinstance(obj.get("pk"), int | str)
            and not isinstance(obj.get("pk"), bool)
            and isinstance(obj.get("fields"), dict)
        ):
            raise _refuse(
                _("Die Datei ist beschädigt: ein Eintrag hat nicht model, pk und fields.")
            )
        entry = plan.get(obj["model"])
        if entry is None:
            raise _refuse(
                _("Die Datei enthält »%(model)s«, das hier nicht importiert werden kann."),
                model=obj["model"],
            )
        known = {f.name for f in entry.model._meta.concrete_fields if f.serialize}
        known |= {f.name for f in _many_to_many(entry.model)}
        unknown = sorted(set(obj["fields"]) - known)
        if unknown:
            raise _refuse(
                _(
                    "%(model)s hat in der Datei Felder, die diese Programmversion nicht kennt: "
                    "%(fields)s. Erst das Programm aktualisieren."
                ),
                model=obj["model"],
                fields=", ".join(unknown),
            )
    found = summarize(data)
    if {k: v for k, v in counts.items() if v} != dict(found):
        raise _refuse(_("Die Datei ist unvollständig: die Zahl der Datensätze stimmt nicht."))
    tournaments = [o for o in objects if o["model"] == Tournament._meta.label_lower]
    if len(tournaments) != 1 or tournaments[0]["pk"] != data["tournament"]:
        raise _refuse(_("Die Datei muss genau ein Turnier enthalten."))
    migrations = data["migrations"]
    if not isinstance(migrations, dict):
        raise _refuse(_("Die Datei ist beschädigt: »migrations« hat die falsche Form."))
    applied = set(MigrationRecorder(connections[using]).applied_migrations())
    for app, names in migrations.items():
        names = names if isinstance(names, list) else [names]
        if not all(isinstance(name, str) for name in names):
            raise _refuse(
                _("Die Datei ist beschädigt: »migrations« von %(app)s hat die falsche Form."),
                app=app,
            )
        for name in names:
            if (app, name) not in applied:
                raise _refuse(
                    _(
                        "Der Datenbank fehlt die Migration %(app)s.%(name)s, mit der die Datei "
                        "geschrieben wurde: zuerst »manage.py migrate« ausführen (kennt dieses "
                        "Programm sie nicht, erst das Programm aktualisieren)."
                    ),
                    app=app,
                    name=name,
                )
    return plan


# --------------------------------------------------------------------------- content checks

#: Bounds on numbers beyond what the database can hold, by model label and field: what
#: the set-up and entry forms accept (tournament/forms.py, scoring/forms.py) with room to
#: spare.  A historical model is checked with the bounds of the model it tracks.
BOUNDS: dict[str, dict[str, tuple[int, int]]] = {
    "tournament.tournament": {
        "rounds": (1, 10),
        "games_per_round": (1, 60),
        "lost_game_fee_from": (1, 600),
    },
    "tournament.registration": {
        "start_number": (1, 99_999),
        "first_round": (1, 99),
        "withdrawn_after_round": (0, 99),
        "pair": (1, 50_000),
    },
    "tournament.round": {"number": (1, 10)},
    "tournament.table": {"number": (1, 10_000), "first_dealer": (0, 3), "scorer": (0, 3)},
    "tournament.seat": {"position": (0, 3)},
    "scoring.hand": {
        "number": (1, 60),
        "dealer": (0, 3),
        "declarer": (0, 3),
        "bid": (0, 100_000),
        "penalty_seat": (0, 3),
        "version": (1, 1_000_000),
    },
    "scoring.seatscore": {"round_number": (1, 10)},
    "scoring.roundtotal": {"games_won": (0, 60), "games_lost": (0, 60), "version": (1, 1_000_000)},
    "scoring.ruling": {"hand_number": (1, 60), "offender": (0, 3), "hand_version": (1, 1_000_000)},
}
#: The longest JSON value (characters of its JSON text) any field may hold: a ruleset is
#: a few kilobytes, a hand's per-seat lists a few dozen characters.
MAX_JSON_CHARS = 100_000
#: Longest text of a field without a ``max_length`` (change reasons, long texts).
MAX_TEXT_CHARS = 10_000
#: How many differing hands a refusal names.
SHOWN_DIFFERENCES = 5
#: Control characters no typed text holds (tab, line feed and carriage return are allowed);
#: spreadsheets cannot store them.
CONTROL_CHARACTERS = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: Years a date or time stamp in the file may have.
YEARS = (1900, 2999)
#: Per-seat lists of a hand: at most four seats, each an integer (or null).
SEAT_LISTS = ("melds", "tricks", "scores")
_INT_RANGES = BaseDatabaseOperations.integer_field_ranges


def _verbose(model: type[models.Model]) -> str:
    return str(model._meta.verbose_name)


def _where(entry: ModelPlan, old_pk) -> str:
    """Names one row of the file for a message: model label and the pk in the file."""
    return f"{entry.label} {old_pk}"


def _field_error(entry: ModelPlan, old_pk, field_name: str, message) -> TransferError:
    return _refuse(
        _("%(row)s, Feld »%(field)s«: %(problem)s"),
        row=_where(entry, old_pk),
        field=field_name,
        problem=message,
    )


def _strings(value):
    """Every string inside a JSON value (keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)


def _check_field_types(entry: ModelPlan, old_pk, fields: dict) -> None:
    """Each value of ``fields`` (one row as in the file, before references are resolved)
    has the JSON type its field stores, within the column's range and :data:`BOUNDS`, a
    text within its length and without NUL (PostgreSQL refuses it).  Raises
    :class:`TransferError` naming row and field."""
    label = entry.history_of._meta.label_lower if entry.history_of else entry.label
    bounds = BOUNDS.get(label, {})
    for f in entry.model._meta.concrete_fields:
        if f.name not in fields or f.is_relation:
            continue
        value = fields[f.name]
        if value is None:
            if not f.null:
                raise _field_error(entry, old_pk, f.name, _("darf nicht leer sein."))
            continue
        internal = f.get_internal_type()
        if isinstance(f, models.JSONField):
            try:
                text = json.dumps(value, allow_nan=False)
            except (TypeError, ValueError) as exc:
                raise _field_error(entry, old_pk, f.name, _("kein gültiges JSON.")) from exc
            if len(text) > MAX_JSON_CHARS:
                raise _field_error(
                    entry,
                    old_pk,
                    f.name,
                    _("zu lang (mehr als %(n)s Zeichen).") % {"n": MAX_JSON_CHARS},
                )
            if any("\x00" in s for s in _strings(value)):
                raise _field_error(entry, old_pk, f.name, _("enthält ein Nullzeichen."))
            if f.name in SEAT_LISTS and label == "scoring.hand":
                _check_seat_list(entry, old_pk, f.name, value)
        elif internal in _INT_RANGES:
            if not isinstance(value, int) or isinstance(value, bool):
                raise _field_error(entry, old_pk, f.name, _("muss eine ganze Zahl sein."))
            low, high = bounds.get(f.name, _INT_RANGES[internal])
            low, high = max(low, _INT_RANGES[internal][0]), min(high, _INT_RANGES[internal][1])
            if not low <= value <= high:
                raise _field_error(
                    entry,
                    old_pk,
                    f.name,
                    _("%(value)s liegt nicht zwischen %(low)s und %(high)s.")
                    % {"value": value, "low": low, "high": high},
                )
        elif isinstance(f, models.BooleanField):
            if not isinstance(value, bool):
                raise _field_error(entry, old_pk, f.name, _("muss true oder false sein."))
        elif isinstance(f, models.CharField | models.TextField):
            if not isinstance(value, str):
                raise _field_error(entry, old_pk, f.name, _("muss ein Text sein."))
            limit = f.max_length or MAX_TEXT_CHARS
            if len(value) > limit:
                raise _field_error(
                    entry,
                    old_pk,
                    f.name,
                    _("zu lang: %(length)s Zeichen, höchstens %(limit)s.")
                    % {"length": len(value), "limit": limit},
                )
            if "\x00" in value:
                raise _field_error(entry, old_pk, f.name, _("enthält ein Nullzeichen."))
            if CONTROL_CHARACTERS.search(value):
                raise _field_error(entry, old_pk, f.name, _("enthält ein Steuerzeichen."))
            unstorable = first_unstorable(value)
            if unstorable:
                raise _field_error(
                    entry,
                    old_pk,
                    f.name,
                    _("enthält das Zeichen %(code)s, das keine Datei speichern kann.")
                    % {"code": unstorable},
                )
        elif isinstance(f, models.DateField | models.TimeField | models.DecimalField):
            if not isinstance(value, str) or len(value) > 64:
                raise _field_error(entry, old_pk, f.name, _("hat die falsche Form."))
            if isinstance(f, models.DateField):  # DateTimeField included
                try:
                    parsed = f.to_python(value)
                except ValidationError as exc:
                    raise _field_error(entry, old_pk, f.name, " ".join(exc.messages)) from exc
                if parsed is not None and not YEARS[0] <= parsed.year <= YEARS[1]:
                    # far dates overflow when a page converts them to local time
                    raise _field_error(
                        entry,
                        old_pk,
                        f.name,
                        _("das Jahr muss zwischen %(low)s und %(high)s liegen.")
                        % {"low": YEARS[0], "high": YEARS[1]},
                    )


def _check_seat_list(entry: ModelPlan, old_pk, name: str, value) -> None:
    """A hand's ``melds``/``tricks``/``scores``: a list of at most four integers (or null),
    each within what an integer column holds."""
    low, high = _INT_RANGES["IntegerField"]
    if not isinstance(value, list) or len(value) > 4:
        raise _field_error(entry, old_pk, name, _("muss eine Liste mit höchstens 4 Werten sein."))
    for item in value:
        if item is None and name != "scores":
            continue
        if not isinstance(item, int) or isinstance(item, bool) or not low <= item <= high:
            raise _field_error(entry, old_pk, name, _("muss ganze Zahlen enthalten."))


def _check_ruleset(fields: dict) -> None:
    """The tournament's frozen ruleset loads with the engine's own validation
    (:meth:`rules.Ruleset.from_dict`, which also checks a fingerprint inside the JSON) and
    its fingerprint is the one the tournament row records.  Raises :class:`TransferError`."""
    try:
        ruleset = Ruleset.from_dict(fields.get("ruleset_json"))
    except RulesetError as exc:
        problems = "; ".join(ruleset_message(e) for e in exc.errors[:5])
        raise _refuse(
            _("Das Regelwerk des Turniers in der Datei ist ungültig: %(problems)s"),
            problems=problems,
        ) from exc
    except (TypeError, ValueError, AttributeError, RecursionError) as exc:
        raise _refuse(
            _("Das Regelwerk des Turniers in der Datei ist ungültig: %(problems)s"),
            problems=type(exc).__name__,
        ) from exc
    if fields.get("ruleset_fingerprint") != ruleset.fingerprint:
        raise _refuse(
            _(
                "Der Fingerabdruck des Regelwerks in der Datei (%(stored)s) passt nicht zu "
                "seinem Inhalt (%(actual)s): das Regelwerk wurde verändert."
            ),
            stored=fields.get("ruleset_fingerprint"),
            actual=ruleset.fingerprint,
        )


@dataclass(frozen=True)
class ScoreChange:
    """A hand (or one version of it in the history, ``version`` set) whose points in the
    file differ from what the engine computes from its record: ``stored`` and ``engine``
    are game points by table position."""

    round: int
    table: int
    number: int
    stored: object
    engine: list[int]
    version: int | None = None

    def __str__(self) -> str:
        where = _("Runde %(round)s, Tisch %(table)s, Spiel %(number)s") % {
            "round": self.round,
            "table": self.table,
            "number": self.number,
        }
        if self.version is not None:
            where += " " + _("(Fassung %(v)s im Verlauf)") % {"v": self.version}
        stored = (
            " / ".join(str(p) for p in self.stored)
            if isinstance(self.stored, list)
            else str(self.stored)
        )
        return _("%(where)s: in der Datei %(stored)s, nach den Regeln %(engine)s") % {
            "where": where,
            "stored": stored,
            "engine": " / ".join(str(p) for p in self.engine),
        }


@dataclass
class ImportReport:
    """What :func:`run_import` did: the new ``tournament``; ``clerks``: user names the
    file lists as the tournament's clerks (never granted by the import: the director gives
    the rights by hand); ``unknown_users``: user names the file names that this database
    has no account for (kept as text on the rows); ``rescored``: hands whose points were
    replaced by the engine's (only with ``rescore=True``)."""

    tournament: Tournament
    clerks: list[str]
    unknown_users: list[str]
    rescored: list[ScoreChange]


# --------------------------------------------------------------------------- import


class _Importer:
    """One import: old → new primary keys per model, accounts by user name, references
    that must wait for a later row."""

    def __init__(self, plan: dict[str, ModelPlan], objects: list[dict], using: str):
        self.plan = plan
        self.using = using
        self.user_model = get_user_model()
        self.new_pk: dict[type[models.Model], dict] = defaultdict(dict)
        self.in_file: dict[type[models.Model], set] = defaultdict(set)
        for obj in objects:
            self.in_file[plan[obj["model"]].model].add(obj["pk"])
        self.users: dict[str, object] = {}
        self.unknown_users: set[str] = set()
        self.clerks: set[str] = set()
        self.lost_ids: dict[type[models.Model], dict] = defaultdict(dict)
        self.next_lost_id: dict[type[models.Model], int] = {}
        self.pending: list[tuple[type[models.Model], object, str, type[models.Model], object]] = []

    def user(self, entry: ModelPlan, old_pk, f, username) -> object:
        """The pk of the account ``username``, or ``None`` when this database has none (the
        caller keeps the name as text).  Never creates an account."""
        if username is None:
            return None
        if not isinstance(username, str) or not username or len(username) > 150:
            raise _refuse(
                _("%(row)s, Feld »%(field)s«: ungültiger Benutzername in der Datei: %(name)r."),
                row=_where(entry, old_pk),
                field=f.name,
                name=username if not isinstance(username, str) else username[:40],
            )
        if username not in self.users:
            manager = self.user_model._default_manager.db_manager(self.using)
            try:
                self.users[username] = manager.get_by_natural_key(username).pk
            except self.user_model.DoesNotExist:
                self.users[username] = None
                self.unknown_users.add(username)
        return self.users[username]

    def natural(self, target, key) -> object:
        if key is None:
            return None
        try:
            manager = target._default_manager.db_manager(self.using)
            return manager.get_by_natural_key(*key).pk
        except (ObjectDoesNotExist, TypeError) as exc:
            raise _refuse(
                _("%(target)s »%(key)s« gibt es in dieser Datenbank nicht."),
                target=target._meta.verbose_name,
                key=key,
            ) from exc

    def reference(self, entry: ModelPlan, old_pk, f, value):
        """The new value of foreign key ``f`` (old value ``value``) of a row of ``entry``."""
        target = f.related_model
        if value is None:
            return None
        if not isinstance(value, int | str) or isinstance(value, bool):
            raise self.missing(entry, old_pk, f, value)
        if target._meta.label_lower not in self.plan:
            return self.natural(target, value)
        if value in self.new_pk[target]:
            return self.new_pk[target][value]
        if value in self.in_file[target] and f.null:
            self.pending.append((entry.model, old_pk, f.attname, target, value))
            return None
        if value not in self.in_file[target] and f.null and not f.db_constraint:
            return None  # history of a row deleted before the export: nothing to point at
        raise self.missing(entry, old_pk, f, value)

    def missing(self, entry: ModelPlan, old_pk, f, value):
        """The error for row ``old_pk`` of ``entry`` whose field ``f`` points at ``value``,
        a row that is neither in the file nor in this database."""
        target = f.related_model
        return _refuse(
            _("%(model)s %(pk)s verweist über %(field)s auf %(target)s %(value)s, das fehlt."),
            model=entry.label,
            pk=old_pk,
            field=f.name,
            target=target._meta.label_lower,
            value=str(value)[:40],
        )

    def tracked_id(self, entry: ModelPlan, value):
        """The new id of the row a historical record tracks.  A row deleted before the
        export keeps its history under a negative id, which no row will ever have."""
        tracked = entry.history_of
        if value is None:
            return None
        if value in self.new_pk[tracked]:
            return self.new_pk[tracked][value]
        lost = self.lost_ids[entry.model]
        if value not in lost:
            if entry.model not in self.next_lost_id:
                attname = tracked._meta.pk.attname
                lowest = entry.model._base_manager.using(self.using).aggregate(m=Min(attname))["m"]
                self.next_lost_id[entry.model] = min(0, lowest or 0) - 1
            lost[value] = self.next_lost_id[entry.model]
            self.next_lost_id[entry.model] -= 1
        return lost[value]

    def accounts(self, entry: ModelPlan, old_pk, fields: dict) -> None:
        """Resolve the account fields of one row in place: a known user name links the
        account, an unknown one stays as text in ``<field>_name``; a list of accounts (the
        tournament's clerks) is emptied and remembered for the report."""
        model = entry.model
        for f in _foreign_keys(model):
            if f.related_model is not self.user_model or f.name not in fields:
                continue
            name = fields[f.name]
            fields[f.name] = pk = self.user(entry, old_pk, f, name)
            if pk is None and name is not None:
                text_field = f"{f.name}_name"
                try:
                    model._meta.get_field(text_field)
                except FieldDoesNotExist as exc:
                    if f.null:
                        # no text twin, but the account may be missing (a link's maker):
                        # left empty, and the report names the unknown account
                        continue
                    raise _refuse(
                        _(
                            "%(row)s, Feld »%(field)s«: das Konto »%(name)s« gibt es in dieser "
                            "Datenbank nicht."
                        ),
                        row=_where(entry, old_pk),
                        field=f.name,
                        name=name,
                    ) from exc
                fields[text_field] = name
        for f in _many_to_many(model):
            if f.related_model is self.user_model and f.name in fields:
                names = fields[f.name]
                if not isinstance(names, list):
                    raise _field_error(entry, old_pk, f.name, _("muss eine Liste sein."))
                for name in names:
                    self.user(entry, old_pk, f, name)  # checks the form of the name
                self.clerks.update(names)
                fields[f.name] = []

    def add(self, obj: dict) -> None:
        entry = self.plan[obj["model"]]
        model, old_pk = entry.model, obj["pk"]
        fields = dict(obj["fields"])
        _check_field_types(entry, old_pk, fields)
        self.accounts(entry, old_pk, fields)
        pending_before = len(self.pending)
        for f in _foreign_keys(model):
            if f.name in fields and f.related_model is not self.user_model:
                fields[f.name] = self.reference(entry, old_pk, f, fields[f.name])
        for f in _many_to_many(model):
            if f.name in fields and f.related_model is not self.user_model:
                values = fields[f.name]
                if not isinstance(values, list):
                    raise _field_error(entry, old_pk, f.name, _("muss eine Liste sein."))
                fields[f.name] = [self.m2m_value(entry, old_pk, f, v) for v in values]
        if entry.history_of is not None:
            attname = entry.history_of._meta.pk.attname
            if attname in fields:
                fields[attname] = self.tracked_id(entry, fields[attname])
        if model is TableLink and "token" in fields:
            # the copy gets links of its own: a table's printed QR code opens the original
            fields["token"] = new_token()
        waiting = {p[2] for p in self.pending[pending_before:]}
        payload = {"model": obj["model"], "pk": None, "fields": fields}
        for deserialized in serializers.deserialize("python", [payload], using=self.using):
            row = deserialized.object
            self.clean(entry, old_pk, row, waiting)
            deserialized.save(using=self.using)
            self.new_pk[model][old_pk] = row.pk

    def clean(self, entry: ModelPlan, old_pk, row: models.Model, waiting: set[str]) -> None:
        """The model's own validation (``full_clean``: field validators, choices, unique
        and check constraints) for one row before it is written; references still waiting
        for a later row are left out.  Raises :class:`TransferError` naming row and field."""
        exclude = {
            f.name
            for f in entry.model._meta.concrete_fields
            if f.attname in waiting or (f.null and getattr(row, f.attname) is None)
        }
        if entry.history_of is not None:
            # a history row repeats its tracked row's unique values in every version
            exclude |= {entry.history_of._meta.pk.attname}
            validate_unique = False
        else:
            validate_unique = True
        try:
            row.full_clean(exclude=exclude, validate_unique=validate_unique)
        except ValidationError as exc:
            details = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
            name, messages = next(iter(details.items()))
            name = "" if name == NON_FIELD_ERRORS else name
            raise _refuse(
                _("%(row)s (%(model)s), Feld »%(field)s«: %(messages)s"),
                row=_where(entry, old_pk),
                model=_verbose(entry.model),
                field=name or "–",
                messages=" ".join(str(m) for m in messages),
            ) from exc

    def m2m_value(self, entry, old_pk, f, value):
        target = f.related_model
        if target._meta.label_lower not in self.plan:
            return self.natural(target, value)
        if value not in self.new_pk[target]:
            raise self.missing(entry, old_pk, f, value)
        return self.new_pk[target][value]

    def finish(self) -> None:
        """Fill in references that had to wait for a later row."""
        for model, old_pk, attname, target, value in self.pending:
            model._base_manager.using(self.using).filter(pk=self.new_pk[model][old_pk]).update(
                **{attname: self.new_pk[target][value]}
            )


# --------------------------------------------------------------------------- re-scoring


def _table_sizes(tournament: Tournament, using: str) -> dict[int, list[Seat]]:
    """Seats of every table of ``tournament`` by table id, in position order, after
    checking that each table has 3 or 4 seats (as its ruleset allows) at positions 0 … n-1,
    all of the table's round, and first dealer and scorer among them."""
    ruleset = tournament.ruleset
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.using(using)
        .filter(round__tournament=tournament)
        .select_related("table__round", "registration")
        .order_by("table_id", "position")
    ):
        seats[seat.table_id].append(seat)
    tables = Table.objects.using(using).filter(round__tournament=tournament)
    for table in tables.select_related("round"):
        at_table = seats.get(table.pk, [])
        where = _("Runde %(round)s, Tisch %(table)s") % {
            "round": table.round.number,
            "table": table.number,
        }
        size = len(at_table)
        if not at_table:
            continue  # a table without players: nothing is entered there
        if [s.position for s in at_table] != list(range(size)) or (
            size not in ruleset.seat_counts and size not in (3, 4)
        ):
            raise _refuse(_("%(where)s: die Plätze sind ungültig."), where=where)
        if any(s.round_id != table.round_id for s in at_table):
            raise _refuse(_("%(where)s: ein Platz gehört zu einer anderen Runde."), where=where)
        if table.first_dealer >= size or table.scorer >= size:
            raise _refuse(
                _("%(where)s: erster Geber oder Schreiber sitzt nicht am Tisch."), where=where
            )
        if any(s.registration.tournament_id != tournament.pk for s in at_table):
            raise _refuse(_("%(where)s: ein Spieler ist nicht gemeldet."), where=where)
    return seats


def _engine_scores(tournament: Tournament, seats: list[Seat], record) -> tuple[list[int], bool]:
    """The engine's points by table position and the declarer's result for ``record`` (a
    :class:`~scoring.models.Hand` or one of its history records) at a table with ``seats``,
    scored exactly as the clerk's entry is (:func:`scoring.services.evaluate`).  Raises
    :class:`TransferError` when the record is not a valid hand."""
    size = len(seats)
    positions = {record.dealer, record.declarer, record.penalty_seat} - {None}
    if any(p >= size for p in positions):
        raise ValueError(_("ein Platz liegt außerhalb des Tisches"))
    entry = services.hand_input_from(record)
    if tournament.ruleset.plays_without_trump(entry.outcome):
        # a trump written on a Durch before the entry refused it: it never changed a score
        entry.trump = ""
    evaluation = services.evaluate(tournament, size, entry)
    if message := services._game_number_error(tournament, entry.number):
        evaluation.errors.setdefault("number", []).append(message)
    if not evaluation.ok:
        field_name, messages = next(iter(evaluation.errors.items()))
        raise ValueError(f"{field_name}: {' '.join(messages)}")
    assert evaluation.score is not None
    return [evaluation.scores[p] for p in range(size)], evaluation.score.declarer_won


def _rescore(tournament: Tournament, using: str, rescore: bool) -> list[ScoreChange]:
    """Re-score every hand of the imported ``tournament`` (and every version of it in its
    history) with the engine, check its seat scores and its round totals.

    Without ``rescore`` a difference refuses the import, naming the first
    :data:`SHOWN_DIFFERENCES` hands; with it the engine's points replace the file's (the
    hand gets a new version whose history names the reason) and the changes are returned.
    Seat scores are rebuilt from the hands either way (they are derived, never entered).
    Round totals are checked by the engine's plausibility rules
    (:func:`scoring.services.check_totals`); they have no record to re-score.
    """
    seats = _table_sizes(tournament, using)
    changes: list[ScoreChange] = []
    hands = Hand.objects.using(using).filter(table__round__tournament=tournament)
    for hand in hands.select_related("table__round").order_by(
        "table__round__number", "table__number", "number"
    ):
        where = ScoreChange(hand.table.round.number, hand.table.number, hand.number, [], [])
        at_table = seats.get(hand.table_id, [])
        try:
            engine, declarer_won = _engine_scores(tournament, at_table, hand)
        except ValueError as exc:
            raise _refuse(
                _("%(where)s: das Spiel ist nach den Regeln ungültig (%(error)s)."),
                where=str(where).split(":")[0],
                error=exc,
            ) from exc
        if hand.scores != engine or hand.declarer_won != declarer_won:
            changes.append(ScoreChange(where.round, where.table, where.number, hand.scores, engine))
            if rescore:
                hand.scores, hand.declarer_won = engine, declarer_won
                hand.version += 1
                hand._change_reason = _("Import: Punkte nach den Regeln neu berechnet")
                hand.save(using=using)
    history = Hand.history.using(using).filter(table__round__tournament=tournament)
    for record in history.exclude(history_type="-").order_by("history_date", "history_id"):
        at_table = seats.get(record.table_id)
        if not at_table:
            continue
        table = at_table[0].table
        try:
            engine, declarer_won = _engine_scores(tournament, at_table, record)
        except ValueError:
            continue  # an old version the engine no longer accepts: kept as history
        if record.scores != engine or record.declarer_won != declarer_won:
            changes.append(
                ScoreChange(
                    table.round.number,
                    table.number,
                    record.number,
                    record.scores,
                    engine,
                    record.version,
                )
            )
            if rescore:
                type(record)._base_manager.using(using).filter(pk=record.pk).update(
                    scores=engine, declarer_won=declarer_won
                )
    live = [c for c in changes if c.version is None]
    if changes and not rescore:
        shown = "; ".join(str(c) for c in (live or changes)[:SHOWN_DIFFERENCES])
        raise _refuse(
            _(
                "Die Punkte von %(n)s Spielen in der Datei stimmen nicht mit dem überein, was "
                "die Regeln aus den Eingaben berechnen: %(shown)s. Mit --rescore werden die "
                "berechneten Punkte übernommen."
            ),
            n=len(changes),
            shown=shown,
        )

    _check_seat_scores(tournament, seats, using, rebuild=rescore)
    for table_seats in seats.values():
        table = table_seats[0].table
        stored = {
            t.registration_id: t
            for t in RoundTotal.objects.using(using).filter(round_id=table.round_id)
        }
        mine = {s.registration_id for s in table_seats}
        if not mine & set(stored):
            continue
        if tournament.entry_mode != Tournament.EntryMode.TOTALS:
            raise _refuse(
                _(
                    "Runde %(round)s, Tisch %(table)s: Rundensummen in einem Turnier, das "
                    "jedes Spiel erfasst."
                ),
                round=table.round.number,
                table=table.number,
            )
        entries = {
            s.position: services.TotalInput(
                stored[s.registration_id].points,
                stored[s.registration_id].games_won,
                stored[s.registration_id].games_lost,
            )
            for s in table_seats
            if s.registration_id in stored
        }
        if errors := services.check_totals(table, entries, table_seats):
            field_name, messages = next(iter(errors.items()))
            raise _refuse(
                _("Runde %(round)s, Tisch %(table)s, %(field)s: %(messages)s"),
                round=table.round.number,
                table=table.number,
                field=field_name,
                messages=" ".join(messages),
            )
    seated = {(s.round_id, s.registration_id) for at in seats.values() for s in at}
    for total in RoundTotal.objects.using(using).filter(round__tournament=tournament):
        if (total.round_id, total.registration_id) not in seated:
            raise _refuse(
                _("Rundensumme eines Spielers, der in dieser Runde an keinem Tisch sitzt.")
            )
    if (
        SeatScore.objects.using(using)
        .exclude(tournament=tournament)
        .filter(hand__table__round__tournament=tournament)
        .exists()
    ):
        raise _refuse(_("Punkte eines Spiels sind einem anderen Turnier zugeordnet."))
    return changes


def _check_seat_scores(
    tournament: Tournament, seats: dict[int, list[Seat]], using: str, rebuild: bool
) -> None:
    """The seat scores of the file are exactly what the hands give (they feed the
    standings); with ``rebuild`` they are made so.  Raises :class:`TransferError`."""
    hands = list(
        Hand.objects.using(using)
        .filter(table__round__tournament=tournament)
        .select_related("table__round")
    )
    expected = set()
    for hand in hands:
        at_table = seats.get(hand.table_id, [])
        positions = services.active_positions(tournament, len(at_table), hand.dealer)
        declaring = services.declaring_side(tournament.ruleset, positions, hand.declarer)
        for seat in at_table:
            if seat.position in positions:
                expected.add(
                    (
                        hand.pk,
                        seat.registration_id,
                        hand.table.round.number,
                        hand.scores[seat.position],
                        seat.position in declaring,
                        seat.position in declaring and hand.declarer_won,
                    )
                )
    stored = SeatScore.objects.using(using).filter(
        Q(tournament=tournament) | Q(hand__in=[h.pk for h in hands])
    )
    found = set(
        stored.values_list(
            "hand_id", "registration_id", "round_number", "points", "declarer", "declarer_won"
        )
    )
    if found == expected:
        return
    if not rebuild:
        raise _refuse(
            _(
                "Die Punkte je Spieler (%(model)s) in der Datei passen nicht zu den Spielen. "
                "Mit --rescore werden sie aus den Spielen neu berechnet."
            ),
            model=SeatScore._meta.label_lower,
        )
    stored.delete()
    SeatScore.objects.using(using).bulk_create(
        SeatScore(
            hand_id=hand_id,
            tournament=tournament,
            round_number=round_number,
            registration_id=registration_id,
            points=points,
            declarer=declarer,
            declarer_won=won,
        )
        for hand_id, registration_id, round_number, points, declarer, won in sorted(expected)
    )


def run_import(data: dict, using: str = DEFAULT_DB_ALIAS, rescore: bool = False) -> ImportReport:
    """Create the tournament of ``data`` (an export, shape in the module docstring) in the
    database ``using`` under new primary keys, all in one transaction, checked like typed
    input, and report what was done (:class:`ImportReport`).

    Checks, any of which refuses the whole file: the file's form (:func:`validate`); the
    ruleset loads with the engine's validation and matches its fingerprint; every value has
    its field's type, the column's range, :data:`BOUNDS` and the model's own validation
    (``full_clean``); every hand (and each version in its history) is re-scored by the
    engine from its record and must give the stored points; seat scores must follow from
    the hands and round totals must be plausible (:func:`_rescore`).  With ``rescore`` the
    engine's points replace differing ones and :attr:`ImportReport.rescored` lists them.

    Existing rows are never changed and accounts are never created or granted: a user name
    this database knows links its account, an unknown one is kept as text on the row
    (``entered_by_name`` …); the tournament's clerk list is not imported but returned in
    :attr:`ImportReport.clerks`.  Timestamps are kept as exported.  Raises
    :class:`TransferError` (German message naming row and field); nothing is written then.
    """
    data = current_labels(data)
    try:
        plan = validate(data, using)
        label = Tournament._meta.label_lower
        tournament_obj = next(o for o in data["objects"] if o["model"] == label)
        _check_ruleset(tournament_obj["fields"])
        order = {entry.label: i for i, entry in enumerate(plan.values())}
        objects = sorted(data["objects"], key=lambda o: order[o["model"]])  # stable: file order
        importer = _Importer(plan, objects, using)
        with transaction.atomic(using=using):
            for obj in objects:
                importer.add(obj)
            importer.finish()
            new_pk = importer.new_pk[Tournament][data["tournament"]]
            tournament = Tournament._base_manager.using(using).get(pk=new_pk)
            changes = _rescore(tournament, using, rescore)
            transaction.on_commit(lambda: _fresh_standings(new_pk), using=using)
    except TransferError:
        raise
    except (
        DatabaseError,
        DeserializationError,
        ObjectDoesNotExist,
        FieldDoesNotExist,
        ValidationError,
        ValueError,
        TypeError,
        KeyError,
        OverflowError,
        RecursionError,
    ) as exc:
        raise _refuse(
            _("Import abgebrochen, es wurde nichts gespeichert: %(error)s"), error=str(exc)[:500]
        ) from exc
    return ImportReport(
        tournament=tournament,
        clerks=sorted(importer.clerks),
        unknown_users=sorted(importer.unknown_users),
        rescored=changes,
    )


def import_tournament(
    data: dict, using: str = DEFAULT_DB_ALIAS, rescore: bool = False
) -> Tournament:
    """:func:`run_import`, returning only the new tournament."""
    return run_import(data, using, rescore).tournament


def _fresh_standings(tournament_id: int) -> None:
    services.invalidate_standings(tournament_id)
