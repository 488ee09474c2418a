"""Tolerant JSON: the values models write, read without evaluating anything.

* :func:`loads_loose` reads one JSON value, strict JSON first, then a small tokenizer that
  accepts single-quoted strings, Python's ``True``/``False``/``None``, trailing commas, bare
  keys and ``//`` comments;
* :func:`json_fragments` finds every outermost JSON object or array in prose;
* :func:`json_at` reads the strict JSON value at one position;
* :func:`check_depth` and :func:`to_json_value` hold decoded values to :data:`MAX_DEPTH`
  and to what JSON can carry; :func:`json_text` writes a value as JSON text.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sys
import threading
from dataclasses import dataclass
from typing import Any, Iterator

from ..errors import ParseError
from ._brackets import NOT_KEPT, match_brackets
from ._limits import MAX_DEPTH

__all__ = ["Fragment", "MAX_LOOSE_TOKENS", "check_depth", "json_at", "json_copy", "json_fragments",
           "json_text", "loads_loose", "to_json_value", "why_not_json"]

_TOKEN = re.compile(r"""
    (?P<ws>\s+|//[^\n]*)
  | (?P<punct>[{}\[\],:])
  | (?P<dq>"[^"\\]*+(?:\\.[^"\\]*+)*+")
  | (?P<sq>'[^'\\]*+(?:\\.[^'\\]*+)*+')
  | (?P<num>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
  | (?P<word>[^\W\d][\w$\-]*)
""", re.X | re.S)

_WORDS = {"true": True, "false": False, "null": None, "True": True, "False": False,
          "None": None}
_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n",
            "r": "\r", "t": "\t", "0": "\0"}


#: Longest digit string read as an integer (Python refuses longer ones by default).
_MAX_INT_DIGITS = sys.get_int_max_str_digits() or 4300
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|(.))", re.S)
#: Most tokens (or backslash escapes) the tolerant reader reads in one value.
MAX_LOOSE_TOKENS = 20_000


def _escape(m: re.Match[str]) -> str:
    if m.group(1) is not None:
        return chr(int(m.group(1), 16))
    e = m.group(2)
    return _ESCAPES.get(e, "\\" + e)


def _unquote(raw: str) -> str:
    """The value of a quoted token (either quote), JSON escapes plus ``\\'``.

    Raises
    ------
    ParseError
        When the string holds more than :data:`MAX_LOOSE_TOKENS` backslash escapes.
    """
    body = raw[1:-1]
    if "\\" not in body:
        return body
    if body.count("\\") > MAX_LOOSE_TOKENS:
        raise ParseError(f"a string holds more than {MAX_LOOSE_TOKENS:,} escapes")
    return _ESCAPE.sub(_escape, body)


class _Loose:
    """Recursive-descent reader of relaxed JSON (depth-capped).

    Tokens are read on demand, so a reply that goes wrong early fails early.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.count = 0
        self.token: tuple[str, str, int] = ("", "", 0)
        self._advance()

    def _advance(self) -> None:
        """Move ``self.token`` to the next token (``("end", "", len)`` at the end)."""
        text = self.text
        while True:
            if self.pos >= len(text):
                self.token = ("end", "", self.pos)
                return
            self.count += 1
            if self.count > MAX_LOOSE_TOKENS:
                raise ParseError(f"more than {MAX_LOOSE_TOKENS:,} tokens for the tolerant JSON "
                                 "reader; not read")
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
    digits = tok[1:] if tok[:1] in "+-" else tok
    integer = digits.isdecimal()  # str methods: no regex pass
    if integer and len(digits) > _MAX_INT_DIGITS:
        raise ParseError(f"unreadable number at offset {pos}: an integer of {len(digits):,} "
                         f"digits, past the {_MAX_INT_DIGITS:,} Python reads")
    try:
        if integer:
            return int(tok)
        value = float(tok)
    except ValueError as exc:
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
        # json.loads(text, parse_constant=_reject_constant), without a decoder built per call
        value = (_STRICT.decode(text) if isinstance(text, str) and not text.startswith("\ufeff")
                 else json.loads(text, parse_constant=_reject_constant))
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
    raise ParseError(f"{name} is not a JSON number")


_STRICT = json.JSONDecoder(parse_constant=_reject_constant)


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


def json_fragments(text: str) -> Iterator[Fragment]:
    """Every outermost JSON object or array in ``text``, decoded tolerantly, in text order.

    A span that does not decode is searched once more inside (two levels at most), so a call
    wrapped in prose braces is still found; spans that never close are returned as errors
    when they hold a ``:`` (without one they cannot be a call). Lazy and memoised: every
    parser of a reply asks for the same text's fragments, each is decoded once, and a reader
    that stops at a broken call never pays for the rest.

    Parameters
    ----------
    text : str
        Reply text, prose allowed around the values.

    Yields
    ------
    Fragment
        Shared between callers: read the values, never change them (:func:`json_copy`
        copies one).

    Raises
    ------
    ParseError
        When the text has too many brackets to match (``MAX_BRACKET_STEPS``).
    """
    return iter(_fragments_of(text))


class _Fragments:
    """The fragments of one text, decoded as they are first asked for."""

    def __init__(self, text: str, level: int) -> None:
        found = match_brackets(text, "{[")
        self.text = text
        self.strict = found.values  # spans the bracket pass already decoded as strict JSON
        self.level = level
        # (start, end, closed) in text order; closed spans decode, unclosed ones are errors
        self.spans = sorted([(s, e, True) for s, e in found.spans]
                            + [(s, e, False) for s, e in found.unclosed
                               if text.find(":", s, e) >= 0])
        self.done: list[list[Fragment]] = []
        self._lock = threading.Lock()  # replies are parsed from several threads at once

    def _decode(self, start: int, end: int, closed: bool) -> list[Fragment]:
        text = self.text
        if not closed:
            return [Fragment(start, end, text[start:end], error="bracket never closed")]
        chunk = text[start:end + 1]
        value = self.strict.get(start, NOT_KEPT)
        if value is not NOT_KEPT:  # what loads_loose would read: the same strict JSON
            return [Fragment(start, end, chunk, value)]
        try:
            return [Fragment(start, end, chunk, loads_loose(chunk))]
        except ParseError as exc:
            good = [f for f in _Fragments(chunk[1:-1], self.level + 1)
                    if not f.error] if self.level < 2 else []
            if good:
                return [Fragment(start + 1 + f.start, start + 1 + f.end, f.text, f.value)
                        for f in good]
            return [Fragment(start, end, chunk, error=str(exc))]

    def __iter__(self) -> Iterator[Fragment]:
        for i, (start, end, closed) in enumerate(self.spans):
            if i >= len(self.done):
                with self._lock:
                    if i >= len(self.done):
                        self.done.append(self._decode(start, end, closed))
            yield from self.done[i]


@functools.lru_cache(maxsize=16)
def _memo_fragments(text: str) -> _Fragments | ParseError:
    try:
        return _Fragments(text, 0)
    except ParseError as exc:
        return exc


def _fragments_of(text: str) -> _Fragments:
    found = _memo_fragments(text)
    if isinstance(found, ParseError):
        raise ParseError(str(found))
    return found


def json_copy(value: Any) -> Any:
    """A fresh copy of a decoded JSON value (dicts and lists copied all the way down)."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


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


def why_not_json(text: str, pos: int = 0) -> str:
    """``": <the decoder's reason>"`` when no JSON value reads at ``pos`` of ``text`` (the
    reason says, for instance, that an integer has more digits than Python reads), else
    ``""``: the tail of an issue naming an unreadable value."""
    try:
        _JSON_DECODER.raw_decode(text, pos)
    except (ValueError, RecursionError) as exc:
        return f": {str(exc)[:160]}"
    return ""


def json_text(value: Any) -> str:
    """A value as JSON text, non-ASCII kept (strings quoted, unlike :func:`text_of`)."""
    return json.dumps(value, ensure_ascii=False)
