"""Grading one reply: compare the calls a rule selects with the gold calls, and check them
against each tool's input schema (the numbered points are in the package docstring)."""

from __future__ import annotations

import json
import math
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import jsonschema_rs

from ..errors import GradingError, SchemaValidatorError
from ..ir import GoldCall, ParamIR, ToolCall, ToolIR, Toolset, TypeIR
from ..protocols import ParsedReply, parse_reply
from ._rules import check_rule
from ._select import calls_under_rule, selections

__all__ = [
    "ArgumentProblem",
    "FLOAT_TOLERANCE",
    "Verdict",
    "call_schema_valid",
    "grade",
    "grade_all",
    "grade_rules",
    "schema_check",
    "unmatched_gold",
    "validate_arguments",
]

#: Relative tolerance for float comparison (point 4).
FLOAT_TOLERANCE = 1e-6
_REPR_CHARS = 120  # longest value shown in a reason
_FLOAT_MAX = int(sys.float_info.max)


@dataclass(frozen=True)
class Verdict:
    """The grade of one reply under one rule.

    Attributes
    ----------
    correct : bool
        The calls match the gold calls (points 1 to 9 of the module docstring).
    tool_correct : bool
        The called tool names equal the gold names as a multiset (after the rule's name
        handling).
    schema_valid : bool or None
        Every call validates against its tool's input schema; None when a validator could not
        run (never a silent False; ``schema_issue`` says why).
    reason : str
        The first mismatch in words ("" when correct), e.g. ``missing required argument city``
        or ``wrong value for unit: 'F' not in ['fahrenheit']``.
    schema_issue : str
        What the schema check found ("" when every call is valid): each problem as
        ``tool: path: problem``, or why a validator could not run; ``"; "``-separated.
    """

    correct: bool
    tool_correct: bool
    schema_valid: bool | None
    reason: str = ""
    schema_issue: str = ""


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _REPR_CHARS else text[:_REPR_CHARS] + "…"


# -- values --------------------------------------------------------------------------------------
def _same(value: Any, gold: Any, t: TypeIR | None) -> bool:
    """Whether ``value`` matches one gold value of type ``t`` (points 3, 4 and 9)."""
    kind = t.kind if t is not None else None
    if kind == "union":
        return any(_same(value, gold, o) for o in t.options) or _same(value, gold, None)
    if isinstance(gold, str):  # most gold values, first (a string is never a boolean)
        if not isinstance(value, str):
            return False
        return value.casefold() == gold.casefold() if kind == "enum" else value == gold
    if isinstance(gold, bool) or isinstance(value, bool):
        return isinstance(gold, bool) and isinstance(value, bool) and gold == value
    if isinstance(gold, (int, float)):
        return isinstance(value, (int, float)) and (
            value == gold if type(value) is int and type(gold) is int
            else _numbers_close(value, gold))
    if gold is None:
        return value is None
    if isinstance(gold, list):
        items = t.items if t is not None and t.kind == "array" else None
        return (isinstance(value, list) and len(value) == len(gold)
                and all(_same(v, g, items) for v, g in zip(value, gold)))
    if isinstance(gold, dict):
        fields = t.fields if t is not None and t.kind == "object" else ()
        return isinstance(value, dict) and _mismatch(
            value, {k: (g,) for k, g in gold.items()}, (), _by_name(fields), "",
            closed=bool(fields)
        ) is None
    return bool(value == gold)


def _numbers_close(value: int | float, gold: int | float) -> bool:
    """Equal integers, or within :data:`FLOAT_TOLERANCE` of each other (point 4).

    An integer past the float range is compared exactly (as a fraction), so no value overflows.
    """
    if isinstance(value, int) and isinstance(gold, int):
        return value == gold
    if all(isinstance(x, float) or abs(x) <= _FLOAT_MAX for x in (value, gold)):
        return math.isclose(value, gold, rel_tol=FLOAT_TOLERANCE)
    if not all(math.isfinite(x) for x in (value, gold) if isinstance(x, float)):
        return False  # an integer is never infinite or NaN
    a, b = Fraction(value), Fraction(gold)
    return abs(a - b) <= Fraction(FLOAT_TOLERANCE) * max(abs(a), abs(b))


