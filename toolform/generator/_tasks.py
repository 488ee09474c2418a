"""Requests with gold calls: fill each phrasing's slots with seeded values.

A phrasing (``Ask``) such as ``"Give me the {days}-day forecast for {city}."`` names argument
paths in braces. For one request the generator draws a value for every slot, writes the text,
and builds the gold call from the slot values plus the phrasing's fixed values. The draw uses a
``random.Random`` seeded by ``(seed, tool, phrasing, sample)``, so a request does not change when
other tools or phrasings are added.
"""

from __future__ import annotations

import random
import re
from typing import Any

from ..errors import InvalidParameterError
from ..ir import ToolCall, TypeIR
from ._domains import DOMAINS
from ._pools import POOLS, RECORDS
from ._spec import Ask, ToolSpec

_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.\[\]]*)\}")
_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[0-9]+\])*")
_TOKEN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)|\[([0-9]+)\]")
_FORMAT_POOLS = {"date": "date", "date-time": "datetime", "email": "email", "uri": "url"}

Path = tuple[Any, ...]


def parse_path(path: str) -> Path:
    """``"items[1].sku"`` → ``("items", 1, "sku")``.

    Raises
    ------
    ValueError
        When the path is not names joined by dots with optional ``[index]`` parts.
    """
    if not _PATH.fullmatch(path):
        raise InvalidParameterError(f"bad argument path {path!r}")
    return tuple(m.group(1) if m.group(1) else int(m.group(2)) for m in _TOKEN.finditer(path))


def _pool_key(path: Path) -> str:
    out = ""
    for tok in path:
        out += "[]" if isinstance(tok, int) else (f".{tok}" if out else tok)
    return out


def resolve_type(root: TypeIR, path: Path) -> TypeIR:
    """The type at ``path`` inside the object type ``root``; a field name inside a union picks
    the object option that has that field.

    Raises
    ------
    ValueError
        When the path does not exist in the type.
    """
    t = root
    for tok in path:
        if isinstance(tok, int):
            if t.kind != "array" or t.items is None:
                raise InvalidParameterError(f"index [{tok}] into a {t.kind}")
            t = t.items
            continue
        candidates = [t] if t.kind == "object" else [o for o in t.options if o.kind == "object"]
        field = next((f for c in candidates for f in c.fields if f.name == tok), None)
        if field is None:
            raise InvalidParameterError(f"no field {tok!r} here")
        t = field.type
    return t


def _table_values(spec: ToolSpec, ref: str) -> tuple[Any, ...]:
    table, column = ref.split(".", 1)
    for dom in DOMAINS:
        if table in dom.tables:
            return tuple(dict.fromkeys(r[column] for r in dom.tables[table] if column in r))
    raise InvalidParameterError(f"tool {spec.tool.name}: pool {ref!r} names no state table")


def _pool_for(spec: ToolSpec, path: Path, leaf: TypeIR) -> tuple[Any, ...] | None:
    names = [spec.pools.get(_pool_key(path)), spec.pools.get(str(path[-1]))]
    for name in names:
        if name is None:
            continue
        if name in POOLS:
            return POOLS[name]
        if "." in name:
            return _table_values(spec, name)
        raise InvalidParameterError(f"tool {spec.tool.name}: unknown pool {name!r}")
    if str(path[-1]) in POOLS:
        return POOLS[str(path[-1])]
    scalar = leaf.items if leaf.kind == "array" and leaf.items is not None else leaf
    if scalar.kind == "string" and scalar.format in _FORMAT_POOLS:
        return POOLS[_FORMAT_POOLS[scalar.format]]
    if scalar.kind == "enum":
        return scalar.values
    if scalar.kind == "boolean":
        return (True, False)
    if scalar.kind == "integer" and scalar.minimum is not None and scalar.maximum is not None \
            and scalar.maximum - scalar.minimum <= 50:
        return tuple(range(int(scalar.minimum), int(scalar.maximum) + 1))
    return None


def _draw(rng: random.Random, pool: tuple[Any, ...], used: set[Any]) -> Any:
    fresh = [v for v in pool if v not in used]
    value = rng.choice(fresh or list(pool))
    used.add(value)
    return value


