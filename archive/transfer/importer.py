"""Importing a checked file: :func:`run_import` creates the tournament under new primary
keys in one transaction (:class:`_Importer`: old → new keys, accounts by user name and
never created, references that wait for a later row), runs the checks of
:mod:`archive.transfer.checks` on every row and re-scores the result
(:mod:`archive.transfer.rescore`); a refused file writes nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import (
    NON_FIELD_ERRORS,
    FieldDoesNotExist,
    ObjectDoesNotExist,
    ValidationError,
)
from django.core.serializers.base import DeserializationError
from django.db import DEFAULT_DB_ALIAS, DatabaseError, models, transaction
from django.db.models import Min
from django.utils.translation import gettext as _

from scoring import services
from scoring.links import new_token
from scoring.models import TableLink
from tournament.models import Tournament

from .checks import (
    _check_field_types,
    _check_ruleset,
    _field_error,
    _verbose,
    _where,
    current_labels,
    validate,
)
from .plan import ModelPlan, TransferError, _foreign_keys, _many_to_many, _refuse
from .rescore import ScoreChange, _rescore


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
