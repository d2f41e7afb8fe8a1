#!/usr/bin/env python3
"""Check dynd protocol lines against the JSON Schemas in protocol/schema/.

Usage: python3 tools/schema_check.py [--kind request|reply|event|auto] [--all] FILE...
FILE may be `-` for standard input. Each non-blank line must be one JSON object.

With --kind auto (the default) a line is an event when it has `ev`, else a reply
when it has `ok`, else a request when it has `op`.

Prints one line per failing input line (FILE:LINE: kind: PATH: message), then
`N passed, M failed` alone on the last line. Exit status: 0 when every line
passed, 1 when any failed, 2 on a usage or setup error.

Beyond the schemas, lines are read the way the daemon reads them: NaN, Infinity
and numbers that overflow a double are rejected (the daemon's `invalid_number`),
and so are invalid UTF-8 and duplicate keys in one object.
"""

import argparse
import heapq
import json
import math
import os
import sys

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError, by_relevance
except ImportError:
    sys.stderr.write(
        "schema_check: needs the Python package 'jsonschema' (4.0 or later, for draft 2020-12).\n"
        "Install it with: pip install jsonschema\n"
    )
    sys.exit(2)

KINDS = ("request", "reply", "event")
DEFAULT_SCHEMA_DIR = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), os.pardir, "protocol", "schema"
)
# Validators whose own message only repeats the instance; the schema's
# description says which protocol rule failed.
_RULE_VALIDATORS = {"not", "oneOf", "anyOf", "required", "dependentRequired"}
_MAX_MESSAGE = 240
_MAX_DOUBLE = sys.float_info.max
# Among errors at the same place, an unknown field usually explains the others
# (a typo also makes the intended field "missing").
_relevance = by_relevance(strong=frozenset({"additionalProperties", "unevaluatedProperties"}))


class LineError(ValueError):
    """A line that is not acceptable JSON for the protocol."""


def load_validators(schema_dir=DEFAULT_SCHEMA_DIR):
    """Return {kind: Draft202012Validator} for request, reply and event."""
    validators = {}
    for kind in KINDS:
        path = os.path.join(schema_dir, kind + ".json")
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        # Format checking stays off: the protocol defines no formats.
        validators[kind] = Draft202012Validator(schema, format_checker=None)
    return validators


def _reject_constant(name):
    raise LineError("%s is not a JSON number (invalid_number)" % name)


def _parse_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise LineError("number %s overflows a double (invalid_number)" % text)
    return value


def _parse_int(text):
    value = int(text)
    if abs(value) > _MAX_DOUBLE:
        raise LineError("number %s overflows a double (invalid_number)" % text)
    return value


