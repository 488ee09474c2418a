"""Charts of the study's findings, drawn from the evidence tables.

Each function takes the tidy frame of one evidence table (``load_evidence(id).frame()``) and
returns an Altair chart with explicit encoding types. Nothing is computed here: a chart only
filters, orders and encodes the columns it is given.
"""

from __future__ import annotations

from typing import Sequence

import altair as alt
import pandas as pd

__all__ = [
    "cost_frontier_chart",
    "crossing_chart",
    "disclosure_chart",
    "hijack_chart",
    "ladder_chart",
    "rule_flip_chart",
    "s_curve_chart",
    "selection_chart",
]

_PERCENT = alt.Scale(domain=[0, 100])


def _require(frame: pd.DataFrame, columns: Sequence[str], table: str) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"expected the DataFrame of evidence table {table!r}, got "
                        f"{type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"the frame lacks columns {missing}; pass "
                         f"load_evidence({table!r}).frame()")


def s_curve_chart(frame: pd.DataFrame, *,
                  title: str = "Accuracy and empty turns as the catalogue grows") -> alt.Chart:
    """Accuracy (solid) and empty turns (dashed) against tool count, one line per core format.

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``tool_count``: ``format_id``, ``n_tools``, ``accuracy`` and ``empty``
        (percent), one row per format and tool count.
    title : str
        Chart title.

    Returns
    -------
    altair.Chart
        x: tools (log2 scale); y: percent of turns; colour: format; dash: measure.

    Raises
    ------
    ValueError
        When a column is missing.
    """
    _require(frame, ["format_id", "n_tools", "accuracy", "empty"], "tool_count")
    return alt.Chart(frame, title=title).transform_fold(
        ["accuracy", "empty"], as_=["measure", "percent"],
    ).mark_line(point=True).encode(
        x=alt.X("n_tools:Q", scale=alt.Scale(type="log", base=2), title="tools in the prompt"),
        y=alt.Y("percent:Q", scale=_PERCENT, title="percent of turns"),
        color=alt.Color("format_id:N", title="format"),
        strokeDash=alt.StrokeDash("measure:N", sort=["accuracy", "empty"], title="measure"),
        tooltip=[alt.Tooltip("format_id:N"), alt.Tooltip("n_tools:Q"),
                 alt.Tooltip("measure:N"), alt.Tooltip("percent:Q", format=".1f")],
    ).properties(width=420, height=280)


def rule_flip_chart(frame: pd.DataFrame, *,
                    title: str = "The main grid read under three grading rules") -> alt.Chart:
    """Each core format's accuracy under the main, symmetric and as-written rules (a slope chart).

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``main_grid``: ``format_id``, ``protocol_id``, ``rule``, ``accuracy``
        (percent), ``rank``.
    title : str
        Chart title.

    Returns
    -------
    altair.Chart
        x: rule (in the table's order); y: accuracy; colour: format.

    Raises
    ------
    ValueError
        When a column is missing.
    """
    _require(frame, ["format_id", "protocol_id", "rule", "accuracy", "rank"], "main_grid")
    rules = list(dict.fromkeys(frame["rule"]))
    return alt.Chart(frame, title=title).mark_line(point=True).encode(
        x=alt.X("rule:N", sort=rules, title="grading rule"),
        y=alt.Y("accuracy:Q", scale=_PERCENT, title="strict-call accuracy (%)"),
        color=alt.Color("format_id:N", title="format"),
        tooltip=[alt.Tooltip("format_id:N"), alt.Tooltip("protocol_id:N"), alt.Tooltip("rule:N"),
                 alt.Tooltip("accuracy:Q", format=".2f"), alt.Tooltip("rank:O")],
    ).properties(width=320, height=280)


