"""The natural-language intent protocol: the model says in words which tool and which values.

``I will use get_weather with city = "Paris" and unit = "celsius".`` A schema-guided rule
adapter turns such sentences into calls:

1. An intent is a verb (use, call, invoke, run, execute and their -s/-ing forms) followed by a
   name, optionally as ``the tool X``, ``the X tool``, ``X`` in backticks or quotes. The name
   must resolve to a tool of the toolset (any step of ``resolve_name``), or be followed by an
   argument clause. A negation just before the verb (``I don't need to call X``), and a name
   directly followed by ``(`` (that is code), are not intents.
2. The argument clause starts with ``with`` (or ``using``, ``passing``, ``setting``, ``where``,
   ``:``; ``with the following arguments:`` too) and is a list of ``name OP value`` joined by
   commas, ``and``, semicolons or new lines (a bullet allowed), where OP is ``=``, ``:``,
   ``set to``, ``equal to``, ``equals``, ``is``, ``as``, ``of`` or ``to``.
   Names are matched against the tool's parameter and (nested) field names, case-insensitively,
   and written with the declared spelling; any other identifier followed by ``=`` or
   ``set to`` is kept as written (the grader then rejects it).
3. A value is a quoted string (JSON escapes understood), a JSON object or array, or bare text
   up to the next ``, name OP``, the end of the sentence (a period and a space), the line, or
   the next intent. Values are text typed from the schema (``coerce_text``); a quoted value
   stays a string when the schema gives no type.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict
from typing import Any, Sequence

from ..ir import ParamIR, ToolCall, ToolIR, Toolset
from ._brackets import Brackets, match_brackets
from ._calls import ParsedCall
from ._json import ABSTENTION
from ._limits import MAX_CANDIDATES, Budget, check_calls
from ._loose_json import json_at, json_text
from ._names import find_tool
from ._registry import Protocol, register_protocol
from ._text import lowered, may_hold
from ._values import typed_text

__all__ = ["NlIntent", "intent_calls"]


# -- the intent reader (also used by nl_intent_structured) -------------------------------------
_INTENT_VERBS = (r"(?:use|uses|using|call|calls|calling|invoke|invokes|invoking|run|runs|"
                 r"running|execute|executes|executing)")
_INTENT = re.compile(
    rf"\b{_INTENT_VERBS}\s+(?:the\s+)?(?:(?:tool|function)\s+)?(?:(?:called|named)\s+)?"
    r"[`'\"*]*(?P<name>[^\W\d][\w\-]*(?:\.[^\W\d][\w\-]*)*)[`'\"*]*"
    r"(?:\s+(?:tool|function)\b)?", re.I)
#: Each intent verb followed by white space, as the lower-cased text holds it: one pattern
#: per stem, so that each starts with a literal (found at memory speed) and a stem that is
#: not followed by a verb's ending and a space ("tool_call_begin") is no candidate.
_INTENT_STEMS = tuple(re.compile(p) for p in (r"us(?:e|es|ing)\s", r"call(?:s|ing)?\s",
                                              r"invok(?:e|es|ing)\s", r"run(?:s|ning)?\s",
                                              r"execut(?:e|es|ing)\s"))
_INTENT_NEGATION = re.compile(r"\b(?:not|never|cannot|can't|can’t|won't|won’t|don't|don’t|"
                              r"doesn't|doesn’t|no need to|without|instead of)\b[^.!?\n,;]*$",
                              re.I)
#: Lower-case words one of which every :data:`_INTENT_NEGATION` match holds (in ASCII text).
_NEGATION_WORDS = ("not", "never", "n't", "no need", "without", "instead")
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


_INTENT_GENERIC_ANY = _INTENT_GENERIC.format(name=r"[^\W\d][\w\-]*")
# A declared name of word characters, dots and dashes is matched as any such run followed by
# the operator, then looked up: the alternation of the tool's names would match the same text
# (a shorter name followed by one of these characters fails its lookahead or its operator),
# and one pattern for every tool saves compiling two per tool, which costs milliseconds.
_INTENT_NAME_CHARS = re.compile(r"[\w\-.]+")
_INTENT_ANY_KEY = re.compile(_intent_key_pattern(r"(?P<key>[\w\-.]+)") + r"[ \t]*", re.I)
# bare text stops at a separator followed by an argument name, or at the next intent
_INTENT_STOP_CANDIDATE = re.compile(rf"[,;]|\band\b|{_INTENT.pattern}", re.I)
_INTENT_GENERIC_AFTER = re.compile(rf"[ \t]*(?:and\b[ \t]*)?(?:{_INTENT_GENERIC_ANY})", re.I)
_INTENT_SPACE_AND = re.compile(r"[ \t]*(and\b[ \t]*)?", re.I)
_INTENT_NAME_AT = re.compile(_intent_key_pattern(r"(?P<candidate>[\w\-.]+)"), re.I)


@functools.lru_cache(maxsize=4096)
def _intent_patterns(alts: str) -> tuple[re.Pattern[str] | None, re.Pattern[str]]:
    """The key pattern (None without names) and the stop pattern for one alternation of
    argument names that are not all word characters, dots and dashes; cached, since compiling
    them takes milliseconds and the same tools come back reply after reply (``re``'s own cache
    holds only 512 patterns)."""
    key = re.compile(_intent_key_pattern(f"(?P<key>{alts})") + r"[ \t]*", re.I) if alts \
        else None
    known_key = _intent_key_pattern(f"(?:{alts})") if alts else None
    keys = f"{known_key}|{_INTENT_GENERIC_ANY}" if known_key else _INTENT_GENERIC_ANY
    # where bare text stops: a separator before the next key, or the next intent
    stop = re.compile(rf"(?:[,;]|\band\b)(?=[ \t]*(?:and\b[ \t]*)?(?:{keys}))"
                      rf"|{_INTENT.pattern}", re.I)
    return key, stop


class _IntentFrame:
    """How one tool's arguments are read: its field names, and the patterns for names that
    are not word characters, dots and dashes (built once per tool: :func:`_frame_of`)."""

    def __init__(self, tool: ToolIR | None) -> None:
        self.tool = tool
        self.known: dict[str, str] = {}
        if tool is not None:
            _intent_field_names(tool.params, self.known)
        self.key: re.Pattern[str] | None = None
        self.stop: re.Pattern[str] | None = None
        # "the" would be read as the optional article by the shared pattern
        if any(not _INTENT_NAME_CHARS.fullmatch(k) or not k.isascii() or k == "the"
               for k in self.known):
            alts = "|".join(re.escape(k) for k in sorted(self.known.values(), key=len,
                                                         reverse=True))
            self.key, self.stop = _intent_patterns(alts)

    def stop_at(self, text: str, pos: int, end: int) -> re.Match[str] | None:
        """The first place in ``text[pos:end]`` where bare text stops (a separator before the
        next argument name, or the next intent), or None."""
        if self.stop is not None:
            return self.stop.search(text, pos, end)
        while True:
            m = _INTENT_STOP_CANDIDATE.search(text, pos, end)
            if m is None or m.group("name") is not None or self._key_follows(text, m.end(), end):
                return m
            pos = m.start() + 1

    def _key_follows(self, text: str, pos: int, end: int) -> bool:
        """Whether an argument name and its operator follow ``pos`` (after spaces and an
        optional "and"), as the stop pattern's lookahead asks: any identifier before "=" or
        "set to", or one of this tool's names before any operator."""
        if _INTENT_GENERIC_AFTER.match(text, pos, end):
            return True
        spaced = _INTENT_SPACE_AND.match(text, pos, end)
        starts = {spaced.start(1), spaced.end()} if spaced.group(1) else {spaced.end()}
        for start in starts:
            k = _INTENT_NAME_AT.match(text, start, end)
            if k is not None and k.group("candidate").casefold() in self.known:
                return True
        return False

    def match_key(self, text: str, pos: int) -> tuple[str, int] | None:
        """The argument name at ``pos`` (declared spelling when known) and where its value
        starts, or None."""
        if self.key is not None:
            k = self.key.match(text, pos)
        else:
            k = _INTENT_ANY_KEY.match(text, pos) if self.known else None
            if k is not None and k.group("key").casefold() not in self.known:
                k = None
        if k is not None:
            written = k.group("key")
            return self.known.get(written.casefold(), written), k.end()
        k = _INTENT_GENERIC_KEY.match(text, pos)
        return (k.group("key"), k.end()) if k is not None else None


