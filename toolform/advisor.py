"""Recommend a schema format and an answer protocol from the study's evidence.

Two routes:

* :func:`recommend` follows the study's own advisor. For each candidate format it takes a base
  accuracy on the main grid (8 tools, tier 3) — the model's own checkpoint row, its anchor row,
  its family row, or the pooled table (:mod:`toolform.zoo` says which) — and moves it by the
  single-factor differences the pooled tables measured for the tool count, the tier and the
  answer protocol. Moves add in log-odds, so no estimate passes 0 or 100 percent. The study
  measured each factor alone; their combination was not itself evaluated, and two rules keep the
  estimate inside what was measured: a *gain* from an easier tier (measured at 8 tools only) is
  not carried to other tool counts, while a loss is; and counts past 256 tools read the 256-tool
  value. Under the ``symmetric`` and ``as_written`` rules the per-model tables (main rule only)
  do not apply, and the base is the pooled table under that rule.

  Each format keeps the protocol it was measured with, unless the estimate rests on the pooled
  table and the crossing table (35 checkpoints) has that format at least
  :data:`SWITCH_GAIN_POINTS` higher with another protocol: then the study switches. With
  ``search_protocols=True`` every crossing protocol is ranked for every format on any basis — an
  extrapolation, and the result says so.

  The range beside the point is the lowest and highest of the table values the estimate rests on
  and of the single-factor estimates (not a confidence interval). Candidates within
  :data:`TIE_POINTS` of the best are tied.
* :func:`recommend_from_measurement` takes an eight-cell A/B result on the target model (the
  ``cells`` frame of ``toolform.ab_test``) and picks its best cell: in the study, measuring eight
  cells on the target model beat every rule read from tables (evidence table ``selection``).

Both attach how to show the catalogue (``one_shot`` / ``retrieve`` / ``two_stage``, decided by
the same thresholds as :func:`toolform.catalogue.plan_catalogue`) and every evidence row they rest
on, with its source.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, Sequence

import pandas as pd

from ._thresholds import TWO_STAGE_CONTEXT_SHARE
from .cost import PRICES, Price, cost_of, get_price
from .errors import InvalidParameterError, ParameterTypeError
from .evidence import EvidenceRow, EvidenceTable, load_evidence
from .ir import Toolset
from .study import CORE_FORMAT_LABELS, CROSSING_PROTOCOLS
from .zoo import ModelResolution, resolve_model

__all__ = [
    "CatalogueAdvice",
    "CellEstimate",
    "EvidenceRow",
    "GuardAdvice",
    "MEASUREMENT_COLUMNS",
    "OBJECTIVES",
    "PROTOCOL_SOURCES",
    "Recommendation",
    "SWITCH_GAIN_POINTS",
    "Situation",
    "THINKING_FAMILIES",
    "TIE_POINTS",
    "TIE_SHARE",
    "recommend",
    "recommend_from_measurement",
]

#: What a recommendation optimises: expected accuracy, expected accuracy per unit of cost
#: (``price``), or expected accuracy per token of one request.
OBJECTIVES = ("accuracy", "cost", "accuracy_per_token")

#: The study's advisor switches a format's protocol only for a gain of at least this many
#: percentage points in the crossing table (its selection rule's tie threshold, 0.02 as a
#: proportion).
SWITCH_GAIN_POINTS = 2.0
#: Candidates within this many percentage points of the best expected accuracy are tied.
TIE_POINTS = 2.0
#: Under the ``cost`` and ``accuracy_per_token`` objectives, candidates within this share of the
#: best score (a proportion) are tied.
TIE_SHARE = 0.02

#: Where the recommended protocol came from: the format's own (``default``), the caller
#: (``given``), the study's pooled-table switch (``crossing_switch``), or a search of every
#: crossing protocol (``crossing_search``, an extrapolation).
PROTOCOL_SOURCES = ("default", "given", "crossing_switch", "crossing_search")

#: Families whose chat template thinks by default; the study turned thinking off for them.
THINKING_FAMILIES = ("qwen3", "qwen3.5", "qwen3.5-large")

#: Columns a measured eight-cell result must have (``ab_test(...).cells``); accuracy and the
#: interval ends in percent, ``n`` the requests behind the cell.
MEASUREMENT_COLUMNS = ("format_id", "protocol_id", "rule", "accuracy", "ci_low", "ci_high", "n")

# Percent values are read at most this close to 0 or 100 before taking log-odds (the study's
# bound: 0.5 to 99.5 percent).
_EDGE_PERCENT = 0.5
_RANGE_NOTE = ("the interval is the range across the table values the estimate rests on and the "
               "single-factor estimates; it is not a confidence interval")
_COMBINATION_NOTE = ("moves add in log-odds; the study measured each factor alone, and their "
                     "combination was not itself evaluated")


def _logit(percent: float) -> float:
    p = min(max(float(percent), _EDGE_PERCENT), 100.0 - _EDGE_PERCENT) / 100.0
    return math.log(p / (1.0 - p))


def _expit(x: float) -> float:
    return 100.0 / (1.0 + math.exp(-x))


# -- the situation --------------------------------------------------------------------------------

def _positive_int(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and value >= 1


@dataclass(frozen=True)
class Situation:
    """Everything :func:`recommend` is told about the model, the tools and the goal.

    Every field has a default; ``recommend(**fields)`` builds one. Units: tokens for the budget
    and the window, billions for ``params_b``.

    Attributes
    ----------
    model : str, optional
        A model id; :func:`toolform.zoo.resolve_model` maps it to the study's rows.
    family : str, optional
        A zoo family key (``"glm"``, ``"qwen3.5-large"``); wins over ``model``'s own family.
    params_b : float, optional
        Model size in billions of parameters, when the zoo does not list the id (it also
        decides the Qwen 3.5 large rows and enables the fitted-surface prediction).
    n_tools : int, optional
        Tools in the catalogue; default ``len(tools)``, else the main grid's 8.
    tier : int, optional
        Complexity tier, 1 to 5; default the tools' tier, else the main grid's 3.
    rule : {"main", "symmetric", "as_written"}
        The grading rule the accuracy is read under.
    protocol : str, optional
        Fix the answer protocol and rank formats under it.
    objective : {"accuracy", "cost", "accuracy_per_token"}
        What to maximise: expected accuracy, accuracy per unit of cost, or per token.
    price : str or Price
        The price vector for the cost per request: ``frontier_api``, ``self_hosted`` (the
        study's, evidence table ``cost_prices``) or a :class:`toolform.cost.Price`.
    token_budget : int, optional
        The most tokens the tool block may take per request; formats over it are left out.
    context_tokens : int, optional
        The model's context window; a block over half of it is ranked last (default: the
        zoo's window for a listed id).
    candidates : tuple of str, optional
        Restrict the formats (default: the eight core formats). A format outside the core is
        scored from its pooled leaderboard row, with no moves.
    third_party_tools : bool
        The tool descriptions come from a publisher you do not control: add the guard advice.
    search_protocols : bool
        Rank every crossing protocol for every format on any basis (an extrapolation).
    """

    model: str | None = None
    family: str | None = None
    params_b: float | None = None
    n_tools: int | None = None
    tier: int | None = None
    rule: str = "main"
    protocol: str | None = None
    objective: str = "accuracy"
    price: str | Price = "frontier_api"
    token_budget: int | None = None
    context_tokens: int | None = None
    candidates: tuple[str, ...] | None = None
    third_party_tools: bool = False
    search_protocols: bool = False

    def __post_init__(self) -> None:
        if self.candidates is not None and not isinstance(self.candidates, tuple):
            if isinstance(self.candidates, str):
                raise InvalidParameterError(
                    "candidates must be a list of format ids, got the string "
                    f"{self.candidates!r}")
            object.__setattr__(self, "candidates", tuple(self.candidates))

    def validate(self) -> None:
        """Check every field.

        Raises
        ------
        InvalidParameterError
            Naming the first bad field, what it allows and the value given (a ``ValueError``).
        """
        def bad(name: str, allowed: str) -> InvalidParameterError:
            value = getattr(self, name)
            return InvalidParameterError(f"{name} must be {allowed}, got {value!r}",
                                         parameter=name, allowed=allowed, value=value)

        for name in ("model", "family"):
            if getattr(self, name) is not None and not isinstance(getattr(self, name), str):
                raise bad(name, "a string or None")
        if self.params_b is not None and (
                isinstance(self.params_b, bool) or not isinstance(self.params_b, (int, float))
                or not math.isfinite(self.params_b) or self.params_b <= 0):
            raise bad("params_b", "a positive, finite number of billions or None")
        for name in ("n_tools", "token_budget", "context_tokens"):
            if getattr(self, name) is not None and not _positive_int(getattr(self, name)):
                raise bad(name, "a positive integer or None")
        ix = _tables()
        if self.tier is not None and self.tier not in ix.tier_values:
            raise bad("tier", f"one of {list(ix.tier_values)} or None")
        if self.rule not in ix.rules:
            raise bad("rule", f"one of {list(ix.rules)}")
        if self.objective not in OBJECTIVES:
            raise bad("objective", f"one of {list(OBJECTIVES)}")
        if not isinstance(self.price, Price) and self.price not in PRICES:
            raise bad("price", f"a Price or one of {list(PRICES)}")
        if self.protocol is not None:
            from .protocols import protocol_ids

            known = protocol_ids()
            if self.protocol not in known:
                raise bad("protocol", f"a registered protocol id{_closest(self.protocol, known)}")
            if self.search_protocols:
                raise InvalidParameterError(
                    "protocol fixes the protocol and search_protocols searches "
                    "them; give one or the other")
        if self.candidates is not None:
            _check_candidates(self.candidates)
        for name in ("third_party_tools", "search_protocols"):
            if not isinstance(getattr(self, name), bool):
                raise bad(name, "True or False")

    def to_dict(self) -> dict[str, Any]:
        """The fields as a JSON-ready dict (a custom price as its own dict)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["candidates"] = list(self.candidates) if self.candidates is not None else None
        out["price"] = self.price.to_dict() if isinstance(self.price, Price) else self.price
        return out


def _closest(given: str, known: Sequence[str]) -> str:
    import difflib

    close = difflib.get_close_matches(str(given), list(known), n=3, cutoff=0.5)
    return f" (closest: {', '.join(close)})" if close else ""


def _check_candidates(candidates: tuple[str, ...]) -> None:
    from .formats import format_ids, get_format

    if not candidates:
        raise InvalidParameterError(
            "candidates must be a non-empty list of format ids or None, got []")
    known = format_ids()
    for fid in candidates:
        if not isinstance(fid, str) or fid not in known:
            raise InvalidParameterError(f"candidates: {fid!r} is not a registered format"
                                        f"{_closest(str(fid), known)}")
        if get_format(fid).two_stage:
            raise InvalidParameterError(
                f"candidates: {fid} is a two-stage format; the catalogue advice "
                "(strategy two_stage) covers names-first disclosure")


# -- result types ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class CellEstimate:
    """The expected accuracy of one format x protocol candidate.

    Attributes
    ----------
    format_id, protocol_id : str
        The candidate.
    expected_accuracy : float
        Percent, in (0, 100).
    low, high : float
        Percent; the range across the table values (or the measured interval).
    schema_tokens : int or None
        The tool block, in tokens (rendered from the tools, else the study's cost table scaled
        to the tool count).
    cost_per_request : float or None
        Under the situation's price vector.
    score : float or None
        What the objective ranks by (expected accuracy for ``accuracy``); ``-inf`` for a
        candidate the objective cannot score (no cost in the study's tables).
    penalties : tuple of str
        Why it is ranked after the rest: ``context`` (the block takes over half the window),
        ``hidden`` (the format hides required nested fields of these tools).
    """

    format_id: str
    protocol_id: str
    expected_accuracy: float
    low: float
    high: float
    schema_tokens: int | None = None
    cost_per_request: float | None = None
    score: float | None = None
    penalties: tuple[str, ...] = ()


@dataclass(frozen=True)
class CatalogueAdvice:
    """How to show a catalogue of this size: all at once, retrieved, or names first.

    Attributes
    ----------
    strategy : str
        ``one_shot``, ``retrieve`` or ``two_stage``.
    reason : str
        The threshold, window or budget that decided, with the study's figures.
    evidence : tuple of EvidenceRow
    """

    strategy: str
    reason: str
    evidence: tuple[EvidenceRow, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"strategy": self.strategy, "reason": self.reason,
                "evidence": [e.to_dict() for e in self.evidence]}


@dataclass(frozen=True)
class GuardAdvice:
    """What to do about tool descriptions from a third party.

    Attributes
    ----------
    action : str
        ``strip`` (scan and clean the descriptions: ``toolform.guard``) or ``none`` (the
        format shows no description).
    reason : str
    evidence : tuple of EvidenceRow
    """

    action: str
    reason: str
    evidence: tuple[EvidenceRow, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"action": self.action, "reason": self.reason,
                "evidence": [e.to_dict() for e in self.evidence]}


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
        estimate rests on and the single-factor estimates (not a confidence interval); from a
        measurement it is the measured cell's interval. ``interval_kind`` says which.
    interval_kind : str
        ``"range"`` or ``"measured"``.
    basis : str
        ``checkpoint:<id>``, ``anchor:<label>``, ``family:<key>``, ``pooled`` or ``measured``.
    rule : str
        The grading rule the accuracy is read under.
    n_tools, tier : int or None
        The tool count and tier the estimate was read at.
    catalogue : CatalogueAdvice or None
        How to show the catalogue; None when the tool count is unknown (a measurement alone).
    objective : str
        What the ranking maximised.
    schema_tokens : int or None
        The recommended format's tool block, in tokens.
    tokens_source : str
        ``rendered`` (from the tools), ``study`` (the cost table scaled to the tool count) or
        ``unknown``.
    cost_per_request : float or None
        Under ``price``.
    price : Price or None
    protocol_source : str
        One of :data:`PROTOCOL_SOURCES`.
    shifts : mapping of str to float
        The log-odds moves applied to the recommended cell (``tool_count``, ``tier``,
        ``protocol``).
    ties : tuple of (str, str)
        Other candidates within :data:`TIE_POINTS` (or :data:`TIE_SHARE` of the score).
    ranking : tuple of CellEstimate
        Every candidate, best first.
    evidence : tuple of EvidenceRow
        Every table value the recommended cell rests on, with its source.
    guard : GuardAdvice or None
        With ``third_party_tools``.
    surface : mapping or None
        The fitted surface's prediction for the recommended format (extrapolation only) when the
        model's size is known: ``predicted_accuracy`` (percent), ``params_b``, ``form``,
        ``heldout_r2``.
    resolution : ModelResolution or None
        What the model id matched.
    situation : Situation or None
    notes : tuple of str
        Caveats and advice in words.
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
    catalogue: CatalogueAdvice | None
    objective: str = "accuracy"
    schema_tokens: int | None = None
    tokens_source: str = "unknown"
    cost_per_request: float | None = None
    price: Price | None = None
    protocol_source: str = "default"
    shifts: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))
    ties: tuple[tuple[str, str], ...] = ()
    ranking: tuple[CellEstimate, ...] = ()
    evidence: tuple[EvidenceRow, ...] = ()
    guard: GuardAdvice | None = None
    surface: Mapping[str, Any] | None = None
    resolution: ModelResolution | None = None
    situation: Situation | None = None
    notes: tuple[str, ...] = ()

    @property
    def strategy(self) -> str | None:
        """The catalogue strategy (``one_shot``, ``retrieve``, ``two_stage``), or None."""
        return self.catalogue.strategy if self.catalogue is not None else None

    @property
    def extrapolated(self) -> bool:
        """True when the protocol came from a search of the crossing table."""
        return self.protocol_source == "crossing_search"

    def summary(self) -> str:
        """The recommendation in one line."""
        low, high = self.interval
        kind = ("range of table values, not a CI" if self.interval_kind == "range"
                else "measured interval")
        where = ", ".join(part for part in (
            f"rule {self.rule}",
            f"{self.n_tools} tools" if self.n_tools is not None else None,
            f"tier {self.tier}" if self.tier is not None else None,
        ) if part)
        ties = f"; tied with {', '.join(f'{f}+{p}' for f, p in self.ties)}" if self.ties else ""
        strategy = f"; catalogue: {self.strategy}" if self.strategy else ""
        searched = "; protocol searched (extrapolation)" if self.extrapolated else ""
        return (f"{self.format_id} + {self.protocol_id}: {self.expected_accuracy:.2f}% expected "
                f"[{low:.2f}, {high:.2f}] ({kind}); basis {self.basis}; {where}{strategy}"
                f"{searched}{ties}")

    def evidence_frame(self) -> pd.DataFrame:
        """The evidence rows as a DataFrame (``table, source, key, column, value, unit, label,
        role``)."""
        columns = ["table", "source", "key", "column", "value", "unit", "label", "role"]
        return pd.DataFrame(
            [{"table": e.table, "source": ", ".join(e.source),
              "key": ", ".join(f"{k}={v}" for k, v in e.key.items()), "column": e.column,
              "value": e.value, "unit": e.unit, "label": e.label, "role": e.role}
             for e in self.evidence], columns=columns)

    def ranking_frame(self) -> pd.DataFrame:
        """Every candidate, best first (``format_id, protocol_id, expected_accuracy, low, high``
        in percent, ``schema_tokens``, ``cost_per_request``, ``score``, ``penalties``)."""
        columns = ["format_id", "protocol_id", "expected_accuracy", "low", "high",
                   "schema_tokens", "cost_per_request", "score", "penalties"]
        return pd.DataFrame([{**vars(c), "penalties": ", ".join(c.penalties)}
                             for c in self.ranking], columns=columns)

    def to_dict(self) -> dict[str, Any]:
        """Everything as a JSON-ready dict (``toolform recommend --json``)."""
        return {
            "format_id": self.format_id, "protocol_id": self.protocol_id,
            "expected_accuracy": round(self.expected_accuracy, 2),
            "interval": [round(self.interval[0], 2), round(self.interval[1], 2)],
            "interval_kind": self.interval_kind, "basis": self.basis, "rule": self.rule,
            "objective": self.objective, "n_tools": self.n_tools, "tier": self.tier,
            "protocol_source": self.protocol_source,
            "ties": [list(t) for t in self.ties],
            "catalogue": self.catalogue.to_dict() if self.catalogue else None,
            "schema_tokens": self.schema_tokens, "tokens_source": self.tokens_source,
            "cost_per_request": self.cost_per_request,
            "price": self.price.to_dict() if self.price else None,
            "shifts": {k: round(v, 6) for k, v in self.shifts.items()},
            "ranking": [{**vars(c), "penalties": list(c.penalties),
                         "score": c.score if c.score is not None and math.isfinite(c.score)
                         else None} for c in self.ranking],
            "evidence": [e.to_dict() for e in self.evidence],
            "guard": self.guard.to_dict() if self.guard else None,
            "surface": dict(self.surface) if self.surface else None,
            "resolution": self.resolution.to_dict() if self.resolution else None,
            "situation": self.situation.to_dict() if self.situation else None,
            "notes": list(self.notes), "summary": self.summary(),
        }


