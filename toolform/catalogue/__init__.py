"""Long catalogues: plan how to show them, retrieve, disclose in two stages, fit a budget.

- :func:`plan_catalogue` — one shot, retrieve or two-stage, with the reason and the evidence;
- :func:`retrieve` and :class:`Retriever` — BM25 (``rank-bm25``) or embedding retrieval;
- :class:`TwoStage` — names (with descriptions) first, then the chosen tool's schema;
- :func:`fit_to_budget` — shrink a tool block to a per-turn token budget;
- :class:`RoutingLab` (with :meth:`RoutingLab.trace` → :class:`RoutingTrace`) and the
  missions — a routing SIMULATION;
- :func:`lint_catalogue` and :func:`prune_report` — catalogue hygiene.
"""

from .._deprecated import moved_names
from ._budget import BudgetFit, BudgetResult, fit_to_budget
from ._hygiene import LINT_COLUMNS, PRUNE_COLUMNS, filter_permitted, lint_catalogue, prune_report
from ._plan import CataloguePlan, EvidenceRow, decide_strategy, explain_strategy, plan_catalogue
from ._retrieve import METHODS, Retrieval, Retriever, retrieve, tokenize
from ._routing import (LAB_COLUMNS, MISSIONS, REQUEST_COLUMNS, ROUTINGS, TRACE_COLUMNS,
                       TRACE_POINT_COLUMNS, Mission, MissionResult, RoutingLab, RoutingTrace,
                       chooser_noise, mission_grid, run_mission, tokens_per_tool)
from ._two_stage import (ASK_PLACEMENTS, SELECTION_ASK, SELECTION_INSTRUCTION,
                         SELECTION_MAX_TOKENS, Selection, TwoStage, TwoStageResult)

__all__ = [
    "ASK_PLACEMENTS", "BudgetFit", "BudgetResult", "CataloguePlan", "EvidenceRow", "LAB_COLUMNS",
    "LINT_COLUMNS", "METHODS", "MISSIONS", "Mission", "MissionResult", "PRUNE_COLUMNS",
    "REQUEST_COLUMNS", "ROUTINGS", "Retrieval", "Retriever", "RoutingLab", "RoutingTrace",
    "SELECTION_ASK", "SELECTION_INSTRUCTION", "SELECTION_MAX_TOKENS", "Selection", "TRACE_COLUMNS",
    "TRACE_POINT_COLUMNS", "TwoStage", "TwoStageResult", "chooser_noise", "decide_strategy",
    "explain_strategy", "filter_permitted", "fit_to_budget", "lint_catalogue", "mission_grid",
    "plan_catalogue", "prune_report", "retrieve", "run_mission", "tokenize", "tokens_per_tool",
]

#: The comparisons (count sweep, recall@k, end to end) moved to ``toolform.experiments``; their
#: old names are kept one release.
__getattr__ = moved_names(__name__, {**{name: f"toolform.experiments.{name}" for name in (
    "DEFAULT_STRATEGIES", "END_TO_END_COLUMNS", "RECALL_COLUMNS", "SWEEP_COLUMNS", "SWEEP_SIZES",
    "Strategy", "count_sweep", "end_to_end", "make_strategies", "recall_at_k",
    "summarize_sweep")}, "SUMMARY_COLUMNS": "toolform.experiments.SWEEP_SUMMARY_COLUMNS"})
