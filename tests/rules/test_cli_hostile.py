"""Hostile input to the rules engine's command line, ``python -m rules`` (issue 5, item 8).

``rules.cli.main`` runs in process with hostile ``argv`` and hostile stdin lines: invalid
JSON, JSON that is not an object, valid requests with fields deleted, replaced or added
(wrong types, huge numbers, NaN, Unicode, NUL, lone surrogates, deep nesting), blank lines.
The contract (docs/rules-engine.md, rules/cli.py): never a traceback; a usage error is
argparse's message on stderr with exit status 2; otherwise exactly one JSON object per
non-blank input line, in order — the answer, or ``{"errors": [{"field", "message"}, ...]}``
— and exit status 2 if any line had errors, else 0.

The streams are modelled on a real process under a UTF-8 locale: stdin and stdout are
UTF-8 text streams with strict error handling that split lines at "\\n" only.

The bugs these tests found are fixed; each is pinned by a ``test_bug_*`` test at the end,
whose docstring says how it failed.

Examples: 300 for argv, 250 for stdin lines (about 5 s).
"""

from __future__ import annotations

import io
import json
import os
import sys
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import cli

# HOSTILE_EXAMPLES=10 multiplies every max_examples below, for a longer fuzzing run.
EXAMPLES_FACTOR = int(os.environ.get("HOSTILE_EXAMPLES", "1"))
HOSTILE = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

RESULT_KEYS = {
    "score": {"scores", "declarer_won"},
    "meld": {"total", "melds"},
    "check-play": {"legal", "rule", "legal_cards", "winner"},
}
VALID = {
    "score": {
        "ruleset": "club-tournament",
        "seats": 3,
        "declarer": 0,
        "bid": 300,
        "outcome": "played",
        "melds": [140, 60, 20],
        "tricks": [175, 45, 30],
        "tricks_taken": [6, 4, 2],
    },
    "meld": {
        "ruleset": "club-tournament",
        "trump": "H",
        "cards": ["AH", "TH", "KH", "QH", "JH", "KS", "QS", "KC", "QC", "KD", "QD", "JD"],
    },
    "check-play": {
        "ruleset": "partnership-250",
        "trump": "S",
        "trick": ["QH"],
        "hand": ["9H", "TH", "AH"],
        "card": "9H",
    },
}
KEYS = [
    "ruleset", "seats", "declarer", "bid", "outcome", "melds", "tricks", "tricks_taken",
    "won", "penalty", "trump", "cards", "trick", "hand", "card", "", "line", "errors",
]  # fmt: skip
RULESET_KEYS = [
    "base", "id", "name_de", "min_bid", "bid_step", "max_raise", "deck_size", "deals", "lost",
    "abgehen", "card_points", "last_trick_bonus", "rounding", "melds", "partnerships",
    "durch", "bettel", "play", "schema", "fingerprint",
]  # fmt: skip
WORDS = [
    "club-tournament", "swabian-traditional", "dabb-app", "partnership-250", "H", "S", "C",
    "D", "AH", "TH", "9H", "QS", "JD", "ah", "10H", "played", "abgehen", "durch",
    "durch-aufgelegt", "durch-ohne-dabb", "bettel", "verwerfen", "falsch-druecken", "tens",
    "none", "fixed", "\x00", "a\x00b", "\ud800", "\udcff", "\U0001f0a1", "",
]  # fmt: skip

# any string, lone surrogates included (they are valid JSON as "\ud800" escapes)
any_text = st.text(st.characters(codec=None), max_size=12)
json_int = st.one_of(
    st.integers(-5, 400),
    st.integers(),
    # up to the 4300 digits json.loads reads
    st.tuples(st.integers(1, 4299), st.sampled_from([1, 5, -1])).map(lambda t: t[1] * 10 ** t[0]),
)
json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    json_int,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(WORDS),
    any_text,
)
json_key = st.sampled_from(KEYS + RULESET_KEYS + ["type", "seat"]) | any_text
json_value = st.recursive(
    json_scalar,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(json_key, inner, max_size=5),
    max_leaves=15,
)
ruleset_value = st.one_of(
    st.sampled_from(["club-tournament", "dabb-app", "partnership-250", "nope"]),
    st.dictionaries(st.sampled_from(RULESET_KEYS) | any_text, json_value, max_size=4),
    st.fixed_dictionaries(
        {"base": st.sampled_from(["club-tournament", "dabb-app", "partnership-250"])},
        optional={k: json_value for k in RULESET_KEYS[1:]},
    ),
    json_value,
)


@st.composite
def request_line(draw, command: str) -> str:
    """A request for ``command``: the valid example with fields replaced, deleted, added."""
    data = dict(VALID[command])
    for key, value in draw(st.lists(st.tuples(json_key, json_value), max_size=4)):
        data[key] = value
    if draw(st.booleans()):
        data["ruleset"] = draw(ruleset_value)
    for key in draw(st.lists(st.sampled_from(KEYS), max_size=3)):
        data.pop(key, None)
    if draw(st.booleans()):  # the whole line as another JSON value
        return json.dumps(draw(json_value))
    return json.dumps(data)