# -- the evidence, indexed once -------------------------------------------------------------------

class _Tables:
    """The evidence tables the advisor reads, keyed for lookup."""

    def __init__(self) -> None:
        self.table: dict[str, EvidenceTable] = {}
        grid = self.load("main_grid")
        self.base_n_tools = int(grid.conditions["n_tools"])
        self.base_tier = int(grid.conditions["tier"])
        self.core: list[str] = []
        self.default_protocol: dict[str, str] = {}
        self.grid: dict[tuple[str, str], Mapping[str, Any]] = {}
        self.rules: list[str] = []
        for r in grid.rows:
            if r["format_id"] not in self.default_protocol:
                self.core.append(r["format_id"])
                self.default_protocol[r["format_id"]] = r["protocol_id"]
            if r["rule"] not in self.rules:
                self.rules.append(r["rule"])
            self.grid[r["format_id"], r["rule"]] = r
        self.crossing = {(r["format_id"], r["protocol_id"], r["rule"]): r
                         for r in self.load("protocol_crossing").rows}
        self.counts: dict[str, list[Mapping[str, Any]]] = {}
        for r in self.load("tool_count").rows:
            self.counts.setdefault(r["format_id"], []).append(r)
        for series in self.counts.values():
            series.sort(key=lambda r: r["n_tools"])
        self.tiers = {(r["format_id"], r["tier"]): r for r in self.load("tiers").rows}
        self.tier_values = tuple(sorted({t for _, t in self.tiers}))
        self.families: dict[str, dict[str, Mapping[str, Any]]] = {}
        for r in self.load("family_accuracy").rows:
            self.families.setdefault(r["family"], {})[r["format_id"]] = r
        self.checkpoints: dict[str, dict[str, Mapping[str, Any]]] = {}
        for r in self.load("checkpoint_accuracy").rows:
            self.checkpoints.setdefault(r["checkpoint_id"], {})[r["format_id"]] = r
        from .zoo import anchor_label

        self.anchors: dict[str, dict[str, Mapping[str, Any]]] = {}
        for r in self.load("anchor_accuracy").rows:
            self.anchors.setdefault(anchor_label(r["anchor"], r["effort"]), {})[
                r["format_id"]] = r
        self.cost = {r["format_id"]: r for r in self.load("cost").rows}
        self.cost_n_tools = int(self.load("cost").conditions["n_tools"])
        self.formats = {r["format_id"]: r for r in self.load("formats").rows}
        self.facts = {r["fact_id"]: r for r in self.load("headline_facts").rows}
        self.injection = {r["format_id"]: r for r in self.load("injection").rows
                          if r["exposure"] == "standard"}

    def load(self, table_id: str) -> EvidenceTable:
        if table_id not in self.table:
            self.table[table_id] = load_evidence(table_id)
        return self.table[table_id]

    def cite(self, table_id: str, row: Mapping[str, Any], column: str, key: tuple[str, ...],
             label: str, role: str) -> EvidenceRow:
        return EvidenceRow.cite(self.load(table_id), row, column, key=key, label=label,
                                role=role)

    def cite_all(self, refs: Sequence[_Ref]) -> list[EvidenceRow]:
        """The evidence rows of ``refs``, each cited once."""
        seen, out = set(), []
        for table_id, row, column, key, label, role in refs:
            ident = (table_id, tuple(row[k] for k in key), column)
            if ident not in seen:
                seen.add(ident)
                out.append(self.cite(table_id, row, column, key, label, role))
        return out

    def fact(self, fact_id: str, label: str, role: str) -> EvidenceRow:
        return self.cite("headline_facts", self.facts[fact_id], "value", ("fact_id",), label,
                         role)


