"""Scanning: run the rules over every field of a toolset and report findings.

The guard only reads: it never executes, fetches or evaluates anything it scans, and the one
decoding it does (TS107 looking at a base64 or hex run of at most
:data:`~toolform.guard._rule.MAX_DECODE_CHARS` characters) turns bytes into text to read them.

Text rules read a field with its invisible characters taken out (so ``ig\\u200bnore previous
instructions`` is still read as words), and report offsets into the original text. A rule runs
on a field when its trigger words occur, or, for TS101-TS105, when the general sentence reading
(:func:`~toolform.guard._reading.general_rules`) finds something for it, or, for TS102-TS105 and
TS109, when a sentence in another language carries a payload for it
(:func:`~toolform.guard._foreign.foreign_rules`).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, NamedTuple, Sequence

from ..ir import Toolset, TypeIR
from ._fields import FIELD_KINDS, EnumSelection, FieldText, iter_fields, value_text
from ._collector import collector_paused
from ._concealment import INVISIBLE_CLASS, invisible_spans
from ._confusables import latin_reading
from ._escalation import escalate
from ._learned import long_enough
from ._names import shadowing
from ._own import own_reading, usage_reading
from ._overreach import READERS
from ._phrasing import NAME_TOKEN
from ._foreign import foreign_rules
from ._placement import class_hits, raised, role_hits, value_reading
from ._reading import GENERAL_WORDS, general_rules
from ._rule import Hit, Matcher, Rule, ScanContext, severity_rank
from ._rules import GUARD_RULES, get_rule
from ._sentences import TriggerTest, text_words, trigger_test

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["FINDING_COLUMNS", "Finding", "findings_frame", "scan_text", "scan_toolset"]

_HAS_INVISIBLE = re.compile(f"[{INVISIBLE_CLASS}]").search
_PROSE = frozenset({"tool.title", "tool.description", "param.title", "param.description",
                    "param.default", "param.enum"})
_VALUES = frozenset({"param.default", "param.enum"})

#: Longest excerpt a finding keeps, in characters (longer spans end with "…").
EXCERPT_CHARS = 160

#: The declared columns of :func:`findings_frame`: (name, dtype, unit, meaning).
FINDING_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("rule", "string", "", "rule id, TS101 to TS111"),
    ("name", "string", "", "the rule's short name"),
    ("severity", "string", "", "high, medium or low"),
    ("tool", "string", "", "the tool the field belongs to"),
    ("path", "string", "", "the field, e.g. tools[2].params.notify.description"),
    ("kind", "string", "", "the field's kind (tool.description, param.enum...)"),
    ("start", "int64", "characters", "start offset of the span in the field's text"),
    ("end", "int64", "characters", "end offset (exclusive) of the span"),
    ("excerpt", "string", "", "the span's text, invisible characters shown as \\u escapes"),
    ("detail", "string", "", "why the span matched"),
)


@dataclass(frozen=True)
class Finding:
    """One rule match in one field of one tool.

    Parameters
    ----------
    rule : str
        Rule id (``TS101`` ... ``TS110``).
    name : str
        The rule's short name.
    severity : str
        ``"high"``, ``"medium"`` or ``"low"``.
    tool : str
        The tool the field belongs to.
    path : str
        The field's path, e.g. ``tools[2].params.notify.description`` or ``...enum[1]``.
    kind : str
        The field's kind (``tool.description``, ``param.default``...).
    start, end : int
        Character offsets of the span in the field's text (``end`` exclusive).
    excerpt : str
        The span's text (at most :data:`EXCERPT_CHARS` characters), invisible characters
        written as ``\\uXXXX`` escapes.
    detail : str
        Why it matched.
    """

    rule: str
    name: str
    severity: str
    tool: str
    path: str
    kind: str
    start: int
    end: int
    excerpt: str
    detail: str

    def to_dict(self) -> dict[str, Any]:
        """A plain dict with one key per column of :data:`FINDING_COLUMNS`."""
        return {c[0]: getattr(self, c[0]) for c in FINDING_COLUMNS}


def _excerpt(text: str) -> str:
    shown = text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS - 1] + "…"
    spans = invisible_spans(shown)
    if not spans:
        return shown
    out, last = [], 0
    for s, e in spans:
        out.append(shown[last:s])
        out.append("".join(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}"
                           for c in shown[s:e]))
        last = e
    out.append(shown[last:])
    return "".join(out)


def _merge(hits: Iterable[Hit]) -> list[Hit]:
    """One hit per overlapping run: the union span, the highest severity and its detail."""
    merged: list[Hit] = []
    for h in sorted(hits, key=lambda h: (h.start, -h.end)):
        if merged and h.start < merged[-1].end:
            last = merged[-1]
            best = last if severity_rank(last.severity) <= severity_rank(h.severity) else h
            merged[-1] = Hit(last.start, max(last.end, h.end), best.severity, best.detail)
        else:
            merged.append(h)
    return merged


_TRIGGERS = {r.id: trigger_test(r.triggers) for r in GUARD_RULES if r.triggers}
_NO_NAMES: frozenset[str] = frozenset()
_NO_SEPARATOR = re.compile(r"[^-._]*\Z").match  # a name holding none of "_", "-", "."


def _visible(text: str) -> tuple[str, list[int] | None]:
    """``text`` without its invisible characters, and the map from visible offsets back to
    ``text`` (None when nothing was hidden)."""
    if text.isascii() or not _HAS_INVISIBLE(text):
        return text, None
    hidden = invisible_spans(text)
    if not hidden:
        return text, None
    hidden_at = {i for s, e in hidden for i in range(s, e)}
    keep = [i for i in range(len(text)) if i not in hidden_at]
    return "".join(text[i] for i in keep), keep + [len(text)]


def _hits(rule: Rule, matcher: Matcher, source: str, ctx: ScanContext,
          back: list[int] | None) -> list[tuple[Rule, Hit]]:
    hits = list(matcher(source, ctx))
    if len(hits) > 1:
        hits = _merge(hits)
    if back is not None:
        hits = [_mapped(h, back) for h in hits]
    return [(rule, h) for h in hits]


def _mapped(h: Hit, back: list[int]) -> Hit:
    """``h`` with its visible offsets mapped back into the field's text."""
    return Hit(back[h.start], back[h.end - 1] + 1 if h.end > h.start else back[h.start],
               h.severity, h.detail)


