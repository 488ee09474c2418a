"""Loaders and exporters for the vendors' tool shapes: OpenAI, Anthropic, MCP; BFCL import only.

Every loader goes through :func:`read_toolset`, which finds the list of tools, checks each tool's
name (present, a non-empty string, not a duplicate) and hands the rest to the shape's reader, so
errors name the file, the tool and the JSON path the same way for every vendor.

What each export keeps: OpenAI and Anthropic tools have no place for a tool's ``title`` or return
type, so :func:`to_openai` and :func:`to_anthropic` drop them; :func:`to_mcp` keeps both
(``title``, ``outputSchema``). Nothing else is lost.
"""

from __future__ import annotations

import contextvars
import json
import re
from typing import Any, Callable, Mapping

from ..ir import ToolIR, Toolset
from ._jsonschema import BFCL_TYPES, JSON_TYPES, SchemaReader, Where, child, describe

__all__ = [
    "PROVIDER_NAME",
    "TEXT_CHECKED",
    "as_is",
    "check_text",
    "check_tool_name",
    "from_anthropic",
    "from_bfcl",
    "from_mcp",
    "from_openai",
    "read_toolset",
    "to_anthropic",
    "to_mcp",
    "to_openai",
]

_ToolReader = Callable[[dict, str, Where], ToolIR]


def _find_tools(obj: Any, where: Where, wrappers: tuple[tuple[str, ...], ...], expected: str,
                single: bool = False) -> list[tuple[Any, str]]:
    """The tools in ``obj``, each with its JSON path: ``obj``'s items when it is a list, else the
    items of the first of ``wrappers`` (key paths such as ``("result", "tools")``) present, else
    ``obj`` itself when ``single`` and it has a ``name``."""
    if isinstance(obj, dict):
        for keys in wrappers:
            node, path = obj, "$"
            for key in keys:
                node = node.get(key) if isinstance(node, dict) else None
                path = child(path, key)
            if node is not None:
                items = where.want_list(node, path, "the tools")
                return [(item, child(path, i)) for i, item in enumerate(items)]
        if single and "name" in obj:
            return [(obj, "$")]
    if isinstance(obj, (list, tuple)):
        return [(item, child("$", i)) for i, item in enumerate(obj)]
    raise where.error(f"expected {expected}, got {describe(obj)}", "$")


def read_toolset(obj: Any, source: str, wrappers: tuple[tuple[str, ...], ...], expected: str,
                  unwrap: Callable[[dict, str, Where], tuple[dict, str]],
                  read: _ToolReader, single: bool = False) -> Toolset:
    """Read every tool of ``obj`` with ``read``; the one loop all vendor loaders share.

    ``unwrap`` maps a list item to the object that holds the tool's name (OpenAI nests it under
    ``function``); ``read`` builds the :class:`ToolIR` from that object, its path and a
    :class:`Where` that names the tool.
    """
    source = str(source)
    top = Where(source, sink=[])
    seen: dict[str, str] = {}
    tools = []
    for index, (item, item_path) in enumerate(_find_tools(obj, top, wrappers, expected, single)):
        anonymous = top.for_tool(f"#{index}")
        item = anonymous.want_dict(item, item_path, "a tool")
        if not TEXT_CHECKED.get():
            check_text(anonymous, item, item_path)
        spec, spec_path = unwrap(item, item_path, anonymous)
        name_path = child(spec_path, "name")
        if "name" not in spec:
            raise anonymous.error("the tool has no 'name'", name_path)
        name = spec["name"]
        if not isinstance(name, str) or not name.strip():
            raise anonymous.error(f"a tool name must be a non-empty string, got {describe(name)}",
                                  name_path)
        where = top.for_tool(name)
        if name in seen:
            raise where.error(f"duplicate tool name {name!r} (first at {seen[name]})", name_path)
        seen[name] = name_path
        check_tool_name(where, name, name_path)
        tools.append(read(spec, spec_path, where))
    # a definition used in several places is read (and reported) once per place: once is enough
    found = {(w.code, w.tool, w.path, w.reason): w for w in top.sink or ()}
    return Toolset(tools=tuple(tools), source=source, warnings=tuple(found.values()))


#: True while a loader reads an object parsed from JSON text that holds no ``\\uD800``-style
#: escape: such an object cannot hold a lone surrogate (UTF-8 decoding never makes one), so
#: :func:`check_text` is skipped.
TEXT_CHECKED: contextvars.ContextVar[bool] = contextvars.ContextVar("TEXT_CHECKED", default=False)

#: Tool names OpenAI's and Anthropic's APIs accept.
PROVIDER_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")