def _one_of(value: Any, golds: Sequence[Any], t: TypeIR | None) -> bool:
    """Whether ``value`` matches one of the gold values (``any`` without a generator)."""
    for gold in golds:
        if _same(value, gold, t):
            return True
    return False


def _by_name(params: Sequence[ParamIR]) -> dict[str, ParamIR]:
    """Parameters by name (with a name declared twice, the last one)."""
    return {p.name: p for p in params}


def _mismatch(arguments: Mapping[str, Any], accepted: Mapping[str, Sequence[Any]],
              may_omit: Sequence[str], by_name: Mapping[str, ParamIR], path: str, *,
              closed: bool) -> str | None:
    """The first way ``arguments`` fail the gold values (points 5 and 6), or None;
    ``by_name``: the parameters declared at this level (:func:`_by_name`)."""
    for key, values in accepted.items():
        param = by_name.get(key)
        t = param.type if param is not None else None
        default_ok = param is not None and param.has_default
        if key in arguments:
            value = arguments[key]
            if _one_of(value, values, t):
                continue
            if not values and default_ok and _same(value, param.default, t):
                continue
            if not values:
                return f"wrong value for {path}{key}: {_show(value)}, expected it left out"
            return (f"wrong value for {path}{key}: {_show(value)} not in "
                    f"{_show(list(values))}")
        if key in may_omit or (default_ok and any(_same(param.default, g, t) for g in values)):
            continue
        required = "required " if param is not None and param.required else ""
        return f"missing {required}argument {path}{key}"
    for key, value in arguments.items():
        if key in accepted:
            continue
        param = by_name.get(key)
        if param is None and closed:
            return f"argument {path}{key} is not in the schema"
        if param is not None and param.has_default and _same(value, param.default, param.type):
            continue
        return f"unexpected argument {path}{key} = {_show(value)}"
    return None


# -- inputs ----------------------------------------------------------------------------------------
def _gold_calls(gold: Any, toolset: Toolset) -> list[GoldCall]:
    if isinstance(gold, (GoldCall, ToolCall)):
        gold = [gold]
    # a list or tuple, as almost every caller passes, needs no abstract-class check
    if type(gold) is not list and type(gold) is not tuple and (
            isinstance(gold, (str, bytes, Mapping)) or not isinstance(gold, Sequence)):
        raise GradingError(f"gold must be a sequence of GoldCall or ToolCall, got "
                           f"{type(gold).__name__}")
    out = []
    for i, g in enumerate(gold):
        if type(g) is not GoldCall:
            if isinstance(g, ToolCall):
                g = GoldCall.from_call(g)
            if not isinstance(g, GoldCall):
                raise GradingError(f"gold[{i}] is a {type(g).__name__}, expected GoldCall or "
                                   "ToolCall")
        tool = toolset.get(g.name)
        if tool is None:
            raise GradingError(f"gold[{i}] calls {g.name!r}, which is not in the toolset")
        for key, values in g.accepted.items():
            if tool.param(key) is None:
                raise GradingError(f"gold[{i}] ({g.name}) expects argument {key!r}, which "
                                   "the tool's schema does not declare")
            if not isinstance(values, (tuple, list)):
                raise GradingError(f"gold[{i}] ({g.name}) argument {key!r}: accepted values "
                                   f"must be a tuple, got {type(values).__name__}")
            if not values and key not in g.may_omit:
                raise GradingError(f"gold[{i}] ({g.name}) argument {key!r} accepts no value "
                                   "and may not be left out")
        out.append(g)
    return out


