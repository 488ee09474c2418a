"""``parse_reply``: read any reply under any protocol, never raising, saying what was forgiven.

The steps, in order:

1. **Text.** A string is the reply. A dict or object with ``content`` (an OpenAI message)
   gives its content (a list of content parts is joined); its native ``tool_calls`` are noted
   in ``issues`` and ignored (only the ``native`` protocol reads them). ``None`` or anything
   else reads as empty text, with an issue. A reply longer than :data:`MAX_REPLY_CHARS`
   characters is **not parsed at all** (no call, not format-compliant, an issue says so):
   cutting it would invent a shorter reply that the model never wrote.
2. **Reasoning** in ``<think>…</think>`` is removed (:func:`~toolform.protocols._text.think_spans`),
   with an issue; every parser reads the text that is left, and every span is given back in
   the reply's own characters.
3. **Vendor shapes** (:data:`~toolform.protocols.VENDOR_SHAPES`): where the reply is written
   in a vendor's tool-call markup (a Hermes ``<tool_call>``, a Mistral ``[TOOL_CALLS]``, a
   Llama ``<|python_tag|>``, ...). A call read inside such a region counts only for the
   protocol that reads that shape (``python_call`` does not claim the call after a
   ``<|python_tag|>``; ``python_tag`` does), and a reply holding markup of a shape that is not
   the asked protocol's is not format-compliant, with an issue naming the shape.
4. **Strict parse**: the asked protocol's own parser. A ``ParseError`` (its markers are there
   but broken) or any unexpected exception becomes an issue.
5. **Lenient parse**, only when the strict one read no call: first the readers of the vendor
   shapes present in the reply, in the order they appear, then the other registered
   protocols in registry order (``protocol_ids()``; with the five crossing protocols:
   json_object, tool_call_tags, nl_intent, python_call, xml_call), the asked one skipped; the
   first that reads a call gives ``lenient_protocol`` (None when a vendor reader read it:
   ``vendor_shape`` says which). Its calls are used only with ``lenient_fallback=True``
   (``lenient_taken``).
6. **Examples.** A call shown as an illustration is not a call (the rule of
   :mod:`toolform.protocols._examples`): a call whose introducing sentence names it an
   example ("for example", "e.g.", "here's an example call", "such as", "would look like",
   "hypothetically"), or quotes it in a refusal (its last clause negates the act: "I can't
   run", "I won't call"), or that is followed by a sentence saying it was not made ("I have
   not run this", "this is just an example"). Every such call gets an issue and
   ``example=True``; with ``examples=False`` (the default) it is left out of the calls and
   listed in ``example_calls``, with ``examples=True`` it counts. The reading itself is not
   changed: a reply whose only calls in the asked protocol are examples still parsed
   strictly and is format-compliant, with no call.
7. **Names** (:func:`resolve_name`): a name not in the toolset that differs by case, by
   separators, or is the nearest name (ratio >= 0.85) is read as that tool and reported in
   ``resolved_names`` and ``issues``. Names with no near twin stay as written.
8. **Re-nesting** (:func:`renest`): arguments given flat at the top level move into the absent
   object parameter that declares them. ``calls_renested`` shows both repairs applied and
   ``name_resolutions`` how each name was read; which repairs a grading rule takes is
   grading's business (:func:`toolform.grading.select_calls`), not the parser's.

``format_compliant`` is True when the strict parse read a call and the reply holds no other
vendor's markup, or when no reader read a call, no parser found broken markers and no vendor
markup is there (a plain-text answer); False when another protocol's or vendor's shape was
used, markers were broken, native tool calls came instead of text, or the reply was too long
to parse.
"""

from __future__ import annotations

import functools
import json
import math
import warnings
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping, Sequence

from .._deprecated import forwarded, moved_names
from ..errors import ParseError
from ..ir import ToolCall, Toolset
from ._calls import ParsedCall
from ._examples import example_flags
from ._limits import MAX_REPLY_CHARS
from ._names import resolve_name
from ._registry import ProtocolSpec, get_protocol, protocol_ids
from ._renest import Move, renest
from ._text import think_spans
from ._vendor import VENDOR_SHAPES, Region, read_vendor, vendor_regions

