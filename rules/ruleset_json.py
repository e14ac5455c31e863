"""A ruleset's parts as plain JSON data and back.

:func:`_to_plain` turns a :class:`~rules.ruleset.Ruleset` (or any of its dataclasses) into
dicts, lists and scalars, leaving out parameters added later while they hold their default
(:data:`rules.ruleset.ADDED_LATER`, for the fingerprint); :func:`_from_plain` builds the
dataclasses back from such data, checking every value's type against the annotations and
appending one :class:`~rules.errors.FieldError` per problem, each with its field path
(``"lost.declarer.bid_factor"``); :func:`_deep_merge` merges overrides into plain data key
by key.  These are the helpers of :meth:`Ruleset.to_dict`, :meth:`Ruleset.from_dict`,
:meth:`Ruleset.with_overrides` and :attr:`Ruleset.fingerprint`, which are the public way in.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Literal

from .errors import FieldError, RulesetError


def _to_plain(value: Any, skip_defaults: dict[str, frozenset[str]] | None = None) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        later = (skip_defaults or {}).get(type(value).__name__, frozenset())
        result = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.name in later and item == _default_of(f):
                continue
            result[f.name] = _to_plain(item, skip_defaults)
        return result
    if isinstance(value, tuple):
        return [_to_plain(v, skip_defaults) for v in value]
    return value


def _default_of(f: dataclasses.Field) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def _deep_merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    result = dict(base)
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = _deep_merge(result[key], value)
        else:
            result[key] = value
    return result


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _from_plain(tp: Any, value: Any, path: str, errors: list[FieldError]) -> Any:
    """Convert plain JSON data to ``tp``, appending a FieldError per problem."""
    here = path or "ruleset"
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if value is None:
            return None
        return _from_plain(args[0], value, path, errors)
    if origin is Literal:
        allowed = typing.get_args(tp)
        if value not in allowed:
            errors.append(
                FieldError(
                    here,
                    f"must be one of {', '.join(map(repr, allowed))}",
                    code="choice",
                    params={"allowed": ", ".join(map(str, allowed))},
                )
            )
        return value
    if origin is tuple:
        (item_tp, _ellipsis) = typing.get_args(tp)
        if not isinstance(value, list | tuple):
            errors.append(
                FieldError(here, "must be a list", code="type", params={"expected": "list"})
            )
            return ()
        return tuple(
            _from_plain(item_tp, item, f"{here}[{i}]", errors) for i, item in enumerate(value)
        )
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            errors.append(
                FieldError(here, "must be an object", code="type", params={"expected": "object"})
            )
            return None
        hints = _hints(tp)
        kwargs: dict[str, Any] = {}
        names = {f.name for f in dataclasses.fields(tp)}
        for key in value:
            if key not in names:
                errors.append(
                    FieldError(
                        f"{path}.{key}" if path else key, "unknown parameter", code="unknown"
                    )
                )
        for f in dataclasses.fields(tp):
            sub = f"{path}.{f.name}" if path else f.name
            if f.name in value:
                kwargs[f.name] = _from_plain(hints[f.name], value[f.name], sub, errors)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                errors.append(FieldError(sub, "is missing", code="missing"))
        if errors:
            return None
        try:
            return tp(**kwargs)
        except RulesetError as exc:
            errors.extend(exc.errors)
            return None
    if tp is bool:
        if not isinstance(value, bool):
            errors.append(
                FieldError(here, "must be true or false", code="type", params={"expected": "bool"})
            )
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            errors.append(
                FieldError(here, "must be a whole number", code="type", params={"expected": "int"})
            )
        return value
    if tp is str:
        if not isinstance(value, str):
            errors.append(
                FieldError(here, "must be a string", code="type", params={"expected": "str"})
            )
        return value
    raise TypeError(f"unsupported type {tp!r} at {here}")  # pragma: no cover - programming error