def check_tool_name(where: Where, name: str, path: str) -> None:
    """Warn (``name-rejected-by-providers``) when ``name`` is outside
    ``^[a-zA-Z0-9_-]{1,64}$``: a tool the OpenAI and Anthropic APIs would refuse to take."""
    if PROVIDER_NAME.fullmatch(name) is None:
        bad = sorted({ch for ch in name if not (ch.isascii() and (ch.isalnum() or ch in "_-"))})
        why = (f"{len(name)} characters" if len(name) > 64 else
               "the characters " + " ".join(repr(ch) for ch in bad[:8]))
        where.warn("name-rejected-by-providers",
                   f"the tool name {name!r} has {why}; the OpenAI and Anthropic APIs accept only "
                   "^[a-zA-Z0-9_-]{1,64}$ and refuse the request (the native protocol cannot "
                   "offer this tool)", path)


def check_text(where: Where, item: Any, path: str) -> None:
    """Raise when a string anywhere in ``item`` holds a lone surrogate (``"\\ud800"`` in JSON
    text): it is not Unicode text, and no UTF-8 writer (a cassette, a request body) can
    write it."""
    try:
        json.dumps(item, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        pass
    except (TypeError, ValueError):  # not JSON at all: the reader says where
        return
    else:
        return
    stack: list[tuple[Any, str]] = [(item, path)]
    while stack:
        value, at = stack.pop()
        if isinstance(value, str):
            found = _SURROGATE.search(value)
            if found:
                raise where.error(f"the string {json.dumps(value[:40])} holds a lone surrogate "
                                  f"(U+{ord(found.group()):04X}), which is not Unicode text", at)
        elif isinstance(value, dict):
            for key, inner in value.items():
                if isinstance(key, str) and _SURROGATE.search(key):
                    raise where.error(f"the key {json.dumps(key[:40])} holds a lone surrogate, "
                                      "which is not Unicode text", at)
                stack.append((inner, child(at, key) if isinstance(key, str) else at))
        elif isinstance(value, (list, tuple)):
            stack.extend((inner, child(at, i)) for i, inner in enumerate(value))


_SURROGATE = re.compile("[\ud800-\udfff]")


def as_is(item: dict, path: str, where: Where) -> tuple[dict, str]:
    """The item itself holds the tool (no nesting as in OpenAI's ``function``)."""
    return item, path


def _tool(spec: dict, path: str, where: Where, schema_key: str | None, *,
          types: Mapping[str, str] = JSON_TYPES, returns_key: str | None = None,
          title: str = "") -> ToolIR:
    """A :class:`ToolIR` from a name/description/schema object.

    ``schema_key`` names the parameters schema; None means it may be absent (no parameters).
    """
    key = schema_key or "parameters"
    names: dict = {}  # one name, one recursive type, across the input and output schemas
    if key in spec:
        params = SchemaReader(spec[key], child(path, key), where, types, names).read_params()
    elif schema_key is not None:
        raise where.error(f"the tool has no '{key}'", child(path, key))
    else:
        params = ()
    returns = None
    if returns_key is not None and returns_key in spec:
        returns_path = child(path, returns_key)
        returns = SchemaReader(spec[returns_key], returns_path, where, types, names).read_type()
    return ToolIR(name=spec["name"], description=where.opt_str(spec, "description", path),
                  params=params, returns=returns, title=title)


# -- OpenAI ------------------------------------------------------------------------------------
def _openai_unwrap(item: dict, path: str, where: Where) -> tuple[dict, str]:
    if "type" in item and item["type"] != "function":
        raise where.error(f"only function tools can be loaded, got type {describe(item['type'])}",
                          child(path, "type"))
    if "function" in item:
        inner_path = child(path, "function")
        return where.want_dict(item["function"], inner_path, "'function'"), inner_path
    return item, path


def _openai_tool(spec: dict, path: str, where: Where) -> ToolIR:
    if "parameters" not in spec:
        for other, kind in (("inputSchema", "mcp"), ("input_schema", "anthropic")):
            if other in spec:
                raise where.error(f"the tool has '{other}' but no 'parameters': load it with "
                                  f"kind={kind!r}", child(path, other))
    return _tool(spec, path, where, None)


def from_openai(obj: Any, source: str = "<object>") -> Toolset:
    """Load OpenAI tools.

    Parameters
    ----------
    obj : list or dict
        Chat-completions tools (``[{"type": "function", "function": {name, description,
        parameters}}]``), bare function objects (``[{name, description, parameters}]``, also the
        Responses API's flat ``{"type": "function", "name": ...}``), or a request body holding
        them under ``tools`` or ``functions``. ``parameters`` may be absent (no parameters).
    source : str
        Label for errors and ``Toolset.source`` (a file path, or ``"<object>"``).

    Returns
    -------
    Toolset

    Raises
    ------
    LoaderError
        Naming file, tool and JSON path, for any malformed input.
    """
    return read_toolset(obj, source, (("tools",), ("functions",)),
                         "an array of OpenAI tools or an object with a 'tools' array",
                         _openai_unwrap, _openai_tool)


def to_openai(toolset: Toolset) -> list[dict[str, Any]]:
    """Export as chat-completions tools: ``[{"type": "function", "function": {...}}]``.

    Tool titles and return types are dropped (OpenAI tools have no place for them).
    """
    return [{"type": "function",
             "function": {"name": t.name, "description": t.description,
                          "parameters": t.input_schema()}} for t in toolset]


# -- Anthropic ---------------------------------------------------------------------------------
def from_anthropic(obj: Any, source: str = "<object>") -> Toolset:
    """Load Anthropic tools: ``[{"name", "description", "input_schema"}]``.

    Parameters
    ----------
    obj : list or dict
        The tools, or a Messages request body holding them under ``tools``.
        ``input_schema`` is required, as in the API.
    source : str
        Label for errors and ``Toolset.source``.

    Returns
    -------
    Toolset

    Raises
    ------
    LoaderError
        Naming file, tool and JSON path, for any malformed input.
    """
    return read_toolset(obj, source, (("tools",),),
                         "an array of Anthropic tools or an object with a 'tools' array",
                         as_is, lambda spec, path, where: _tool(spec, path, where, "input_schema"))


def to_anthropic(toolset: Toolset) -> list[dict[str, Any]]:
    """Export as Anthropic tools: ``[{"name", "description", "input_schema"}]``.

    Tool titles and return types are dropped (Anthropic tools have no place for them).
    """
    return [{"name": t.name, "description": t.description, "input_schema": t.input_schema()}
            for t in toolset]


# -- MCP ---------------------------------------------------------------------------------------
def _mcp_tool(spec: dict, path: str, where: Where) -> ToolIR:
    title = where.opt_str(spec, "title", path)
    if not title and "annotations" in spec:  # the older place for a display title
        annotations_path = child(path, "annotations")
        annotations = where.want_dict(spec["annotations"], annotations_path, "annotations")
        title = where.opt_str(annotations, "title", annotations_path)
    return _tool(spec, path, where, "inputSchema", returns_key="outputSchema", title=title)


def from_mcp(obj: Any, source: str = "<object>") -> Toolset:
    """Load MCP tools from a ``tools/list`` result.

    Parameters
    ----------
    obj : dict or list
        ``{"tools": [{name, title?, description, inputSchema, outputSchema?, annotations?}]}``,
        also wrapped as a JSON-RPC response (``{"result": {"tools": ...}}``) or with the capture
        keys of ``shared/real/mcp`` (``server``, ``version``...), or the bare list of tools.
        ``title`` (or ``annotations.title``) becomes ``ToolIR.title``, ``outputSchema``
        ``ToolIR.returns``; other annotations are not kept.
    source : str
        Label for errors and ``Toolset.source``.

    Returns
    -------
    Toolset

    Raises
    ------
    LoaderError
        Naming file, tool and JSON path, for any malformed input.
    """
    return read_toolset(obj, source, (("tools",), ("result", "tools")),
                         "an MCP tools/list result (an object with a 'tools' array)",
                         as_is, _mcp_tool)


def to_mcp(toolset: Toolset) -> dict[str, Any]:
    """Export as an MCP ``tools/list`` result: ``{"tools": [...]}`` with ``inputSchema``, and
    ``title`` and ``outputSchema`` (from ``ToolIR.returns``) where set."""
    tools = []
    for t in toolset:
        tool: dict[str, Any] = {"name": t.name}
        if t.title:
            tool["title"] = t.title
        tool["description"] = t.description
        tool["inputSchema"] = t.input_schema()
        if t.returns is not None:
            tool["outputSchema"] = t.returns.to_json_schema()
        tools.append(tool)
    return {"tools": tools}


# -- BFCL --------------------------------------------------------------------------------------
def _bfcl_tool(spec: dict, path: str, where: Where) -> ToolIR:
    return _tool(spec, path, where, None, types=BFCL_TYPES, returns_key="response")


def from_bfcl(obj: Any, source: str = "<object>") -> Toolset:
    """Load BFCL (Berkeley Function Calling Leaderboard) function documents. Import only.

    Parameters
    ----------
    obj : list or dict
        A list of function documents (``{"name", "description", "parameters": {"type": "dict",
        "properties": ..., "required": [...]}}``), one such document, or a BFCL question line
        (``{"id", "question", "function": [...]}``). BFCL type names map to IR kinds as
        ``dict``/``HashMap`` → object, ``float``/``double`` → number, ``long`` → integer,
        ``tuple``/``Array``/``ArrayList`` → array, ``String``/``char`` → string,
        ``Boolean`` → boolean, ``any`` → any, besides the JSON Schema names. A document's
        ``response`` schema becomes ``ToolIR.returns``.
    source : str
        Label for errors and ``Toolset.source``.

    Returns
    -------
    Toolset

    Raises
    ------
    LoaderError
        Naming file, tool and JSON path, for any malformed input.
    """
    return read_toolset(obj, source, (("function",),),
                         "BFCL function documents (an array, or a question with 'function')",
                         as_is, _bfcl_tool, single=True)
