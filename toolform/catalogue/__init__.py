"""Long catalogues: plan how to show them, retrieve, disclose in two stages, fit a budget.

- :func:`plan_catalogue` — one shot, retrieve or two-stage, with the reason and the evidence;
- :func:`retrieve` and :class:`Retriever` — BM25 (``rank-bm25``) or embedding retrieval;
- :class:`TwoStage` — names (with descriptions) first, then the chosen tool's schema;
- :func:`fit_to_budget` — shrink a tool block to a per-turn token budget;
- :func:`count_sweep`, :func:`recall_at_k`, :func:`end_to_end` — the comparisons;
- :class:`RoutingLab` (with :meth:`RoutingLab.trace` → :class:`RoutingTrace`) and the
  missions — a routing SIMULATION;
- :func:`lint_catalogue` and :func:`prune_report` — catalogue hygiene.
"""

from ._budget import BudgetFit, BudgetResult, fit_to_budget
from ._hygiene import LINT_COLUMNS, PRUNE_COLUMNS, filter_permitted, lint_catalogue, prune_report
from ._plan import CataloguePlan, EvidenceRow, decide_strategy, explain_strategy, plan_catalogue
from ._retrieve import METHODS, Retrieval, Retriever, retrieve, tokenize
from ._routing import (LAB_COLUMNS, MISSIONS, REQUEST_COLUMNS, ROUTINGS, TRACE_COLUMNS,
                       TRACE_POINT_COLUMNS, Mission, MissionResult, RoutingLab, RoutingTrace,
                       chooser_noise, mission_grid, run_mission, tokens_per_tool)
from ._sweep import (DEFAULT_STRATEGIES, END_TO_END_COLUMNS, RECALL_COLUMNS, SUMMARY_COLUMNS,
                     SWEEP_COLUMNS, SWEEP_SIZES, Strategy, count_sweep, end_to_end,
                     make_strategies, recall_at_k, summarize_sweep)
from ._two_stage import (ASK_PLACEMENTS, SELECTION_ASK, SELECTION_INSTRUCTION,
                         SELECTION_MAX_TOKENS, Selection, TwoStage, TwoStageResult)

__all__ = [
    "ASK_PLACEMENTS", "BudgetFit", "BudgetResult", "CataloguePlan", "DEFAULT_STRATEGIES",
    "END_TO_END_COLUMNS", "EvidenceRow", "LAB_COLUMNS", "LINT_COLUMNS", "METHODS", "MISSIONS",
    "Mission", "MissionResult", "PRUNE_COLUMNS", "RECALL_COLUMNS", "REQUEST_COLUMNS",
    "ROUTINGS", "Retrieval", "Retriever", "RoutingLab", "RoutingTrace", "SELECTION_ASK",
    "SELECTION_INSTRUCTION", "SELECTION_MAX_TOKENS", "SUMMARY_COLUMNS", "SWEEP_COLUMNS",
    "SWEEP_SIZES", "Selection", "Strategy", "TRACE_COLUMNS", "TRACE_POINT_COLUMNS", "TwoStage",
    "TwoStageResult", "chooser_noise", "count_sweep", "decide_strategy", "end_to_end",
    "explain_strategy", "filter_permitted", "fit_to_budget", "lint_catalogue",
    "make_strategies", "mission_grid", "plan_catalogue", "prune_report", "recall_at_k",
    "retrieve", "run_mission", "summarize_sweep", "tokenize", "tokens_per_tool",
]
