"""Every piece of tool metadata a model can read, as addressed text fields.

A toolset's text lives in tool names, titles and descriptions, and, for every parameter at any
depth (object fields, array items, union options, return types), in its name, title, description,
default and enum values. :func:`iter_fields` lists them with a stable path such as
``tools[2].params.notify.description`` or ``tools[0].params.mode.enum[1]``;
:func:`rebuild_toolset` writes edited values back by the same paths.

Non-string defaults and enum values are scanned as their compact JSON text, so offsets into
such a field refer to that JSON text.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import replace
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple

from ..ir import NO_DEFAULT, ParamIR, ToolIR, Toolset, TypeIR

__all__ = [
    "FIELD_KINDS", "FieldText", "REMOVE", "iter_fields", "rebuild_toolset", "value_text",
]

#: The kinds of field the guard reads: (kind, meaning).
FIELD_KINDS: tuple[tuple[str, str], ...] = (
    ("tool.name", "the name a call must use"),
    ("tool.title", "the tool's display title (MCP title)"),
    ("tool.description", "the tool's prose"),
    ("param.name", "a parameter's or object field's name"),
    ("param.title", "a parameter's JSON Schema title"),
    ("param.description", "a parameter's prose"),
    ("param.default", "a parameter's declared default (JSON text when not a string)"),
    ("param.enum", "one allowed value of an enum (JSON text when not a string)"),
)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")


class _Remove:
    """Sentinel for "take this value out" in :func:`rebuild_toolset` edits."""

    def __repr__(self) -> str:
        return "REMOVE"


#: Edit value meaning: drop the default, or drop this enum value.
REMOVE: Any = _Remove()


class FieldText(NamedTuple):
    """One readable field of a toolset.

    Parameters
    ----------
    path : str
        Where it is, e.g. ``tools[2].params.notify.description``.
    kind : str
        One of the kinds in :data:`FIELD_KINDS`.
    tool : str
        The name of the tool it belongs to.
    text : str
        The text a model would read (JSON text for non-string defaults and enum values).
    value : Any
        The value itself: the default or enum value as declared, else the same as ``text``.
    """

    path: str
    kind: str
    tool: str
    text: str
    value: Any = None


def value_text(value: Any) -> str:
    """The text of a default or enum value: itself when a string, else its compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


@functools.lru_cache(maxsize=4096)
def _key(name: str) -> str:
    """A path segment for a parameter name: ``.name`` or ``["odd.name"]`` (cached: catalogues
    repeat parameter names, and a walk makes one per parameter)."""
    return f".{name}" if _IDENT.match(name) else f"[{json.dumps(name, ensure_ascii=False)}]"


#: Which of an enum's values to list (indices, in order), or None for all of them.
EnumSelection = Callable[[TypeIR], "Iterable[int] | None"]


