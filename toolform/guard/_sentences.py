"""The sentence reader's plumbing: words, sentence spans and gated phrase patterns.

Every text rule reads a field sentence by sentence. :func:`sentence_spans` cuts a text into
sentences that tile it; :func:`words_of` gives its words, which the rules' trigger words are
checked against before any regular expression runs. A rule's phrase patterns are split into
*gated* patterns (``_gate``), each run only on the sentences holding one of its trigger words,
because Python's regex engine has no keyword index; their matches are cached per sentence
(``_sentence_matches``), since catalogues repeat sentences.
"""
from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass
from typing import Iterator, NamedTuple, Sequence

from ._rule import ScanContext

__all__ = ["TriggerTest", "sentence_spans", "trigger_test", "words_of"]

_WORD_RUN = re.compile(r"[^\W_]+")
# In ASCII text the runs of _WORD_RUN are the runs of letters and digits: every other byte
# becomes a space and the text is split (three times faster than the regex).
_ASCII_NOT_ALNUM = bytes(c if chr(c).isalnum() and c < 128 else 32 for c in range(256))


def text_words(lowered: str) -> frozenset[str]:
    """The runs of letters and digits of a lower-cased text (``api_key`` gives api, key);
    :func:`words_of` caches it."""
    if lowered.isascii():
        return frozenset(lowered.encode("ascii").translate(_ASCII_NOT_ALNUM).decode("ascii")
                         .split())
    return frozenset(_WORD_RUN.findall(lowered))


@functools.lru_cache(maxsize=65536)
def words_of(lowered: str) -> frozenset[str]:
    """The runs of letters and digits of a lower-cased text (``api_key`` gives api, key)."""
    return text_words(lowered)


TriggerTest = tuple[frozenset[str], "re.Pattern[str] | None"]


def trigger_test(triggers: Sequence[str]) -> TriggerTest:
    """Compile triggers (see :class:`Rule`) into whole words and one regex of the substrings
    (:func:`literal_pattern`: it is only searched, to know whether one occurs)."""
    subs = [t.rstrip("*") for t in triggers if not t.isalnum()]
    return (frozenset(t for t in triggers if t.isalnum()),
            re.compile(literal_pattern(subs)) if subs else None)


def literal_pattern(literals: Sequence[str]) -> str:
    """A regex matching exactly the (non-empty) strings of ``literals``, factored by common
    prefixes (``\\.(?:aws|env|ssh/)``) with one-character strings in one class (``[#%0-9<]``).

    The regex engine tries the alternatives of a flat alternation one by one at every
    position; factored, one character decides at each position, which makes the search for
    any of twenty literals about twice as fast. It finds a literal wherever the flat
    alternation does, but where two literals start at the same place it may match another
    one of them: use it to know whether (and in which field of a joined text) one occurs.
    """
    tree: dict[str, dict] = {}
    for literal in literals:
        node = tree
        for ch in literal:
            node = node.setdefault(ch, {})
        node[""] = {}  # a literal ends here

    def alternatives(node: dict[str, dict]) -> str:
        ends = [re.escape(ch) for ch in sorted(node) if ch and node[ch].keys() == {""}]
        parts = [re.escape(ch) + alternatives(node[ch])
                 for ch in sorted(node) if ch and node[ch].keys() != {""}]
        if ends:
            parts.insert(0, ends[0] if len(ends) == 1 else f"[{''.join(ends)}]")
        body = "|".join(parts)
        if "" in node:  # a literal ends here and longer ones go on: the rest is optional
            return f"(?:{body})?"
        return f"(?:{body})" if len(parts) > 1 else body

    return alternatives(tree)


