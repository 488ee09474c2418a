"""The ``<function_calls><invoke>`` XML answer protocol.

Values travel as element text, so the parser types them from the tool's schema
(:func:`~toolform.protocols._values.coerce_text`). XML goes through ``defusedxml`` with DTDs
forbidden: a billion-laughs or external-entity reply is a ``ParseError`` and is never expanded.
"""

from __future__ import annotations

import re
from typing import Any, Sequence
from xml.etree.ElementTree import Element
from xml.etree.ElementTree import ParseError as XmlSyntaxError
from xml.sax.saxutils import escape, quoteattr

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from ..errors import ParseError
from ..ir import ToolCall, Toolset, TypeIR
from ._json import ABSTENTION
from ._limits import MAX_DEPTH
from ._names import find_tool
from ._registry import Protocol, register_protocol
from ._text import strip_think
from ._values import coerce_text, text_of

__all__ = ["XmlCall", "declares_dtd", "read_xml", "xml_element_value", "xml_local_name",
           "xml_text"]


# -- hardened XML (also used by xml_generic_call) ----------------------------------------------
_RAW_AMP = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)")
_RAW_LT = re.compile(r"<(?![A-Za-z_/!?])")
_DTD = re.compile(r"<!(?:DOCTYPE|ENTITY)", re.I)


def declares_dtd(text: str) -> bool:
    """Whether ``text`` holds a ``<!DOCTYPE`` or ``<!ENTITY`` declaration anywhere."""
    return _DTD.search(text) is not None


def read_xml(document: str) -> Element:
    """Parse one XML document through ``defusedxml`` with DTDs forbidden.

    A raw ``&`` that starts no entity reference, and a ``<`` that starts no tag, are escaped
    first (values like ``a & b`` or ``x < 3`` are a common slip). Nothing is ever expanded.

    Parameters
    ----------
    document : str
        One complete XML document.

    Returns
    -------
    xml.etree.ElementTree.Element
        The root element.

    Raises
    ------
    ParseError
        For a forbidden construct (DTD, entity declaration, external reference), malformed
        XML, or a lone surrogate (which XML does not allow).
    """
    document = _RAW_LT.sub("&lt;", _RAW_AMP.sub("&amp;", document))
    try:
        return SafeET.fromstring(document, forbid_dtd=True)
    except DefusedXmlException as exc:
        raise ParseError(f"forbidden XML construct ({type(exc).__name__}); not expanded"
                         ) from None
    except XmlSyntaxError as exc:
        raise ParseError(f"malformed XML: {exc}") from None
    except UnicodeEncodeError as exc:  # the parser encodes to UTF-8: a lone surrogate fails
        raise ParseError(f"the XML holds a character no encoding allows ({exc.reason})"
                         ) from None


def xml_local_name(tag: str) -> str:
    """An element tag without its ``{namespace}``, lower case."""
    return tag.rsplit("}", 1)[-1].lower()


def xml_element_value(el: Element, t: TypeIR | None, depth: int) -> Any:
    """The value of a parameter element: its text typed by ``t``, or nested child elements
    read as an object (distinct tags) or an array (one repeated tag, or an array type).

    Raises
    ------
    ParseError
        When the elements nest deeper than :data:`MAX_DEPTH` (``depth`` counts from 1).
    """
    if depth > MAX_DEPTH:
        raise ParseError(f"XML value nested deeper than {MAX_DEPTH}")
    children = list(el)
    if not children:
        return coerce_text(el.text or "", t)
    tags = [xml_local_name(c.tag) for c in children]
    is_array = (t is not None and t.kind == "array") or (
        (t is None or t.kind == "any") and len(tags) > 1 and len(set(tags)) == 1)
    if is_array:
        items = t.items if t is not None else None
        return [xml_element_value(c, items, depth + 1) for c in children]
    fields = {f.name: f.type for f in t.fields} if t is not None and t.kind == "object" else {}
    return {c.tag: xml_element_value(c, fields.get(c.tag), depth + 1) for c in children}


def xml_text(value: Any) -> str:
    """A value as escaped element text (:func:`text_of`); ``\\r`` as a character reference so
    it survives parsing."""
    return escape(text_of(value)).replace("\r", "&#13;")


_BLOCK_OPEN = re.compile(r"<(?:[\w.-]+:)?function_calls\s*>", re.I)
_BLOCK_CLOSE = re.compile(r"</(?:[\w.-]+:)?function_calls\s*>", re.I)
_INVOKE_OPEN = re.compile(r"<(?:[\w.-]+:)?invoke\b", re.I)
_INVOKE_CLOSE = re.compile(r"</(?:[\w.-]+:)?invoke\s*>", re.I)
# prefixed tag names (``<ns:invoke>``) would need a namespace declaration: drop the prefix
_PREFIX = re.compile(r"<(/?)[\w.-]+:(function_calls|invoke|parameter)\b", re.I)


