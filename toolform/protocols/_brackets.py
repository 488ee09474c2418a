"""Bracket matching that knows quoted strings, and tag bodies that a quoted string cannot end.

* :func:`match_brackets` pairs ``{}``, ``[]`` and ``()`` in one pass, skipping quoted strings
  inside brackets, so a ``}`` or ``</tool_call>`` inside a JSON string value never closes
  anything; memoised per text, since every parser of a reply asks for the same text;
* :func:`value_end` is where the bracketed value starting at a position ends;
* :func:`tag_bodies` finds the body of each opening tag, ending at the first closing tag that
  is not inside the JSON value the body starts with.

All of it is linear in the length of the text. A text whose brackets and quoted strings
inside brackets number more than :data:`MAX_BRACKET_STEPS` is refused
(:class:`~toolform.errors.ParseError`): no tool call has that many, and the pass is Python
work per bracket.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import ParseError
from ._limits import MAX_DEPTH, MAX_TAGS

__all__ = ["Brackets", "MAX_BRACKET_STEPS", "inner_brackets", "match_brackets", "tag_bodies",
           "value_end"]

#: Most brackets plus quoted strings inside brackets that one text may hold.
MAX_BRACKET_STEPS = 4_096

_PAIRS = {"}": "{", "]": "[", ")": "("}
@dataclass(eq=False)  # built for every text matched; frozen fields cost more to set
class Brackets:
    """What :func:`match_brackets` found.

    Attributes
    ----------
    pairs : dict of int to int
        Position of each matched opening bracket to the position of its closing bracket.
    depths : dict of int to int
        Position of each matched opening bracket to the nesting depth of its span (1 when
        nothing is nested inside; any depth past ``MAX_DEPTH + 1`` is given as
        ``MAX_DEPTH + 2``).
    spans : list of (int, int)
        Outermost matched spans ``(open, close)``; one nested deeper than :data:`MAX_DEPTH`
        is left out.
    unclosed : list of (int, int)
        Outermost brackets that never close: ``(open, end)`` where ``end`` is the position
        of the closing bracket that did not fit, or the text's length.
    values : dict of int to Any
        Position of each outermost span that read as strict JSON (no ``NaN`` or
        ``Infinity``) to its decoded value, shared: read it, never change it (the JSON
        fragments reuse it instead of decoding the same characters again).
    """

    pairs: dict[int, int] = field(default_factory=dict)
    depths: dict[int, int] = field(default_factory=dict)
    spans: list[tuple[int, int]] = field(default_factory=list)
    unclosed: list[tuple[int, int]] = field(default_factory=list)
    values: dict[int, Any] = field(default_factory=dict)
    _levels: dict[int, int] = field(default_factory=dict)
    # runs of opening brackets pushed at once: (first position, count, level of the first)
    _runs: list[tuple[int, int, int]] = field(default_factory=list)

    def level(self, pos: int) -> int:
        """How many brackets enclose the opening bracket at ``pos`` (0 when none, or when no
        opening bracket is there)."""
        found = self._levels.get(pos)
        if found is not None:
            return found
        i = bisect.bisect_right(self._runs, (pos, float("inf"), 0)) - 1
        if i >= 0:
            first, count, base = self._runs[i]
            if pos < first + count:
                return base + pos - first
        return 0


def _first_of(text: str, chars: str, pos: int, at: dict[str, int]) -> int:
    """The first position at or after ``pos`` holding one of ``chars`` (``at`` caches each
    character's next position, found again only once ``pos`` passes it), or -1."""
    best = -1
    for c in chars:
        p = at.get(c, -2)
        if p == -2 or 0 <= p < pos:
            p = at[c] = text.find(c, pos)
        if p >= 0 and (best < 0 or p < best):
            best = p
    return best


@functools.lru_cache(maxsize=64)
def _any_of(chars: str) -> re.Pattern[str]:
    """A pattern for one of ``chars``: inside brackets, where brackets and quotes are close
    together, one search for the nearest costs less than a ``str.find`` per character."""
    return re.compile(f"[{re.escape(chars)}]")


#: What the decoder below reads ``NaN``, ``Infinity`` and ``-Infinity`` as: a value holding
#: one is not strict JSON to the fragment reader (``loads_loose`` refuses the constants).
_CONSTANT = object()
_JSON = json.JSONDecoder(parse_constant=lambda name: _CONSTANT)
#: ``_strict_json_end``'s value when the JSON read holds a constant or is too deep.
NOT_KEPT = object()


def _strict_json_end(text: str, start: int) -> tuple[int, int, Any]:
    """``(end, depth, value)`` of the strict JSON value starting at ``start`` (depth capped
    at ``MAX_DEPTH + 2``), or ``(0, 0, NOT_KEPT)`` when none reads there; ``value`` is
    :data:`NOT_KEPT` when it holds ``NaN`` or ``Infinity``, or is too deep."""
    try:
        value, end = _JSON.raw_decode(text, start)
    except (ValueError, RecursionError):
        return 0, 0, NOT_KEPT
    if type(value) is not dict and type(value) is not list:
        return end, 0, NOT_KEPT if value is _CONSTANT else value
    depth = 0
    kept = value
    todo = [(value, 1)]  # containers only: the decoder gives dict, list or scalars
    while todo:  # iterative, and it stops as soon as the value is too deep
        v, d = todo.pop()
        if d > depth:
            depth = d
            if depth > MAX_DEPTH + 1:
                return end, MAX_DEPTH + 2, NOT_KEPT
        for x in v.values() if type(v) is dict else v:
            if type(x) is dict or type(x) is list:
                todo.append((x, d + 1))
            elif x is _CONSTANT:
                kept = NOT_KEPT
    return end, depth, kept


# a quoted string from its opening quote; the group is None when it never closes (a
# double-quoted string may span lines, a single-quoted one ends at an unescaped line break).
# Neither can backtrack.
_DQ = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(")?', re.S)
_SQ = re.compile(r"'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+(')?", re.S)


@functools.lru_cache(maxsize=16)
def _closers(opens: str) -> tuple[str, re.Pattern[str]]:
    """The closing brackets of ``opens``, and a pattern for a run of opening ones."""
    return "".join(c for c, o in _PAIRS.items() if o in opens), re.compile(
        f"[{re.escape(opens)}]+")


def _match(text: str, opens: str, *, json_first: bool = True) -> Brackets:
    closes, run = _closers(opens)
    run_of = run.match
    found = Brackets({}, {}, [], [], {}, {}, [])
    pairs, depths, levels, runs = found.pairs, found.depths, found._levels, found._runs
    spans, unclosed, values = found.spans, found.unclosed, found.values
    deep = MAX_DEPTH + 2  # the depth given to any bracket too deep to be read
    # the stack holds runs of opening brackets pushed at once, as [first position, count,
    # kept]; ``sub`` holds, for the innermost ``kept`` brackets of each run, the depth of what
    # the bracket holds so far. A bracket further out in a run holds more than MAX_DEPTH
    # brackets of that run by the time it closes, so its depth need not be tracked.
    stack: list[list[int]] = []
    sub: list[int] = []
    height = 0  # brackets open
    at: dict[str, int] = {}
    # a double-quoted string that never closes means no later one can (whether a quote is
    # escaped depends only on the backslashes before it), so double quotes are then ordinary
    # characters; a single-quoted one likewise up to the line break it ran to
    dq, sq_from = True, 0
    inside = opens + closes + "\"'"
    json_first = json_first and ("{" in opens or "[" in opens)
    steps = 0
    pos = 0
    while True:
        if not height:
            start = _first_of(text, opens, pos, at)
        else:
            if sq_from and pos >= sq_from:  # past the stretch where single quotes cannot close
                sq_from = 0
            chars = inside if dq and not sq_from else inside.replace(
                '"' if not dq else "\0", "").replace("'" if sq_from else "\0", "")
            found_char = _any_of(chars).search(text, pos)
            start = found_char.start() if found_char is not None else -1
            if sq_from and (start < 0 or start >= sq_from):
                pos = sq_from
                continue
        if start < 0:
            break
        steps += 1
        if steps > MAX_BRACKET_STEPS:
            raise ParseError(f"the text holds more than {MAX_BRACKET_STEPS:,} brackets and "
                             "quoted strings inside brackets; not read")
        first = text[start]
        if not height and first in "{[" and json_first:
            # a value that reads as strict JSON is skipped by the C decoder: only its
            # outermost pair is recorded (no JSON value holds a parenthesis outside strings)
            end, d, value = _strict_json_end(text, start)
            if end:
                pairs[start] = end - 1
                depths[start] = d
                levels[start] = 0
                if d <= MAX_DEPTH:
                    spans.append((start, end - 1))
                    if value is not NOT_KEPT:
                        values[start] = value
                pos = end
                continue
        if first in opens:
            pos = run_of(text, start).end()
            n = pos - start
            if n == 1:
                levels[start] = height
            else:
                runs.append((start, n, height))
            kept = min(n, deep)
            stack.append([start, n, kept])
            sub.extend([1] * kept)
            height += n
        elif first in closes:
            pos = start + 1
            run = stack[-1]
            o = run[0] + run[1] - 1
            if text[o] != _PAIRS[first]:
                unclosed.append((stack[0][0], start))
                stack.clear()
                sub.clear()
                height = 0
                continue
            if run[2]:
                d = sub.pop()
                run[2] -= 1
            else:
                d = deep
            run[1] -= 1
            if not run[1]:
                stack.pop()
            height -= 1
            pairs[o] = start
            depths[o] = d
            if height:
                if stack[-1][2] and sub[-1] <= d:
                    sub[-1] = d + 1
            elif d <= MAX_DEPTH:
                spans.append((o, start))
        elif first == '"':
            m = _DQ.match(text, start)
            if m.group(1) is None:  # never closes: an ordinary character from now on
                dq, pos = False, start + 1
            else:  # a quoted string is skipped whole
                pos = m.end()
        else:
            m = _SQ.match(text, start)
            if m.group(1) is None:  # never closes before its line break
                sq_from, pos = m.end(), start + 1
            else:
                pos = m.end()
    if stack:
        unclosed.append((stack[0][0], len(text)))
    return found


@functools.lru_cache(maxsize=4)
def _memo(text: str, opens: str) -> Brackets | ParseError:
    try:
        return _match(text, opens)
    except ParseError as exc:  # remembered too, so every parser is refused at once
        return exc


def match_brackets(text: str, opens: str = "{[") -> Brackets:
    """Match brackets in one pass, skipping quoted strings inside brackets (memoised).

    Quotes only open a string inside a bracket, so apostrophes in prose do no harm. A
    double-quoted string may span lines; a single-quoted one ends at the line's end. A quote
    that never closes is read as an ordinary character. A closing bracket that does not fit
    the innermost open one abandons every open bracket. The work is linear in the text:
    characters outside brackets are found with ``str.find``, inside brackets with one search
    for any bracket or quote, a string is skipped by one regular-expression
    match that cannot backtrack, a run of opening brackets is one step, an outermost value
    that reads as strict JSON is one step (the C decoder reads it; only its outermost pair is
    recorded, and its depth), and only brackets and strings inside brackets cost a step of
    Python.

    Parameters
    ----------
    text : str
        The text to scan.
    opens : str
        The opening brackets to track (any of ``{[(``).

    Returns
    -------
    Brackets
        Shared between callers (the result is memoised per text): read it, never change it.

    Raises
    ------
    ParseError
        When the text holds more than :data:`MAX_BRACKET_STEPS` brackets and strings inside
        brackets.
    """
    found = _memo(text, opens)
    if isinstance(found, ParseError):
        raise ParseError(str(found))
    return found


def inner_brackets(value: str) -> Brackets:
    """Every pair of ``{}`` and ``[]`` in one value's text, the outermost JSON value read
    bracket by bracket too (:func:`match_brackets` records only its outermost pair); for a
    short value, such as a list of calls, not memoised.

    Raises
    ------
    ParseError
        As for :func:`match_brackets`.
    """
    return _match(value, "{[", json_first=False)


def value_end(text: str, pos: int) -> int | None:
    """The position after the ``{…}`` or ``[…]`` value that starts at ``pos``, or None when
    none starts there or it never closes (quoted strings inside are skipped).

    Raises
    ------
    ParseError
        As for :func:`match_brackets`.
    """
    if pos >= len(text) or text[pos] not in "{[":
        return None
    close = match_brackets(text, "{[").pairs.get(pos)
    return None if close is None else close + 1


_FENCE_LINE = re.compile(r"[ \t]*(?:`{3,}|~{3,})[^\n]*\n")
_SPACE = re.compile(r"\s*")


def _regions(text: str) -> tuple[list[int], list[int]]:
    """Starts and ends of the outermost bracketed spans of ``text`` (``{[(``; one that never
    closes runs to where it was abandoned), in order."""
    found = match_brackets(text, "{[(")
    spans = sorted([(o, c + 1) for o, c in found.spans] + list(found.unclosed))
    return [a for a, _ in spans], [b for _, b in spans]


@functools.lru_cache(maxsize=16)
def tag_bodies(text: str, opening: re.Pattern[str], closing: re.Pattern[str], *,
               json_values: bool = False, bracketed: bool = False
               ) -> tuple[tuple[re.Match[str], int, int], ...]:
    """Each opening tag of ``text`` with the span of its body, in one pass over the tags
    (memoised: the vendor-shape scan and the protocol that owns the tag ask the same).

    A body ends at the first closing tag after its opening tag; an unclosed tag (a stop
    sequence ate the closing tag) runs to the next opening tag or the end of the text. With
    ``json_values``, a body that starts (after white space and an optional code-fence line)
    with ``{`` or ``[`` ends at the first closing tag after that value, so a closing tag (or
    an opening one) inside one of its strings does not end it. With ``bracketed``, no tag
    inside a bracketed span that opens in the body counts (a ``<|eom_id|>`` inside the
    string argument of a Python call, say).

    Parameters
    ----------
    text : str
        The reply.
    opening, closing : re.Pattern
        The opening and closing tag patterns.
    json_values : bool
        Skip the JSON value a body starts with before looking for its end.
    bracketed : bool
        Skip every bracketed span inside the body.

    Returns
    -------
    tuple of (re.Match, int, int)
        ``(opening match, body start, body end)`` per opening tag, in text order.

    Raises
    ------
    ParseError
        With more than ``MAX_TAGS`` opening tags, or as for :func:`match_brackets` (only with
        ``json_values`` or ``bracketed``).
    """
    opens = list(itertools.islice(opening.finditer(text), MAX_TAGS + 1))
    if not opens:
        return ()
    if len(opens) > MAX_TAGS:
        raise ParseError(f"the reply holds more than {MAX_TAGS:,} {opens[0].group()!r} tags; "
                         "not read")
    open_starts = [m.start() for m in opens]
    closes = [m.start() for m in closing.finditer(text)]
    starts, ends = _regions(text) if bracketed else ([], [])

    def outside(i: int, positions: list[int], after: int, body: int) -> int:
        """The first of ``positions`` at or after ``after`` not inside a bracketed span that
        opens at or after ``body`` (an index into ``positions``)."""
        j = bisect.bisect_left(positions, after, lo=i)
        while j < len(positions) and starts:
            k = bisect.bisect_right(starts, positions[j]) - 1
            if k < 0 or starts[k] < body or positions[j] >= ends[k]:
                break
            j = bisect.bisect_left(positions, ends[k], lo=j + 1)
        return j

    out = []
    i = 0
    while i < len(opens):
        m = opens[i]
        start = after = m.end()
        if json_values:
            j = _SPACE.match(text, start).end()
            fence = _FENCE_LINE.match(text, j)
            if fence is not None:
                j = _SPACE.match(text, fence.end()).end()
            end_of_value = value_end(text, j)
            if end_of_value is not None:
                after = end_of_value
        nxt = outside(i + 1, open_starts, after, start)
        end = open_starts[nxt] if nxt < len(opens) else len(text)
        c = outside(0, closes, after, start)
        if c < len(closes) and closes[c] < end:
            end = closes[c]
        out.append((m, start, end))
        # an opening tag inside the body (inside its JSON value) starts nothing
        i = max(nxt, bisect.bisect_left(open_starts, end, lo=i + 1))
    return tuple(out)
