"""JSON answer protocols: a bare JSON call object, and JSON inside ``<tool_call>`` tags.

Both read the same call shapes (:func:`calls_from_value`): ``{"name", "arguments"}`` (also
``"parameters"`` or ``"args"`` for the arguments, arguments given as a JSON string, an OpenAI
``{"function": {...}}`` wrapper, a ``{"tool_calls": [...]}`` list) and a list of those. They
differ in where the JSON must be: ``json_object`` reads JSON anywhere in the reply except inside
``<tool_call>`` blocks (that shape is ``tool_call_tags``'s own), while ``tool_call_tags`` reads
only inside the tags.
"""

from __future__ import annotations

import json
import re
from typing import Any, Sequence

from ..errors import ParseError
from ..ir import ToolCall, Toolset
from ._brackets import Brackets, inner_brackets, match_brackets, tag_bodies
from ._calls import ParsedCall
from ._limits import check_calls
from ._loose_json import Fragment, json_copy, json_fragments, loads_loose
from ._names import find_tool
from ._registry import Protocol, register_protocol
from ._text import contains, fences, lowered

__all__ = ["ABSTENTION", "JsonObject", "ToolCallTags", "calls_from_value", "fragment_calls",
           "read_fragments"]

#: What ``write`` produces for an empty list of calls.
ABSTENTION = "No tool call is needed for this request."

_ARGUMENT_KEYS = ("arguments", "parameters", "args")
_NAME_KEY = re.compile(r"""["']?name["']?\s*:""")


def calls_from_value(value: Any, toolset: Toolset, *, anchored: bool = False) -> list[ToolCall]:
    """The calls a decoded JSON value holds (``[]`` when it is not call-shaped).

    An object counts as a call when it has a string ``name`` and either an arguments key or a
    name that resolves to a tool (:func:`resolve_name`); with ``anchored`` (the value sits in
    call tags) a string ``name`` suffices.

    Raises
    ------
    ParseError
        When a call's arguments are not an object (or a string holding one).
    """
    if isinstance(value, list):
        return [c for v in value for c in calls_from_value(v, toolset, anchored=anchored)]
    if not isinstance(value, dict):
        return []
    for wrapper in ("tool_calls", "calls"):
        if isinstance(value.get(wrapper), list) and "name" not in value:
            return calls_from_value(value[wrapper], toolset, anchored=True)
    if isinstance(value.get("function"), dict) and "name" not in value:
        return calls_from_value(value["function"], toolset, anchored=True)
    name = value.get("name")
    if not isinstance(name, str):
        return []
    key = next((k for k in _ARGUMENT_KEYS if k in value), None)
    if key is None and not anchored and find_tool(name, toolset) is None:
        return []
    arguments = value.get(key) if key else {}
    if arguments is None:
        arguments = {}
    if isinstance(arguments, str):
        try:
            arguments = loads_loose(arguments) if arguments.strip() else {}
        except ParseError as exc:
            raise ParseError(f"arguments of {name!r} are a string that is not JSON: {exc}"
                             ) from None
    if not isinstance(arguments, dict):
        raise ParseError(f"arguments of {name!r} are a {type(arguments).__name__}, "
                         "not an object")
    return [ToolCall(name, json_copy(arguments))]


def _element_spans(text: str, start: int, end: int, count: int) -> list[tuple[int, int]] | None:
    """The spans of the ``count`` objects that are the elements of the JSON list
    ``text[start:end]``, or None when its elements are not exactly that many objects."""
    value = text[start:end]
    brackets = inner_brackets(value)
    spans = []
    pos = 1
    while True:
        pos = _SPACE.match(value, pos).end()
        if pos >= len(value) - 1 or value[pos] != "{":
            break
        close = brackets.pairs.get(pos)
        if close is None:
            return None
        spans.append((start + pos, start + close + 1))
        pos = _SPACE.match(value, close + 1).end()
        if value.startswith(",", pos):
            pos += 1
    return spans if len(spans) == count else None


_SPACE = re.compile(r"\s*")


def fragment_calls(text: str, fragment: Fragment, toolset: Toolset, *, anchored: bool,
                   offset: int = 0) -> list[ParsedCall]:
    """The calls one decoded JSON fragment of ``text`` holds, each with its span plus
    ``offset`` (an element's own span when the fragment is a list of call objects).

    Raises
    ------
    ParseError
        As for :func:`calls_from_value`.
    """
    calls = calls_from_value(fragment.value, toolset, anchored=anchored)
    start, end = fragment.start, fragment.end + 1
    spans = None
    if len(calls) > 1 and isinstance(fragment.value, list):
        spans = _element_spans(text, start, end, len(calls))
    spans = spans or [(start, end)] * len(calls)
    return [ParsedCall(c.name, c.arguments, (s + offset, e + offset))
            for c, (s, e) in zip(calls, spans)]


def read_fragments(text: str, toolset: Toolset, *, anchored: bool, offset: int = 0
                   ) -> list[ParsedCall]:
    """Calls from every JSON fragment of ``text`` (spans plus ``offset``); a broken fragment
    that mentions ``name:`` is a broken call.

    Raises
    ------
    ParseError
        For that broken fragment, or a call whose arguments are not an object.
    """
    if not contains(text, "name"):  # every call shape names its tool (wrappers hold named calls)
        return []
    calls: list[ParsedCall] = []
    for fragment in json_fragments(text):
        if fragment.error:
            if _NAME_KEY.search(fragment.text):
                raise ParseError(f"a JSON call at offset {fragment.start + offset} does not "
                                 f"read: {fragment.error}")
            continue
        calls.extend(fragment_calls(text, fragment, toolset, anchored=anchored, offset=offset))
        check_calls(len(calls))
    return calls