SPECIAL_LINES = [
    "not json",
    "{",
    "}",
    "[" * 100000,
    "{" * 5000,
    '{"a":' * 3000,
    "NaN",
    "1e999",
    "null",
    "[]",
    '"ruleset"',
    "{}",
    '{"ruleset": null}',
    "\ufeff{}",
    "\x00",
    '{"ruleset": "club-tournament"}\x00',
    json.dumps(VALID["score"]) + " trailing",
    json.dumps(VALID["score"]) * 2,
    '{"ruleset": "club-tournament", "bid": 1' + "0" * 5000 + "}",
    json.dumps(dict(VALID["score"], bid=5 * 10**4299)),
    "   ",
    "\t",
    "\x0c",
    "\x1c",
    "\u2028",
    "\u3000",
]
line_text = st.text(st.characters(codec=None, exclude_characters="\n"), max_size=40)


def lines_for(command: str):
    return st.lists(
        st.one_of(
            request_line(command),
            request_line(command),
            st.sampled_from(SPECIAL_LINES),
            line_text,
            st.sampled_from([json.dumps(v) for v in VALID.values()]),
        ),
        min_size=0,
        max_size=6,
    )


# ------------------------------------------------------------------ running main


def run_main(argv: list[str], stdin: str | bytes = b"") -> tuple[object, str, str]:
    """``rules.cli.main(argv)`` with the given stdin; ``(exit status, stdout, stderr)``.

    Any exception other than argparse's ``SystemExit`` propagates: that is a traceback.
    """
    raw = stdin if isinstance(stdin, bytes) else stdin.encode("utf-8", "surrogatepass")
    fake_in = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", newline="\n")
    out = io.BytesIO()
    fake_out = io.TextIOWrapper(out, encoding="utf-8", newline="\n")
    fake_err = io.StringIO()
    with (
        mock.patch.object(sys, "stdin", fake_in),
        mock.patch.object(sys, "stdout", fake_out),
        mock.patch.object(sys, "stderr", fake_err),
    ):
        try:
            status = cli.main(argv)
        except SystemExit as exc:
            status = exc.code
        fake_out.flush()
    return status, out.getvalue().decode("utf-8"), fake_err.getvalue()


def assert_answers(command: str, lines: list[str], status, stdout: str, stderr: str) -> None:
    assert stderr == "", stderr
    assert "Traceback" not in stdout
    assert status in (0, 2), status
    answered = [line for line in "".join(ln + "\n" for ln in lines).split("\n") if line.strip()]
    assert stdout == "" or stdout.endswith("\n")
    # JSON lines end at "\n" only (an answer may hold U+0085 or U+2028 in a string)
    outputs = stdout.split("\n")[:-1]
    assert len(outputs) == len(answered), (len(outputs), len(answered))
    failed = False
    for line, text in zip(answered, outputs, strict=True):
        result = json.loads(text)
        assert isinstance(result, dict)
        if "errors" in result:
            failed = True
            assert set(result) == {"errors"}
            assert isinstance(result["errors"], list) and result["errors"]
            for error in result["errors"]:
                assert set(error) == {"field", "message"}, error
                assert isinstance(error["field"], str)
                assert isinstance(error["message"], str) and error["message"].strip()
            continue
        assert set(result) == RESULT_KEYS[command], result
        data = json.loads(line)
        if command == "score":
            assert len(result["scores"]) == data["seats"]
            assert all(type(s) is int for s in result["scores"])
            assert isinstance(result["declarer_won"], bool)
        elif command == "meld":
            assert result["total"] == sum(m["points"] for m in result["melds"])
        else:
            assert isinstance(result["legal"], bool)
            assert isinstance(result["legal_cards"], list)
        # the same line gives the same answer again
        again, failed_again = cli.answer(command, line)
        assert json.loads(json.dumps(again)) == result and not failed_again
    assert status == (2 if failed else 0)


# ------------------------------------------------------------------ properties


@settings(HOSTILE, max_examples=250 * EXAMPLES_FACTOR)
@given(command=st.sampled_from(sorted(VALID)), data=st.data())
def test_every_stdin_line_gets_one_json_answer_and_never_a_traceback(command, data):
    lines = data.draw(lines_for(command))
    ending = data.draw(st.sampled_from(["\n", "\r\n"]))
    text = "".join(line + ending for line in lines)
    status, stdout, stderr = run_main([command], text)
    assert_answers(command, [line + ending.rstrip("\n") for line in lines], status, stdout, stderr)


ARGS = st.one_of(
    st.sampled_from(
        ["score", "meld", "check-play", "presets", "-h", "--help", "--", "-", "-x", "--score"]
    ),
    st.sampled_from(["score ", "Score", "SCORE", "meld\x00", "\udcff", "", "presets=1"]),
    any_text,
)