@functools.lru_cache(maxsize=1)
def _tables() -> _Tables:
    return _Tables()


def _label(fid: str) -> str:
    return CORE_FORMAT_LABELS.get(fid, fid)


# -- one candidate --------------------------------------------------------------------------------

# A citation not yet made (table id, row, column, key columns, label, role): candidates keep these
# and only the recommended one's become EvidenceRows.
_Ref = tuple[str, Mapping[str, Any], str, tuple[str, ...], str, str]

@dataclass
class _Candidate:
    format_id: str
    protocol_id: str
    core: bool
    expected: float
    low: float
    high: float
    evidence: list[_Ref]
    shifts: dict[str, float] = field(default_factory=dict)
    protocol_source: str = "default"
    notes: list[str] = field(default_factory=list)
    schema_tokens: int | None = None
    tokens_source: str = "unknown"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost: float | None = None
    score: float = 0.0
    penalties: list[str] = field(default_factory=list)

    def estimate(self) -> CellEstimate:
        return CellEstimate(self.format_id, self.protocol_id, self.expected, self.low, self.high,
                            self.schema_tokens, self.cost, self.score, tuple(self.penalties))


@dataclass(frozen=True)
class _Context:
    """What every candidate of one recommendation shares."""

    s: Situation
    n_tools: int
    tier: int
    resolution: ModelResolution
    own_rows: Mapping[str, Mapping[str, Any]] | None  # the model's own rows by format
    own_table: str | None
    own_key: tuple[str, ...]
    own_label: str
    toolset: Toolset | None
    price: Price
    blocks: dict[str, str | None] = field(default_factory=dict)

    def block(self, fid: str, notes: list[str]) -> str | None:
        """The toolset's block in ``fid``, rendered once (None when it cannot be shown)."""
        if fid not in self.blocks:
            from .errors import RenderError
            from .formats import render_block

            try:
                self.blocks[fid] = render_block(self.toolset, fid)
            except RenderError as exc:
                notes.append(f"{fid} cannot show these tools ({exc}); no token count")
                self.blocks[fid] = None
        return self.blocks[fid]


