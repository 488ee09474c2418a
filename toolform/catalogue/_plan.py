"""``plan_catalogue``: how to show a catalogue — whole, retrieved, or names first — and why.

The thresholds live in :mod:`toolform._thresholds` (shared with the advisor); the figures a plan
quotes are rows of the evidence tables, each carried with its table id and the study tables it
comes from:

* ``tool_count_pooled`` — accuracy and empty turns at the measured size nearest the catalogue's
  (the pooled sweep falls from 64.20% strict accuracy at 1 tool to 23.19% at 256);
* ``retrieval_baseline`` — a 128-tool panel shown whole against its top 8 or 16 retrieved tools;
* ``disclosure`` — names (with or without descriptions) first, then the chosen tool's schema,
  against the one-shot block, at the measured size nearest the catalogue's.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from .._thresholds import (RETRIEVE_MIN_TOOLS, STRATEGIES, TWO_STAGE_CONTEXT_SHARE,
                           TWO_STAGE_MIN_TOOLS, catalogue_strategy)
from ..errors import InvalidParameterError
from ..evidence import EvidenceRow, load_evidence
from ..formats import render_block
from ..ir import Toolset
from ..tokens import estimate_tokens
from ._retrieve import Retrieval, retrieve
from ._two_stage import TwoStage

__all__ = ["CataloguePlan", "EvidenceRow", "decide_strategy", "explain_strategy",
           "plan_catalogue"]


@dataclass(frozen=True)
class CataloguePlan:
    """How to show a catalogue to a model, with the reason and the evidence.

    Attributes
    ----------
    strategy : str
        ``"one_shot"`` (every schema in one prompt), ``"retrieve"`` (the ``k`` best tools only)
        or ``"two_stage"`` (names first, then the chosen tool's schema).
    n_tools : int
        Tools in the catalogue.
    schema_tokens : int
        The whole tool block in ``format_id``, in tokens (characters / 4).
    format_id : str
        The format the block was rendered in.
    reason : str
        One paragraph saying which threshold or budget decided, with the study's figures.
    evidence : tuple of EvidenceRow
        The evidence rows the reason quotes; each has ``source``, ``label`` and ``value``
        (and the whole stored ``row``).
    context_tokens, budget_tokens : int or None
        The context window and the per-turn tool budget the plan was made for, in tokens.
    k : int
        Tools a retrieval keeps.
    retrieval : Retrieval or None
        With a query and strategy ``"retrieve"``: the tools to show.
    selection_messages : list of dict or None
        With a query and strategy ``"two_stage"``: the first-stage chat messages.
    retrieved_tokens : int or None
        With a retrieval: its tool block, in tokens.
    """

    strategy: str
    n_tools: int
    schema_tokens: int
    format_id: str
    reason: str
    evidence: tuple[EvidenceRow, ...]
    context_tokens: int | None = None
    budget_tokens: int | None = None
    k: int = 8
    retrieval: Retrieval | None = None
    selection_messages: list[dict[str, Any]] | None = field(default=None, repr=False)
    retrieved_tokens: int | None = None

    def evidence_frame(self) -> Any:
        """The evidence rows as a DataFrame: ``table``, ``source``, ``label``, then each stored
        row's columns (one row per evidence row)."""
        import pandas as pd

        return pd.DataFrame([{"table": e.table, "source": ", ".join(e.source), "label": e.label,
                              **dict(e.row)} for e in self.evidence])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the CLI's ``--json`` output)."""
        return {
            "strategy": self.strategy, "n_tools": self.n_tools,
            "schema_tokens": self.schema_tokens, "format_id": self.format_id,
            "context_tokens": self.context_tokens, "budget_tokens": self.budget_tokens,
            "k": self.k, "reason": self.reason,
            "retrieved": self.retrieval.names if self.retrieval is not None else None,
            "retrieved_tokens": self.retrieved_tokens,
            "selection_messages": self.selection_messages,
            "evidence": [e.to_dict() for e in self.evidence],
        }


def _cite(table_id: str, column: str, key: tuple[str, ...], label: Any,
          **match: Any) -> list[EvidenceRow]:
    """Every row of ``table_id`` matching ``match``, citing ``column``; ``label(row)`` words it."""
    table = load_evidence(table_id)
    return [EvidenceRow.cite(table, r, column, key=key, label=label(r), role="catalogue")
            for r in table.rows if all(r.get(k) == v for k, v in match.items())]


@functools.lru_cache(maxsize=None)
def _nearest(table_id: str, n_tools: int) -> int:
    """The measured catalogue size nearest ``n_tools`` on a log scale (ties go to the larger)."""
    sizes = sorted({r["n_tools"] for r in load_evidence(table_id).rows})
    return min(sizes, key=lambda s: (round(abs(math.log2(s) - math.log2(n_tools)), 9), -s))


def _pct(value: float) -> str:
    return f"{value:.2f}%"


def _count_evidence(n_tools: int) -> tuple[list[EvidenceRow], str]:
    size = _nearest("tool_count_pooled", n_tools)
    first, last = 1, max(r["n_tools"] for r in load_evidence("tool_count_pooled").rows)

    def words(r: Mapping[str, Any]) -> str:
        what = "strict accuracy" if r["reading"] == "strict" else f"{r['reading']} turns"
        tools = "tool" if r["n_tools"] == 1 else "tools"
        return f"{what} at {r['n_tools']} {tools}, one shot, pooled over the core formats"

    def rows(n: int, reading: str) -> list[EvidenceRow]:
        return _cite("tool_count_pooled", "value", ("n_tools", "reading"), words, n_tools=n,
                     reading=reading)

    near = rows(size, "strict") + rows(size, "empty")
    ends = rows(first, "strict") + rows(last, "strict")
    strict, empty = near[0].value, near[1].value
    text = (f"In the study's tool-count sweep strict accuracy falls from "
            f"{_pct(ends[0].value)} at {first} tool to {_pct(ends[1].value)} at "
            f"{last}; at {size} tools (nearest measured size) it is {_pct(strict)}, with "
            f"{_pct(empty)} of turns empty (tool_count_pooled).")
    extra = [e for e in ends if e.row["n_tools"] != size]
    return near + extra, text


def _retrieval_evidence(k: int) -> tuple[list[EvidenceRow], str]:
    table = load_evidence("retrieval_baseline")
    panel = table.conditions.get("panel_tools")

    def words(r: Mapping[str, Any]) -> str:
        if r["method"] == "none":
            return f"the {panel}-tool panel shown whole"
        by = "BM25" if r["method"] == "bm25" else "an embedding"
        return f"the top {r['top_k']} of the {panel}-tool panel by {by}"

    rows = _cite("retrieval_baseline", "accuracy", ("method", "top_k"), words)
    whole = next(r for r in rows if r.row["method"] == "none")
    ks = sorted({r.row["top_k"] for r in rows if r.row["top_k"] is not None},
                key=lambda v: (abs(v - k), v))
    best_k = ks[0]
    picked = [r for r in rows if r.row["top_k"] == best_k]
    by = {r.row["method"]: r.value for r in picked}
    text = (f"On a {panel}-tool panel the whole catalogue reached {_pct(whole.value)}; "
            f"its top {best_k} by BM25 {_pct(by['bm25'])} and by an embedding "
            f"{_pct(by['embedding'])} (retrieval_baseline).")
    return [whole, *picked], text


def _disclosure_evidence(n_tools: int) -> tuple[list[EvidenceRow], str]:
    size = _nearest("disclosure", n_tools)

    def words(r: Mapping[str, Any]) -> str:
        shown = "names with descriptions" if r["arm"] == "names_desc" else "names alone"
        return f"{shown} first, then one schema, minus one shot, at {r['n_tools']} tools"

    rows = [r for r in _cite("disclosure", "gain", ("n_tools", "arm"), words, n_tools=size)
            if r.row["arm"] in ("names", "names_desc")]
    by = {r.row["arm"]: r.row for r in rows}
    nd, nm = by["names_desc"], by["names"]
    text = (f"At {size} tools (nearest measured size), names with descriptions first changed "
            f"accuracy by {nd['gain']:+.2f} points [{nd['gain_low']:.2f}, {nd['gain_high']:.2f}] "
            f"against the one-shot block, names alone by {nm['gain']:+.2f} (disclosure).")
    return rows, text


def explain_strategy(strategy: str, n_tools: int, *, k: int = 8) -> tuple[list[EvidenceRow], str]:
    """The study's figures behind a catalogue strategy, as evidence rows and sentences.

    Parameters
    ----------
    strategy : {"one_shot", "retrieve", "two_stage"}
    n_tools : int
        Tools in the catalogue (the nearest measured sizes are quoted).
    k : int, default 8
        Tools a retrieval keeps (the nearest measured ``top_k`` is quoted).

    Returns
    -------
    (list of EvidenceRow, str)
        The rows (tables ``tool_count_pooled``, then ``retrieval_baseline`` for ``retrieve``
        or ``disclosure`` for ``two_stage``) and the sentences quoting them.

    Raises
    ------
    ValueError
        For an unknown strategy.
    """
    if strategy not in STRATEGIES:
        raise InvalidParameterError(f"strategy must be one of {list(STRATEGIES)}, got {strategy!r}")
    rows, text = _explained(strategy, _nearest("tool_count_pooled", n_tools),
                            _nearest("disclosure", n_tools), k)
    return list(rows), text


@functools.lru_cache(maxsize=64)
def _explained(strategy: str, count_size: int, disclosure_size: int,
               k: int) -> tuple[tuple[EvidenceRow, ...], str]:
    """``explain_strategy`` at measured sizes (so that one answer serves many catalogues)."""
    rows, text = _count_evidence(count_size)
    texts = [text]
    if strategy == "retrieve":
        more, text = _retrieval_evidence(k)
        rows, texts = rows + more, texts + [text]
    elif strategy == "two_stage":
        more, text = _disclosure_evidence(disclosure_size)
        rows, texts = rows + more, texts + [text]
    return tuple(rows), " ".join(texts)


def decide_strategy(n_tools: int, block_tokens: int, *, context_tokens: int | None = None,
                    budget_tokens: int | None = None) -> tuple[str, str, bool]:
    """The strategy the thresholds give, the sentence saying why, and whether the block is over
    the budget (which the caller resolves: retrieve for a query, else two-stage).

    Parameters
    ----------
    n_tools : int
    block_tokens : int
        The whole tool block, in tokens.
    context_tokens, budget_tokens : int, optional

    Returns
    -------
    (str, str, bool)
        ``(strategy, why, over_budget)``; ``over_budget`` is False when the thresholds already
        give ``two_stage``.

    Raises
    ------
    ValueError
        As :func:`toolform._thresholds.catalogue_strategy`.
    """
    base = catalogue_strategy(n_tools, block_tokens=block_tokens, context_tokens=context_tokens)
    if n_tools >= TWO_STAGE_MIN_TOOLS:
        why = f"{n_tools} tools is at or above the two-stage threshold of {TWO_STAGE_MIN_TOOLS}."
    elif base == "two_stage":
        why = (f"The {block_tokens}-token block is over {TWO_STAGE_CONTEXT_SHARE:.0%} of the "
               f"{context_tokens}-token context window.")
    elif base == "retrieve":
        why = (f"{n_tools} tools is in the retrieval band ({RETRIEVE_MIN_TOOLS} to "
               f"{TWO_STAGE_MIN_TOOLS - 1}).")
    else:
        why = f"{n_tools} tools is below the retrieval threshold of {RETRIEVE_MIN_TOOLS}"
        why += (f" and the {block_tokens}-token block is within {TWO_STAGE_CONTEXT_SHARE:.0%} of "
                f"the {context_tokens}-token context window." if context_tokens is not None
                else ".")
    over_budget = (budget_tokens is not None and block_tokens > budget_tokens
                   and base != "two_stage")
    return base, why, over_budget


def plan_catalogue(toolset: Toolset, *, format_id: str = "xml_schema",
                   context_tokens: int | None = None, budget_tokens: int | None = None,
                   query: str | None = None, k: int = 8) -> CataloguePlan:
    """Decide how to show ``toolset``: one shot, retrieve the best ``k``, or two-stage.

    Parameters
    ----------
    toolset : Toolset
        The catalogue.
    format_id : str, default "xml_schema"
        The format the tool block would be shown in (its size decides the context test).
    context_tokens : int, optional
        The model's context window in tokens. A block over ``TWO_STAGE_CONTEXT_SHARE`` (half) of
        it means two-stage.
    budget_tokens : int, optional
        The most tokens one turn may spend on tools. A block over it means two-stage, unless a
        ``query`` lets retrieval bring the block under it (then retrieve).
    query : str, optional
        The request. With strategy ``"retrieve"`` the plan carries the retrieval; with
        ``"two_stage"`` the first-stage messages.
    k : int, default 8
        Tools a retrieval keeps.

    Returns
    -------
    CataloguePlan
        ``two_stage`` at 64 tools or more (``TWO_STAGE_MIN_TOOLS``) or a block over half the
        context; ``retrieve`` from 32 (``RETRIEVE_MIN_TOOLS``) to 63 tools; ``one_shot`` below
        32 tools when the block fits; then the budget rule above.

    Raises
    ------
    ValueError
        When the toolset is empty (nothing to show), or ``k``, ``context_tokens`` or
        ``budget_tokens`` is not a positive integer.
    UnknownFormatError
        When ``format_id`` is not registered.
    """
    if len(toolset) == 0:
        where = f" ({toolset.source})" if toolset.source else ""
        raise InvalidParameterError(
            f"cannot plan an empty catalogue{where}: it has no tools to show")
    for name, value in (("k", k), ("budget_tokens", budget_tokens)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise InvalidParameterError(f"{name} must be a positive integer, got {value!r}")
    n = len(toolset)
    tokens = estimate_tokens(render_block(toolset, format_id))
    base, why, over_budget = decide_strategy(n, tokens, context_tokens=context_tokens,
                                             budget_tokens=budget_tokens)
    retrieval = None
    retrieved_tokens = None
    if query is not None and (base == "retrieve" or over_budget):
        retrieval = retrieve(toolset, query, k=k)
        retrieved_tokens = estimate_tokens(render_block(retrieval.toolset, format_id))
    strategy = base
    if over_budget:
        if retrieval is not None and retrieved_tokens <= budget_tokens:
            strategy = "retrieve"
            why += (f" The {tokens}-token block is over the {budget_tokens}-token budget; the "
                    f"top {retrieval.k} tools for the query take {retrieved_tokens}, under it.")
        else:
            strategy = "two_stage"
            tail = (f"; the top {retrieval.k} tools for the query still take {retrieved_tokens}"
                    if retrieval is not None else "; no query was given to retrieve with")
            why += f" The {tokens}-token block is over the {budget_tokens}-token budget{tail}."
    evidence, text = explain_strategy(strategy, n, k=k)
    selection = None
    if query is not None and strategy == "two_stage":
        selection = TwoStage(toolset, format_id=format_id).selection_messages(query)
    return CataloguePlan(
        strategy=strategy, n_tools=n, schema_tokens=tokens, format_id=format_id,
        reason=f"{why} {text}", evidence=tuple(evidence), context_tokens=context_tokens,
        budget_tokens=budget_tokens, k=k,
        retrieval=retrieval if strategy == "retrieve" else None,
        selection_messages=selection,
        retrieved_tokens=retrieved_tokens if strategy == "retrieve" else None,
    )
