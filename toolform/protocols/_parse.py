"""``parse_reply``: read any reply under any protocol, never raising, saying what was forgiven.

The steps, in order:

1. **Text.** A string is the reply. A dict or object with ``content`` (an OpenAI message)
   gives its content (a list of content parts is joined); its native ``tool_calls`` are noted
   in ``issues`` and ignored (no registered protocol reads them yet). ``None`` or anything else
   reads as empty text, with an issue. A reply longer than :data:`MAX_REPLY_CHARS` characters
   is **not parsed at all** (no call, not format-compliant, an issue says so): cutting it
   would invent a shorter reply that the model never wrote.
2. **Reasoning** in ``<think>…</think>`` is removed (:func:`strip_think`), with an issue.
3. **Strict parse**: the asked protocol's own parser. A ``ParseError`` (its markers are there
   but broken) or any unexpected exception becomes an issue.
4. **Lenient parse**, only when the strict one read no call: the other registered protocols,
   in registry order (``protocol_ids()``; with the five crossing protocols:
   json_object, tool_call_tags, nl_intent, python_call, xml_call), the asked one first and
   skipped here; the first that reads a call is ``lenient_protocol``. Its calls are used only
   with ``lenient_fallback=True`` (``lenient_taken``).
5. **Names** (:func:`resolve_name`): a name not in the toolset that differs by case, by
   separators, or is the nearest name (ratio >= 0.85) is read as that tool and reported in
   ``resolved_names`` and ``issues``. Names with no near twin stay as written.
6. **Re-nesting** (:func:`renest`): arguments given flat at the top level move into the absent
   object parameter that declares them. ``calls_renested`` always shows the repair; ``calls``
   applies it under rule ``symmetric``, under ``main`` only when the protocol that produced the
   calls has ``text_values``, and never under ``as_written``.

``format_compliant`` is True when the strict parse read a call, or when no protocol read a
call and no parser found broken markers (a plain-text answer); False when another protocol's
shape was used, markers were broken, native tool calls came instead of text, or the reply was
too long to parse.
"""

from __future__ import annotations

import json

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..errors import GradingError, ParseError
from ..ir import ToolCall, Toolset
from ._limits import MAX_REPLY_CHARS
from ._names import resolve_name
from ._renest import Move, renest
from ._text import strip_think
from ._registry import ProtocolSpec, get_protocol, protocol_ids

__all__ = ["RULES", "ParsedReply", "Repair", "parse_reply", "repair_calls", "select_calls"]

#: The grading rules, in the order the study reports them.
RULES = ("main", "symmetric", "as_written")

_MESSAGE_CHARS = 300  # longest parser message copied into an issue


