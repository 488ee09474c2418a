"""Tabular formats: tools as one Markdown (GFM) table."""

from __future__ import annotations

from ..ir import ParamIR, Toolset, TypeIR
from ._common import constraint_notes, json_text, markdown_cell, one_line, prepare, value_list
from ._registry import RenderOptions, register_format

__all__ = ["markdown_table"]

#: The parameter cell of the rows that list the fields of a tool's result.
RESULT_PATH = "(result)"


def _base(t: TypeIR) -> str:
    """The type in a few words: ``integer``, ``array of object``, ``string or object #2``."""
    if t.kind == "enum":
        text = t.enum_base()
    elif t.kind == "array":
        text = f"array of {_base(t.items)}" if t.items is not None else "array"
    elif t.kind == "object" and not t.fields:
        text = "object (any keys)"
    elif t.kind == "union":
        text = " or ".join(f"{_base(o)} #{i}" if o.kind == "object" and o.fields else _base(o)
                           for i, o in enumerate(t.options, 1)) or "any"
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


def _type_cell(p: ParamIR) -> str:
    """The type with enum values, constraints and default in brackets."""
    details = _value_notes(p.type, "") + constraint_notes(p.type)
    if p.has_default:
        details.append(f"default {json_text(p.default)}")
    return f"{_base(p.type)} [{'; '.join(details)}]" if details else _base(p.type)


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

    Parameters
    ----------
    toolset : Toolset
        The tools, in the order shown.
    options : RenderOptions
        Descriptions and return types are shown only when the options ask for them.

    Returns
    -------
    str
        The table, ending with a newline.

    Raises
    ------
    RenderError
        When a tool nests past ``options.max_depth``.
    """
    columns = ["tool", "parameter", "type", "required"]
    if options.include_descriptions:
        columns.append("description")
    lines = ["| " + " | ".join(columns) + " |", "|" + " --- |" * len(columns)]

    def row(*cells: str) -> None:
        cells = cells[:len(columns)]
        lines.append("| " + " | ".join(markdown_cell(c) for c in cells) + " |")

    for tool in prepare(toolset, options):
        kind = "tool" if tool.returns is None else f"tool; returns {_base(tool.returns)}"
        row(tool.name, "", kind, "", one_line(tool.description))
        rows = [r for p in tool.params for r in _rows(p, p.name)]
        if tool.returns is not None:
            rows += _inner_rows(tool.returns, RESULT_PATH)
        for path, p in rows:
            row(tool.name, path, _type_cell(p), "yes" if p.required else "no", p.description)
    return "\n".join(lines) + "\n"
