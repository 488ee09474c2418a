"""Values that arrive as text, typed from the tool's schema (for text-valued protocols).

* :func:`coerce_text` types a text value by its declared type; :func:`coerce_value` also
  reads JSON text for a union with an object or array option;
* :func:`quote_if_needed` writes a text value bare unless a reader could not get it back, and
  :func:`unquote_value` reads it back; :func:`text_of` writes any value as text.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ..errors import ParseError
from ..ir import TypeIR
from ._loose_json import json_at, loads_loose

__all__ = ["coerce_text", "coerce_value", "quote_if_needed", "text_of", "unquote_value"]

_INT = re.compile(r"[-+]?[0-9]+")
_NUM = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_TRUE = {"true", "yes"}
_FALSE = {"false", "no"}
_NULL = {"null", "none"}


def coerce_text(text: str, t: TypeIR | None) -> Any:
    """Type a text value by its schema type (for protocols whose values arrive as text).

    Rules: a ``string`` keeps the text exactly; ``integer`` and ``number`` read a decimal
    number (an integral ``5.0`` is the integer 5 for ``integer``); ``boolean`` reads
    true/false/yes/no in any case; ``null`` reads null/None/empty; an ``enum`` keeps a string
    value (stripped) or types a numeric/boolean enum; an ``object`` or ``array`` reads JSON
    text (an array of scalars also accepts ``a, b, c``); a ``union`` tries its non-string
    options first (objects and arrays, then other typed options, strings and string enums last);
    a nullable type reads ``null``. A type with no declaration (``any`` or
    unknown) keeps the text unless it is a JSON object or array. Text that does not fit the
    type is returned unchanged, for the grader to reject.

    Parameters
    ----------
    text : str
        The value as written.
    t : TypeIR or None
        The declared type, if known.

    Returns
    -------
    Any
        The typed value.
    """
    s = text.strip()
    if t is None or t.kind == "any":
        if s[:1] in ("{", "[") and s[-1:] in ("}", "]"):
            try:
                return loads_loose(s)
            except ParseError:
                return text
        return text
    if t.nullable and s.casefold() in _NULL:
        return None
    kind = t.enum_base() if t.kind == "enum" else t.kind
    if t.kind == "enum" and kind == "string":
        for v in t.values:
            if isinstance(v, str) and v == text:
                return text
        return s
    if kind == "string":
        return text
    if kind == "integer":
        if _INT.fullmatch(s):
            return int(s)
        if _NUM.fullmatch(s):
            f = float(s)
            if math.isfinite(f) and f.is_integer():
                return int(f)
        return text
    if kind == "number":
        if _INT.fullmatch(s):
            return int(s)
        if _NUM.fullmatch(s):
            f = float(s)
            return f if math.isfinite(f) else text
        return text
    if kind == "boolean":
        folded = s.casefold()
        return True if folded in _TRUE else False if folded in _FALSE else text
    if kind == "null":
        return None if s.casefold() in _NULL or not s else text
    if kind in ("object", "array"):
        try:
            value = loads_loose(s)
        except ParseError:
            value = None
        if kind == "object" and isinstance(value, dict):
            return value
        if kind == "array" and isinstance(value, list):
            return value
        if kind == "array" and s and (t.items is None or t.items.kind not in ("object",
                                                                             "array")):
            return [coerce_text(part, t.items) for part in
                    (p.strip() for p in s.strip("[]").split(","))]
        return text
    if kind == "union":
        options = sorted(t.options, key=_union_try_order)
        for option in options:
            value = coerce_text(text, option)
            if _fits(value, option):
                return value
        return text
    return text


def _union_try_order(option: TypeIR) -> int:
    """Objects and arrays first (JSON text must become them), then other typed options, and
    strings and string enums last, since any text would pass as those."""
    if option.kind in ("object", "array"):
        return 0
    if option.kind == "string" or (option.kind == "enum" and option.enum_base() == "string"):
        return 2
    return 1


def _fits(value: Any, t: TypeIR) -> bool:
    """Whether a coerced value has the shape of ``t`` (used to pick a union option)."""
    if value is None:
        return t.nullable or t.kind == "null"
    kind = t.enum_base() if t.kind == "enum" else t.kind
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    return True


def text_of(value: Any) -> str:
    """A value as text for text-valued protocols: strings as-is, others as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def quote_if_needed(text: str, unsafe: str = "") -> str:
    """A text value as written by line-oriented text protocols.

    The text is written bare unless a reader could not get it back: empty, white space at
    either end, a leading quote, a line break, or any character of ``unsafe``; then it is
    written as a JSON string. :func:`unquote_value` reverses it.
    """
    if (not text or text != text.strip() or text[0] in "\"'" or "\n" in text or "\r" in text
            or any(c in text for c in unsafe)):
        return json.dumps(text, ensure_ascii=False)
    return text


def unquote_value(raw: str, t: TypeIR | None) -> Any:
    """Read a value written by :func:`quote_if_needed` and type it by ``t``.

    A whole JSON string literal gives its content (kept a string for a string or undeclared
    type, else typed by :func:`coerce_value`); any other text is typed by
    :func:`coerce_value`.
    """
    s = raw.strip()
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        found = json_at(s, 0)
        if found is not None and found[1] == len(s) and isinstance(found[0], str):
            inner = found[0]
            if t is None or t.kind in ("any", "string") or (
                    t.kind == "enum" and t.enum_base() == "string"):
                return inner
            return coerce_value(inner, t)
    return coerce_value(s, t)


def coerce_value(text: str, t: TypeIR | None) -> Any:
    """:func:`coerce_text`, except that JSON object or array text given for a ``union`` with
    an object or array option is read as that JSON first.

    (``coerce_text`` tries a union's options in order with string-like ones last, but a
    string ``enum`` option accepts any text, so ``{"warehouse": …}`` for ``enum | object``
    would stay a string.)
    """
    if t is not None and t.kind == "union":
        s = text.strip()
        if s[:1] in ("{", "[") and any(o.kind in ("object", "array") for o in t.options):
            try:
                value = loads_loose(s)
            except ParseError:
                value = None
            wanted = {"object": dict, "array": list}
            if any(o.kind in wanted and isinstance(value, wanted[o.kind]) for o in t.options):
                return value
    return coerce_text(text, t)
