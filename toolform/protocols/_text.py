"""Reply text: reasoning blocks, code fences, and where a piece of cleaned text came from.

* :func:`strip_think` removes ``<think>…</think>`` reasoning (and says where the kept text
  sits in the reply, :func:`think_spans`, so a call's span can be given in the reply's own
  characters);
* :func:`code_fences` lists the Markdown code blocks of a text (memoised: every parser of a
  reply asks for the same text's fences);
* :class:`LinePattern` finds a pattern at line starts (``^`` under ``re.M``) at the speed of a
  search for the new-line character.

Both are linear in the length of the text.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from dataclasses import dataclass
from typing import Iterator, Sequence

from ..errors import ParseError
from ._brackets import value_end
from ._limits import MAX_CANDIDATES, MAX_TAGS

__all__ = ["Fence", "KeptText", "LinePattern", "code_fences", "contains", "fences", "lowered",
           "may_hold", "strip_think", "think_spans"]


#: Texts shorter than this are searched directly: a substring search of one costs at most
#: about 12 µs (3 µs a kilobyte on a text made of the needle's own letters), and a reply's
#: usual few hundred characters cost less than a cached look-up would.
_SHORT_TEXT = 4_096


def contains(text: str, needle: str) -> bool:
    """``needle in text``; in a long text, memoised and with each of the needle's characters
    looked for first: a substring search takes milliseconds per megabyte on a text made of the
    needle's own letters, while a missing single character is found at memory speed."""
    if len(text) < _SHORT_TEXT:
        return needle in text
    return _contains_long(text, needle)


@functools.lru_cache(maxsize=512)
def _contains_long(text: str, needle: str) -> bool:
    return all(c in text for c in set(needle)) and needle in text


@functools.lru_cache(maxsize=8)
def lowered(text: str) -> str:
    """``text.lower()``, memoised: many parsers of a reply look for a marker in any case."""
    return text.lower()


def may_hold(text: str, words: Sequence[str]) -> bool:
    """Whether ``text`` may hold a match of a case-insensitive pattern every match of which
    holds one of ``words`` (lower case): a search for the words costs far less than such a
    pattern when it starts with ``\\b`` (``re`` then tries it at every position). Text
    outside ASCII is always searched (case-insensitive matching there goes beyond
    ``str.lower``: ``ſ`` matches ``s``)."""
    if not text.isascii():
        return True
    low = text.lower()
    return any(w in low for w in words)


class LinePattern:
    """A regular expression matched only at line starts, as ``^body`` under ``re.M``.

    ``re`` tries a pattern that starts with ``^`` at every position of the text (about 12 ms
    of CPU per megabyte, whatever the text), but finds a pattern that starts with a literal
    character with a fast search for it. So the line starts where ``body`` can match are
    found by searching for ``\\n`` followed by ``body``, and ``body`` is matched at each of
    them: the same matches as ``re.compile("^" + body, re.M)`` (an empty match moves on by
    one line start), in time that grows with the new lines, not the characters.

    Parameters
    ----------
    body : str
        The pattern after ``^`` (it may use ``$``, which matches at line ends).
    flags : int
        ``re`` flags; ``re.M`` is always added.
    """

    def __init__(self, body: str, flags: int = 0) -> None:
        self.pattern = re.compile(body, flags | re.M)
        self._after_newline = re.compile(f"\n(?:{body})", flags | re.M)

    def finditer(self, text: str, pos: int = 0) -> Iterator[re.Match[str]]:
        """The non-overlapping matches at line starts from ``pos`` on, in order."""
        at = pos
        while at <= len(text):
            m = self.pattern.match(text, at) if at == 0 or text[at - 1] == "\n" else None
            if m is None:
                found = self._after_newline.search(text, at)
                if found is None:
                    return
                m = self.pattern.match(text, found.start() + 1)
                if m is None:  # cannot happen: the same body matched there
                    return
            yield m
            at = m.end() if m.end() > m.start() else m.end() + 1

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        """The match at ``pos`` when ``pos`` is a line start, or None."""
        return self.pattern.match(text, pos) if pos == 0 or text[pos - 1] == "\n" else None

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        """The first match at a line start from ``pos`` on, or None."""
        return next(self.finditer(text, pos), None)


_THINK_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.I)
_THINK_CLOSE = re.compile(r"</(think|thinking|reasoning)>", re.I)
_THINK_CLOSE_OF = {name: re.compile(rf"</{name}>", re.I)
                   for name in ("think", "thinking", "reasoning")}


@dataclass(frozen=True)
class KeptText:
    """Text with its reasoning removed, and where each kept piece sits in the original.

    Attributes
    ----------
    text : str
        The cleaned text.
    starts : tuple of int
        Offset in ``text`` where each kept piece begins (ascending, the first is 0).
    origins : tuple of int
        Offset in the original text of the same piece.
    removed : bool
        Whether anything was removed.
    """

    text: str
    starts: tuple[int, ...] = (0,)
    origins: tuple[int, ...] = (0,)
    removed: bool = False

    def origin(self, pos: int) -> int:
        """The offset in the original text of offset ``pos`` of the cleaned text."""
        i = bisect.bisect_right(self.starts, pos) - 1
        return self.origins[i] + pos - self.starts[i]

    def origin_span(self, span: tuple[int, int]) -> tuple[int, int]:
        """A ``(start, end)`` span of the cleaned text in original offsets (the end is mapped
        as the position after the span's last character)."""
        start, end = span
        if len(self.starts) == 1:  # one piece (nothing removed, or only a leading part)
            shift = self.origins[0] - self.starts[0]
            return (start + shift, start + shift) if end <= start else \
                (start + shift, end + shift)
        if end <= start:
            return self.origin(start), self.origin(start)
        return self.origin(start), self.origin(end - 1) + 1


