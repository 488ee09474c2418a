"""Vendor shapes: the tool-call markup real servers and chat templates emit (issue 14, point 4).

A reply a model writes in its own vendor's markup instead of the asked protocol is never a
"compliant plain-text answer". :data:`VENDOR_SHAPES` lists the shapes ToolForm recognises, each
as the vendor's own documentation or chat template writes it:

========================  ====================================================  ===============
shape                     as written                                            read by
========================  ====================================================  ===============
``hermes``                ``<tool_call>{"name": …, "arguments": {…}}</tool_call>``  ``tool_call_tags``
``qwen3_coder``           ``<tool_call><function=NAME><parameter=KEY>value</parameter>…</function></tool_call>``  ``function_tags``
``llama_function``        ``<function=NAME>{…}</function>`` (Llama 3.1 custom tools)  ``function_tags``
``llama_python_tag``      ``<|python_tag|>`` then calls, ``;``-joined JSON or Python, ``<|eom_id|>``  ``python_tag``
``mistral``               ``[TOOL_CALLS]NAME[ARGS]{…}`` (several in a row), or ``[TOOL_CALLS] [{…}]``  this module
``gemma``                 ``<|tool_call>call:NAME{key:<|"|>text<|"|>,n:3}<tool_call|>`` (Gemma 4), ``<start_function_call>call:NAME{key:<escape>text<escape>}<end_function_call>`` (FunctionGemma)  this module
``deepseek``              ``<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME`` and a fenced JSON object (V3, R1), or ``NAME<｜tool▁sep｜>{…}`` (V3.1), ``<｜tool▁call▁end｜><｜tool▁calls▁end｜>``  this module
========================  ====================================================  ===============

:func:`vendor_regions` finds where a reply is written in one of them (one linear pass per
marker); ``parse_reply`` uses the regions to say in which shape a call was written, to refuse a
call written in a shape that belongs to another protocol, and to try the region's own reader
first in the lenient parse. :func:`read_vendor` reads the three shapes no registered protocol
reads.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Any

from ..errors import ParseError
from ..ir import Toolset
from ._brackets import tag_bodies, value_end
from ._calls import ParsedCall
from ._json import calls_from_value
from ._limits import MAX_DEPTH, MAX_TAGS
from ._loose_json import loads_loose
from ._text import contains, fences, lowered

__all__ = ["Region", "VENDOR_SHAPES", "VendorShape", "read_vendor", "vendor_regions",
           "vendor_shape"]


@dataclass(frozen=True)
class VendorShape:
    """One vendor's tool-call markup.

    Attributes
    ----------
    id : str
        Its id (``"mistral"``).
    name : str
        How an issue names it.
    protocol_id : str or None
        The registered protocol whose parser reads this shape, or None when
        :func:`read_vendor` does.
    source : str
        Where the shape is documented.
    """

    id: str
    name: str
    protocol_id: str | None
    source: str


#: Every recognised vendor shape, by id.
VENDOR_SHAPES: dict[str, VendorShape] = {s.id: s for s in (
    VendorShape("hermes", "Hermes <tool_call>{…}</tool_call> JSON", "tool_call_tags",
                "NousResearch Hermes-Function-Calling; the Qwen2.5 and Qwen3 chat templates"),
    VendorShape("qwen3_coder", "Qwen3-Coder <function=…><parameter=…> tags", "function_tags",
                "the Qwen3-Coder chat template and qwen3coder_tool_parser.py"),
    VendorShape("llama_function", "Llama 3.1 <function=NAME>{…}</function> call",
                "function_tags", "Meta's Llama 3.1 prompt format (custom tools)"),
    VendorShape("llama_python_tag", "Llama <|python_tag|> call", "python_tag",
                "Meta's Llama 3.1 prompt format (<|python_tag|>, <|eom_id|>)"),
    VendorShape("mistral", "Mistral [TOOL_CALLS] call", None,
                "mistral-common tokenizers v3 ([TOOL_CALLS] [...]) and v11+ "
                "([TOOL_CALLS]name[ARGS]{...})"),
    VendorShape("gemma", "Gemma call:NAME{key:value} call", None,
                "ai.google.dev: Gemma 4 function calling (<|tool_call>, <|\"|>) and "
                "FunctionGemma formatting (<start_function_call>, <escape>)"),
    VendorShape("deepseek", "DeepSeek <｜tool▁calls▁begin｜> call", None,
                "the DeepSeek-V3/R1 chat template and the DeepSeek-V3.1 model card"),
)}


@dataclass(frozen=True)
class Region:
    """Where a reply is written in a vendor shape: ``text[start:end]``."""

    shape: str
    start: int
    end: int


def vendor_shape(shape_id: str) -> VendorShape:
    """The :class:`VendorShape` with that id (a ``KeyError`` for an unknown id)."""
    return VENDOR_SHAPES[shape_id]


# -- finding the regions -----------------------------------------------------------------------
_TOOL_CALL_OPEN = re.compile(r"<tool_call>", re.I)
_TOOL_CALL_CLOSE = re.compile(r"</tool_call>", re.I)
_FUNCTION_OPEN = re.compile(r"<function\s*=\s*[\"']?([^>\"'\n]+?)[\"']?\s*>", re.I)
_FUNCTION_CLOSE = re.compile(r"</function\s*>", re.I)
_PYTHON_TAG = re.compile(r"<\|python_tag\|>")
_PYTHON_END = re.compile(r"<\|(?:eom_id|eot_id|end_of_text)\|>")
_MISTRAL = re.compile(r"\[TOOL_CALLS\]")
_MISTRAL_END = re.compile(r"\[/TOOL_CALLS\]|</s>")
_GEMMA_OPEN = re.compile(r"<\|tool_call>|<start_function_call>")
_GEMMA_CLOSE = re.compile(r"<tool_call\|>|<end_function_call>")
_DS_BAR = "[|｜]"
_DS_SPACE = "[▁_ ]"
_DS_CALLS_BEGIN = re.compile(rf"<{_DS_BAR}tool{_DS_SPACE}calls{_DS_SPACE}begin{_DS_BAR}>")
_DS_CALLS_END = re.compile(rf"<{_DS_BAR}tool{_DS_SPACE}calls{_DS_SPACE}end{_DS_BAR}>")
_DS_CALL_BEGIN = re.compile(rf"<{_DS_BAR}tool{_DS_SPACE}call{_DS_SPACE}begin{_DS_BAR}>")
_DS_CALL_END = re.compile(rf"<{_DS_BAR}tool{_DS_SPACE}call{_DS_SPACE}end{_DS_BAR}>")
_DS_SEP = re.compile(rf"<{_DS_BAR}tool{_DS_SPACE}sep{_DS_BAR}>")
_PARAMETER_TAG = re.compile(r"<parameter\s*=", re.I)


def _with_close(text: str, end: int, closing: re.Pattern[str]) -> int:
    """``end`` moved past the closing tag that starts there, if one does."""
    m = closing.match(text, end)
    return m.end() if m is not None else end


def vendor_regions(text: str) -> list[Region]:
    """Where ``text`` is written in a vendor shape, in text order (regions never overlap).

    A ``<tool_call>`` tag is a ``qwen3_coder`` region when its body holds a ``<function=``
    tag, else ``hermes``; a ``<function=…>`` tag outside one is ``qwen3_coder`` when its body
    holds ``<parameter=`` tags, else ``llama_function``. Bodies end as
    :func:`~toolform.protocols._brackets.tag_bodies` says (a closing tag inside the JSON value
    a body starts with does not end it); a Gemma block ends at the first closing tag outside
    its ``<|"|>`` / ``<escape>`` strings.

    Raises
    ------
    ParseError
        When the text has too many brackets to look inside its JSON values.
    """
    found: list[Region] = []
    if "<" in text or "[" in text:
        low = lowered(text) if "<" in text else ""
        if contains(low, "<tool_call>"):
            for m, start, end in tag_bodies(text, _TOOL_CALL_OPEN, _TOOL_CALL_CLOSE,
                                            json_values=True):
                shape = "qwen3_coder" if _FUNCTION_OPEN.search(text, start, end) else "hermes"
                found.append(Region(shape, m.start(), _with_close(text, end,
                                                                  _TOOL_CALL_CLOSE)))
        if contains(low, "<function"):
            for m, start, end in tag_bodies(text, _FUNCTION_OPEN, _FUNCTION_CLOSE,
                                            json_values=True):
                shape = ("qwen3_coder" if _PARAMETER_TAG.search(text, start, end)
                         else "llama_function")
                found.append(Region(shape, m.start(), _with_close(text, end, _FUNCTION_CLOSE)))
        if contains(text, "<|python_tag|>"):
            for m, start, end in tag_bodies(text, _PYTHON_TAG, _PYTHON_END, bracketed=True):
                found.append(Region("llama_python_tag", m.start(),
                                    _with_close(text, end, _PYTHON_END)))
        if contains(text, "[TOOL_CALLS]"):
            found.extend(Region("mistral", start, end) for start, end in _mistral_spans(text))
        if contains(text, "function_call>") or contains(text, "<|tool_call>"):
            found.extend(Region("gemma", s, e) for s, e in _gemma_spans(text))
        if contains(text, "tool") and ("▁" in text or contains(text, "tool_call_begin") or
                               contains(text, "tool_calls_begin")):
            found.extend(Region("deepseek", s, e) for s, e in _deepseek_spans(text))
    found.sort(key=lambda r: (r.start, -r.end))
    out: list[Region] = []
    for region in found:  # an enclosing region wins (a <function=> inside a <tool_call>)
        if out and region.start < out[-1].end:
            continue
        out.append(region)
    return out


def _deepseek_spans(text: str) -> list[tuple[int, int]]:
    """Each ``<｜tool▁calls▁begin｜>`` block to its end marker (or the end), and each lone
    ``<｜tool▁call▁begin｜>`` outside one."""
    spans = [(m.start(), _with_close(text, end, _DS_CALLS_END))
             for m, _, end in tag_bodies(text, _DS_CALLS_BEGIN, _DS_CALLS_END)]
    starts = [s for s, _ in spans]
    lone = []
    for m, _, end in tag_bodies(text, _DS_CALL_BEGIN, _DS_CALL_END):
        i = bisect.bisect_right(starts, m.start()) - 1
        if i < 0 or m.start() >= spans[i][1]:  # not inside a <｜tool▁calls▁begin｜> block
            lone.append((m.start(), _with_close(text, end, _DS_CALL_END)))
    return spans + lone


# a stretch of a Gemma block holding no marker outside its strings: text without "<", a "<"
# starting no marker, or a whole <|"|> or <escape> string (possessive: a string that never
# closes fails at once, without backtracking)
_GEMMA_STRETCH = re.compile(
    r'(?:[^<]++|<(?!\|"\|>|escape>|tool_call\||end_function_call>|\|tool_call>'
    r'|start_function_call>)|<\|"\|>(?:[^<]++|<(?!\|"\|>))*+<\|"\|>'
    r'|<escape>(?:[^<]++|<(?!escape>))*+<escape>)*+')


def _gemma_spans(text: str) -> list[tuple[int, int]]:
    """Each Gemma tool-call block, from its opening tag past its closing tag: a closing or
    opening tag inside a ``<|"|>`` or ``<escape>`` string does not count (a string that never
    closes is ordinary text); an unclosed block runs to the next opening tag or the end."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while True:
        head = _GEMMA_OPEN.search(text, pos)
        if head is None:
            return spans
        if len(spans) >= MAX_TAGS:
            raise ParseError(f"the reply holds more than {MAX_TAGS:,} Gemma tool-call blocks; "
                             "not read")
        pos = head.end()
        while True:
            pos = _GEMMA_STRETCH.match(text, pos).end()
            delimiter = next((d for d in _GEMMA_STRINGS if text.startswith(d, pos)), None)
            if delimiter is None:
                break
            pos += len(delimiter)  # a string that never closes: its delimiter is text
        close = _GEMMA_CLOSE.match(text, pos)
        end = close.end() if close is not None else pos  # an opening tag or the end
        spans.append((head.start(), end))
        pos = end