@dataclass(frozen=True)
class ParsedReply:
    """What a reply says, under one protocol and one grading rule.

    Attributes
    ----------
    protocol_id : str
        The protocol the model was asked to use.
    rule : str
        The grading rule ``calls`` follows (one of ``RULES``).
    calls : tuple of ToolCall
        The calls under ``rule``: names resolved (except under ``as_written``), re-nested when
        the rule allows.
    calls_as_written : tuple of ToolCall
        The calls as the parser read them: no name resolution, no re-nesting (values of
        text-valued protocols are typed from the schema, which is part of reading them).
    calls_renested : tuple of ToolCall
        Names resolved and the re-nesting repair applied, whatever the rule.
    parsed_strict : bool
        The asked protocol's own parser read at least one call.
    parsed_lenient : bool
        Some registered protocol read at least one call.
    lenient_protocol : str or None
        The first protocol that read a call (the asked one when ``parsed_strict``).
    lenient_taken : bool
        The calls come from ``lenient_protocol``, not the asked one (``lenient_fallback``).
    format_compliant : bool
        See the module docstring.
    renested : bool
        The re-nesting repair changes something (``calls_renested`` differs from the calls
        with only names resolved), whether or not ``rule`` applies it.
    resolved_names : tuple of (str, str, str)
        ``(name as written, tool it was read as, how)`` with how in ``"case"``,
        ``"separator"``, ``"nearest"``; one entry per distinct triple.
    issues : tuple of str
        What went wrong or was forgiven, in words.
    no_call : bool
        ``calls`` is empty.
    """

    protocol_id: str
    rule: str
    calls: tuple[ToolCall, ...] = ()
    calls_as_written: tuple[ToolCall, ...] = ()
    calls_renested: tuple[ToolCall, ...] = ()
    parsed_strict: bool = False
    parsed_lenient: bool = False
    lenient_protocol: str | None = None
    lenient_taken: bool = False
    format_compliant: bool = False
    renested: bool = False
    resolved_names: tuple[tuple[str, str, str], ...] = ()
    issues: tuple[str, ...] = ()
    no_call: bool = True

    @property
    def source_protocol(self) -> str | None:
        """The protocol whose parser produced ``calls_as_written`` (None when no calls)."""
        if self.parsed_strict:
            return self.protocol_id
        return self.lenient_protocol if self.lenient_taken else None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict: calls as ``{"name", "arguments"}``, tuples as lists."""
        out: dict[str, Any] = {}
        for key in self.__dataclass_fields__:
            value = getattr(self, key)
            if key.startswith("calls"):
                value = [c.to_dict() for c in value]
            elif key == "resolved_names":
                value = [list(t) for t in value]
            elif key == "issues":
                value = list(value)
            out[key] = value
        return out


@dataclass(frozen=True)
class Repair:
    """The repairs :func:`repair_calls` made.

    ``resolved``: names resolved only; ``renested``: names resolved and re-nested;
    ``names``: ``(written, tool, how)`` per distinct resolution; ``moves``: ``(tool, Move)``.
    """

    resolved: tuple[ToolCall, ...]
    renested: tuple[ToolCall, ...]
    names: tuple[tuple[str, str, str], ...] = ()
    moves: tuple[tuple[str, Move], ...] = field(default=())


def repair_calls(calls: Sequence[ToolCall], toolset: Toolset, *, text_values: bool,
                 nearest: bool = True) -> Repair:
    """Resolve names and re-nest flat arguments (see the module docstring, steps 5 and 6).

    Parameters
    ----------
    calls : sequence of ToolCall
        Calls as written.
    toolset : Toolset
        The tools on offer.
    text_values : bool
        The calls' protocol carries values as text: moved values are typed by their field.
    nearest : bool
        Also resolve names by nearest match (the grader passes False: it never accepts one).

    Returns
    -------
    Repair
    """
    resolved, renested_calls, names, moves = [], [], [], []
    for call in calls:
        name, how = resolve_name(call.name, toolset, nearest=nearest)
        if how is not None and (call.name, name, how) not in names:
            names.append((call.name, name, how))
        resolved.append(ToolCall(name, dict(call.arguments)))
        tool = toolset.get(name)
        if tool is None:
            renested_calls.append(resolved[-1])
            continue
        arguments, moved = renest(call.arguments, tool.params, coerce=text_values)
        moves.extend((name, m) for m in moved)
        renested_calls.append(ToolCall(name, arguments))
    return Repair(tuple(resolved), tuple(renested_calls), tuple(names), tuple(moves))


def select_calls(rule: str, as_written: Sequence[ToolCall], repair: Repair, *,
                 text_values: bool) -> tuple[ToolCall, ...]:
    """The calls a grading rule looks at (see the module docstring, step 6).

    Parameters
    ----------
    rule : str
        One of ``RULES``.
    as_written : sequence of ToolCall
        The calls as the parser read them.
    repair : Repair
        What :func:`repair_calls` made of them.
    text_values : bool
        The calls' protocol carries values as text (rule ``main`` then re-nests).

    Returns
    -------
    tuple of ToolCall
    """
    if rule == "as_written":
        return tuple(as_written)
    if rule == "symmetric" or text_values:
        return repair.renested
    return repair.resolved


def _clip(message: object) -> str:
    text = str(message)
    return text if len(text) <= _MESSAGE_CHARS else text[:_MESSAGE_CHARS] + "…"


def _content_text(content: Any, issues: list[str]) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, Mapping) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "".join(parts)
    issues.append(f"the reply content is a {type(content).__name__}, not text; read as empty")
    return ""


def _reply_text(reply: Any, protocol_id: str, issues: list[str]) -> tuple[str, bool]:
    """The reply's text, and whether it carried native tool calls instead."""
    if isinstance(reply, str):
        return reply, False
    if reply is None:
        issues.append("the reply is None; read as empty text")
        return "", False
    try:
        if isinstance(reply, Mapping):
            content, tool_calls = reply.get("content"), reply.get("tool_calls")
        elif any(hasattr(reply, a) for a in ("content", "text", "tool_calls")):
            # an OpenAI message has .content; a toolform Completion has .text
            content = getattr(reply, "content", None)
            if content is None:
                content = getattr(reply, "text", None)
            tool_calls = getattr(reply, "tool_calls", None)
        else:
            issues.append(f"the reply is a {type(reply).__name__}, not text; read as empty")
            return "", False
        if protocol_id == "native" and tool_calls:
            # the native protocol's parser reads the API's tool_calls, handed over as JSON text
            return json.dumps({"tool_calls": tool_calls}, default=str), False
        text = _content_text(content, issues)
        native = bool(tool_calls)
        if native:
            issues.append(f"the reply carries native tool_calls; protocol {protocol_id} reads "
                          "text only, so they are ignored")
        return text, native
    except Exception as exc:  # a hostile object must not escape parse_reply
        issues.append(f"the reply could not be read ({type(exc).__name__}: {_clip(exc)})")
        return "", False


