"""Altair charts: each a function of a tidy DataFrame, returning a chart the caller composes."""

from ._catalogue import (
    count_sweep_chart,
    end_to_end_chart,
    recall_chart,
    routing_lab_chart,
    routing_trace_chart,
    sweep_tokens_chart,
)
from ._runs import ab_chart, bfcl_arm_chart, save_chart
from ._study import (
    cost_frontier_chart,
    crossing_chart,
    disclosure_chart,
    hijack_chart,
    ladder_chart,
    rule_flip_chart,
    s_curve_chart,
    selection_chart,
)

__all__ = sorted([
    "count_sweep_chart", "end_to_end_chart", "recall_chart", "routing_lab_chart",
    "routing_trace_chart", "sweep_tokens_chart", "ab_chart", "bfcl_arm_chart",
    "cost_frontier_chart",
    "crossing_chart", "disclosure_chart", "hijack_chart",
    "ladder_chart", "rule_flip_chart", "s_curve_chart", "save_chart", "selection_chart",
])
