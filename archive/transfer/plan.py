"""What a tournament export contains and in which order: :func:`transfer_plan` walks every
concrete model of :data:`APPS` (historical ones included), finds how each belongs to a
tournament (:class:`ModelPlan`) and orders them so a model comes after the models it
refers to; :func:`uncovered_models` names any model it cannot place.  Also the file's
format marker and version, the models left out (:data:`EXCLUDED`) or renamed
(:data:`MOVED`), and :class:`TransferError`, which every step of a transfer raises.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.utils.translation import gettext as _
from simple_history.models import HistoricalChanges

from tournament.models import Tournament

FORMAT = "binokel-turnier/tournament"
VERSION = 1
APPS = ("tournament", "scoring", "prizes", "hall")
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


def _refuse(message: str, **params) -> TransferError:
    return TransferError(message % params if params else message)


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
