"""The ``<function_calls><invoke>`` XML answer protocol.

Values travel as element text, so the parser types them from the tool's schema
(:func:`~toolform.protocols._values.typed_text`). The calls are found by a tag scanner, not an
XML parser, so that a string value is text, never markup (``_tags``): HTML, JSX, ``a < b`` or
an unbalanced tag in a string is kept exactly, and a call whose XML is malformed around a
value is still read, with a repair saying what was forgiven. Only object and array values
given as child elements go through an XML parser, ``defusedxml`` with DTDs forbidden: a
billion-laughs or external-entity reply is a ``ParseError`` and is never expanded.
"""

from __future__ import annotations

import bisect
import itertools
import re
from typing import Any, Sequence
from xml.etree.ElementTree import Element
from xml.etree.ElementTree import ParseError as XmlSyntaxError
from xml.sax.saxutils import escape, quoteattr

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from ..errors import ParseError
from ..ir import ToolCall, Toolset, TypeIR
from ._calls import ParsedCall
from ._json import ABSTENTION
from ._limits import MAX_DEPTH, MAX_TAGS, check_arguments, check_calls
from ._names import find_tool
from ._registry import Protocol, register_protocol
from ._tags import (attributes, closing_tag, decode_entities, element_text, has_markup,
                    strip_stray_closer, takes_text)
from ._text import contains, lowered
from ._values import coerce_text, text_of, typed_text

__all__ = ["XmlCall", "declares_dtd", "element_value", "read_xml", "xml_element_value",
           "xml_local_name", "xml_text"]


# -- hardened XML (also used by xml_generic_call) ----------------------------------------------
_RAW_AMP = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)")
_RAW_LT = re.compile(r"<(?![A-Za-z_/!?])")
# an entity declaration, or a DOCTYPE with an internal subset (the only place entities are
# declared); a bare "<!DOCTYPE html>" is text, the head of an HTML file in a string value
_DTD = re.compile(r"<!ENTITY|<!DOCTYPE[^<>\[]*+\[", re.I)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def declares_dtd(text: str) -> bool:
    """Whether ``text`` declares entities anywhere: an ``<!ENTITY`` declaration or a
    ``<!DOCTYPE`` with an internal subset (``[…]``). A DOCTYPE without one declares nothing
    (``<!DOCTYPE html>`` at the head of an HTML string value) and is not refused: no reader
    here expands a DTD (``read_xml`` forbids them)."""
    return contains(text, "<!") and _DTD.search(text) is not None


def refuse_unsafe(text: str) -> None:
    """Refuse what XML must not carry: any entity declaration in the reply (a DTD with an
    internal subset, :func:`declares_dtd`), and lone surrogates (no encoding allows them).

    Raises
    ------
    ParseError
        When ``text`` holds either.
    """
    if declares_dtd(text):
        raise ParseError("the reply declares a DTD or entities; refused, nothing expanded")
    try:
        text.encode("utf-8")
        bad = None
    except UnicodeEncodeError:  # only then look for where
        bad = _LONE_SURROGATE.search(text)
    if bad is not None:
        raise ParseError("the XML holds a character no encoding allows (a lone surrogate at "
                         f"offset {bad.start()})")


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
    except RecursionError:
        raise ParseError(f"XML nested deeper than {MAX_DEPTH}") from None


def xml_local_name(tag: str) -> str:
    """An element tag without its ``{namespace}``, lower case."""
    return tag.rsplit("}", 1)[-1].lower()


