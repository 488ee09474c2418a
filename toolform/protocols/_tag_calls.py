"""Tag-shaped answer protocols: ``<function=NAME>`` blocks and a plain XML call element.

Both read values as a careful reader would (:mod:`toolform.protocols._tags`): a string value
is its raw text, markup and all; a closing tag inside a value does not end it; a missing
closing tag is forgiven with a repair. XML objects given as child elements go through
``defusedxml`` with DTDs forbidden, reusing the hardening and element reading of ``xml_call``.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
from typing import Any, Sequence
from xml.sax.saxutils import quoteattr

from ..errors import ParseError
from ..ir import ToolCall, Toolset
from ._brackets import value_end
from ._calls import ParsedCall
from ._json import ABSTENTION
from ._limits import MAX_TAGS, check_arguments, check_calls
from ._loose_json import loads_loose
from ._names import find_tool
from ._registry import Protocol, register_protocol
from ._tags import attributes, closing_tag, strip_stray_closer
from ._text import contains, fences, lowered
from ._values import typed_text
from ._xml import element_value, refuse_unsafe, xml_text

__all__ = ["FunctionTags", "XmlGenericCall"]

# -- <function=NAME> ---------------------------------------------------------------------------
_FUNCTION_OPEN = re.compile(r"<function\s*=\s*[\"']?([^>\"'\n]+?)[\"']?\s*>", re.I)
_FUNCTION_CLOSE = re.compile(r"</function\s*>", re.I)
_PARAMETER_OPEN = re.compile(r"<parameter\s*=\s*[\"']?([^>\"'\n]+?)[\"']?\s*>", re.I)
_PARAMETER_CLOSE = re.compile(r"</parameter\s*>", re.I)
# what may follow a parameter's closing tag: the next parameter, the end of the function or
# of its <tool_call> wrapper, the next function, the end of the reply
_AFTER_PARAMETER = re.compile(r"\s*(?:<parameter\s*=|</function\s*>|</tool_call>|<function\s*="
                              r"|\Z)", re.I)
_NEXT_TAG = re.compile(r"<parameter\s*=|</function\s*>|</tool_call>|<function\s*=", re.I)
_SPACE = re.compile(r"\s*")
_FENCE_LINE = re.compile(r"[ \t]*(?:`{3,}|~{3,})[^\n]*\n")


def _parameters(text: str, start: int, stop: int, name: str, toolset: Toolset
                ) -> tuple[dict[str, Any], int, list[str]]:
    """The ``<parameter=KEY>value</parameter>`` children of a ``<function=…>`` body from
    ``start``: the arguments, where the last one ended, and the repairs."""
    tool = find_tool(name, toolset)
    arguments: dict[str, Any] = {}
    repairs: list[str] = []
    pos = start
    while True:
        m = _PARAMETER_OPEN.search(text, pos, stop)
        if m is None:
            return arguments, pos, repairs
        between = _NEXT_TAG.search(text, pos, m.start())
        if between is not None:  # the function ended before this parameter
            return arguments, pos, repairs
        key = m.group(1).strip()
        declared = tool.param(key) if tool is not None else None
        following = _PARAMETER_OPEN.search(text, m.end(), stop)
        limit = following.start() if following is not None else stop
        found = closing_tag(text, _PARAMETER_CLOSE.finditer(text, m.end(), limit),
                            _AFTER_PARAMETER)
        if found is None:
            after = _NEXT_TAG.search(text, m.end(), stop)
            if after is None and stop == len(text):
                raise ParseError(f"the reply ends inside <parameter={key}> of {name!r}: the "
                                 "call is cut short")
            value_stop = after.start() if after is not None else stop
            raw, stray = strip_stray_closer(text[m.end():value_stop])
            repairs.append(f"<parameter={key}> is not closed"
                           + (f" (closed by {stray})" if stray else "")
                           + "; its value ends at the next tag")
            pos = value_stop
        else:
            raw = text[m.end():found[0]]
            pos = found[1]
        raw = raw[1:] if raw.startswith("\n") else raw
        raw = raw[:-1] if raw.endswith("\n") else raw
        arguments[key] = typed_text(raw, declared.type if declared else None, key, repairs)
        check_arguments(len(arguments), name)


def _json_body(text: str, start: int, stop: int, name: str) -> tuple[dict[str, Any], int]:
    """A ``<function=…>`` body given as a JSON object (in a code fence or not), and where it
    ended."""
    pos = _SPACE.match(text, start, stop).end()
    fence = _FENCE_LINE.match(text, pos, stop)
    if fence is not None:
        pos = _SPACE.match(text, fence.end(), stop).end()
    if pos >= stop or text.startswith(("</function", "</FUNCTION"), pos):
        return {}, pos
    end = value_end(text, pos)
    if end is None or end > stop:
        block = next(iter(fences(text[start:stop])), None)
        raw = (text[start + block.start:start + block.end] if block is not None
               else text[start:stop])
        if not raw.strip():
            return {}, stop
        end = stop
    else:
        raw = text[pos:end]
    try:
        value = loads_loose(raw.strip())
    except ParseError as exc:
        raise ParseError(f"the body of <function={name}> is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ParseError(f"the body of <function={name}> is a {type(value).__name__}, "
                         "not an object")
    return value, end


@register_protocol(
    name="<function=NAME> tags",
    description=("Each call as <function=NAME> holding a JSON arguments object or "
                 "<parameter=KEY>value</parameter> children."),
    supports_parallel=True, structured=True, text_values=False,
)
class FunctionTags(Protocol):
    """``<function=tool_name>{"param_name": "value"}</function>``, one block per call.

    The body is a JSON object (its end found by bracket matching, so a ``</function>`` inside
    one of its strings does not end it), or ``<parameter=param_name>value</parameter>``
    children whose text values are typed from the schema (Qwen3-Coder's shape; a string keeps
    its text, markup and ``</parameter>``-looking text included, minus one line break at
    either end). A parameter value ends at the first ``</parameter>`` followed by the next
    parameter or the end of the function; a missing ``</parameter>`` or ``</function>`` is
    forgiven with a repair. A body that is neither is a ``ParseError``.
    """

    instruction = ('To call a tool, write <function=tool_name>{"param_name": "value"}</function>, '
                   "one block per call.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One ``<function=…>`` block per call with a JSON body, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(f"<function={c.name}>{json.dumps(dict(c.arguments), ensure_ascii=False)}"
                         "</function>" for c in calls)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The ``<function=…>`` blocks of ``text``."""
        if "<" not in text or not contains(lowered(text), "<function"):
            return []
        calls: list[ParsedCall] = []
        param_closes = ([c.start() for c in _PARAMETER_CLOSE.finditer(text)]
                        if contains(lowered(text), "</parameter") else [])
        pos = 0
        while True:
            m = _FUNCTION_OPEN.search(text, pos)
            if m is None:
                return calls
            name = m.group(1).strip()
            stop = _next_function(text, m.end(), param_closes)
            first = _SPACE.match(text, m.end(), stop).end()
            if _PARAMETER_OPEN.match(text, first):
                arguments, end, repairs = _parameters(text, m.end(), stop, name, toolset)
            else:
                arguments, end = _json_body(text, m.end(), stop, name)
                repairs = []
            close = _FUNCTION_CLOSE.search(text, end, stop)
            if close is not None and not text[end:close.start()].strip():
                end = close.end()
            elif close is None and _PARAMETER_OPEN.match(text, first):
                repairs.append(f"<function={name}> is not closed")
            elif close is not None:
                end = close.end()
            calls.append(ParsedCall(name, arguments, (m.start(), end), tuple(repairs)))
            check_calls(len(calls))
            pos = max(end, m.end())


