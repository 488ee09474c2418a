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
from ._brackets import tag_bodies
from ._loose_json import json_fragments, loads_loose
from ._names import find_tool
from ._text import code_fences, strip_think
from ._registry import Protocol, register_protocol

__all__ = ["JsonObject", "ToolCallTags", "calls_from_value"]

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
    return [ToolCall(name, arguments)]


def _read_fragments(text: str, toolset: Toolset, *, anchored: bool) -> list[ToolCall]:
    """Calls from every JSON fragment of ``text``; a broken call-looking fragment raises."""
    calls: list[ToolCall] = []
    for fragment in json_fragments(text):
        if fragment.error:
            if _NAME_KEY.search(fragment.text):
                raise ParseError(f"a JSON call at offset {fragment.start} does not read: "
                                 f"{fragment.error}")
            continue
        calls.extend(calls_from_value(fragment.value, toolset, anchored=anchored))
    return calls


def _dump(calls: Sequence[ToolCall]) -> list[dict[str, Any]]:
    return [{"name": c.name, "arguments": dict(c.arguments)} for c in calls]


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
    then the tolerant reading of :func:`~toolform.protocols._loose_json.loads_loose`. JSON inside
    ``<tool_call>`` tags is left to ``tool_call_tags``. A fragment that mentions ``"name":``
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

    def parse(self, text: str, toolset: Toolset) -> list[ToolCall]:
        """The JSON calls in ``text`` (see the class docstring)."""
        text, _ = strip_think(text)
        spans = tag_bodies(text, _TAG_OPEN, _TAG_CLOSE)
        if spans:
            # drop the tagged bodies: that shape belongs to tool_call_tags
            pieces, pos = [], 0
            for _, start, end in spans:
                pieces.append(text[pos:start])
                pos = end
            pieces.append(text[pos:])
            text = "".join(pieces)
        return _read_fragments(text, toolset, anchored=False)


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

    An unclosed tag (a stop sequence ate the closing tag) runs to the next tag or the end.
    A tag whose body holds no readable call is a broken call (``ParseError``).
    """

    instruction = ('To call a tool, write <tool_call>{"name": "tool_name", "arguments": '
                   '{"param_name": "value"}}</tool_call>, one such block per call.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One ``<tool_call>`` line per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(f"<tool_call>{json.dumps(d, ensure_ascii=False)}</tool_call>"
                         for d in _dump(calls))

    def parse(self, text: str, toolset: Toolset) -> list[ToolCall]:
        """The calls inside ``<tool_call>`` tags of ``text``."""
        text, _ = strip_think(text)
        calls: list[ToolCall] = []
        for _, start, end in tag_bodies(text, _TAG_OPEN, _TAG_CLOSE):
            body = text[start:end]
            fences = code_fences(body)
            if fences:
                body = "\n".join(b for _, b in fences)
            found = _read_fragments(body, toolset, anchored=True)
            if not found:
                raise ParseError(f"the <tool_call> tag at offset {start} holds no readable "
                                 "call")
            calls.extend(found)
        return calls