__all__ = ["ParsedReply", "Repair", "parse_reply", "repair_calls"]

# the rules and what each selects live in toolform.grading; the old names are kept one release
__getattr__ = moved_names(__name__, {"RULES": "toolform.grading.RULES",
                                     "select_calls": "toolform.grading.select_repaired"})

_MESSAGE_CHARS = 300  # longest parser message copied into an issue


@dataclass(frozen=True)
class ParsedReply:
    """What a reply says under one protocol: the calls as written and every repair on offer.

    Which of the repairs a grading rule takes is decided in one place,
    :func:`toolform.grading.select_calls`; ``calls`` (below) asks it, for one release, so code
    written against the older ``parse_reply(..., rule=)`` keeps its values.

    Attributes
    ----------
    protocol_id : str
        The protocol the model was asked to use.
    rule : str
        Deprecated: the grading rule ``calls`` follows (``"main"`` unless ``parse_reply`` was
        given ``rule=``).
    calls_as_written : tuple of ToolCall
        The calls as the parser read them: no name resolution, no re-nesting (values of
        text-valued protocols are typed from the schema, which is part of reading them).
    calls_renested : tuple of ToolCall
        Names resolved (nearest names included) and the re-nesting repair applied, one for one
        with ``calls_as_written``.
    name_resolutions : tuple of (str or None)
        How each name of ``calls_as_written`` was resolved, one for one: None (exact, or no
        tool fits), ``"case"``, ``"separator"`` or ``"nearest"``.
    parsed_calls : tuple of ParsedCall
        ``calls_as_written`` with their provenance, one for one: the reader, the span in the
        reply, whether each is an example, and the repairs each needed.
    example_calls : tuple of ParsedCall
        Calls read but left out because they were shown as examples (empty when
        ``examples`` is True: they are then among ``parsed_calls``).
    parsed_strict : bool
        The asked protocol's own parser read at least one call (examples included).
    parsed_lenient : bool
        Some reader (a registered protocol or a vendor reader) read at least one call.
    lenient_protocol : str or None
        The first protocol that read a call (the asked one when ``parsed_strict``); None when
        none did, or when a vendor reader did (see ``vendor_shape``).
    vendor_shape : str or None
        The vendor shape (``VENDOR_SHAPES``) the calls read are written in, or None.
    lenient_taken : bool
        The calls come from the lenient reader, not the asked protocol (``lenient_fallback``).
    format_compliant : bool
        See the module docstring.
    renested : bool
        The re-nesting repair changes something (``calls_renested`` differs from the calls
        with only names resolved), whether or not a rule takes it.
    resolved_names : tuple of (str, str, str)
        ``(name as written, tool it was read as, how)`` with how in ``"case"``,
        ``"separator"``, ``"nearest"``; one entry per distinct triple.
    issues : tuple of str
        What went wrong or was forgiven, in words.
    no_call : bool
        No call was read (examples left out unless ``examples``).
    examples : bool
        Whether calls shown as examples were counted (the ``parse_reply`` switch).
    """

    protocol_id: str
    rule: str = "main"
    calls_as_written: tuple[ToolCall, ...] = ()
    calls_renested: tuple[ToolCall, ...] = ()
    name_resolutions: tuple[str | None, ...] = ()
    parsed_calls: tuple[ParsedCall, ...] = ()
    example_calls: tuple[ParsedCall, ...] = ()
    parsed_strict: bool = False
    parsed_lenient: bool = False
    lenient_protocol: str | None = None
    vendor_shape: str | None = None
    lenient_taken: bool = False
    format_compliant: bool = False
    renested: bool = False
    resolved_names: tuple[tuple[str, str, str], ...] = ()
    issues: tuple[str, ...] = ()
    no_call: bool = True
    examples: bool = False

    @property
    def source_protocol(self) -> str | None:
        """The registered protocol whose parser produced ``calls_as_written`` (None when no
        calls, or when a vendor reader produced them)."""
        if self.parsed_strict:
            return self.protocol_id
        return self.lenient_protocol if self.lenient_taken else None

    @functools.cached_property
    def calls(self) -> tuple[ToolCall, ...]:
        """The calls under ``rule`` as the parser reads them (nearest names resolved), as
        :func:`toolform.grading.select_calls` selects them with ``nearest=True``."""
        return forwarded("toolform.grading.select_calls")(self, self.rule, nearest=True)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict of every field and ``calls``: calls as ``{"name",
        "arguments"}`` (parsed calls with their provenance too), tuples as lists."""
        out: dict[str, Any] = {}
        fields = list(self.__dataclass_fields__)
        for key in (*fields[:2], "calls", *fields[2:]):
            value = getattr(self, key)
            if key.startswith("calls") or key in ("parsed_calls", "example_calls"):
                value = [c.to_dict() for c in value]
            elif key == "resolved_names":
                value = [list(t) for t in value]
            elif key in ("issues", "name_resolutions"):
                value = list(value)
            out[key] = value
        return out


@dataclass(frozen=True)
class Repair:
    """The repairs :func:`repair_calls` made.

    ``resolved``: names resolved only; ``renested``: names resolved and re-nested;
    ``names``: ``(written, tool, how)`` per distinct resolution; ``moves``: ``(tool, Move)``;
    ``per_call``: for each call, ``(name resolution or None, its moves)``. Which of them a
    grading rule takes is :func:`toolform.grading.select_repaired`.
    """

    resolved: tuple[ToolCall, ...]
    renested: tuple[ToolCall, ...]
    names: tuple[tuple[str, str, str], ...] = ()
    moves: tuple[tuple[str, Move], ...] = field(default=())
    per_call: tuple[tuple[tuple[str, str, str] | None, tuple[Move, ...]], ...] = ()


def repair_calls(calls: Sequence[ToolCall], toolset: Toolset, *, text_values: bool,
                 nearest: bool = True) -> Repair:
    """Resolve names and re-nest flat arguments (see the module docstring, steps 7 and 8).

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
    resolved, renested_calls, names, moves, per_call = [], [], [], [], []
    for call in calls:
        name, how = resolve_name(call.name, toolset, nearest=nearest)
        triple = (call.name, name, how) if how is not None else None
        if triple is not None and triple not in names:
            names.append(triple)
        resolved.append(ToolCall(name, dict(call.arguments)))
        tool = toolset.get(name)
        if tool is None:
            renested_calls.append(resolved[-1])
            per_call.append((triple, ()))
            continue
        arguments, moved = renest(call.arguments, tool.params, coerce=text_values)
        if moved:
            moves.extend((name, m) for m in moved)
        per_call.append((triple, tuple(moved)))
        renested_calls.append(ToolCall(name, arguments))
    return Repair(tuple(resolved), tuple(renested_calls), tuple(names), tuple(moves),
                  tuple(per_call))


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


