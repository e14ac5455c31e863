"""Checking an incoming file before and while it is imported, trusting nothing in it: its
form, format version, models, fields, counts and migrations (:func:`validate`); every
value's JSON type, the column's range, :data:`BOUNDS` and text length
(:func:`_check_field_types`); the tournament's frozen ruleset and its fingerprint
(:func:`_check_ruleset`).  Also the model labels of files made before a model moved
(:func:`current_labels`).  Every check raises :class:`~archive.transfer.plan.TransferError`
with a German message naming row and field.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.db.migrations.recorder import MigrationRecorder
from django.utils.translation import gettext as _

from rules import Ruleset, RulesetError
from tournament.engine_messages import ruleset_message
from tournament.models import Tournament
from tournament.text import first_unstorable

from .plan import (
    FORMAT,
    MOVED,
    VERSION,
    ModelPlan,
    TransferError,
    _many_to_many,
    _refuse,
    transfer_plan,
)


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


#: Bounds on numbers beyond what the database can hold, by model label and field: what
#: the set-up and entry forms accept (tournament/forms.py, scoring/forms.py) with room to
#: spare.  A historical model is checked with the bounds of the model it tracks.
BOUNDS: dict[str, dict[str, tuple[int, int]]] = {
    "tournament.tournament": {
        "rounds": (1, 10),
        "games_per_round": (Tournament.GAMES_PER_ROUND_MIN, Tournament.GAMES_PER_ROUND_MAX),
        "lost_game_fee_from": (1, 600),
        "round_minutes": (10, 600),
        "idle_minutes": (1, 120),
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
        "number": (1, Tournament.GAMES_PER_ROUND_MAX),
        "dealer": (0, 3),
        "declarer": (0, 3),
        "bid": (0, 100_000),
        "penalty_seat": (0, 3),
        "version": (1, 1_000_000),
    },
    "scoring.seatscore": {"round_number": (1, 10)},
    "scoring.roundtotal": {
        "games_won": (0, Tournament.GAMES_PER_ROUND_MAX),
        "games_lost": (0, Tournament.GAMES_PER_ROUND_MAX),
        "version": (1, 1_000_000),
    },
    "scoring.ruling": {
        "hand_number": (1, Tournament.GAMES_PER_ROUND_MAX),
        "offender": (0, 3),
        "hand_version": (1, 1_000_000),
    },
}
#: The longest JSON value (characters of its JSON text) any field may hold: a ruleset is
#: a few kilobytes, a hand's per-seat lists a few dozen characters.
MAX_JSON_CHARS = 100_000
#: Longest text of a field without a ``max_length`` (change reasons, long texts).
MAX_TEXT_CHARS = 10_000
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