# -- Mistral -----------------------------------------------------------------------------------
_MISTRAL_HEAD = re.compile(r"\s*([^\W\d][\w.\-]*)\s*(?:\[CALL_ID\]\s*[\w\-]*\s*)?\[ARGS\]\s*")
_SPACE = re.compile(r"\s*")


def _mistral_items(text: str, pos: int) -> tuple[list[tuple[str | None, int, int]], int]:
    """The payloads after one ``[TOOL_CALLS]`` marker ending at ``pos``: ``(name or None for a
    JSON list or object of calls, value start, value end)``, and where reading stopped.

    Raises
    ------
    ParseError
        When the marker is followed by neither shape, or an argument value never closes.
    """
    items: list[tuple[str | None, int, int]] = []
    start = _SPACE.match(text, pos).end()
    if text[start:start + 1] in ("[", "{"):
        end = value_end(text, start)
        if end is None:
            raise ParseError(f"the [TOOL_CALLS] value at offset {start} never closes")
        return [(None, start, end)], end
    while True:
        head = _MISTRAL_HEAD.match(text, pos)
        if head is None:
            break
        end = value_end(text, head.end())
        if end is None:
            raise ParseError(f"the [ARGS] of {head.group(1)!r} at offset {head.end()} is not "
                             "a JSON value that closes")
        items.append((head.group(1), head.end(), end))
        pos = end
        again = _MISTRAL.match(text, _SPACE.match(text, pos).end())
        if again is not None:
            pos = again.end()
    if not items:
        raise ParseError(f"[TOOL_CALLS] at offset {start} is followed by no call")
    return items, pos


