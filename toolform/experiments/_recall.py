"""Recall@k: how often a retriever's top ``k`` holds the gold tool, and what that allows end to end.

:func:`recall_at_k` ranks each labelled request's own toolset with a retriever
(``toolform.catalogue.Retriever``: BM25 or an embedding) and reports, per method and ``k``, the
mean share of gold tools in the top ``k`` (``mcp/catalogue``: 97 real MCP tools;
``generated/tasks``: 93 generated tools). :func:`end_to_end` multiplies it by selection accuracy
at ``k`` tools, from the study's sweep (evidence table ``tool_count_pooled``) or a measured one.

Recall@k asks no model, so its call shape is the experiments' one with the retrieval methods in
the client's place: ``recall_at_k(requests, methods, *, ks=..., on_turn=None)``. It has no
``checkpoint``, ``max_tokens`` or ``concurrency``: nothing is sent, and a run over a catalogue
takes seconds and gives the same numbers every time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import pandas as pd

from ..catalogue._retrieve import Retriever, recall_at
from ..errors import InvalidParameterError
from ..evidence import load_evidence
from ..ir import Request
from ._result import ExperimentResult, OnTurn, typed_frame
from ._sweep import gold_names

__all__ = ["END_TO_END_COLUMNS", "RECALL_COLUMNS", "RECALL_TURN_COLUMNS", "RecallResult",
           "end_to_end", "recall_at_k"]

#: Declared columns of ``RecallResult.turns``: one row per (method, request, k).
RECALL_TURN_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("dataset", "string", "", "the requests' dataset"),
    ("method", "string", "", "bm25 or embed"),
    ("request_id", "string", "", "request id within its dataset"),
    ("k", "int64", "tools", "tools kept"),
    ("n_tools", "int64", "tools", "tools in the request's toolset"),
    ("gold_names", "object", "", "the gold tools (list of names)"),
    ("recall", "float64", "percent", "share of the gold tools in the top k"),
)

#: Declared columns of ``RecallResult.cells``: (name, dtype, unit, meaning).
RECALL_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("dataset", "string", "", "the requests' dataset"),
    ("method", "string", "", "bm25 or embed"),
    ("k", "int64", "tools", "tools kept"),
    ("n", "int64", "requests", "requests with a gold tool"),
    ("n_tools", "int64", "tools", "catalogue size (the largest, when requests differ)"),
    ("recall", "float64", "percent", "mean share of gold tools in the top k"),
)

#: Declared columns of :func:`end_to_end`: (name, dtype, unit, meaning).
END_TO_END_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    *RECALL_COLUMNS,
    ("selection_accuracy", "float64", "percent", "accuracy when k tools are shown with the gold "
                                                  "one among them"),
    ("end_to_end", "float64", "percent", "recall × selection accuracy"),
    ("selection_source", "string", "", "where selection accuracy comes from"),
)


@dataclass(frozen=True)
class RecallResult(ExperimentResult):
    """What :func:`recall_at_k` returns (an :class:`~toolform.experiments.ExperimentResult`).

    Attributes
    ----------
    turns : pandas.DataFrame
        One row per (method, request, k), columns :data:`RECALL_TURN_COLUMNS`.
    cells : pandas.DataFrame
        One row per (method, k), columns :data:`RECALL_COLUMNS`; recall in percent.
    model : str
        "" (no model is asked).
    """

    def table(self) -> pd.DataFrame:
        """Recall (percent) by ``k`` (rows) and method (columns), rounded to one decimal."""
        return self.cells.pivot_table(index="k", columns="method", values="recall",
                                      sort=False).round(1)

    def chart(self) -> Any:
        """Altair chart: recall by ``k``, one line per dataset and method
        (``toolform.charts.recall_chart``)."""
        from ..charts import recall_chart

        return recall_chart(self.cells)


def recall_at_k(requests: Any, methods: Sequence[str] = ("bm25",), *,
                ks: Sequence[int] = (1, 2, 4, 8, 16, 32), dataset: str | None = None,
                on_turn: OnTurn | None = None) -> RecallResult:
    """Recall@k of each retriever on labelled requests.

    Parameters
    ----------
    requests : Dataset or sequence of Request
        Each request is ranked against its own toolset (one index per distinct toolset);
        requests without a gold call are skipped.
    methods : sequence of str, default ("bm25",)
        ``"bm25"`` and/or ``"embed"``: what answers, in the place a client takes in the other
        experiments.
    ks : sequence of int, default (1, 2, 4, 8, 16, 32)
    dataset : str, optional
        The label in the ``dataset`` column; defaults to the dataset's name.
    on_turn : callable, optional
        Called with each row of ``RecallResult.turns`` (a dict of
        :data:`RECALL_TURN_COLUMNS`) as it is measured, from the calling thread.

    Returns
    -------
    RecallResult

    Raises
    ------
    InvalidParameterError
        On an unknown method or a k below 1.
    MissingDependencyError
        For ``"embed"`` without its packages.
    """
    if isinstance(methods, str):
        methods = (methods,)
    name = dataset or getattr(requests, "name", "requests")
    items = [r for r in getattr(requests, "requests", requests) if r.gold]
    if any(isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in ks):
        raise InvalidParameterError(f"every k must be an integer >= 1, got {list(ks)}")
    groups: dict[int, list[Request]] = {}
    for r in items:
        groups.setdefault(id(r.toolset), []).append(r)
    turns, rows = [], []
    for method in methods:
        hits: dict[int, list[float]] = {k: [] for k in ks}
        for group in groups.values():
            retriever = Retriever(group[0].toolset, method)
            for r in group:
                order = [n for n, _ in retriever.rank(r.text)]
                gold = gold_names(r)
                for k in ks:
                    share = recall_at(order[:k], gold)
                    hits[k].append(share)
                    turn = {"dataset": name, "method": method, "request_id": r.id, "k": k,
                            "n_tools": len(r.toolset), "gold_names": gold,
                            "recall": 100 * share}
                    turns.append(turn)
                    if on_turn is not None:
                        on_turn(turn)
        for k in ks:
            rows.append({"dataset": name, "method": method, "k": k, "n": len(hits[k]),
                         "n_tools": max((len(r.toolset) for r in items), default=0),
                         "recall": 100 * sum(hits[k]) / len(hits[k]) if hits[k] else math.nan})
    return RecallResult(turns=typed_frame(turns, RECALL_TURN_COLUMNS),
                        cells=typed_frame(rows, RECALL_COLUMNS), model="")


def end_to_end(recall: pd.DataFrame, selection: pd.DataFrame | None = None, *,
               reading: str = "exact_tool") -> pd.DataFrame:
    """End-to-end accuracy read as recall@k × selection accuracy at k tools.

    Parameters
    ----------
    recall : pandas.DataFrame
        ``RecallResult.cells`` (:func:`recall_at_k`).
    selection : pandas.DataFrame, optional
        Measured selection accuracy: columns ``n_tools`` and ``accuracy`` (percent), e.g. a
        :func:`summarize_sweep` frame filtered to ``one_shot``. By default the study's pooled
        sweep (evidence table ``tool_count_pooled``) under ``reading``.
    reading : str, default "exact_tool"
        The ``tool_count_pooled`` reading used by default: ``exact_tool`` (the right tool was
        called) or ``strict`` (the whole call was right), among others.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`END_TO_END_COLUMNS`, one row per recall row; ``selection_accuracy`` and
        ``end_to_end`` are NaN where no selection accuracy was measured at that k.

    Raises
    ------
    ValueError
        When ``reading`` is not a reading of ``tool_count_pooled``.
    """
    if selection is None:
        table = load_evidence("tool_count_pooled")
        readings = sorted({r["reading"] for r in table.rows})
        if reading not in readings:
            raise InvalidParameterError(f"reading must be one of {readings}, got {reading!r}")
        by_size = {r["n_tools"]: r["value"] for r in table.rows if r["reading"] == reading}
        source = f"evidence tool_count_pooled ({reading}; {', '.join(table.source)})"
    else:
        by_size = dict(zip(selection["n_tools"].astype(int), selection["accuracy"].astype(float)))
        source = "measured"
    rows = []
    for row in recall.to_dict("records"):
        acc = by_size.get(int(row["k"]), math.nan)
        rows.append({**row, "selection_accuracy": acc,
                     "end_to_end": row["recall"] * acc / 100, "selection_source": source})
    return typed_frame(rows, END_TO_END_COLUMNS)