def _json_copy(value: Any, depth: int = 0) -> Any:
    """A fresh copy of a JSON value (parsers share memoised decodes between them), or a
    ``ParseError`` (a ``ValueError``) for anything that is not one."""
    if depth > 200:
        raise ParseError("nested too deep")
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:  # most values, first
        return value
    if kind is dict:
        if all(type(k) is str for k in value):
            return {k: _json_copy(v, depth + 1) for k, v in value.items()}
    elif isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ParseError(f"{value!r} is not a JSON number")
        return value
    if isinstance(value, (list, tuple)):
        return [_json_copy(v, depth + 1) for v in value]
    if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
        return {k: _json_copy(v, depth + 1) for k, v in value.items()}
    raise ParseError(f"a {type(value).__name__} is not a JSON value")


def _checked(found: Any, label: str, issues: list[str], protocol_id: str | None = None
             ) -> list[ParsedCall]:
    """The well-formed calls a parser returned (arguments copied, tagged with the protocol
    that read them when one is given), the rest as issues."""
    calls = []
    for call in found if isinstance(found, list) else []:
        if isinstance(call, ToolCall):  # a parser of the older API, without spans
            call = ParsedCall(call.name, call.arguments)
        if isinstance(call, ParsedCall) and isinstance(call.name, str) and (
                type(call.arguments) is dict or isinstance(call.arguments, Mapping)):
            try:
                arguments = _json_copy(call.arguments)
            except ValueError as exc:
                issues.append(f"{label}: parser returned arguments that are not JSON ({exc})")
                continue
            repairs = tuple(call.repairs)
            tag = call.protocol_id if protocol_id is None else protocol_id
            if type(call) is ParsedCall:  # ``replace`` without its per-call field walk
                calls.append(ParsedCall(call.name, arguments, call.span, repairs, tag,
                                        call.vendor_shape, call.example))
            else:
                calls.append(replace(call, arguments=arguments, repairs=repairs,
                                     protocol_id=tag))
        else:
            issues.append(f"{label}: parser returned a non-call {_clip(repr(call))}")
    return calls


