"""What each grading rule looks at: the one definition of a rule's selection of calls.

``parse_reply`` reads the calls as written and records every repair it would take (each name's
resolution, the re-nested arguments); a rule only chooses among them:

* ``as_written``: the calls as written in the protocol asked for. Calls another protocol read
  (``parse_reply(..., lenient_fallback=True)``, ``lenient_taken``) are a repair it never takes:
  it sees no call then.
* ``main``: names resolved by case or separator; re-nested only when the protocol that produced
  the calls carries its values as text (``text_values``: ``xml_call``, ``nl_intent``...).
* ``symmetric``: names resolved by case or separator, re-nested for every protocol.

A name resolved only as the *nearest* tool is never accepted by the grader (the call keeps the
name as written, and so is not re-nested); ``nearest=True`` gives the reading's view, where it
is resolved (the turn rows' ``calls`` column and the deprecated ``ParsedReply.calls``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import GradingError
from ..ir import ToolCall, Toolset
from ..protocols import ParsedReply, get_protocol
from ..protocols._parse import Repair, repair_calls
from ._rules import RULES, check_rule

__all__ = ["calls_under_rule", "select_calls", "select_repaired", "selections"]


def select_repaired(rule: str, as_written: Sequence[ToolCall], repair: Repair, *,
                    text_values: bool) -> tuple[ToolCall, ...]:
    """The calls ``rule`` looks at, from the calls as written and their repairs.

    Parameters
    ----------
    rule : str
        One of :data:`RULES`.
    as_written : sequence of ToolCall
        The calls as the parser read them.
    repair : Repair
        Their repairs (``toolform.protocols._parse.repair_calls``).
    text_values : bool
        The calls' protocol carries values as text (rule ``main`` then re-nests).

    Returns
    -------
    tuple of ToolCall

    Raises
    ------
    GradingError
        When ``rule`` is not one of :data:`RULES`.
    """
    check_rule(rule)
    if rule == "as_written":
        return tuple(as_written)
    if rule == "symmetric" or text_values:
        return repair.renested
    return repair.resolved


def _text_values(parsed: ParsedReply) -> bool:
    source = parsed.source_protocol
    return get_protocol(source).text_values if source else False


def _recorded_repair(parsed: ParsedReply, nearest: bool) -> Repair:
    """The repairs ``parse_reply`` recorded, nearest-name resolutions undone unless
    ``nearest``."""
    written, renested = parsed.calls_as_written, parsed.calls_renested
    how = parsed.name_resolutions
    if not (len(written) == len(renested) == len(how)):
        raise GradingError("the ParsedReply records no repair for each call (calls_renested "
                           "and name_resolutions must match calls_as_written); make it with "
                           "parse_reply")
    if not any(how):  # every name as written: resolving changes none
        return Repair(written, renested)
    if nearest or "nearest" not in how:
        resolved = tuple(w if r.name == w.name else ToolCall(r.name, dict(w.arguments))
                         for w, r in zip(written, renested))
        return Repair(resolved, renested)
    # a call to an unknown name is neither renamed nor re-nested
    resolved = tuple(w if h == "nearest" or r.name == w.name else ToolCall(r.name,
                                                                          dict(w.arguments))
                     for w, r, h in zip(written, renested, how))
    return Repair(resolved, tuple(w if h == "nearest" else r
                                  for w, r, h in zip(written, renested, how)))


def select_calls(parsed: ParsedReply, rule: str, *, nearest: bool = False
                 ) -> tuple[ToolCall, ...]:
    """The calls of a parsed reply that ``rule`` grades (see the module docstring).

    Parameters
    ----------
    parsed : ParsedReply
        A reply as ``parse_reply`` read it (its calls as written and their repairs).
    rule : str
        One of :data:`RULES`.
    nearest : bool
        Keep names resolved as the nearest tool (the reading's view); the grader never does.

    Returns
    -------
    tuple of ToolCall

    Raises
    ------
    GradingError
        When ``rule`` is not one of :data:`RULES`, or ``parsed`` records no repairs.
    """
    check_rule(rule)
    if rule == "as_written":
        return _as_written(parsed)
    return select_repaired(rule, parsed.calls_as_written, _recorded_repair(parsed, nearest),
                           text_values=_text_values(parsed))


def _as_written(parsed: ParsedReply) -> tuple[ToolCall, ...]:
    """What ``as_written`` grades: the asked protocol's calls, none when another protocol's
    were taken (reading a reply in a protocol it was not asked in is a repair)."""
    return () if parsed.lenient_taken else parsed.calls_as_written


def selections(parsed: ParsedReply, rules: Sequence[str] = RULES
               ) -> dict[str, tuple[ToolCall, ...]]:
    """Each rule's selection from one parsed reply (the grader's view: no nearest names).

    Parameters
    ----------
    parsed : ParsedReply
    rules : sequence of str
        Rules of :data:`RULES`, in the order wanted.

    Returns
    -------
    dict of str to tuple of ToolCall

    Raises
    ------
    GradingError
        As for :func:`select_calls`.
    """
    repair = _recorded_repair(parsed, False)
    text_values = _text_values(parsed)
    return {rule: _as_written(parsed) if rule == "as_written" else
            select_repaired(rule, parsed.calls_as_written, repair, text_values=text_values)
            for rule in rules}


def calls_under_rule(parsed_or_calls: Any, toolset: Toolset, rule: str) -> tuple[ToolCall, ...]:
    """The calls ``rule`` grades: names resolved by case or separator only (never nearest).

    Parameters
    ----------
    parsed_or_calls : ParsedReply, sequence of ToolCall, or ToolCall
        A parsed reply, or plain calls (treated as a typed protocol's calls as written, and
        repaired against ``toolset`` here).
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
        When ``parsed_or_calls`` is neither, or ``rule`` is not one of :data:`RULES`.
    """
    check_rule(rule)
    if isinstance(parsed_or_calls, ParsedReply):
        return select_calls(parsed_or_calls, rule)
    calls = [parsed_or_calls] if isinstance(parsed_or_calls, ToolCall) else parsed_or_calls
    if isinstance(calls, (str, bytes, Mapping)) or not isinstance(calls, Sequence) or \
            not all(isinstance(c, ToolCall) for c in calls):
        raise GradingError("grade() takes a ParsedReply or a sequence of ToolCall, got "
                           f"{type(parsed_or_calls).__name__}")
    repair = repair_calls(calls, toolset, text_values=False, nearest=False)
    return select_repaired(rule, tuple(calls), repair, text_values=False)
