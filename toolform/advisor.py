"""Recommend a schema format and an answer protocol from the study's evidence.

Two routes:

* :func:`recommend` reads the evidence tables. It starts from the main grid (8 tools, tier 3,
  every core format with its own protocol) as measured for the closest thing to the target model
  it can find — the model's own checkpoint, a named anchor model, the model's family (by the
  zoo's id patterns), or the pool of every checkpoint — and moves each estimate for the grading
  rule, the answer protocol, the tool count and the tier. Each move is the log-odds difference the
  study measured for that factor alone, so no estimate can pass 0 or 100 percent; the combination
  of moves was not itself evaluated, and every recommendation says so.
* :func:`recommend_from_measurement` takes an eight-cell A/B result on the target model (the
  ``cells`` frame of ``toolform.ab_test``) and picks its best cell: in the study, measuring eight
  cells on the target model beat every rule read from tables (evidence table ``selection``).

Both attach the catalogue strategy (``one_shot`` / ``retrieve`` / ``two_stage``) decided by the
same thresholds as the catalogue planner (:mod:`toolform._thresholds`), and every evidence row
they rest on, with its source.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, Sequence

import pandas as pd

from ._thresholds import catalogue_strategy
from .evidence import EvidenceTable, load_evidence
from .ir import Toolset

__all__ = [
    "CellEstimate",
    "EvidenceRow",
    "MEASUREMENT_COLUMNS",
    "Recommendation",
    "recommend",
    "recommend_from_measurement",
]

#: Columns a measured eight-cell result must have (``ab_test(...).cells``); accuracy and the
#: interval ends in percent, ``n`` the requests behind the cell.
MEASUREMENT_COLUMNS = ("format_id", "protocol_id", "rule", "accuracy", "ci_low", "ci_high", "n")

# Table values of exactly 0 or 100 percent have no log-odds; they are read this far (a
# proportion) inside the edge. A numerical guard, not a study figure.
_EDGE = 0.005
# Estimates equal at the tables' own precision (two decimals, in percent) are ties.
_TIE_DECIMALS = 2

_RANGE_NOTE = ("the interval is the range across the table values the estimate rests on, moved "
               "the same way; it is not a confidence interval")
_COMBINATION_NOTE = ("moves are added in log-odds; the study measured each factor alone, and "
                     "their combination was not itself evaluated")


# -- result types ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class EvidenceRow:
    """One table value a recommendation rests on.

    Attributes
    ----------
    table : str
        The evidence table id (``load_evidence(table)``), or ``"measurement"`` for a cell of
        the caller's own A/B result.
    source : tuple of str
        Where the value comes from: the study tables (``paper:tab_main``, ...) or ``ab_test``.
    key : mapping
        The columns that identify the row (``{"format_id": ..., "n_tools": ...}``).
    column : str
        The column read.
    value : float
        The value, in ``unit``.
    unit : str
        ``percent`` for every value a recommendation reads.
    role : str
        What it is used for: ``base``, ``range``, ``rule``, ``protocol``, ``tool_count``,
        ``tier``, ``measured`` or ``selection``.
    """

    table: str
    source: tuple[str, ...]
    key: Mapping[str, Any]
    column: str
    value: float
    unit: str
    role: str


@dataclass(frozen=True)
class CellEstimate:
    """The expected accuracy of one format x protocol cell.

    Attributes
    ----------
    format_id, protocol_id : str
        The cell.
    expected_accuracy : float
        Percent, in (0, 100).
    low, high : float
        Percent; the range across the table values (or the measured interval).
    """

    format_id: str
    protocol_id: str
    expected_accuracy: float
    low: float
    high: float


@dataclass(frozen=True)
class Recommendation:
    """A recommended format and protocol, with what it rests on.

    Attributes
    ----------
    format_id, protocol_id : str
        The recommendation.
    expected_accuracy : float
        Expected strict-call accuracy, percent.
    interval : tuple of float
        ``(low, high)`` in percent. From the tables it is the range across the values the
        estimate rests on (not a confidence interval); from a measurement it is the measured
        cell's interval. ``interval_kind`` says which.
    interval_kind : str
        ``"range"`` or ``"measured"``.
    basis : str
        ``checkpoint:<id>``, ``anchor:<name>``, ``family:<key>``, ``pooled`` or ``measured``.
    rule : str
        The grading rule the accuracy is read under.
    n_tools, tier : int or None
        The tool count and tier the estimate was moved to (None: left at the main grid's).
    strategy : str or None
        ``one_shot``, ``retrieve`` or ``two_stage`` for the catalogue; None when the tool count
        is unknown.
    shifts : mapping of str to float
        The log-odds moves applied to the recommended cell, by factor (``rule``, ``protocol``,
        ``tool_count``, ``tier``).
    ties : tuple of (str, str)
        Other cells whose estimate equals the recommended one at two decimals.
    ranking : tuple of CellEstimate
        Every candidate cell, best first.
    evidence : tuple of EvidenceRow
        Every table value the recommended cell rests on, with its source.
    notes : tuple of str
        Caveats in words.
    """

    format_id: str
    protocol_id: str
    expected_accuracy: float
    interval: tuple[float, float]
    interval_kind: str
    basis: str
    rule: str
    n_tools: int | None
    tier: int | None
    strategy: str | None
    shifts: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    ties: tuple[tuple[str, str], ...] = ()
    ranking: tuple[CellEstimate, ...] = ()
    evidence: tuple[EvidenceRow, ...] = ()
    notes: tuple[str, ...] = ()

    def summary(self) -> str:
        """The recommendation in one line."""
        low, high = self.interval
        kind = "range of table values, not a CI" if self.interval_kind == "range" \
            else "measured interval"
        where = ", ".join(part for part in (
            f"rule {self.rule}",
            f"{self.n_tools} tools" if self.n_tools is not None else None,
            f"tier {self.tier}" if self.tier is not None else None,
        ) if part)
        ties = f"; tied with {', '.join(f'{f}+{p}' for f, p in self.ties)}" if self.ties else ""
        strategy = f"; catalogue: {self.strategy}" if self.strategy else ""
        return (f"{self.format_id} + {self.protocol_id}: {self.expected_accuracy:.2f}% expected "
                f"[{low:.2f}, {high:.2f}] ({kind}); basis {self.basis}; {where}{strategy}{ties}")

    def evidence_frame(self) -> pd.DataFrame:
        """The evidence rows as a DataFrame (``table, source, key, column, value, unit, role``)."""
        return pd.DataFrame(
            [{"table": e.table, "source": ", ".join(e.source),
              "key": ", ".join(f"{k}={v}" for k, v in e.key.items()), "column": e.column,
              "value": e.value, "unit": e.unit, "role": e.role} for e in self.evidence],
            columns=["table", "source", "key", "column", "value", "unit", "role"])

    def ranking_frame(self) -> pd.DataFrame:
        """Every candidate cell, best first (``format_id, protocol_id, expected_accuracy, low,
        high``, percent)."""
        return pd.DataFrame([vars(c) for c in self.ranking],
                            columns=["format_id", "protocol_id", "expected_accuracy", "low",
                                     "high"])


# -- the evidence, indexed once -------------------------------------------------------------------

def _logit(percent: float) -> float:
    p = min(max(percent / 100.0, _EDGE), 1.0 - _EDGE)
    return math.log(p / (1.0 - p))


def _expit_percent(x: float) -> float:
    return 100.0 / (1.0 + math.exp(-x))


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[^a-z0-9]+", text.lower()) if t]


@dataclass(frozen=True)
class _Ref:
    """A value and the evidence row it came from."""

    value: float
    row: EvidenceRow


class _Index:
    """The evidence tables the advisor reads, keyed for lookup."""

    def __init__(self) -> None:
        self.tables: dict[str, EvidenceTable] = {}
        grid = self._table("main_grid")
        self.base_n_tools = int(grid.conditions["n_tools"])
        self.base_tier = int(grid.conditions["tier"])
        self.formats: list[str] = []
        self.main_protocol: dict[str, str] = {}
        self.grid: dict[tuple[str, str], Mapping[str, Any]] = {}
        self.rules: list[str] = []
        for r in grid.rows:
            if r["format_id"] not in self.main_protocol:
                self.formats.append(r["format_id"])
                self.main_protocol[r["format_id"]] = r["protocol_id"]
            if r["rule"] not in self.rules:
                self.rules.append(r["rule"])
            self.grid[r["format_id"], r["rule"]] = r
        self.crossing = {(r["format_id"], r["protocol_id"], r["rule"]): r["accuracy"]
                         for r in self._table("protocol_crossing").rows}
        self.protocols = list(dict.fromkeys(p for _, p, _ in self.crossing))
        self.counts: dict[str, list[tuple[int, float]]] = {}
        for r in self._table("tool_count").rows:
            self.counts.setdefault(r["format_id"], []).append((r["n_tools"], r["accuracy"]))
        for series in self.counts.values():
            series.sort()
        self.tiers = {(r["format_id"], r["tier"]): r["accuracy"] for r in self._table("tiers").rows}
        self.tier_values = sorted({t for _, t in self.tiers})
        self.tier_defs = sorted(self._table("tier_definitions").rows, key=lambda r: r["tier"])
        self.family_rows: dict[str, dict[str, Mapping[str, Any]]] = {}
        for r in self._table("family_accuracy").rows:
            self.family_rows.setdefault(r["family"], {})[r["format_id"]] = r
        self.checkpoints: dict[str, dict[str, Mapping[str, Any]]] = {}
        for r in self._table("checkpoint_accuracy").rows:
            self.checkpoints.setdefault(r["checkpoint_id"], {})[r["format_id"]] = r
        self.anchors: dict[str, dict[str | None, dict[str, Mapping[str, Any]]]] = {}
        for r in self._table("anchor_accuracy").rows:
            self.anchors.setdefault(r["anchor"], {}).setdefault(r["effort"], {})[
                r["format_id"]] = r
        self.efforts = {e for by_effort in self.anchors.values() for e in by_effort if e}
        self.zoo = {r["model_id"].lower(): r for r in self._table("zoo_models").rows}
        self.aliases = {r["family"]: r["alias_of"] for r in self._table("zoo_families").rows
                        if r["alias_of"]}
        self.patterns = [(re.compile(r["pattern"], re.IGNORECASE), r["family"])
                         for r in sorted(self._table("zoo_patterns").rows,
                                         key=lambda r: r["priority"])]
        self.selection = {r["procedure"]: r for r in self._table("selection").rows
                          if r["scope"] == "mean"}

    def _table(self, table_id: str) -> EvidenceTable:
        if table_id not in self.tables:
            self.tables[table_id] = load_evidence(table_id)
        return self.tables[table_id]

    def ref(self, table_id: str, key: Mapping[str, Any], column: str, value: float,
            role: str) -> _Ref:
        table = self._table(table_id)
        row = EvidenceRow(table=table_id, source=table.source, key=MappingProxyType(dict(key)),
                          column=column, value=value, unit=table.column(column).unit or "",
                          role=role)
        return _Ref(value, row)


@functools.lru_cache(maxsize=1)
def _index() -> _Index:
    return _Index()


# -- model id -> basis ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Basis:
    """Base accuracy per core format (main rule, main grid), the values its range spans, and
    the evidence rows to cite for both."""

    label: str
    point: Mapping[str, float]
    spread: Mapping[str, tuple[float, ...]]
    rows: Mapping[str, tuple[EvidenceRow, ...]]
    notes: tuple[str, ...] = ()


def _basis(label: str, point: dict[str, float], spread: dict[str, tuple[float, ...]],
           rows: dict[str, tuple[EvidenceRow, ...]], notes: Sequence[str] = ()) -> _Basis:
    return _Basis(label, MappingProxyType(point), MappingProxyType(spread),
                  MappingProxyType(rows), tuple(notes))


def _basis_from_rows(ix: _Index, label: str, table: str, rows: Sequence[Mapping[str, Any]],
                     key_cols: Sequence[str], notes: Sequence[str] = ()) -> _Basis:
    """A basis whose point is the mean of ``rows`` per format and whose range spans them."""
    point, spread, cite = {}, {}, {}
    for fid in ix.formats:
        refs = [ix.ref(table, {**{k: r[k] for k in key_cols}, "format_id": fid}, "accuracy",
                       r["accuracy"], "base") for r in rows if r["format_id"] == fid]
        spread[fid] = tuple(r.value for r in refs)
        point[fid] = sum(spread[fid]) / len(refs)
        cite[fid] = tuple(r.row for r in refs)
    return _basis(label, point, spread, cite, notes)


def _basis_with_range(ix: _Index, label: str, base: Mapping[str, _Ref],
                      ranges: Mapping[str, Sequence[_Ref]], notes: Sequence[str]) -> _Basis:
    """A basis whose point is one table value per format and whose range spans other rows."""
    return _basis(label, {f: base[f].value for f in ix.formats},
                  {f: tuple(r.value for r in ranges[f]) for f in ix.formats},
                  {f: (base[f].row, *(r.row for r in ranges[f])) for f in ix.formats}, notes)


def _find_anchor(ix: _Index, model: str) -> tuple[str, list[str | None], list[str]] | None:
    """The anchor whose name's words start the model id's (longest name wins), or None.

    Returns ``(anchor, efforts to use, notes)``.
    """
    words = _tokens(model.rsplit("/", 1)[-1])
    best = None
    for name in ix.anchors:
        name_words = _tokens(name)
        if words[:len(name_words)] == name_words and (best is None
                                                      or len(name_words) > len(_tokens(best))):
            best = name
    if best is None:
        return None
    rest = words[len(_tokens(best)):]
    measured = list(ix.anchors[best])
    asked = [w for w in rest if w in ix.efforts]
    if asked and asked[0] in measured:
        return best, [asked[0]], []
    notes = []
    if asked:
        notes.append(f"effort {asked[0]!r} was not measured for {best}; its measured efforts "
                     f"are pooled")
    elif len(measured) > 1:
        notes.append(f"no effort in the model id; the measured efforts of {best} "
                     f"({', '.join(str(e) for e in measured)}) are pooled")
    return best, measured, notes


def _family_of(ix: _Index, model: str) -> str | None:
    listed = ix.zoo.get(model.lower())
    family = listed["family"] if listed else None
    if family is None:
        family = next((fam for pattern, fam in ix.patterns if pattern.search(model)), None)
    return ix.aliases.get(family, family) if family else None


def _pooled(ix: _Index, notes: Sequence[str] = ()) -> _Basis:
    base = {fid: ix.ref("main_grid", {"format_id": fid, "rule": "main"}, "accuracy",
                        ix.grid[fid, "main"]["accuracy"], "base") for fid in ix.formats}
    ranges = {fid: [ix.ref("family_accuracy", {"family": fam, "format_id": fid}, "accuracy",
                           rows[fid]["accuracy"], "range")
                    for fam, rows in ix.family_rows.items() if fid in rows]
              for fid in ix.formats}
    return _basis_with_range(ix, "pooled", base, ranges, [
        *notes, "pooled over every main-grid checkpoint; the range spans the open families"])


def _resolve_basis(ix: _Index, model: str | None) -> _Basis:
    if not model:
        return _pooled(ix)
    lowered = {cid.lower(): cid for cid in ix.checkpoints}
    short = {cid.rsplit("/", 1)[-1].lower(): cid for cid in ix.checkpoints}
    cid = lowered.get(model.lower()) or short.get(model.rsplit("/", 1)[-1].lower())
    if cid:
        return _basis_from_rows(ix, f"checkpoint:{cid}", "checkpoint_accuracy",
                                list(ix.checkpoints[cid].values()), ("checkpoint_id",))
    anchor = _find_anchor(ix, model)
    if anchor:
        name, efforts, notes = anchor
        rows = [r for e in efforts for r in ix.anchors[name][e].values()]
        return _basis_from_rows(ix, f"anchor:{name}", "anchor_accuracy", rows,
                                ("anchor", "effort"), notes)
    family = _family_of(ix, model)
    if family in ix.family_rows:
        fam_rows = ix.family_rows[family]
        base = {fid: ix.ref("family_accuracy", {"family": family, "format_id": fid}, "accuracy",
                            fam_rows[fid]["accuracy"], "base") for fid in ix.formats}
        ranges = {fid: [ix.ref("checkpoint_accuracy", {"checkpoint_id": c, "format_id": fid},
                               "accuracy", rows[fid]["accuracy"], "range")
                        for c, rows in ix.checkpoints.items() if rows[fid]["family"] == family]
                  for fid in ix.formats}
        return _basis_with_range(ix, f"family:{family}", base, ranges, [
            f"{model} read as the {family} family; the range spans its checkpoints"])
    why = (f"family {family!r} of {model} has no main-grid row" if family
           else f"{model} matches no checkpoint, anchor or family pattern")
    return _pooled(ix, [why])


# -- the moves ------------------------------------------------------------------------------------

def _count_move(ix: _Index, fid: str, n_tools: int) -> tuple[float, list[_Ref], list[str]]:
    """Log-odds move from the main grid's tool count to ``n_tools`` (log2-interpolated)."""
    series = ix.counts[fid]
    counts = [n for n, _ in series]
    acc = dict(series)
    notes = []
    if not counts[0] <= n_tools <= counts[-1]:
        edge = counts[0] if n_tools < counts[0] else counts[-1]
        notes.append(f"{n_tools} tools is outside the counts measured ({counts[0]} to "
                     f"{counts[-1]}); read at {edge}")
        n_tools = edge

    def ref(n: int) -> _Ref:
        return ix.ref("tool_count", {"format_id": fid, "n_tools": n}, "accuracy", acc[n],
                      "tool_count")

    refs = [ref(ix.base_n_tools)]
    if n_tools in acc:
        target = _logit(acc[n_tools])
        refs.append(ref(n_tools))
    else:
        lo = max(n for n in counts if n < n_tools)
        hi = min(n for n in counts if n > n_tools)
        w = (math.log2(n_tools) - math.log2(lo)) / (math.log2(hi) - math.log2(lo))
        target = (1 - w) * _logit(acc[lo]) + w * _logit(acc[hi])
        refs += [ref(lo), ref(hi)]
        notes.append(f"{n_tools} tools lies between measured counts {lo} and {hi}; "
                     f"interpolated in log-odds over log2(tools)")
    return target - _logit(acc[ix.base_n_tools]), refs, notes


def _tier_move(ix: _Index, fid: str, tier: int) -> tuple[float, list[_Ref]]:
    refs = [ix.ref("tiers", {"format_id": fid, "tier": t}, "accuracy", ix.tiers[fid, t], "tier")
            for t in (ix.base_tier, tier)]
    return _logit(refs[1].value) - _logit(refs[0].value), refs


def _rule_move(ix: _Index, fid: str, rule: str) -> tuple[float, list[_Ref]]:
    refs = [ix.ref("main_grid", {"format_id": fid, "rule": r}, "accuracy",
                   ix.grid[fid, r]["accuracy"], "rule") for r in ("main", rule)]
    return _logit(refs[1].value) - _logit(refs[0].value), refs


def _protocol_move(ix: _Index, fid: str, pid: str, rule: str) -> tuple[float, list[_Ref]]:
    refs = [ix.ref("protocol_crossing", {"format_id": fid, "protocol_id": p, "rule": rule},
                   "accuracy", ix.crossing[fid, p, rule], "protocol")
            for p in (ix.main_protocol[fid], pid)]
    return _logit(refs[1].value) - _logit(refs[0].value), refs


def _infer_tier(ix: _Index, toolset: Toolset) -> tuple[int, str]:
    """The lowest tier whose parameter count and nesting admit every tool of ``toolset``."""
    params = max((len(t.params) for t in toolset), default=0)
    depth = max((t.depth() for t in toolset), default=0)
    for d in ix.tier_defs:
        if params <= d["max_params"] and depth <= d["max_nesting"]:
            return d["tier"], (f"tier {d['tier']} inferred from the tools (at most {params} "
                               f"parameters, nesting depth {depth}; table tier_definitions)")
    top = ix.tier_defs[-1]["tier"]
    return top, (f"the tools ({params} parameters, nesting depth {depth}) exceed every tier; "
                 f"read at tier {top}")


# -- validation -----------------------------------------------------------------------------------

def _check_choice(name: str, value: Any, allowed: Sequence[Any]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")


def _check_positive_int(name: str, value: Any) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ValueError(f"{name} must be a positive integer or None, got {value!r}")


def _load_toolset(tools: Any) -> Toolset:
    if isinstance(tools, Toolset):
        return tools
    if isinstance(tools, (str, Path)):
        from .io import load_tools

        return load_tools(tools)
    raise TypeError(f"tools must be a Toolset or a path to a tools file, got "
                    f"{type(tools).__name__}")


def _strategy(ix: _Index, toolset: Toolset | None, n_tools: int | None, format_id: str,
              model: str | None, context_tokens: int | None) -> tuple[str | None, list[str]]:
    """The catalogue strategy, with the context-window test when the block size is known."""
    if n_tools is None:
        return None, ["tool count unknown: no catalogue strategy (give n_tools or tools)"]
    notes = []
    if context_tokens is None and model and model.lower() in ix.zoo:
        context_tokens = ix.zoo[model.lower()]["context_tokens"]
        notes.append(f"context window {context_tokens} tokens from the zoo (table zoo_models)")
    block = None
    if toolset is not None and context_tokens is not None:
        from .errors import RegistryError, RenderError
        from .formats import render_block
        from .tokens import estimate_tokens

        try:
            block = estimate_tokens(render_block(toolset, format_id))
        except (RegistryError, RenderError) as exc:
            notes.append(f"tool block size unknown ({exc}); the context-window test was skipped")
    strategy = catalogue_strategy(n_tools, block_tokens=block, context_tokens=context_tokens)
    if block is not None:
        notes.append(f"the tool block is about {block} tokens in {format_id} "
                     f"(context window {context_tokens})")
    return strategy, notes


def _ties(ranking: Sequence[CellEstimate]) -> tuple[tuple[str, str], ...]:
    best = round(ranking[0].expected_accuracy, _TIE_DECIMALS)
    return tuple((c.format_id, c.protocol_id) for c in ranking[1:]
                 if round(c.expected_accuracy, _TIE_DECIMALS) == best)


# -- public entry points --------------------------------------------------------------------------

def recommend(tools: Toolset | str | Path | None = None, model: str | None = None, *,
              n_tools: int | None = None, tier: int | None = None, rule: str = "main",
              context_tokens: int | None = None, measured: Any = None) -> Recommendation:
    """Recommend a core format and an answer protocol for a model and a toolset.

    Parameters
    ----------
    tools : Toolset or path, optional
        The toolset (or a file ``toolform.io.load_tools`` reads). Gives the tool count and the
        tier when those are not passed, and the tool-block size for the context-window test.
    model : str, optional
        A model id. Matched, in order, to one of the study's main-grid checkpoints
        (``checkpoint:<id>``), a named anchor model (``anchor:<name>``), a family through the
        zoo's list and id patterns (``family:<key>``); otherwise the pooled main grid
        (``pooled``).
    n_tools : int, optional
        Tools in the catalogue; overrides ``len(tools)``.
    tier : int, optional
        Complexity tier, 1 to 5; overrides the tier inferred from ``tools``.
    rule : {"main", "symmetric", "as_written"}
        The grading rule the accuracy is read under.
    context_tokens : int, optional
        The model's context window in tokens (default: the zoo's, for a listed model id).
    measured : DataFrame or object with ``.cells``, optional
        An eight-cell A/B result on the target model; when given the recommendation comes from
        it (see :func:`recommend_from_measurement`).

    Returns
    -------
    Recommendation
        The best of the core formats x crossing protocols, its expected accuracy in percent,
        the range across the table values it rests on, the basis, the log-odds moves applied,
        ties, the catalogue strategy and every evidence row with its source. Tables:
        ``main_grid``, ``protocol_crossing``, ``tool_count``, ``tiers``, ``family_accuracy``,
        ``anchor_accuracy``, ``checkpoint_accuracy``, ``zoo_*``.

    Raises
    ------
    ValueError
        For a rule, tier, tool count or context size outside what is allowed (the message
        names the parameter, the allowed values and the value given).
    EvidenceError
        When an evidence table is missing or altered.
    """
    if measured is not None:
        return recommend_from_measurement(measured, rule=rule, tools=tools, model=model,
                                          n_tools=n_tools, context_tokens=context_tokens)
    ix = _index()
    _check_choice("rule", rule, ix.rules)
    _check_positive_int("n_tools", n_tools)
    _check_positive_int("context_tokens", context_tokens)
    if tier is not None:
        _check_choice("tier", tier, ix.tier_values)
    toolset = _load_toolset(tools) if tools is not None else None
    notes: list[str] = []
    if n_tools is None and toolset is not None:
        n_tools = len(toolset)
    if tier is None and toolset is not None and len(toolset):
        tier, why = _infer_tier(ix, toolset)
        notes.append(why)
    if n_tools is None:
        notes.append(f"tool count unknown: read at the main grid's {ix.base_n_tools} tools")
    if tier is None:
        notes.append(f"tier unknown: read at the main grid's tier {ix.base_tier}")

    basis = _resolve_basis(ix, model)
    notes.extend(basis.notes)

    estimates: list[tuple[CellEstimate, dict[str, float], list[_Ref], list[str]]] = []
    for fid in ix.formats:
        common: dict[str, float] = {}
        refs: list[_Ref] = []
        cell_notes: list[str] = []
        if rule != "main":
            common["rule"], r = _rule_move(ix, fid, rule)
            refs += r
        if n_tools is not None and n_tools != ix.base_n_tools:
            common["tool_count"], r, more = _count_move(ix, fid, n_tools)
            refs += r
            cell_notes += more
        if tier is not None and tier != ix.base_tier:
            common["tier"], r = _tier_move(ix, fid, tier)
            refs += r
        for pid in ix.protocols:
            if (fid, pid, rule) not in ix.crossing:
                continue
            shifts = dict(common)
            cell_refs = list(refs)
            if pid != ix.main_protocol[fid]:
                shifts["protocol"], r = _protocol_move(ix, fid, pid, rule)
                cell_refs += r
            move = sum(shifts.values())
            point = _expit_percent(_logit(basis.point[fid]) + move)
            ends = [_expit_percent(_logit(v) + move) for v in basis.spread[fid]]
            estimates.append((CellEstimate(fid, pid, point, min(ends + [point]),
                                           max(ends + [point])), shifts, cell_refs, cell_notes))
    order = {fid: i for i, fid in enumerate(ix.formats)}
    estimates.sort(key=lambda e: (-round(e[0].expected_accuracy, _TIE_DECIMALS),
                                  order[e[0].format_id], ix.protocols.index(e[0].protocol_id)))
    best, shifts, refs, cell_notes = estimates[0]
    ranking = tuple(e[0] for e in estimates)

    strategy, more = _strategy(ix, toolset, n_tools, best.format_id, model, context_tokens)
    notes += cell_notes + more
    if shifts:
        notes.append(_COMBINATION_NOTE)
    notes.append(_RANGE_NOTE)
    evidence = [*basis.rows[best.format_id], *(r.row for r in refs)]
    return Recommendation(
        format_id=best.format_id, protocol_id=best.protocol_id,
        expected_accuracy=best.expected_accuracy, interval=(best.low, best.high),
        interval_kind="range", basis=basis.label, rule=rule, n_tools=n_tools, tier=tier,
        strategy=strategy, shifts=MappingProxyType(dict(shifts)), ties=_ties(ranking),
        ranking=ranking, evidence=tuple(_dedupe(evidence)), notes=tuple(notes),
    )


def _dedupe(rows: Sequence[EvidenceRow]) -> list[EvidenceRow]:
    seen, out = set(), []
    for row in rows:
        ident = (row.table, tuple(row.key.items()), row.column, row.role)
        if ident not in seen:
            seen.add(ident)
            out.append(row)
    return out


def _measurement_frame(measurement: Any) -> pd.DataFrame:
    frame = getattr(measurement, "cells", measurement)
    if not isinstance(frame, pd.DataFrame):
        raise TypeError("the measurement must be a DataFrame or an object with a .cells "
                        f"DataFrame, got {type(measurement).__name__}")
    missing = [c for c in MEASUREMENT_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"the measurement lacks columns {missing}; it needs "
                         f"{list(MEASUREMENT_COLUMNS)} (accuracy and interval in percent)")
    bad = frame[(frame["accuracy"] < 0) | (frame["accuracy"] > 100)]
    if len(bad):
        raise ValueError(f"measured accuracy must be a percent in [0, 100]; row "
                         f"{bad.index[0]!r} has {bad['accuracy'].iloc[0]!r}")
    return frame


def recommend_from_measurement(measurement: Any, *, rule: str = "main",
                               tools: Toolset | str | Path | None = None,
                               model: str | None = None, n_tools: int | None = None,
                               context_tokens: int | None = None) -> Recommendation:
    """Recommend the best cell of an eight-cell A/B result measured on the target model.

    In the study, measuring eight cells on the target model and keeping the best reached
    higher accuracy than the fitted rule, a lookup table or always JSON (evidence table
    ``selection``, from ``paper:tab_selection``); this function follows that procedure and says
    so in its notes, quoting those figures from the table.

    Parameters
    ----------
    measurement : DataFrame or object with ``.cells``
        One row per cell and rule with columns :data:`MEASUREMENT_COLUMNS`: ``format_id``,
        ``protocol_id``, ``rule``, ``accuracy`` (percent), ``ci_low``, ``ci_high`` (percent)
        and ``n`` (requests). ``toolform.ab_test(...)`` returns such an object.
    rule : str
        The grading rule whose rows are compared.
    tools, model, n_tools, context_tokens
        As for :func:`recommend`; used for the catalogue strategy only.

    Returns
    -------
    Recommendation
        ``basis="measured"``, ``interval_kind="measured"`` (the best cell's own interval);
        ``ranking`` holds every measured cell, best first; ``evidence`` holds each measured
        cell and the ``selection`` rows that justify measuring.

    Raises
    ------
    TypeError
        When ``measurement`` is neither a DataFrame nor has a ``.cells`` DataFrame.
    ValueError
        When columns are missing, an accuracy is not a percent, or no row has ``rule``.
    """
    frame = _measurement_frame(measurement)
    _check_positive_int("n_tools", n_tools)
    _check_positive_int("context_tokens", context_tokens)
    rows = frame[frame["rule"] == rule]
    if rows.empty:
        raise ValueError(f"rule must be one of the measured rules "
                         f"{sorted(frame['rule'].unique().tolist())}, got {rule!r}")
    ix = _index()
    toolset = _load_toolset(tools) if tools is not None else None
    if n_tools is None and toolset is not None:
        n_tools = len(toolset)
    rows = rows.sort_values("accuracy", ascending=False, kind="stable")
    ranking = tuple(CellEstimate(str(r.format_id), str(r.protocol_id), float(r.accuracy),
                                 float(r.ci_low), float(r.ci_high)) for r in rows.itertuples())
    best = ranking[0]
    evidence = [EvidenceRow(table="measurement", source=("ab_test",),
                            key=MappingProxyType({"format_id": c.format_id,
                                                  "protocol_id": c.protocol_id, "rule": rule,
                                                  "n": int(n)}),
                            column="accuracy", value=c.expected_accuracy, unit="percent",
                            role="measured")
                for c, n in zip(ranking, rows["n"])]
    procedures = ("measure_eight", "fitted_rule", "always_json")
    sel = [ix.ref("selection", {"scope": "mean", "procedure": p}, "accuracy",
                  ix.selection[p]["accuracy"], "selection").row for p in procedures]
    evidence += sel
    notes = [
        "recommended from the measurement on the target model: in the study, measuring eight "
        f"cells reached {sel[0].value:.2f}% against {sel[1].value:.2f}% for the fitted rule and "
        f"{sel[2].value:.2f}% for always JSON (table selection, {', '.join(sel[0].source)})",
        "the interval is the measured cell's own, as the A/B result reports it",
    ]
    overlapping = [c for c in ranking[1:] if c.high >= best.low]
    if overlapping:
        notes.append(f"{len(overlapping)} other measured cell(s) have intervals reaching the "
                     f"best cell's lower end; more requests would separate them")
    strategy, more = _strategy(ix, toolset, n_tools, best.format_id, model, context_tokens)
    notes += more
    return Recommendation(
        format_id=best.format_id, protocol_id=best.protocol_id,
        expected_accuracy=best.expected_accuracy, interval=(best.low, best.high),
        interval_kind="measured", basis="measured", rule=rule, n_tools=n_tools, tier=None,
        strategy=strategy, ties=_ties(ranking), ranking=ranking, evidence=tuple(evidence),
        notes=tuple(notes),
    )