def crossing_chart(frame: pd.DataFrame, *, rule: str = "main",
                   title: str | None = None) -> alt.Chart:
    """Heatmap of the format x protocol crossing under one grading rule.

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``protocol_crossing``: ``format_id``, ``protocol_id``, ``rule``,
        ``accuracy`` (percent).
    rule : str
        The grading rule to show.
    title : str, optional
        Chart title (default names the rule).

    Returns
    -------
    altair.Chart
        x: protocol; y: format; colour: accuracy.

    Raises
    ------
    ValueError
        When a column is missing or no row has ``rule``.
    """
    _require(frame, ["format_id", "protocol_id", "rule", "accuracy"], "protocol_crossing")
    if rule not in set(frame["rule"]):
        raise ValueError(f"rule must be one of {sorted(set(frame['rule']))}, got {rule!r}")
    shown = frame[frame["rule"] == rule]
    return alt.Chart(shown, title=title or f"Format x protocol, {rule} rule").mark_rect().encode(
        x=alt.X("protocol_id:N", sort=list(dict.fromkeys(shown["protocol_id"])),
                title="answer protocol"),
        y=alt.Y("format_id:N", sort=list(dict.fromkeys(shown["format_id"])), title="format"),
        color=alt.Color("accuracy:Q", scale=alt.Scale(scheme="viridis"),
                        title="accuracy (%)"),
        tooltip=[alt.Tooltip("format_id:N"), alt.Tooltip("protocol_id:N"),
                 alt.Tooltip("accuracy:Q", format=".1f")],
    ).properties(width=260, height=260)