class Plan(NamedTuple):
    """The rules that read one field kind, each with its compiled trigger test; the union of
    their triggers; and the rules that have none (they run on every text)."""

    rules: list[tuple[Rule, TriggerTest | None]]
    union: TriggerTest
    untriggered: tuple[Rule, ...]


def _plan(kind: str, rules: Sequence[Rule]) -> Plan:
    """The rules that read ``kind``, each with its compiled trigger test."""
    chosen = [(r, _TRIGGERS.get(r.id)) for r in rules if kind in r.kinds]
    return Plan(chosen, trigger_test([t for r, _ in chosen for t in r.triggers]),
                tuple(r for r, test in chosen if test is None))


@functools.lru_cache(maxsize=32)
def _plans(rule_ids: tuple[str, ...]) -> dict[str, Plan]:
    """Per field kind, the :func:`_plan` of the rules with these ids, made once per rule set
    and shared by every scan (callers only read it): compiling the trigger tests costs more
    than scanning a small catalogue, and a batch of catalogues is scanned one by one.

    Raises
    ------
    KeyError
        When an id names no rule.
    """
    rules = [get_rule(r) for r in rule_ids]
    return {kind: _plan(kind, rules) for kind, _ in FIELD_KINDS}


def _one_token(text: str) -> bool:
    """A text with no space in it: the general sentence checks read nothing there (see
    :func:`~toolform.guard._reading.general_rules`), so only triggers decide what runs."""
    return " " not in text


