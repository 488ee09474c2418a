"""A linear-time reader of the Python calls models write most: ``name(key=literal, ...)``.

``ast.parse`` costs 20 to 45 µs on a one-line call, most of what reading a ``python_call``
reply costs. This reader takes the common case in one left-to-right pass of anchored
regular-expression matches and builds the values directly: a dotted ASCII name, then
positional, keyword and ``**`` arguments whose values are Python literals (strings with the
``r``/``u`` prefixes and the common escapes, decimal ints and floats with signs, underscores
and exponents, ``True``/``False``/``None`` and JSON's ``true``/``false``/``null``, and lists,
tuples, dicts and sets of those, nested). Anything else it does not try to understand, and
*declines* (returns None): comments, line continuations, semicolons, indentation, triple-quoted,
bytes and f-strings, octal and ``\\N{}`` escapes, hexadecimal numbers, complex numbers,
identifiers used as values, operators, unhashable keys, deep nesting, and any text holding a NUL,
a carriage return or a lone surrogate. A declined text goes through ``ast.parse`` as before, so
every result is what the ``ast`` reading gives (the property tests compare the two).

What it returns stands in for the ``ast`` nodes the reading of :mod:`._python` takes: each
value is a :class:`PyLiteral` holding what ``ast.literal_eval`` would return for that node.
"""

from __future__ import annotations

import keyword
import re
from typing import Any, NamedTuple

__all__ = ["LiteralCall", "PyLiteral", "read_call_expression", "read_call_statements"]


class PyLiteral:
    """An argument value already read: ``value`` is what ``ast.literal_eval`` gives for it
    (the JSON words read as Python's), before any conversion to JSON."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class LiteralCall(NamedTuple):
    """One call read: the dotted ``name``, the positional ``args`` and the ``keywords``
    (``(name, value)``, name None for a ``**`` argument) in text order, and the ``span`` of
    ``name(...)`` in the text read."""

    name: str
    args: list[PyLiteral]
    keywords: list[tuple[str | None, PyLiteral]]
    span: tuple[int, int]


class _Declined(Exception):
    """The text is not in the subset this reader understands (``ast`` reads it instead)."""


#: Characters that make ``ast.parse`` refuse or translate the text: the reader declines it.
_UNSAFE = re.compile("[\x00\r\ud800-\udfff]")
_SPACE = re.compile(r"[ \t\n]*")
_LINE_SPACE = re.compile(r"[ \t]*")
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
#: A keyword argument's name and its ``=`` (not ``==``), with the space after it.
_KEYWORD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*=(?!=)[ \t\n]*")
#: What ends an item: space, and a comma with the space after it (group 1) if one is there.
_SEPARATOR = re.compile(r"[ \t\n]*(?:(,)[ \t\n]*)?")
#: The commonest argument whole, ``key="text"`` or ``key=12`` and the separator after it, in
#: one match: a string without backslashes, a plain decimal int or float, or a word (groups:
#: key, single- or double-quoted body, int, float, word; an int of at most 31 digits, a float
#: of at most 30 a part). Any other argument goes through the general reading.
_FLAT_ARGUMENT = re.compile(
    r"""([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*=(?!=)[ \t\n]*"""
    r"""(?:'([^'\\\n]*)'|"([^"\\\n]*)"|(-?(?:[1-9][0-9]{0,30}|0))|(-?[0-9]{1,30}\.[0-9]{1,30})"""
    r"""|(True|False|None|true|false|null))[ \t\n]*(?:,[ \t\n]*|(?=\)))""")
_STRING_START = frozenset("'\"")
_PREFIXES = frozenset("rRuU")
_NUMBER_START = frozenset("0123456789+-.")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORDS = {"True": True, "False": False, "None": None,
          "true": True, "false": False, "null": None}
#: A one-line string with at most a one-letter ``r``/``u`` prefix; group 1 the prefix, group 2
#: or 3 the body. No backslash-newline (a continuation) and no line break inside.
_STRING = re.compile(r"""([rRuU]?)(?:'([^'\\\n]*+(?:\\[^\n][^'\\\n]*+)*+)'"""
                     r'''|"([^"\\\n]*+(?:\\[^\n][^"\\\n]*+)*+)")''')
