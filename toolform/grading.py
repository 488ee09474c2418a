"""Grading: do a reply's calls match the gold calls, under the study's three rules.

The rules differ only in which calls are looked at (``toolform.protocols._parse``):

* ``as_written``: the calls exactly as the parser read them; tool names must match exactly.
* ``main``: names differing from a tool only by case or separators are accepted; flat
  arguments are re-nested into their object parameter for text-valued protocols only
  (``xml_call``, ``nl_intent``), whose values arrive as text anyway.
* ``symmetric``: the same name repair, and re-nesting for every protocol.

Every rule then compares values the same way. The numbered points, each with a hand-checked
test in ``tests/test_grading.py``:

1. Tool names: exact under ``as_written``; case- and separator-resolved names are accepted
   under ``main`` and ``symmetric``; a nearest-name resolution (``get_wether``) is never
   accepted.
2. Types: text values are typed from the schema inside the parser, for text-valued protocols
   only. A typed protocol (JSON, Python) writing ``"5"`` for an integer is wrong.
3. Strings: enum values compare case-insensitively (``"Celsius"`` matches ``"celsius"``);
   every other string compares exactly.
4. Numbers: integers and floats compare by value (``5`` matches ``5.0``); a float matches
   within a relative tolerance of 1e-6. Booleans are not numbers.
5. Omissions: an absent argument matches when the gold call lists it in ``may_omit``, or when
   one of its gold values equals the parameter's declared default. An explicit value equal to
   the declared default matches a gold call that leaves the argument out.
6. Extras: an argument the gold call does not list is wrong unless it equals its declared
   default; an argument the tool's schema does not declare is always wrong.
7. Parallel calls: reply calls and gold calls are matched as multisets (order-free), each
   gold call to a distinct reply call; the counts must be equal.
8. An empty gold list and no call in the reply is correct (a right abstention).
9. Nested objects are compared key by key with points 3 to 6 (declared field defaults count);
   arrays element by element, in order, with equal lengths.

``schema_valid`` is separate from ``correct``: every call validates (``jsonschema-rs``, draft
2020-12) against its tool's input schema; a call to an unknown tool, or a schema that
the validator cannot use (a ``pattern`` its regex engine rejects, say), is not valid. With no
call it is True.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import jsonschema_rs

from .errors import GradingError
from .ir import GoldCall, ParamIR, ToolCall, ToolIR, Toolset, TypeIR
from .protocols._parse import RULES
from .protocols import ParsedReply, get_protocol, parse_reply
from .protocols._parse import repair_calls, select_calls

__all__ = ["FLOAT_TOLERANCE", "RULES", "Verdict", "call_schema_valid", "calls_under_rule", "grade",
           "grade_all", "grade_rules", "unmatched_gold"]

#: Relative tolerance for float comparison (point 4).
FLOAT_TOLERANCE = 1e-6
_REPR_CHARS = 120  # longest value shown in a reason


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
    schema_valid : bool
        Every call validates against its tool's input schema.
    reason : str
        The first mismatch in words ("" when correct), e.g. ``missing required argument city``
        or ``wrong value for unit: 'F' not in ['fahrenheit']``.
    """

    correct: bool
    tool_correct: bool
    schema_valid: bool
    reason: str = ""


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _REPR_CHARS else text[:_REPR_CHARS] + "…"


# -- values --------------------------------------------------------------------------------------
def _same(value: Any, gold: Any, t: TypeIR | None) -> bool:
    """Whether ``value`` matches one gold value of type ``t`` (points 3, 4 and 9)."""
    if t is not None and t.kind == "union":
        return any(_same(value, gold, o) for o in t.options) or _same(value, gold, None)
    if isinstance(gold, bool) or isinstance(value, bool):
        return isinstance(gold, bool) and isinstance(value, bool) and gold == value
    if isinstance(gold, (int, float)):
        if not isinstance(value, (int, float)):
            return False
        if isinstance(gold, int) and isinstance(value, int):
            return gold == value
        try:
            return math.isclose(value, gold, rel_tol=FLOAT_TOLERANCE)
        except OverflowError:  # an integer too large for a float
            return False
    if isinstance(gold, str):
        if not isinstance(value, str):
            return False
        if t is not None and t.kind == "enum":
            return value.casefold() == gold.casefold()
        return value == gold
    if gold is None:
        return value is None
    if isinstance(gold, list):
        items = t.items if t is not None and t.kind == "array" else None
        return (isinstance(value, list) and len(value) == len(gold)
                and all(_same(v, g, items) for v, g in zip(value, gold)))
    if isinstance(gold, dict):
        fields = t.fields if t is not None and t.kind == "object" else ()
        return isinstance(value, dict) and _mismatch(
            value, {k: (g,) for k, g in gold.items()}, (), fields, "", closed=bool(fields)
        ) is None
    return bool(value == gold)