#: Enums with at least this many values are screened in bulk (see :func:`_quiet_values`).
BULK_ENUM_VALUES = 256
# The rules that run on every text, whatever its words: which values can wake them is known
# (TS106 and TS112: characters outside ASCII; TS108: a space, or an identifier holding one of
# its cue words; TS111: whitespace of any kind, for it reads seven words or more).
_BULK_UNTRIGGERED = frozenset({"TS106", "TS108", "TS111", "TS112"})
# TS108's cue words, as a value holds them lower-cased (an identifier's words run together:
# "pickme", "useit", "evenif" of evenIf)
_TS108_CUE_WORDS = (
    "pickme", "pickit", "chooseme", "chooseit", "selectme", "selectit", "useme", "useit",
    "this", "every", "each", "always", "never", "must", "should", "you", "your", "ignore",
    "instead", "please", "model", "assistant", "agent", "dont", "tell", "then", "also",
    "override", "password", "token", "secret", "credential", "prompt", "conversation", "bypass",
    "skip", "policy", "mandatory", "required", "disregard", "instruction",
    # seventeenth revision: the user's wish set aside (comment_even_if_user_asked_...)
    "even_if", "even-if", "even+if", "evenif", "regardless", "whatever", "unless", "without")


def _first_letter_alternation(words: Sequence[str]) -> str:
    """A regex matching any of ``words``, its alternatives grouped by their first letter
    (``a(?:lways|lso)|b(?:ypass)|...``): re tries each alternative at every position, so a
    flat list of fifty words costs fifty tries where this costs one per first letter seen
    (half the time over a million-value enum). Longer words first within a group."""
    groups: dict[str, list[str]] = {}
    for w in sorted(words, key=lambda w: (w[0], -len(w))):
        groups.setdefault(w[0], []).append(re.escape(w[1:]))
    return "|".join(f"{re.escape(c)}(?:{'|'.join(rest)})" for c, rest in groups.items())


# markup and a call's brackets, an address or a URL (@, :) and an arrow, then the cue words
_TS108_CUES = re.compile(r"[({<←@:]|=>|" + _first_letter_alternation(_TS108_CUE_WORDS))
# (in lower-cased values; "=>me", "useit", "pickme": TS108's value annotated to be picked)
_WORD_EDGE = r"(?<![^\W_])"


@functools.lru_cache(maxsize=64)
def _wake_regex(words: frozenset[str]) -> re.Pattern[str]:
    """One regex finding any of ``words`` as a whole word."""
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"{_WORD_EDGE}(?:{alternatives})(?![^\W_])")


def _woken_values(plan: Plan, texts: Sequence[str],
                  known: frozenset[str] = _NO_NAMES) -> list[int] | None:
    """Indices, in order, of the values among ``texts`` (one enum's) that a rule of ``plan``
    could flag or that name a tool of ``known``, found for the whole enum at once; the others
    need no reading. None when the plan has a rule this screen does not know.

    A value can only be flagged when it wakes a rule: holds one of its trigger words or
    substrings, or a space (the sentence checks, TS108's and TS111's prose), or a character
    outside ASCII, or one of TS108's cue words; and the catalogue rules read it only when it
    names a tool. Those are looked for with a few regexes over the enum's values joined by
    line breaks (no trigger or name holds a line break, and words end at one), and the values
    they touch are scanned one by one as usual.
    """
    if any(r.id not in _BULK_UNTRIGGERED for r in plan.untriggered):
        return None
    joined = "\n".join(texts)
    starts = list(itertools.accumulate((len(t) + 1 for t in texts[:-1]), initial=0))
    lowered = joined.lower()
    woken: set[int] = set()

    def mark(matches: Iterable[re.Match[str]]) -> None:
        for m in matches:
            first = bisect.bisect_right(starts, m.start()) - 1
            last = bisect.bisect_right(starts, max(m.end() - 1, m.start())) - 1
            woken.update(range(first, last + 1))

    mark(_NOT_QUIET.finditer(joined))  # whitespace, or a character outside ASCII
    if joined.count("\n") != len(texts) - 1:  # a line break inside a value, not the joiner
        woken.update(i for i, t in enumerate(texts) if "\n" in t)
    # The words of the values left (ASCII only): runs of letters, which hold every trigger
    # word made of letters; the few with a digit are looked for as they are.
    present = frozenset(lowered.translate(_LETTERS_ONLY).split())
    for rule, test in plan.rules:
        if rule.wakes:
            for rx in rule.wakes:
                if rx.search(lowered):
                    mark(rx.finditer(lowered))
        elif test is not None:
            words, substrings = test
            found = (words & present) | {w for w in words if not w.isalpha() and w in lowered}
            if found:  # only then look for where: one alternation of the words present
                mark(_wake_regex(frozenset(found)).finditer(lowered))
            if substrings is not None and substrings.search(lowered):
                mark(substrings.finditer(lowered))
    if any(r.id == "TS108" for r in plan.untriggered):
        mark(_TS108_CUES.finditer(lowered))
    if known and not known.isdisjoint(NAME_TOKEN.findall(joined)):
        mark(m for m in NAME_TOKEN.finditer(joined) if m.group() in known)
    return sorted(woken)