def _mistral_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    pos = 0
    while True:
        m = _MISTRAL.search(text, pos)
        if m is None:
            return spans
        try:
            _, end = _mistral_items(text, m.end())
        except ParseError:
            end = len(text)
        close = _MISTRAL_END.match(text, _SPACE.match(text, end).end())
        end = close.end() if close is not None else end
        spans.append((m.start(), end))
        pos = max(end, m.end())


def _read_mistral(text: str, start: int, end: int, toolset: Toolset) -> list[ParsedCall]:
    calls: list[ParsedCall] = []
    pos = start
    while True:
        m = _MISTRAL.search(text, pos, end)
        if m is None:
            return calls
        items, pos = _mistral_items(text, m.end())
        for name, value_start, value_end_ in items:
            try:
                value = loads_loose(text[value_start:value_end_])
            except ParseError as exc:
                raise ParseError(f"the [TOOL_CALLS] JSON at offset {value_start} does not "
                                 f"read: {exc}") from None
            if name is None:
                calls.extend(ParsedCall(c.name, c.arguments, (value_start, value_end_))
                             for c in calls_from_value(value, toolset, anchored=True))
            elif isinstance(value, dict):
                calls.append(ParsedCall(name, value, (m.start(), value_end_)))
            else:
                raise ParseError(f"the [ARGS] of {name!r} are a {type(value).__name__}, not "
                                 "an object")