# -- schema validity ------------------------------------------------------------------------------
def _build_validator(tool: ToolIR) -> jsonschema_rs.Validator | str:
    """The validator of the schema calls to ``tool`` are checked against, or why there is none.

    Tools of different requests often share a schema (BFCL repeats its functions): a
    validator is compiled once per schema text, keyed by ``repr`` (which tells ``True`` from
    ``1`` and ``1.0``, as ``==`` on a schema would not).
    """
    try:
        schema = tool.input_schema()
        key = repr(schema)
    except Exception as exc:  # whatever stops the build is reported, never graded
        return _first_line(exc)
    with _VALIDATORS_LOCK:
        found = _BY_SCHEMA.get(key)
        if found is not None:
            _BY_SCHEMA.move_to_end(key)
            return found
    try:
        found = jsonschema_rs.Draft202012Validator(schema)
    except Exception as exc:  # whatever stops the build is reported, never graded
        found = _first_line(exc)
    with _VALIDATORS_LOCK:
        _BY_SCHEMA[key] = found
        while len(_BY_SCHEMA) > _VALIDATORS_KEPT:
            _BY_SCHEMA.popitem(last=False)
    return found


def _first_line(exc: BaseException) -> str:
    """``Type: first line of the message`` (jsonschema-rs messages run to several lines)."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


_VALIDATORS: OrderedDict[int, tuple[ToolIR, jsonschema_rs.Validator | str]] = OrderedDict()
#: Validators (or why none could be built) by schema text, for :func:`_build_validator`.
_BY_SCHEMA: OrderedDict[str, jsonschema_rs.Validator | str] = OrderedDict()
_VALIDATORS_LOCK = threading.Lock()
_VALIDATORS_KEPT = 4096  # entries of each of the two caches


def _validator(tool: ToolIR) -> jsonschema_rs.Validator:
    """``tool``'s validator, built once per tool object.

    Keyed by identity, so a tool need not be hashable (a ``[]`` or ``{}`` default makes a
    ``ToolIR`` unhashable) and a lookup never hashes a whole schema. Each entry holds its tool,
    so an id is not reused while its entry lives; the least recently used entries go first.

    Raises
    ------
    SchemaValidatorError
        When no validator can be built for the tool's schema.
    """
    with _VALIDATORS_LOCK:
        entry = _VALIDATORS.get(id(tool))
        if entry is not None and entry[0] is tool:
            _VALIDATORS.move_to_end(id(tool))
    if entry is None or entry[0] is not tool:
        # building the schema and its validator costs more than validating: once per tool
        entry = (tool, _build_validator(tool))
        with _VALIDATORS_LOCK:
            _VALIDATORS[id(tool)] = entry
            while len(_VALIDATORS) > _VALIDATORS_KEPT:
                _VALIDATORS.popitem(last=False)
    if isinstance(entry[1], str):
        raise SchemaValidatorError(tool.name, entry[1])
    return entry[1]


@dataclass(frozen=True)
class ArgumentProblem:
    """One way a call's arguments break its tool's input schema.

    Attributes
    ----------
    location : tuple of str or int
        Where in the arguments: object keys and array indices from the top (``()``: the
        arguments object itself).
    keyword : str
        The JSON Schema keyword that failed (``"type"``, ``"required"``, ``"enum"``,
        ``"additionalProperties"``...).
    message : str
        The problem in words, e.g. ``expected integer, got the string '10'``.

    ``str(problem)`` is ``path: message``, e.g. ``base: expected integer, got the string '10'``.
    """

    location: tuple[str | int, ...]
    keyword: str
    message: str

    @property
    def path(self) -> str:
        """``location`` as a path: ``route.origin``, ``tags[1]``, ``filters["a b"]``;
        ``(arguments)`` for the arguments object itself."""
        parts = []
        for step in self.location:
            if isinstance(step, int):
                parts.append(f"[{step}]")
            elif _PLAIN_KEY.fullmatch(step):
                parts.append(f".{step}" if parts else step)
            else:
                parts.append(f"[{json.dumps(step, ensure_ascii=False)}]")
        return "".join(parts) or "(arguments)"

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


_PLAIN_KEY = re.compile(r"[^\s.\[\]\"']+")
#: Error kinds that mean the validator gave up, not that the value is wrong.
_GAVE_UP = frozenset({"BacktrackLimitExceeded", "RegexEngineFailure"})
_MAX_PROBLEMS = 10  # per call, in a verdict's schema_issue


def _described(value: Any) -> str:
    """A value in words: ``the string '10'``, ``the integer 5``, ``an array of 3 items``."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if value is None:
        return "null"
    if isinstance(value, int):
        return f"the integer {_show(value)}"
    if isinstance(value, float):
        return f"the number {_show(value)}"
    if isinstance(value, str):
        return f"the string {_show(value)}"
    if isinstance(value, (list, tuple)):
        n = len(value)
        return f"an array of {n} item{'s' * (n != 1)}" if n else "an empty array"
    if isinstance(value, Mapping):
        return f"an object with keys {_show(sorted(map(str, value)))}" if value else \
            "an empty object"
    return f"a Python {type(value).__name__}"