def xml_element_value(el: Element, t: TypeIR | None, depth: int) -> Any:
    """The value of an element read by ``defusedxml``: its text typed by ``t``, or nested
    child elements read as an object (distinct tags) or an array (one repeated tag, or an
    array type).

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


_CHILD = re.compile(r"\s*<[A-Za-z_]")


def element_value(raw: str, t: TypeIR | None, key: str, repairs: list[str]) -> Any:
    """The value of one argument given as the inner text ``raw`` of its element.

    A type that takes text (a string, a string enum member, a union with such an option, an
    undeclared type) keeps the text as :func:`~toolform.protocols._tags.element_text` gives
    it, typed from the schema (a JSON object or array for an undeclared type or a union with
    such an option). Any other type reads the text, entities decoded, typed from the schema;
    an object or array also reads child elements (distinct tags an object, one repeated tag
    an array). A value that fits no member of its type is kept as text, with a repair.
    """
    if takes_text(t):
        return typed_text(element_text(raw), t, key, repairs)
    if t is not None and t.kind in ("object", "array", "union") and _CHILD.match(raw) and \
            has_markup(raw):
        try:
            root = read_xml(f"<value>{raw}</value>")
        except ParseError as exc:
            repairs.append(f"{key}: neither JSON nor well-formed child elements ({exc}); "
                           "kept as text")
            return raw
        if len(root):
            return xml_element_value(root, t, 1)
    return typed_text(decode_entities(raw), t, key, repairs)


def xml_text(value: Any) -> str:
    """A value as escaped element text (:func:`text_of`); ``\\r`` as a character reference so
    it survives parsing."""
    return escape(text_of(value)).replace("\r", "&#13;")


# -- the <function_calls> scanner ---------------------------------------------------------------
_NS = r"(?:[\w.-]+:)?"
_ATTRS = r"((?:[^>\"']++|\"[^\"]*+\"|'[^']*+')*+)"
_BLOCK_OPEN = re.compile(rf"<{_NS}function_calls\s*>", re.I)
_BLOCK_CLOSE = re.compile(rf"</{_NS}function_calls\s*>", re.I)
_INVOKE_OPEN = re.compile(rf"<{_NS}invoke\b{_ATTRS}>", re.I)
_PARAM_OPEN = re.compile(rf"<{_NS}parameter\b{_ATTRS}>", re.I)
_PARAM_CLOSE = re.compile(rf"</{_NS}parameter\s*>", re.I)
# the next tag that matters inside an <invoke>: a parameter, the invoke's end, or what can
# only come after it
_INSIDE = re.compile(rf"<(?P<close>/)?{_NS}(?P<tag>parameter|invoke|function_calls)\b"
                     rf"{_ATTRS}>", re.I)
# what may follow a parameter's closing tag
_AFTER_PARAM = re.compile(rf"\s*(?:<{_NS}parameter\b|</{_NS}invoke\s*>|<{_NS}invoke\b"
                          rf"|</?{_NS}function_calls\s*>|\Z)", re.I)


def _regions(text: str) -> list[tuple[int, int]]:
    """Where ``<invoke>`` elements are read: each ``<function_calls>`` block's body (a block
    without its closing tag, a common stop sequence, runs to the next block or the end), or
    the whole text when there is no block.

    Raises
    ------
    ParseError
        When a block holds no ``<invoke>``.
    """
    opens = list(itertools.islice(_BLOCK_OPEN.finditer(text), MAX_TAGS + 1))
    if not opens:
        return [(0, len(text))]
    if len(opens) > MAX_TAGS:
        raise ParseError(f"the reply holds more than {MAX_TAGS:,} <function_calls> blocks; "
                         "not read")
    closes = [m.start() for m in _BLOCK_CLOSE.finditer(text)]
    out = []
    for i, m in enumerate(opens):
        end = opens[i + 1].start() if i + 1 < len(opens) else len(text)
        j = bisect.bisect_left(closes, m.end())
        if j < len(closes) and closes[j] < end:
            end = closes[j]
        if _INVOKE_OPEN.search(text, m.end(), end) is None:
            raise ParseError(f"the <function_calls> block at offset {m.start()} holds no "
                             "<invoke> element")
        out.append((m.end(), end))
    return out


def _read_invoke(text: str, m: re.Match[str], stop: int, toolset: Toolset
                 ) -> tuple[ParsedCall, int]:
    """The call one ``<invoke>`` start tag opens, and where reading it ended."""
    attrs = attributes(m.group(1))
    name = attrs.get("name")
    if name is None:
        raise ParseError(f"the <invoke> element at offset {m.start()} has no name attribute")
    tool = find_tool(name, toolset)
    repairs: list[str] = []
    arguments: dict[str, Any] = {}
    if m.group(1).rstrip().endswith("/"):
        return ParsedCall(name, arguments, (m.start(), m.end())), m.end()
    pos = m.end()
    while True:
        tag = _INSIDE.search(text, pos, stop)
        if tag is None:
            repairs.append("the <invoke> element is not closed; read to the end of its block")
            end = stop
            break
        if tag.group("tag").lower() != "parameter" or tag.group("close"):
            if tag.group("tag").lower() == "invoke" and tag.group("close"):
                end = tag.end()
                break
            if tag.group("tag").lower() == "parameter":  # a stray </parameter>
                pos = tag.end()
                continue
            repairs.append(f"the <invoke> element is not closed before the {tag.group()} at "
                           f"offset {tag.start()}")
            end = tag.start()
            break
        key = attributes(tag.group(3)).get("name")
        if key is None:
            raise ParseError(f"a <parameter> of {name!r} has no name attribute")
        declared = tool.param(key) if tool is not None else None
        t = declared.type if declared is not None else None
        if tag.group(3).rstrip().endswith("/"):
            arguments[key] = element_value("", t, key, repairs)
            pos = tag.end()
            continue
        value_start = tag.end()
        following = _PARAM_OPEN.search(text, value_start, stop)
        limit = following.start() if following is not None else stop
        found = closing_tag(text, _PARAM_CLOSE.finditer(text, value_start, limit), _AFTER_PARAM)
        if found is None:
            after = _INSIDE.search(text, value_start, stop)
            if after is None and stop == len(text):
                raise ParseError(f"the reply ends inside <parameter name={key!r}> of {name!r}: "
                                 "the call is cut short")
            value_end = after.start() if after is not None else stop
            raw, stray = strip_stray_closer(text[value_start:value_end])
            repairs.append(f"<parameter name={key!r}> is not closed"
                           + (f" (closed by {stray})" if stray else "")
                           + "; its value ends at the next tag")
            pos = value_end
        else:
            raw = text[value_start:found[0]]
            pos = found[1]
        arguments[key] = element_value(raw, t, key, repairs)
        check_arguments(len(arguments), name)
    return ParsedCall(name, arguments, (m.start(), end), tuple(repairs)), end


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
    and arrays as JSON text. Reading (see the module docstring): ``<invoke>`` elements inside
    ``<function_calls>`` blocks (anywhere when there is no block; a block's missing closing
    tag is tolerated); a string parameter keeps its inner text exactly (entities decoded when
    the text holds no markup); other values are typed from the schema, an object or array
    also read from child elements; a parameter value ends at the first ``</parameter>``
    followed by the next parameter or the end of the call; a missing ``</parameter>`` or
    ``</invoke>`` is forgiven with a repair. An ``<invoke>`` or ``<parameter>`` without a name,
    a block without an ``<invoke>``, a DTD or entity declaration anywhere in the reply, and a
    lone surrogate are ``ParseError``.

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

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The ``<invoke>`` calls in ``text``, values typed from the schema."""
        low = lowered(text) if "<" in text else ""
        if not contains(low, "invoke") and not contains(low, "function_calls"):
            return []
        refuse_unsafe(text)
        calls: list[ParsedCall] = []
        for start, stop in _regions(text):
            pos = start
            while True:
                m = _INVOKE_OPEN.search(text, pos, stop)
                if m is None:
                    break
                call, pos = _read_invoke(text, m, stop, toolset)
                calls.append(call)
                check_calls(len(calls))
        return calls