# -- Gemma -------------------------------------------------------------------------------------
_GEMMA_CALL = re.compile(r"call\s*:\s*([^\W\d][\w.\-:]*)\s*\{")
_GEMMA_STRINGS = ('<|"|>', "<escape>")
_GEMMA_BARE = re.compile(r"[^,}\]]*")


class _GemmaScan:
    """Gemma's call grammar: bare keys, strings between ``<|"|>`` (or ``<escape>``), JSON
    numbers and words, nested ``{…}`` objects and ``[…]`` arrays; commas between members."""

    def __init__(self, text: str, pos: int, end: int) -> None:
        self.text, self.pos, self.end = text, pos, end

    def _ws(self) -> None:
        self.pos = _SPACE.match(self.text, self.pos, self.end).end()

    def _string(self) -> str | None:
        for delimiter in _GEMMA_STRINGS:
            if self.text.startswith(delimiter, self.pos):
                close = self.text.find(delimiter, self.pos + len(delimiter), self.end)
                if close < 0:
                    raise ParseError(f"a {delimiter} string at offset {self.pos} never closes")
                value = self.text[self.pos + len(delimiter):close]
                self.pos = close + len(delimiter)
                return value
        q = self.text[self.pos:self.pos + 1]
        if q in ('"', "'"):
            close = self.text.find(q, self.pos + 1, self.end)
            if close < 0:
                raise ParseError(f"a quoted string at offset {self.pos} never closes")
            value = self.text[self.pos + 1:close]
            self.pos = close + 1
            return value
        return None

    def members(self, closer: str, depth: int) -> Any:
        """The members up to ``closer`` (``}`` reads an object, ``]`` an array)."""
        if depth > MAX_DEPTH:
            raise ParseError(f"a Gemma value nested deeper than {MAX_DEPTH}")
        obj: dict[str, Any] = {}
        arr: list[Any] = []
        while True:
            self._ws()
            if self.pos >= self.end:
                raise ParseError(f"a Gemma {'object' if closer == '}' else 'array'} never "
                                 "closes")
            if self.text[self.pos] == closer:
                self.pos += 1
                return obj if closer == "}" else arr
            if closer == "}":
                key = self._string()
                if key is None:
                    colon = self.text.find(":", self.pos, self.end)
                    if colon < 0:
                        raise ParseError(f"expected a key at offset {self.pos}")
                    key = self.text[self.pos:colon].strip()
                    self.pos = colon
                self._ws()
                if not self.text.startswith(":", self.pos):
                    raise ParseError(f"expected ':' after the key {key[:40]!r}")
                self.pos += 1
                obj[key] = self.value(depth + 1)
            else:
                arr.append(self.value(depth + 1))
            self._ws()
            if self.text.startswith(",", self.pos):
                self.pos += 1

    def value(self, depth: int) -> Any:
        self._ws()
        s = self._string()
        if s is not None:
            return s
        c = self.text[self.pos:self.pos + 1]
        if c == "{":
            self.pos += 1
            return self.members("}", depth)
        if c == "[":
            self.pos += 1
            return self.members("]", depth)
        m = _GEMMA_BARE.match(self.text, self.pos, self.end)
        raw = m.group().strip()
        self.pos = m.end()
        if not raw:
            raise ParseError(f"expected a value at offset {self.pos}")
        try:
            return loads_loose(raw)
        except ParseError:
            return raw  # a bare word: Gemma writes enum values and names unquoted