def think_spans(text: str) -> KeptText:
    """Remove reasoning blocks from a reply, keeping track of where the rest came from.

    A closed ``<think>…</think>`` (also ``<thinking>``, ``<reasoning>``) block is removed; a
    closing tag with no opening tag (chat templates that open the block in the prompt) removes
    everything before it; an opening tag that is never closed removes everything after it (the
    reply stopped while reasoning, so a call in there is a draft).

    Parameters
    ----------
    text : str
        The reply.

    Returns
    -------
    KeptText

    Raises
    ------
    ParseError
        When the text holds more than ``MAX_TAGS`` reasoning blocks.
    """
    if "<" not in text:
        return KeptText(text)
    low = lowered(text)
    if not contains(low, "think") and not contains(low, "reasoning"):
        return KeptText(text)
    removed = False
    blocks = 0
    offset = 0
    first_close = _THINK_CLOSE.search(text)
    first_open = _THINK_OPEN.search(text)
    if first_close and (first_open is None or first_close.start() < first_open.start()):
        offset = first_close.end()
        removed = True
    pieces: list[str] = []
    starts: list[int] = []
    origins: list[int] = []
    length = 0
    pos = offset
    while True:
        m = _THINK_OPEN.search(text, pos)
        end = len(text) if m is None else m.start()
        if end > pos or not pieces:
            starts.append(length)
            origins.append(pos)
            pieces.append(text[pos:end])
            length += end - pos
        if m is None:
            break
        removed = True
        blocks += 1
        if blocks > MAX_TAGS:
            raise ParseError(f"the reply holds more than {MAX_TAGS:,} reasoning blocks; not "
                             "read")
        close = _THINK_CLOSE_OF[m.group(1).lower()].search(text, m.end())
        if close is None:
            break
        pos = close.end()
    return KeptText("".join(pieces), tuple(starts), tuple(origins), removed)


def strip_think(text: str) -> tuple[str, bool]:
    """Remove reasoning blocks from a reply (the rules of :func:`think_spans`; a reply with
    too many blocks to read is given back unchanged).

    Parameters
    ----------
    text : str
        The reply.

    Returns
    -------
    tuple of (str, bool)
        The cleaned text, and whether anything was removed.
    """
    try:
        kept = think_spans(text)
    except ParseError:
        return text, False
    return kept.text, kept.removed


_FENCE = LinePattern(r"[ \t]*(`{3,}|~{3,})[ \t]*([\w+\-.]*)[^\n]*$")
_SPACE = re.compile(r"\s*")


@dataclass(frozen=True)
class Fence:
    """One Markdown code block: its language (lower case, "" when none) and where its body
    is (``text[start:end]``); an unclosed final fence runs to the end of the text."""

    lang: str
    start: int
    end: int


def fences(text: str, *, json_bodies: bool = False) -> tuple[Fence, ...]:
    """The Markdown code blocks in ``text``, in order (memoised per text).

    A fence line is three or more backticks or tildes at the start of a line, then an optional
    language word; the block ends at the next line holding only a run of the same character at
    least as long. With ``json_bodies``, a block whose body starts (after white space) with
    ``{`` or ``[`` ends at the first such line after that JSON value, so a fence line inside
    one of its strings does not end it. One pass over the fence lines.

    Returns
    -------
    tuple of Fence

    Raises
    ------
    ParseError
        With more than ``MAX_CANDIDATES`` fence lines, or, with ``json_bodies``, when the text
        has too many brackets to match.
    """
    found = _fences(text, json_bodies)
    if isinstance(found, ParseError):
        raise ParseError(str(found))
    return found


@functools.lru_cache(maxsize=16)
def _fences(text: str, json_bodies: bool) -> tuple[Fence, ...] | ParseError:
    lines = [(m.start(), m.end(), m.group(1), m.group(2))
             for m in itertools.islice(_FENCE.finditer(text), MAX_CANDIDATES + 1)]
    if len(lines) > MAX_CANDIDATES:
        return ParseError(f"the reply holds more than {MAX_CANDIDATES:,} code-fence lines; "
                          "not read")
    out = []
    i = 0
    while i < len(lines):
        _, end, run, lang = lines[i]
        body = min(end + 1, len(text))
        after = body
        if json_bodies:
            first = _SPACE.match(text, body).end()
            if text[first:first + 1] in ("{", "["):
                try:
                    after = value_end(text, first) or body
                except ParseError as exc:
                    return exc
        close = None
        for j in range(i + 1, len(lines)):
            start_j, end_j, run_j, _ = lines[j]
            if start_j < after:
                continue
            line = text[start_j:end_j].strip(" \t\r")
            if run_j[0] == run[0] and len(run_j) >= len(run) and line == run_j:
                close = j
                break
        if close is None:
            out.append(Fence(lang.lower(), body, len(text)))
            break
        out.append(Fence(lang.lower(), body, lines[close][0]))
        i = close + 1
    return tuple(out)


def code_fences(text: str) -> list[tuple[str, str]]:
    """The Markdown code blocks in ``text`` as ``(language, body)`` pairs (see :func:`fences`).

    Returns
    -------
    list of (str, str)
        In order; the language is lower case ("" when none).
    """
    return [(f.lang, text[f.start:f.end]) for f in fences(text)]