def _count_accuracy(ix: _Tables, fid: str, n_tools: int) -> tuple[float, list[Mapping[str, Any]]]:
    """Accuracy at ``n_tools``: the measured value, or linear in log2(tools) between the two
    measured counts around it; clamped to the measured range. Returns the rows it read."""
    series = ix.counts[fid]
    if n_tools <= series[0]["n_tools"]:
        return series[0]["accuracy"], [series[0]]
    if n_tools >= series[-1]["n_tools"]:
        return series[-1]["accuracy"], [series[-1]]
    for lo, hi in zip(series, series[1:]):
        if lo["n_tools"] == n_tools:
            return lo["accuracy"], [lo]
        if lo["n_tools"] < n_tools < hi["n_tools"]:
            w = ((math.log2(n_tools) - math.log2(lo["n_tools"]))
                 / (math.log2(hi["n_tools"]) - math.log2(lo["n_tools"])))
            return lo["accuracy"] + w * (hi["accuracy"] - lo["accuracy"]), [lo, hi]
    return series[-1]["accuracy"], [series[-1]]  # n_tools equals the last count


def _score_core(ix: _Tables, ctx: _Context, fid: str) -> list[_Candidate]:
    """The candidates of one core format: its protocol by the study's rule, or one per crossing
    protocol when protocols are searched."""
    s, label, rule = ctx.s, _label(fid), ctx.s.rule
    rows: list[_Ref] = []
    pooled_row = ix.grid[fid, rule]
    pooled = pooled_row["accuracy"]
    own = ctx.own_rows.get(fid) if ctx.own_rows is not None else None
    if own is not None:
        base = own["accuracy"]
        rows.append((ctx.own_table, own, "accuracy", ctx.own_key,
                     f"{ctx.own_label}, {label}, {ix.base_n_tools} tools, tier "
                     f"{ix.base_tier}, main rule", "base"))
    else:
        base = pooled
    rows.append(("main_grid", pooled_row, "accuracy", ("format_id", "rule"),
                 f"{label}, pooled, {ix.base_n_tools} tools, tier {ix.base_tier}, "
                 f"{rule} rule", "pooled"))
    n, tier = ctx.n_tools, ctx.tier
    c_n, count_rows = _count_accuracy(ix, fid, n)
    c_base, base_rows = _count_accuracy(ix, fid, ix.base_n_tools)
    t_t, t_base = ix.tiers[fid, tier]["accuracy"], ix.tiers[fid, ix.base_tier]["accuracy"]
    shifts: dict[str, float] = {}
    if n != ix.base_n_tools:
        shifts["tool_count"] = _logit(c_n) - _logit(c_base)
        for r in (*base_rows, *count_rows):
            rows.append(("tool_count", r, "accuracy", ("format_id", "n_tools"),
                         f"{label} at {r['n_tools']} tools, tier {ix.base_tier}",
                         "tool_count"))
    tier_move = _logit(t_t) - _logit(t_base)
    tier_dropped = n != ix.base_n_tools and tier_move > 0
    if tier != ix.base_tier:
        if not tier_dropped:
            shifts["tier"] = tier_move
        for t in (ix.base_tier, tier):
            rows.append(("tiers", ix.tiers[fid, t], "accuracy", ("format_id", "tier"),
                         f"{label} at tier {t}, {ix.base_n_tools} tools", "tier"))
    default = ix.default_protocol[fid]
    cross_default = ix.crossing.get((fid, default, rule))

    def cell(protocol: str, source: str, notes: Sequence[str] = ()) -> _Candidate:
        moves = dict(shifts)
        evidence = list(rows)
        cross = ix.crossing.get((fid, protocol, rule))
        cell_notes = list(notes)
        if protocol != default:
            if cross is not None and cross_default is not None:
                moves["protocol"] = _logit(cross["accuracy"]) - _logit(cross_default["accuracy"])
                evidence.append(("protocol_crossing", cross_default, "accuracy",
                                 ("format_id", "protocol_id", "rule"),
                                 f"{label} with {default}, {rule} rule", "protocol"))
            else:
                cell_notes.append(f"no measurement pairs {fid} with {protocol}; its estimate "
                                  f"is {fid}'s own, with {default}")
        if cross is not None:
            evidence.append(("protocol_crossing", cross, "accuracy",
                             ("format_id", "protocol_id", "rule"),
                             f"{label} with {protocol}, {rule} rule", "protocol"))
        point = _logit(base)
        expected = _expit(point + sum(moves.values()))
        values = [base, pooled, c_n, t_t] + ([cross["accuracy"]] if cross is not None else [])
        singles = [_expit(point + moves.get(k, 0.0)) for k in ("tool_count", "tier", "protocol")]
        spread = values + singles + [expected]
        if tier_dropped and tier != ix.base_tier:
            cell_notes.append(f"tier {tier} was measured at {ix.base_n_tools} tools; its gain "
                              f"is not applied at {n} tools")
        return _Candidate(fid, protocol, True, expected, min(spread), max(spread), evidence,
                          moves, source, cell_notes)

    if s.protocol is not None:
        return [cell(s.protocol, "default" if s.protocol == default else "given")]
    if s.search_protocols:
        return [cell(p, "default" if p == default else "crossing_search",
                     [] if p == default else
                     [f"{p} with {fid} comes from a search of the crossing table (35 pooled "
                      f"checkpoints) on a {'model-specific' if own is not None else 'pooled'} "
                      "basis: an extrapolation"])
                for p in CROSSING_PROTOCOLS if (fid, p, rule) in ix.crossing]
    if cross_default is None:
        return [cell(default, "default")]
    best = max((ix.crossing[fid, p, rule] for p in CROSSING_PROTOCOLS
                if (fid, p, rule) in ix.crossing), key=lambda r: r["accuracy"])
    gain = best["accuracy"] - cross_default["accuracy"]
    if best["protocol_id"] == default or gain < SWITCH_GAIN_POINTS:
        return [cell(default, "default")]
    if own is None:
        return [cell(best["protocol_id"], "crossing_switch",
                     [f"{fid} answers in {best['protocol_id']}: the crossing table has it "
                      f"{gain:.2f} points higher than with {default} under the {rule} rule"])]
    return [cell(default, "default",
                 [f"the crossing table has {fid} {gain:.2f} points higher with "
                  f"{best['protocol_id']} than with {default}, pooled over 35 checkpoints; this "
                  f"model's own row was measured with {default}, so {default} is kept (pass "
                  f"protocol={best['protocol_id']!r} to use it)"])]


