"""Helpers every protocol parser shares, written once.

What lives here:

* limits: :data:`MAX_REPLY_CHARS` and :data:`MAX_DEPTH`, and the grading :data:`RULES`;
* reply cleaning: :func:`strip_think` (``<think>…</think>`` reasoning) and :func:`code_fences`;
* bracket matching in one linear pass (:func:`match_brackets`), so no hostile reply can make
  a parser quadratic;
* tolerant JSON: :func:`loads_loose` reads JSON, and when that fails a small tokenizer accepts
  single-quoted strings, Python's ``True``/``False``/``None``, trailing commas and bare keys
  (nothing is ever evaluated); :func:`json_fragments` finds every JSON value in prose;
* name resolution (:func:`resolve_name`): case, separators, then the nearest name;
* schema-guided typing of text values (:func:`coerce_text`) for text-valued protocols;
* re-nesting of flat arguments (:func:`renest`);
* the readers several protocols share: Python call expressions (``py_*``: ``python_call`` and
  the Python family of ``_code_calls``), hardened XML (:func:`read_xml` and the ``xml_*``
  helpers: ``xml_call`` and ``xml_generic_call``), and sentences stating calls
  (:func:`intent_calls`: ``nl_intent`` and ``nl_intent_structured``).

Everything in ``__all__`` is the package's internal API for its protocol modules; no protocol
module imports another one's underscore names.
"""

from __future__ import annotations

import ast
import difflib
import functools
import json
import keyword
import math
import re
import unicodedata
import warnings
from dataclasses import dataclass
from typing import Any, Mapping, Sequence
from xml.etree.ElementTree import Element
from xml.etree.ElementTree import ParseError as XmlSyntaxError
from xml.sax.saxutils import escape

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from ..errors import ParseError
from ._brackets import Brackets, match_brackets, tag_bodies
from ._limits import MAX_DEPTH, MAX_REPLY_CHARS
from ._text import code_fences, strip_think
from ..ir import ParamIR, ToolCall, ToolIR, Toolset, TypeIR

__all__ = [
    "Brackets",
    "Fragment",
    "MAX_DEPTH",
    "MAX_REPLY_CHARS",
    "Move",
    "NAME_RATIO",
    "PY_CALL_HEAD",
    "PY_CODE_LANGS",
    "PY_WRAPPER",
    "RULES",
    "check_depth",
    "code_fences",
    "coerce_text",
    "coerce_value",
    "declares_dtd",
    "find_tool",
    "intent_calls",
    "json_at",
    "json_fragments",
    "json_text",
    "loads_loose",
    "match_brackets",
    "py_module_calls",
    "py_parse_source",
    "py_prose_calls",
    "py_read_call",
    "py_write_call",
    "quote_if_needed",
    "read_xml",
    "renest",
    "resolve_name",
    "strip_think",
    "tag_bodies",
    "text_of",
    "to_json_value",
    "tool_finder",
    "unquote_value",
    "xml_element_value",
    "xml_local_name",
    "xml_text",
]

#: The grading rules, in the order the study reports them.
RULES = ("main", "symmetric", "as_written")

#: Smallest ``difflib`` similarity ratio at which an unknown tool name resolves to a tool.
NAME_RATIO = 0.85


# -- tolerant JSON -----------------------------------------------------------------------------
_TOKEN = re.compile(r"""
    (?P<ws>\s+|//[^\n]*)
  | (?P<punct>[{}\[\],:])
  | (?P<dq>"(?:[^"\\]|\\.)*")
  | (?P<sq>'(?:[^'\\]|\\.)*')
  | (?P<num>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
  | (?P<word>[^\W\d][\w$\-]*)
""", re.X | re.S)

_WORDS = {"true": True, "false": False, "null": None, "True": True, "False": False,
          "None": None}
_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n",
            "r": "\r", "t": "\t", "0": "\0"}


def _unquote(raw: str) -> str:
    """The value of a quoted token (either quote), JSON escapes plus ``\\'``."""
    body = raw[1:-1]
    if "\\" not in body:
        return body
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\" or i + 1 >= len(body):
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        if e == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", body[i + 2:i + 6]):
            out.append(chr(int(body[i + 2:i + 6], 16)))
            i += 6
            continue
        out.append(_ESCAPES.get(e, "\\" + e))
        i += 2
    return "".join(out)


