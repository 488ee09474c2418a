"""Line- and document-oriented answer protocols: constrained prose, key-value lines, YAML,
TOML, pipes, CSV, Markdown tables and ReAct.

Text-valued protocols write a value bare unless a reader could not get it back, in which case
it is a JSON string (:func:`~toolform.protocols._values.quote_if_needed`), and read values
typed from the tool's schema (:func:`~toolform.protocols._values.unquote_value`). YAML goes
through PyYAML's safe loader with aliases refused (no alias bomb can expand) and dates kept as
text; TOML through ``tomllib``.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
import tomllib
from typing import Any, Sequence

import yaml

from ..errors import ParseError
from ..ir import ToolCall, ToolIR, Toolset, TypeIR
from ._brackets import value_end
from ._calls import ParsedCall
from ._json import ABSTENTION, calls_from_value
from ._limits import (MAX_ARGUMENTS, MAX_DEPTH, MAX_DOCUMENT_CHARS, MAX_DOCUMENT_NODES, Budget,
                      check_arguments, check_calls)
from ._loose_json import check_depth, json_text, loads_loose, to_json_value
from ._names import find_tool, mentions_a_tool, tool_finder
from ._prose import intent_calls
from ._registry import Protocol, register_protocol
from ._text import LinePattern, contains, fences, lowered
from ._values import coerce_value, quote_if_needed, text_of, typed_text, unquote_value

__all__ = ["CsvCall", "KeyValueCall", "NlIntentStructured", "PipeCall", "React",
           "TableCall", "TomlCall", "YamlCall"]


def _type_of(tool: ToolIR | None, key: str) -> TypeIR | None:
    param = tool.param(key) if tool is not None else None
    return param.type if param is not None else None


_QUOTED_OR_PLAIN = r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|\\.|[^"\\{sep}\n]++|"|\\'


def _split(line: str, sep: str) -> list[str]:
    """``line`` split at ``sep`` outside JSON-quoted strings (a stray quote is plain text)."""
    token = _splitter(sep)
    cells, current = [], []
    for tok in token.findall(line):
        if tok == sep:
            cells.append("".join(current))
            current = []
        else:
            current.append(tok)
    cells.append("".join(current))
    return cells


@functools.lru_cache(maxsize=8)
def _splitter(sep: str) -> re.Pattern[str]:
    return re.compile(_QUOTED_OR_PLAIN.format(sep=re.escape(sep)) + "|" + re.escape(sep))


#: Characters that make a pipe or table cell value a JSON string (a backslash too, since
#: ``\\|`` is read as an escaped bar).
_CELL_UNSAFE = '|"\\'


def _blocks(text: str, langs: set[str]) -> list[tuple[int, str]]:
    """``(offset, body)`` of each fenced block of ``text`` in one of ``langs``, or of the
    whole text when none."""
    found = [(f.start, text[f.start:f.end]) for f in fences(text) if f.lang in langs] \
        if contains(text, "```") or contains(text, "~~~") else []
    return found or [(0, text)]


#: Most brackets a document may open in a row (a seed inside thousands of "[" took PyYAML
#: seconds on 4 KB: tests/benchmarks/fuzz_long.py, seed 0, example 8611).
_MAX_FLOW_RUN = 64
_DEEP_FLOW = re.compile(r"[\[{](?:[ \t\r\n]*+[\[{]){%d}" % _MAX_FLOW_RUN)


def _document(block: str, kind: str) -> str:
    """``block``, refused when longer than ``MAX_DOCUMENT_CHARS`` (its parser is pure Python
    and would take seconds on a long one) or when it opens more than 64 brackets in a row.

    Raises
    ------
    ParseError
        For a longer or too deeply bracketed block.
    """
    if len(block) > MAX_DOCUMENT_CHARS:
        raise ParseError(f"a {kind} document of {len(block):,} characters is over the "
                         f"{MAX_DOCUMENT_CHARS:,} this reader reads")
    if _DEEP_FLOW.search(block):  # PyYAML's scanner is quadratic in the flow nesting depth
        raise ParseError(f"a {kind} document opens more than {_MAX_FLOW_RUN} brackets in a "
                         "row; not read")
    return block


# -- constrained prose -------------------------------------------------------------------------
_USE_LINE = LinePattern(r"[ \t]*(?:[-*•][ \t]*|[0-9]+[.)][ \t]*)?(Use[ \t]+.*)$")


@register_protocol(
    name="Natural language in a fixed frame",
    description=("One sentence per call in the frame 'Use TOOL with arg = value, arg = "
                 "value.'; read by the natural-language adapter."),
    supports_parallel=True, structured=False, text_values=True,
    cannot_carry=("untyped_values", "mistyped_values", "unknown_tools_without_arguments",
                  "non_identifier_names"),
)
class NlIntentStructured(Protocol):
    """``Use tool_name with city = "Paris", days = 3.``, one line per call.

    Only lines that start with ``Use`` (a bullet or number before it allowed) are read, by
    the ``nl_intent`` adapter (value rules in :mod:`toolform.protocols._prose`); JSON text
    for a union parameter with an object or array option is read as JSON. Never raises.
    ``cannot_carry`` is ``nl_intent``'s.
    """

    instruction = ('To call a tool, write one line per call in exactly this frame: Use '
                   'tool_name with param_name = "value", other_param = 2.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One ``Use`` line per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        lines = []
        for call in calls:
            parts = ", ".join(f"{k} = {json_text(v)}" for k, v in call.arguments.items())
            lines.append(f"Use {call.name} with {parts}." if parts else f"Use {call.name}.")
        return "\n".join(lines)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The ``Use`` lines of ``text`` as calls."""
        if not contains(text, "Use"):
            return []
        calls: list[ParsedCall] = []
        budget = Budget("Use lines")
        for m in _USE_LINE.finditer(text):
            budget.step()
            for c in intent_calls(m.group(1), toolset):
                calls.append(_union_json(c, toolset, m.start(1)))
            check_calls(len(calls))
        return calls