def _either(options: Sequence[Any]) -> str:
    shown = [_show(o) for o in options]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _alternative_types(error: Any) -> list[str] | None:
    """The types an ``anyOf``/``oneOf`` allows, when each alternative failed only on its type."""
    types: list[str] = []
    for branch in error.kind.context:
        if len(branch) != 1 or branch[0].kind.name != "type" or \
                list(branch[0].instance_path) != list(error.instance_path):
            return None
        types.extend(t for t in branch[0].kind.types if t not in types)
    return types or None


def _problems(error: Any) -> list[ArgumentProblem]:
    """One jsonschema-rs error as problems in words (one per unexpected or missing key)."""
    kind, name = error.kind, error.kind.name
    where = tuple(error.instance_path)
    got = _described(error.instance)
    if name == "required":
        return [ArgumentProblem(where + (kind.property,), name, "required but missing")]
    if name == "additionalProperties":
        return [ArgumentProblem(where + (key,), name, "not declared by the schema")
                for key in kind.unexpected]
    if name == "type":
        text = f"expected {' or '.join(kind.types)}, got {got}"
    elif name == "enum":
        text = f"expected one of {_either(kind.options)}, got {got}"
    elif name == "const":
        text = f"expected exactly {_show(kind.expected_value)}, got {got}"
    elif name in _BOUNDS:
        text = f"expected {_BOUNDS[name]} {_show(kind.limit)}, got {got}"
    elif name in _SIZES:
        bound, unit = _SIZES[name]
        size = len(error.instance) if isinstance(error.instance, (str, list, dict)) else "?"
        text = f"expected {bound} {kind.limit} {unit}, got {size}"
    elif name == "pattern":
        text = f"expected text matching the pattern {kind.pattern!r}, got {got}"
    elif name == "multipleOf":
        text = f"expected a multiple of {_show(kind.multiple_of)}, got {got}"
    elif name == "uniqueItems":
        text = "expected unique items, got a repeated item"
    elif type(kind).__name__ == "OneOfMultipleValid":
        text = f"{got} fits more than one of the oneOf alternatives, which must fit exactly one"
    elif name in ("anyOf", "oneOf"):
        types = _alternative_types(error)
        text = (f"expected {' or '.join(types)}, got {got}" if types else
                f"{got} fits none of the {len(kind.context)} {name} alternatives")
    else:
        text = error.message
    return [ArgumentProblem(where, name, text)]


_BOUNDS = {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
           "exclusiveMaximum": "less than"}
_SIZES = {"minLength": ("at least", "characters"), "maxLength": ("at most", "characters"),
          "minItems": ("at least", "items"), "maxItems": ("at most", "items"),
          "minProperties": ("at least", "keys"), "maxProperties": ("at most", "keys")}