def _score_other(ix: _Tables, ctx: _Context, fid: str) -> _Candidate | None:
    """A candidate outside the core formats: its pooled leaderboard row, with no moves."""
    from .formats import get_format

    row = ix.formats[fid]
    measured = row["call_exact"]
    if measured is None:
        return None
    default = get_format(fid).default_protocol
    protocol = ctx.s.protocol or default
    notes = ([f"no measurement pairs {fid} with {protocol}"] if protocol != default else [])
    evidence = [("formats", row, "call_exact", ("format_id",),
                 f"{fid}, pooled over every cell it ran in (the study's format leaderboard, "
                 "not the paper's main grid)", "base")]
    return _Candidate(fid, protocol, False, measured, measured, measured, evidence,
                      protocol_source="given" if protocol != default else "default",
                      notes=notes)


def _completion_tokens(ix: _Tables, fid: str, protocol: str) -> float | None:
    """Reply tokens of a cell: the cost table's for a format with its own protocol, else the
    mean over the core formats whose own protocol it is (None when none is)."""
    if ix.default_protocol.get(fid) == protocol and fid in ix.cost:
        return ix.cost[fid]["completion_tokens"]
    values = [ix.cost[f]["completion_tokens"] for f, p in ix.default_protocol.items()
              if p == protocol and f in ix.cost]
    return sum(values) / len(values) if values else None


def _price_candidate(ix: _Tables, ctx: _Context, c: _Candidate, notes: list[str]) -> None:
    """Schema tokens, request tokens and the cost per request of ``c``."""
    row = ix.cost.get(c.format_id)
    if ctx.toolset is not None:
        from .tokens import estimate_tokens

        block = ctx.block(c.format_id, notes)
        if block is None:
            return
        c.schema_tokens, c.tokens_source = estimate_tokens(block), "rendered"
    elif row is not None:
        c.schema_tokens = round(row["schema_tokens"] * ctx.n_tools / ix.cost_n_tools)
        c.tokens_source = "study"
        c.evidence.append(("cost", row, "schema_tokens", ("format_id",),
                           f"{_label(c.format_id)} tool block at "
                           f"{ix.cost_n_tools} tools", "cost"))
    if row is None or c.schema_tokens is None:
        return
    completion = _completion_tokens(ix, c.format_id, c.protocol_id)
    if completion is None:
        if ctx.s.objective != "accuracy":
            notes.append(f"the study has no reply length for {c.protocol_id}; {c.format_id} "
                         f"with it has no cost")
        return
    overhead = row["prompt_tokens"] - row["schema_tokens"]  # the prompt around the block
    c.prompt_tokens = round(c.schema_tokens + overhead)
    c.completion_tokens = round(completion)
    cached = c.schema_tokens if ctx.price.schema_cached else 0
    c.cost = cost_of(c.prompt_tokens, c.completion_tokens, cached_tokens=cached,
                     price=ctx.price)


def _hidden_required(toolset: Toolset, block: str) -> list[str]:
    """``tool.path`` of every required parameter (at any depth) whose name the block never
    shows (names compared in lower-case letters and digits)."""
    import re

    def fold(text: str) -> str:
        return re.sub(r"[^a-z0-9]", "", text.lower())

    shown = {fold(w) for w in re.findall(r"[\w\-]+", block)} | {
        fold(w) for w in re.findall(r"\w+", block)}
    out: list[str] = []

    def walk(params: Sequence[Any], prefix: str, required: bool, tool: str) -> None:
        for p in params:
            path = f"{prefix}.{p.name}" if prefix else p.name
            needed = required and p.required
            if needed and fold(p.name) not in shown:
                out.append(f"{tool}.{path}")
            walk_type(p.type, path, needed, tool)

    def walk_type(t: Any, path: str, required: bool, tool: str) -> None:
        if t is None:
            return
        walk(t.fields, path, required, tool)
        if t.items is not None:
            walk_type(t.items, f"{path}[]", required, tool)
        for option in t.options:
            walk_type(option, path, False, tool)

    for tool in toolset:
        walk(tool.params, "", True, tool.name)
    return out


# -- basis ----------------------------------------------------------------------------------------