_DIGITS = r"[0-9](?:_?[0-9])*"
#: A decimal int or float as Python writes one, with an optional sign (``-1`` is a unary
#: minus to ``ast``, and ``literal_eval`` gives -1 for it).
_NUMBER = re.compile(rf"[-+]?(?:(?:{_DIGITS})?\.{_DIGITS}|{_DIGITS}\.?)(?:[eE][-+]?{_DIGITS})?")
_INT = re.compile(r"[-+]?(?:[1-9](?:_?[0-9])*|0(?:_?0)*)")
#: What may follow a value: ``1if``, ``1_``, ``1j``, ``None.x`` or ``'a' 'b'`` are declined.
_AFTER_VALUE = frozenset(" \t\n,)]}:")
_ESCAPE = re.compile(r"\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))", re.S)
_SIMPLE_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n",
                   "r": "\r", "t": "\t", "v": "\v"}
#: Deepest nesting of brackets read (``ast`` itself stops at 200 levels; values deeper than
#: ``MAX_DEPTH`` are refused later, by ``to_json_value``, on either path).
_MAX_NESTING = 40
#: Longest number token read (``ast`` refuses an int of over 4,300 digits itself).
_MAX_NUMBER_CHARS = 64


def _escape(m: re.Match[str]) -> str:
    hex_digits = m.group(1) or m.group(2) or m.group(3)
    if hex_digits is not None:
        code = int(hex_digits, 16)
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:  # a SyntaxError, a lone surrogate
            raise _Declined
        return chr(code)
    simple = _SIMPLE_ESCAPES.get(m.group(4))
    if simple is None:  # octal, \N{...}, an unknown escape (kept, with a warning, by Python)
        raise _Declined
    return simple