def _run(spec: ProtocolSpec, text: str, toolset: Toolset, issues: list[str], label: str
         ) -> tuple[list[ParsedCall], bool]:
    """Run one parser; returns its calls and whether it failed (broken markers or a crash)."""
    try:
        found = spec.protocol.read(text, toolset)
    except ParseError as exc:
        issues.append(f"{label}{spec.id}: {_clip(exc)}")
        return [], True
    except Exception as exc:  # noqa: BLE001 - a parser bug must become an issue, not a crash
        issues.append(f"{label}{spec.id}: parser failed ({type(exc).__name__}: {_clip(exc)})")
        return [], True
    if type(found) is list and not found:  # most lenient readers read nothing: no checks
        return [], False
    return _checked(found, f"{label}{spec.id}", issues, spec.id), False


def _region_of(call: ParsedCall, regions: Sequence[Region]) -> Region | None:
    start = call.span[0]
    return next((r for r in regions if r.start <= start < r.end), None)


def _own(calls: list[ParsedCall], regions: Sequence[Region], protocol_id: str
         ) -> tuple[list[ParsedCall], list[ParsedCall]]:
    """Split a protocol's calls into those it may claim (outside vendor regions, or in one of
    its own shape, which is then noted on the call) and those in another shape's region."""
    if not regions:  # most replies hold no vendor markup
        return calls, []
    own, foreign = [], []
    for call in calls:
        region = _region_of(call, regions)
        if region is None:
            own.append(call)
        elif VENDOR_SHAPES[region.shape].protocol_id == protocol_id:
            own.append(replace(call, vendor_shape=region.shape))
        else:
            foreign.append(call)
    return own, foreign


def _lenient_readers(regions: Sequence[Region], asked: str) -> Iterator[tuple[str, str]]:
    """``("protocol", id)`` or ``("vendor", shape)``: the shapes present first, in order."""
    tried = {asked}
    for region in regions:
        shape = VENDOR_SHAPES[region.shape]
        key = shape.protocol_id or region.shape
        if key in tried:
            continue
        tried.add(key)
        yield ("protocol", shape.protocol_id) if shape.protocol_id else ("vendor", shape.id)
    for other in protocol_ids():
        if other not in tried:
            yield "protocol", other


def _shape_phrase(shape: str | None) -> str:
    return f" (written as {VENDOR_SHAPES[shape].name})" if shape else ""


