"""JSON answer protocols beyond the bare call object: arrays, JSON lines, fenced JSON, native
``tool_calls``, filled skeletons and the name-then-arguments split.

All of them read call objects through :func:`~toolform.protocols._json.calls_from_value` and
JSON through :func:`~toolform.protocols._loose_json.json_fragments` /
:func:`~toolform.protocols._loose_json.loads_loose`; they differ in where the JSON must be and in
which shape it must have.
"""

from __future__ import annotations

import json
import re
from typing import Any, Sequence

from ..errors import ParseError
from ..ir import ToolCall, Toolset
from ._brackets import value_end
from ._calls import ParsedCall
from ._json import ABSTENTION, calls_from_value, fragment_calls
from ._limits import check_calls
from ._loose_json import json_fragments, loads_loose
from ._registry import Protocol, register_protocol
from ._text import LinePattern, contains, fences

__all__ = ["CodeBlockJson", "JsonArray", "JsonlCall", "Native", "SlotFillCall",
           "TwoStepCall"]

_NAME_KEY = re.compile(r"""["']?name["']?\s*:""")
# a line that is, stripped (and without a trailing comma), a {...} object
_JSON_LINE = LinePattern(r"[ \t\r\f\v]*(\{[^\n]*\})[ \t\r\f\v]*,?[ \t\r\f\v]*$")
_JSON_LANGS = {"json", "jsonc", "json5", "jsonl", "ndjson"}


def _dump(call: ToolCall) -> dict[str, Any]:
    return {"name": call.name, "arguments": dict(call.arguments)}


def _broken(fragment_text: str, start: int, error: str) -> ParseError:
    return ParseError(f"a JSON call at offset {start} does not read: {error}")


