"""Values that arrive as text, typed from the tool's schema (for text-valued protocols).

* :func:`coerce_text` types a text value by its declared type, all of it: scalars, enums of
  any JSON types (``[1, "auto", null]``), ``const`` (an enum of one value), type arrays and
  unions (``["integer", "string"]``), nullable members; :func:`coerce_value` also reads JSON
  text for a union with an object or array option;
* :func:`typed_text` does the same and, when the text fits no member of the declared type,
  says so in the reader's repairs (the text is kept, for the grader to reject);
* :func:`quote_if_needed` writes a text value bare unless a reader could not get it back, and
  :func:`unquote_value` reads it back; :func:`text_of` writes any value as text.
"""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any

from ..errors import ParseError
from ..ir import TypeIR
from ._loose_json import json_at, loads_loose

__all__ = ["coerce_text", "coerce_value", "fits", "quote_if_needed", "text_of", "typed_text",
           "unquote_value"]

_INT = re.compile(r"[-+]?[0-9]+")
_NUM = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_TRUE = {"true", "yes"}
_FALSE = {"false", "no"}
_NULL = {"null", "none"}
#: Longest digit string read as an integer (Python refuses longer ones by default).
MAX_INT_DIGITS = sys.get_int_max_str_digits() or 4300


def _integer(s: str) -> int | None:
    """``s`` as an integer, or None when it is not one (or has too many digits)."""
    digits = s[1:] if s[:1] in "+-" else s
    if not (digits.isascii() and digits.isdecimal()) or len(digits) > MAX_INT_DIGITS:
        return None
    return int(s)


def _number(s: str) -> int | float | None:
    """``s`` as a finite number (an integer when written as one), or None."""
    value = _integer(s)
    if value is not None:
        return value
    if _INT.fullmatch(s) or not _NUM.fullmatch(s):
        return None
    f = float(s)
    return f if math.isfinite(f) else None


def _scalar(s: str) -> tuple[bool, Any]:
    """``(True, value)`` when ``s`` reads as a JSON scalar other than a string: a number,
    true/false (any case), or null/None."""
    folded = s.casefold()
    if folded in ("true", "false"):
        return True, folded == "true"
    if folded in _NULL:
        return True, None
    number = _number(s)
    return (True, number) if number is not None else (False, None)


def _same(a: Any, b: Any) -> bool:
    """JSON equality: booleans are not numbers, ``1 == 1.0``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def _enum_value(text: str, s: str, t: TypeIR) -> Any:
    """The enum member the text writes: a string member equal to the text (or to it
    stripped), else a number, boolean or null member equal to what the text reads as; the
    stripped text when none fits."""
    for v in t.values:
        if isinstance(v, str) and v == text:
            return v
    for v in t.values:
        if isinstance(v, str) and v == s:
            return v
    ok, value = _scalar(s)
    if ok:
        if value is None and t.nullable:
            return None
        for v in t.values:
            if not isinstance(v, str) and _same(v, value):
                return v
    return s


def coerce_text(text: str, t: TypeIR | None) -> Any:
    """Type a text value by its schema type (for protocols whose values arrive as text).

    Rules: a ``string`` keeps the text exactly; ``integer`` and ``number`` read a decimal
    number (an integral ``5.0`` is the integer 5 for ``integer``; more digits than Python
    reads, or a number out of range, stay text); ``boolean`` reads true/false/yes/no in any
    case; ``null`` reads null/None/empty; an ``enum`` (of any JSON types; ``const`` is an enum
    of one) gives the member the text writes, a string member matched exactly (or stripped)
    first, then a number, boolean or null member equal to what the text reads as, else the
    stripped text; an ``object`` or ``array`` reads JSON text (an array of scalars also
    accepts ``a, b, c``); a ``union`` (a type array too) tries its options, objects and
    arrays first, then other typed options, strings and string enums last, and takes the
    first the value fits; a nullable type reads ``null``. A type with no declaration (``any``
    or unknown) keeps the text unless it is a JSON object or array. Text that fits no member
    of the type is returned unchanged, for the grader to reject (:func:`typed_text` also
    says so).

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
    kind = t.kind
    if kind == "enum":
        return _enum_value(text, s, t)
    if kind == "string":
        return text
    if kind == "integer":
        value = _number(s)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return value if isinstance(value, int) else text
    if kind == "number":
        value = _number(s)
        return value if value is not None else text
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
        for option in sorted(t.options, key=_union_try_order):
            value = coerce_text(text, option)
            if fits(value, option):
                return value
        return text
    return text