# whitespace other than the joiner's line break (TS111 counts words split on any), or a
# character outside ASCII (non-ASCII whitespace included)
_NOT_QUIET = re.compile(r"[ \t\r\x0b\x0c\x1c-\x1f]|[^\x00-\x7f]")
# Rules without triggers that read nothing in most texts, with what a text needs for them to
# find anything (checked before calling them; the ungated run still calls them): TS112 reads
# letters outside ASCII, TS111 texts of seven words or more.
_READS: dict[str, Callable[[str], bool]] = {
    "TS111": long_enough,
    "TS112": lambda text: not text.isascii(),
}


def _unwoken_value(text: str, lowered: str) -> bool:
    """Whether :func:`_woken_values` would leave a value holding no rule's trigger unread:
    no whitespace, no line break, no character outside ASCII and none of TS108's cue words
    (``lowered`` is ``text`` lower-cased)."""
    return (_NOT_QUIET.search(text) is None and "\n" not in text
            and _TS108_CUES.search(lowered) is None)


_LETTERS_ONLY = str.maketrans({chr(c): " " for c in range(128) if not chr(c).islower()})


def _text_hits(text: str, kind: str, rules: Sequence[Rule] | Plan, *,
               use_triggers: bool = True) -> list[tuple[Rule, Hit]]:
    """Every (rule, hit) the per-text matchers find in one field's text (offsets into
    ``text``); the catalogue matchers are run separately, per tool.

    ``rules`` may be a plan already made for ``kind`` by :func:`_plan` (a scan makes one per
    kind). ``use_triggers=False`` runs every matcher whatever its triggers say (the test that
    the triggers hide no match uses it).
    """
    plan = rules if isinstance(rules, Plan) else _plan(kind, rules)
    visible, back = _visible(text)
    lowered = visible.lower()
    # not cached: a scan reads each distinct text of a kind once, and a cache entry per text
    # would only keep garbage for the collector to walk
    words = text_words(lowered)
    steps = plan.rules
    # the union of the plan's triggers, tested once: when the text holds none of them, no
    # rule's own trigger test can pass, and those tests are not repeated rule by rule
    union = plan.union
    woken = not use_triggers or not union[0].isdisjoint(words) or (
        union[1] is not None and union[1].search(lowered) is not None)
    if not woken and back is None and _one_token(visible):
        # a value such as an enum member: most wake no rule at all, and an enum can hold a
        # million of them, so the triggers are tested once for all the rules
        if not foreign_rules(visible, words):
            # an enum value the bulk screen would pass over is not read by TS108 either
            skip_ts108 = kind == "param.enum" and _unwoken_value(visible, lowered)
            steps = [(r, None) for r in plan.untriggered
                     if r.id != "TS106" and not (skip_ts108 and r.id == "TS108")]
    ctx: ScanContext | None = None  # made when a matcher first runs (most values run none)
    out: list[tuple[Rule, Hit]] = []
    general: frozenset[str] | None = None
    foreign: frozenset[str] | None = None  # the rules a sentence in another language wakes
    disguised = False  # TS112 found a word in look-alike letters
    for rule, test in steps:
        if use_triggers and test is None:
            reads = _READS.get(rule.id)
            if reads is not None and not reads(visible):
                continue
        elif use_triggers and (not woken or test[0].isdisjoint(words) and (
                test[1] is None or test[1].search(lowered) is None)):
            if foreign is None:
                foreign = foreign_rules(visible, words)
            if rule.id not in foreign:  # not read in another language (see ._foreign)
                if not rule.general:
                    continue
                if general is None:
                    # the word check first: it is cheaper than the cached call
                    general = (frozenset() if GENERAL_WORDS.isdisjoint(words)
                               else general_rules(visible, kind))
                if rule.id not in general:
                    continue
        if ctx is None:
            ctx = ScanContext(kind=kind, known_names=_NO_NAMES, words=words, gated=use_triggers)
        if rule.id == "TS106":
            if back is not None or not use_triggers:  # nothing hidden: nothing to report
                out.extend(_hits(rule, rule.matcher, text, ctx, None))
        else:
            found = _hits(rule, rule.matcher, visible, ctx, back)
            disguised = disguised or (rule.id == "TS112" and bool(found))
            out.extend(found)
    out.extend(_overreach_pairs(visible, kind, plan, back, words))
    if disguised:
        # a sentence written with look-alike letters is read again through its Latin reading
        # (the same length, so the offsets hold)
        reading = latin_reading(text)
        seen = {(rule.id, h.start, h.end) for rule, h in out}
        out.extend((rule, h) for rule, h in _text_hits(reading, kind, plan,
                                                       use_triggers=use_triggers)
                   if rule.id != "TS112" and (rule.id, h.start, h.end) not in seen)
    return out