class _Loose:
    """Recursive-descent reader of relaxed JSON (depth-capped).

    Tokens are read on demand, so a reply that goes wrong early fails early.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.token: tuple[str, str, int] = ("", "", 0)
        self._advance()

    def _advance(self) -> None:
        """Move ``self.token`` to the next token (``("end", "", len)`` at the end)."""
        text = self.text
        while True:
            if self.pos >= len(text):
                self.token = ("end", "", self.pos)
                return
            m = _TOKEN.match(text, self.pos)
            if m is None:
                raise ParseError(f"unexpected character {text[self.pos]!r} at offset {self.pos}")
            self.pos = m.end()
            if m.lastgroup != "ws":
                self.token = (m.lastgroup or "", m.group(), m.start())
                return

    def _take(self) -> tuple[str, str, int]:
        token = self.token
        if token[0] == "end":
            raise ParseError("unexpected end of JSON")
        self._advance()
        return token

    def read(self) -> Any:
        value = self._value(0)
        if self.token[0] != "end":
            raise ParseError(f"extra text at offset {self.token[2]}")
        return value

    def _value(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise ParseError(f"JSON nested deeper than {MAX_DEPTH}")
        kind, tok, pos = self._take()
        if tok == "{" and kind == "punct":
            return self._object(depth)
        if tok == "[" and kind == "punct":
            return self._array(depth)
        if kind in ("dq", "sq"):
            return _unquote(tok)
        if kind == "num":
            return _number(tok, pos)
        if kind == "word" and tok in _WORDS:
            return _WORDS[tok]
        raise ParseError(f"unexpected {tok[:20]!r} at offset {pos}")

    def _separator(self, closer: str) -> bool:
        """Consume ``,`` (True) or see ``closer`` (False); anything else is an error."""
        kind, tok, pos = self.token
        if kind == "punct" and tok == ",":
            self._advance()
            return True
        if kind == "punct" and tok == closer:
            return False
        raise ParseError(f"expected ',' or {closer!r} at offset {pos}")

    def _object(self, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while True:
            kind, tok, pos = self._take()
            if kind == "punct" and tok == "}":
                return out
            if kind in ("dq", "sq"):
                key = _unquote(tok)
            elif kind in ("word", "num"):
                key = tok
            else:
                raise ParseError(f"expected a key at offset {pos}, got {tok[:20]!r}")
            if self._take()[1] != ":":
                raise ParseError(f"expected ':' after key {key[:40]!r}")
            out[key] = self._value(depth + 1)
            self._separator("}")

    def _array(self, depth: int) -> list[Any]:
        out: list[Any] = []
        while True:
            if self.token[:2] == ("punct", "]"):
                self._advance()
                return out
            out.append(self._value(depth + 1))
            self._separator("]")


def _number(tok: str, pos: int) -> int | float:
    try:
        if re.fullmatch(r"[-+]?\d+", tok):
            return int(tok)
        value = float(tok)
    except ValueError as exc:  # e.g. an integer past Python's digit limit
        raise ParseError(f"unreadable number at offset {pos}: {exc}") from None
    if not math.isfinite(value):
        raise ParseError(f"number out of range at offset {pos}")
    return value


def loads_loose(text: str) -> Any:
    """Read one JSON value, tolerating the slips models make.

    Strict JSON is tried first; then a tokenizer accepts single-quoted strings, ``True``,
    ``False``, ``None``, trailing commas, bare-word keys and ``//`` comments. Nothing is
    evaluated.

    Parameters
    ----------
    text : str
        The value's text (surrounding whitespace allowed).

    Returns
    -------
    Any
        A JSON value (dict, list, str, int, float, bool or None).

    Raises
    ------
    ParseError
        When the text is not a value even under the relaxed reading, or nests deeper than
        :data:`MAX_DEPTH`.
    """
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return _Loose(text).read()
    check_depth(value)
    return value


def check_depth(value: Any) -> None:
    """Raise ``ParseError`` when a decoded value nests deeper than :data:`MAX_DEPTH`.

    Iterative, so it is safe on any value.
    """
    todo = [(value, 0)]
    while todo:
        v, d = todo.pop()
        if d > MAX_DEPTH:
            raise ParseError(f"value nested deeper than {MAX_DEPTH}")
        if isinstance(v, dict):
            todo.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            todo.extend((x, d + 1) for x in v)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


@dataclass(frozen=True)
class Fragment:
    """A bracketed span of a reply that looked like JSON.

    ``value`` is the decoded value when ``error`` is empty; ``error`` says why it did not read.
    """

    start: int
    end: int
    text: str
    value: Any = None
    error: str = ""


def json_fragments(text: str, *, _level: int = 0) -> list[Fragment]:
    """Every outermost JSON object or array in ``text``, decoded tolerantly.

    A span that does not decode is searched once more inside (two levels at most), so a call
    wrapped in prose braces is still found; spans that never close are returned as errors
    when they hold a ``:`` (without one they cannot be a call).

    Parameters
    ----------
    text : str
        Reply text, prose allowed around the values.

    Returns
    -------
    list of Fragment
        In text order.
    """
    found = match_brackets(text, "{[")
    out: list[Fragment] = []
    for start, end in found.spans:
        chunk = text[start:end + 1]
        try:
            out.append(Fragment(start, end, chunk, loads_loose(chunk)))
        except ParseError as exc:
            inner = json_fragments(chunk[1:-1], _level=_level + 1) if _level < 2 else []
            good = [f for f in inner if not f.error]
            if good:
                out.extend(Fragment(start + 1 + f.start, start + 1 + f.end, f.text, f.value)
                           for f in good)
            else:
                out.append(Fragment(start, end, chunk, error=str(exc)))
    for start, end in found.unclosed:
        if text.find(":", start, end) >= 0:  # with no key-value pair it cannot be a call
            out.append(Fragment(start, end, text[start:end], error="bracket never closed"))
    out.sort(key=lambda f: f.start)
    return out


def to_json_value(value: Any, depth: int = 0) -> Any:
    """A Python literal as a JSON value: tuples become lists; sets, bytes and complex refused.

    Raises
    ------
    ParseError
        For a value JSON cannot hold, a non-string key, or nesting past :data:`MAX_DEPTH`.
    """
    if depth > MAX_DEPTH:
        raise ParseError(f"value nested deeper than {MAX_DEPTH}")
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ParseError(f"{value!r} is not a JSON number")
        return value
    if isinstance(value, (list, tuple)):
        return [to_json_value(v, depth + 1) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise ParseError("object keys must be strings")
        return {k: to_json_value(v, depth + 1) for k, v in value.items()}
    raise ParseError(f"a {type(value).__name__} is not a JSON value")


# -- names -------------------------------------------------------------------------------------
_SEPARATORS = re.compile(r"[-_.\s]+")


def _sep_key(name: str) -> str:
    return _SEPARATORS.sub("", name).casefold()


def resolve_name(name: str, toolset: Toolset, *, nearest: bool = True
                 ) -> tuple[str, str | None]:
    """The tool a written name refers to, and how it was found.

    Tried in order, each accepted only when exactly one tool fits: the exact name; the same
    name ignoring case (``"case"``); the same name ignoring case and the separators ``-``,
    ``_``, ``.`` and white space (``"separator"``); the most similar name with a ``difflib``
    ratio of at least :data:`NAME_RATIO` (``"nearest"``, ties go to the earlier tool).

    Parameters
    ----------
    name : str
        The name as written.
    toolset : Toolset
        The tools on offer.
    nearest : bool
        Whether to try the nearest-name step.

    Returns
    -------
    tuple of (str, str or None)
        The tool's name and how it was found (``None`` for an exact name); the name as written
        and ``None`` when nothing fits.
    """
    if name in toolset:
        return name, None
    names = toolset.names
    folded = [n for n in names if n.casefold() == name.casefold()]
    if len(folded) == 1:
        return folded[0], "case"
    key = _sep_key(name)
    loose = [n for n in names if _sep_key(n) == key]
    if len(loose) == 1:
        return loose[0], "separator"
    if nearest and names:
        best, best_ratio = None, NAME_RATIO
        for n in names:
            # ratio <= 2*min/(len sum): skip lengths that cannot reach the threshold
            if 2 * min(len(n), len(name)) < NAME_RATIO * (len(n) + len(name)):
                continue
            m = difflib.SequenceMatcher(None, name, n, autojunk=False)
            if m.real_quick_ratio() < best_ratio or m.quick_ratio() < best_ratio:
                continue
            r = m.ratio()
            if r > best_ratio or (best is None and r >= best_ratio):
                best, best_ratio = n, r
        if best is not None:
            return best, "nearest"
    return name, None


def find_tool(name: str, toolset: Toolset) -> ToolIR | None:
    """The tool ``name`` resolves to by any step of :func:`resolve_name`, or None."""
    resolved, _ = resolve_name(name, toolset)
    return toolset.get(resolved)


# -- typing text values ------------------------------------------------------------------------
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


# -- re-nesting --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    """One re-nesting step: ``keys`` moved from the top level into the object at ``path``."""

    path: str
    keys: tuple[str, ...]


def _object_fields(t: TypeIR) -> tuple[ParamIR, ...]:
    return t.fields if t.kind == "object" else ()


def _absorbs(t: TypeIR, key: str) -> bool:
    """Whether ``key`` is a field of object type ``t`` or of an object nested in it."""
    fields = _object_fields(t)
    return any(f.name == key or _absorbs(f.type, key) for f in fields)


def renest(arguments: Mapping[str, Any], fields: Sequence[ParamIR], *, coerce: bool = False
           ) -> tuple[dict[str, Any], list[Move]]:
    """Move flat arguments into the absent object parameter that declares them.

    When an object-typed parameter ``P`` is absent and the call gives, at this level, a key
    that is not a parameter here but is a field of ``P`` (or of an object nested in ``P``),
    the key moves into ``P``; absent object parameters are tried in declaration order and the
    first that declares a key takes it. Present object values are repaired the same way, one
    level down.

    Parameters
    ----------
    arguments : mapping
        The call's arguments at this level.
    fields : sequence of ParamIR
        The parameters (or object fields) declared at this level.
    coerce : bool
        Type moved text values by their field's schema (:func:`coerce_text`), for protocols
        whose values arrive as text.

    Returns
    -------
    arguments : dict
        The repaired arguments (a new dict; ``arguments`` is not changed).
    moves : list of Move
        What moved where (empty when nothing changed).
    """
    return _renest(arguments, fields, coerce, "", False)


def _renest(arguments: Mapping[str, Any], fields: Sequence[ParamIR], coerce: bool,
            prefix: str, placed: bool) -> tuple[dict[str, Any], list[Move]]:
    out = dict(arguments)
    moves: list[Move] = []
    declared = {f.name for f in fields}
    for f in fields:
        value = out.get(f.name)
        if isinstance(value, dict) and _object_fields(f.type):
            out[f.name], inner = _renest(value, f.type.fields, coerce, f"{prefix}{f.name}.",
                                         False)
            moves.extend(inner)
    stray = [k for k in out if k not in declared]
    for f in fields:
        if not stray:
            break
        if f.name in out or not _object_fields(f.type):
            continue
        take = [k for k in stray if _absorbs(f.type, k)]
        if not take:
            continue
        moved = {k: out.pop(k) for k in take}
        moves.append(Move(f"{prefix}{f.name}", tuple(take)))
        out[f.name], inner = _renest(moved, f.type.fields, coerce, f"{prefix}{f.name}.", True)
        moves.extend(inner)
        stray = [k for k in stray if k not in take]
    if placed and coerce:
        by_name = {f.name: f for f in fields}
        for key, value in out.items():
            if isinstance(value, str) and key in by_name:
                out[key] = coerce_text(value, by_name[key].type)
    return out, moves


def text_of(value: Any) -> str:
    """A value as text for text-valued protocols: strings as-is, others as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


