"""Values inside tags, read as a careful reader would (issue 14, points 1 and 2).

The tag-shaped protocols (``xml_call``, ``xml_generic_call``, ``function_tags``) carry each
argument between an opening and a closing tag. Their parsers share these rules:

* **a string is text, never markup**: the value of a parameter whose type takes text keeps its
  inner text exactly, HTML, JSX, placeholders such as ``<project>``, ``a < b`` and unbalanced
  tags included (:func:`element_text`); only ``object`` and ``array`` values are decoded;
* **a closing tag inside a value does not end it**: a value ends at the first closing tag that
  is followed by what may follow a value (the next parameter, the end of the call, the end of
  the reply), else at its first closing tag (:func:`value_end`);
* **a missing closing tag is forgiven** where the next tag makes the end plain, with a repair
  saying so.

Linear: a value costs what it spans.
"""

from __future__ import annotations

import functools
import re
from typing import Iterable

from ..ir import TypeIR

__all__ = ["attributes", "closing_tag", "decode_entities", "element_text", "has_markup",
           "strip_stray_closer", "takes_text"]

_ENTITY = re.compile(r"&(?:(amp|lt|gt|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.S)
_MARKUP = re.compile(r"<[A-Za-z_/!?]")
_STRAY_CLOSER = re.compile(r"</[\w:.\-]+\s*>\s*$")
_ATTRIBUTE = re.compile(r"""([\w:.\-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))""")


def _entity(m: re.Match[str]) -> str:
    if m.group(1):
        return _NAMED[m.group(1)]
    code = int(m.group(2)) if m.group(2) else int(m.group(3), 16)
    try:
        return chr(code)
    except (ValueError, OverflowError):  # past U+10FFFF: not a character, kept as written
        return m.group()


def decode_entities(text: str) -> str:
    """XML's five named entities and numeric character references replaced; any other
    ``&name;`` is kept as written (nothing is ever expanded)."""
    return _ENTITY.sub(_entity, text) if "&" in text else text


def has_markup(text: str) -> bool:
    """Whether ``text`` holds a tag-like ``<`` (``<a``, ``</``, ``<!``, ``<?``) outside CDATA."""
    return _MARKUP.search(_CDATA.sub("", text) if "<![CDATA[" in text else text) is not None


def element_text(raw: str) -> str:
    """The text a value's raw inner text stands for: CDATA sections opened and, when the text
    holds no markup (the writer escaped it), entities decoded; text with markup in it (HTML,
    JSX, placeholders) is the model's own text and is kept exactly."""
    if "<![CDATA[" in raw:
        pieces, pos = [], 0
        for m in _CDATA.finditer(raw):
            pieces.append(("t", raw[pos:m.start()]))
            pieces.append(("c", m.group(1)))
            pos = m.end()
        pieces.append(("t", raw[pos:]))
        markup = any(kind == "t" and _MARKUP.search(p) for kind, p in pieces)
        return "".join(p if kind == "c" or markup else decode_entities(p) for kind, p in pieces)
    if "<" in raw and _MARKUP.search(raw):
        return raw
    return decode_entities(raw)


def attributes(tag: str) -> dict[str, str]:
    """The attributes of one start tag's text (``name="x" k='y' z=w``), entities decoded
    (a new dict; a short tag's reading is remembered, since replies repeat their tags)."""
    if len(tag) <= _REMEMBERED_TAG_CHARS:
        return dict(_attribute_items(tag))
    return dict(_read_attributes(tag))


#: Longest start tag text whose attributes are remembered.
_REMEMBERED_TAG_CHARS = 256


def _read_attributes(tag: str) -> tuple[tuple[str, str], ...]:
    out: dict[str, str] = {}
    for m in _ATTRIBUTE.finditer(tag):
        value = next(v for v in m.group(2, 3, 4) if v is not None)
        out.setdefault(m.group(1), decode_entities(value))
    return tuple(out.items())


_attribute_items = functools.lru_cache(maxsize=1024)(_read_attributes)


def takes_text(t: TypeIR | None) -> bool:
    """Whether a value of type ``t`` may be plain text, so markup in it is text: a string, a
    string enum member, a union with such an option, or an undeclared type."""
    if t is None or t.kind == "any":
        return True
    if t.kind == "string":
        return True
    if t.kind == "enum":
        return any(isinstance(v, str) for v in t.values)
    if t.kind == "union":
        return any(takes_text(o) for o in t.options)
    return False


def closing_tag(text: str, closers: Iterable[re.Match[str]], follows: re.Pattern[str]
                ) -> tuple[int, int] | None:
    """Where a value ends: ``(end of the value, end of its closing tag)``, or None when no
    closing tag comes.

    The end is the first of ``closers`` (the closing tags after the value's start, in text
    order, up to where the value must end at the latest) that ``follows`` matches right after:
    the next parameter, the end of the call or of the reply. When none is followed so, the
    first closing tag. ``closers`` is read lazily, so a value costs what it spans.

    Parameters
    ----------
    text : str
        The reply.
    closers : iterable of re.Match
        The candidate closing tags, in order (``pattern.finditer(text, start, limit)``).
    follows : re.Pattern
        What may follow a value's closing tag (anchored with ``match``); it should match at
        the end of the text too.

    Returns
    -------
    tuple of (int, int) or None
    """
    first = None
    for m in closers:
        if first is None:
            first = m
        if follows.match(text, m.end()):
            return m.start(), m.end()
    return (first.start(), first.end()) if first is not None else None


def strip_stray_closer(raw: str) -> tuple[str, str | None]:
    """A value left unclosed may end with a closing tag of another name (``</param>`` for
    ``</parameter>``): the value without it, and the tag (None when there is none)."""
    m = _STRAY_CLOSER.search(raw)
    if m is None:
        return raw, None
    return raw[:m.start()], m.group().strip()