def _record_value(spec: ToolSpec, ref: str, path: Path, rng: random.Random,
                  rows: dict[tuple[Any, ...], dict[str, Any]]) -> Any:
    name, column = ref.split(":", 1)
    if name not in RECORDS or column not in RECORDS[name][0]:
        raise InvalidParameterError(f"tool {spec.tool.name}: unknown record column {ref!r}")
    # top-level slots share one row; nested ones share it per top-level parameter and index
    group = (name, *(path[:1] + tuple(t for t in path if isinstance(t, int)))) \
        if len(path) > 1 else (name,)
    if group not in rows:
        taken = [r for g, r in rows.items() if g[0] == name]
        fresh = [r for r in RECORDS[name] if r not in taken]
        rows[group] = rng.choice(fresh or list(RECORDS[name]))
    return rows[group][column]


def _slot_value(spec: ToolSpec, path: Path, rng: random.Random,
                used: dict[tuple[Any, ...], set[Any]],
                rows: dict[tuple[Any, ...], dict[str, Any]]) -> Any:
    ref = spec.pools.get(_pool_key(path)) or spec.pools.get(str(path[-1])) or ""
    if ":" in ref:
        return _record_value(spec, ref, path, rng, rows)
    leaf = resolve_type(spec.tool.input_type, path)
    pool = _pool_for(spec, path, leaf)
    if pool is None:
        raise InvalidParameterError(
            f"tool {spec.tool.name}: no value pool for slot {_pool_key(path)!r}")
    seen = used.setdefault(pool, set())
    if leaf.kind == "array":
        count = max(leaf.min_items or 1, 2 if len(pool) > 2 else 1)
        return [_draw(rng, pool, seen) for _ in range(count)]
    return _draw(rng, pool, seen)


def _put(target: dict[str, Any], path: Path, value: Any) -> None:
    node: Any = target
    for tok, nxt in zip(path, (*path[1:], None)):
        if isinstance(node, list):
            node.extend([None] * (tok + 1 - len(node)))
        if nxt is None:
            node[tok] = value
            return
        if (node[tok] if isinstance(node, list) else node.get(tok)) is None:
            node[tok] = [] if isinstance(nxt, int) else {}
        node = node[tok]


def _has_gap(value: Any) -> bool:
    if isinstance(value, list):
        return any(v is None or _has_gap(v) for v in value)
    if isinstance(value, dict):
        return any(_has_gap(v) for v in value.values())
    return False


def say(value: Any) -> str:
    """How a slot value reads inside a sentence (lists as "a, b and c")."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, list):
        words = [say(v) for v in value]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return str(value)


def fill(spec: ToolSpec, ask: Ask, rng: random.Random) -> tuple[str, ToolCall]:
    """Draw the slot values of ``ask`` and return the request text and the gold call.

    Raises
    ------
    ValueError
        When a slot or fixed path does not exist in the tool, has no value pool, overlaps
        another, or leaves a hole in an array.
    """
    slots = slot_paths(ask)
    overlap = set(slots) & set(ask.fixed)
    if overlap:
        raise InvalidParameterError(f"tool {spec.tool.name}: {sorted(overlap)} both slot and fixed")
    used: dict[tuple[Any, ...], set[Any]] = {}
    rows: dict[tuple[Any, ...], dict[str, Any]] = {}
    values = {slot: _slot_value(spec, parse_path(slot), rng, used, rows) for slot in slots}
    arguments: dict[str, Any] = {}
    for path, value in [*values.items(), *ask.fixed.items()]:
        resolve_type(spec.tool.input_type, parse_path(path))
        _put(arguments, parse_path(path), value)
    if _has_gap(arguments):
        raise InvalidParameterError(
            f"tool {spec.tool.name}: phrasing {ask.text!r} leaves an array hole")
    text = _SLOT.sub(lambda m: say(values[m.group(1)]), ask.text)
    return text, ToolCall(spec.tool.name, arguments)


def phrasing_rng(seed: int, tool: str, ask_index: int, sample: int) -> random.Random:
    """The random source of one request (independent of every other request)."""
    return random.Random(f"{seed}/{tool}/{ask_index}/{sample}")


def slot_paths(ask: Ask) -> list[str]:
    """The slot paths of a phrasing, in order of first use."""
    return list(dict.fromkeys(_SLOT.findall(ask.text)))