_ABBREV = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|no|ca|resp)\.\Z", re.IGNORECASE)
_LIST_MARK = re.compile(r"\s*(?:\d+|[a-zA-Z])\.")
_BOUNDARY = re.compile(r"[.!?]+[\"'”’)\]]*(?:\s+|\Z)|\n\s*")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Split ``text`` into sentence spans that tile it exactly.

    Sentences end at ``.``, ``!`` or ``?`` followed by space (not after ``e.g.``, ``i.e.``,
    ``etc.`` and the like, nor after a list marker such as ``1.``) and at line breaks. Each
    span keeps its trailing whitespace, so removing a span removes its sentence cleanly.

    Returns
    -------
    list of (int, int)
        ``(start, end)`` character offsets, contiguous, covering ``text``.
    """
    return list(_spans(text))


@functools.lru_cache(maxsize=16384)
def _spans(text: str) -> tuple[tuple[int, int], ...]:
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        dot = m.start()
        if text[dot] == "." and (_ABBREV.search(text, max(start, dot - 8), dot + 1)
                                 or _LIST_MARK.fullmatch(text, start, dot + 1)):
            continue
        if m.end() > start:
            spans.append((start, m.end()))
            start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return tuple(spans)


class _Sentences:
    """The sentence around a span, with the split computed on first use."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._spans: list[tuple[int, int]] | None = None
        self._starts: list[int] = []

    def around(self, start: int, end: int) -> tuple[int, int]:
        """``(start, end)`` of the sentence(s) the span ``[start, end)`` touches."""
        if self._spans is None:
            self._spans = list(_spans(self.text)) or [(0, len(self.text))]
            self._starts = [s for s, _ in self._spans]
        first = self._spans[max(bisect.bisect_right(self._starts, start) - 1, 0)]
        last = self._spans[max(bisect.bisect_right(self._starts, max(start, end - 1)) - 1, 0)]
        return first[0], last[1]

    def of(self, start: int, end: int) -> str:
        """The text of :meth:`around`."""
        s, e = self.around(start, end)
        return self.text[s:e]