def _dump(calls: Sequence[ToolCall]) -> list[dict[str, Any]]:
    return [{"name": c.name, "arguments": dict(c.arguments)} for c in calls]


def _decoded_body(text: str, start: int, end: int, brackets: Brackets | None
                  ) -> Fragment | None:
    """The one JSON fragment of the tag body ``text[start:end]`` when the bracket pass over
    the whole text already decoded it: the body is a strict JSON value that opens at its
    first non-space character and holds no bracket after it, so :func:`read_fragments` of the
    body would read that value and nothing else. None otherwise (the body is read as usual).
    The fragment's offsets are in the body."""
    if brackets is None:
        return None
    first = _SPACE.match(text, start, end).end()
    close = brackets.pairs.get(first)
    value = brackets.values.get(first, _MISSING)
    if (value is _MISSING or close is None or close >= end
            or text.find("{", close, end) >= 0 or text.find("[", close, end) >= 0):
        return None
    return Fragment(first - start, close - start, text[first:close + 1], value)


_MISSING = object()
_TAG_OPEN = re.compile(r"<tool_call>", re.I)
_TAG_CLOSE = re.compile(r"</tool_call>", re.I)


@register_protocol(
    name="JSON call object",
    description=("The call as one JSON object with the tool's name and an arguments object; "
                 "several calls as a JSON list of such objects."),
    supports_parallel=True,
    structured=True,
    text_values=False,
)
class JsonObject(Protocol):
    """``{"name": "tool", "arguments": {...}}``, or a list of them for parallel calls.

    The parser reads JSON anywhere in the reply (fenced or in prose), strict JSON first and
    then the tolerant reading of :func:`~toolform.protocols._loose_json.loads_loose`. JSON
    inside ``<tool_call>`` tags is left to ``tool_call_tags``. A fragment that mentions ``"name":``
    but does not decode is a broken call (``ParseError``).
    """

    instruction = ('To call a tool, reply with a JSON object such as {"name": "tool_name", '
                   '"arguments": {"param_name": "value"}}; for several calls, reply with a JSON list '
                   'of such objects.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One JSON object for one call, a JSON list for several, a sentence for none."""
        if not calls:
            return ABSTENTION
        payload = _dump(calls)
        return json.dumps(payload[0] if len(payload) == 1 else payload, ensure_ascii=False)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The JSON calls in ``text`` (see the class docstring)."""
        if not contains(text, "name"):
            return []
        if "<" in text and contains(lowered(text), "<tool_call>"):
            # blank the tagged bodies out (keeping every offset): that shape is
            # tool_call_tags's own
            pieces, pos = [], 0
            for _, start, end in tag_bodies(text, _TAG_OPEN, _TAG_CLOSE, json_values=True):
                pieces.append(text[pos:start])
                pieces.append(" " * (end - start))
                pos = end
            pieces.append(text[pos:])
            text = "".join(pieces)
        return read_fragments(text, toolset, anchored=False)


@register_protocol(
    name="<tool_call> JSON tags",
    description=("Each call as a JSON object with name and arguments, wrapped in its own "
                 "<tool_call> tag pair, as Hermes-style chat templates do."),
    supports_parallel=True,
    structured=True,
    text_values=False,
)
class ToolCallTags(Protocol):
    """``<tool_call>{"name": "tool", "arguments": {...}}</tool_call>``, one block per call.

    A body that starts with a JSON value ends at the first closing tag after that value (a
    ``</tool_call>`` inside one of its strings does not end it); an unclosed tag (a stop
    sequence ate the closing tag) runs to the next tag or the end. A tag whose body holds no
    readable call is a broken call (``ParseError``).
    """

    instruction = ('To call a tool, write <tool_call>{"name": "tool_name", "arguments": '
                   '{"param_name": "value"}}</tool_call>, one such block per call.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One ``<tool_call>`` line per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(f"<tool_call>{json.dumps(d, ensure_ascii=False)}</tool_call>"
                         for d in _dump(calls))

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The calls inside ``<tool_call>`` tags of ``text``, each spanning its tag."""
        if "<" not in text or not contains(lowered(text), "<tool_call>"):
            return []
        calls: list[ParsedCall] = []
        bodies = tag_bodies(text, _TAG_OPEN, _TAG_CLOSE, json_values=True)
        # finding the bodies matched the whole text's brackets (memoised), decoding each
        # body's JSON value as it went
        brackets = match_brackets(text, "{[") if bodies else None
        for m, start, end in bodies:
            body = text[start:end]
            blocks = fences(body) if contains(body, "```") or contains(body, "~~~") else ()
            fragment = None if blocks else _decoded_body(text, start, end, brackets)
            if fragment is not None:
                found = fragment_calls(body, fragment, toolset, anchored=True, offset=start) \
                    if contains(body, "name") else []
                check_calls(len(found))
            else:
                found = [c for piece, at in ([(body[f.start:f.end], start + f.start)
                                               for f in blocks] or [(body, start)])
                         for c in read_fragments(piece, toolset, anchored=True, offset=at)]
            if not found:
                raise ParseError(f"the <tool_call> tag at offset {m.start()} holds no "
                                 "readable call")
            close = _TAG_CLOSE.match(text, end)
            span = (m.start(), close.end() if close is not None else end)
            calls.extend(ParsedCall(c.name, c.arguments, span) for c in found)
            check_calls(len(calls))
        return calls
