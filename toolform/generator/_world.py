"""Executors: every generated tool runs against a small in-memory state.

The state (:class:`World`) is a dict of tables, each a list of JSON rows, seeded from the domain
data. A tool's :class:`Executor` validates the arguments against the tool's input schema
(``jsonschema``), fills in declared defaults, then applies the tool's effect:

- ``read``: change nothing; return the rows whose key columns match and the arguments, with
  strings case-folded (a lookup of ``"lisbon"`` and of ``"Lisbon"`` observe the same thing);
- ``create``: append the arguments as a row with the next id (``"<table>-0001"``);
- ``update``: merge the arguments (and the effect's fixed columns) into the row whose key matches,
  case-insensitively; a missing row is an error;
- ``delete``: remove that row; a missing row is an error.

:func:`end_state_correct` runs a call and the gold call each on a fresh world and compares what
they returned and the state they left: the end-state grading column that sits next to the three
grading rules. Two calls that differ only in an omitted default, or in the case of a lookup key,
end in the same state.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping, Sequence

from ..errors import GradingError, InvalidParameterError, NotFoundError
from ..ir import GoldCall, ToolCall, ToolIR, Toolset, TypeIR
from ._domains import DOMAINS
from ._spec import Effect


@lru_cache(maxsize=1)
def _initial_tables_json() -> str:
    tables: dict[str, list[dict[str, Any]]] = {}
    for dom in DOMAINS:
        for name, rows in dom.tables.items():
            if name in tables:
                raise InvalidParameterError(f"state table {name!r} is declared by two domains")
            tables[name] = [dict(r) for r in rows]
    return json.dumps(tables, sort_keys=True, ensure_ascii=False)


class World:
    """The in-memory state the generated tools act on.

    Parameters
    ----------
    tables : mapping of str to list of dict, optional
        Initial tables; by default the rows the 24 domains declare. Deep-copied.

    Attributes
    ----------
    tables : dict of str to list of dict
        The current rows, by table name.
    """

    def __init__(self, tables: Mapping[str, list[Mapping[str, Any]]] | None = None) -> None:
        source = json.loads(_initial_tables_json()) if tables is None else tables
        self.tables: dict[str, list[dict[str, Any]]] = {
            name: [dict(copy.deepcopy(r)) for r in rows] for name, rows in source.items()}

    def snapshot(self) -> dict[str, list[dict[str, Any]]]:
        """A deep copy of every table (equal snapshots mean equal states)."""
        return copy.deepcopy(self.tables)


def _fold(value: Any) -> Any:
    """Case-fold and strip every string inside a JSON value."""
    if isinstance(value, str):
        return value.strip().casefold()
    if isinstance(value, list):
        return [_fold(v) for v in value]
    if isinstance(value, dict):
        return {k: _fold(v) for k, v in value.items()}
    return value


def _with_defaults(t: TypeIR, value: Any) -> Any:
    """``value`` with the declared defaults of absent object fields filled in, recursively."""
    if t.kind == "object" and isinstance(value, dict):
        out = {}
        for f in t.fields:
            if f.name in value:
                out[f.name] = _with_defaults(f.type, value[f.name])
            elif f.has_default:
                out[f.name] = copy.deepcopy(f.default)
        out.update({k: copy.deepcopy(v) for k, v in value.items() if k not in out})
        return out
    if t.kind == "array" and t.items is not None and isinstance(value, list):
        return [_with_defaults(t.items, v) for v in value]
    if t.kind == "union" and isinstance(value, dict):
        for option in t.options:
            if option.kind == "object" and set(value) <= {f.name for f in option.fields}:
                return _with_defaults(option, value)
    return copy.deepcopy(value)


@dataclass(frozen=True, eq=False)
class Executor:
    """A generated tool's Python executor, bound to one :class:`World`.

    Calling it (``executor(**arguments)``) validates the arguments, applies the tool's effect to
    the world and returns a JSON value.

    Parameters
    ----------
    tool : ToolIR
        The tool it executes.
    effect : Effect
        What it does to the state.
    world : World
        The state it acts on.

    Raises
    ------
    ValueError
        From a call whose arguments do not match the tool's input schema (the message names the
        tool and the JSON path).
    NotFoundError
        From an update or delete of a row that does not exist (a ``KeyError`` too; the message
        names the tool, the table and the key).
    """

    tool: ToolIR
    effect: Effect
    world: World = field(default_factory=World)

    def bind(self, world: World) -> Executor:
        """The same executor acting on another world."""
        return Executor(self.tool, self.effect, world)

    def __call__(self, **arguments: Any) -> Any:
        _check_arguments(self.tool, arguments)
        args = _with_defaults(self.tool.input_type, arguments)
        return _apply(self.world, self.tool.name, self.effect, args)


_VALIDATORS: dict[int, tuple[ToolIR, Any]] = {}


def _check_arguments(tool: ToolIR, arguments: Mapping[str, Any]) -> None:
    # jsonschema is imported here, not at module import: with its format extras installed its
    # import takes seconds, and building toolsets never needs it.
    import jsonschema

    cached = _VALIDATORS.get(id(tool))
    if cached is None or cached[0] is not tool:
        validator_cls = jsonschema.Draft202012Validator
        cached = (tool, validator_cls(tool.input_schema(),
                                      format_checker=validator_cls.FORMAT_CHECKER))
        _VALIDATORS[id(tool)] = cached
    error = jsonschema.exceptions.best_match(cached[1].iter_errors(dict(arguments)))
    if error is not None:
        raise InvalidParameterError(f"{tool.name}: arguments do not match the input schema at "
                                    f"{error.json_path}: {error.message}")


def _find(rows: list[dict[str, Any]], key: str, value: Any) -> int | None:
    wanted = _fold(value)
    return next((k for k, r in enumerate(rows) if key in r and _fold(r[key]) == wanted), None)


def _apply(world: World, name: str, effect: Effect, args: dict[str, Any]) -> Any:
    if effect.action == "read":
        rows = world.tables.get(effect.table, [])
        filters = {k: _fold(args[k]) for k in effect.keys if k in args}
        hits = [copy.deepcopy(r) for r in rows
                if all(_fold(r[k]) == v for k, v in filters.items() if k in r)]
        return {"rows": hits, "arguments": _fold(args)}
    if effect.action == "create":
        rows = world.tables.setdefault(effect.table, [])
        row_id = f"{effect.table}-{len(rows) + 1:04d}"
        rows.append({"id": row_id, **args})
        return {"id": row_id}
    rows = world.tables.get(effect.table, [])
    key = effect.keys[0]
    at = _find(rows, key, args[key])
    if at is None:
        raise NotFoundError(f"{name}: no row in {effect.table!r} with {key} = {args[key]!r}",
                            key=args[key])
    if effect.action == "delete":
        removed = rows.pop(at)
        return {"deleted": removed[key]}
    rows[at].update({k: v for k, v in args.items() if k != key})
    rows[at].update(copy.deepcopy(dict(effect.sets)))
    return copy.deepcopy(rows[at])


@dataclass(frozen=True)
class Execution:
    """What running calls on a fresh world gave.

    Parameters
    ----------
    results : tuple
        One JSON value per call (``None`` where the call failed).
    errors : tuple of (str or None)
        One entry per call: ``None`` when it ran, else what went wrong.
    state : dict
        The world's tables afterwards.
    """

    results: tuple[Any, ...]
    errors: tuple[str | None, ...]
    state: dict[str, list[dict[str, Any]]]

    @property
    def ok(self) -> bool:
        """True when every call ran."""
        return all(err is None for err in self.errors)


def run_calls(calls: ToolCall | Sequence[ToolCall], toolset: Toolset) -> Execution:
    """Run calls in order on a fresh world with the toolset's generated executors.

    Parameters
    ----------
    calls : ToolCall or sequence of ToolCall
        The calls.
    toolset : Toolset
        A generated toolset or decoy catalogue (its ``executors`` must be :class:`Executor`).

    Returns
    -------
    Execution
        Results, per-call errors (unknown tool, no executor, invalid arguments, missing row)
        and the end state. Nothing raises for a bad call.
    """
    world = World()
    results: list[Any] = []
    errors: list[str | None] = []
    for call in [calls] if isinstance(calls, ToolCall) else list(calls):
        executor = toolset.executors.get(call.name)
        if not isinstance(executor, Executor):
            results.append(None)
            errors.append(f"no generated executor for tool {call.name!r}")
            continue
        try:
            results.append(executor.bind(world)(**dict(call.arguments)))
            errors.append(None)
        except (ValueError, KeyError, TypeError) as exc:
            results.append(None)
            errors.append(str(exc))
    return Execution(tuple(results), tuple(errors), world.snapshot())


def end_state_correct(calls: ToolCall | Sequence[ToolCall], gold: GoldCall | Sequence[GoldCall],
                      toolset: Toolset) -> bool:
    """Whether the calls leave the same state and observe the same results as the gold calls.

    Each side runs on its own fresh :class:`World`; the gold side runs each gold call's
    :meth:`~toolform.ir.GoldCall.first_call`. Calls are compared in order.

    Parameters
    ----------
    calls : ToolCall or sequence of ToolCall
        What the model called.
    gold : GoldCall or sequence of GoldCall
        What it should have called.
    toolset : Toolset
        A generated toolset or decoy catalogue holding both sides' executors.

    Returns
    -------
    bool
        True when every call ran, and results and end state equal the gold side's.

    Raises
    ------
    GradingError
        When a gold call itself fails on its executor (the gold call is malformed).
    """
    golds = [gold] if isinstance(gold, GoldCall) else list(gold)
    expected = run_calls([g.first_call() for g in golds], toolset)
    if not expected.ok:
        problem = next(e for e in expected.errors if e is not None)
        raise GradingError(f"a gold call fails on its own executor: {problem}")
    got = run_calls(calls, toolset)
    return got.ok and got.results == expected.results and got.state == expected.state
