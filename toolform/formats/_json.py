"""JSON formats: the OpenAI function list with full JSON Schema, and a names-and-types skeleton."""

from __future__ import annotations

import json
from typing import Any

from ..ir import Toolset, TypeIR
from ._common import function_entry, prepare
from ._registry import RenderOptions, register_format

__all__ = ["json_minimal", "json_schema_openai"]


@register_format(
    name="JSON Schema in OpenAI's function shape",
    family="json",
    default_protocol="json_object",
    description=("A JSON list of {\"type\": \"function\", \"function\": {...}} entries whose "
                 "parameters are full JSON Schema, as sent to OpenAI-compatible APIs; the "
                 "reference every other format is compared with."),
    language="json",
    core=True,
)
def json_schema_openai(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as OpenAI tool definitions, pretty-printed JSON (indent 2).

    Each tool is ``{"type": "function", "function": {"name", "description", "parameters"}}``
    with ``parameters`` from :meth:`ToolIR.input_schema` (descriptions, constraints, enums,
    defaults and nested ``required`` lists kept). A known return type is added as a
    ``"returns"`` JSON Schema beside ``parameters``.

    Parameters
    ----------
    toolset : Toolset
        The tools, in the order shown.
    options : RenderOptions
        Descriptions and return types are shown only when the options ask for them.

    Returns
    -------
    str
        A JSON array, one element per tool.

    Raises
    ------
    RenderError
        When a tool nests past ``options.max_depth``.
    """
    entries = [{"type": "function", "function": function_entry(t)}
               for t in prepare(toolset, options)]
    return json.dumps(entries, indent=2, ensure_ascii=False)


def _skeleton(t: TypeIR) -> Any:
    """A type as the skeleton's compact notation (see :func:`json_minimal`)."""
    if t.kind == "enum":
        out: Any = {"enum": list(t.values)}
    elif t.kind == "array":
        out = {"items": _skeleton(t.items) if t.items is not None else "any"}
    elif t.kind == "object" and t.fields:
        out = {"properties": {p.name: _skeleton(p.type) for p in t.fields}}
        required = [p.name for p in t.fields if p.required]
        if required:
            out["required"] = required
    elif t.kind == "union":
        out = [_skeleton(o) for o in t.options]
    else:
        out = t.kind
    if t.nullable:
        out = [*out, "null"] if isinstance(out, list) else [out, "null"]
    return out


@register_format(
    name="JSON skeleton (names and types only)",
    family="json",
    default_protocol="json_object",
    description=("Compact JSON holding only tool names, parameter names, their types, enum "
                 "values, nesting and which parameters are required; every piece of prose, "
                 "every constraint and every default is left out."),
    language="json",
    supports_constraints=False,
    lossy=True,
    compressed=True,
    core=True,
)
def json_minimal(toolset: Toolset, options: RenderOptions) -> str:
    """Render a names-and-types skeleton of the toolset as compact JSON, one tool per line.

    Each tool is ``{"name", "parameters": {name: type}, "required": [...], "returns": type}``
    (``required`` left out when empty, ``returns`` when unknown). A type is written as:

    - a string for a scalar kind (``"string"``, ``"integer"``, ``"any"``...) or a free-form
      ``"object"``;
    - ``{"enum": [values]}`` for an enum;
    - ``{"items": type}`` for an array;
    - ``{"properties": {name: type}, "required": [...]}`` for an object with fields;
    - a list of types for a union (a nullable type adds ``"null"`` to it).

    Descriptions, constraints and defaults are never shown, whatever the options say (the
    format is lossy by design); return types follow ``options.include_returns``.

    Parameters
    ----------
    toolset : Toolset
        The tools, in the order shown.
    options : RenderOptions
        Only ``include_returns`` and ``max_depth`` matter.

    Returns
    -------
    str
        A JSON array with one tool per line.

    Raises
    ------
    RenderError
        When a tool nests past ``options.max_depth``.
    """
    lines = []
    for tool in prepare(toolset, options):
        entry: dict[str, Any] = {"name": tool.name,
                                 "parameters": {p.name: _skeleton(p.type) for p in tool.params}}
        required = [p.name for p in tool.params if p.required]
        if required:
            entry["required"] = required
        if tool.returns is not None:
            entry["returns"] = _skeleton(tool.returns)
        lines.append(json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
    return "[\n" + ",\n".join(lines) + "\n]"