# -- helpers for the second-wave protocols (appended) ------------------------------------------
_JSON_DECODER = json.JSONDecoder()


def json_at(text: str, pos: int) -> tuple[Any, int] | None:
    """The strict JSON value starting exactly at ``pos`` and the position after it, or None.

    Depth-capped (:data:`MAX_DEPTH`); never raises.
    """
    try:
        value, end = _JSON_DECODER.raw_decode(text, pos)
        check_depth(value)
    except (ValueError, RecursionError, ParseError):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value, end


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




def tool_finder(toolset: Toolset):  # noqa: ANN201 - returns a closure
    """:func:`find_tool` remembered per name, for one reply that names many words.

    Parameters
    ----------
    toolset : Toolset
        The tools on offer.

    Returns
    -------
    callable
        ``find(name) -> ToolIR | None``.
    """
    memo: dict[str, ToolIR | None] = {}

    def find(name: str) -> ToolIR | None:
        if name not in memo:
            memo[name] = find_tool(name, toolset)
        return memo[name]

    return find


# -- Python calls (python_call and the Python family of _code_calls) ------------------------------
#: The wrapper for tool names that are not dotted identifiers: ``call("API-post-page", x=1)``.
PY_WRAPPER = "call"

#: ``name(`` or ``a.b(`` not preceded by a word character or dot; group 1 is the (dotted) name.
PY_CALL_HEAD = re.compile(r"(?<![\w.])([^\W\d]\w*(?:\s*\.\s*[^\W\d]\w*)*)\s*\(")
#: Code-fence languages whose blocks are read as Python calls ("" is an unlabelled fence).
PY_CODE_LANGS = frozenset({"", "python", "py", "python3", "tool_code", "tool_call"})
_PY_MAX_CALL_LEVEL = 2
_PY_JSON_WORDS = {"true": True, "false": False, "null": None}