def _basis(ix: _Tables, s: Situation, res: ModelResolution,
           notes: list[str]) -> tuple[str, Mapping[str, Mapping[str, Any]] | None, str | None,
                                      tuple[str, ...], str]:
    """The basis label and the model's own rows (None: pooled), under the study's rules."""
    own: tuple[str, Mapping[str, Mapping[str, Any]] | None, str | None, tuple[str, ...], str]
    if res.anchor is not None and res.anchor in ix.anchors:
        own = (f"anchor:{res.anchor}", ix.anchors[res.anchor], "anchor_accuracy",
               ("anchor", "effort", "format_id"), res.anchor)
    elif res.checkpoint is not None and res.checkpoint in ix.checkpoints:
        own = (f"checkpoint:{res.checkpoint}", ix.checkpoints[res.checkpoint],
               "checkpoint_accuracy", ("checkpoint_id", "format_id"), res.checkpoint)
    elif res.family is not None and res.family in ix.families:
        rows = ix.families[res.family]
        first = next(iter(rows.values()))
        own = (f"family:{res.family}", rows, "family_accuracy", ("family", "format_id"),
               f"{first['family_label']} family (mean of {first['n_checkpoints']} "
               f"checkpoint{'s' if first['n_checkpoints'] != 1 else ''})")
    else:
        if res.family is not None:
            notes.append(f"the study has no family row for {res.family}; the pooled tables "
                         "are read")
        elif res.matched_by == "none" and res.query:
            notes.append(f"{res.query} matches no checkpoint, anchor, zoo id or family "
                         "pattern; the pooled tables are read")
        return "pooled", None, None, (), ""
    if s.rule != "main":
        notes.append(f"{own[0]} has rows under the main rule only; the pooled table under the "
                     f"{s.rule} rule is read")
        return "pooled", None, None, (), ""
    return own


# -- catalogue and guard advice -------------------------------------------------------------------

def _catalogue_advice(n_tools: int, tokens: int | None, context: int | None,
                      budget: int | None, forced: bool) -> CatalogueAdvice:
    from .catalogue._plan import decide_strategy, explain_strategy

    if tokens is None:
        from ._thresholds import catalogue_strategy

        strategy = catalogue_strategy(n_tools)
        why = f"{n_tools} tools; the tool block's size is unknown."
        over_budget = False
    else:
        strategy, why, over_budget = decide_strategy(n_tools, tokens, context_tokens=context,
                                                     budget_tokens=budget)
    if over_budget:
        strategy = "two_stage"
        why += f" The {tokens}-token block is over the {budget}-token budget."
    if forced and strategy != "two_stage":
        strategy = "two_stage"
        why += " No core format fits the token budget."
    rows, text = explain_strategy(strategy, n_tools)
    return CatalogueAdvice(strategy, f"{why} {text}", tuple(rows))


def _guard_advice(ix: _Tables, fid: str) -> GuardAdvice:
    low = ix.fact("injection_min", "hidden instruction followed, least-followed format",
                  "guard")
    high = ix.fact("injection_max", "hidden instruction followed, most-followed format",
                   "guard")
    trust = ix.fact("trust_line_sentinel", "effect of a sentence calling tool metadata "
                                           "untrusted on how often it is followed", "guard")
    rows = [low, high, trust]
    own = ix.injection.get(fid)
    if own is not None:
        rows.insert(0, ix.cite("injection", own, "followed", ("format_id", "exposure"),
                               f"hidden instruction followed, {_label(fid)}", "guard"))
    if own is not None and not own["shows_descriptions"]:
        return GuardAdvice("none", f"{fid} shows no description, and in the study it followed "
                                   f"a planted instruction on {own['followed']:.2f}% of turns "
                                   "(injection).", tuple(rows))
    rate = f" ({own['followed']:.2f}% for {_label(fid)})" if own is not None else ""
    reason = (f"Scan and clean third-party descriptions (toolform.guard) before showing them: in "
              f"every format that shows descriptions, models followed one planted instruction "
              f"on {low.value:.2f} to {high.value:.2f}% of turns{rate}, and a system sentence "
              f"calling tool metadata untrusted changed that by {trust.value:+.2f} points "
              f"(headline_facts).")
    if fid == "python_stub":
        cut = ix.fact("descriptions_off_python_stub", "accuracy effect of removing the "
                      "Python stub's docstrings", "guard")
        rows.append(cut)
        reason += (f" Clean rather than drop them with the Python stub: its docstring documents "
                   f"the parameters, and removing it cost {abs(cut.value):.2f} points.")
    return GuardAdvice("strip", reason, tuple(rows))


def _measure_note(ix: _Tables, family: str | None) -> str:
    f = {k: ix.facts[k]["value"] for k in ("measure_eight", "fitted_rule", "always_xml",
                                           "always_json")}
    note = (f"if you can call the model, measure: in the study, eight cells on the target model "
            f"reached {f['measure_eight']:.2f}% against {f['fitted_rule']:.2f}% for the fitted "
            f"rule, {f['always_xml']:.2f}% for always XML and {f['always_json']:.2f}% for the "
            f"JSON Schema default (headline_facts; toolform.ab_test, then "
            "recommend(measured=...))")
    if family in THINKING_FAMILIES:
        note += ("; this family's chat template thinks by default and the study turned it off "
                 "(OpenAICompatClient(..., enable_thinking=False))")
    return note


def _surface(fid: str, res: ModelResolution, n_tools: int, tier: int,
             notes: list[str]) -> Mapping[str, Any] | None:
    from .surface import SURFACE_FORM, open_params_range, predict_surface, surface_heldout_r2

    if res.params_b is None:
        return None
    low, high = open_params_range()
    if not low <= res.params_b <= high:
        notes.append(f"{res.params_b:g}B is outside the open checkpoints the fitted surface saw "
                     f"({low:g} to {high:g}B); no surface prediction")
        return None
    predicted = predict_surface(fid, params_b=res.params_b, n_tools=n_tools, tier=tier)
    if predicted is None:
        return None
    return MappingProxyType({"format_id": fid, "predicted_accuracy": predicted,
                             "params_b": res.params_b, "form": SURFACE_FORM,
                             "heldout_r2": surface_heldout_r2(),
                             "note": "extrapolation only; never used to choose"})


# -- public entry points --------------------------------------------------------------------------

def _load_toolset(tools: Any) -> Toolset:
    if isinstance(tools, Toolset):
        return tools
    if isinstance(tools, (str, Path)):
        from .io import load_tools

        return load_tools(tools)
    raise ParameterTypeError(f"tools must be a Toolset or a path to a tools file, got "
                             f"{type(tools).__name__}")


def _rank_key(c: _Candidate, order: Mapping[str, int]) -> tuple[bool, float, int, int]:
    protocol_rank = (CROSSING_PROTOCOLS.index(c.protocol_id)
                     if c.protocol_id in CROSSING_PROTOCOLS else len(CROSSING_PROTOCOLS))
    return bool(c.penalties), -c.score, order.get(c.format_id, len(order)), protocol_rank