def _rx(pattern: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    # Every alternative starts at a word start or on punctuation; saying so up front lets the
    # regex engine skip positions inside words, which makes scanning several times faster.
    return re.compile(rf"(?<!\w)(?:{pattern})", flags | re.VERBOSE)


@dataclass(frozen=True)
class _Gated:
    """One pattern of a rule, run only when one of its trigger words is in the text.

    A rule's big alternation is split into such patterns: the regex engine has no keyword
    index, so running the few patterns whose keywords occur is much faster than one pattern
    of every alternative.
    """

    label: str
    regex: re.Pattern[str]
    triggers: tuple[str, ...]
    test: TriggerTest
    also: TriggerTest | None = None


def _gate(label: str, pattern: str, triggers: Sequence[str], flags: int = re.IGNORECASE, *,
          also: Sequence[str] = ()) -> _Gated:
    """A gated pattern. With ``also`` (written like triggers), one of those must occur too:
    every alternative of the pattern needs a trigger and one of ``also``."""
    return _Gated(label, _rx(pattern, flags), tuple(triggers), trigger_test(triggers),
                  trigger_test(also) if also else None)


def _wakes(g: _Gated, lowered: str, words: frozenset[str]) -> bool:
    test, also = g.test, g.also
    if test[0].isdisjoint(words) and (test[1] is None or test[1].search(lowered) is None):
        return False
    return also is None or not also[0].isdisjoint(words) or (
        also[1] is not None and also[1].search(lowered) is not None)


#: How many characters before a sentence its cached pattern matches depend on (the longest
#: look-behind of the phrase patterns is shorter).
_CONTEXT_CHARS = 12


class _Found(NamedTuple):
    """A phrase pattern's match, kept as plain values so that it can be cached per sentence
    and moved to where the sentence sits in a field (the matchers read it like a
    ``re.Match``)."""

    begin: int
    finish: int
    text: str
    groups: tuple[tuple[str, str | None], ...]

    def start(self) -> int:
        return self.begin

    def end(self) -> int:
        return self.finish

    def group(self, name: int | str = 0) -> str | None:
        return self.text if name == 0 else dict(self.groups)[name]  # type: ignore[index]

    def groupdict(self) -> dict[str, str | None]:
        return dict(self.groups)

    def moved(self, by: int) -> _Found:
        return _Found(self.begin + by, self.finish + by, self.text, self.groups)


_GATE_SETS: dict[int, Sequence[_Gated]] = {}  # id of a rule's gate tuple -> the tuple
_UNIONS: dict[int, TriggerTest] = {}  # id of a rule's gate tuple -> the union of its triggers


@functools.lru_cache(maxsize=65536)
def _sentence_matches(gates_id: int, before: str,
                      sentence: str) -> tuple[tuple[_Found, ...], ...]:
    """Per gate of a rule, the matches in one sentence whose trigger words it holds, with
    offsets into the sentence. ``before`` is the text just before it, which look-behinds and
    ``^`` read; catalogues repeat sentences, so this is cached."""
    lowered = sentence.lower()
    words = words_of(lowered)
    gates = _GATE_SETS[gates_id]
    union = _UNIONS[gates_id]
    if union[0].isdisjoint(words) and (union[1] is None or union[1].search(lowered) is None):
        return ((),) * len(gates)  # no trigger word of any pattern in this sentence
    padded = before + sentence
    out = []
    for g in gates:
        if not _wakes(g, lowered, words):
            out.append(())
            continue
        out.append(tuple(_Found(m.start() - len(before), m.end() - len(before), m.group(),
                                tuple(m.groupdict().items()))
                         for m in g.regex.finditer(padded, len(before))))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _pieces(text: str) -> tuple[tuple[int, str, str, str, frozenset[str]], ...]:
    """``(start, the text just before, sentence, the sentence lower-cased, its words)`` for
    each sentence of ``text`` (every rule reads them, so they are cut once, and a rule skips
    the sentences holding none of its trigger words without asking the per-sentence cache)."""
    out = []
    for s, e in _spans(text):
        sentence = text[s:e]
        lowered = sentence.lower()
        out.append((s, text[max(s - _CONTEXT_CHARS, 0):s], sentence, lowered, words_of(lowered)))
    return tuple(out)


def _run(gates: Sequence[_Gated], text: str,
         ctx: ScanContext) -> Iterator[tuple[str, re.Match[str] | _Found]]:
    """``(label, match)`` for every match of every gated pattern woken by ``text``.

    Gated, the patterns run sentence by sentence, and only over the sentences holding their
    trigger words: a phrase pattern describes one sentence, so a match would have to reach
    across a full stop or line break to be lost (the test that triggers hide no match compares
    this against whole-text matching). Ungated, they run over the whole text.
    """
    if not ctx.gated:
        for g in gates:
            for m in g.regex.finditer(text):
                yield g.label, m
        return
    words = ctx.words if ctx.words is not None else words_of(text.lower())
    key = id(gates)
    union = _UNIONS.get(key)
    if union is None:
        union = _UNIONS[key] = trigger_test([t for g in gates for t in g.triggers])
        _GATE_SETS[key] = gates
    if union[0].isdisjoint(words) and (union[1] is None
                                       or union[1].search(text.lower()) is None):
        return
    # the sentences where some pattern matched (most match none); a sentence with no trigger
    # word of any pattern is passed over here, as _sentence_matches would pass it
    found = [(s, per_gate) for s, before, sentence, lowered, words in _pieces(text)
             if (not union[0].isdisjoint(words)
                 or (union[1] is not None and union[1].search(lowered) is not None))
             and any(per_gate := _sentence_matches(key, before, sentence))]
    for i, g in enumerate(gates):
        for s, per_gate in found:
            for m in per_gate[i]:
                yield g.label, m.moved(s) if s else m


def _union(gates: Sequence[_Gated]) -> tuple[str, ...]:
    """Every trigger of the gates, once each, in order (a rule's triggers)."""
    return tuple(dict.fromkeys(t for g in gates for t in g.triggers))