def _next_function(text: str, after: int, param_closes: list[int]) -> int:
    """Where the next ``<function=…>`` tag after ``after`` starts (or the end of the text),
    one inside a parameter value that closes later being text (a command that echoes a
    function tag, say). ``param_closes`` holds where every closing parameter tag starts; the
    heads inside a value are skipped at once, and each character up to the answer is looked
    at once."""
    pos = scan_from = after
    param_close = -1  # where the value of the last parameter tag seen closes (-1: never)
    while True:
        nxt = _FUNCTION_OPEN.search(text, pos)
        if nxt is None:
            return len(text)
        for param in _PARAMETER_OPEN.finditer(text, scan_from, nxt.start()):
            k = bisect.bisect_left(param_closes, param.end())
            param_close = param_closes[k] if k < len(param_closes) else -1
        scan_from = nxt.start()
        if param_close < nxt.start():  # no parameter value is open there
            return nxt.start()
        pos = param_close  # every head before the value closes is inside it


# -- <call name="…"> ---------------------------------------------------------------------------
_ATTRS = r"((?:[^>\"']++|\"[^\"]*+\"|'[^']*+')*+)"
_CALL_OPEN = re.compile(rf"<call\b{_ATTRS}>", re.I)
_CALL_CLOSE = re.compile(r"</call\s*>", re.I)
_CHILD_OPEN = re.compile(rf"<([A-Za-z_][\w.\-:]*){_ATTRS}>")
_ANY_TAG = re.compile(r"</?([A-Za-z_][\w.\-:]*)[^>]*>")
# what may follow a child's closing tag: the next child, the end of the call or the reply
_AFTER_CHILD = re.compile(r"\s*(?:<[A-Za-z_]|</call\s*>|\Z)", re.I)


