"""Writing the export: select the rows of :func:`~archive.transfer.plan.transfer_plan`'s
models that belong to one tournament or that its rows refer to, serialize them with
Django's ``python`` serializer, write accounts as user names and other models outside the
plan by natural key, and make every value JSON-safe (:func:`export_tournament`).
"""

from __future__ import annotations

import datetime
import decimal
from collections import defaultdict

from django.contrib.auth import get_user_model
from django.core import serializers
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Tournament

from .plan import (
    APPS,
    FORMAT,
    VERSION,
    ModelPlan,
    TransferError,
    _foreign_keys,
    _many_to_many,
    transfer_plan,
)


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
