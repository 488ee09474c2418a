"""Tabular formats: tools as tables (Markdown, CSV, TSV, boxed ASCII) and as flat lines.

The tables share one layout (:func:`_table`): a row per tool, then a row per parameter and per
nested field with a dotted path (``filter.start``, ``rows[].id``, ``value#2.id``, fields of the
result under ``(result)``), in the columns ``tool | parameter | type | required |
description``. ``key_value_lines`` and ``json_dotted_paths`` (in the JSON family) write the
same fields as one ``tool.path`` per line (:func:`field_rows`), ``compact_signature_lines``
as one line per tool, ``two_stage_index`` as an index table over the Markdown table.

Recursive and map types (see ``toolform.ir``): all of them show a recursive type unrolled to
``RenderOptions.recursion_depth`` levels (default 2; the innermost references become ``any``)
and a map as an object with one stand-in key per kind of key (``<key>``,
``<key matching the pattern P>``) holding the values' type (``_common.plain_type``).
"""

from __future__ import annotations

import csv as _csv
import io
import json
import re
import textwrap
import unicodedata

from ..ir import ParamIR, ToolIR, Toolset, TypeIR
from ._common import (constraint_notes, json_text, markdown_cell, one_line, prepare,
                      summary_line, value_list)
from ._registry import RenderOptions, register_format

__all__ = ["ascii_table", "compact_signature_lines", "csv", "display_width", "field_rows",
           "field_segment", "key_value_lines", "markdown_table", "tsv", "two_stage_index",
           "type_details", "type_words"]

#: The parameter cell of the rows that list the fields of a tool's result.
RESULT_PATH = "(result)"


def type_words(t: TypeIR) -> str:
    """The type in a few words: ``integer``, ``array of object``, ``string or object #2``."""
    if t.kind == "enum":
        text = t.enum_base()
    elif t.kind == "array":
        text = f"array of {type_words(t.items)}" if t.items is not None else "array"
    elif t.kind == "object" and not t.fields:
        text = "object (any keys)"
    elif t.kind == "union":
        text = " or ".join(f"{type_words(o)} #{i}" if o.kind == "object" and o.fields
                           else type_words(o) for i, o in enumerate(t.options, 1)) or "any"
    else:
        text = t.kind
    return f"{text} or null" if t.nullable else text


def _value_notes(t: TypeIR, lead: str) -> list[str]:
    """Enum values of ``t``, of its items (``items one of ...``) and union options."""
    if t.kind == "enum":
        return [f"{lead}one of {value_list(t.values) or 'nothing'}"]
    if t.kind == "array" and t.items is not None:
        return _value_notes(t.items, f"{lead}items ")
    if t.kind == "union":
        return [note for i, o in enumerate(t.options, 1)
                for note in _value_notes(o, f"{lead}option {i} ")]
    return []


def type_details(p: ParamIR) -> list[str]:
    """Enum values, constraints and default of ``p`` as short phrases (``one of "a", "b"``,
    ``at least 1``, ``default 20``), in that order."""
    details = _value_notes(p.type, "") + constraint_notes(p.type)
    if p.has_default:
        details.append(f"default {json_text(p.default)}")
    return details


def _type_cell(p: ParamIR) -> str:
    """The type with enum values, constraints and default in brackets."""
    details = type_details(p)
    return f"{type_words(p.type)} [{'; '.join(details)}]" if details else type_words(p.type)


def _inner_rows(t: TypeIR, path: str) -> list[tuple[str, ParamIR]]:
    """(path, field) for every field inside ``t``, depth first."""
    if t.kind == "object":
        return [row for f in t.fields for row in _rows(f, f"{path}.{f.name}")]
    if t.kind == "array" and t.items is not None:
        return _inner_rows(t.items, f"{path}[]")
    if t.kind == "union":
        return [row for i, o in enumerate(t.options, 1) for row in _inner_rows(o, f"{path}#{i}")]
    return []


def _rows(p: ParamIR, path: str) -> list[tuple[str, ParamIR]]:
    return [(path, p), *_inner_rows(p.type, path)]