def _read_call_element(text: str, m: re.Match[str], stop: int, toolset: Toolset
                       ) -> tuple[ParsedCall, int]:
    """The call one ``<call>`` start tag opens, and where reading it ended."""
    name = attributes(m.group(1)).get("name")
    if name is None:
        raise ParseError(f"the <call> element at offset {m.start()} has no name attribute")
    if m.group(1).rstrip().endswith("/"):
        return ParsedCall(name, {}, (m.start(), m.end())), m.end()
    tool = find_tool(name, toolset)
    arguments: dict[str, Any] = {}
    repairs: list[str] = []
    pos = m.end()
    while True:
        tag = _ANY_TAG.search(text, pos, stop)
        if tag is None:
            repairs.append("the <call> element is not closed")
            end = stop
            break
        if tag.group().startswith("</"):
            if tag.group(1).lower() == "call":
                end = tag.end()
                break
            pos = tag.end()  # a stray closing tag between arguments
            continue
        child = _CHILD_OPEN.match(text, tag.start())
        if child is None:
            pos = tag.end()
            continue
        key = child.group(1)
        declared = tool.param(key) if tool is not None else None
        t = declared.type if declared is not None else None
        if child.group(2).rstrip().endswith("/"):
            arguments[key] = element_value("", t, key, repairs)
            pos = child.end()
            continue
        following = re.compile(rf"<{re.escape(key)}\b").search(text, child.end(), stop)
        limit = following.start() if following is not None else stop
        closers = re.compile(rf"</{re.escape(key)}\s*>").finditer(text, child.end(), limit)
        found = closing_tag(text, closers, _AFTER_CHILD)
        if found is None:
            close = _CALL_CLOSE.search(text, child.end(), stop)
            if close is None and stop == len(text):
                raise ParseError(f"the reply ends inside <{key}> of {name!r}: the call is cut "
                                 "short")
            value_stop = close.start() if close is not None else stop
            raw, stray = strip_stray_closer(text[child.end():value_stop])
            repairs.append(f"<{key}> is not closed" + (f" (closed by {stray})" if stray else "")
                           + "; its value ends at </call>")
            pos = value_stop
        else:
            raw = text[child.end():found[0]]
            pos = found[1]
        arguments[key] = element_value(raw, t, key, repairs)
        check_arguments(len(arguments), name)
    return ParsedCall(name, arguments, (m.start(), end), tuple(repairs)), end


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

    Writing and typing as in ``xml_call`` (objects and arrays as JSON text; a string keeps its
    inner text exactly, markup included; an object or array also read from child elements).
    A child's value ends at the first closing tag of its name followed by the next child or
    ``</call>``; a missing closing tag is forgiven with a repair. A ``<call>`` without a name,
    a DTD or entity declaration in the reply, and a lone surrogate are a ``ParseError``.

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

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The ``<call>`` elements of ``text``, values typed from the schema."""
        if "<" not in text or not contains(lowered(text), "<call"):
            return []
        opens = list(itertools.islice(_CALL_OPEN.finditer(text), MAX_TAGS + 1))
        if not opens:
            return []
        if len(opens) > MAX_TAGS:
            raise ParseError(f"the reply holds more than {MAX_TAGS:,} <call> tags; not read")
        refuse_unsafe(text)
        calls: list[ParsedCall] = []
        pos = 0
        for i, m in enumerate(opens):
            if m.start() < pos:
                continue
            stop = opens[i + 1].start() if i + 1 < len(opens) else len(text)
            call, pos = _read_call_element(text, m, stop, toolset)
            calls.append(call)
            check_calls(len(calls))
        return calls