@settings(HOSTILE, max_examples=300 * EXAMPLES_FACTOR)
@given(argv=st.lists(ARGS, max_size=4))
def test_any_argv_is_a_clean_usage_error_or_a_run(argv):
    status, stdout, stderr = run_main(argv, json.dumps(VALID["score"]) + "\n")
    assert "Traceback" not in stdout + stderr
    if status == 0 and any(a in ("-h", "--help") for a in argv) and stdout.startswith("usage:"):
        assert "python -m rules" in stdout and stderr == ""
        return
    if status == 2 and stderr:
        assert stderr.startswith("usage: python -m rules")
        assert "error:" in stderr
        assert stdout == ""
        return
    # a run: the one positional argument ("--" ends the options) is a command
    (command,) = [a for a in argv if a != "--"] or [None]
    assert command in ("score", "meld", "check-play", "presets"), (argv, stderr)
    assert stderr == ""
    if command == "presets":
        assert status == 0
        rulesets = [json.loads(line) for line in stdout.split("\n")[:-1]]
        assert {r["id"] for r in rulesets} >= {"club-tournament", "partnership-250"}
        return
    assert_answers(command, [json.dumps(VALID["score"])], status, stdout, stderr)


# ------------------------------------------------------------------ the bugs, pinned


@pytest.mark.parametrize("command", ["score", "meld", "check-play"])
@pytest.mark.parametrize("base", [[], {}])
def test_bug_unhashable_ruleset_base_is_a_field_error(command, base):
    """Found by these tests, fixed since: ``{"ruleset": {"base": []}}`` (or ``{}`` as base): ``base not in PRESETS`` raises
    TypeError "unhashable type" in ``rules.presets.resolve_ruleset``: a traceback, exit 1."""
    line = json.dumps(dict(VALID[command], ruleset={"base": base}))
    status, stdout, stderr = run_main([command], line + "\n")
    assert status == 2 and stderr == ""
    (error,) = json.loads(stdout)["errors"]
    assert error["field"] == "ruleset.base"


def test_bug_integer_of_5000_digits_is_a_line_error():
    """Found by these tests, fixed since: A JSON integer of more than 4300 digits: ``json.loads`` raises ValueError (Python's
    int-string limit), not JSONDecodeError, and ``rules.cli.answer`` catches only the latter:
    a traceback, exit 1."""
    line = json.dumps(VALID["score"]).replace('"bid": 300', '"bid": 1' + "0" * 5000)
    status, stdout, stderr = run_main(["score"], line + "\n" + json.dumps(VALID["score"]) + "\n")
    assert status == 2 and stderr == ""
    first, second = (json.loads(out) for out in stdout.splitlines())
    assert first["errors"][0]["field"] in ("line", "bid")
    assert second == {"scores": [320, 110, 50], "declarer_won": True}


def test_bug_a_score_of_4301_digits_is_an_answer_or_a_line_error():
    """Found by these tests, fixed since: ``score`` with bid 5·10**4299 (4300 digits, read fine): the declarer's score -2·bid has
    4301 digits, and ``json.dumps`` of the answer raises ValueError (Python's int-string
    limit) in ``rules.cli.run``: a traceback, exit 1."""
    line = json.dumps(dict(VALID["score"], bid=5 * 10**4299))
    status, stdout, stderr = run_main(["score"], line + "\n" + json.dumps(VALID["score"]) + "\n")
    assert stderr == "" and status in (0, 2)
    first, second = (json.loads(out, parse_int=str) for out in stdout.splitlines())
    assert "scores" in first or first["errors"][0]["field"] in ("bid", "line")
    second = json.loads(stdout.splitlines()[1])
    assert second == {"scores": [320, 110, 50], "declarer_won": True}


@pytest.mark.parametrize("command", ["score", "meld", "check-play"])
def test_bug_lone_surrogate_in_a_key_is_a_field_error(command):
    """Found by these tests, fixed since: A key with a lone surrogate (``{"\\ud800": 1}``, valid JSON) is echoed raw as the error's
    ``field``; ``json.dumps(..., ensure_ascii=False)`` keeps the surrogate and writing it to a
    UTF-8 stdout raises UnicodeEncodeError: a traceback, exit 1."""
    line = '{"\\ud800": 1, "ruleset": "club-tournament"}'
    status, stdout, stderr = run_main([command], line + "\n")
    assert status == 2 and stderr == ""
    assert json.loads(stdout)["errors"]


def test_bug_bytes_that_are_not_utf8_are_a_line_error():
    """Found by these tests, fixed since: Bytes that are not UTF-8 on stdin (e.g. a Latin-1 file) raise UnicodeDecodeError while
    ``run`` iterates stdin: a traceback, exit 1, and no answer for the lines before it that
    were still buffered.  (Under the C/POSIX locale Python reads stdin with surrogateescape and
    this does not happen.)"""
    good = json.dumps(VALID["score"]).encode()
    status, stdout, stderr = run_main(["score"], good + b"\n" + b'{"ruleset": "\xff"}\n' + good)
    assert status == 2 and stderr == ""
    outputs = [json.loads(out) for out in stdout.splitlines()]
    assert len(outputs) == 3
    assert outputs[0] == outputs[2] == {"scores": [320, 110, 50], "declarer_won": True}
    assert outputs[1]["errors"]