def _mismatch(arguments: Mapping[str, Any], accepted: Mapping[str, Sequence[Any]],
              may_omit: Sequence[str], params: Sequence[ParamIR], path: str, *, closed: bool
              ) -> str | None:
    """The first way ``arguments`` fail the gold values (points 5 and 6), or None."""
    by_name = {p.name: p for p in params}
    for key, values in accepted.items():
        param = by_name.get(key)
        t = param.type if param is not None else None
        default_ok = param is not None and param.has_default
        if key in arguments:
            value = arguments[key]
            if any(_same(value, g, t) for g in values):
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
    if isinstance(gold, (str, bytes, Mapping)) or not isinstance(gold, Sequence):
        raise GradingError(f"gold must be a sequence of GoldCall or ToolCall, got "
                           f"{type(gold).__name__}")
    out = []
    for i, g in enumerate(gold):
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


def calls_under_rule(parsed_or_calls: Any, toolset: Toolset, rule: str) -> tuple[ToolCall, ...]:
    """The calls ``rule`` grades: names resolved by case or separator only (never nearest).

    Parameters
    ----------
    parsed_or_calls : ParsedReply, sequence of ToolCall, or ToolCall
        A parsed reply, or plain calls (treated as a typed protocol's calls as written).
    toolset : Toolset
        The tools the model was shown.
    rule : str
        One of :data:`RULES`.

    Returns
    -------
    tuple of ToolCall

    Raises
    ------
    GradingError
        When ``parsed_or_calls`` is neither.
    """
    if isinstance(parsed_or_calls, ParsedReply):
        base = parsed_or_calls.calls_as_written
        source = parsed_or_calls.source_protocol
        text_values = get_protocol(source).text_values if source else False
    else:
        calls = [parsed_or_calls] if isinstance(parsed_or_calls, ToolCall) else parsed_or_calls
        if isinstance(calls, (str, bytes, Mapping)) or not isinstance(calls, Sequence) or \
                not all(isinstance(c, ToolCall) for c in calls):
            raise GradingError("grade() takes a ParsedReply or a sequence of ToolCall, got "
                               f"{type(parsed_or_calls).__name__}")
        base, text_values = tuple(calls), False
    return _calls_by_rule(base, toolset, text_values, (rule,))[rule]


def _calls_by_rule(base: Sequence[ToolCall], toolset: Toolset, text_values: bool,
                   rules: Sequence[str]) -> dict[str, tuple[ToolCall, ...]]:
    """Each rule's selection from one repair of the calls as written (never nearest names)."""
    repair = repair_calls(base, toolset, text_values=text_values, nearest=False)
    return {rule: select_calls(rule, base, repair, text_values=text_values) for rule in rules}


@functools.lru_cache(maxsize=4096)
def _validator(tool: ToolIR) -> jsonschema_rs.Draft202012Validator:
    # building the schema and its validator costs more than validating: once per tool
    return jsonschema_rs.Draft202012Validator(tool.input_schema())


def call_schema_valid(call: ToolCall, toolset: Toolset) -> bool:
    """Whether ``call`` names a tool of ``toolset`` and its arguments validate (draft 2020-12)."""
    tool = toolset.get(call.name)
    if tool is None:
        return False
    try:
        return bool(_validator(tool).is_valid(dict(call.arguments)))
    except (ValueError, TypeError, OverflowError, RecursionError):  # a schema it cannot use
        return False


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
        A parsed reply (its ``calls_as_written`` are re-derived for ``rule``, whatever rule it
        was parsed under), or plain calls, treated as a typed protocol's calls as written.
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
    if rule not in RULES:
        raise GradingError(f"unknown grading rule {rule!r}; expected one of {list(RULES)}")
    return _grade_calls(calls_under_rule(parsed_or_calls, toolset, rule),
                        _gold_calls(gold, toolset), toolset)


def _grade_calls(calls: Sequence[ToolCall], golds: Sequence[GoldCall],
                 toolset: Toolset) -> Verdict:
    """The verdict on the calls a rule selected (points 1 to 9)."""
    tool_correct = Counter(c.name for c in calls) == Counter(g.name for g in golds)
    schema_valid = all(call_schema_valid(c, toolset) for c in calls)

    def verdict(reason: str) -> Verdict:
        return Verdict(correct=not reason, tool_correct=tool_correct,
                       schema_valid=schema_valid, reason=reason)

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
        params = toolset[g.name].params
        reasons.append([
            _mismatch(c.arguments, g.accepted, g.may_omit, params, "", closed=True)
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
    golds = _gold_calls(gold, toolset)
    source = parsed.source_protocol
    selected = _calls_by_rule(parsed.calls_as_written, toolset,
                              get_protocol(source).text_values if source else False, RULES)
    verdicts: dict[str, Verdict] = {}
    graded: list[tuple[tuple[ToolCall, ...], Verdict]] = []
    for rule, calls in selected.items():
        # the rules often select the same calls: grade each distinct selection once
        same = next((v for c, v in graded if c == calls), None)
        verdicts[rule] = same or _grade_calls(calls, golds, toolset)
        graded.append((calls, verdicts[rule]))
    return verdicts
