"""Which calls of a reply are shown as examples rather than made (issue 14, point 5).

The rule, applied to each call read from the reply (its span in the reasoning-free text):

* **lead-in**: the sentence that introduces the call names it an illustration. The lead-in
  is read back from the call's start (from the start of its code block when the call sits in
  one), past white space, the fence line and an opening quote or backtick, to the previous
  sentence end, paragraph break, or the end of the previous call, at most
  :data:`LOOK_BACK` characters. It marks an example when it holds one of
  :data:`EXAMPLE_CUES` ("for example", "e.g.", "here's an example", "such as", "would look
  like", "hypothetical", ...), or when its last clause (after the last comma, semicolon,
  "but" or "so") negates the act (:data:`REFUSAL_CUES`: "I can't run", "I won't call",
  "I'm unable to", ...), which is how a refusal quotes the call it will not make;
* **disclaimer**: the first sentence after the call (after its code block, white space and a
  closing quote or backtick, at most :data:`LOOK_AHEAD` characters) says it was not made
  ("I have not run this", "this is just an example", "not executed", ...).

A call's own text is never searched (``john@example.com`` in an argument is no cue), nor
``example.com``-style names in the lead-in.
"""

from __future__ import annotations

import bisect
import re
from typing import Sequence

from ..errors import ParseError
from ._text import contains, fences, may_hold

__all__ = ["EXAMPLE_CUES", "LOOK_AHEAD", "LOOK_BACK", "REFUSAL_CUES", "example_flags"]

#: Characters read back from a call for its lead-in, and forward for a disclaimer.
LOOK_BACK = 200
LOOK_AHEAD = 200

_APOS = "['’]"
#: Words of a lead-in that name what follows an illustration.
EXAMPLE_CUES = re.compile(
    r"\bfor (?:example|instance)\b|\be\.\s?g\.|\bexamples?\b(?![.@]\w)|\bsample\b(?![.@]\w)"
    r"|\bsuch as\b|\bsomething like\b|\b(?:would|might|could) look like\b|\billustrat\w*"
    r"|\bhypothetical\w*", re.I)
#: A negated act in the last clause of a lead-in: a refusal quoting the call.
REFUSAL_CUES = re.compile(
    rf"\b(?:can{_APOS}?t|cannot|can not|won{_APOS}t|will not|shouldn{_APOS}t|should not"
    rf"|must not|mustn{_APOS}t|don{_APOS}t|do not|not (?:going|able|allowed|permitted) to"
    rf"|unable to|refuse to|decline to|am not|I{_APOS}m not)\b", re.I)
#: A sentence after the call saying it was not made.
_DISCLAIMER = re.compile(
    rf"\b(?:have not|haven{_APOS}t|did not|didn{_APOS}t|not) (?:actually |yet |been )*"
    r"(?:run|ran|execute|executed|call|called|sent|invoked|performed|made)\b"
    r"|\b(?:this|that|it|the above) (?:is|was) (?:just |only |merely |purely )?an? "
    r"(?:example|illustration|sample|demonstration)\b|\bfor illustration\b"
    r"|\bhypothetical\w*|\bnot (?:a real|an actual) (?:call|request)\b", re.I)
# a sentence ends at . ! ? before white space (not in "e.g." or "i.e.") or at a blank line
# (written from its first character, so ``re`` skips to the candidates; the lookbehinds
# read back over the character matched: ``e.g.`` ends no sentence)
_BREAK = re.compile(r"[.!?\n](?:(?<=[.!?])(?<!\be\.g.)(?<!\bi\.e.)(?<!\betc.)(?<!\bvs.)(?=\s)"
                    r"|(?<=\n)[ \t]*\n)")
_CLAUSE = re.compile(r"[,;:]|\b(?:but|so|then|and|instead)\b", re.I)
_FENCE_LINE_END = re.compile(r"(?:^|\n)[ \t]*(?:`{3,}|~{3,})[^\n]*\s*$")
_OPENERS = " \t\r\n`'\"“‘>*"
_CLOSERS = " \t\r\n`'\"”’*"


