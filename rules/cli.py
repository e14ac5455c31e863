"""``python -m rules``: the engine on the command line, one JSON object per line.

Commands (contract in ``docs/rules-engine.md``):

- ``meld``: ``{"ruleset", "trump", "cards"}`` → ``{"total", "melds": [{"name", "points",
  "cards"}]}``
- ``score``: a hand record with ``"ruleset"`` → ``{"scores", "declarer_won"}``, plus
  ``"warnings": [{"field", "message"}]`` when a seat's melds are attainable but rare
- ``meld-range``: ``{"ruleset", "hand_size"}`` → ``{"max", "totals"}``, the meld totals one
  hand of that many cards can hold over all trumps
- ``check-play``: ``{"ruleset", "trump", "trick", "hand", "card"}`` → ``{"legal", "rule",
  "legal_cards", "winner"}``
- ``presets``: prints each preset as a full ruleset object, one per line (no input).

Each input line gets exactly one output line, in order; an invalid line gets
``{"errors": [{"field", "message"}, ...]}``.  Blank lines are skipped.  The exit status is 2
if any line had errors, else 0.  This module is the only part of ``rules`` that does I/O.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from .errors import FieldError, InvalidInput
from .meldrange import meld_range_request
from .meldrare import meld_warnings
from .melds import meld_request
from .play import play_request
from .presets import PRESETS, resolve_ruleset
from .scoring import score_hand
from .validation import parse_record


def _keys(data: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = [k for k in data if k not in allowed]
    missing = [
        k
        for k in allowed
        if k not in data
        and k in ("ruleset", "trump", "cards", "trick", "hand", "card", "hand_size")
    ]
    errors = [FieldError(str(k) or "line", f"unknown field {k!r}", code="unknown") for k in unknown]
    errors += [FieldError(k, "is required", code="required") for k in missing]
    if errors:
        raise InvalidInput(errors)


def _ruleset(data: dict[str, Any]):
    if "ruleset" not in data:
        raise InvalidInput(
            [
                FieldError(
                    "ruleset", "is required (a preset id or a ruleset object)", code="required"
                )
            ]
        )
    return resolve_ruleset(data["ruleset"])


def do_meld(data: dict[str, Any]) -> dict[str, Any]:
    """One ``meld`` request → its answer; raises :class:`InvalidInput`."""
    _keys(data, ("ruleset", "trump", "cards"))
    return meld_request(_ruleset(data), data["trump"], data["cards"]).to_dict()


def do_score(data: dict[str, Any]) -> dict[str, Any]:
    """One ``score`` request → its answer; raises :class:`InvalidInput`."""
    ruleset = _ruleset(data)
    record = parse_record(ruleset, data)
    result = score_hand(ruleset, record).to_dict()
    if warnings := meld_warnings(ruleset, record):
        result["warnings"] = [w.to_dict() for w in warnings]
    return result


def do_meld_range(data: dict[str, Any]) -> dict[str, Any]:
    """One ``meld-range`` request → its answer; raises :class:`InvalidInput`."""
    _keys(data, ("ruleset", "hand_size"))
    return meld_range_request(data, _ruleset(data)).to_dict()


def do_check_play(data: dict[str, Any]) -> dict[str, Any]:
    """One ``check-play`` request → its answer; raises :class:`InvalidInput`."""
    _keys(data, ("ruleset", "trump", "trick", "hand", "card"))
    ruleset = _ruleset(data)
    return play_request(ruleset, data["trump"], data["trick"], data["hand"], data["card"]).to_dict()


COMMANDS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "meld": do_meld,
    "score": do_score,
    "check-play": do_check_play,
    "meld-range": do_meld_range,
}


def answer(command: str, line: str) -> tuple[dict[str, Any], bool]:
    """The output object for one input line and whether it is an error answer."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, or an over-long integer
        return {"errors": [{"field": "line", "message": f"not valid JSON: {exc}"}]}, True
    if not isinstance(data, dict):
        return {"errors": [{"field": "line", "message": "each line must be a JSON object"}]}, True
    try:
        return COMMANDS[command](data), False
    except InvalidInput as exc:
        return {"errors": [e.to_dict() for e in exc.errors]}, True


def _encode(result: dict[str, Any]) -> tuple[str, bool]:
    """One answer line, and whether it had to become an error.  Non-ASCII text stays readable; text that cannot be written as UTF-8
    (a lone surrogate echoed from the input) is escaped; a number too long for Python's
    int-to-text limit becomes a line error instead of a traceback."""
    try:
        text = json.dumps(result, ensure_ascii=False)
        text.encode("utf-8")
        return text, False
    except UnicodeEncodeError:
        return json.dumps(result), False
    except ValueError as exc:
        error = {"errors": [{"field": "line", "message": f"answer too large: {exc}"}]}
        return json.dumps(error), True


def run(command: str, stdin: TextIO, stdout: TextIO) -> int:
    """Answer every line of ``stdin`` on ``stdout``; return the exit status (0 or 2)."""
    status = 0
    for line in stdin:
        if not line.strip():
            continue
        result, failed = answer(command, line)
        text, too_large = _encode(result)
        if failed or too_large:
            status = 2
        stdout.write(text + "\n")
        stdout.flush()
    return status


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m rules``."""
    parser = argparse.ArgumentParser(
        prog="python -m rules",
        description="Binokel rules engine: JSON objects in, one per line on stdin; answers out.",
    )
    parser.add_argument("command", choices=[*COMMANDS, "presets"])
    args = parser.parse_args(argv)
    if args.command == "presets":
        for ruleset in PRESETS.values():
            sys.stdout.write(ruleset.to_json() + "\n")
        return 0
    stdin: TextIO = sys.stdin
    if hasattr(stdin, "buffer"):
        # bytes that are not UTF-8 (a Latin-1 file) become a line error, not a traceback
        stdin = io.TextIOWrapper(
            stdin.buffer, encoding="utf-8", errors="surrogateescape", newline="\n"
        )
    return run(args.command, stdin, sys.stdout)