def validate_arguments(tool: ToolIR, arguments: Mapping[str, Any]) -> tuple[ArgumentProblem, ...]:
    """What is wrong with a call's arguments against its tool's input schema.

    The one schema check of ToolForm: grading's ``schema_valid`` is this returning no problem.
    Validation is JSON Schema draft 2020-12 (``jsonschema-rs``) against ``tool.input_schema()``;
    as JSON Schema says, ``5.0`` is an integer.

    Parameters
    ----------
    tool : ToolIR
        The tool called.
    arguments : mapping of str to Any
        The call's arguments (JSON values).

    Returns
    -------
    tuple of ArgumentProblem
        Empty when the arguments validate; otherwise each problem with its path, sorted by
        path (indices before keys, keys alphabetically; one path's problems in the validator's
        order); ``str(p)`` reads ``base: expected integer, got the string '10'``.

    Raises
    ------
    SchemaValidatorError
        When the schema cannot be validated against: no validator can be built for it (a
        ``pattern`` the regex engine rejects, a ``$ref`` that resolves nowhere), or the
        validator gave up on this value (a regex past its backtracking limit).
    """
    validator = _validator(tool)
    # a plain dict is validated as it is (the validator only reads it): no copy
    instance = arguments if type(arguments) is dict else dict(arguments) if isinstance(
        arguments, Mapping) else arguments
    try:
        if validator.is_valid(instance):
            return ()
        errors = list(validator.iter_errors(instance))
    except Exception as exc:  # the validator crashed on this value: unknown, not invalid
        raise SchemaValidatorError(tool.name, _first_line(exc)) from exc
    gave_up = next((e for e in errors if type(e.kind).__name__ in _GAVE_UP), None)
    if gave_up is not None:
        where = ArgumentProblem(tuple(gave_up.instance_path), "", "").path
        raise SchemaValidatorError(tool.name, f"{gave_up.message} (at {where})")
    problems = [p for e in errors for p in _problems(e)]
    # "expected one of 'a' or 'b'" already says what a type error at the same place would
    listed = {p.location for p in problems if p.keyword in ("enum", "const")}
    problems = [p for p in problems if not (p.keyword == "type" and p.location in listed)]
    return tuple(sorted(problems, key=lambda p: [(isinstance(s, str), s) for s in p.location]))


def _call_check(call: ToolCall, toolset: Toolset) -> tuple[bool | None, str]:
    """(valid, issue) for one call: False with its problems, None when it cannot be checked."""
    tool = toolset.get(call.name)
    if tool is None:
        return False, f"{call.name}: no tool of that name in the toolset"
    try:
        problems = validate_arguments(tool, call.arguments)
    except SchemaValidatorError as exc:
        return None, str(exc)
    if not problems:
        return True, ""
    shown = [f"{call.name}: {p}" for p in problems[:_MAX_PROBLEMS]]
    if len(problems) > _MAX_PROBLEMS:
        shown.append(f"{call.name}: {len(problems) - _MAX_PROBLEMS} more problems")
    return False, "; ".join(shown)


def call_schema_valid(call: ToolCall, toolset: Toolset) -> bool | None:
    """Whether ``call`` names a tool of ``toolset`` and its arguments validate (draft 2020-12).

    Returns
    -------
    bool or None
        None when the tool's schema cannot be validated against (see :func:`validate_arguments`).
    """
    return _call_check(call, toolset)[0]


def schema_check(calls: Sequence[ToolCall], toolset: Toolset) -> tuple[bool | None, str]:
    """Whether every call validates against its tool's schema, and what was found.

    Parameters
    ----------
    calls : sequence of ToolCall
        The calls graded.
    toolset : Toolset
        The tools the model was shown.

    Returns
    -------
    valid : bool or None
        True when every call validates (or there is none); False when one does not (a call
        to an unknown tool included); None when none is invalid but a validator could not run.
    issue : str
        Each problem as ``tool: path: problem``, and why a validator could not run;
        ``"; "``-separated, "" when every call is valid.
    """
    valid: bool | None = True
    issues = []
    for call in calls:
        ok, issue = _call_check(call, toolset)
        if ok is False:
            valid = False
        elif ok is None and valid is True:
            valid = None
        if issue:
            issues.append(issue)
    return valid, "; ".join(issues)