def _py_identifier(name: str) -> bool:
    """A Python identifier that reads back unchanged (not a keyword, NFKC-stable)."""
    return (name.isidentifier() and not keyword.iskeyword(name)
            and unicodedata.normalize("NFKC", name) == name)


def py_write_call(call: ToolCall) -> str:
    """One call as a Python call expression: keyword arguments with ``repr`` values, names that
    are not identifiers in a trailing ``**{...}``, a tool name that is not a dotted identifier
    through :data:`PY_WRAPPER`."""
    parts = [f"{k}={v!r}" for k, v in call.arguments.items() if _py_identifier(k)]
    other = {k: v for k, v in call.arguments.items() if not _py_identifier(k)}
    if other:
        parts.append(f"**{other!r}")
    if all(_py_identifier(part) for part in call.name.split(".")):
        return f"{call.name}({', '.join(parts)})"
    return f"{PY_WRAPPER}({', '.join([repr(call.name), *parts])})"


class _JsonNames(ast.NodeTransformer):
    """Read the JSON words ``true``, ``false`` and ``null`` as Python literals."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in _PY_JSON_WORDS:
            return ast.copy_location(ast.Constant(_PY_JSON_WORDS[node.id]), node)
        return node


def _py_literal(node: ast.expr, what: str) -> Any:
    try:
        value = ast.literal_eval(_JsonNames().visit(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ParseError(f"{what} is not a literal value") from None
    return to_json_value(value)


def _py_dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _py_dotted(node.value)
        return f"{base}.{node.attr}" if base is not None else None
    return None


def py_read_call(node: ast.Call, toolset: Toolset) -> ToolCall | None:
    """The tool call a call node writes, or None when it is not a tool call.

    A call is a tool call when its name (or the wrapper's first argument) resolves to a tool,
    or when it passes only keyword arguments. Positional arguments of a known tool bind to its
    parameters in declaration order.

    Raises
    ------
    ParseError
        For a tool call with a non-literal value or too many positional arguments.
    """
    name = _py_dotted(node.func)
    if name is None:
        return None
    args = list(node.args)
    if (name == PY_WRAPPER and args and isinstance(args[0], ast.Constant)
            and isinstance(args[0].value, str)
            and (find_tool(PY_WRAPPER, toolset) is None or find_tool(args[0].value, toolset))):
        name = args[0].value
        args = args[1:]
    tool = find_tool(name, toolset)
    if tool is None:
        if args or not node.keywords:
            return None
        params: tuple = ()
    else:
        params = tool.params
    arguments: dict[str, Any] = {}
    if args:
        if any(isinstance(a, ast.Starred) for a in args) or len(args) > len(params):
            raise ParseError(f"{name}: {len(args)} positional arguments do not fit its "
                             f"{len(params)} parameters")
        for param, arg in zip(params, args):
            arguments[param.name] = _py_literal(arg, f"argument {param.name} of {name}")
    for kw in node.keywords:
        if kw.arg is None:
            spread = _py_literal(kw.value, f"the ** argument of {name}")
            if not isinstance(spread, dict):
                raise ParseError(f"the ** argument of {name} is not a dict")
            arguments.update(spread)
        else:
            arguments[kw.arg] = _py_literal(kw.value, f"argument {kw.arg} of {name}")
    return ToolCall(name, arguments)


def py_parse_source(source: str, mode: str) -> ast.AST:
    """``ast.parse`` with every failure as ``SyntaxError`` (Python's parser caps nesting at
    200 levels itself; values deeper than ``MAX_DEPTH`` are refused by ``to_json_value``)."""
    try:
        with warnings.catch_warnings():  # "invalid escape sequence" in model text is not ours
            warnings.simplefilter("ignore")
            return ast.parse(source, mode=mode)
    except (ValueError, MemoryError, RecursionError) as exc:  # NUL bytes, huge nesting
        raise SyntaxError(str(exc)) from None


def py_module_calls(block: str, toolset: Toolset) -> list[ToolCall] | None:
    """Calls from a block that is valid Python: each top-level call statement (and the call
    on the right of an assignment). None when the block is not valid Python."""
    try:
        tree = py_parse_source(block, "exec")
    except SyntaxError:
        return None
    calls = []
    for stmt in getattr(tree, "body", []):
        value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Call):
            call = py_read_call(value, toolset)
            if call is not None:
                calls.append(call)
    return calls


def py_prose_calls(block: str, toolset: Toolset) -> list[ToolCall]:
    """Calls embedded in prose: each ``name(...)`` whose parentheses balance and parse.

    Raises
    ------
    ParseError
        When a call to a tool of the toolset is there but broken (unbalanced or not Python).
    """
    brackets = match_brackets(block, "(")
    calls: list[ToolCall] = []
    done = 0
    for m in PY_CALL_HEAD.finditer(block):
        paren = m.end() - 1
        # a call nested three calls deep is no tool call; the cap keeps the scan linear
        if m.start() < done or brackets.level(paren) > _PY_MAX_CALL_LEVEL:
            continue
        name = re.sub(r"\s+", "", m.group(1))
        # "get_weather(" is code that can be broken; "weather (today)" may just be prose
        known = m.end(1) == paren and (name == PY_WRAPPER or find_tool(name, toolset) is not None)
        close = brackets.pairs.get(paren)
        if close is None:
            if known:
                raise ParseError(f"the call to {name} never closes its parenthesis")
            continue
        try:
            node = py_parse_source(block[m.start():close + 1], "eval")
        except SyntaxError as exc:
            if known:
                raise ParseError(f"the call to {name} is not valid Python: {exc.msg}") from None
            continue
        body = getattr(node, "body", None)
        if isinstance(body, ast.Call):
            call = py_read_call(body, toolset)
            if call is not None:
                calls.append(call)
                done = close + 1
    return calls


# -- XML (xml_call and xml_generic_call) -----------------------------------------------------
# a raw ``&`` or ``<`` in a value (``a & b``, ``x < 3``) is a common slip; escape it
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


# -- natural-language intents (nl_intent, nl_intent_structured) -----------------------------------
_INTENT_VERBS = (r"(?:use|uses|using|call|calls|calling|invoke|invokes|invoking|run|runs|"
                 r"running|execute|executes|executing)")
_INTENT = re.compile(
    rf"\b{_INTENT_VERBS}\s+(?:the\s+)?(?:(?:tool|function)\s+)?(?:(?:called|named)\s+)?"
    r"[`'\"*]*(?P<name>[^\W\d][\w\-]*(?:\.[^\W\d][\w\-]*)*)[`'\"*]*"
    r"(?:\s+(?:tool|function)\b)?", re.I)
_INTENT_NEGATION = re.compile(r"\b(?:not|never|cannot|can't|can’t|won't|won’t|don't|don’t|"
                              r"doesn't|doesn’t|no need to|without|instead of)\b[^.!?\n,;]*$",
                              re.I)
# a new line may carry the next argument, after an optional bullet ("- ", "* ", "2. ")
_INTENT_BULLET = r"(?:\r?\n[ \t]*(?:[-*•]|[0-9]+[.)])?[ \t]*)?"
_INTENT_CLAUSE = re.compile(r"[ \t]*,?[ \t]*(?:(?:with|using|passing|setting|where)\b"
                            r"(?:[ \t]+(?:the[ \t]+)?(?:following[ \t]+)?"
                            r"(?:arguments|parameters|values|inputs|args)\b)?[ \t]*:?|:)[ \t]*"
                            + _INTENT_BULLET, re.I)
_INTENT_OPS = r"(?:=|:|\bset\s+to\b|\bequal\s+to\b|\bequals\b|\bis\b|\bas\b|\bof\b|\bto\b)"
# any other identifier counts as an argument name only before "=" or "set to"
_INTENT_GENERIC = r"(?:the\s+)?[`'\"*]*{name}[`'\"*]*[ \t]*(?:=|\bset\s+to\b)"
_INTENT_GENERIC_KEY = re.compile(
    _INTENT_GENERIC.format(name=r"(?P<key>[^\W\d][\w\-]*)") + r"[ \t]*", re.I)
_INTENT_SEP = re.compile(r"[ \t]*(?:,[ \t]*(?:and\b[ \t]*)?|;[ \t]*|and\b[ \t]*)?"
                         + _INTENT_BULLET, re.I)
_INTENT_TAIL = re.compile(r"(?:[\s,;]|\b(?:and|then|so|I|I'll|I’ll|will|shall|we|let me)\b)+$",
                          re.I)
_INTENT_SENTENCE_END = re.compile(r"\.(?=\s|$)|\n")
_INTENT_QUOTE_WINDOW = 10_000  # longest stretch searched for a closing quote


def _intent_field_names(params: Sequence[ParamIR], out: dict[str, str]) -> None:
    """Every parameter and nested field name, keyed by its case-folded form."""
    for p in params:
        out.setdefault(p.name.casefold(), p.name)
        t = p.type.items if p.type.kind == "array" and p.type.items is not None else p.type
        if t.kind == "object":
            _intent_field_names(t.fields, out)


def _intent_key_pattern(names: str) -> str:
    """``name OP`` for the given names pattern (optional "the", quotes or emphasis around)."""
    return rf"(?:the\s+)?[`'\"*]*{names}[`'\"*]*(?![\w\-])[ \t]*{_INTENT_OPS}"


@functools.lru_cache(maxsize=4096)
def _intent_patterns(alts: str) -> tuple[re.Pattern[str] | None, re.Pattern[str]]:
    """The key pattern (None without names) and the stop pattern for one alternation of
    argument names; cached, since compiling them takes milliseconds and the same tools come
    back reply after reply (``re``'s own cache holds only 512 patterns)."""
    key = re.compile(_intent_key_pattern(f"(?P<key>{alts})") + r"[ \t]*", re.I) if alts \
        else None
    known_key = _intent_key_pattern(f"(?:{alts})") if alts else None
    generic = _INTENT_GENERIC.format(name=r"[^\W\d][\w\-]*")
    keys = f"{known_key}|{generic}" if known_key else generic
    # where bare text stops: a separator before the next key, or the next intent
    stop = re.compile(rf"(?:[,;]|\band\b)(?=[ \t]*(?:and\b[ \t]*)?(?:{keys}))"
                      rf"|{_INTENT.pattern}", re.I)
    return key, stop


class _IntentFrame:
    """The patterns that read one tool's arguments (built once per tool per reply)."""

    def __init__(self, tool: ToolIR | None) -> None:
        self.tool = tool
        self.known: dict[str, str] = {}
        if tool is not None:
            _intent_field_names(tool.params, self.known)
        alts = "|".join(re.escape(k) for k in sorted(self.known.values(), key=len, reverse=True))
        self.key, self.stop = _intent_patterns(alts)

    def match_key(self, text: str, pos: int) -> tuple[str, int] | None:
        """The argument name at ``pos`` (declared spelling when known) and where its value
        starts, or None."""
        if self.key is not None:
            k = self.key.match(text, pos)
            if k is not None:
                written = k.group("key")
                return self.known.get(written.casefold(), written), k.end()
        k = _INTENT_GENERIC_KEY.match(text, pos)
        return (k.group("key"), k.end()) if k is not None else None


class _IntentReader:
    """Reads the intents of one reply against one toolset."""

    def __init__(self, text: str, toolset: Toolset) -> None:
        self.text = text
        self.toolset = toolset
        self._brackets: Brackets | None = None
        self._sentence_end = -1
        self._frames: dict[str, _IntentFrame] = {}

    def brackets(self) -> Brackets:
        if self._brackets is None:  # only computed when a value starts with a bracket
            self._brackets = match_brackets(self.text, "{[")
        return self._brackets

    def frame(self, name: str) -> _IntentFrame:
        if name not in self._frames:
            self._frames[name] = _IntentFrame(find_tool(name, self.toolset))
        return self._frames[name]

    def calls(self) -> list[ToolCall]:
        out: list[ToolCall] = []
        pos = 0
        text = self.text
        while True:
            m = _INTENT.search(text, pos)
            if m is None:
                return out
            pos = m.end()
            name = m.group("name")
            before = text[max(0, m.start() - 40):m.start()]
            code = text[m.end():m.end() + 40].lstrip().startswith("(")
            if code or _INTENT_NEGATION.search(before):
                continue
            frame = self.frame(name)
            clause = _INTENT_CLAUSE.match(text, pos)
            arguments: dict[str, Any] = {}
            if clause is not None:
                arguments, pos = self.arguments(clause.end(), frame)
            if frame.tool is not None or arguments:
                out.append(ToolCall(name, arguments))

    def arguments(self, pos: int, frame: _IntentFrame) -> tuple[dict[str, Any], int]:
        """Read ``name OP value`` pairs from ``pos``; returns them and where reading stopped."""
        out: dict[str, Any] = {}
        text = self.text
        while True:
            key = frame.match_key(text, pos)
            if key is None:
                return out, pos
            value, end = self.value(key[1], key[0], frame)
            out[key[0]] = value
            sep = _INTENT_SEP.match(text, end)
            nxt = sep.end() if sep is not None else end
            if frame.match_key(text, nxt) is None:
                return out, end
            pos = nxt

    def value(self, pos: int, key: str, frame: _IntentFrame) -> tuple[Any, int]:
        """The value starting at ``pos``, typed for ``key``, and the position after it."""
        text = self.text
        param = frame.tool.param(key) if frame.tool is not None else None
        t = param.type if param is not None else None
        quoted = self.quoted(pos)
        if quoted is not None:
            s, end = quoted
            return (s if t is None or t.kind == "any" else coerce_text(s, t)), end
        if pos < len(text) and text[pos] in "{[":
            # strict JSON first (it stops exactly at the value's end), then matched brackets
            found = json_at(text, pos)
            if found is not None:
                end = found[1]
            else:
                close = self.brackets().pairs.get(pos)
                end = close + 1 if close is not None else -1
            if end > 0:
                return coerce_text(text[pos:end], t), end
        end = self.raw_end(pos, frame)
        raw = text[pos:end].strip()
        if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "`*":
            raw = raw.strip(raw[0])
        return coerce_text(raw, t), end

    def quoted(self, pos: int) -> tuple[str, int] | None:
        """A quoted string at ``pos`` and the position after it, or None."""
        text = self.text
        if pos >= len(text):
            return None
        q = text[pos]
        if q == '"':
            found = json_at(text, pos)
            if found is None:
                close = text.find('"', pos + 1, self.line_end(pos))
                return (text[pos + 1:close], close + 1) if close > 0 else None
            return found if isinstance(found[0], str) else None
        closer = {"'": r"'(?=[\s,.;)]|$)", "“": "”", "‘": "’"}.get(q)
        if closer is None:
            return None
        m = re.compile(closer).search(text, pos + 1, self.line_end(pos))
        return (text[pos + 1:m.start()], m.end()) if m is not None else None

    def line_end(self, pos: int) -> int:
        """The end of the line at ``pos``, looking at most ``_INTENT_QUOTE_WINDOW`` characters
        on."""
        limit = min(len(self.text), pos + _INTENT_QUOTE_WINDOW)
        end = self.text.find("\n", pos, limit)
        return limit if end < 0 else end

    def raw_end(self, pos: int, frame: _IntentFrame) -> int:
        """Where bare text starting at ``pos`` ends (see the module docstring, rule 3)."""
        text = self.text
        if self._sentence_end < pos:  # cached, so a long sentence is searched once
            stop = _INTENT_SENTENCE_END.search(text, pos)
            self._sentence_end = stop.start() if stop is not None else len(text)
        end = self._sentence_end
        stop = frame.stop.search(text, pos, end)
        if stop is None:
            return end
        if stop.group("name") is None:
            return stop.start()
        tail = _INTENT_TAIL.search(text, max(pos, stop.start() - 40), stop.start())
        return tail.start() if tail is not None else stop.start()


def json_text(value: Any) -> str:
    """A value as JSON text, non-ASCII kept (strings quoted, unlike :func:`text_of`)."""
    return json.dumps(value, ensure_ascii=False)


def intent_calls(text: str, toolset: Toolset) -> list[ToolCall]:
    """The calls stated in words in ``text`` (``I will use X with a = 1 and b = "y".``).

    The rules are ``nl_intent``'s (the module docstring of ``toolform.protocols._prose``):
    an intent verb and a tool name, then an optional argument clause of ``name OP value``
    pairs, values typed from the schema. Never raises; no ``<think>`` stripping here.

    Parameters
    ----------
    text : str
        Prose.
    toolset : Toolset
        The tools on offer (names resolved by :func:`find_tool`).

    Returns
    -------
    list of ToolCall
        In text order, names as written.
    """
    return _IntentReader(text, toolset).calls()