_FRAMES: OrderedDict[int, tuple[ToolIR, _IntentFrame]] = OrderedDict()
_FRAMES_LOCK = threading.Lock()
_FRAMES_KEPT = 1024


def _frame_of(tool: ToolIR | None) -> _IntentFrame:
    """``tool``'s :class:`_IntentFrame`, built once per tool object (read-only once built).

    Keyed by identity, as grading keys its validators: a tool need not be hashable, and each
    entry holds its tool, so an id is not reused while the entry lives; the least recently
    used entries go first.
    """
    if tool is None:
        return _IntentFrame(None)
    with _FRAMES_LOCK:
        entry = _FRAMES.get(id(tool))
        if entry is not None and entry[0] is tool:
            _FRAMES.move_to_end(id(tool))
            return entry[1]
    frame = _IntentFrame(tool)
    with _FRAMES_LOCK:
        _FRAMES[id(tool)] = (tool, frame)
        while len(_FRAMES) > _FRAMES_KEPT:
            _FRAMES.popitem(last=False)
    return frame


class _IntentReader:
    """Reads the intents of one reply against one toolset."""

    def __init__(self, text: str, toolset: Toolset) -> None:
        self.text = text
        self.toolset = toolset
        self._brackets: Brackets | None = None
        self._lowered: str | None = None
        self._next: dict[re.Pattern[str], int] = {}
        # a failed candidate costs a microsecond: twice the usual count of them; an
        # intent read costs ten, so a quarter
        self.budget = Budget("words that look like intent verbs", 2 * MAX_CANDIDATES)
        self.intents = Budget("intents", MAX_CANDIDATES // 4)
        self._sentence_end = -1
        self._frames: dict[str, _IntentFrame] = {}

    def next_intent(self, pos: int) -> re.Match[str] | None:
        """The next intent at or after ``pos``: each verb is found by a fast search for its
        stem and ending in the lower-cased text (:data:`_INTENT_STEMS`), then checked with
        :data:`_INTENT` (searching with the case-insensitive pattern itself is tens of
        milliseconds per megabyte)."""
        if self._lowered is None:
            low = lowered(self.text)
            self._lowered = low if len(low) == len(self.text) else ""
            self._next = {stem: -2 for stem in _INTENT_STEMS}
        if not self._lowered:  # lower-casing changed the length: search the slow way
            return _INTENT.search(self.text, pos)
        text, low, nxt = self.text, self._lowered, self._next
        while True:
            best = -1
            for stem, at in nxt.items():
                if 0 <= at < pos or at == -2:  # -2: not looked for yet; -1: none left
                    found = stem.search(low, pos)
                    at = nxt[stem] = found.start() if found is not None else -1
                if at >= 0 and (best < 0 or at < best):
                    best = at
            if best < 0:
                return None
            m = _INTENT.match(text, best)
            if m is not None:
                return m
            self.budget.step()
            pos = best + 1

    def brackets(self) -> Brackets:
        if self._brackets is None:  # only computed when a value starts with a bracket
            self._brackets = match_brackets(self.text, "{[")
        return self._brackets

    def frame(self, name: str) -> _IntentFrame:
        if name not in self._frames:
            self._frames[name] = _frame_of(find_tool(name, self.toolset))
        return self._frames[name]

    def calls(self) -> list[ParsedCall]:
        out: list[ParsedCall] = []
        pos = 0
        text = self.text
        while True:
            m = self.next_intent(pos)
            if m is None:
                return out
            pos = m.end()
            name = m.group("name")
            before = text[max(0, m.start() - 40):m.start()]
            code = text[m.end():m.end() + 40].lstrip().startswith("(")
            self.intents.step()  # an intent that is no call costs its reading too
            if code or (may_hold(before, _NEGATION_WORDS) and _INTENT_NEGATION.search(before)):
                continue
            frame = self.frame(name)
            clause = _INTENT_CLAUSE.match(text, pos)
            arguments: dict[str, Any] = {}
            repairs: list[str] = []
            if clause is not None:
                arguments, pos = self.arguments(clause.end(), frame, repairs)
            if frame.tool is not None or arguments:
                out.append(ParsedCall(name, arguments, (m.start(), max(pos, m.end())),
                                      tuple(repairs)))
                check_calls(len(out))

    def arguments(self, pos: int, frame: _IntentFrame, repairs: list[str]
                  ) -> tuple[dict[str, Any], int]:
        """Read ``name OP value`` pairs from ``pos``; returns them and where reading stopped."""
        out: dict[str, Any] = {}
        text = self.text
        while True:
            key = frame.match_key(text, pos)
            if key is None:
                return out, pos
            value, end = self.value(key[1], key[0], frame, repairs)
            out[key[0]] = value
            sep = _INTENT_SEP.match(text, end)
            nxt = sep.end() if sep is not None else end
            if frame.match_key(text, nxt) is None:
                return out, end
            pos = nxt

    def value(self, pos: int, key: str, frame: _IntentFrame, repairs: list[str]
              ) -> tuple[Any, int]:
        """The value starting at ``pos``, typed for ``key``, and the position after it."""
        text = self.text
        param = frame.tool.param(key) if frame.tool is not None else None
        t = param.type if param is not None else None
        quoted = self.quoted(pos)
        if quoted is not None:
            s, end = quoted
            return (s if t is None or t.kind == "any" else typed_text(s, t, key, repairs)), end
        if pos < len(text) and text[pos] in "{[":
            # strict JSON first (it stops exactly at the value's end), then matched brackets
            found = json_at(text, pos)
            if found is not None:
                end = found[1]
            else:
                close = self.brackets().pairs.get(pos)
                end = close + 1 if close is not None else -1
            if end > 0:
                return typed_text(text[pos:end], t, key, repairs), end
        end = self.raw_end(pos, frame)
        raw = text[pos:end].strip()
        if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "`*":
            raw = raw.strip(raw[0])
        return typed_text(raw, t, key, repairs), end

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
        stop = frame.stop_at(text, pos, end)
        if stop is None:
            return end
        if stop.group("name") is None:
            return stop.start()
        tail = _INTENT_TAIL.search(text, max(pos, stop.start() - 40), stop.start())
        return tail.start() if tail is not None else stop.start()


def intent_calls(text: str, toolset: Toolset) -> list[ParsedCall]:
    """The calls stated in words in ``text`` (``I will use X with a = 1 and b = "y".``).

    The rules are ``nl_intent``'s (the module docstring of ``toolform.protocols._prose``):
    an intent verb and a tool name, then an optional argument clause of ``name OP value``
    pairs, values typed from the schema (a value that fits no member of its type is noted in
    the call's repairs). No ``<think>`` stripping here.

    Parameters
    ----------
    text : str
        Prose.
    toolset : Toolset
        The tools on offer (names resolved by :func:`find_tool`).

    Returns
    -------
    list of ParsedCall
        In text order, names as written, each spanning its sentence from the verb.

    Raises
    ------
    ParseError
        Only at the limits: more than ``MAX_CALLS`` intents, or too many brackets to match
        a bracketed value.
    """
    return _IntentReader(text, toolset).calls()


@register_protocol(
    name="Natural-language intent",
    description=("A sentence per call naming the tool and its argument values in words; a "
                 "rule adapter guided by the schema maps the sentence to a call."),
    supports_parallel=True,
    structured=False,
    text_values=True,
    cannot_carry=("untyped_values", "mistyped_values", "unknown_tools_without_arguments",
                  "non_identifier_names"),
)
class NlIntent(Protocol):
    """``I will use tool_name with arg = "value" and count = 2.``; rules in the module docstring.

    Writing: one sentence per call, string values as JSON strings, other values as JSON.
    Reading raises only at the limits (``MAX_CALLS``): free text has no markers to break.

    ``cannot_carry``: values of undeclared type come back as text (``untyped_values``);
    values of the wrong type for their parameter come back typed (``mistyped_values``); a call
    to a tool outside the toolset with no arguments is not an intent; tool and argument names
    that are not word characters, dots and dashes (``non_identifier_names``).
    """

    instruction = ('To call a tool, say in one sentence which tool you will use and with which '
                   'values, for example: I will use tool_name with param_name = "value" and other_param = 2. '
                   'Write one such sentence per call.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One sentence per call, a plain sentence for none."""
        if not calls:
            return ABSTENTION
        lines = []
        for call in calls:
            parts = [f"{k} = {json_text(v)}" for k, v in call.arguments.items()]
            if not parts:
                lines.append(f"I will use {call.name}.")
                continue
            joined = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
            lines.append(f"I will use {call.name} with {joined}.")
        return "\n".join(lines)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The intents stated in ``text`` as calls."""
        return intent_calls(text, toolset)