@register_format(
    name="Markdown parameter table",
    family="tabular",
    default_protocol="json_object",
    description=("A single GitHub-flavoured Markdown table with a row per tool and a row per "
                 "parameter (tool name repeated); nested fields get dotted paths and enum "
                 "values, ranges and defaults ride in a bracket after the type."),
    language="markdown",
    core=True,
    returns="The table, ending with a newline.",
)
def markdown_table(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as one GFM table.

    Columns: ``tool | parameter | type | required | description`` (the description column is
    left out when ``options.include_descriptions`` is False). Each tool has a first row whose
    parameter cell is empty and whose type cell says ``tool`` (``tool; returns X`` when the
    return type is known), then a row per parameter. Fields of objects follow their parent with
    dotted paths (``filter.start``); array items add ``[]`` (``rows[].id``) and the object
    options of a union ``#n`` (``value#2.id``); fields of the result are under
    ``(result)``. The type cell is a short type (``array of string``, ``integer or null``)
    with enum values, constraints and default in brackets: ``integer [at least 1; default
    10]``. Required is ``yes`` or ``no``. Cells are on one line with pipes escaped.
    """
    columns, rows = _table(prepare(toolset, options), options.include_descriptions)
    lines = ["| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]
    lines += ["| " + " | ".join(markdown_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _table(tools: list[ToolIR], include_descriptions: bool) -> tuple[list[str], list[list[str]]]:
    """The header and rows every table format shows (see :func:`markdown_table`).

    Cells hold the tool name and path as they are, the type cell and the descriptions on one
    line; the description column is left out when ``include_descriptions`` is False.
    """
    columns = ["tool", "parameter", "type", "required", "description"]
    if not include_descriptions:
        columns.pop()
    rows = []
    for tool in tools:
        kind = "tool" if tool.returns is None else f"tool; returns {type_words(tool.returns)}"
        rows.append([tool.name, "", kind, "", one_line(tool.description)][:len(columns)])
        fields = [r for p in tool.params for r in _rows(p, p.name)]
        if tool.returns is not None:
            fields += _inner_rows(tool.returns, RESULT_PATH)
        for path, p in fields:
            rows.append([tool.name, path, one_line(_type_cell(p)), "yes" if p.required else "no",
                         one_line(p.description)][:len(columns)])
    return columns, rows


# -- the same table as CSV, TSV and a boxed ASCII table ------------------------------------------

@register_format(
    name="CSV parameter table",
    family="tabular",
    default_protocol="json_object",
    description=("The rows of the Markdown parameter table as comma-separated values with a "
                 "header line, quoted only where RFC 4180 needs it: no layout at all."),
    language="csv",
    compressed=True,
    returns="CSV text ending with a newline.",
)
def csv(toolset: Toolset, options: RenderOptions) -> str:
    """Render the table of :func:`markdown_table` as CSV.

    Same columns and rows (``tool, parameter, type, required, description``; the description
    column left out when ``options.include_descriptions`` is False), written by Python's
    ``csv`` module with minimal quoting and ``\\n`` line ends; the type and description cells
    are on one line, so every record is one line.
    """
    columns, rows = _table(prepare(toolset, options), options.include_descriptions)
    out = io.StringIO()
    writer = _csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    return out.getvalue()


@register_format(
    name="TSV parameter table",
    family="tabular",
    default_protocol="json_object",
    description=("The rows of the Markdown parameter table separated by tabs, with no quoting "
                 "at all (no cell holds a tab or a line break): the CSV table a few tokens "
                 "cheaper."),
    language="tsv",
    compressed=True,
    returns="TSV text ending with a newline.",
)
def tsv(toolset: Toolset, options: RenderOptions) -> str:
    """Render the table of :func:`markdown_table` as tab-separated values.

    Every cell is put on one line with its whitespace runs (tabs included) made one space, so
    cells need no quoting: ``csv.reader(..., delimiter="\\t", quoting=csv.QUOTE_NONE)`` reads
    the rows back.
    """
    columns, rows = _table(prepare(toolset, options), options.include_descriptions)
    return "".join("\t".join(one_line(c) for c in row) + "\n" for row in [columns, *rows])


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: 2 for East Asian wide and full-width characters, 0 for
    combining marks, 1 for the rest."""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


#: Display columns the description column of ``ascii_table`` wraps at.
ASCII_DESCRIPTION_WIDTH = 60


@register_format(
    name="Boxed ASCII table",
    family="tabular",
    default_protocol="json_object",
    description=("The parameter table drawn with +, - and | borders and space padding, every "
                 "column aligned as in a console listing, long descriptions wrapped inside "
                 "their cell."),
    language=None,
    returns="The table, ending with a newline.",
)
def ascii_table(toolset: Toolset, options: RenderOptions) -> str:
    """Render the table of :func:`markdown_table` as a boxed, column-aligned ASCII table.

    Columns are padded to their widest cell in display columns (:func:`display_width`, so
    wide CJK characters stay aligned). The header is ruled off with ``=``, each tool's rows
    with ``-``. Descriptions longer than :data:`ASCII_DESCRIPTION_WIDTH` wrap onto
    continuation lines whose other cells are blank; the tool cell is filled only on the first
    line of a row, so a reader can tell rows apart.
    """
    columns, rows = _table(prepare(toolset, options), options.include_descriptions)
    blocks = []
    for row in [columns, *rows]:
        cells = [[one_line(c)] for c in row]
        if len(cells) == 5:
            cells[4] = textwrap.wrap(cells[4][0], ASCII_DESCRIPTION_WIDTH,
                                     break_long_words=True, break_on_hyphens=False) or [""]
        blocks.append(cells)
    widths = [max(display_width(line) for cells in blocks for line in cells[c])
              for c in range(len(columns))]

    def rule(ch: str) -> str:
        return "+" + "+".join(ch * (w + 2) for w in widths) + "+"

    def lines(cells: list[list[str]]) -> list[str]:
        height = max(len(c) for c in cells)
        return ["| " + " | ".join(
            (c[i] if i < len(c) else "") + " " * (w - display_width(c[i] if i < len(c) else ""))
            for c, w in zip(cells, widths)) + " |" for i in range(height)]

    out = [rule("-"), *lines(blocks[0]), rule("=")]
    for n, (row, cells) in enumerate(zip(rows, blocks[1:])):
        if n and row[0] != rows[n - 1][0]:
            out.append(rule("-"))
        out.extend(lines(cells))
    if rows:
        out.append(rule("-"))
    return "\n".join(out) + "\n"


# -- one field per line --------------------------------------------------------------------------

# A field name that can stand bare in a path (no separator, bracket, quote or whitespace).
_BARE_FIELD = re.compile(r'[^\s.\[\]#():"\\]+')


def field_segment(name: str) -> str:
    """A field name as one step of a path: ``.name``, or ``["a.b"]`` when the name holds
    a dot, bracket, ``#``, parenthesis, quote, backslash, ``:`` or whitespace (or is empty)."""
    return f".{name}" if _BARE_FIELD.fullmatch(name) else f"[{json_text(name)}]"


def _field_paths(t: TypeIR, path: str) -> list[tuple[str, ParamIR]]:
    if t.kind == "object":
        return [row for f in t.fields
                for row in [(path + field_segment(f.name), f),
                            *_field_paths(f.type, path + field_segment(f.name))]]
    if t.kind == "array" and t.items is not None:
        return _field_paths(t.items, f"{path}[]")
    if t.kind == "union":
        return [row for i, o in enumerate(t.options, 1) for row in _field_paths(o, f"{path}#{i}")]
    return []


def field_rows(tool: ToolIR) -> list[tuple[str, ParamIR]]:
    """``(path, field)`` for every parameter and nested field of ``tool``, depth first.

    Paths are relative to the tool name and start with a step (:func:`field_segment`):
    ``.address.street``, ``.lines[].sku``, ``.centre#2.lat`` (second union option); the
    fields of the return type follow under ``.(result)``.
    """
    rows = [row for p in tool.params
            for row in [(field_segment(p.name), p), *_field_paths(p.type, field_segment(p.name))]]
    if tool.returns is not None:
        rows += _field_paths(tool.returns, "." + RESULT_PATH)
    return rows


@register_format(
    name="Key: value lines, one per field",
    family="tabular",
    default_protocol="key_value_call",
    description=("One line per tool and per field, tool.path: type (required or optional; "
                 "values, limits, default) # description, with no brackets or braces to keep "
                 "track of."),
    language=None,
    compressed=True,
    returns="The lines, ending with a newline (empty text for an empty toolset).",
)
def key_value_lines(toolset: Toolset, options: RenderOptions) -> str:
    """Render a line per tool and a line per parameter and nested field.

    A tool's line is ``tool: tool`` (``tool: tool returning <type>`` when the return type is
    known); each field's is ``tool.path: <type> (required|optional[; details]) # <description>``
    with paths from :func:`field_rows`, the type in words as in the Markdown table and details
    its enum values, constraints and default. `` # description`` is left out when there is no
    description. Tools are separated by a blank line.
    """
    blocks = []
    for tool in prepare(toolset, options):
        kind = "tool" if tool.returns is None else f"tool returning {type_words(tool.returns)}"
        lines = [_noted(f"{tool.name}: {kind}", tool.description)]
        for path, p in field_rows(tool):
            flags = "; ".join(["required" if p.required else "optional", *type_details(p)])
            lines.append(_noted(f"{tool.name}{path}: {type_words(p.type)} ({flags})",
                                p.description))
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def _noted(line: str, description: str) -> str:
    text = one_line(description)
    return f"{line} # {text}" if text else line


# -- one line per tool ---------------------------------------------------------------------------

_COMPACT_SCALARS = {"string": "str", "integer": "int", "number": "num", "boolean": "bool",
                    "null": "null", "any": "any"}
# Bare words that would read as a type or a JSON literal; enum values spelt so are quoted.
_COMPACT_WORDS = frozenset([*_COMPACT_SCALARS.values(), "obj", "never", "true", "false"])
_COMPACT_NAME = re.compile(r"[\w$@.+/-]+")
_COMPACT_VALUE = re.compile(r"[^\W\d][\w.+/-]*")


def _compact_name(name: str) -> str:
    return name if _COMPACT_NAME.fullmatch(name) else json_text(name)


def _compact_value(value: object) -> str:
    if isinstance(value, str) and _COMPACT_VALUE.fullmatch(value) and value not in _COMPACT_WORDS:
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _bounds(lo: object, hi: object, xlo: object, xhi: object, unit: str = "") -> list[str]:
    if lo is not None and hi is not None:
        return [f"{unit}{json_text(lo)}..{json_text(hi)}"]
    return [f"{unit}{op}{json_text(v)}"
            for op, v in ((">=", lo), (">", xlo), ("<=", hi), ("<", xhi)) if v is not None]


def _compact_limits(t: TypeIR) -> list[str]:
    out = _bounds(t.minimum, t.maximum, t.exclusive_minimum, t.exclusive_maximum)
    out += _bounds(t.min_length, t.max_length, None, None, "len ")
    out += _bounds(t.min_items, t.max_items, None, None, "items ")
    if t.pattern is not None:
        out.append(f"pattern {json_text(t.pattern)}")
    if t.format is not None:
        out.append(f"format {_compact_value(t.format)}")
    if t.kind == "object" and t.additional is False:
        out.append("closed")
    return out


def _compact_type(t: TypeIR) -> str:
    if t.kind == "enum":
        text = "|".join(_compact_value(v) for v in t.values) or "never"
    elif t.kind == "array":
        inner = _compact_type(t.items) if t.items is not None else "any"
        text = (f"({inner})" if t.items is not None and _alternatives(t.items) else inner) + "[]"
    elif t.kind == "object":
        text = "{" + " ".join(_compact_param(f) for f in t.fields) + "}" if t.fields else "obj"
    elif t.kind == "union":
        text = "|".join(_compact_type(o) for o in t.options) or "any"
    else:
        text = _COMPACT_SCALARS[t.kind]
    limits = _compact_limits(t)
    if limits:
        text += "(" + ", ".join(limits) + ")"
    return f"{text}|null" if t.nullable else text


def _alternatives(t: TypeIR) -> bool:
    """True when ``t`` is written as alternatives joined by ``|`` (needs parentheses as items)."""
    return (t.nullable or (t.kind == "union" and len(t.options) > 1)
            or (t.kind == "enum" and len(t.values) > 1))


def _compact_param(p: ParamIR) -> str:
    text = f"{_compact_name(p.name)}:{_compact_type(p.type)}"
    if p.has_default:
        text += "=" + json.dumps(p.default, ensure_ascii=False, separators=(",", ":"))
    return text if p.required else f"[{text}]"


@register_format(
    name="Compact one-line signatures",
    family="tabular",
    default_protocol="json_object",
    description=("One line per tool, name: then its parameters as name:type, optional ones in "
                 "square brackets, nested objects in braces and the return type after ->; all "
                 "prose is left out."),
    language=None,
    novel=True,
    lossy=True,
    compressed=True,
    returns="One line per tool, each ending with a newline.",
    options_doc="``include_returns`` and ``max_depth`` matter.",
)
def compact_signature_lines(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as one line: ``name: a:str b:int [c:bool=false] -> num``.

    The notation:

    - types ``str int num bool null any``; a free-form object is ``obj``, an object with
      fields ``{a:str [b:int]}``; an array ``T[]`` (``(a|b)[]`` when ``T`` has alternatives);
      a union or an enum its alternatives joined by ``|`` (enum values bare when they are
      simple words, else JSON); ``|null`` when null is allowed; an empty enum ``never``;
    - constraints in parentheses after the type: ``int(1..100)``, ``num(>0)``,
      ``str(len 1..200, pattern "^a")``, ``str(format date)``, ``T[](items <=10)``, ``{...}
      (closed)`` for an object that allows no other keys;
    - an optional parameter in square brackets; a default after ``=`` as compact JSON;
    - names that are not simple words (letters, digits, ``_$@.+/-``) as JSON strings.

    Descriptions are always left out (that is what makes the format lossy); return types
    follow ``options.include_returns``.
    """
    lines = []
    for tool in prepare(toolset, options):
        line = _compact_name(tool.name) + ":" + "".join(" " + _compact_param(p)
                                                         for p in tool.params)
        if tool.returns is not None:
            line += " -> " + _compact_type(tool.returns)
        lines.append(line + "\n")
    return "".join(lines)


# -- an index, then the table --------------------------------------------------------------------

@register_format(
    name="Tool index, then the parameter table",
    family="tabular",
    default_protocol="json_object",
    description=("A short Markdown table of every tool name with a one-line purpose comes "
                 "first, then the full Markdown parameter table: a cheap routing pass before "
                 "any schema has to be read."),
    language="markdown",
    novel=True,
    returns="Markdown with two tables, ending with a newline.",
)
def two_stage_index(toolset: Toolset, options: RenderOptions) -> str:
    """Render an index table of the tools, then :func:`markdown_table` of the same tools.

    The index has a row per tool, ``| tool | purpose |``, the purpose being the first line of
    the description (:func:`~toolform.formats._common.summary_line`); with
    ``options.include_descriptions`` False it has the tool column only. Two headings, ``##
    Index`` and ``## Details``, introduce the two tables.
    """
    tools = prepare(toolset, options)
    if options.include_descriptions:
        index = ["| tool | purpose |", "| --- | --- |"]
        index += [f"| {markdown_cell(t.name)} | {markdown_cell(summary_line(t.description))} |"
                  for t in tools]
    else:
        index = ["| tool |", "| --- |"] + [f"| {markdown_cell(t.name)} |" for t in tools]
    return ("## Index\n\n" + "\n".join(index) + "\n\n## Details\n\n"
            + markdown_table(toolset, options))