def _overreach_pairs(visible: str, kind: str, plan: Plan, back: list[int] | None,
                     words: frozenset[str]) -> list[tuple[Rule, Hit]]:
    """The high hits of :data:`~toolform.guard._overreach.READERS` on one field's visible
    text (``words``, its lower-cased words), each under its rule when the plan runs that rule
    (offsets into the field's text)."""
    pairs = [(rule_id, h) for read in READERS.get(kind, ())
             for rule_id, h in read(visible, kind, words)]
    if not pairs:
        return []
    running = {r.id: r for r, _ in plan.rules}
    return [(running[rule_id], h if back is None else _mapped(h, back))
            for rule_id, h in pairs if rule_id in running]


def _catalogue_hits(text: str, ctx: ScanContext,
                    rules: Sequence[Rule]) -> list[tuple[Rule, Hit]]:
    """Every (rule, hit) the catalogue matchers find in one field's text, for one tool."""
    visible, back = _visible(text)
    return [pair for rule in rules
            if rule.catalogue_matcher is not None and ctx.kind in rule.kinds
            for pair in _hits(rule, rule.catalogue_matcher, visible, ctx, back)]


def _finding(rule: Rule, hit: Hit, f: FieldText) -> Finding:
    return Finding(rule=rule.id, name=rule.name, severity=hit.severity, tool=f.tool, path=f.path,
                   kind=f.kind, start=hit.start, end=hit.end,
                   excerpt=_excerpt(f.text[hit.start:hit.end]), detail=hit.detail)


def _order(pairs: list[tuple[Rule, Hit]]) -> list[tuple[Rule, Hit]]:
    return sorted(pairs, key=lambda p: (p[1].start, p[0].id))


def scan_text(text: str, kind: str = "tool.description", *, tool: str = "",
              tool_names: Sequence[str] = (), rules: Sequence[str] | None = None) -> list[Finding]:
    """Scan one loose text as if it sat in a field of the given kind.

    Parameters
    ----------
    text : str
        The text to read.
    kind : str, default "tool.description"
        The field kind it stands for (see ``FIELD_KINDS``): it decides which rules read it.
    tool : str, optional
        The tool it belongs to (names of *other* tools in ``tool_names`` count for TS104).
    tool_names : sequence of str, optional
        The catalogue's tool names.
    rules : sequence of str, optional
        Rule ids to run (default: all ten).

    Returns
    -------
    list of Finding
        By offset, with ``path`` set to ``"<text>"``.

    Raises
    ------
    KeyError
        When ``rules`` names an unknown rule id.
    """
    chosen = [get_rule(r) for r in rules] if rules is not None else GUARD_RULES
    f = FieldText("<text>", kind, tool, text)
    plan = _plans(tuple(r.id for r in chosen)).get(kind)  # a kind of no field: its own plan
    pairs = _text_hits(text, kind, plan if plan is not None else _plan(kind, chosen))
    ctx = ScanContext(tuple(tool_names), tool, kind)
    if ctx.known_names:
        pairs += _catalogue_hits(text, ctx, chosen)
    if pairs and kind in _PROSE and any(r.id == "TS111" for r in chosen):
        pairs = escalate(text, pairs)  # the severity policy (toolform.guard._escalation)
    if pairs and kind in _VALUES:
        pairs = raised(kind, text, pairs)  # never medium in a value (issue 16)
    return [_finding(r, h, f) for r, h in _order(pairs)]


