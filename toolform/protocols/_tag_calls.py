"""Tag-shaped answer protocols: ``<function=NAME>`` blocks and a plain XML call element.

Tag bodies are found with :func:`~toolform.protocols._brackets.tag_bodies` (an unclosed tag runs
to the next one or the end). XML goes through ``defusedxml`` with DTDs forbidden, reusing the
hardening and element reading of ``xml_call``.
"""

from __future__ import annotations

import json
import re
from typing import Any, Sequence
from xml.sax.saxutils import quoteattr

from ..errors import ParseError
from ..ir import ToolCall, Toolset
from ._brackets import tag_bodies
from ._loose_json import loads_loose
from ._names import find_tool
from ._text import code_fences, strip_think
from ._values import coerce_value
from ._xml import declares_dtd, read_xml, xml_element_value, xml_text
from ._json import ABSTENTION
from ._registry import Protocol, register_protocol

__all__ = ["FunctionTags", "XmlGenericCall"]

_FUNCTION_OPEN = re.compile(r"<function\s*=\s*[\"']?([^>\"'\n]+?)[\"']?\s*>", re.I)
_FUNCTION_CLOSE = re.compile(r"</function\s*>", re.I)
_PARAMETER = re.compile(r"<parameter\s*=\s*[\"']?([^>\"'\n]+?)[\"']?\s*>(.*?)"
                        r"(?:</parameter\s*>|(?=<parameter\s*=)|\Z)", re.I | re.S)


def _function_body(name: str, body: str, toolset: Toolset) -> dict[str, Any]:
    """The arguments in one ``<function=…>`` body: ``<parameter=…>`` children or JSON."""
    tool = find_tool(name, toolset)
    if re.search(r"<parameter\s*=", body, re.I):
        arguments: dict[str, Any] = {}
        for m in _PARAMETER.finditer(body):
            key = m.group(1).strip()
            declared = tool.param(key) if tool is not None else None
            value = m.group(2)
            value = value[1:] if value.startswith("\n") else value
            value = value[:-1] if value.endswith("\n") else value
            arguments[key] = coerce_value(value, declared.type if declared else None)
        return arguments
    fences = code_fences(body)
    if fences:
        body = "\n".join(b for _, b in fences)
    if not body.strip():
        return {}
    try:
        value = loads_loose(body.strip())
    except ParseError as exc:
        raise ParseError(f"the body of <function={name}> is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ParseError(f"the body of <function={name}> is a {type(value).__name__}, "
                         "not an object")
    return value


@register_protocol(
    name="<function=NAME> tags",
    description=("Each call as <function=NAME> holding a JSON arguments object or "
                 "<parameter=KEY>value</parameter> children."),
    supports_parallel=True, structured=True, text_values=False,
)
class FunctionTags(Protocol):
    """``<function=tool_name>{"param_name": "value"}</function>``, one block per call.

    The body is a JSON object, or ``<parameter=param_name>value</parameter>`` children whose
    text values are typed from the schema (Qwen3-Coder's shape). A body that is neither is a
    ``ParseError``.
    """

    instruction = ('To call a tool, write <function=tool_name>{"param_name": "value"}</function>, '
                   "one block per call.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One ``<function=…>`` block per call with a JSON body, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(f"<function={c.name}>{json.dumps(dict(c.arguments), ensure_ascii=False)}"
                         "</function>" for c in calls)

    def parse(self, text: str, toolset: Toolset) -> list[ToolCall]:
        """The ``<function=…>`` blocks of ``text``."""
        text, _ = strip_think(text)
        return [ToolCall(m.group(1).strip(), _function_body(m.group(1).strip(),
                                                            text[start:end], toolset))
                for m, start, end in tag_bodies(text, _FUNCTION_OPEN, _FUNCTION_CLOSE)]


_CALL_OPEN = re.compile(r"<call\b[^>]*>", re.I)
_CALL_CLOSE = re.compile(r"</call\s*>", re.I)


def _read_call_element(document: str, toolset: Toolset) -> ToolCall:
    root = read_xml(document)
    name = root.get("name")
    if name is None:
        raise ParseError("a <call> element has no name attribute")
    tool = find_tool(name, toolset)
    arguments: dict[str, Any] = {}
    for child in root:
        key = child.tag
        declared = tool.param(key) if tool is not None else None
        t = declared.type if declared else None
        # a text-only child is typed here so a union with an object option reads JSON text
        arguments[key] = (coerce_value(child.text or "", t) if len(child) == 0
                          else xml_element_value(child, t, 1))
    return ToolCall(name, arguments)


@register_protocol(
    name="Plain XML call",
    description=("Each call as a <call name=\"tool\"> element whose children are named after "
                 "the parameters; values are text typed from the schema."),
    supports_parallel=True, structured=True, text_values=True,
    cannot_carry=("untyped_values", "mistyped_values", "xml_invalid_characters",
                  "non_xml_names"),
)
class XmlGenericCall(Protocol):
    """``<call name="tool_name"><param_name>value</param_name></call>``, one element per call.

    Writing and typing as in ``xml_call`` (objects and arrays as JSON text; a parameter with
    child elements read as an object, or an array for an array type). Any DTD or entity
    declaration in the reply, and any malformed ``<call>`` element, is a ``ParseError``.

    ``cannot_carry``: ``xml_call``'s losses, plus parameter names that are not XML names.
    """

    instruction = ('To call a tool, write <call name="tool_name"><param_name>value</param_name>'
                   "</call>, one child element per argument and one <call> element per call; "
                   "give object and array values as JSON.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One ``<call>`` element per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(
            f"<call name={quoteattr(c.name)}>"
            + "".join(f"<{k}>{xml_text(v)}</{k}>" for k, v in c.arguments.items()) + "</call>"
            for c in calls)

    def parse(self, text: str, toolset: Toolset) -> list[ToolCall]:
        """The ``<call>`` elements of ``text``, values typed from the schema."""
        text, _ = strip_think(text)
        bodies = tag_bodies(text, _CALL_OPEN, _CALL_CLOSE)
        if bodies and declares_dtd(text):
            raise ParseError("the reply declares a DTD or entities; refused, nothing expanded")
        return [_read_call_element(m.group() if m.group().endswith("/>")
                                   else f"{m.group()}{text[start:end]}</call>", toolset)
                for m, start, end in bodies]