def iter_fields(toolset: Toolset, *, enum_values: EnumSelection | None = None,
                ascii_param_names: bool = True) -> Iterator[FieldText]:
    """Every readable field of ``toolset``, tool by tool, in declaration order.

    Empty titles and descriptions and absent defaults are skipped; names are always listed.

    Parameters
    ----------
    toolset : Toolset
    enum_values : callable, optional
        Given an enum's type, the indices of the values to list (in order), or None for all;
        the scan uses it to pass over the values of a long enum it screened in bulk. Default:
        every value.
    ascii_param_names : bool, default True
        False leaves out the parameter names written in ASCII only (the scan's one reader of
        parameter names, TS106, looks for characters outside ASCII; a catalogue has several
        names per tool).
    """
    # FieldText(...) goes through a Python-level __new__; tuple.__new__ makes the same tuple in
    # half the time, and scans walk hundreds of thousands of fields
    new = tuple.__new__
    for i, tool in enumerate(toolset.tools):
        base = f"tools[{i}]"
        name = tool.name
        yield new(FieldText, (f"{base}.name", "tool.name", name, name, None))
        if tool.title:
            yield new(FieldText, (f"{base}.title", "tool.title", name, tool.title, None))
        if tool.description:
            yield new(FieldText, (f"{base}.description", "tool.description", name,
                                  tool.description, None))
        # Parameters and nested types (object fields, array items, union options), depth first
        # in declaration order, from a stack of what is left to read: nested generators would
        # pass every field up through one generator per level, and scans read many fields.
        stack: list[tuple[ParamIR | None, TypeIR, str]] = []
        if tool.returns is not None:
            stack.append((None, tool.returns, f"{base}.returns"))
        stack.extend((p, p.type, f"{base}.params{_key(p.name)}") for p in reversed(tool.params))
        while stack:
            p, t, path = stack.pop()
            if p is not None:
                if ascii_param_names or not p.name.isascii():
                    yield new(FieldText, (f"{path}.name", "param.name", name, p.name, None))
                if p.title:
                    yield new(FieldText, (f"{path}.title", "param.title", name, p.title, None))
                if p.description:
                    yield new(FieldText, (f"{path}.description", "param.description", name,
                                          p.description, None))
                if p.has_default:
                    yield new(FieldText, (f"{path}.default", "param.default", name,
                                          value_text(p.default), p.default))
            if t.values:
                chosen = enum_values(t) if enum_values is not None else None
                for j in range(len(t.values)) if chosen is None else chosen:
                    value = t.values[j]
                    yield new(FieldText, (f"{path}.enum[{j}]", "param.enum", name,
                                          value_text(value), value))
            if t.options:
                stack.extend((None, o, f"{path}.options[{k}]")
                             for k, o in reversed(list(enumerate(t.options))))
            if t.items is not None:
                stack.append((None, t.items, f"{path}.items"))
            if t.fields:
                stack.extend((f, f.type, f"{path}.fields{_key(f.name)}")
                             for f in reversed(t.fields))


# -- writing edits back ------------------------------------------------------------------------

Edits = Mapping[str, Any]


def _edit_type(t: TypeIR, path: str, edits: Edits) -> TypeIR:
    values = tuple(edits.get(f"{path}.enum[{j}]", v) for j, v in enumerate(t.values))
    kept = tuple(v for v in values if v is not REMOVE)
    fields = tuple(_edit_param(p, f"{path}.fields{_key(p.name)}", edits) for p in t.fields)
    items = _edit_type(t.items, f"{path}.items", edits) if t.items is not None else None
    options = tuple(_edit_type(o, f"{path}.options[{k}]", edits) for k, o in enumerate(t.options))
    if t.values and not kept:
        # JSON Schema forbids an empty enum: the type falls back to the values' scalar kind.
        return replace(t, kind=t.enum_base(), values=(), fields=fields, items=items,
                       options=options)
    return replace(t, values=kept, fields=fields, items=items, options=options)


def _edit_param(p: ParamIR, path: str, edits: Edits) -> ParamIR:
    default = edits.get(f"{path}.default", p.default)
    return replace(
        p,
        title=edits.get(f"{path}.title", p.title),
        description=edits.get(f"{path}.description", p.description),
        default=NO_DEFAULT if default is REMOVE else default,
        type=_edit_type(p.type, path, edits),
    )


def _edit_tool(tool: ToolIR, base: str, edits: Edits) -> ToolIR:
    return replace(
        tool,
        title=edits.get(f"{base}.title", tool.title),
        description=edits.get(f"{base}.description", tool.description),
        params=tuple(_edit_param(p, f"{base}.params{_key(p.name)}", edits) for p in tool.params),
        returns=(_edit_type(tool.returns, f"{base}.returns", edits)
                 if tool.returns is not None else None),
    )


def rebuild_toolset(toolset: Toolset, edits: Edits) -> Toolset:
    """A copy of ``toolset`` with the fields at the given paths replaced.

    Parameters
    ----------
    toolset : Toolset
        The original (left unchanged).
    edits : mapping of str to Any
        Path (as :func:`iter_fields` gives it) to new value: a string for a title or
        description, a value or :data:`REMOVE` for a default or an enum value. Names cannot be
        edited. An enum whose every value is removed becomes its values' scalar kind.

    Returns
    -------
    Toolset
        The edited copy, with the same executors and source.
    """
    if not edits:
        return toolset
    tools = tuple(_edit_tool(t, f"tools[{i}]", edits) for i, t in enumerate(toolset.tools))
    return replace(toolset, tools=tools)
