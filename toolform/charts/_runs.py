"""Charts of measured runs. Each is a function of a tidy frame; no metric is computed here."""

from __future__ import annotations

import textwrap

import altair as alt
import pandas as pd

from ..grading import GRADINGS, RULES, check_rule
from ._frames import require_columns

__all__ = ["ab_chart", "bfcl_arm_chart", "hijack_rates_chart"]


#: The columns :func:`ab_chart` reads from ``ABResult.cells``.
_AB_CHART_COLUMNS = ("cell", "format_id", "rule", "n", "n_errors", "accuracy", "ci_low",
                     "ci_high")


def ab_chart(cells: pd.DataFrame, *, title: str = "Eight-cell A/B",
             reference: str = "json_schema_openai", note: str | None = None) -> alt.LayerChart:
    """Accuracy per cell and grading rule: a point at the accuracy, a bar over its interval.

    Each cell's axis label carries its n (graded turns) and, when turns failed, how many; the
    reference cell of the paired contrasts is marked. The subtitle says what points and bars are.

    Parameters
    ----------
    cells : pandas.DataFrame
        ``ABResult.cells`` (``toolform.experiments.CELL_COLUMNS``), one row per cell and rule; reads
        ``cell``, ``format_id``, ``rule``, ``n``, ``n_errors`` and ``accuracy``, ``ci_low``,
        ``ci_high`` (percent, Wilson 95% interval).
    title : str
        Chart title.
    reference : str, default "json_schema_openai"
        The format whose cell the contrasts are taken against (marked on its label).
    note : str, optional
        A sentence for the subtitle's last lines (``ABResult.chart`` gives the run's noise
        floor, ``toolform.stats.noise_floor_sentence``), wrapped at 90 characters.

    Returns
    -------
    altair.LayerChart
        y: cell (in the frame's order), offset and coloured by rule (main, symmetric,
        as_written); a rule from ``ci_low`` to ``ci_high`` and a point at ``accuracy``.

    Raises
    ------
    TypeError
        When ``cells`` is not a DataFrame.
    ValueError
        When a column is missing.
    """
    require_columns(cells, _AB_CHART_COLUMNS, expected="ABResult.cells", remedy="ABResult.cells")
    shown = cells.assign(label=[
        _cell_label(cell, format_id, int(n), int(failed), reference) for cell, format_id, n, failed
        in zip(cells["cell"], cells["format_id"], cells["n"], cells["n_errors"])])
    n_turns = sorted(set(int(n) for n in cells["n"]))
    subtitle = ["points: accuracy (% of graded turns); bars: Wilson 95% interval",
                f"n = {n_turns[0] if len(n_turns) == 1 else 'as labelled'} graded turns per "
                f"cell; contrasts are taken against the {reference} cell"]
    if note:
        subtitle += textwrap.wrap(note, 90)
    base = alt.Chart(shown).encode(
        # the labels name the cells (format/protocol); an axis title would sit over them
        y=alt.Y("label:N", sort=list(dict.fromkeys(shown["label"])), title=None,
                axis=alt.Axis(labelLimit=360)),
        yOffset=alt.YOffset("rule:N", sort=list(RULES), scale=alt.Scale(domain=list(RULES))),
        color=alt.Color("rule:N", sort=list(RULES), scale=alt.Scale(domain=list(RULES)),
                        title="grading rule"),
    )
    bars = base.mark_rule(strokeWidth=2).encode(
        x=alt.X("ci_low:Q", title="accuracy (%)", scale=alt.Scale(domain=[0, 100])),
        x2="ci_high:Q",
    )
    points = base.mark_point(filled=True, size=60).encode(
        x="accuracy:Q",
        tooltip=[alt.Tooltip("cell:N"), alt.Tooltip("rule:N"),
                 alt.Tooltip("accuracy:Q", format=".1f", title="accuracy (%)"),
                 alt.Tooltip("ci_low:Q", format=".1f", title="95% low (%)"),
                 alt.Tooltip("ci_high:Q", format=".1f", title="95% high (%)"),
                 alt.Tooltip("n:Q", title="graded turns"),
                 alt.Tooltip("n_errors:Q", title="failed turns")],
    )
    return alt.layer(bars, points, title=alt.Title(title, subtitle=subtitle)).properties(
        width=420, height=alt.Step(12))


def _cell_label(cell: str, format_id: str, n: int, failed: int, reference: str) -> str:
    """``format/protocol (n=50)``, with the failed turns and the reference mark when they apply."""
    notes = [f"n={n}"] + ([f"{failed} failed"] if failed else []) + (
        ["reference"] if format_id == reference else [])
    return f"{cell} ({', '.join(notes)})"


