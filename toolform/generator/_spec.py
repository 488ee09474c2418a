"""The vocabulary the domain data is written in: tool specs, effects, phrasings.

A :class:`ToolSpec` is a tool (plain IR) plus what the generator needs around it: the effect its
executor has on the in-memory state, the natural phrasings of a request for it, and where the
values of each slot come from. The short helpers (``s``, ``i``, ``e``, ``obj`` …) keep the domain
tables in ``_domains.py`` readable as data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..errors import InvalidParameterError
from ..ir import NO_DEFAULT, ParamIR, ToolIR, TypeIR

#: Effect actions an executor knows.
ACTIONS = ("read", "create", "update", "delete")
#: Phrasing styles of a request.
STYLES = ("clear", "vague")


@dataclass(frozen=True)
class Effect:
    """What a tool's executor does to the in-memory state.

    Parameters
    ----------
    action : str
        ``read`` (select rows, change nothing), ``create`` (add a row), ``update`` (change the
        row whose key matches) or ``delete`` (remove it).
    table : str
        The state table acted on.
    keys : tuple of str
        Top-level arguments that select rows: filters for ``read``, the row key (first entry)
        for ``update`` and ``delete``.
    sets : mapping
        Columns an ``update`` always writes besides the arguments (``{"status": "cancelled"}``).
    """

    action: str
    table: str
    keys: tuple[str, ...] = ()
    sets: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise InvalidParameterError(
                f"effect action must be one of {ACTIONS}, got {self.action!r}")
        if self.action in ("update", "delete") and not self.keys:
            raise InvalidParameterError(f"a {self.action} effect needs a key argument")


@dataclass(frozen=True)
class Ask:
    """One phrasing of a request for a tool.

    Parameters
    ----------
    style : str
        ``clear`` (names what to do and every value plainly) or ``vague`` (indirect wording).
    text : str
        The request with ``{slot}`` placeholders; a slot is an argument path such as ``city``,
        ``shipping.address.city`` or ``items[1].sku``. Each slot's value is drawn from a pool
        and written into the gold call at that path.
    fixed : mapping of str to Any
        Argument paths whose gold value the wording itself fixes ("in Fahrenheit" →
        ``{"units": "imperial"}``).
    """

    style: str
    text: str
    fixed: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.style not in STYLES:
            raise InvalidParameterError(f"ask style must be one of {STYLES}, got {self.style!r}")


@dataclass(frozen=True)
class ToolSpec:
    """A generated tool with its effect, phrasings and value pools.

    Parameters
    ----------
    tool : ToolIR
        The tool as every format shows it.
    domain : str
        The key of the domain it belongs to.
    effect : Effect
        What its executor does.
    asks : tuple of Ask
        Phrasings of requests that call it.
    pools : mapping of str to str
        Slot path (indices written ``[]``) or parameter name → pool name, where the default
        (the parameter's own name, then its type) does not fit.
    """

    tool: ToolIR
    domain: str
    effect: Effect
    asks: tuple[Ask, ...] = ()
    pools: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Domain:
    """A service area: its tools and the rows its state starts with.

    Parameters
    ----------
    key : str
        Short id (``"weather"``).
    service : str
        The service's display name (``"SkyCast Weather"``).
    tools : tuple of ToolSpec
        Its tools in declaration order.
    tables : mapping of str to tuple of dict
        Initial state rows by table name.
    """

    key: str
    service: str
    tools: tuple[ToolSpec, ...]
    tables: Mapping[str, tuple[Mapping[str, Any], ...]] = field(default_factory=dict)


# -- compact constructors for the data module -------------------------------------------------

def string(**constraints: Any) -> TypeIR:
    """A string type (``format``, ``pattern``, lengths as keywords)."""
    return TypeIR("string", **constraints)


def integer(minimum: float | None = None, maximum: float | None = None) -> TypeIR:
    """An integer type with optional bounds."""
    return TypeIR("integer", minimum=minimum, maximum=maximum)


def number(minimum: float | None = None, maximum: float | None = None) -> TypeIR:
    """A number type with optional bounds."""
    return TypeIR("number", minimum=minimum, maximum=maximum)


def boolean() -> TypeIR:
    """A boolean type."""
    return TypeIR("boolean")


def enum(*values: Any) -> TypeIR:
    """An enum of the given values."""
    return TypeIR("enum", values=values)


def array_of(items: TypeIR, **constraints: Any) -> TypeIR:
    """An array of ``items`` (``min_items``/``max_items`` as keywords)."""
    return TypeIR("array", items=items, **constraints)


def object_of(*fields: ParamIR) -> TypeIR:
    """An object with the given fields and no other keys."""
    return TypeIR("object", fields=fields, additional=False)


def union(*options: TypeIR) -> TypeIR:
    """A union of the given types."""
    return TypeIR("union", options=options)


def param(name: str, type_: TypeIR, description: str, default: Any = NO_DEFAULT,
      optional: bool = False) -> ParamIR:
    """A parameter; giving a ``default`` or ``optional=True`` makes it optional."""
    return ParamIR(name, type_, description, required=not optional and default is NO_DEFAULT,
                   default=default)


def clear(text: str, fixed: Mapping[str, Any] | None = None) -> Ask:
    """A clear phrasing."""
    return Ask("clear", text, dict(fixed or {}))


def vague(text: str, fixed: Mapping[str, Any] | None = None) -> Ask:
    """A vague phrasing."""
    return Ask("vague", text, dict(fixed or {}))


def read(table: str, *keys: str) -> Effect:
    """A read effect filtering ``table`` on ``keys``."""
    return Effect("read", table, keys)


def create(table: str) -> Effect:
    """A create effect adding a row to ``table``."""
    return Effect("create", table)


def update(table: str, key: str, **sets: Any) -> Effect:
    """An update effect on the row of ``table`` whose ``key`` matches."""
    return Effect("update", table, (key,), sets)


def delete(table: str, key: str) -> Effect:
    """A delete effect removing the row of ``table`` whose ``key`` matches."""
    return Effect("delete", table, (key,))


def tool(name: str, description: str, params: list[ParamIR], effect: Effect, asks: list[Ask],
         pools: Mapping[str, str] | None = None) -> ToolSpec:
    """A tool spec; the domain key is filled in by :func:`domain`."""
    return ToolSpec(ToolIR(name, description, tuple(params)), "", effect, tuple(asks),
                    dict(pools or {}))


def domain(key: str, service: str, tools: list[ToolSpec],
           tables: Mapping[str, list[Mapping[str, Any]]] | None = None) -> Domain:
    """A domain; stamps its key on each tool spec."""
    stamped = tuple(ToolSpec(t.tool, key, t.effect, t.asks, t.pools) for t in tools)
    return Domain(key, service, stamped,
                  {name: tuple(rows) for name, rows in (tables or {}).items()})
