"""The IR JSON loader and exporter: ``{"toolform_ir": 1, "tools": [...]}`` (``Toolset.to_dict``).

Unlike ``Toolset.from_dict``, :func:`from_ir` checks every key and value and raises
:class:`~toolform.errors.LoaderError` with file, tool and JSON path. Being the project's own
format, it is strict: an unknown key is an error (a typo would otherwise be lost silently).
"""

from __future__ import annotations

from typing import Any

from ..ir import KINDS, NO_DEFAULT, ParamIR, ToolIR, Toolset, TypeIR
from ._jsonschema import (MAX_DEPTH, Where, check_count, check_number, check_pattern, child,
                          describe)
from ._vendors import as_is, read_toolset

__all__ = ["IR_VERSION", "from_ir", "to_ir"]

#: The IR JSON version this module reads and writes.
IR_VERSION = 1

_NUMBERS = ("minimum", "maximum", "exclusive_minimum", "exclusive_maximum")
_COUNTS = ("min_length", "max_length", "min_items", "max_items")
_TYPE_KEYS = frozenset(("kind", "fields", "items", "values", "options", "pattern", "format",
                        "nullable", "additional", "value_type", "key_type", "pattern_types",
                        "name", "ref", *_NUMBERS, *_COUNTS))
_PARAM_KEYS = frozenset(("name", "type", "description", "required", "default", "title"))
_TOOL_KEYS = frozenset(("name", "description", "params", "returns", "title"))


def _known_keys(obj: dict, allowed: frozenset[str], where: Where, path: str, what: str) -> None:
    for key in obj:
        if key not in allowed:
            raise where.error(f"unknown key {describe(key)} in {what}; allowed: "
                              f"{', '.join(sorted(allowed))}", path)


def _flag(obj: dict, key: str, default: bool, where: Where, path: str) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise where.error(f"'{key}' must be a boolean, got {describe(value)}", child(path, key))
    return value


def _params(value: Any, where: Where, path: str, depth: int) -> tuple[ParamIR, ...]:
    params = []
    seen: set[str] = set()
    for i, item in enumerate(where.want_list(value, path, "a parameter list")):
        param = _param(item, where, child(path, i), depth)
        if param.name in seen:
            raise where.error(f"duplicate parameter name {param.name!r}",
                              child(child(path, i), "name"))
        seen.add(param.name)
        params.append(param)
    return tuple(params)


def _param(value: Any, where: Where, path: str, depth: int) -> ParamIR:
    obj = where.want_dict(value, path, "a parameter")
    _known_keys(obj, _PARAM_KEYS, where, path, "a parameter")
    for key in ("name", "type"):
        if key not in obj:
            raise where.error(f"the parameter has no '{key}'", child(path, key))
    name = obj["name"]
    if not isinstance(name, str):
        raise where.error(f"a parameter name must be a string, got {describe(name)}",
                          child(path, "name"))
    default = NO_DEFAULT
    if "default" in obj:
        default = where.check_json(obj["default"], child(path, "default"))
    return ParamIR(name=name, type=_type(obj["type"], where, child(path, "type"), depth + 1),
                   description=where.opt_str(obj, "description", path),
                   required=_flag(obj, "required", True, where, path), default=default,
                   title=where.opt_str(obj, "title", path))