def recommend(tools: Toolset | str | Path | Situation | None = None, model: str | None = None,
              *, situation: Situation | None = None, measured: Any = None,
              **fields_: Any) -> Recommendation:
    """Recommend a format and an answer protocol for a model and a toolset, as the study would.

    Parameters
    ----------
    tools : Toolset, path or Situation, optional
        The toolset (or a file ``toolform.io.load_tools`` reads): gives the tool count and tier
        when they are not passed, and real token counts. A :class:`Situation` here is the same
        as ``situation=``.
    model : str, optional
        A model id (see :func:`toolform.zoo.resolve_model`).
    situation : Situation, optional
        Every input at once; ``fields_`` then override it.
    measured : DataFrame or object with ``.cells``, optional
        An eight-cell A/B result on the target model; when given the recommendation comes from
        it (see :func:`recommend_from_measurement`).
    **fields_
        Fields of :class:`Situation`: ``family``, ``params_b``, ``n_tools``, ``tier``, ``rule``,
        ``protocol``, ``objective``, ``price``, ``token_budget``, ``context_tokens``,
        ``candidates``, ``third_party_tools``, ``search_protocols``.

    Returns
    -------
    Recommendation
        The best candidate, its expected accuracy in percent, the range across the table values
        it rests on, the basis, the ties, how to show the catalogue, tokens and cost, and every
        evidence row with its source. Tables: ``main_grid``, ``protocol_crossing``,
        ``tool_count``, ``tiers``, ``family_accuracy``, ``anchor_accuracy``,
        ``checkpoint_accuracy``, ``zoo_*``, ``cost``, ``cost_prices``, ``formats``,
        ``tool_count_pooled``, ``retrieval_baseline``, ``disclosure``, ``injection``,
        ``headline_facts``, ``surface_*``.

    Raises
    ------
    ValueError
        For an input outside what is allowed (the message names the field, the allowed values
        and the value given), or an empty toolset.
    TypeError
        For an unknown field, or ``tools`` of the wrong type.
    EvidenceError
        When an evidence table is missing or altered.

    Examples
    --------
    >>> rec = recommend(family="glm", n_tools=8, tier=5)
    >>> rec.format_id, rec.protocol_id, rec.basis
    ('yaml_schema', 'json_object', 'family:glm')
    """
    if isinstance(tools, Situation):
        situation, tools = tools, None
    if model is not None:
        fields_["model"] = model
    s = replace(situation, **fields_) if situation is not None else Situation(**fields_)
    if measured is not None:
        return recommend_from_measurement(measured, rule=s.rule, tools=tools, model=s.model,
                                          n_tools=s.n_tools, context_tokens=s.context_tokens)
    s.validate()
    ix = _tables()
    toolset = _load_toolset(tools) if tools is not None else None
    if toolset is not None and len(toolset) == 0:
        where = f" ({toolset.source})" if toolset.source else ""
        raise InvalidParameterError(f"the toolset{where} is empty; give at least one tool")
    notes: list[str] = []
    n_tools = s.n_tools or (len(toolset) if toolset is not None else ix.base_n_tools)
    tier = s.tier or (toolset.tier_estimate() if toolset is not None else ix.base_tier)
    if s.n_tools is None and toolset is None:
        notes.append(f"tool count not given: read at the main grid's {ix.base_n_tools} tools")
    if s.tier is None:
        notes.append(f"tier {tier} estimated from the tools" if toolset is not None else
                     f"tier not given: read at the main grid's tier {ix.base_tier}")
    last_count = max(r["n_tools"] for r in ix.counts[ix.core[0]])
    if n_tools > last_count:
        notes.append(f"more than {last_count} tools is outside the measured counts; the "
                     f"{last_count}-tool values are read")
    res = resolve_model(s.model, family=s.family, params_b=s.params_b)
    basis, own_rows, own_table, own_key, own_label = _basis(ix, s, res, notes)
    if s.rule != "main" and (n_tools != ix.base_n_tools or tier != ix.base_tier):
        notes.append(f"the tool-count and tier moves come from main-rule tables and are applied "
                     f"under the {s.rule} rule")
    ctx = _Context(s, n_tools, tier, res, own_rows, own_table, own_key, own_label, toolset,
                   get_price(s.price))

    names = list(dict.fromkeys(s.candidates)) if s.candidates else list(ix.core)
    if any(f not in ix.default_protocol for f in names):
        notes.append("candidates outside the eight core formats are scored from the study's "
                     "format leaderboard (pooled over every cell), with no count, tier or "
                     "protocol move")
    scored: list[_Candidate] = []
    for fid in names:
        if fid in ix.default_protocol:
            scored += _score_core(ix, ctx, fid)
        else:
            other = _score_other(ix, ctx, fid)
            if other is None:
                notes.append(f"{fid} has no measured row in the evidence; it is left out")
            else:
                scored.append(other)
    if not scored:
        raise InvalidParameterError(f"no candidate format has evidence to score: {names}")
    for c in scored:
        _price_candidate(ix, ctx, c, notes)
    if n_tools != ix.base_n_tools and tier != ix.base_tier:
        notes.append(f"no table crossed the tool count and the tier: tier {tier} was measured "
                     f"at {ix.base_n_tools} tools and {n_tools} tools at tier {ix.base_tier}")

    forced = False
    if s.token_budget is not None:
        fits = [c for c in scored if c.schema_tokens is None or c.schema_tokens <= s.token_budget]
        over = [c.format_id for c in scored if c not in fits]
        if over:
            notes.append(f"over the token budget of {s.token_budget}: {', '.join(over)}")
        if not fits:
            smallest = next((c for c in scored if c.format_id == "json_minimal"), None)
            if smallest is None:
                smallest = _score_core(ix, ctx, "json_minimal")[0]
                _price_candidate(ix, ctx, smallest, notes)
            fits, forced = [smallest], True
            notes.append("no format fits the budget; the minimal schema is kept and the "
                         "catalogue is shown in two stages")
        scored = fits

    context = s.context_tokens or res.context_tokens
    if context:
        big = [c for c in scored if c.schema_tokens is not None
               and c.schema_tokens > TWO_STAGE_CONTEXT_SHARE * context]
        for c in big:
            c.penalties.append("context")
        if big:
            where = "" if s.context_tokens else " (the zoo's window for this id)"
            notes.append(f"over half of the {context}-token context window{where}: "
                         f"{', '.join(dict.fromkeys(c.format_id for c in big))}; ranked last")
    if toolset is not None:
        hidden = {}
        for fid in dict.fromkeys(c.format_id for c in scored):
            block = ctx.block(fid, notes)
            hidden[fid] = _hidden_required(toolset, block) if block is not None else []
        for c in scored:
            if hidden[c.format_id]:
                c.penalties.append("hidden")
        hiders = [f for f, h in hidden.items() if h]
        if hiders:
            notes.append(f"{', '.join(hiders)} hide required nested fields of these tools "
                         f"({', '.join(hidden[hiders[0]][:4])}); ranked after the formats that "
                         "show them")

    for c in scored:
        if s.objective == "accuracy":
            c.score = c.expected
        elif s.objective == "cost":
            c.score = c.expected / c.cost if c.cost else -math.inf
        else:
            tokens = (c.prompt_tokens or 0) + (c.completion_tokens or 0)
            c.score = c.expected / tokens if c.prompt_tokens is not None else -math.inf
    if s.objective != "accuracy" and all(c.score == -math.inf for c in scored):
        notes.append(f"no candidate has a {s.objective.replace('_', ' ')} figure in the "
                     "study's tables; ranked by accuracy")
        for c in scored:
            c.score = c.expected
    order = {fid: i for i, fid in enumerate(names)}
    scored.sort(key=lambda c: _rank_key(c, order))
    win = scored[0]
    rest = [c for c in scored[1:] if not c.penalties] if not win.penalties else scored[1:]
    if s.objective == "accuracy":
        tied = [c for c in rest if win.expected - c.expected <= TIE_POINTS]
    else:
        tied = [c for c in rest if win.score > 0 and c.score >= win.score * (1 - TIE_SHARE)]

    catalogue = _catalogue_advice(n_tools, win.schema_tokens, context, s.token_budget, forced)
    guard = _guard_advice(ix, win.format_id) if s.third_party_tools else None
    notes += win.notes
    if s.rule == "main" and _text_valued(win.protocol_id):
        fact = ix.facts["renest_overcredit"]
        notes.append(f"{win.protocol_id} is read by a text parser that re-nests a flat argument "
                     f"under the main rule; the study's hand check judged that repair wrong on "
                     f"{fact['value']}% [{fact['low']}, {fact['high']}] of the turns it touched "
                     "(the symmetric rule repairs every protocol alike)")
    surface = _surface(win.format_id, res, n_tools, tier, notes)
    if win.shifts:
        notes.append(_COMBINATION_NOTE)
    notes.append(_RANGE_NOTE)
    notes.append(_measure_note(ix, res.family))
    return Recommendation(
        format_id=win.format_id, protocol_id=win.protocol_id, expected_accuracy=win.expected,
        interval=(win.low, win.high), interval_kind="range",
        basis=basis if win.core else "pooled", rule=s.rule, n_tools=n_tools, tier=tier,
        catalogue=catalogue, objective=s.objective, schema_tokens=win.schema_tokens,
        tokens_source=win.tokens_source, cost_per_request=win.cost, price=ctx.price,
        protocol_source=win.protocol_source, shifts=MappingProxyType(dict(win.shifts)),
        ties=tuple((c.format_id, c.protocol_id) for c in tied),
        ranking=tuple(c.estimate() for c in scored), evidence=tuple(ix.cite_all(win.evidence)),
        guard=guard, surface=surface, resolution=res, situation=s,
        notes=tuple(dict.fromkeys(notes)),
    )


