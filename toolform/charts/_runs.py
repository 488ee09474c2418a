"""Charts of measured runs. Each is a function of a tidy frame; no metric is computed here."""

from __future__ import annotations

import os
from pathlib import Path

import altair as alt
import pandas as pd

RULE_ORDER = ["main", "symmetric", "as_written"]


def ab_chart(cells: pd.DataFrame, *, title: str = "Eight-cell A/B") -> alt.LayerChart:
    """Accuracy per cell with its 95% interval, one colour per grading rule.

    Parameters
    ----------
    cells : pandas.DataFrame
        ``ABResult.cells``: columns ``cell``, ``rule``, ``accuracy``, ``ci_low``, ``ci_high``
        (percent), ``n``.
    title : str
        Chart title.
    """
    order = list(dict.fromkeys(cells["cell"]))
    base = alt.Chart(cells, title=title).encode(
        y=alt.Y("cell:N", sort=order, title="cell (format/protocol)"),
        yOffset=alt.YOffset("rule:N", sort=RULE_ORDER),
        color=alt.Color("rule:N", sort=RULE_ORDER, title="grading rule"),
    )
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q", title="accuracy (%)", scale=alt.Scale(domain=[0, 100])),
        x2="ci_high:Q",
    )
    points = base.mark_point(filled=True, size=60).encode(
        x="accuracy:Q",
        tooltip=[alt.Tooltip("cell:N"), alt.Tooltip("rule:N"),
                 alt.Tooltip("accuracy:Q", format=".1f"), alt.Tooltip("ci_low:Q", format=".1f"),
                 alt.Tooltip("ci_high:Q", format=".1f"), alt.Tooltip("n:Q")],
    )
    return alt.layer(bars, points).properties(width=420, height=alt.Step(12))


def save_chart(chart: alt.TopLevelMixin, path: str | os.PathLike[str]) -> list[Path]:
    """Write ``chart`` as HTML and PNG (vl-convert) next to each other.

    ``path`` without a suffix, or with ``.html``/``.png``: both files are written. Returns the
    written paths.
    """
    stem = Path(path).with_suffix("")
    stem.parent.mkdir(parents=True, exist_ok=True)
    written = []
    for suffix in (".html", ".png"):
        target = stem.with_suffix(suffix)
        chart.save(str(target), **({"scale_factor": 2} if suffix == ".png" else {}))
        written.append(target)
    return written
