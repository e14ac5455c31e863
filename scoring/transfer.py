"""Move one tournament between databases as JSON: export it completely, import it under
new primary keys.

The export is generic: it walks every concrete model of the ``tournament`` and ``scoring``
apps, django-simple-history's historical models included, finds how each one belongs to a
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

Limits: a generic relation (content type + object id) is copied, not remapped; a model of
the two apps that can be reached neither from a tournament nor from an exported row is
reported by :func:`uncovered_models` and must be added to :data:`EXCLUDED` or linked.
"""

from __future__ import annotations

import datetime
import decimal
from collections import Counter, defaultdict
from dataclasses import dataclass

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ObjectDoesNotExist, ValidationError
from django.core.serializers.base import DeserializationError
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Min, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.models import HistoricalChanges

from tournament.models import Tournament

FORMAT = "binokel-turnier/tournament"
VERSION = 1
APPS = ("tournament", "scoring")

#: Models of :data:`APPS` deliberately left out of the export, by label, with the reason.
#: A model that is neither exported nor listed here makes :func:`uncovered_models` (and
#: its test) fail.
EXCLUDED: dict[str, str] = {}


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
        for name in names if isinstance(names, list) else [names]:
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
        self.users: dict[str, models.Model] = {}
        self.lost_ids: dict[type[models.Model], dict] = defaultdict(dict)
        self.next_lost_id: dict[type[models.Model], int] = {}
        self.pending: list[tuple[type[models.Model], object, str, type[models.Model], object]] = []

    def user(self, username) -> object:
        """The pk of the account ``username``; a missing one is created inactive, without a
        usable password."""
        if username is None:
            return None
        if not isinstance(username, str) or not username:
            raise _refuse(_("Ungültiger Benutzername in der Datei: %(name)r."), name=username)
        if username not in self.users:
            manager = self.user_model._default_manager.db_manager(self.using)
            try:
                user = manager.get_by_natural_key(username)
            except self.user_model.DoesNotExist:
                user = self.user_model(**{self.user_model.USERNAME_FIELD: username})
                user.is_active = False
                user.set_unusable_password()
                user.save(using=self.using)
            self.users[username] = user
        return self.users[username].pk

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
        if target is self.user_model:
            return self.user(value)
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
            value=value,
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

    def add(self, obj: dict) -> None:
        entry = self.plan[obj["model"]]
        model, old_pk = entry.model, obj["pk"]
        fields = dict(obj["fields"])
        for f in _foreign_keys(model):
            if f.name in fields:
                fields[f.name] = self.reference(entry, old_pk, f, fields[f.name])
        for f in _many_to_many(model):
            if f.name in fields:
                fields[f.name] = [self.m2m_value(entry, old_pk, f, v) for v in fields[f.name]]
        if entry.history_of is not None:
            attname = entry.history_of._meta.pk.attname
            if attname in fields:
                fields[attname] = self.tracked_id(entry, fields[attname])
        payload = {"model": obj["model"], "pk": None, "fields": fields}
        for deserialized in serializers.deserialize("python", [payload], using=self.using):
            deserialized.save(using=self.using)
            self.new_pk[model][old_pk] = deserialized.object.pk

    def m2m_value(self, entry, old_pk, f, value):
        target = f.related_model
        if target is self.user_model:
            return self.user(value)
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


def import_tournament(data: dict, using: str = DEFAULT_DB_ALIAS) -> Tournament:
    """Create the tournament of ``data`` (an export, shape in the module docstring) in the
    database ``using`` under new primary keys, all in one transaction, and return it.

    Existing rows are never changed: players and every other row come in as new ones;
    accounts are matched by user name, and a missing one is created inactive with an
    unusable password.  Timestamps (``created_at``, ``updated_at``, ``history_date``) are
    kept as exported; no history record is added by the import itself.  Raises
    :class:`TransferError` (German message) when the file is not a valid export for this
    database or a row cannot be stored; nothing is written then.
    """
    plan = validate(data, using)
    order = {entry.label: i for i, entry in enumerate(plan.values())}
    objects = sorted(data["objects"], key=lambda o: order[o["model"]])  # stable: file order
    importer = _Importer(plan, objects, using)
    try:
        with transaction.atomic(using=using):
            for obj in objects:
                importer.add(obj)
            importer.finish()
            new_pk = importer.new_pk[Tournament][data["tournament"]]
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
    ) as exc:
        raise _refuse(
            _("Import abgebrochen, es wurde nichts gespeichert: %(error)s"), error=exc
        ) from exc
    return Tournament._base_manager.using(using).get(pk=new_pk)


def _fresh_standings(tournament_id: int) -> None:
    from scoring.services import invalidate_standings  # scoring depends on tournament

    invalidate_standings(tournament_id)


def missing_users(data: dict, using: str = DEFAULT_DB_ALIAS) -> list[str]:
    """User names an import of ``data`` would create (accounts the database lacks)."""
    user_model = get_user_model()
    plan = {e.label: e for e in transfer_plan()}
    names: set[str] = set()
    for obj in _objects(data):
        model = obj.get("model") if isinstance(obj, dict) else None
        entry = plan.get(model) if isinstance(model, str) else None
        fields = obj.get("fields") if entry is not None else None
        if not isinstance(fields, dict):
            continue
        for f in _foreign_keys(entry.model) + _many_to_many(entry.model):
            if f.related_model is user_model:
                value = fields.get(f.name)
                names.update(
                    v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)
                )
    existing = set(
        user_model._default_manager.db_manager(using)
        .filter(**{f"{user_model.USERNAME_FIELD}__in": names})
        .values_list(user_model.USERNAME_FIELD, flat=True)
    )
    return sorted(names - existing)