def _names(calls: Sequence[Any]) -> str:
    names = [c.name for c in calls]
    return names[0] if len(names) == 1 else str(sorted(names))


def _augment(i: int, edges: list[list[int]], owner: dict[int, int], seen: set[int]) -> bool:
    for j in edges[i]:
        if j in seen:
            continue
        seen.add(j)
        if j not in owner or _augment(owner[j], edges, owner, seen):
            owner[j] = i
            return True
    return False


def unmatched_gold(edges: Sequence[Sequence[int]]) -> int | None:
    """Order-free matching of gold calls to reply calls (point 7), by augmenting paths.

    Parameters
    ----------
    edges : sequence of sequence of int
        For each gold call, the indices of the reply calls that satisfy it.

    Returns
    -------
    int or None
        The first gold call left without a distinct reply call, or None when every gold call
        gets one.
    """
    if len(edges) == 1:  # one gold call (most requests): matched by any reply call
        return None if len(edges[0]) else 0
    owner: dict[int, int] = {}
    lists = [list(e) for e in edges]
    for i in range(len(lists)):
        if not _augment(i, lists, owner, set()):
            return i
    return None


# -- public --------------------------------------------------------------------------------------
def grade(parsed_or_calls: ParsedReply | Sequence[ToolCall] | ToolCall,
          gold: Sequence[GoldCall | ToolCall] | GoldCall | ToolCall, toolset: Toolset,
          rule: str = "main") -> Verdict:
    """Grade a reply's calls against the gold calls under one rule.

    Parameters
    ----------
    parsed_or_calls : ParsedReply, or sequence of ToolCall
        A parsed reply (``rule`` selects among its calls as written and their recorded
        repairs: :func:`select_calls`), or plain calls, treated as a typed protocol's calls as
        written.
    gold : sequence of GoldCall or ToolCall
        The expected calls (empty: no call expected). A ``ToolCall`` accepts exactly its
        values (``GoldCall.from_call``).
    toolset : Toolset
        The tools the model was shown.
    rule : str
        ``"main"``, ``"symmetric"`` or ``"as_written"`` (see the module docstring).

    Returns
    -------
    Verdict

    Raises
    ------
    GradingError
        For an unknown rule, a gold call naming a tool or argument the toolset does not have,
        an argument that accepts no value and may not be left out, or inputs of the wrong type.
    """
    check_rule(rule)
    return _grade_calls(calls_under_rule(parsed_or_calls, toolset, rule),
                        _gold_calls(gold, toolset), toolset)


def _grade_calls(calls: Sequence[ToolCall], golds: Sequence[GoldCall],
                 toolset: Toolset) -> Verdict:
    """The verdict on the calls a rule selected (points 1 to 9)."""
    tool_correct = sorted(c.name for c in calls) == sorted(g.name for g in golds)  # multisets
    schema_valid, schema_issue = schema_check(calls, toolset)

    def verdict(reason: str) -> Verdict:
        return Verdict(correct=not reason, tool_correct=tool_correct, schema_valid=schema_valid,
                       reason=reason, schema_issue=schema_issue)

    if not golds:
        return verdict(f"expected no call, got {len(calls)}" if calls else "")
    if not calls:
        return verdict(f"expected {len(golds)} call{'s' * (len(golds) > 1)}, got none")
    if len(calls) != len(golds):
        return verdict(f"expected {len(golds)} calls, got {len(calls)}")
    if not tool_correct:
        return verdict(f"wrong tool: expected {_names(golds)}, got {_names(calls)}")
    reasons: list[list[str | None]] = []
    for g in golds:
        by_name = _by_name(toolset[g.name].params)
        reasons.append([
            _mismatch(c.arguments, g.accepted, g.may_omit, by_name, "", closed=True)
            if c.name == g.name else "wrong tool" for c in calls])
    i = unmatched_gold([[j for j, r in enumerate(row) if r is None] for row in reasons])
    if i is not None:
        # every matching call is taken by another gold call: report a real mismatch
        return verdict(next((r for r in reasons[i] if r not in (None, "wrong tool")),
                            f"no distinct call matches gold call {i + 1} ({golds[i].name})"))
    return verdict("")


