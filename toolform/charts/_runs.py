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


#: The columns :func:`bfcl_arm_chart` reads from ``bfcl_arm_table``.
_BFCL_ARM_CHART_COLUMNS = ("cell", "category", "grading", "n", "accuracy", "ci_low", "ci_high")


def bfcl_arm_chart(table: pd.DataFrame, *, title: str = "The BFCL arm, graded four ways"
                   ) -> alt.FacetChart:
    """Accuracy per cell with its 95% interval, one colour per grading, one panel per category.

    Parameters
    ----------
    table : pandas.DataFrame
        ``bfcl_arm_table(turns)``, shape ``(cells × categories × 4, 8)``: one row per cell,
        BFCL category and grading; reads ``cell``, ``category``, ``grading``, ``n``, and
        ``accuracy``, ``ci_low``, ``ci_high`` (percent, Wilson 95% interval).
    title : str
        Chart title.

    Returns
    -------
    altair.FacetChart
        One column per category (in the table's order); in each, y: cell, a point at the
        accuracy and a rule over its interval, offset and coloured by grading in
        ``toolform.bfcl_arm.GRADINGS`` order (main, symmetric, as_written, possible_answers).

    Raises
    ------
    TypeError
        When ``table`` is not a DataFrame.
    ValueError
        When a column is missing or a grading is not one of ``GRADINGS``.
    """
    from ..bfcl_arm import GRADINGS

    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"expected the DataFrame of bfcl_arm_table(), got {type(table).__name__}")
    missing = [c for c in _BFCL_ARM_CHART_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"the table lacks columns {missing}; pass bfcl_arm_table(turns)")
    unknown = sorted(set(table["grading"]) - set(GRADINGS))
    if unknown:
        raise ValueError(f"unknown gradings {unknown}; expected some of {list(GRADINGS)}")
    gradings = list(GRADINGS)
    base = alt.Chart().encode(
        y=alt.Y("cell:N", sort=list(dict.fromkeys(table["cell"])),
                title="cell (format/protocol)"),
        yOffset=alt.YOffset("grading:N", sort=gradings, scale=alt.Scale(domain=gradings)),
        color=alt.Color("grading:N", sort=gradings, scale=alt.Scale(domain=gradings),
                        title="grading"),
    )
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q", title="accuracy (%)", scale=alt.Scale(domain=[0, 100])),
        x2="ci_high:Q",
    )
    points = base.mark_point(filled=True, size=50).encode(
        x="accuracy:Q",
        tooltip=[alt.Tooltip("cell:N"), alt.Tooltip("category:N"), alt.Tooltip("grading:N"),
                 alt.Tooltip("accuracy:Q", format=".1f"), alt.Tooltip("ci_low:Q", format=".1f"),
                 alt.Tooltip("ci_high:Q", format=".1f"), alt.Tooltip("n:Q")],
    )
    return alt.layer(bars, points, data=table).properties(
        width=220, height=alt.Step(9),
    ).facet(
        column=alt.Column("category:N", sort=list(dict.fromkeys(table["category"])),
                          title="BFCL category"),
        title=title,
    )


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
