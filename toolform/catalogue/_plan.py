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

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from .._thresholds import (RETRIEVE_MIN_TOOLS, TWO_STAGE_CONTEXT_SHARE, TWO_STAGE_MIN_TOOLS,
                           catalogue_strategy)
from ..evidence import load_evidence
from ..formats import render_block
from ..ir import Toolset
from ..tokens import estimate_tokens
from ._retrieve import Retrieval, retrieve
from ._two_stage import TwoStage

__all__ = ["CataloguePlan", "EvidenceRow", "plan_catalogue"]


@dataclass(frozen=True)
class EvidenceRow:
    """One row of an evidence table that a plan rests on.

    Attributes
    ----------
    table : str
        The evidence table's id (``load_evidence(table)``).
    source : tuple of str
        The study tables the row comes from (e.g. ``("paper:tab_count",)``).
    row : mapping
        The row as stored (column name to value; units as the table declares them).
    """

    table: str
    source: tuple[str, ...]
    row: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """``{"table", "source", **row}``: one flat record for a DataFrame."""
        return {"table": self.table, "source": ", ".join(self.source), **dict(self.row)}


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
        The evidence rows the reason quotes.
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
        """The evidence rows as a DataFrame: ``table``, ``source``, then each table's columns."""
        import pandas as pd

        return pd.DataFrame([e.to_dict() for e in self.evidence])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the CLI's ``--format json`` output)."""
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


def _rows(table_id: str, **match: Any) -> list[EvidenceRow]:
    table = load_evidence(table_id)
    return [EvidenceRow(table.id, tuple(table.source), dict(r)) for r in table.rows
            if all(r.get(k) == v for k, v in match.items())]


def _nearest(table_id: str, n_tools: int) -> int:
    """The measured catalogue size nearest ``n_tools`` on a log scale (ties go to the larger)."""
    sizes = sorted({r["n_tools"] for r in load_evidence(table_id).rows})
    return min(sizes, key=lambda s: (round(abs(math.log2(s) - math.log2(n_tools)), 9), -s))


def _pct(value: float) -> str:
    return f"{value:.2f}%"


def _count_evidence(n_tools: int) -> tuple[list[EvidenceRow], str]:
    size = _nearest("tool_count_pooled", n_tools)
    first, last = 1, max(r["n_tools"] for r in load_evidence("tool_count_pooled").rows)
    rows = (_rows("tool_count_pooled", n_tools=size, reading="strict")
            + _rows("tool_count_pooled", n_tools=size, reading="empty"))
    ends = (_rows("tool_count_pooled", n_tools=first, reading="strict")
            + _rows("tool_count_pooled", n_tools=last, reading="strict"))
    strict, empty = rows[0].row["value"], rows[1].row["value"]
    text = (f"In the study's tool-count sweep strict accuracy falls from "
            f"{_pct(ends[0].row['value'])} at {first} tool to {_pct(ends[1].row['value'])} at "
            f"{last}; at {size} tools (nearest measured size) it is {_pct(strict)}, with "
            f"{_pct(empty)} of turns empty (tool_count_pooled).")
    extra = [e for e in ends if e.row["n_tools"] != size]
    return rows + extra, text


def _retrieval_evidence(k: int) -> tuple[list[EvidenceRow], str]:
    rows = _rows("retrieval_baseline")
    table = load_evidence("retrieval_baseline")
    panel = table.conditions.get("panel_tools")
    whole = next(r for r in rows if r.row["method"] == "none")
    ks = sorted({r.row["top_k"] for r in rows if r.row["top_k"] is not None},
                key=lambda v: (abs(v - k), v))
    best_k = ks[0]
    picked = [r for r in rows if r.row["top_k"] == best_k]
    by = {r.row["method"]: r.row["accuracy"] for r in picked}
    text = (f"On a {panel}-tool panel the whole catalogue reached {_pct(whole.row['accuracy'])}; "
            f"its top {best_k} by BM25 {_pct(by['bm25'])} and by an embedding "
            f"{_pct(by['embedding'])} (retrieval_baseline).")
    return [whole, *picked], text


def _disclosure_evidence(n_tools: int) -> tuple[list[EvidenceRow], str]:
    size = _nearest("disclosure", n_tools)
    rows = [r for r in _rows("disclosure", n_tools=size) if r.row["arm"] in ("names", "names_desc")]
    by = {r.row["arm"]: r.row for r in rows}
    nd, nm = by["names_desc"], by["names"]
    text = (f"At {size} tools (nearest measured size), names with descriptions first changed "
            f"accuracy by {nd['gain']:+.2f} points [{nd['gain_low']:.2f}, {nd['gain_high']:.2f}] "
            f"against the one-shot block, names alone by {nm['gain']:+.2f} (disclosure).")
    return rows, text


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
        raise ValueError(f"cannot plan an empty catalogue{where}: it has no tools to show")
    for name, value in (("k", k), ("budget_tokens", budget_tokens)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    n = len(toolset)
    tokens = estimate_tokens(render_block(toolset, format_id))
    base = catalogue_strategy(n, block_tokens=tokens, context_tokens=context_tokens)
    evidence, count_text = _count_evidence(n)
    if n >= TWO_STAGE_MIN_TOOLS:
        why = f"{n} tools is at or above the two-stage threshold of {TWO_STAGE_MIN_TOOLS}."
    elif base == "two_stage":
        why = (f"The {tokens}-token block is over {TWO_STAGE_CONTEXT_SHARE:.0%} of the "
               f"{context_tokens}-token context window.")
    elif base == "retrieve":
        why = (f"{n} tools is in the retrieval band ({RETRIEVE_MIN_TOOLS} to "
               f"{TWO_STAGE_MIN_TOOLS - 1}).")
    else:
        why = f"{n} tools is below the retrieval threshold of {RETRIEVE_MIN_TOOLS}"
        why += (f" and the {tokens}-token block is within {TWO_STAGE_CONTEXT_SHARE:.0%} of the "
                f"{context_tokens}-token context window." if context_tokens is not None else ".")
    over_budget = budget_tokens is not None and tokens > budget_tokens and base != "two_stage"
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
    texts = [why, count_text]
    if strategy == "retrieve":
        rows, text = _retrieval_evidence(k)
        evidence += rows
        texts.append(text)
    elif strategy == "two_stage":
        rows, text = _disclosure_evidence(n)
        evidence += rows
        texts.append(text)
    selection = None
    if query is not None and strategy == "two_stage":
        selection = TwoStage(toolset, format_id=format_id).selection_messages(query)
    return CataloguePlan(
        strategy=strategy, n_tools=n, schema_tokens=tokens, format_id=format_id,
        reason=" ".join(texts), evidence=tuple(evidence), context_tokens=context_tokens,
        budget_tokens=budget_tokens, k=k,
        retrieval=retrieval if strategy == "retrieve" else None,
        selection_messages=selection,
        retrieved_tokens=retrieved_tokens if strategy == "retrieve" else None,
    )