def _union_try_order(option: TypeIR) -> int:
    """Objects and arrays first (JSON text must become them), then other typed options, and
    strings and string enums last, since any text would pass as those."""
    if option.kind in ("object", "array"):
        return 0
    if option.kind == "string" or (option.kind == "enum" and all(isinstance(v, str)
                                                                  for v in option.values)):
        return 2
    return 1


def fits(value: Any, t: TypeIR | None) -> bool:
    """Whether a typed value has the shape of ``t``: its kind (an enum: one of its members;
    a union: one of its options; nullable: or None). Constraints (bounds, patterns) are not
    checked: that is the grader's work. An undeclared type fits anything."""
    if t is None or t.kind == "any":
        return True
    if value is None:
        return t.nullable or t.kind == "null"
    kind = t.kind
    if kind == "enum":
        return any(_same(v, value) for v in t.values)
    if kind == "union":
        return any(fits(value, o) for o in t.options)
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


def _describe(t: TypeIR) -> str:
    if t.kind == "enum":
        shown = ", ".join(json.dumps(v) for v in t.values[:6])
        return f"one of {shown}{', …' if len(t.values) > 6 else ''}" + (
            " or null" if t.nullable else "")
    if t.kind == "union":
        return " or ".join(_describe(o) for o in t.options) + (" or null" if t.nullable
                                                              else "")
    return f"{t.kind}{' or null' if t.nullable else ''}"


def typed_text(text: str, t: TypeIR | None, key: str, repairs: list[str]) -> Any:
    """:func:`coerce_value`, noting in ``repairs`` a text that fits no member of its declared
    type (the text is kept).

    Parameters
    ----------
    text : str
        The value as written.
    t : TypeIR or None
        The declared type, if known (None or ``any``: nothing to fit, nothing noted).
    key : str
        The argument's name, for the note.
    repairs : list of str
        Where the note goes.

    Returns
    -------
    Any
        The typed value.
    """
    value = coerce_value(text, t)
    if t is not None and t.kind != "any" and not fits(value, t):
        shown = text if len(text) <= 60 else text[:60] + "…"
        digits = len(text.strip().lstrip("+-"))
        why = (f"; a number of {digits:,} digits, past the {MAX_INT_DIGITS:,} Python reads"
               if _INT.fullmatch(text.strip()) and digits > MAX_INT_DIGITS else "")
        repairs.append(f"{key}: {shown!r} fits no member of its declared type "
                       f"({_describe(t)}){why}; kept as text")
    return value


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


def unquote_value(raw: str, t: TypeIR | None, key: str = "", repairs: list[str] | None = None
                  ) -> Any:
    """Read a value written by :func:`quote_if_needed` and type it by ``t``.

    A whole JSON string literal gives its content (kept a string for a string or undeclared
    type, else typed by :func:`coerce_value`); any other text is typed by
    :func:`coerce_value`. With ``repairs``, a value that fits no member of ``t`` is noted
    there (:func:`typed_text`).
    """
    s = raw.strip()
    if len(s) >= 2 and s[0] == '"' and s[-1] == '"':
        found = json_at(s, 0)
        if found is not None and found[1] == len(s) and isinstance(found[0], str):
            inner = found[0]
            if t is None or t.kind in ("any", "string") or (
                    t.kind == "enum" and any(isinstance(v, str) and v == inner
                                             for v in t.values)):
                return inner
            s = inner
    if repairs is None:
        return coerce_value(s, t)
    return typed_text(s, t, key, repairs)


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