#: Lower-case words one of which every match of each cue pattern holds (in ASCII text).
_EXAMPLE_WORDS = ("example", "instance", "g.", "sample", "such as", "something like",
                  "look like", "illustrat", "hypothetical")
_REFUSAL_WORDS = ("can", "n't", "not", "unable", "refuse", "decline")
_DISCLAIMER_WORDS = ("not", "n't", "example", "illustration", "sample", "demonstration",
                     "hypothetical")


def _lead_in(text: str, start: int, floor: int) -> str:
    """The sentence introducing what starts at ``start`` (see the module docstring)."""
    lo = max(floor, start - LOOK_BACK)
    window = text[lo:start].rstrip(_OPENERS)
    fence = _FENCE_LINE_END.search(window)
    if fence is not None:
        window = window[:fence.start()].rstrip(_OPENERS)
    cut = 0
    for m in _BREAK.finditer(window, 0, max(len(window) - 1, 0)):
        cut = m.end()
    return window[cut:]


def _after(text: str, end: int, ceiling: int) -> str:
    """The first sentence after ``end``, past a closing fence and closing quotes."""
    hi = min(ceiling, end + LOOK_AHEAD)
    window = text[end:hi].lstrip(_CLOSERS)
    if window.startswith(("```", "~~~")):
        newline = window.find("\n")
        window = "" if newline < 0 else window[newline:].lstrip(_CLOSERS)
    m = _BREAK.search(window)
    return window[:m.end()] if m is not None else window


def example_flags(text: str, spans: Sequence[tuple[int, int]]) -> list[str | None]:
    """For each call span of ``text``, the cue that makes it an example, or None.

    Parameters
    ----------
    text : str
        The reply with its reasoning removed.
    spans : sequence of (int, int)
        The calls' spans in ``text``, in any order.

    Returns
    -------
    list of str or None
        Per span, in the given order: the words that mark the call as an example (quoted in
        the issue), or None when it is a call.
    """
    try:
        blocks = [(f.start, f.end) for f in fences(text)] if contains(text, "```") or contains(text, "~~~") \
            else []
    except ParseError:  # too many fences to pair: judge each call by its own sentences
        blocks = []
    # a call in a code block is introduced and followed by what surrounds the block
    anchors = []
    for start, end in spans:
        block = next(((s, e) for s, e in blocks if s <= start < e), None) if blocks else None
        anchors.append((block[0], max(block[1], end)) if block else (start, end))
    ends = sorted(end for _, end in spans)
    starts = sorted(start for start, _ in spans)
    out: list[str | None] = [None] * len(spans)
    for i, (back_from, ahead_from) in enumerate(anchors):
        # the last call end at or before the anchor, the first call start at or after it
        j = bisect.bisect_right(ends, back_from)
        floor = ends[j - 1] if j else 0
        j = bisect.bisect_left(starts, ahead_from)
        ceiling = starts[j] if j < len(starts) else len(text)
        # nothing before the call (or after it) holds no cue: no pattern need look
        lead = _lead_in(text, back_from, floor) if back_from > floor else ""
        cue = EXAMPLE_CUES.search(lead) if lead and may_hold(lead, _EXAMPLE_WORDS) else None
        # the last clause is part of the lead-in: without a refusal word in the lead-in,
        # none is in the clause
        if cue is None and lead and may_hold(lead, _REFUSAL_WORDS):
            clauses = [c for c in _CLAUSE.split(lead) if c.strip()]
            cue = REFUSAL_CUES.search(clauses[-1]) if clauses else None
        if cue is None and ahead_from < ceiling:
            after = _after(text, ahead_from, ceiling)
            cue = _DISCLAIMER.search(after) if may_hold(after, _DISCLAIMER_WORDS) else None
        if cue is not None:
            out[i] = cue.group()
    return out