def scan_toolset(toolset: Toolset, *, rules: Sequence[str] | None = None) -> list[Finding]:
    """Run the guard's rules over every field of every tool.

    Parameters
    ----------
    toolset : Toolset
        The tools to read (names, titles, descriptions, and every parameter's name, title,
        description, default and enum values at any depth).
    rules : sequence of str, optional
        Rule ids to run (default: all ten).

    Returns
    -------
    list of Finding
        In field order (tool by tool, as :func:`~toolform.guard._fields.iter_fields` walks
        them), then by offset.

    Raises
    ------
    KeyError
        When ``rules`` names an unknown rule id.

    Notes
    -----
    Identical texts in fields of the same kind are read once per scan (catalogues repeat
    parameter prose such as "Repository owner" many times). The cyclic garbage collector is
    paused during the scan (see :mod:`toolform.guard._collector`).
    """
    with collector_paused():
        return _scan_toolset(toolset, rules)


def _scan_toolset(toolset: Toolset, rules: Sequence[str] | None) -> list[Finding]:
    chosen = tuple(get_rule(r) for r in rules) if rules is not None else GUARD_RULES
    names = tuple(toolset.names)
    shadows: dict[int, list[tuple[str, str]]] = {}
    if any(r.id == "TS110" for r in chosen):
        for i, _j, severity, detail in shadowing(names, [t.description for t in toolset]):
            shadows.setdefault(i, []).append((severity, detail))
    ts110 = get_rule("TS110")
    ts108 = next((r for r in chosen if r.id == "TS108"), None)
    own = _own_labels(toolset)
    own_evidence = own_reading(toolset)  # the catalogue's own objects, hosts and examples
    own_usage = usage_reading(toolset)  # usage prose naming its own tools stays medium
    learned = any(r.id == "TS111" for r in chosen)  # escalation needs TS111's reading
    known = ScanContext(names).known_names  # worked out once, shared by every tool's context
    read_names = any(r.catalogue_matcher is not None for r in chosen) and bool(known)
    # A name can only occur in a text holding one of the separators the names use, unless
    # some name has none (camelCase, digits), in which case every text is tokenised.
    # (the names read once, joined: a catalogue may have thousands of them)
    joined_names = "\n".join(known or ())
    separators = "".join(ch for ch in "-._" if ch in joined_names)
    has_separator = re.compile(f"[{re.escape(separators)}]").search if separators else None
    plain_names = any(_NO_SEPARATOR(n) for n in (known or ()))
    plans = _plans(tuple(r.id for r in chosen))
    # the values of a long enum that no rule can flag are screened in bulk and not listed
    select = _enum_screen(plans["param.enum"], known if read_names else _NO_NAMES)
    # kind -> text -> its (rule, hit) pairs (most have none: one shared empty tuple, not a
    # list kept per text) and whether it mentions a recognisable tool name: each distinct
    # text of a kind is read once, and looked up once per field
    seen: dict[str, dict[str, tuple[Sequence[tuple[Rule, Hit]], bool]]] = {
        kind: {} for kind, _ in FIELD_KINDS}
    findings: list[Finding] = []
    index = -1
    ctx = ScanContext(names, "", "", known)
    # only TS106 reads parameter names, and hidden characters are not ASCII
    for f in iter_fields(toolset, enum_values=select, ascii_param_names=False):
        _, kind, tool, text, _ = f
        if kind == "tool.name" and text.isascii():
            # TS106 and TS110 look for characters outside ASCII in a name
            pairs, mentions = (), False
        else:
            same_kind = seen[kind]
            entry = same_kind.get(text)
            if entry is None:
                mentions = False
                if read_names and kind in _PROSE:
                    probe = _visible(text)[0]
                    mentions = bool(
                        (plain_names or (has_separator is not None and has_separator(probe)))
                        and not known.isdisjoint(NAME_TOKEN.findall(probe)))
                entry = same_kind[text] = (_text_hits(text, kind, plans[kind]) or (), mentions)
            pairs, mentions = entry
        if mentions:
            if ctx.tool != tool or ctx.kind != kind:
                ctx = ScanContext(names, tool, kind, known)
            extra = _catalogue_hits(text, ctx, chosen)
            if extra:
                pairs = _order([*pairs, *extra])
        if kind in _VALUES and ts108 is not None:
            # a bare default read by the parameter it fills, and any value read by what it
            # does there (toolform.guard._placement); a role hit on a span TS108 has already
            # flagged as severely is the same finding
            found = (role_hits(tool, f.path, text, own) if kind == "param.default" else []
                     ) or class_hits(kind, tool, f.path, text)
            roles = [h for h in found
                     if not any(r is ts108 and (p.start, p.end) == (h.start, h.end)
                                and severity_rank(p.severity) <= severity_rank(h.severity)
                                for r, p in pairs)]
            if roles:
                pairs = _order([*pairs, *((ts108, h) for h in roles)])
        if pairs:
            pairs = own_evidence(kind, f.path, text, pairs)
            if learned and kind in _PROSE:
                # the severity policy (toolform.guard._escalation)
                pairs = escalate(text, pairs, settled=own_usage)
            if kind in _VALUES:
                pairs = value_reading(kind, f.path, text, pairs)  # where it sits (issue 16)
            findings.extend(_finding(r, h, f) for r, h in pairs)
        if kind == "tool.name":
            index += 1
            for severity, detail in shadows.get(index, ()):
                findings.append(_finding(ts110, Hit(0, len(text), severity, detail), f))
    return findings