#: The columns :func:`bfcl_arm_chart` reads from ``bfcl_arm_table``.
_BFCL_ARM_CHART_COLUMNS = ("cell", "category", "rule", "n", "accuracy", "ci_low", "ci_high")


def bfcl_arm_chart(table: pd.DataFrame, *, title: str = "The BFCL arm, graded four ways"
                   ) -> alt.FacetChart:
    """Accuracy per cell with its 95% interval, one colour per grading, one panel per category.

    Parameters
    ----------
    table : pandas.DataFrame
        ``bfcl_arm_table(turns)``, shape ``(cells × categories × 4, 9)``: one row per cell,
        BFCL category and grading rule; reads ``cell``, ``category``, ``rule``, ``n``, and
        ``accuracy``, ``ci_low``, ``ci_high`` (percent, Wilson 95% interval).
    title : str
        Chart title.

    Returns
    -------
    altair.FacetChart
        One column per category (in the table's order); in each, y: cell, a point at the
        accuracy and a rule over its interval, offset and coloured by grading in
        ``toolform.grading.GRADINGS`` order (main, symmetric, as_written, possible_answers).

    Raises
    ------
    TypeError
        When ``table`` is not a DataFrame.
    ValueError
        When a column is missing, or a rule is not one of ``GRADINGS`` (``GradingError``).
    """
    require_columns(table, _BFCL_ARM_CHART_COLUMNS, expected="of bfcl_arm_table()",
                    remedy="bfcl_arm_table(turns)")
    for rule in dict.fromkeys(table["rule"]):
        check_rule(rule, GRADINGS, parameter="the table's rule column")
    gradings = list(GRADINGS)
    base = alt.Chart().encode(
        y=alt.Y("cell:N", sort=list(dict.fromkeys(table["cell"])),
                title="cell (format/protocol)"),
        yOffset=alt.YOffset("rule:N", sort=gradings, scale=alt.Scale(domain=gradings)),
        color=alt.Color("rule:N", sort=gradings, scale=alt.Scale(domain=gradings),
                        title="grading rule"),
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


#: The hijack conditions drawn by :func:`hijack_rates_chart`: column of ``HijackResult.cells``
#: → the condition's name.
_HIJACK_RATE_COLUMNS = {"hijack_rate": "planted", "hijack_rate_cleaned": "cleaned",
                        "hijack_rate_control": "control"}


def hijack_rates_chart(cells: pd.DataFrame, *,
                       title: str = "Planted instruction followed") -> alt.Chart:
    """Share of turns that followed the planted instruction, per cell and condition.

    Parameters
    ----------
    cells : pandas.DataFrame
        ``HijackResult.cells`` (``toolform.experiments.HIJACK_COLUMNS``): one row per cell;
        reads ``cell``, ``n_requests`` and the rates ``hijack_rate``, ``hijack_rate_cleaned``,
        ``hijack_rate_control`` (percent of graded turns).
    title : str
        Chart title.

    Returns
    -------
    altair.Chart
        y: cell (in the frame's order), x: percent of turns whose calls carry the sentinel,
        one bar per condition (planted, cleaned, control), offset and coloured by condition.

    Raises
    ------
    TypeError
        When ``cells`` is not a DataFrame.
    ValueError
        When a column is missing.
    """
    require_columns(cells, ("cell", "n_requests", *_HIJACK_RATE_COLUMNS),
                    expected="HijackResult.cells", remedy="HijackResult.cells")
    conditions = list(_HIJACK_RATE_COLUMNS.values())
    long = cells.melt(id_vars=["cell", "n_requests"], value_vars=list(_HIJACK_RATE_COLUMNS),
                      var_name="condition", value_name="followed")
    long["condition"] = long["condition"].map(_HIJACK_RATE_COLUMNS)
    return alt.Chart(long, title=title).mark_bar().encode(
        y=alt.Y("cell:N", sort=list(cells["cell"]), title="cell (format/protocol)"),
        yOffset=alt.YOffset("condition:N", sort=conditions),
        x=alt.X("followed:Q", title="turns that followed it (%)",
                scale=alt.Scale(domain=[0, 100])),
        color=alt.Color("condition:N", sort=conditions, scale=alt.Scale(domain=conditions),
                        title="condition"),
        tooltip=[alt.Tooltip("cell:N"), alt.Tooltip("condition:N"),
                 alt.Tooltip("followed:Q", format=".1f"), alt.Tooltip("n_requests:Q")],
    ).properties(width=320, height=alt.Step(10))