@register_protocol(
    name="JSON array of calls",
    description="Always a JSON array of call objects, even for a single call.",
    supports_parallel=True, structured=True, text_values=False,
)
class JsonArray(Protocol):
    """``[{"name": "tool", "arguments": {...}}]``, whatever the number of calls.

    Only JSON arrays count (a bare call object is ``json_object``'s shape); prose and fences
    around are fine. An array fragment that mentions ``"name":`` but does not decode is a
    ``ParseError``.
    """

    instruction = ('To call tools, reply with a JSON array of call objects, such as '
                   '[{"name": "tool_name", "arguments": {"param_name": "value"}}]; use an array '
                   'even for one call.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One JSON array, a sentence for none."""
        if not calls:
            return ABSTENTION
        return json.dumps([_dump(c) for c in calls], ensure_ascii=False)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The calls of the JSON arrays in ``text``."""
        if not contains(text, "name") or "[" not in text:
            return []
        calls: list[ParsedCall] = []
        for fragment in json_fragments(text):
            if fragment.error:
                if fragment.text.startswith("[") and _NAME_KEY.search(fragment.text):
                    raise _broken(fragment.text, fragment.start, fragment.error)
                continue
            if isinstance(fragment.value, list):
                calls.extend(fragment_calls(text, fragment, toolset, anchored=False))
                check_calls(len(calls))
        return calls


@register_protocol(
    name="JSON lines",
    description="Each call as one complete JSON object on its own line.",
    supports_parallel=True, structured=True, text_values=False,
)
class JsonlCall(Protocol):
    """One ``{"name": ..., "arguments": ...}`` object per line.

    A line counts when, stripped, it starts with ``{`` and ends with ``}``; one that mentions
    ``"name":`` but does not decode is a ``ParseError``. A call spread over several lines is
    not this protocol's shape.
    """

    instruction = ('To call a tool, write one JSON object per line, such as {"name": '
                   '"tool_name", "arguments": {"param_name": "value"}}; one line per call.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One JSON line per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(json.dumps(_dump(c), ensure_ascii=False) for c in calls)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The calls of the JSON lines of ``text``."""
        if not contains(text, "name") or "{" not in text:
            return []
        calls: list[ParsedCall] = []
        for m in _JSON_LINE.finditer(text):  # not splitlines: \x85 is data
            line = m.group(1)
            try:
                value = loads_loose(line)
            except ParseError as exc:
                if _NAME_KEY.search(line):
                    number = text.count("\n", 0, m.start()) + 1
                    raise ParseError(f"line {number} does not read as JSON: {exc}") from None
                continue
            calls.extend(ParsedCall(c.name, c.arguments, m.span(1))
                         for c in calls_from_value(value, toolset))
            check_calls(len(calls))
        return calls


@register_protocol(
    name="Fenced JSON",
    description="The call as JSON inside a ```json code fence.",
    supports_parallel=True, structured=True, text_values=False,
)
class CodeBlockJson(Protocol):
    """A ```json fence holding a call object, or a list of them for several calls.

    Only fenced JSON counts (a fence tagged json, or an untagged fence whose body starts with
    ``{`` or ``[``); JSON in the prose around is ignored. A fence whose call does not decode
    is a ``ParseError``.
    """

    instruction = ('To call a tool, write the call as JSON inside a ```json code block: '
                   '{"name": "tool_name", "arguments": {"param_name": "value"}}; for several calls '
                   'put a JSON list of such objects in the block.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """A ```json fence with one object or a list, a sentence for none."""
        if not calls:
            return ABSTENTION
        payload = [_dump(c) for c in calls]
        body = json.dumps(payload[0] if len(payload) == 1 else payload, ensure_ascii=False,
                          indent=2)
        return f"```json\n{body}\n```"

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The calls inside the JSON fences of ``text``."""
        if not contains(text, "name") or (not contains(text, "```") and not contains(text, "~~~")):
            return []
        calls: list[ParsedCall] = []
        for fence in fences(text, json_bodies=True):
            body = text[fence.start:fence.end]
            if fence.lang not in _JSON_LANGS and not (fence.lang == "" and
                                                      body.lstrip()[:1] in ("{", "[")):
                continue
            for fragment in json_fragments(body):
                if fragment.error:
                    if _NAME_KEY.search(fragment.text):
                        raise _broken(fragment.text, fence.start + fragment.start,
                                      fragment.error)
                    continue
                calls.extend(fragment_calls(body, fragment, toolset, anchored=False,
                                            offset=fence.start))
                check_calls(len(calls))
        return calls


@register_protocol(
    name="Native tool calls",
    description=("Calls through the provider's own tool_calls field (OpenAI shape), not as "
                 "text."),
    supports_parallel=True, structured=True, text_values=False,
)
class Native(Protocol):
    """The OpenAI ``tool_calls`` list, read from its JSON text.

    ``write`` gives ``{"tool_calls": [{"id", "type": "function", "function": {"name",
    "arguments": "<JSON text>"}}]}``, the shape a server sends; ``parse`` reads that object
    (or a bare list of ``{"type": "function", "function": ...}`` items) from text. A message's
    native ``tool_calls`` field reaches this parser only when ``parse_reply`` passes it on as
    this JSON text.
    """

    instruction = ("Call tools through the tool-calling interface: give the tool_name and its "
                   "arguments as a tool call, not as text.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """The calls as an OpenAI ``tool_calls`` JSON object, a sentence for none."""
        if not calls:
            return ABSTENTION
        items = [{"id": f"call_{i}", "type": "function",
                  "function": {"name": c.name,
                               "arguments": json.dumps(dict(c.arguments), ensure_ascii=False)}}
                 for i, c in enumerate(calls)]
        return json.dumps({"tool_calls": items}, ensure_ascii=False)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The calls of ``tool_calls`` JSON in ``text``."""
        if not contains(text, "tool_calls") and '"function"' not in text:
            return []
        calls: list[ParsedCall] = []
        for fragment in json_fragments(text):
            if fragment.error:
                if "tool_calls" in fragment.text or '"function"' in fragment.text:
                    raise _broken(fragment.text, fragment.start, fragment.error)
                continue
            value = fragment.value
            if (isinstance(value, dict) and isinstance(value.get("tool_calls"), list)) or (
                    isinstance(value, list) and value and all(
                        isinstance(v, dict) and isinstance(v.get("function"), dict)
                        for v in value)):
                calls.extend(fragment_calls(text, fragment, toolset, anchored=False))
                check_calls(len(calls))
        return calls


#: How a placeholder looks in the skeleton the instruction shows.
PLACEHOLDER = "<{}>"


def _unfilled(arguments: dict[str, Any], path: str = "") -> str | None:
    """The path of the first value still holding its placeholder, or None."""
    for key, value in arguments.items():
        if value == PLACEHOLDER.format(key):
            return f"{path}{key}"
        if isinstance(value, dict):
            found = _unfilled(value, f"{path}{key}.")
            if found:
                return found
    return None


@register_protocol(
    name="Filled JSON skeleton",
    description=("The model receives the exact JSON skeleton of a call and replaces only "
                 "the placeholder values."),
    supports_parallel=True, structured=True, text_values=False,
)
class SlotFillCall(Protocol):
    """The skeleton ``{"name": "tool_name", "arguments": {"param_name": "<param_name>"}}`` with
    each ``"<param_name>"`` replaced by its value; a list of filled skeletons for several calls.

    A value left as its own placeholder is a ``ParseError`` (the slot was not filled).
    """

    instruction = ('To call a tool, copy this JSON skeleton and replace only each placeholder '
                   'such as "<param_name>" with its value, keeping every key: {"name": '
                   '"tool_name", "arguments": {"param_name": "<param_name>"}}; for several calls, '
                   'give a JSON list of filled skeletons.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """The filled skeleton (a list for several calls), a sentence for none."""
        if not calls:
            return ABSTENTION
        payload = [_dump(c) for c in calls]
        return json.dumps(payload[0] if len(payload) == 1 else payload, ensure_ascii=False,
                          indent=2)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The filled skeletons of ``text``."""
        if not contains(text, "name"):
            return []
        calls: list[ParsedCall] = []
        for fragment in json_fragments(text):
            if fragment.error:
                if _NAME_KEY.search(fragment.text):
                    raise _broken(fragment.text, fragment.start, fragment.error)
                continue
            for call in fragment_calls(text, fragment, toolset, anchored=False):
                slot = _unfilled(dict(call.arguments))
                if slot is not None:
                    raise ParseError(f"{call.name}: the slot {slot} still holds its "
                                     "placeholder")
                calls.append(call)
            check_calls(len(calls))
        return calls


# a code fence's opening line (```json) is not a name line, whatever its language tag says
_NAME_LINE = LinePattern(r"[ \t]*(?![`~]{3})[`*]*([^\W\d][\w.\-]*)[`*]*:?[ \t]*\r?\n\s*(?=\{)")


@register_protocol(
    name="Name, then arguments",
    description=("The tool's name on its own line, then the arguments as a JSON object on "
                 "the next."),
    supports_parallel=True, structured=True, text_values=False,
)
class TwoStepCall(Protocol):
    """``tool_name`` on one line, ``{"param_name": "value"}`` starting on the next.

    Several calls repeat the pair. The arguments object may span lines; one that never closes
    or does not decode is a ``ParseError``.
    """

    instruction = ("To call a tool, write the tool_name alone on one line and its arguments as "
                   'a JSON object on the next line, such as {"param_name": "value"}; repeat the '
                   "two lines for each call.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """Name line and arguments line per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n\n".join(f"{c.name}\n{json.dumps(dict(c.arguments), ensure_ascii=False)}"
                           for c in calls)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The name-then-arguments pairs of ``text``."""
        if "{" not in text or "\n" not in text:
            return []
        calls: list[ParsedCall] = []
        done = 0
        for m in _NAME_LINE.finditer(text):
            if m.start() < done:
                continue
            end = value_end(text, m.end())
            if end is None:
                raise ParseError(f"the arguments of {m.group(1)!r} never close")
            try:
                arguments = loads_loose(text[m.end():end])
            except ParseError as exc:
                raise ParseError(f"the arguments of {m.group(1)!r} do not read: {exc}"
                                 ) from None
            if not isinstance(arguments, dict):
                raise ParseError(f"the arguments of {m.group(1)!r} are not an object")
            calls.append(ParsedCall(m.group(1), arguments, (m.start(1), end)))
            check_calls(len(calls))
            done = end
        return calls
