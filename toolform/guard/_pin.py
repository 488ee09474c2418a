"""Pinning: one hash per tool definition, so a definition that changes after approval is caught.

A lockfile is JSON::

    {"toolform_pin": 1, "tools": {"<tool name>": "<sha256 hex>", ...}}

where each hash is the SHA-256 of the tool's IR dict (``ToolIR.to_dict()``) written as canonical
JSON: keys sorted, no spaces, UTF-8, no NaN. Anything a model can read about the tool (name,
title, description, every parameter's name, type, description, title, default, enum values,
requiredness, the return type) is in that dict, so changing any of it changes the hash.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ..errors import InvalidParameterError, LoaderError
from ..ir import ToolIR, Toolset

__all__ = ["PIN_VERSION", "PinReport", "pin", "read_lockfile", "tool_hash", "verify",
           "write_lockfile"]

#: The lockfile format version written under ``"toolform_pin"``.
PIN_VERSION = 1

_HEX64 = frozenset("0123456789abcdef")


def tool_hash(tool: ToolIR) -> str:
    """SHA-256 (hex) of ``tool``'s IR dict as canonical JSON.

    Raises
    ------
    ValueError
        When the tool holds a value JSON cannot write (NaN, infinity, a non-JSON object).
    """
    try:
        text = json.dumps(tool.to_dict(), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidParameterError(f"tool {tool.name!r} cannot be pinned: {exc}") from exc
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def pin(toolset: Toolset) -> dict[str, Any]:
    """The lockfile of ``toolset``: one hash per tool.

    Returns
    -------
    dict
        ``{"toolform_pin": 1, "tools": {name: sha256 hex}}`` with tools in toolset order.
    """
    return {"toolform_pin": PIN_VERSION, "tools": {t.name: tool_hash(t) for t in toolset}}


def write_lockfile(toolset: Toolset, path: str | os.PathLike[str]) -> Path:
    """Write :func:`pin` of ``toolset`` to ``path`` (UTF-8 JSON, indented) and return the path."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(pin(toolset), indent=2, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    return out


def _check(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise LoaderError("a lockfile must be a JSON object", file=where, path="$")
    if data.get("toolform_pin") != PIN_VERSION:
        raise LoaderError(f"not a toolform lockfile of version {PIN_VERSION} "
                          f"(toolform_pin is {data.get('toolform_pin')!r})", file=where,
                          path="$.toolform_pin")
    tools = data.get("tools")
    if not isinstance(tools, Mapping):
        raise LoaderError("tools must be an object of name -> sha256", file=where, path="$.tools")
    for name, digest in tools.items():
        if not (isinstance(digest, str) and len(digest) == 64 and set(digest) <= _HEX64):
            raise LoaderError(f"hash must be 64 lower-case hex digits, got {digest!r}",
                              file=where, tool=name, path=f"$.tools[{json.dumps(name)}]")
    return dict(data)


def read_lockfile(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and check a lockfile written by :func:`write_lockfile`.

    Raises
    ------
    toolform.errors.LoaderError
        When the file is missing, is not JSON, or is not a version-1 lockfile (the message
        names the file and the JSON path).
    """
    where = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LoaderError("lockfile not found", file=where) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise LoaderError(f"lockfile is not valid JSON: {exc}", file=where) from None
    return _check(data, where)


@dataclass(frozen=True)
class PinReport:
    """How a toolset differs from its lockfile.

    Parameters
    ----------
    changed : tuple of str
        Tools in both whose definition hash differs (a description edited after approval...).
    added : tuple of str
        Tools in the toolset but not in the lockfile.
    removed : tuple of str
        Tools in the lockfile but not in the toolset.
    """

    changed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when nothing changed, was added or was removed."""
        return not (self.changed or self.added or self.removed)

    def summary(self) -> str:
        """One line, e.g. ``pin: 1 changed (notify), 0 added, 0 removed``."""
        if self.ok:
            return "pin: OK"
        parts = []
        for label, names in (("changed", self.changed), ("added", self.added),
                             ("removed", self.removed)):
            shown = f" ({', '.join(names)})" if names else ""
            parts.append(f"{len(names)} {label}{shown}")
        return "pin: " + ", ".join(parts)


def verify(toolset: Toolset, lockfile: Mapping[str, Any] | str | os.PathLike[str]) -> PinReport:
    """Compare ``toolset`` with a lockfile.

    Parameters
    ----------
    toolset : Toolset
        The tools as the server lists them now.
    lockfile : dict or path
        A :func:`pin` result or a file written by :func:`write_lockfile`.

    Returns
    -------
    PinReport
        Changed and added tools in toolset order, removed ones in lockfile order.

    Raises
    ------
    toolform.errors.LoaderError
        When the lockfile cannot be read or is malformed.
    """
    locked = (_check(lockfile, "<lockfile>") if isinstance(lockfile, Mapping)
              else read_lockfile(lockfile))["tools"]
    now = pin(toolset)["tools"]
    return PinReport(
        changed=tuple(n for n in now if n in locked and locked[n] != now[n]),
        added=tuple(n for n in now if n not in locked),
        removed=tuple(n for n in locked if n not in now),
    )