def disclosure_chart(frame: pd.DataFrame, *,
                     title: str = "Two-stage disclosure minus one shot, by tool count"
                     ) -> alt.LayerChart:
    """The gain of each two-stage arm over the one-shot block, with its 95% interval.

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``disclosure``: ``n_tools``, ``arm``, ``gain``, ``gain_low``,
        ``gain_high`` (percentage points).
    title : str
        Chart title.

    Returns
    -------
    altair.LayerChart
        A dashed zero line, the intervals as rules, the gains as points; x: tool count with one
        offset per arm; y: percentage points.

    Raises
    ------
    ValueError
        When a column is missing.
    """
    _require(frame, ["n_tools", "arm", "gain", "gain_low", "gain_high"], "disclosure")
    arms = list(dict.fromkeys(frame["arm"]))
    base = alt.Chart(frame).encode(
        x=alt.X("n_tools:O", title="tools in the catalogue", axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("arm:N", sort=arms),
        color=alt.Color("arm:N", sort=arms, title="stage one shows"),
    )
    intervals = base.mark_rule(strokeWidth=2).encode(
        y=alt.Y("gain_low:Q", title="two-stage minus one shot (percentage points)"),
        y2=alt.Y2("gain_high:Q"),
    )
    points = base.mark_point(filled=True, size=60).encode(
        y=alt.Y("gain:Q"),
        tooltip=[alt.Tooltip("n_tools:O"), alt.Tooltip("arm:N"),
                 alt.Tooltip("gain:Q", format=".2f"), alt.Tooltip("gain_low:Q", format=".2f"),
                 alt.Tooltip("gain_high:Q", format=".2f")],
    )
    # one data-free row, so the reference line is drawn once
    zero = alt.Chart(alt.Data(values=[{}])).mark_rule(strokeDash=[4, 4], color="gray").encode(
        y=alt.datum(0))
    return alt.layer(zero, intervals, points, title=title).properties(width=360, height=280)


def selection_chart(frame: pd.DataFrame, *,
                    title: str = "Choosing a format, each family held out") -> alt.Chart:
    """The selection table: accuracy of each procedure for each held-out family, as text cells.

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``selection``: ``scope``, ``family_label``, ``procedure``, ``accuracy``
        (percent).
    title : str
        Chart title.

    Returns
    -------
    altair.Chart
        A text table; x: procedure; y: family (the mean row last); text and colour: accuracy.

    Raises
    ------
    ValueError
        When a column is missing.
    """
    _require(frame, ["scope", "family_label", "procedure", "accuracy"], "selection")
    return alt.Chart(frame, title=title).mark_text(fontSize=11).encode(
        x=alt.X("procedure:N", sort=list(dict.fromkeys(frame["procedure"])),
                title="procedure", axis=alt.Axis(orient="top", labelAngle=0)),
        y=alt.Y("family_label:N", sort=list(dict.fromkeys(frame["family_label"])),
                title="held-out family"),
        text=alt.Text("accuracy:Q", format=".2f"),
        color=alt.Color("accuracy:Q", scale=alt.Scale(scheme="viridis"),
                        title="accuracy (%)"),
        tooltip=[alt.Tooltip("family_label:N"), alt.Tooltip("procedure:N"),
                 alt.Tooltip("accuracy:Q", format=".2f"), alt.Tooltip("scope:N")],
    ).properties(width=480, height=alt.Step(16))


def ladder_chart(frame: pd.DataFrame, *,
                 title: str = "The schema ladder: what the model is shown") -> alt.Chart:
    """Accuracy on each rung of the schema ladder, from names alone to the full schema.

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``ladder``: ``rung``, ``format_id``, ``shows``, ``accuracy`` (percent).
    title : str
        Chart title.

    Returns
    -------
    altair.Chart
        Bars; x: what is shown, in rung order; y: accuracy.

    Raises
    ------
    ValueError
        When a column is missing.
    """
    _require(frame, ["rung", "format_id", "shows", "accuracy"], "ladder")
    return alt.Chart(frame, title=title).mark_bar().encode(
        x=alt.X("shows:N", sort=alt.EncodingSortField("rung", order="ascending"),
                title="shown to the model", axis=alt.Axis(labelAngle=-20, labelLimit=260)),
        y=alt.Y("accuracy:Q", scale=_PERCENT, title="strict-call accuracy (%)"),
        tooltip=[alt.Tooltip("rung:O"), alt.Tooltip("format_id:N"), alt.Tooltip("shows:N"),
                 alt.Tooltip("accuracy:Q", format=".2f")],
    ).properties(width=360, height=260)


def hijack_chart(frame: pd.DataFrame, *, exposure: str = "standard",
                 title: str = "A planted instruction in one description, followed") -> alt.Chart:
    """How often each core format's readers follow an instruction planted in a description.

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``injection``: ``format_id``, ``exposure``, ``shows_descriptions``,
        ``followed`` (percent).
    exposure : str
        Which exposure to show (``standard`` or ``shown_once``).
    title : str
        Chart title.

    Returns
    -------
    altair.Chart
        Horizontal bars, most followed first; colour: whether the format shows descriptions.

    Raises
    ------
    ValueError
        When a column is missing or no row has ``exposure``.
    """
    _require(frame, ["format_id", "exposure", "shows_descriptions", "followed"], "injection")
    if exposure not in set(frame["exposure"]):
        raise ValueError(f"exposure must be one of {sorted(set(frame['exposure']))}, "
                         f"got {exposure!r}")
    shown = frame[frame["exposure"] == exposure]
    return alt.Chart(shown, title=title).mark_bar().encode(
        x=alt.X("followed:Q", scale=_PERCENT, title="turns following the planted instruction (%)"),
        y=alt.Y("format_id:N", sort="-x", title="format"),
        color=alt.Color("shows_descriptions:N", title="shows descriptions"),
        tooltip=[alt.Tooltip("format_id:N"), alt.Tooltip("followed:Q", format=".2f"),
                 alt.Tooltip("shows_descriptions:N")],
    ).properties(width=360, height=alt.Step(20))


def cost_frontier_chart(frame: pd.DataFrame, *,
                        title: str = "Tokens against accuracy, every format") -> alt.Chart:
    """Every format's tokens against its accuracy; formats on the cost frontier stand out.

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``cost_frontier``: ``format_id``, ``tokens``, ``accuracy`` (percent),
        ``on_frontier``.
    title : str
        Chart title.

    Returns
    -------
    altair.Chart
        Points; x: tokens (log scale); y: accuracy; colour: on the frontier or not.

    Raises
    ------
    ValueError
        When a column is missing.
    """
    _require(frame, ["format_id", "tokens", "accuracy", "on_frontier"], "cost_frontier")
    return alt.Chart(frame, title=title).mark_point(filled=True).encode(
        x=alt.X("tokens:Q", scale=alt.Scale(type="log"), title="mean tokens per cell"),
        y=alt.Y("accuracy:Q", scale=_PERCENT, title="strict-call accuracy (%)"),
        color=alt.Color("on_frontier:N", title="on the frontier"),
        tooltip=[alt.Tooltip("format_id:N"), alt.Tooltip("tokens:Q", format=".0f"),
                 alt.Tooltip("accuracy:Q", format=".2f"), alt.Tooltip("on_frontier:N")],
    ).properties(width=420, height=300)