def _blocks(text: str) -> list[str]:
    """Each ``<function_calls>`` block as a complete XML document string.

    A block without its closing tag (the tag is a common stop sequence) runs to the next block
    or the end. ``<invoke>`` elements with no enclosing block are wrapped in one.
    """
    opens = list(_BLOCK_OPEN.finditer(text))
    if not opens:
        first = _INVOKE_OPEN.search(text)
        if first is None:
            return []
        last = None
        for last in _INVOKE_CLOSE.finditer(text, first.start()):
            pass
        end = last.end() if last is not None else len(text)
        return [f"<function_calls>{text[first.start():end]}</function_calls>"]
    closes = [m for m in _BLOCK_CLOSE.finditer(text)]
    out = []
    j = 0
    for i, m in enumerate(opens):
        while j < len(closes) and closes[j].start() < m.end():
            j += 1
        end = opens[i + 1].start() if i + 1 < len(opens) else len(text)
        if j < len(closes) and closes[j].start() < end:
            end = closes[j].start()
        out.append(f"<function_calls>{text[m.end():end]}</function_calls>")
    return out


def _read_block(block: str, toolset: Toolset) -> list[ToolCall]:
    if not _INVOKE_OPEN.search(block):
        raise ParseError("a <function_calls> block holds no <invoke> element")
    root = read_xml(_PREFIX.sub(r"<\1\2", block))
    calls = []
    for invoke in root:
        if xml_local_name(invoke.tag) != "invoke":
            continue
        name = invoke.get("name")
        if name is None:
            raise ParseError("an <invoke> element has no name attribute")
        tool = find_tool(name, toolset)
        arguments: dict[str, Any] = {}
        for param in invoke:
            if xml_local_name(param.tag) != "parameter":
                continue
            key = param.get("name")
            if key is None:
                raise ParseError(f"a <parameter> of {name!r} has no name attribute")
            declared = tool.param(key) if tool is not None else None
            arguments[key] = xml_element_value(param, declared.type if declared else None, 1)
        calls.append(ToolCall(name, arguments))
    return calls


@register_protocol(
    name="<function_calls><invoke> XML",
    description=("One <invoke> element per call inside a <function_calls> block, one "
                 "<parameter> element per argument; values are text typed from the schema."),
    supports_parallel=True,
    structured=True,
    text_values=True,
    cannot_carry=("untyped_values", "mistyped_values", "xml_invalid_characters"),
)
class XmlCall(Protocol):
    """``<function_calls><invoke name="tool"><parameter name="param_name">value</parameter>…``.

    Writing: strings as escaped text; numbers, booleans and null as their JSON text; objects
    and arrays as JSON text. Reading: element text is typed from the parameter's schema; a
    parameter holding child elements is read as an object (or an array for an array type).
    Raw ``&`` and ``<`` in values are escaped before parsing; a missing closing
    ``</function_calls>`` is tolerated. Any XML error, and any DTD or entity declaration
    anywhere in the reply, is a ``ParseError``.

    ``cannot_carry``: a value of an undeclared type other than an object or array comes back
    as a string (``untyped_values``); a value of the wrong type for its parameter (``"5"`` for
    an integer) comes back typed (``mistyped_values``); characters XML 1.0 forbids
    (``xml_invalid_characters``).
    """

    instruction = ('To call a tool, write <function_calls><invoke name="tool_name">'
                   '<parameter name="param_name">value</parameter></invoke></function_calls>; give '
                   'object and array values as JSON, and use one <invoke> per call.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One ``<function_calls>`` block holding one ``<invoke>`` per call."""
        if not calls:
            return ABSTENTION
        lines = ["<function_calls>"]
        for call in calls:
            lines.append(f"<invoke name={quoteattr(call.name)}>")
            for key, value in call.arguments.items():
                lines.append(f"<parameter name={quoteattr(key)}>{xml_text(value)}</parameter>")
            lines.append("</invoke>")
        lines.append("</function_calls>")
        return "\n".join(lines)

    def parse(self, text: str, toolset: Toolset) -> list[ToolCall]:
        """The ``<invoke>`` calls in ``text``, values typed from the schema."""
        text, _ = strip_think(text)
        if declares_dtd(text):
            raise ParseError("the reply declares a DTD or entities; refused, nothing expanded")
        return [c for block in _blocks(text) for c in _read_block(block, toolset)]