def _own_labels(toolset: Toolset) -> Callable[[str], bool]:
    """Whether the catalogue names a host's label itself, as a whole word of at least three
    characters: in its source, a tool's name, title or description (lower-cased). The text is joined the first time it is asked for, once per
    scan: most catalogues have no default that needs it."""
    joined: list[str] = []

    def own(label: str) -> bool:
        if not joined:
            joined.append("\n".join([toolset.source, *(f"{t.name}\n{t.title or ''}\n"
                                                        f"{t.description or ''}"
                                                        for t in toolset.tools)]).lower())
        # a label of a letter or two ("t" of t.co) or inside a longer word ("mail" of
        # "email") is no evidence that the catalogue names the host
        return len(label) >= 3 and re.search(
            rf"(?<![a-z0-9]){re.escape(label)}(?![a-z0-9])", joined[0]) is not None

    return own


def _enum_screen(plan: Plan, known: frozenset[str]) -> EnumSelection:
    """The enum selection the scan hands :func:`iter_fields`: an enum of at least
    :data:`BULK_ENUM_VALUES` values is screened in bulk when the walk first meets it (see
    :func:`_woken_values`), and only its woken values are listed; shorter enums, and those the
    screen cannot read, are listed whole. Screened while walking, so the toolset is walked
    once."""
    screened: dict[int, list[int] | None] = {}  # by the id of the enum's type

    def select(t: TypeIR) -> list[int] | None:
        if len(t.values) < BULK_ENUM_VALUES:
            return None
        if id(t) not in screened:
            screened[id(t)] = _woken_values(plan, [value_text(v) for v in t.values], known)
        return screened[id(t)]

    return select


def findings_frame(findings: Iterable[Finding]) -> pd.DataFrame:
    """Findings as a DataFrame with the declared columns of :data:`FINDING_COLUMNS`.

    Returns
    -------
    pandas.DataFrame
        One row per finding (an empty frame keeps the columns and dtypes).
    """
    import pandas as pd

    frame = pd.DataFrame([f.to_dict() for f in findings], columns=[c[0] for c in FINDING_COLUMNS])
    return frame.astype({name: dtype for name, dtype, _, _ in FINDING_COLUMNS})
