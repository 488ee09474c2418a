"""Grading against possible answers, the way the Berkeley Function Calling Leaderboard does it.

BFCL keeps, for each argument of a gold call, a list of acceptable values; ``""`` in the list
means the argument may be left out (``GoldCall.may_omit`` here). Its AST checker
(``bfcl_eval.eval_checker.ast_eval.ast_checker``) differs from the study's rules
(``toolform.grading``) on purpose, so :func:`grade_possible_answers` is a separate grader that
follows BFCL's semantics, written here from its documented behaviour:

1. Calls are taken exactly as written (the ``as_written`` rule): tool names must match exactly,
   nothing is re-nested.
2. The number of calls must equal the number of gold calls. Gold calls and reply calls are
   matched order-free, each gold call to a distinct call, the way BFCL's
   ``parallel_function_checker_no_order`` does: greedily, each gold call in turn taking the
   first call not yet taken that satisfies it. Greedy matching can miss a matching that exists
   (gold 1 accepts calls A and B, gold 2 only A, and A comes first): ``matching="optimal"``
   finds one whenever there is one (a maximum matching by augmenting paths).
3. Every required parameter must be present.
4. An argument must be a declared parameter *and* be listed in the gold call: an extra argument
   fails even when it equals the parameter's default.
5. Types are exact, per BFCL's Python mapping: ``integer`` wants an int (not a float, not a
   bool), ``number`` a float (an int is converted), ``string`` and ``any`` a str, ``boolean`` a
   bool, ``array`` a list (a tuple is converted), ``object`` a dict. When the gold values are of
   another type than the schema says (BFCL writes a variable name as a string), a value of the
   gold values' type is taken as that variable. For an array, each element is checked one level
   deep, unless the argument may be left out.
6. Strings compare after normalising both sides: lower case, ``'`` as ``"``, and spaces and
   ``, . / - _ * ^`` removed ("April 1, 2024" equals "april 1 2024"). So do the strings directly
   inside a list, and the string values of a dict. BFCL's ``""`` marker is itself a string
   answer: an argument that may be left out may also be given as ``""`` when it is a string (or
   a variable name), or as any text that normalises to nothing (``","``).
7. Dicts: the reply's dict must have the keys of one acceptable dict, with equal values (strings
   normalised). BFCL writes an acceptable dict with a list of options per key, ``""`` for a key
   that may be left out; ``datasets/build_bfcl.py`` expands those into every concrete dict, so
   the two checks agree. Lists of dicts compare dict by dict, in order.
8. Other values (numbers, booleans) must be among the acceptable values (``5 == 5.0``).
9. An argument listed in the gold call but absent from the call fails unless it may be left out.
10. No gold call and no call is correct (BFCL's irrelevance category).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import GradingError
from ..ir import GoldCall, ParamIR, ToolCall, Toolset, TypeIR
from ._grade import Verdict, schema_check, unmatched_gold
from ._select import calls_under_rule

__all__ = ["MATCHINGS", "grade_possible_answers", "normalise_string", "possible_answers_verdict"]

_DROPPED = re.compile(r"[ ,./\-_*^]")
#: The Python type BFCL expects for each IR kind (``any`` is a string in BFCL's Python mapping).
_PYTHON_TYPE: dict[str, type] = {"string": str, "any": str, "integer": int, "number": float,
                                 "boolean": bool, "array": list, "object": dict}


def normalise_string(text: str) -> str:
    """BFCL's string normal form: lower case, ``'`` as ``"``, spaces and ``, . / - _ * ^`` dropped.

    Parameters
    ----------
    text : str

    Returns
    -------
    str
        E.g. ``"San Francisco, CA"`` → ``"sanfranciscoca"``.
    """
    return _DROPPED.sub("", text).lower().replace("'", '"')


def _norm(value: Any) -> Any:
    return normalise_string(value) if isinstance(value, str) else value


def _expected_type(t: TypeIR) -> type | None:
    if t.kind == "enum":
        kinds = {type(v) for v in t.values}
        return str if kinds <= {str} else (kinds.pop() if len(kinds) == 1 else None)
    return _PYTHON_TYPE.get(t.kind)


def _first_type(values: Sequence[Any]) -> type | None:
    return type(values[0]) if values else None


def _type_problem(name: str, value: Any, t: TypeIR, accepted: Sequence[Any],
                  omittable: bool) -> tuple[Any, bool, str]:
    """(value converted, is a variable, problem or "") per point 5."""
    expected = _expected_type(t)
    if expected is None:  # unions and nulls: BFCL's documents have none; take the value as it is
        return value, False, ""
    if expected is list and isinstance(value, tuple):
        value = list(value)
    if expected is float and type(value) is int:
        value = float(value)
    gold_type = _first_type(accepted)
    variable = gold_type is not None and gold_type is not expected
    if type(value) is expected:
        if expected is list and t.items is not None and not omittable:
            inner = _expected_type(t.items)
            if inner is not None and not any(
                    isinstance(answer, list) and all(
                        type(item) is inner or type(item) is _first_type(answer)
                        for item in value) for answer in accepted):
                return value, variable, (f"wrong element type in {name}: expected "
                                         f"{inner.__name__} elements")
        return value, variable, ""
    if gold_type is not None and type(value) is gold_type:
        return value, True, ""
    return value, variable, (f"wrong type for {name}: expected {expected.__name__}, "
                             f"got {type(value).__name__}")


def _dict_matches(value: Mapping[str, Any], answer: Any) -> bool:
    """Same keys, and equal values with strings normalised (BFCL's dict check, one level)."""
    return isinstance(answer, Mapping) and set(value) == set(answer) and \
        all(_norm(item) == _norm(answer[key]) for key, item in value.items())


def _value_problem(name: str, value: Any, t: TypeIR, accepted: Sequence[Any],
                   omittable: bool, variable: bool) -> str:
    """The first mismatch of one argument's value (points 6 to 8), "" when it matches."""
    expected = _expected_type(t)
    wrong = f"wrong value for {name}: {value!r} not in {list(accepted)!r}"
    if omittable:  # BFCL keeps its "" marker among the answers: one more string answer
        accepted = (*accepted, "")
    if variable:
        return "" if value in accepted else wrong
    if expected is dict:
        return "" if any(_dict_matches(value, a) for a in accepted) else wrong
    if expected is list and t.items is not None and _expected_type(t.items) is dict:
        # BFCL compares lengths first, and its "" marker is as long as an empty list
        ok = any((isinstance(a, list) or a == "") and len(a) == len(value)
                 and all(isinstance(v, Mapping) and _dict_matches(v, d)
                         for v, d in zip(value, a)) for a in accepted)
        return "" if ok else wrong
    if expected is str:
        return "" if _norm(value) in [_norm(a) for a in accepted if isinstance(a, str)] else wrong
    if expected is list:
        options = [[_norm(v) for v in a] for a in accepted if isinstance(a, list)]
        if omittable:
            options.append([])  # BFCL reads its "" marker as one more, empty, list
        return "" if [_norm(v) for v in value] in options else wrong
    return "" if value in accepted else wrong


def _call_problem(call: ToolCall, gold: GoldCall, toolset: Toolset) -> str:
    """Why ``call`` does not satisfy ``gold`` (points 1, 3 to 9), "" when it does."""
    if call.name != gold.name:
        return f"wrong tool: expected {gold.name}, got {call.name}"
    tool = toolset[gold.name]
    params: dict[str, ParamIR] = {p.name: p for p in tool.params}
    for p in tool.params:
        if p.required and p.name not in call.arguments:
            return f"missing required argument {p.name}"
    for name, value in call.arguments.items():
        if name not in params or name not in gold.accepted:
            return f"unexpected argument {name}"
        accepted = gold.accepted[name]
        omittable = name in gold.may_omit
        value, variable, problem = _type_problem(name, value, params[name].type, accepted,
                                                 omittable)
        problem = problem or _value_problem(name, value, params[name].type, accepted, omittable,
                                            variable)
        if problem:
            return problem
    for name in gold.accepted:
        if name not in call.arguments and name not in gold.may_omit:
            return f"missing argument {name}, which the gold call does not let be left out"
    return ""


#: How parallel calls are matched to gold calls (point 2).
MATCHINGS = ("bfcl", "optimal")


def _greedy_unmatched(edges: Sequence[Sequence[int]]) -> int | None:
    """BFCL's matching: each gold call in order takes the first free call that satisfies it;
    the first gold call left without one, or None."""
    taken: set[int] = set()
    for i, candidates in enumerate(edges):
        free = next((j for j in candidates if j not in taken), None)
        if free is None:
            return i
        taken.add(free)
    return None


def grade_possible_answers(parsed_or_calls: Any, gold: Sequence[GoldCall] | GoldCall,
                           toolset: Toolset, *, matching: str = "bfcl") -> Verdict:
    """Grade a reply's calls against BFCL-style possible answers (points 1 to 10 above).

    Parameters
    ----------
    parsed_or_calls : ParsedReply, or sequence of ToolCall, or ToolCall
        A parsed reply (its calls as written are graded) or plain calls.
    gold : sequence of GoldCall, or GoldCall
        The possible answers: each argument's acceptable values, ``may_omit`` for BFCL's ``""``.
    toolset : Toolset
        The tools the model was shown; every gold call must name one of them.
    matching : {"bfcl", "optimal"}
        How parallel calls are matched to gold calls: ``"bfcl"`` greedily in gold order, as
        BFCL's checker does (its verdicts are the reference); ``"optimal"`` by a maximum
        matching, which accepts every reply for which some one-to-one matching exists.

    Returns
    -------
    Verdict
        ``correct`` by BFCL's rules; ``tool_correct``: the called names equal the gold names as
        a multiset; ``schema_valid`` and ``schema_issue`` as in ``toolform.grading``;
        ``reason``: the first mismatch.

    Raises
    ------
    GradingError
        When a gold call names a tool the toolset lacks, the inputs have the wrong type, or
        ``matching`` is not one of :data:`MATCHINGS`.
    """
    if matching not in MATCHINGS:
        raise GradingError(f"unknown matching {matching!r}; expected one of {list(MATCHINGS)}")
    golds = (gold,) if isinstance(gold, GoldCall) else tuple(gold)
    if not all(isinstance(g, GoldCall) for g in golds):
        raise GradingError("grade_possible_answers() takes GoldCall possible answers")
    for g in golds:
        if g.name not in toolset:
            raise GradingError(f"gold call {g.name!r} is not a tool of the toolset")
    calls = calls_under_rule(parsed_or_calls, toolset, "as_written")
    return possible_answers_verdict(calls, golds, toolset, schema_check(calls, toolset),
                                    matching=matching)


def possible_answers_verdict(calls: Sequence[ToolCall], golds: Sequence[GoldCall],
                             toolset: Toolset, schema: tuple[bool | None, str], *,
                             matching: str = "bfcl") -> Verdict:
    """The possible-answers verdict on calls as written whose schema check is already done.

    For the one grading pass of a turn (``grade_gradings``): the ``as_written`` rule checked
    the same calls against their schemas. Inputs are as :func:`grade_possible_answers` has
    validated them; ``schema`` is ``schema_check(calls, toolset)``.

    Returns
    -------
    Verdict
    """
    tool_correct = sorted(c.name for c in calls) == sorted(g.name for g in golds)  # multisets
    schema_valid, schema_issue = schema

    def verdict(reason: str) -> Verdict:
        return Verdict(correct=not reason, tool_correct=tool_correct, schema_valid=schema_valid,
                       reason=reason, schema_issue=schema_issue)

    if len(calls) != len(golds):
        return verdict(f"expected {len(golds)} call{'s' * (len(golds) != 1)}, got {len(calls)}")
    problems = [[_call_problem(c, g, toolset) for c in calls] for g in golds]
    edges = [[j for j, p in enumerate(row) if not p] for row in problems]
    i = (_greedy_unmatched if matching == "bfcl" else unmatched_gold)(edges)
    if i is not None:
        if edges[i]:  # a call fits, but another gold call took it
            how = ("taken by earlier gold calls (BFCL's greedy matching)" if matching == "bfcl"
                   else "each needed by another gold call")
            return verdict(f"no call left for gold call {i + 1} ({golds[i].name}): the calls "
                           f"that fit it are {how}")
        return verdict(next((p for p in problems[i] if not p.startswith("wrong tool")),
                            problems[i][0]))
    return verdict("")
