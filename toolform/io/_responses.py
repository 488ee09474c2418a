"""The OpenAI Responses API's tool shape, in and out.

A Responses-API function tool is flat: ``{"type": "function", "name", "description",
"parameters", "strict"}`` (the chat-completions shape nests the same fields under ``function``).

``strict: true`` asks the API to constrain the model to the schema, which it accepts only in a
restricted form: every object lists all its properties in ``required`` and sets
``additionalProperties: false``, and an optional parameter is written as a required one that may
be ``null``. :func:`to_responses` with ``strict=True`` rewrites the IR into that form;
:func:`from_responses` reads whatever it is given as written, so a strict tool loads with its
optional parameters as required nullable ones. The round trip ``from_responses(to_responses(ts))``
is exact with ``strict=False``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import InvalidParameterError
from ..ir import ParamIR, ToolIR, Toolset, TypeIR
from ._jsonschema import Where, child, describe, json_schema_to_params
from ._vendors import read_toolset

__all__ = ["from_responses", "to_responses"]


def _unwrap(item: dict, path: str, where: Where) -> tuple[dict, str]:
    if item.get("type") != "function":
        raise where.error(f"only function tools can be loaded, got type "
                          f"{describe(item.get('type'))}", child(path, "type"))
    if "function" in item:
        raise where.error("the tool nests its fields under 'function' (the chat-completions "
                          "shape): load it with kind='openai'", child(path, "function"))
    return item, path


def _read(spec: dict, path: str, where: Where) -> ToolIR:
    strict = spec.get("strict")
    if strict is not None and not isinstance(strict, bool):
        raise where.error(f"'strict' must be a boolean or null, got {describe(strict)}",
                          child(path, "strict"))
    parameters = spec.get("parameters")
    params = () if parameters is None else json_schema_to_params(
        parameters, file=where.file, tool=where.tool, path=child(path, "parameters"))
    return ToolIR(name=spec["name"], description=where.opt_str(spec, "description", path),
                  params=params)


def from_responses(obj: Any, source: str = "<object>") -> Toolset:
    """Load Responses-API function tools.

    Parameters
    ----------
    obj : list or dict
        ``[{"type": "function", "name", "description", "parameters", "strict"}]``, or a
        Responses request body holding them under ``tools``. ``parameters`` and ``strict`` may
        be absent or null.
    source : str
        Label for errors and ``Toolset.source`` (a file path, or ``"<object>"``).

    Returns
    -------
    Toolset

    Raises
    ------
    LoaderError
        Naming file, tool and JSON path: a built-in tool (``web_search`` …) or a
        chat-completions tool in the list, a missing name, a non-boolean ``strict``, a bad
        schema.
    """
    return read_toolset(obj, source, (("tools",),),
                        "an array of Responses-API function tools or an object with 'tools'",
                        _unwrap, _read)


def _strict_type(t: TypeIR, tool: str, path: str) -> TypeIR:
    if t.kind == "any":
        raise InvalidParameterError(
            f"tool {tool!r}: {path} has no type, which strict mode cannot express")
    if t.kind == "object":
        if not t.fields:
            raise InvalidParameterError(
                f"tool {tool!r}: {path} is a free-form object, which strict mode "
                f"cannot express")
        return replace(t, fields=_strict_params(t.fields, tool, path), additional=False)
    if t.kind == "array" and t.items is not None:
        return replace(t, items=_strict_type(t.items, tool, f"{path}[]"))
    if t.kind == "union":
        return replace(t, options=tuple(_strict_type(o, tool, path) for o in t.options))
    return t


def _strict_params(params: tuple[ParamIR, ...], tool: str, path: str) -> tuple[ParamIR, ...]:
    out = []
    for p in params:
        t = _strict_type(p.type, tool, f"{path}.{p.name}")
        if not p.required:
            t = replace(t, nullable=True)
        out.append(ParamIR(p.name, t, p.description, required=True, title=p.title))
    return tuple(out)


def to_responses(toolset: Toolset, strict: bool = False) -> list[dict[str, Any]]:
    """Export as Responses-API function tools.

    Parameters
    ----------
    toolset : Toolset
        The tools.
    strict : bool, default False
        Write ``"strict": true`` and rewrite each schema into strict mode's form: all
        properties required, optional ones nullable, ``additionalProperties: false`` on every
        object, defaults dropped (a default has no use when every key must be sent).

    Returns
    -------
    list of dict
        ``[{"type": "function", "name", "description", "parameters", "strict"}]``. Tool titles
        and return types are dropped (the shape has no place for them).

    Raises
    ------
    ValueError
        With ``strict=True``, for a free-form object or an untyped value, which strict mode
        cannot express (the message names the tool and the parameter path).
    """
    out = []
    for tool in toolset:
        params = _strict_params(tool.params, tool.name, "$") if strict else tool.params
        out.append({"type": "function", "name": tool.name, "description": tool.description,
                    "parameters": replace(tool, params=params).input_schema()
                    | ({"additionalProperties": False} if strict else {}),
                    "strict": strict})
    return out