def _read_gemma(text: str, start: int, end: int, toolset: Toolset) -> list[ParsedCall]:
    calls = []
    pos = start
    while True:
        m = _GEMMA_CALL.search(text, pos, end)
        if m is None:
            if not calls:
                raise ParseError(f"the Gemma tool-call block at offset {start} holds no "
                                 "call:NAME{...}")
            return calls
        scan = _GemmaScan(text, m.end(), end)
        arguments = scan.members("}", 1)
        name = m.group(1)
        calls.append(ParsedCall(name, arguments, (m.start(), scan.pos)))
        pos = scan.pos


# -- DeepSeek ----------------------------------------------------------------------------------
def _read_deepseek(text: str, start: int, end: int, toolset: Toolset) -> list[ParsedCall]:
    calls = []
    for m, body_start, body_end in tag_bodies(text, _DS_CALL_BEGIN, _DS_CALL_END):
        if not start <= m.start() < end:
            continue
        sep = _DS_SEP.search(text, body_start, body_end)
        if sep is None:
            raise ParseError(f"the DeepSeek tool call at offset {m.start()} has no "
                             "<｜tool▁sep｜>")
        left = text[body_start:sep.start()].strip()
        rest_start = sep.end()
        if left == "function":  # V3 / R1: the name on the line after the separator
            newline = text.find("\n", rest_start, body_end)
            name = text[rest_start:newline if newline >= 0 else body_end].strip()
            rest_start = newline + 1 if newline >= 0 else body_end
        else:  # V3.1: the name before the separator
            name = left
        if not name:
            raise ParseError(f"the DeepSeek tool call at offset {m.start()} names no tool")
        block = next((f for f in fences(text[rest_start:body_end])), None)
        value_start = rest_start + block.start if block is not None else rest_start
        value_start = _SPACE.match(text, value_start, body_end).end()
        close = value_end(text, value_start)
        if close is None:
            raise ParseError(f"the arguments of {name!r} at offset {value_start} are not a "
                             "JSON object that closes")
        try:
            arguments = loads_loose(text[value_start:close])
        except ParseError as exc:
            raise ParseError(f"the arguments of {name!r} do not read: {exc}") from None
        if not isinstance(arguments, dict):
            raise ParseError(f"the arguments of {name!r} are not an object")
        calls.append(ParsedCall(name, arguments, (m.start(), _with_close(text, body_end,
                                                                          _DS_CALL_END))))
    if not calls:
        raise ParseError(f"the DeepSeek tool-call block at offset {start} holds no call")
    return calls


_READERS = {"mistral": _read_mistral, "gemma": _read_gemma, "deepseek": _read_deepseek}


def read_vendor(shape_id: str, text: str, regions: list[Region], toolset: Toolset
                ) -> list[ParsedCall]:
    """The calls written in one of the shapes no registered protocol reads.

    Parameters
    ----------
    shape_id : str
        ``"mistral"``, ``"gemma"`` or ``"deepseek"``.
    text : str
        The reply, reasoning removed.
    regions : list of Region
        The reply's regions (:func:`vendor_regions`); those of this shape are read.
    toolset : Toolset
        The tools on offer.

    Returns
    -------
    list of ParsedCall
        Names as written, spans in ``text``, ``vendor_shape`` set.

    Raises
    ------
    ParseError
        When a region's markup is there but broken.
    """
    read = _READERS[shape_id]
    out = []
    for region in regions:
        if region.shape == shape_id:
            out.extend(ParsedCall(c.name, c.arguments, c.span, vendor_shape=shape_id)
                       for c in read(text, region.start, region.end, toolset))
    return out