def _run(spec: ProtocolSpec, text: str, toolset: Toolset, issues: list[str], label: str
         ) -> tuple[list[ToolCall], bool]:
    """Run one parser; returns its calls and whether it failed (broken markers or a crash)."""
    try:
        found = spec.protocol.parse(text, toolset)
    except ParseError as exc:
        issues.append(f"{label}{spec.id}: {_clip(exc)}")
        return [], True
    except Exception as exc:  # noqa: BLE001 - a parser bug must become an issue, not a crash
        issues.append(f"{label}{spec.id}: parser failed ({type(exc).__name__}: {_clip(exc)})")
        return [], True
    calls = []
    for call in found if isinstance(found, list) else []:
        if isinstance(call, ToolCall) and isinstance(call.name, str) and isinstance(
                call.arguments, Mapping):
            calls.append(ToolCall(call.name, dict(call.arguments)))
        else:
            issues.append(f"{label}{spec.id}: parser returned a non-call {_clip(repr(call))}")
    return calls, False


def parse_reply(reply: Any, toolset: Toolset, protocol_id: str, *, rule: str = "main",
                lenient_fallback: bool = False) -> ParsedReply:
    """Read the calls in a model's reply; never raises for any reply.

    Parameters
    ----------
    reply : str, dict or message object
        The reply text, or an OpenAI-style message (``content``, ``tool_calls``).
    toolset : Toolset
        The tools the model was shown.
    protocol_id : str
        The protocol the model was asked to answer in.
    rule : str
        The grading rule ``calls`` follows: ``"main"``, ``"symmetric"`` or ``"as_written"``.
    lenient_fallback : bool
        Use another protocol's calls when the asked protocol reads none.

    Returns
    -------
    ParsedReply

    Raises
    ------
    UnknownProtocolError
        When ``protocol_id`` is not registered (a caller error, not a reply error).
    GradingError
        When ``rule`` is not one of ``RULES``.
    """
    spec = get_protocol(protocol_id)
    if rule not in RULES:
        raise GradingError(f"unknown grading rule {rule!r}; expected one of {list(RULES)}")
    issues: list[str] = []
    text, native = _reply_text(reply, protocol_id, issues)
    if len(text) > MAX_REPLY_CHARS:
        issues.append(f"the reply is {len(text):,} characters, over the {MAX_REPLY_CHARS:,} "
                      "cap; not parsed")
        return ParsedReply(protocol_id=protocol_id, rule=rule, issues=tuple(issues))
    text, thought = strip_think(text)
    if thought:
        issues.append("removed <think> reasoning before parsing")

    strict_calls, broken = _run(spec, text, toolset, issues, "")
    lenient_id, lenient_calls = (protocol_id, strict_calls) if strict_calls else (None, [])
    if not strict_calls:
        for other in protocol_ids():
            if other == protocol_id:
                continue
            found, failed = _run(get_protocol(other), text, toolset, issues, "lenient ")
            broken = broken or failed
            if found:
                lenient_id, lenient_calls = other, found
                break
    parsed_strict = bool(strict_calls)
    parsed_lenient = lenient_id is not None
    taken = not parsed_strict and parsed_lenient and lenient_fallback
    if parsed_lenient and not parsed_strict:
        issues.append(f"no {protocol_id} call found; the reply reads as {lenient_id}"
                      + ("; its calls are used (lenient fallback)" if taken else ""))
    as_written = strict_calls if parsed_strict else lenient_calls if taken else []
    source = get_protocol(lenient_id) if taken and lenient_id else spec
    repair = repair_calls(as_written, toolset, text_values=source.text_values)
    calls = select_calls(rule, as_written, repair, text_values=source.text_values)
    applied = calls is repair.renested
    for given, tool, how in repair.names:
        issues.append(f"tool name {given!r} read as {tool!r} ({how})"
                      + ("; the grader does not accept a nearest match" if how == "nearest"
                         else ""))
    for tool, move in repair.moves:
        issues.append(f"{tool}: moved {', '.join(move.keys)} into {move.path} "
                      f"({'applied' if applied else 'not applied'} under rule {rule})")
    compliant = parsed_strict or (not parsed_lenient and not broken and not native)
    return ParsedReply(
        protocol_id=protocol_id, rule=rule, calls=tuple(calls),
        calls_as_written=tuple(as_written), calls_renested=repair.renested,
        parsed_strict=parsed_strict, parsed_lenient=parsed_lenient,
        lenient_protocol=lenient_id, lenient_taken=taken, format_compliant=compliant,
        renested=repair.renested != repair.resolved, resolved_names=repair.names,
        issues=tuple(issues), no_call=not calls,
    )