def _text_valued(protocol_id: str) -> bool:
    from .protocols import get_protocol

    return bool(get_protocol(protocol_id).text_values)


def _measurement_frame(measurement: Any) -> pd.DataFrame:
    frame = getattr(measurement, "cells", measurement)
    if not isinstance(frame, pd.DataFrame):
        raise ParameterTypeError("the measurement must be a DataFrame or an object with a .cells "
                                 f"DataFrame, got {type(measurement).__name__}")
    missing = [c for c in MEASUREMENT_COLUMNS if c not in frame.columns]
    if missing:
        raise InvalidParameterError(
            f"the measurement lacks columns {missing}; it needs "
            f"{list(MEASUREMENT_COLUMNS)} (accuracy and interval in percent)")
    bad = frame[(frame["accuracy"] < 0) | (frame["accuracy"] > 100)]
    if len(bad):
        raise InvalidParameterError(f"measured accuracy must be a percent in [0, 100]; row "
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
        As for :func:`recommend`; used for the catalogue advice only.

    Returns
    -------
    Recommendation
        ``basis="measured"``, ``interval_kind="measured"`` (the best cell's own interval);
        ``ranking`` holds every measured cell, best first; ``evidence`` holds each measured
        cell and the ``selection`` rows that justify measuring. Cells whose intervals overlap
        the best one's are its ties.

    Raises
    ------
    TypeError
        When ``measurement`` is neither a DataFrame nor has a ``.cells`` DataFrame.
    ValueError
        When columns are missing, an accuracy is not a percent, or no row has ``rule``.
    """
    frame = _measurement_frame(measurement)
    for name, value in (("n_tools", n_tools), ("context_tokens", context_tokens)):
        if value is not None and not _positive_int(value):
            raise InvalidParameterError(f"{name} must be a positive integer or None, got {value!r}")
    rows = frame[frame["rule"] == rule]
    if rows.empty:
        raise InvalidParameterError(f"rule must be one of the measured rules "
                                    f"{sorted(frame['rule'].unique().tolist())}, got {rule!r}")
    ix = _tables()
    toolset = _load_toolset(tools) if tools is not None else None
    if n_tools is None and toolset is not None:
        n_tools = len(toolset)
    rows = rows.sort_values("accuracy", ascending=False, kind="stable")
    ranking = tuple(CellEstimate(str(r.format_id), str(r.protocol_id), float(r.accuracy),
                                 float(r.ci_low), float(r.ci_high), score=float(r.accuracy))
                    for r in rows.itertuples())
    best = ranking[0]
    evidence = [EvidenceRow(table="measurement", source=("ab_test",),
                            key=MappingProxyType({"format_id": c.format_id,
                                                  "protocol_id": c.protocol_id, "rule": rule,
                                                  "n": int(n)}),
                            column="accuracy", value=c.expected_accuracy, unit="percent",
                            label=f"{c.format_id} with {c.protocol_id}, measured on the target "
                                  f"model, {rule} rule", role="measured")
                for c, n in zip(ranking, rows["n"])]
    selection = {r["procedure"]: r for r in ix.load("selection").rows if r["scope"] == "mean"}
    procedures = ("measure_eight", "fitted_rule", "always_json")
    sel = [ix.cite("selection", selection[p], "accuracy", ("scope", "procedure"),
                   f"selection procedure {p}, mean over the held-out families", "selection")
           for p in procedures]
    evidence += sel
    notes = [
        "recommended from the measurement on the target model: in the study, measuring eight "
        f"cells reached {sel[0].value:.2f}% against {sel[1].value:.2f}% for the fitted rule and "
        f"{sel[2].value:.2f}% for always JSON (table selection, {', '.join(sel[0].source)})",
        "the interval is the measured cell's own, as the A/B result reports it",
    ]
    overlapping = tuple((c.format_id, c.protocol_id) for c in ranking[1:] if c.high >= best.low)
    if overlapping:
        notes.append(f"{len(overlapping)} other measured cell(s) have intervals reaching the "
                     f"best cell's lower end; more requests would separate them")
    catalogue = None
    if n_tools is not None:
        tokens = None
        if toolset is not None:
            from .formats import render_block
            from .tokens import estimate_tokens

            tokens = estimate_tokens(render_block(toolset, best.format_id))
        catalogue = _catalogue_advice(n_tools, tokens, context_tokens, None, False)
    else:
        notes.append("tool count unknown: no catalogue advice (give n_tools or tools)")
    return Recommendation(
        format_id=best.format_id, protocol_id=best.protocol_id,
        expected_accuracy=best.expected_accuracy, interval=(best.low, best.high),
        interval_kind="measured", basis="measured", rule=rule, n_tools=n_tools, tier=None,
        catalogue=catalogue, protocol_source="default", ties=overlapping, ranking=ranking,
        evidence=tuple(evidence), notes=tuple(notes),
    )
