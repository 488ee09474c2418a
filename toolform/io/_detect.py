"""``load_tools``: read a file (or take an object), tell its kind, and call that kind's loader;
``export_tools``/``save_tools``: the way back."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Callable

from .. import _jsontext as jsontext
from ..errors import LoaderError
from ..ir import Toolset
from ._ir import from_ir, to_ir
from ._jsonschema import Where, child, describe
from ._vendors import (TEXT_CHECKED, from_anthropic, from_bfcl, from_mcp, from_openai,
                       to_anthropic, to_mcp, to_openai)

__all__ = ["EXPORT_KINDS", "LOAD_KINDS", "detect_kind", "export_tools", "load_tools",
           "read_json", "save_tools"]

_LOADERS: dict[str, Callable[[Any, str], Toolset]] = {
    "anthropic": from_anthropic, "bfcl": from_bfcl, "ir": from_ir, "mcp": from_mcp,
    "openai": from_openai,
}
_EXPORTERS: dict[str, Callable[[Toolset], Any]] = {
    "anthropic": to_anthropic, "ir": to_ir, "mcp": to_mcp, "openai": to_openai,
}
#: Kinds :func:`load_tools` reads.
LOAD_KINDS = tuple(sorted(_LOADERS))
#: Kinds :func:`export_tools` writes (BFCL is import only).
EXPORT_KINDS = tuple(sorted(_EXPORTERS))


def read_json(path: str | os.PathLike[str]) -> Any:
    """Parse a UTF-8 JSON file (a byte-order mark is allowed).

    Raises
    ------
    LoaderError
        When the file cannot be read, is not UTF-8, is not one JSON document (the message
        gives line and column), or repeats a key within one object (the JSON path names it).
    """
    return _read_json_text(path)[0]


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _read_json_text(path: str | os.PathLike[str]) -> tuple[Any, bool]:
    """:func:`read_json`, and whether the text is free of escaped surrogates (then no string
    in it can hold a lone one)."""
    where = Where(os.fspath(path))
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise where.error("no such file", None) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        raise where.error(f"cannot read the file: {getattr(exc, 'strerror', None) or exc}",
                          None) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise where.error(f"not UTF-8 text (byte {exc.start})", "$") from None
    repeated: list[tuple[dict, str]] = []
    try:
        obj = json.loads(text, object_pairs_hook=lambda pairs: _object(pairs, repeated))
    except json.JSONDecodeError as exc:
        hint = " (JSON lines? load one line at a time)" if exc.msg == "Extra data" else ""
        raise where.error(f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}{hint}",
                          "$") from None
    except (ValueError, RecursionError) as exc:  # an integer past the digit limit; deep nesting
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise where.error(f"invalid JSON: {reason}", "$") from None
    if repeated:
        holder, key = repeated[0]
        path = _path_of(obj, holder) or "$"
        raise where.error(f"the key {key!r} appears twice in one object; JSON readers keep only "
                          "one of the two values (here the last), so the file says two things",
                          child(path, key))
    return obj, _SURROGATE_ESCAPE.search(text) is None


def _object(pairs: list[tuple[str, Any]], repeated: list[tuple[dict, str]]) -> dict:
    """A JSON object from its pairs, noting a key that comes twice."""
    obj = dict(pairs)
    if len(obj) != len(pairs) and not repeated:
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                repeated.append((obj, key))
                break
            seen.add(key)
    return obj


def _path_of(root: Any, target: dict) -> str | None:
    """The JSON path of the object ``target`` inside ``root``."""
    stack: list[tuple[Any, str]] = [(root, "$")]
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        if isinstance(node, dict):
            stack.extend((v, child(path, k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, child(path, i)) for i, v in enumerate(node))
    return None


def _item_kind(items: list | tuple) -> str | None:
    """The kind the first telling item of a tool list points at, or None."""
    for item in items:
        if not isinstance(item, dict):
            continue
        if "inputSchema" in item:
            return "mcp"
        if "input_schema" in item:
            return "anthropic"
        if "function" in item or item.get("type") == "function":
            return "openai"
        params = item.get("parameters")
        if isinstance(params, dict):
            return "bfcl" if params.get("type") == "dict" else "openai"
    return None


def detect_kind(obj: Any, file: str = "<object>") -> str:
    """Tell which kind of tool document ``obj`` is: one of :data:`LOAD_KINDS`.

    ``toolform_ir`` → ir; a ``function`` array (a BFCL question) → bfcl; an object with
    ``tools`` (also under a JSON-RPC ``result``) or a bare array → by its items:
    ``inputSchema`` → mcp, ``input_schema`` → anthropic, ``function`` or
    ``type: "function"`` → openai, ``parameters`` of BFCL type ``dict`` → bfcl, other
    ``parameters`` → openai; items with only names → openai. An empty list is openai, an
    empty ``tools`` array mcp (either loads as an empty toolset); a single BFCL document
    (``name`` and ``parameters`` of type ``dict``) is bfcl.

    Parameters
    ----------
    obj : object
        A parsed JSON document.
    file : str
        The file it came from, for the error.

    Returns
    -------
    str

    Raises
    ------
    LoaderError
        When nothing tells, naming what was seen.
    """
    if isinstance(obj, dict):
        if "toolform_ir" in obj:
            return "ir"
        if isinstance(obj.get("function"), list):
            return "bfcl"
        inner = obj.get("result") if isinstance(obj.get("result"), dict) else obj
        if "tools" in inner:  # the loader reports a "tools" that is not an array
            tools = inner["tools"]
            return (_item_kind(tools) if isinstance(tools, list) else None) or "mcp"
        if isinstance(obj.get("parameters"), dict) and obj["parameters"].get("type") == "dict":
            return "bfcl"
        seen = describe(obj)
    elif isinstance(obj, list):
        kind = _item_kind(obj)
        if kind is not None:
            return kind
        if all(isinstance(item, dict) and "name" in item for item in obj):
            return "openai"
        index, first = next((i, item) for i, item in enumerate(obj)
                            if not isinstance(item, dict) or "name" not in item)
        seen = f"an array whose item {index} is {describe(first)}"
    else:
        seen = describe(obj)
    raise LoaderError(f"cannot tell what kind of tools this is: saw {seen}; expected OpenAI, "
                      "Anthropic or BFCL tools (an array), an MCP tools/list result, or IR JSON",
                      file=file, path="$")


def load_tools(source: str | os.PathLike[str] | dict | list, kind: str | None = None) -> Toolset:
    """Load a toolset from a JSON file or a parsed object, of any supported kind.

    Parameters
    ----------
    source : str, path-like, dict or list
        A path to a JSON file (a ``str`` is always a path, never JSON text), or an
        already-parsed object.
    kind : {"openai", "anthropic", "mcp", "bfcl", "ir"}, optional
        The document's kind; detected when None (see :func:`detect_kind`).

    Returns
    -------
    Toolset
        With ``source`` set to the path (or ``"<object>"``), and ``warnings`` holding a
        :class:`~toolform.errors.LoaderWarning` for each thing that loaded but was probably
        not meant (codes: ``required-not-declared``, ``default-wrong-type``,
        ``oneof-overlap``, ``allof-closed-object``, ``enum-empty``, ``params-union-merged``,
        ``name-rejected-by-providers``; see
        ``toolform/io/_jsonschema.py``).

    Raises
    ------
    LoaderError
        For a missing or unreadable file, invalid JSON, an unknown ``kind``, an undetectable
        kind, or any malformed tool; it names the file, the tool and the JSON path. No other
        exception leaves this function.
    """
    checked = False
    if isinstance(source, (str, os.PathLike)):
        file = os.fspath(source)
        obj, checked = _read_json_text(source)
    elif isinstance(source, (dict, list)):
        file, obj = "<object>", source
    else:
        raise LoaderError(f"source must be a path, a dict or a list, got {describe(source)}",
                          file="<object>")
    if kind is None:
        kind = detect_kind(obj, file)
    loader = _LOADERS.get(kind) if isinstance(kind, str) else None
    if loader is None:
        raise LoaderError(f"unknown tools kind {kind!r}; kinds: {', '.join(LOAD_KINDS)}", file=file)
    token = TEXT_CHECKED.set(checked)
    try:
        return loader(obj, file)
    finally:
        TEXT_CHECKED.reset(token)


def export_tools(toolset: Toolset, kind: str) -> Any:
    """Export a toolset as a JSON-ready object.

    Parameters
    ----------
    toolset : Toolset
    kind : {"openai", "anthropic", "mcp", "ir"}
        ``openai`` and ``anthropic`` drop tool titles and return types (no place for them);
        ``mcp`` and ``ir`` keep everything the IR holds.

    Returns
    -------
    list or dict
        A list of tools (openai, anthropic) or an object (mcp, ir).

    Raises
    ------
    LoaderError
        For a kind that cannot be written (``bfcl`` is import only).
    """
    exporter = _EXPORTERS.get(kind) if isinstance(kind, str) else None
    if exporter is None:
        raise LoaderError(f"cannot export tools as {kind!r}; kinds: {', '.join(EXPORT_KINDS)}")
    return exporter(toolset)


def save_tools(toolset: Toolset, path: str | os.PathLike[str], kind: str = "ir") -> None:
    """Write :func:`export_tools` output as UTF-8 JSON (2-space indent, trailing newline).

    Raises
    ------
    LoaderError
        For a kind that cannot be written.
    OSError
        When the file cannot be written.
    """
    # a lone surrogate (a name a live MCP server sent) is written as its \uXXXX escape
    text = jsontext.dumps(export_tools(toolset, kind), indent=2)
    Path(path).write_text(text + "\n", encoding="utf-8")
