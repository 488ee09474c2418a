"""Altair charts: each a function of a tidy DataFrame, returning a chart the caller composes.

Importing this package enables ToolForm's offline renderer (``toolform.charts._offline``):
charts draw in JupyterLab without a network, saved notebooks carry an SVG of each, and
:func:`save_chart` writes HTML with the JavaScript inlined.
"""

from ._catalogue import (
    count_sweep_chart,
    end_to_end_chart,
    recall_chart,
    routing_lab_chart,
    routing_sweep_chart,
    routing_trace_chart,
    sweep_tokens_chart,
)
from ._offline import (OFFLINE_RENDERER, VEGA_MIME_TYPE, displayable, enable_offline,
                       offline_bundle, save_chart)
from ._runs import ab_chart, bfcl_arm_chart, hijack_rates_chart
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

__all__ = [
    "OFFLINE_RENDERER",
    "VEGA_MIME_TYPE",
    "ab_chart",
    "bfcl_arm_chart",
    "cost_frontier_chart",
    "count_sweep_chart",
    "crossing_chart",
    "disclosure_chart",
    "displayable",
    "enable_offline",
    "end_to_end_chart",
    "hijack_chart",
    "hijack_rates_chart",
    "ladder_chart",
    "offline_bundle",
    "recall_chart",
    "routing_lab_chart",
    "routing_sweep_chart",
    "routing_trace_chart",
    "rule_flip_chart",
    "s_curve_chart",
    "save_chart",
    "selection_chart",
    "sweep_tokens_chart",
]

enable_offline()