def _unique_keys(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise LineError("duplicate key %s in one object" % json.dumps(key))
        obj[key] = value
    return obj


def parse_line(text):
    """Parse one line as strict JSON; raise LineError when it is not."""
    try:
        return json.loads(
            text,
            parse_constant=_reject_constant,
            parse_float=_parse_float,
            parse_int=_parse_int,
            object_pairs_hook=_unique_keys,
        )
    except LineError:
        raise
    except ValueError as e:  # json.JSONDecodeError is a ValueError
        raise LineError("not valid JSON: %s" % e) from None
    except RecursionError:
        raise LineError("not valid JSON: nested too deeply") from None


def detect_kind(obj):
    """The kind --kind auto picks for a parsed line, or None."""
    if not isinstance(obj, dict):
        return None
    if "ev" in obj:
        return "event"
    if "ok" in obj:
        return "reply"
    if "op" in obj:
        return "request"
    return None


def _shorten(text):
    text = " ".join(text.split())
    if len(text) > _MAX_MESSAGE:
        text = text[: _MAX_MESSAGE - 1] + "…"
    return text


def _path(error):
    path = getattr(error, "json_path", None)
    if path is not None:
        return path
    return "$" + "".join(
        "[%d]" % p if isinstance(p, int) else ".%s" % p for p in error.absolute_path
    )


def _rule(error):
    """The protocol rule a failing schema states, if it states one.

    Rules are the schemas without a `type` that carry a `description` (the
    alternatives and conditions of the protocol); object and value definitions
    have a `type`, and their descriptions are documentation.
    """
    schema = error.schema if isinstance(error.schema, dict) else {}
    if "type" in schema:
        return None
    return schema.get("description")


def best_error(errors):
    """Like jsonschema's best_match, but an anyOf/oneOf whose schema carries a
    description is reported as that rule rather than as one of its branches."""
    best = max(errors, key=_relevance)
    while best.context and not _rule(best):
        smallest = heapq.nsmallest(2, best.context, key=_relevance)
        if len(smallest) == 2 and _relevance(smallest[0]) == _relevance(smallest[1]):
            break
        best = smallest[0]
    return best


def describe(error):
    """One line for a jsonschema ValidationError: PATH: message."""
    message = error.message
    rule = _rule(error)
    if error.validator in _RULE_VALIDATORS and rule:
        if error.validator in ("required", "dependentRequired"):
            message = "%s (%s)" % (message, rule)
        else:
            message = rule
    return "%s: %s" % (_path(error), _shorten(message))


def check_line(text, kind, validators, all_errors=False):
    """Check one line. Return (kind_used, [problem, …]); no problems = pass."""
    try:
        obj = parse_line(text)
    except LineError as e:
        return kind if kind != "auto" else "?", [_shorten(str(e))]
    if kind == "auto":
        if not isinstance(obj, dict):
            return "?", ["not a JSON object"]
        kind = detect_kind(obj)
        if kind is None:
            return "?", ["cannot tell the kind: the object has no `ev`, `ok` or `op`"]
    errors = list(validators[kind].iter_errors(obj))
    if not errors:
        return kind, []
    if all_errors:
        errors.sort(key=_path)
        return kind, [describe(e) for e in errors]
    return kind, [describe(best_error(errors))]


def _read_inputs(names):
    for name in names:
        if name == "-":
            yield "<stdin>", sys.stdin.buffer.read()
        else:
            with open(name, "rb") as f:
                yield name, f.read()


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Validate dynd protocol JSON lines against protocol/schema/*.json."
    )
    parser.add_argument(
        "--kind",
        choices=KINDS + ("auto",),
        default="auto",
        help="schema to check every line against (default auto: ev → event, ok → reply, op → request)",
    )
    parser.add_argument(
        "--all", action="store_true", help="report every schema error of a failing line, not only the best one"
    )
    parser.add_argument("--schema-dir", default=DEFAULT_SCHEMA_DIR, help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="+", metavar="FILE", help="JSON-lines file, or - for stdin")
    args = parser.parse_args(argv)

    try:
        validators = load_validators(args.schema_dir)
    except (OSError, ValueError, SchemaError) as e:
        sys.stderr.write("schema_check: cannot load the schemas from %s: %s\n" % (args.schema_dir, e))
        return 2

    passed = failed = 0
    try:
        for name, data in _read_inputs(args.files):
            lines = data.split(b"\n")
            if lines and lines[-1] == b"":
                lines.pop()  # the newline that ends the last line
            for number, raw in enumerate(lines, start=1):
                if not raw.strip():
                    continue  # blank lines separate nothing and are not counted
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    kind, problems = args.kind, ["not valid UTF-8: %s" % e]
                else:
                    kind, problems = check_line(text, args.kind, validators, args.all)
                if problems:
                    failed += 1
                    if len(problems) == 1:
                        print("%s:%d: %s: %s" % (name, number, kind, problems[0]))
                    else:
                        print("%s:%d: %s:" % (name, number, kind))
                        for problem in problems:
                            print("    " + problem)
                else:
                    passed += 1
    except OSError as e:
        sys.stderr.write("schema_check: %s\n" % e)
        return 2
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