def parse_reply(reply: Any, toolset: Toolset, protocol_id: str, *, rule: str | None = None,
                lenient_fallback: bool = False, examples: bool = False) -> ParsedReply:
    """Read the calls in a model's reply; never raises for any reply.

    The steps are those of the module docstring (text, reasoning, vendor shapes, strict and
    lenient parse, examples, names, re-nesting).

    **An example is not a call.** A call is shown as an example, not made, when the sentence
    introducing it names it an illustration ("for example", "for instance", "e.g.", "an
    example", "sample", "such as", "something like", "would look like", "illustrate",
    "hypothetical"), when that sentence's last clause negates the act (a refusal quoting the
    call: "I can't run", "I won't call", "I'm unable to"), or when the sentence after it says
    it was not made ("I have not run this", "this is just an example", "not executed"). A call
    in a code block is judged by the sentences around the block. Every such call gets an
    issue naming the cue and ``ParsedCall.example``; with ``examples=False`` (the default) it
    is not one of the calls (it is in ``example_calls``), with ``examples=True`` it counts.
    Whether the reply parsed strictly, and whether it is format-compliant, does not depend on
    the switch.

    Parameters
    ----------
    reply : str, dict or message object
        The reply text, or an OpenAI-style message (``content``, ``tool_calls``).
    toolset : Toolset
        The tools the model was shown.
    protocol_id : str
        The protocol the model was asked to answer in.
    rule : str, optional
        Deprecated (it warns): the rule ``ParsedReply.calls`` follows, ``"main"`` when not
        given. Grading picks a rule's calls itself: ``toolform.grading.select_calls(parsed,
        rule)``.
    lenient_fallback : bool
        Use another reader's calls when the asked protocol reads none.
    examples : bool
        Count calls shown as examples (module docstring, step 6). Default False: an example
        is reported in ``issues`` and ``example_calls`` but is not a call.

    Returns
    -------
    ParsedReply

    Raises
    ------
    UnknownProtocolError
        When ``protocol_id`` is not registered (a caller error, not a reply error).
    GradingError
        When ``rule`` is not one of ``toolform.grading.RULES``.

    Warns
    -----
    DeprecationWarning
        When ``rule`` is given.
    """
    spec = get_protocol(protocol_id)
    if rule is None:
        rule = "main"
    else:
        warnings.warn("parse_reply(rule=) is deprecated and will be removed in the next "
                      "release; grading selects a rule's calls: "
                      "toolform.grading.select_calls(parsed, rule)", DeprecationWarning,
                      stacklevel=2)
        forwarded("toolform.grading.check_rule")(rule)
    issues: list[str] = []
    text, native = _reply_text(reply, protocol_id, issues)
    if len(text) > MAX_REPLY_CHARS:
        issues.append(f"the reply is {len(text):,} characters, over the {MAX_REPLY_CHARS:,} "
                      "cap; not parsed")
        return ParsedReply(protocol_id=protocol_id, rule=rule, issues=tuple(issues),
                           examples=examples)
    try:
        kept = think_spans(text)
    except ParseError as exc:
        issues.append(f"{_clip(exc)}; the reply is not parsed")
        return ParsedReply(protocol_id=protocol_id, rule=rule, issues=tuple(issues),
                           examples=examples)
    if kept.removed:
        issues.append("removed <think> reasoning before parsing")
    text = kept.text
    try:
        regions = vendor_regions(text)
    except ParseError as exc:
        issues.append(f"vendor shapes not looked for: {_clip(exc)}")
        regions = []
    foreign_shapes = [r.shape for r in regions if VENDOR_SHAPES[r.shape].protocol_id
                      != protocol_id]

    found, broken = _run(spec, text, toolset, issues, "")
    strict, foreign = _own(found, regions, protocol_id)
    if foreign:
        issues.append(f"{protocol_id}: {len(foreign)} call(s) read inside "
                      f"{VENDOR_SHAPES[_region_of(foreign[0], regions).shape].name}, which "
                      f"{protocol_id} does not accept; left to that shape's reader")
    lenient_id: str | None = protocol_id if strict else None
    lenient: list[ParsedCall] = strict
    if not strict:
        for kind, key in _lenient_readers(regions, protocol_id):
            if kind == "vendor":
                try:
                    calls = read_vendor(key, text, regions, toolset)
                except ParseError as exc:
                    issues.append(f"lenient {VENDOR_SHAPES[key].name}: {_clip(exc)}")
                    broken = True
                    continue
                calls = _checked(calls, f"lenient {key}", issues)
                if calls:
                    lenient_id, lenient = None, calls
                    break
                continue
            calls, failed = _run(get_protocol(key), text, toolset, issues, "lenient ")
            broken = broken or failed
            calls, _ = _own(calls, regions, key)
            if calls:
                lenient_id, lenient = key, calls
                break
    parsed_strict = bool(strict)
    parsed_lenient = bool(lenient)
    shape = next((c.vendor_shape for c in lenient if c.vendor_shape), None)
    taken = not parsed_strict and parsed_lenient and lenient_fallback
    if parsed_lenient and not parsed_strict:
        reader = lenient_id if lenient_id is not None else VENDOR_SHAPES[shape].name
        issues.append(f"no {protocol_id} call found; the reply reads as {reader}"
                      + (_shape_phrase(shape) if lenient_id is not None else "")
                      + ("; its calls are used (lenient fallback)" if taken else ""))
    elif foreign_shapes and not parsed_lenient:
        issues.append(f"the reply holds {VENDOR_SHAPES[foreign_shapes[0]].name} markup, "
                      f"which {protocol_id} does not accept, but no call in it reads")
    elif foreign_shapes:
        issues.append(f"the reply also holds {VENDOR_SHAPES[foreign_shapes[0]].name} markup, "
                      f"which {protocol_id} does not accept")
    used = strict if parsed_strict else lenient if taken else []

    flags = example_flags(text, [c.span for c in used]) if used else []
    counted: list[ParsedCall] = []
    set_aside: list[ParsedCall] = []
    for call, cue in zip(used, flags):
        if cue is None:
            counted.append(call)
            continue
        call = replace(call, example=True)
        issues.append(f"{call.name}: shown as an example ({cue!r} near it); "
                      + ("counted, since examples=True" if examples else "not counted as a call"))
        (counted if examples else set_aside).append(call)

    for call in counted + set_aside:
        for note in call.repairs:
            issues.append(f"{call.protocol_id or call.vendor_shape}: {call.name}: {_clip(note)}")
    as_written = [c.call for c in counted]
    source = get_protocol(lenient_id) if taken and lenient_id else spec if parsed_strict \
        else None
    text_values = source.text_values if source is not None else False
    repair = repair_calls(as_written, toolset, text_values=text_values)
    for given, tool, how in repair.names:
        issues.append(f"tool name {given!r} read as {tool!r} ({how})"
                      + ("; the grader does not accept a nearest match" if how == "nearest"
                         else ""))
    for tool, move in repair.moves:
        issues.append(f"{tool}: moved {', '.join(move.keys)} into {move.path} (re-nesting "
                      "repair)")
    parsed_calls = []
    for call, (triple, moves) in zip(counted, repair.per_call):
        notes = list(call.repairs)
        if triple is not None:
            notes.append(f"name read as {triple[1]!r} ({triple[2]})")
        notes.extend(f"moved {', '.join(m.keys)} into {m.path} (re-nesting repair)"
                     for m in moves)
        span = kept.origin_span(call.span)
        # most calls need neither a span moved nor a repair noted: no copy then
        parsed_calls.append(call if span == call.span and len(notes) == len(call.repairs)
                            else replace(call, span=span, repairs=tuple(notes)))
    compliant = (parsed_strict and not foreign_shapes) or (
        not parsed_lenient and not broken and not native and not foreign_shapes)
    return ParsedReply(
        protocol_id=protocol_id, rule=rule,
        calls_as_written=tuple(as_written), calls_renested=repair.renested,
        name_resolutions=tuple(t[2] if t else None for t, _ in repair.per_call),
        parsed_calls=tuple(parsed_calls),
        example_calls=tuple(replace(c, span=kept.origin_span(c.span)) for c in set_aside),
        parsed_strict=parsed_strict, parsed_lenient=parsed_lenient,
        lenient_protocol=lenient_id, vendor_shape=shape, lenient_taken=taken,
        format_compliant=compliant, renested=repair.renested != repair.resolved,
        resolved_names=repair.names, issues=tuple(issues), no_call=not as_written,
        examples=examples,
    )
