"""ToolForm's Jupyter widgets (``toolform.widgets``): thin ipywidgets front ends over the library.

Each widget is layout plus callbacks into public ToolForm functions; its controls are attributes
(``viewer.format``, ``panel.start_button``) so a notebook or a test can set values and click.

- :class:`ToolsetExplorer`: load a toolset (dataset, file, live MCP server); tools, parameters,
  tiers, guard findings.
- :class:`FormatViewer`: a toolset in a format and protocol, its token counts, a second format
  beside it, and the study's accuracy for the choice.
- :class:`ReplyGrader`: a reply parsed strictly and leniently, and graded under the three rules.
- :class:`ABTestPanel`: the eight-cell A/B test with start, stop, resume and live results.
- :class:`CataloguePlanner`: a long catalogue and a request: plan, retrieval ranking, budget
  fit, the two-stage selection prompt.
- :class:`GuardInspector`: guard findings in place, the cleaned copy, pin and verify.
- :class:`RoutingLab`: the routing simulation with sliders, its pictures and the missions.

Every widget keeps the same conventions (``widgets/_common.py``): a tooltip on every control, a
Reset to the starting state, the table shown as ``widget.frame`` with a CSV download, and a busy
line while work runs.
"""

from ._ab_panel import ABTestPanel
from ._catalogue_planner import CataloguePlanner
from ._explorer import ToolsetExplorer
from ._format_viewer import FormatViewer
from ._guard_inspector import GuardInspector
from ._reply_grader import ReplyGrader
from ._routing_lab import RoutingLab

__all__ = ["ABTestPanel", "CataloguePlanner", "FormatViewer", "GuardInspector", "ReplyGrader",
           "RoutingLab", "ToolsetExplorer"]