def _type(value: Any, where: Where, path: str, depth: int) -> TypeIR:
    if depth > MAX_DEPTH:
        raise where.error(f"type nested deeper than {MAX_DEPTH} levels", path)
    obj = where.want_dict(value, path, "a type")
    _known_keys(obj, _TYPE_KEYS, where, path, "a type")
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise where.error(f"'kind' must be one of {', '.join(KINDS)}, got {describe(kind)}",
                          child(path, "kind"))
    values = where.want_list(obj.get("values", []), child(path, "values"), "values")
    for i, item in enumerate(values):
        if isinstance(item, (list, tuple, dict)):
            raise where.error(f"enum values must be JSON scalars, got {describe(item)}",
                              child(child(path, "values"), i))
        where.check_json(item, child(child(path, "values"), i))
    options_path = child(path, "options")
    options = tuple(_type(o, where, child(options_path, i), depth + 1) for i, o in
                    enumerate(where.want_list(obj.get("options", []), options_path, "options")))
    items = obj.get("items")
    additional = obj.get("additional")
    if additional is not None and not isinstance(additional, bool):
        raise where.error(f"'additional' must be a boolean or null, got {describe(additional)}",
                          child(path, "additional"))
    constraints: dict[str, Any] = {}
    for key in (*_NUMBERS, *_COUNTS, "pattern", "format"):
        if obj.get(key) is not None:
            check = check_number if key in _NUMBERS else check_count if key in _COUNTS else None
            constraints[key] = (check(where, obj[key], child(path, key)) if check
                                else where.opt_str(obj, key, path))
    if "pattern" in constraints:
        check_pattern(where, constraints["pattern"], child(path, "pattern"))
    for key in ("value_type", "key_type"):
        if obj.get(key) is not None:
            constraints[key] = _type(obj[key], where, child(path, key), depth + 1)
    entries_path = child(path, "pattern_types")
    entries = []
    for i, entry in enumerate(where.want_list(obj.get("pattern_types", []), entries_path,
                                              "pattern_types")):
        entry_path = child(entries_path, i)
        entry = where.want_dict(entry, entry_path, "a pattern_types entry")
        _known_keys(entry, frozenset(("pattern", "type")), where, entry_path,
                    "a pattern_types entry")
        if "pattern" not in entry or "type" not in entry:
            raise where.error("a pattern_types entry needs 'pattern' and 'type'", entry_path)
        entries.append((check_pattern(where, entry["pattern"], child(entry_path, "pattern")),
                        _type(entry["type"], where, child(entry_path, "type"), depth + 1)))
    name, ref = where.opt_str(obj, "name", path), where.opt_str(obj, "ref", path)
    try:
        return TypeIR(kind=kind, fields=_params(obj.get("fields", []), where,
                                                child(path, "fields"), depth),
                      items=None if items is None else _type(items, where, child(path, "items"),
                                                             depth + 1),
                      values=tuple(values), options=options,
                      nullable=_flag(obj, "nullable", False, where, path), additional=additional,
                      pattern_types=tuple(entries), name=name, ref=ref, **constraints)
    except ValueError as exc:  # a ref without a name, map keys on a non-object...
        raise where.error(str(exc), path) from None


def _check_refs(t: TypeIR, where: Where, path: str, bound: tuple[str, ...] = ()) -> None:
    """Raise when a ``ref`` has no enclosing type of its name."""
    stack = [(t, path, bound)]
    while stack:
        node, at, names = stack.pop()
        if node.kind == "ref" and node.ref not in names:
            raise where.error(f"'ref' {node.ref!r} has no enclosing type named so", at)
        inner = (*names, node.name) if node.name else names
        stack.extend((c, at, inner) for c in node.children())


def _tool(value: dict, path: str, where: Where) -> ToolIR:
    _known_keys(value, _TOOL_KEYS, where, path, "a tool")
    returns = value.get("returns")
    params_path = child(path, "params")
    tool = ToolIR(name=value["name"], description=where.opt_str(value, "description", path),
                  params=_params(value.get("params", []), where, params_path, 0),
                  returns=None if returns is None else _type(returns, where,
                                                             child(path, "returns"), 0),
                  title=where.opt_str(value, "title", path))
    for i, p in enumerate(tool.params):
        _check_refs(p.type, where, child(child(params_path, i), "type"))
    if tool.returns is not None:
        _check_refs(tool.returns, where, child(path, "returns"))
    return tool


def from_ir(obj: Any, source: str = "<object>") -> Toolset:
    """Load IR JSON (the form ``Toolset.to_dict`` and :func:`to_ir` write).

    Parameters
    ----------
    obj : dict
        ``{"toolform_ir": 1, "tools": [...]}``.
    source : str
        Label for errors and ``Toolset.source``.

    Returns
    -------
    Toolset

    Raises
    ------
    LoaderError
        On a missing or unsupported version, an unknown key, a wrong-typed value, a duplicate
        tool or parameter name, an invalid regular expression, a ``ref`` outside any type of
        its name, or nesting past ``MAX_DEPTH`` levels; naming file, tool and path.
    """
    source = str(source)
    top = Where(source)
    obj = top.want_dict(obj, "$", "IR JSON")
    version = obj.get("toolform_ir")
    if isinstance(version, bool) or version != IR_VERSION:
        raise top.error(f"'toolform_ir' must be {IR_VERSION}, got {describe(version)}",
                        child("$", "toolform_ir"))
    _known_keys(obj, frozenset(("toolform_ir", "tools")), top, "$", "IR JSON")
    return read_toolset(obj, source, (("tools",),), "IR JSON with a 'tools' array", as_is, _tool)


def to_ir(toolset: Toolset) -> dict[str, Any]:
    """Export as IR JSON: ``{"toolform_ir": 1, "tools": [...]}`` (lossless)."""
    return toolset.to_dict()