class _Reader:
    """Recursive descent over one text; every method raises :class:`_Declined` on anything
    outside the subset."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def call(self, pos: int) -> tuple[LiteralCall, int]:
        """The call ``name(...)`` starting exactly at ``pos``, and the position after it."""
        text = self.text
        m = _DOTTED.match(text, pos)
        if m is None or not text.startswith("(", m.end()):
            raise _Declined
        name = m.group()
        if any(keyword.iskeyword(part) for part in name.split(".")):
            raise _Declined
        args: list[PyLiteral] = []
        keywords: list[tuple[str | None, PyLiteral]] = []
        seen: set[str] = set()
        pos = _SPACE.match(text, m.end() + 1).end()
        while not text.startswith(")", pos):
            flat = _FLAT_ARGUMENT.match(text, pos)
            k = flat if flat is not None else _KEYWORD.match(text, pos)
            if k is not None:
                key = k.group(1)
                if keyword.iskeyword(key) or key in seen:  # SyntaxErrors to Python
                    raise _Declined
                seen.add(key)
                if flat is not None:  # the value and its separator read already
                    group = flat.lastindex
                    raw = flat.group(group)
                    value = (raw if group <= 3 else int(raw) if group == 4 else
                             float(raw) if group == 5 else _WORDS[raw])
                    pos = flat.end()
                else:
                    value, pos = self.value(k.end(), 1)
                    pos = self.separator(pos, ")")
                keywords.append((key, PyLiteral(value)))
                continue
            if text.startswith("**", pos):
                value, pos = self.value(_SPACE.match(text, pos + 2).end(), 1)
                keywords.append((None, PyLiteral(value)))
            elif keywords:  # a positional argument after a keyword one
                raise _Declined
            else:
                value, pos = self.value(pos, 1)
                args.append(PyLiteral(value))
            pos = self.separator(pos, ")")
        return LiteralCall(name, args, keywords, (m.start(), pos + 1)), pos + 1

    def separator(self, pos: int, closer: str) -> int:
        """Past the ``,`` after an item (and the space after it), or at ``closer``."""
        m = _SEPARATOR.match(self.text, pos)
        if m.group(1) is not None:
            return m.end()
        if self.text.startswith(closer, m.end()):
            return m.end()
        raise _Declined

    def value(self, pos: int, depth: int) -> tuple[Any, int]:
        """The literal starting exactly at ``pos``, and the position after it."""
        text = self.text
        first = text[pos:pos + 1]
        if first in ("[", "(", "{"):
            if depth > _MAX_NESTING:
                raise _Declined
            value, pos = (self.list(pos + 1, depth) if first == "[" else
                          self.tuple(pos + 1, depth) if first == "(" else
                          self.braces(pos + 1, depth))
            return value, pos
        if first in _STRING_START or first in _PREFIXES:
            m = _STRING.match(text, pos)
            if m is not None:
                body = m.group(2) if m.group(2) is not None else m.group(3)
                if "\\" in body and m.group(1) not in ("r", "R"):
                    body = _ESCAPE.sub(_escape, body)
                return body, self.after(m.end())
        # the match stops one character past the longest number read here, so a long digit run
        # costs a bounded look, not a backtracking pass over all of it
        m = (_NUMBER.match(text, pos, pos + _MAX_NUMBER_CHARS + 1)
             if first in _NUMBER_START else None)
        if m is not None:
            token = m.group()
            if len(token) > _MAX_NUMBER_CHARS:
                raise _Declined
            if "." in token or "e" in token or "E" in token:
                return float(token), self.after(m.end())
            if _INT.fullmatch(token) is None:  # leading zeros: a SyntaxError to Python
                raise _Declined
            return int(token), self.after(m.end())
        m = _WORD.match(text, pos)
        if m is not None and m.group() in _WORDS:
            return _WORDS[m.group()], self.after(m.end())
        raise _Declined

    def after(self, pos: int) -> int:
        """``pos``, once the character there is one that may follow a value."""
        if pos < len(self.text) and self.text[pos] not in _AFTER_VALUE:
            raise _Declined
        return pos

    def list(self, pos: int, depth: int) -> tuple[list[Any], int]:
        out: list[Any] = []
        pos = _SPACE.match(self.text, pos).end()
        while not self.text.startswith("]", pos):
            value, pos = self.value(pos, depth + 1)
            out.append(value)
            pos = self.separator(pos, "]")
        return out, self.after(pos + 1)

    def tuple(self, pos: int, depth: int) -> tuple[Any, int]:
        """A tuple, or the one value a pair of parentheses holds (``(1)`` is 1)."""
        text = self.text
        out: list[Any] = []
        pos = _SPACE.match(text, pos).end()
        comma = False
        while not text.startswith(")", pos):
            value, pos = self.value(pos, depth + 1)
            out.append(value)
            pos = _SPACE.match(text, pos).end()
            comma = text.startswith(",", pos)
            pos = self.separator(pos, ")")
        if len(out) == 1 and not comma:
            return out[0], self.after(pos + 1)
        return tuple(out), self.after(pos + 1)

    def braces(self, pos: int, depth: int) -> tuple[dict[Any, Any] | set[Any], int]:
        """A dict, or a set (``{1, 2}``); ``{}`` is a dict. Unhashable keys are declined
        (``literal_eval`` raises for them)."""
        text = self.text
        pos = _SPACE.match(text, pos).end()
        if text.startswith("}", pos):
            return {}, self.after(pos + 1)
        first, pos = self.value(pos, depth + 1)
        pos = _SPACE.match(text, pos).end()
        try:
            if not text.startswith(":", pos):
                items = {first}
                pos = self.separator(pos, "}")
                while not text.startswith("}", pos):
                    value, pos = self.value(pos, depth + 1)
                    items.add(value)
                    pos = self.separator(pos, "}")
                return items, self.after(pos + 1)
            out = {}
            key = first
            while True:
                value, pos = self.value(_SPACE.match(text, pos + 1).end(), depth + 1)
                out[key] = value
                pos = self.separator(pos, "}")
                if text.startswith("}", pos):
                    return out, self.after(pos + 1)
                key, pos = self.value(pos, depth + 1)
                pos = _SPACE.match(text, pos).end()
                if not text.startswith(":", pos):
                    raise _Declined
        except TypeError:  # an unhashable key or set member
            raise _Declined from None


def read_call_statements(block: str) -> list[LiteralCall] | None:
    """The calls of ``block`` when it is nothing but call statements, one per line, each
    starting its line (blank lines between them allowed), as ``ast.parse(block, "exec")``
    would read them; None when it is anything else or any part is outside the subset (the
    module docstring). Spans are character offsets in ``block``."""
    if _UNSAFE.search(block) is not None:
        return None
    reader = _Reader(block)
    calls: list[LiteralCall] = []
    size = len(block)
    pos = 0
    try:
        while True:
            line_end = _LINE_SPACE.match(block, pos).end()
            if line_end >= size:
                return calls
            if block[line_end] == "\n":  # a blank line
                pos = line_end + 1
                continue
            if line_end != pos:  # an indented statement: an IndentationError to Python
                return None
            call, pos = reader.call(pos)
            calls.append(call)
            pos = _LINE_SPACE.match(block, pos).end()
            if pos < size and block[pos] != "\n":
                return None
    except (_Declined, RecursionError, ValueError, OverflowError):
        return None


def read_call_expression(source: str) -> LiteralCall | None:
    """The call that ``source`` is, whole (as ``ast.parse(source, "eval")`` would read a text
    that starts with the name and ends with the closing parenthesis); None when it is anything
    else or outside the subset."""
    if _UNSAFE.search(source) is not None:
        return None
    try:
        call, end = _Reader(source).call(0)
    except (_Declined, RecursionError, ValueError, OverflowError):
        return None
    return call if end == len(source) else None