def _union_json(call: ParsedCall, toolset: Toolset, offset: int) -> ParsedCall:
    """Read JSON text left as a string for a union parameter with an object or array option
    (see :func:`~toolform.protocols._values.coerce_value`); the span plus ``offset``."""
    tool = find_tool(call.name, toolset)
    fixed = {}
    for key, value in call.arguments.items():
        t = _type_of(tool, key)
        fixed[key] = (coerce_value(value, t) if isinstance(value, str) and t is not None
                      and t.kind == "union" else value)
    return ParsedCall(call.name, fixed, (call.span[0] + offset, call.span[1] + offset),
                      call.repairs)


# -- key-value lines ---------------------------------------------------------------------------
_TOOL_LINE = LinePattern(r"[ \t]*[*_]*(?:TOOL|Tool|tool)[*_]*[ \t]*:[*_]*[ \t]*[`*]*([^\s`*]+)[`*]*"
                          r"[ \t]*$")
_KV_LINE = re.compile(r"^[ \t]*(?:[-*•][ \t]+)?([^:\n]+?)[ \t]*:[ \t]?(.*)$")


@register_protocol(
    name="Key-value lines",
    description="A TOOL: line naming the tool, then one 'param: value' line per argument.",
    supports_parallel=True, structured=True, text_values=True,
    cannot_carry=("untyped_values", "mistyped_values", "names_with_colons"),
)
class KeyValueCall(Protocol):
    """``TOOL: tool_name`` then ``param_name: value`` lines; a blank line ends a call.

    Values are bare text (a JSON string when they hold a line break or edge spaces, JSON for
    objects and arrays) typed from the schema. The call's lines end at a blank line, the next
    ``TOOL:`` line or a line that is not ``key: value``.

    ``cannot_carry``: untyped values come back as text, mistyped ones typed; parameter names
    holding a colon.
    """

    instruction = ("To call a tool, write TOOL: tool_name on one line, then one line per "
                   "argument as param_name: value; leave a blank line between calls.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One block of lines per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n\n".join("\n".join([f"TOOL: {c.name}"] + [
            f"{k}: {quote_if_needed(text_of(v))}" for k, v in c.arguments.items()])
            for c in calls)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The ``TOOL:`` blocks of ``text``."""
        if not contains(lowered(text), "tool"):
            return []
        calls: list[ParsedCall] = []
        find = tool_finder(toolset)
        for m in _TOOL_LINE.finditer(text):
            name = m.group(1)
            tool = find(name)
            arguments: dict[str, Any] = {}
            repairs: list[str] = []
            pos = m.end()
            while pos < len(text) and text[pos] in "\r\n":
                pos += 1
            end = m.end()
            lines = 0
            while pos <= len(text):  # the argument lines, read one at a time
                lines += 1
                check_arguments(lines, name)  # a key given again still costs a line
                line_end = text.find("\n", pos)
                line_end = len(text) if line_end < 0 else line_end
                line = text[pos:line_end]
                kv = _KV_LINE.match(line)
                if not line.strip() or kv is None or _TOOL_LINE.match(line):
                    break
                key = kv.group(1).strip("`* ")
                arguments[key] = unquote_value(kv.group(2), _type_of(tool, key), key, repairs)
                check_arguments(len(arguments), name)
                end, pos = line_end, line_end + 1
            calls.append(ParsedCall(name, arguments, (m.start(), max(end, m.end())),
                                    tuple(repairs)))
            check_calls(len(calls))
        return calls


# -- YAML --------------------------------------------------------------------------------------
# libyaml's C loader when PyYAML was built with it (about ten times faster than the pure-Python
# one, which spent 0.4 s on 20 KB of ``name: x`` lines), else the pure-Python one
_BaseSafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _SafeNoTimestampLoader(_BaseSafeLoader):  # type: ignore[misc, valid-type]
    """PyYAML's safe loader without timestamps (dates stay text); aliases are refused before
    loading (:func:`_yaml_documents`), since the C loader composes nodes out of Python's reach."""


_SafeNoTimestampLoader.yaml_implicit_resolvers = {
    key: [r for r in resolvers if r[0] != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_YAML_LANGS = {"yaml", "yml"}
_YAML_NAME = LinePattern(r"[ \t-]*name[ \t]*:")


def _check_yaml_events(block: str) -> None:
    """Refuse, before anything is built, a document with an alias (no billion laughs) or more
    than :data:`MAX_DOCUMENT_NODES` nodes (the parser's events are cheap, building is not)."""
    nodes = 0
    for event in yaml.parse(block, Loader=_SafeNoTimestampLoader):
        if isinstance(event, yaml.AliasEvent):
            raise ParseError("YAML aliases are refused in a reply")
        if isinstance(event, yaml.NodeEvent):
            nodes += 1
            if nodes > MAX_DOCUMENT_NODES:
                raise ParseError(f"the YAML holds more than {MAX_DOCUMENT_NODES:,} values; "
                                 "not read")


def _yaml_documents(block: str) -> list[Any]:
    _document(block, "YAML")
    try:
        _check_yaml_events(block)
        docs = list(yaml.load_all(block, Loader=_SafeNoTimestampLoader))  # noqa: S506 - safe
        return [to_json_value(d) for d in docs]
    except ParseError:
        raise
    except yaml.YAMLError as exc:
        raise ParseError(f"YAML does not read: {str(exc)[:200]}") from None
    except (RecursionError, ValueError, TypeError) as exc:  # e.g. an integer Python cannot read
        raise ParseError(f"YAML does not read: {type(exc).__name__}: {str(exc)[:200]}") from None


@register_protocol(
    name="YAML call",
    description="The call as a small YAML document with name and arguments keys.",
    supports_parallel=True, structured=True, text_values=False,
)
class YamlCall(Protocol):
    """``name: tool_name`` and an ``arguments:`` mapping; a YAML list of those for several.

    Read with PyYAML's safe loader (aliases refused, dates kept as text): fenced ``yaml``
    blocks when there are any, else the whole reply, else the part from the first ``name:``
    line. Text that mentions ``name:`` but does not load is a ``ParseError``.
    """

    instruction = ("To call a tool, write a YAML document with the keys name (the tool_name) "
                   "and arguments (a mapping of param_name: value); for several calls write a "
                   "YAML list of such documents.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """A YAML document (a list for several calls), a sentence for none."""
        if not calls:
            return ABSTENTION
        payload = [{"name": c.name, "arguments": dict(c.arguments)} for c in calls]
        value = payload[0] if len(payload) == 1 else payload
        text = yaml.safe_dump(value, allow_unicode=True, sort_keys=False, width=10**6)
        # PyYAML's emitter can leave YAML line breaks (\x85, \u2028) unescaped in a quoted
        # scalar, where the loader folds them; escaping every non-ASCII character avoids it
        if yaml.load(text, Loader=_SafeNoTimestampLoader) != value:  # noqa: S506 - safe loader
            text = yaml.safe_dump(value, allow_unicode=False, sort_keys=False, width=10**6)
        return text

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The YAML calls of ``text``, each spanning its YAML block."""
        if not contains(text, "name"):
            return []
        blocks = [(f.start, f.end) for f in fences(text) if f.lang in _YAML_LANGS] \
            if contains(text, "```") or contains(text, "~~~") else []
        if blocks:
            return _checked([ParsedCall(c.name, c.arguments, (start, end))
                             for start, end in blocks
                             for d in _yaml_documents(text[start:end])
                             for c in calls_from_value(d, toolset)])
        first = _YAML_NAME.search(text)
        if first is None:
            return []
        start = 0
        try:
            docs = _yaml_documents(text)
        except ParseError:
            start = text.rfind("\n", 0, first.start()) + 1
            docs = _yaml_documents(text[start:])
        return _checked([ParsedCall(c.name, c.arguments, (start, len(text))) for d in docs
                         for c in calls_from_value(d, toolset)])


def _checked(calls: list[ParsedCall]) -> list[ParsedCall]:
    check_calls(len(calls))
    return calls


# -- TOML --------------------------------------------------------------------------------------
_TOML_START = LinePattern(r"[ \t]*\[\[?[ \t]*(?:call|calls|tool_call)[ \t]*\]\]?")
_TOML_LINE = re.compile(r"^[ \t]*(?:\[|[\w\"'.\- ]+=|#|$)")


def _toml_key(key: str) -> str:
    return _toml_string(key)


def _toml_string(s: str) -> str:
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value if v is not None) + "]"
    return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()
                           if v is not None) + "}"


def _toml_load(block: str) -> dict[str, Any]:
    _document(block, "TOML")
    try:
        data = tomllib.loads(block)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise ParseError(f"TOML does not read: {str(exc)[:200]}") from None
    except ValueError as exc:  # an integer past Python's digit limit
        raise ParseError(f"TOML does not read: {str(exc)[:200]}") from None
    try:
        check_depth(data)
        return to_json_value(data)  # dates and times are refused here
    except ParseError:
        raise
    except RecursionError:
        raise ParseError(f"TOML nested deeper than {MAX_DEPTH}") from None


@register_protocol(
    name="TOML call",
    description="Each call as a [[call]] array-of-tables entry with a name and an "
                "[call.arguments] table.",
    supports_parallel=True, structured=True, text_values=False,
    cannot_carry=("null_values",),
)
class TomlCall(Protocol):
    """``[[call]]`` / ``name = "tool_name"`` / ``[call.arguments]`` / ``param_name = value``.

    Read with ``tomllib``: fenced ``toml`` blocks, else the reply from its first ``[[call]]``
    header up to the first line that is not TOML. A ``[[call]]`` section that does not load is
    a ``ParseError``.

    ``cannot_carry``: TOML has no null; the writer leaves null arguments and array items out.
    """

    instruction = ('To call a tool, write TOML: a [[call]] header, name = "tool_name", then a '
                   '[call.arguments] table with param_name = value lines; repeat the block for '
                   "each call.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One ``[[call]]`` block per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        blocks = []
        for call in calls:
            lines = ["[[call]]", f"name = {_toml_string(call.name)}", "[call.arguments]"]
            lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in call.arguments.items()
                      if v is not None]
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The ``[[call]]`` tables of ``text``, each call spanning its TOML block."""
        if not contains(text, "call") or "[" not in text:
            return []
        blocks = [(f.start, f.end) for f in fences(text) if f.lang == "toml"] \
            if contains(text, "```") or contains(text, "~~~") else []
        if not blocks:
            m = _TOML_START.search(text)
            if m is None:
                return []
            pos = end = m.start()
            budget = Budget("TOML lines")
            while pos <= len(text):  # the TOML lines from the first header, one at a time
                budget.step()
                line_end = text.find("\n", pos)
                line_end = len(text) if line_end < 0 else line_end
                line = text[pos:line_end]
                if not _TOML_LINE.match(line) and not line.startswith(("  ", "\t")):
                    break
                end, pos = line_end, line_end + 1
                if end - m.start() > MAX_DOCUMENT_CHARS:
                    break  # refused by _toml_load below
            blocks = [(m.start(), end)]
        calls: list[ParsedCall] = []
        for start, end in blocks:
            data = _toml_load(text[start:end])
            for key in ("call", "calls", "tool_call"):
                if key in data:
                    calls.extend(ParsedCall(c.name, c.arguments, (start, end)) for c in
                                 calls_from_value(data[key], toolset, anchored=True))
        return _checked(calls)


# -- pipes -------------------------------------------------------------------------------------
# a line may sit in backticks: the closing one is removed only when the line opened with one
_PIPE_LINE = LinePattern(r"[ \t]*(`)?([^\s|=`]++)[ \t]*+\|(.*)(?(1)`)[ \t]*$")


@register_protocol(
    name="Pipe-delimited call",
    description="Each call on one line: tool|param=value|param=value.",
    supports_parallel=True, structured=True, text_values=True,
    cannot_carry=("untyped_values", "mistyped_values", "names_with_equals_or_pipes"),
)
class PipeCall(Protocol):
    """``tool_name|param_name=value|other=2``, one line per call (``tool_name|`` for none).

    A value holding ``|``, a quote, a line break or edge spaces is a JSON string; objects and
    arrays are JSON. Values are typed from the schema. A line naming a tool whose cells are
    not ``key=value`` is a ``ParseError``.
    """

    instruction = ("To call a tool, write one line per call: tool_name|param_name=value|"
                   "other_param=2, with no spaces around the bars.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One line per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join("|".join([c.name] + [f"{k}={quote_if_needed(text_of(v), _CELL_UNSAFE)}"
                                              for k, v in c.arguments.items()])
                         + ("" if c.arguments else "|") for c in calls)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The pipe lines of ``text``."""
        if "|" not in text or ("=" not in text and not mentions_a_tool(lowered(text), tuple(toolset.names))):
            return []  # no argument cells, so only a tool's name could start a call
        calls: list[ParsedCall] = []
        find = tool_finder(toolset)
        budget = Budget("lines with a bar")
        for m in _PIPE_LINE.finditer(text):
            budget.step()
            name = m.group(2)
            tool = find(name)
            if m.group(3).count("|") > 2 * MAX_ARGUMENTS:
                raise ParseError(f"the line of {name[:60]!r} holds more than {MAX_ARGUMENTS:,} "
                                 "arguments; not read")
            cells = [c for c in _split(m.group(3), "|") if c.strip()]
            if not all("=" in c for c in cells):
                if tool is not None and name in toolset:
                    raise ParseError(f"{name}: every cell after the name must be key=value")
                continue
            if tool is None and not cells:
                continue
            arguments: dict[str, Any] = {}
            repairs: list[str] = []
            for cell in cells:
                key, _, value = cell.partition("=")
                key = key.strip()
                arguments[key] = unquote_value(value, _type_of(tool, key), key, repairs)
                check_arguments(len(arguments), name)
            calls.append(ParsedCall(name, arguments, (m.start(2), m.end()), tuple(repairs)))
            check_calls(len(calls))
        return calls


# -- CSV ---------------------------------------------------------------------------------------
_CSV_NEEDS_QUOTES = re.compile(r'[,"\r\n]|^\s|\s$')
_CSV_LANGS = {"", "csv", "text"}


def _csv_field(text: str) -> str:
    if _CSV_NEEDS_QUOTES.search(text):
        return '"' + text.replace('"', '""') + '"'
    return text


@register_protocol(
    name="Positional CSV",
    description=("Each call as one CSV row: the tool's name, then its values in the "
                 "schema's declared order, bound by position."),
    supports_parallel=True, structured=True, text_values=True,
    cannot_carry=("untyped_values", "mistyped_values", "undeclared_arguments",
                  "unknown_tools", "empty_strings"),
)
class CsvCall(Protocol):
    """``tool_name,value1,value2``: values in the order the tool declares its parameters.

    An absent optional parameter is an empty field (trailing ones are left off), so an empty
    string cannot be told from an absent argument. Values are typed from the schema. A row
    naming a tool with more values than it has parameters is a ``ParseError``.

    ``cannot_carry``: untyped or mistyped values, arguments the tool does not declare, calls
    to tools outside the toolset (nothing to bind positions to), empty strings.
    """

    instruction = ("To call a tool, write one CSV line per call: tool_name,value1,value2, "
                   "with the values in the order the parameters are listed; leave a field "
                   "empty to skip an optional parameter, and quote values holding commas.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One CSV row per call (declared order), a sentence for none."""
        if not calls:
            return ABSTENTION
        rows = []
        for call in calls:
            tool = toolset.get(call.name)
            params = [p.name for p in tool.params] if tool is not None else list(call.arguments)
            fields = [_csv_field(text_of(call.arguments[p])) if p in call.arguments else ""
                      for p in params]
            while fields and fields[-1] == "":
                fields.pop()
            rows.append(",".join([_csv_field(call.name)] + fields))
        return "\n".join(rows)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The CSV rows of ``text`` that name a tool, each spanning its row."""
        if not toolset.names or not mentions_a_tool(lowered(text), tuple(toolset.names)):
            return []
        calls: list[ParsedCall] = []
        find = tool_finder(toolset)
        budget = Budget("CSV rows")
        for offset, block in _blocks(text, _CSV_LANGS):
            source = io.StringIO(block, newline="")
            try:
                reader = csv.reader(source, skipinitialspace=True)
                start = 0
                for row in reader:
                    end = source.tell()
                    row_start, start = start, end
                    if not row:
                        continue
                    budget.step()
                    tool = find(row[0].strip())
                    if tool is None:
                        continue
                    values = row[1:]
                    while values and values[-1] == "":
                        values.pop()
                    if len(values) > len(tool.params):
                        raise ParseError(f"{row[0].strip()}: {len(values)} values for "
                                         f"{len(tool.params)} parameters")
                    repairs: list[str] = []
                    arguments = {p.name: typed_text(v, p.type, p.name, repairs)
                                 for p, v in zip(tool.params, values) if v != ""}
                    calls.append(ParsedCall(row[0].strip(), arguments,
                                            (offset + row_start, offset + end), tuple(repairs)))
                    check_calls(len(calls))
            except csv.Error as exc:
                raise ParseError(f"CSV does not read: {exc}") from None
            if calls and block.count('"') % 2 and calls[-1].span[1] >= offset + len(block):
                raise ParseError(f"the CSV row of {calls[-1].name!r} ends inside a quoted field: "
                                 "the call is cut short")
        return calls


# -- Markdown table ----------------------------------------------------------------------------
_TABLE_ROW = LinePattern(r"[ \t]*\|.*$")
#: Most bars a row of three cells is split at (escaped or quoted bars in a value included).
_MAX_ROW_BARS = 64
_RULE_CELL = re.compile(r"[ \t]*:?-{3,}:?[ \t]*")
_HEADER = re.compile(r"tool|function|call|name|tool_name", re.I)
_HEADER_WORDS = ("tool", "function", "call", "name")


def _cells(line: str) -> list[str]:
    body = line.strip()[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [c.strip() for c in _split(body, "|")]


def _cell_value(cell: str, t: TypeIR | None, key: str, repairs: list[str]) -> Any:
    if not cell.startswith('"'):
        cell = cell.replace("\\|", "|")
    return unquote_value(cell, t, key, repairs)


@register_protocol(
    name="Argument table",
    description=("One Markdown table row per argument, in three fixed columns: tool, "
                 "argument, value."),
    supports_parallel=True, structured=True, text_values=True,
    cannot_carry=("untyped_values", "mistyped_values", "names_with_pipes"),
)
class TableCall(Protocol):
    """``| tool | argument | value |`` header, then ``| tool_name | param_name | value |``.

    A call with no arguments is a row with empty argument and value cells. A new call starts
    with a new table, a different tool cell, or an argument the current call already has. A
    value holding ``|`` or a quote is a JSON string (``\\|`` is read too). Rows are read when
    the table's header names a tool column, or when their tool cell names a tool.
    """

    instruction = ("To call a tool, write a Markdown table with the columns tool | argument | "
                   "value and one row per argument, such as | tool_name | param_name | value |; "
                   "start a new table for each call.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One table per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        tables = []
        for call in calls:
            rows = ["| tool | argument | value |", "| --- | --- | --- |"]
            rows += [f"| {call.name} | {k} | {quote_if_needed(text_of(v), _CELL_UNSAFE)} |"
                     for k, v in call.arguments.items()] or [f"| {call.name} |  |  |"]
            tables.append("\n".join(rows))
        return "\n\n".join(tables)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The calls of the three-column tables of ``text``, each spanning its rows."""
        if "|" not in text:
            return []
        low = lowered(text)  # a row names a tool, or sits in a table headed "tool | ..."
        if not mentions_a_tool(low, tuple(toolset.names)) and not any(w in low for w in _HEADER_WORDS):
            return []
        found: list[tuple[str, dict[str, Any], list[int], list[str]]] = []
        budget = Budget("table rows")
        rows = []
        for m in _TABLE_ROW.finditer(text):
            budget.step()
            rows.append(m)
        current: tuple[str, dict[str, Any], list[int], list[str]] | None = None
        headed = False
        previous_end = -2
        find = tool_finder(toolset)
        for i, m in enumerate(rows):
            if text[previous_end + 1:m.start()].strip():
                current, headed = None, False  # something else between: a new table
            previous_end = m.end()
            if m.group().count("|") > _MAX_ROW_BARS:  # no three-cell row: not split
                continue
            cells = _cells(m.group())
            if len(cells) != 3 or all(_RULE_CELL.fullmatch(c) for c in cells):
                continue
            following = rows[i + 1].group() if i + 1 < len(rows) else ""
            if following and all(_RULE_CELL.fullmatch(c) for c in _cells(following)):
                headed = bool(_HEADER.fullmatch(cells[0]))
                current = None
                continue
            name, key, value = cells
            name = name.strip("`*") or (current[0] if current is not None else "")
            tool = find(name)
            if not name or not (headed or tool is not None):
                continue
            key = key.strip("`*")
            if current is None or current[0] != name or key in current[1]:
                current = (name, {}, [m.start(), m.end()], [])
                found.append(current)
                check_calls(len(found))
            current[2][1] = m.end()
            if key:
                current[1][key] = _cell_value(value, _type_of(tool, key), key, current[3])
                check_arguments(len(current[1]), name)
        return [ParsedCall(name, arguments, (span[0], span[1]), tuple(repairs))
                for name, arguments, span, repairs in found]


# -- ReAct -------------------------------------------------------------------------------------
_ACTION = LinePattern(r"[ \t]*\**Action\**[ \t]*:[ \t]*[`*]*([^\s`*]+)[`*]*[ \t]*$", re.I)
_INPUT = re.compile(r"\s*\**Action[ \t]+Input\**[ \t]*:[ \t]*", re.I)
_OBSERVATION = LinePattern(r"[ \t]*\**Observation\**[ \t]*:", re.I)


@register_protocol(
    name="ReAct",
    description=("The ReAct convention: an Action: line naming the tool and an Action Input: "
                 "line holding the arguments as JSON."),
    supports_parallel=False, structured=True, text_values=False,
)
class React(Protocol):
    """``Thought: …`` / ``Action: tool_name`` / ``Action Input: {"param_name": "value"}``.

    Reading stops at the first ``Observation:`` line (what follows is the model imagining the
    result). An Action Input that is not a JSON object binds as text to the tool's only
    parameter; otherwise it is a ``ParseError``. The protocol asks for one call per turn; the
    writer still writes every call it is given, one Action block each.
    """

    instruction = ("Use this format: Thought: your reasoning, then Action: tool_name on its own "
                   'line, then Action Input: the arguments as a JSON object such as '
                   '{"param_name": "value"}; then stop and wait for the Observation.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One Action block per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(f"Thought: I should call {c.name}.\nAction: {c.name}\nAction Input: "
                         f"{json.dumps(dict(c.arguments), ensure_ascii=False)}" for c in calls)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The Action blocks of ``text`` before the first Observation."""
        if not contains(lowered(text), "action"):
            return []
        first = _ACTION.search(text)
        if first is None:
            return []
        stop = _OBSERVATION.search(text, first.end())
        text = text[:stop.start()] if stop is not None else text
        calls: list[ParsedCall] = []
        for m in _ACTION.finditer(text):
            check_calls(len(calls) + 1)
            name = m.group(1)
            inp = _INPUT.match(text, m.end())
            if inp is None:
                calls.append(ParsedCall(name, {}, m.span()))
                continue
            pos = inp.end()
            if text.startswith("{", pos):
                end = value_end(text, pos)
                if end is None:
                    raise ParseError(f"the Action Input of {name!r} never closes")
                arguments = loads_loose(text[pos:end])
                if not isinstance(arguments, dict):
                    raise ParseError(f"the Action Input of {name!r} is not an object")
                calls.append(ParsedCall(name, arguments, (m.start(), end)))
                continue
            line_end = text.find("\n", pos)
            line_end = line_end if line_end >= 0 else len(text)
            raw = text[pos:line_end].strip()
            tool = find_tool(name, toolset)
            if not raw:
                calls.append(ParsedCall(name, {}, (m.start(), line_end)))
            elif tool is not None and len(tool.params) == 1:
                p = tool.params[0]
                repairs: list[str] = []
                calls.append(ParsedCall(name, {p.name: unquote_value(raw, p.type, p.name,
                                                                     repairs)},
                                        (m.start(), line_end), tuple(repairs)))
            else:
                raise ParseError(f"the Action Input of {name!r} is not a JSON object")
        return calls