def grade_all(reply: Any, toolset: Toolset, protocol_id: str,
              gold: Sequence[GoldCall | ToolCall] | GoldCall | ToolCall, *,
              lenient_fallback: bool = False) -> dict[str, Verdict]:
    """Parse a reply once and grade it under every rule.

    Parameters
    ----------
    reply : str, dict or message object
        The model's reply (see ``parse_reply``).
    toolset : Toolset
        The tools the model was shown.
    protocol_id : str
        The protocol the model was asked to answer in.
    gold : sequence of GoldCall or ToolCall
        The expected calls.
    lenient_fallback : bool
        Grade another protocol's calls when the asked protocol reads none.

    Returns
    -------
    dict of str to Verdict
        One verdict per rule, keyed and ordered as :data:`RULES`.

    Raises
    ------
    UnknownProtocolError
        When ``protocol_id`` is not registered.
    GradingError
        As for :func:`grade`.
    """
    parsed = parse_reply(reply, toolset, protocol_id, lenient_fallback=lenient_fallback)
    return grade_rules(parsed, gold, toolset)


def grade_rules(parsed: ParsedReply, gold: Sequence[GoldCall | ToolCall] | GoldCall | ToolCall,
                toolset: Toolset) -> dict[str, Verdict]:
    """Grade a parsed reply under every rule, each distinct selection of calls once.

    Parameters
    ----------
    parsed : ParsedReply
        The reply as ``parse_reply`` read it.
    gold : sequence of GoldCall or ToolCall
        The expected calls.
    toolset : Toolset
        The tools the model was shown.

    Returns
    -------
    dict of str to Verdict
        One verdict per rule, keyed and ordered as :data:`RULES`; the same as
        ``grade(parsed, gold, toolset, rule)`` for each.

    Raises
    ------
    GradingError
        As for :func:`grade`.
    """
    return _grade_selections(parsed, _gold_calls(gold, toolset), toolset)


def _written_alike(a: Any, b: Any) -> bool:
    """Whether two equal values are also written alike, as ``repr(a) == repr(b)`` says,
    without writing them: the same types all the way down (``True``, ``1`` and ``1.0`` are
    equal, yet each grades differently), the same sign of zero, dict keys in the same order."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is str or kind is int or kind is bool:
        return True
    if kind is float:
        return math.copysign(1.0, a) == math.copysign(1.0, b)
    if kind is dict:  # equal dicts: the same keys, maybe in another order
        return list(a) == list(b) and all(_written_alike(ka, kb) and _written_alike(va, vb)
                   for (ka, va), (kb, vb) in zip(a.items(), b.items()))
    if kind is list or kind is tuple:
        return all(map(_written_alike, a, b))
    if kind is ToolCall:
        return a.name == b.name and _written_alike(a.arguments, b.arguments)
    return repr(a) == repr(b)


def _grade_selections(parsed: ParsedReply, golds: Sequence[GoldCall], toolset: Toolset
                     ) -> dict[str, Verdict]:
    """:func:`grade_rules` on gold calls already checked (``_gold_calls``)."""
    verdicts: dict[str, Verdict] = {}
    graded: list[tuple[tuple[ToolCall, ...], Verdict]] = []
    for rule, calls in selections(parsed).items():
        # the rules often select the same calls: grade each distinct selection once (equal
        # and written alike: True == 1 and 1 == 1.0, yet each grades differently)
        same = next((v for c, v in graded
                     if c is calls or c == calls and _written_alike(c, calls)), None)
        verdicts[rule] = same or _grade_calls(calls, golds, toolset)
        graded.append((calls, verdicts[rule]))
    return verdicts
