"""Charts of the long-catalogue comparisons and the routing lab. No metric is computed here."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd

__all__ = ["count_sweep_chart", "end_to_end_chart", "recall_chart", "routing_lab_chart",
           "routing_sweep_chart", "routing_trace_chart", "sweep_tokens_chart"]

_SIZE_AXIS = alt.Scale(type="log", base=2)
#: Solid for the first measure, dashed for the second; the legend draws lines, not dots.
_DASHES = alt.Scale(range=[[1, 0], [5, 3]])
_DASH_LEGEND = alt.Legend(symbolType="stroke", symbolStrokeWidth=2, symbolSize=300,
                          symbolStrokeColor="#333333")


def count_sweep_chart(summary: pd.DataFrame, *, title: str = "Accuracy by catalogue size"
                      ) -> alt.LayerChart:
    """Accuracy (with its 95% interval) and empty turns against catalogue size, per strategy.

    Parameters
    ----------
    summary : pandas.DataFrame
        ``summarize_sweep(...)``: columns ``strategy``, ``n_tools``, ``accuracy``, ``ci_low``,
        ``ci_high`` and ``empty`` (percent), ``n``.
    title : str
        Chart title.

    Returns
    -------
    altair.LayerChart
        One colour per strategy (legend "strategy"); accuracy as solid lines with points and
        its Wilson 95% interval as a band, empty turns as dashed lines (legend "measure").
    """
    base = alt.Chart(summary).encode(
        x=alt.X("n_tools:Q", scale=_SIZE_AXIS, title="tools in the catalogue"),
        color=alt.Color("strategy:N", title="strategy",
                        legend=alt.Legend(symbolType="stroke", symbolStrokeWidth=3,
                                          symbolOpacity=1)),
    )
    band = base.mark_area(opacity=0.15).encode(
        y=alt.Y("ci_low:Q", title="share of turns (%)", scale=alt.Scale(domain=[0, 100])),
        y2="ci_high:Q")
    folded = base.transform_fold(["accuracy", "empty"], as_=["measure", "percent"]).encode(
        y="percent:Q",
        tooltip=[alt.Tooltip("strategy:N"), alt.Tooltip("n_tools:Q"), alt.Tooltip("measure:N"),
                 alt.Tooltip("percent:Q", format=".1f"), alt.Tooltip("ci_low:Q", format=".1f"),
                 alt.Tooltip("ci_high:Q", format=".1f"), alt.Tooltip("n:Q")])
    # points in a layer of their own: a line with points would draw the dash legend blank
    lines = folded.mark_line().encode(
        strokeDash=alt.StrokeDash("measure:N", sort=["accuracy", "empty"], scale=_DASHES,
                                  title="measure", legend=_DASH_LEGEND))
    points = folded.mark_point(filled=True, size=30)
    return alt.layer(band, lines, points, title=alt.Title(title, subtitle=[
        "solid: accuracy (band: Wilson 95% interval); dashed: empty turns"])
    ).properties(width=420, height=260)


def sweep_tokens_chart(summary: pd.DataFrame, *, title: str = "Prompt tokens by catalogue size"
                       ) -> alt.Chart:
    """Mean prompt tokens per turn against catalogue size, per strategy (log-log axes).

    A cell that sent no prompt (the block did not fit the context, so ``prompt_tokens`` is 0)
    has no place on a log axis; it is left out, and the subtitle says so.

    Parameters
    ----------
    summary : pandas.DataFrame
        ``summarize_sweep(...)``: ``strategy``, ``n_tools``, ``prompt_tokens``,
        ``cost_usd_per_1k``.
    title : str
        Chart title.

    Returns
    -------
    altair.Chart
        Lines with points; x: tools (log2); y: tokens (log); colour: strategy.
    """
    unsent = summary[~(summary["prompt_tokens"] > 0)]
    subtitle = ("not drawn (no prompt sent, over the context): " + ", ".join(
        f"{r.strategy} at {r.n_tools}" for r in unsent.itertuples())) if len(unsent) else ""
    return alt.Chart(summary, title=alt.Title(title, subtitle=subtitle)).transform_filter(
        "datum.prompt_tokens > 0").mark_line(point=True).encode(
        x=alt.X("n_tools:Q", scale=_SIZE_AXIS, title="tools in the catalogue"),
        y=alt.Y("prompt_tokens:Q", scale=alt.Scale(type="log"), title="prompt tokens per turn"),
        color=alt.Color("strategy:N", title="strategy"),
        tooltip=[alt.Tooltip("strategy:N"), alt.Tooltip("n_tools:Q"),
                 alt.Tooltip("prompt_tokens:Q", format=".0f"),
                 alt.Tooltip("cost_usd_per_1k:Q", format=".4f", title="USD per 1k turns")],
    ).properties(width=420, height=260)


def recall_chart(recall: pd.DataFrame, *, title: str = "Recall@k") -> alt.Chart:
    """Recall@k against k, one line per method, one column per dataset.

    Parameters
    ----------
    recall : pandas.DataFrame
        ``recall_at_k(...)`` rows (possibly several datasets concatenated): ``dataset``,
        ``method``, ``k``, ``recall`` (percent), ``n``.
    title : str
    """
    return alt.Chart(recall, title=title).mark_line(point=True).encode(
        x=alt.X("k:Q", scale=_SIZE_AXIS, title="tools kept (k)"),
        y=alt.Y("recall:Q", scale=alt.Scale(domain=[0, 100]), title="recall (%)"),
        color=alt.Color("method:N", title="retriever"),
        column=alt.Column("dataset:N", title=None),
        tooltip=[alt.Tooltip("dataset:N"), alt.Tooltip("method:N"), alt.Tooltip("k:Q"),
                 alt.Tooltip("recall:Q", format=".1f"), alt.Tooltip("n:Q")],
    ).properties(width=240, height=220)


def end_to_end_chart(frame: pd.DataFrame, *, title: str = "Recall × selection accuracy"
                     ) -> alt.Chart:
    """Recall, selection accuracy and their product against k, one colour per measure.

    Parameters
    ----------
    frame : pandas.DataFrame
        ``end_to_end(...)``: ``dataset``, ``method``, ``k``, ``recall``,
        ``selection_accuracy``, ``end_to_end`` (percent).
    title : str
    """
    return alt.Chart(frame, title=title).transform_fold(
        ["recall", "selection_accuracy", "end_to_end"], as_=["measure", "value"],
    ).mark_line(point=True).encode(
        x=alt.X("k:Q", scale=_SIZE_AXIS, title="tools kept (k)"),
        y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 100]), title="percent"),
        color=alt.Color("measure:N", title=None,
                        sort=["recall", "selection_accuracy", "end_to_end"]),
        strokeDash=alt.StrokeDash("method:N", title="retriever"),
        column=alt.Column("dataset:N", title=None),
        tooltip=[alt.Tooltip("method:N"), alt.Tooltip("k:Q"), alt.Tooltip("measure:N"),
                 alt.Tooltip("value:Q", format=".1f")],
    ).properties(width=240, height=220)


def routing_lab_chart(frame: pd.DataFrame, *, title: str = "Routing lab (simulation)"
                      ) -> alt.Chart:
    """Simulated success, recall and choice accuracy against the tools shown (k).

    Parameters
    ----------
    frame : pandas.DataFrame
        ``RoutingLab.sweep(...)`` or ``mission_grid(...)`` rows: ``routing``, ``k``,
        ``success``, ``recall``, ``choice_accuracy`` (percent), ``simulation``.
    title : str
        Chart title; keep "simulation" in it: these are not measured figures.
    """
    return alt.Chart(frame, title=title).transform_fold(
        ["success", "recall", "choice_accuracy"], as_=["measure", "value"],
    ).mark_line(point=True).encode(
        x=alt.X("k:Q", scale=_SIZE_AXIS, title="tools shown to the chooser (k)"),
        y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 100]),
                title="simulated requests (%)"),
        color=alt.Color("measure:N", title="simulated measure",
                        sort=["success", "recall", "choice_accuracy"]),
        strokeDash=alt.StrokeDash("routing:N", title="routing"),
        tooltip=[alt.Tooltip("routing:N"), alt.Tooltip("k:Q"), alt.Tooltip("measure:N"),
                 alt.Tooltip("value:Q", format=".1f")],
    ).properties(width=420, height=260)


def routing_sweep_chart(sweep: pd.DataFrame, *, goal: float | None = None,
                        title: str = "Success and recall against k (simulation)"
                        ) -> alt.LayerChart:
    """Simulated success and recall of a routed catalogue against k, with the all-tools level
    and a mission's goal drawn and labelled.

    Parameters
    ----------
    sweep : pandas.DataFrame
        ``RoutingLab.sweep(...)`` rows: ``routing``, ``k``, ``success``, ``recall`` (percent);
        the row with ``routing == "all"`` (every tool shown, no k) gives the dashed level.
    goal : float, optional
        A mission's lowest acceptable success (percent), drawn as a red line.
    title : str
        Chart title; keep "simulation" in it.

    Returns
    -------
    altair.LayerChart
        Lines with points (colour: measure, legend); a grey dashed rule at the all-tools
        success, labelled with its value; the goal as a labelled red rule.
    """
    routed = sweep[sweep["routing"] != "all"]
    lines = alt.Chart(routed).transform_fold(["success", "recall"], as_=["measure", "percent"]
                                             ).mark_line(point=True).encode(
        x=alt.X("k:Q", scale=_SIZE_AXIS, title="k (tools shown)"),
        y=alt.Y("percent:Q", scale=alt.Scale(domain=[0, 100]), title="% of requests"),
        color=alt.Color("measure:N", title="simulated measure", sort=["success", "recall"]),
        tooltip=[alt.Tooltip("routing:N"), alt.Tooltip("k:Q"), alt.Tooltip("measure:N"),
                 alt.Tooltip("percent:Q", format=".1f")])
    levels = [{"percent": float(v), "label": f"all tools shown: {v:.1f}% success",
               "kind": "all tools"} for v in sweep.loc[sweep["routing"] == "all", "success"]]
    if goal is not None:
        levels.append({"percent": float(goal), "label": f"mission goal: success ≥ {goal:g}%",
                       "kind": "goal"})
    layers: list[Any] = [lines]
    if levels:
        marks = alt.Chart(pd.DataFrame(levels)).encode(
            y="percent:Q",
            color=alt.Color("kind:N", scale=alt.Scale(domain=["all tools", "goal"],
                                                      range=["#777777", "#d62728"]),
                            title="level"))
        layers += [marks.mark_rule(strokeDash=[4, 3], strokeWidth=1.5).encode(
                       tooltip=["label:N"]),
                   marks.mark_text(align="right", x="width", dx=-4, dy=-6, fontSize=10).encode(
                       text="label:N", color=alt.Color("kind:N", legend=None, scale=alt.Scale(
                           domain=["all tools", "goal"], range=["#777777", "#d62728"])))]
    return alt.layer(*layers, title=title).resolve_scale(color="independent").properties(
        width=300, height=260)


#: How :func:`routing_trace_chart` draws each highlight: (mark, shape, colour, size in pixels²).
_TRACE_MARKS = (
    ("request", "triangle-up", "#d62728", 160),
    ("shortlist", "circle", "#222222", 150),
    ("right tool", "diamond", "#2ca02c", 420),
    ("pick", "cross", "#ff7f0e", 260),
)


def routing_trace_chart(points: pd.DataFrame, *,
                        title: str = "One request through the router (simulation)"
                        ) -> alt.LayerChart:
    """The catalogue by domain, with one request, its right tool, the shortlist and the pick.

    Parameters
    ----------
    points : pandas.DataFrame
        ``RoutingTrace.points()``: long form, columns ``mark`` (``tool``, ``request``,
        ``shortlist``, ``right tool``, ``pick``), ``tool``, ``domain``, ``near_duplicate``,
        ``x`` and ``y`` (the catalogue's first two principal components, unitless).
    title : str
        Chart title; keep "simulation" in it: the routing lab asks no model.

    Returns
    -------
    altair.LayerChart
        Every tool as a dot coloured by domain; over them, open marks for the request
        (triangle), the shortlist (circles), the right tool (diamond) and the pick (cross),
        one legend entry each. Where the pick is the right tool, the cross sits in the diamond.
    """
    tools = points[points["mark"] == "tool"]
    marked = points[points["mark"] != "tool"]
    x = alt.X("x:Q", axis=None)
    y = alt.Y("y:Q", axis=None)
    tooltip = [alt.Tooltip("mark:N"), alt.Tooltip("tool:Q"), alt.Tooltip("domain:N"),
               alt.Tooltip("near_duplicate:N")]
    dots = alt.Chart(tools).mark_circle(size=28, opacity=0.55).encode(
        x=x, y=y, color=alt.Color("domain:N", title="domain", legend=None,
                        scale=alt.Scale(scheme="tableau20")),
        tooltip=tooltip)
    names = [m[0] for m in _TRACE_MARKS]
    rings = alt.Chart(marked).mark_point(filled=False, strokeWidth=2.5).encode(
        x=x, y=y,
        shape=alt.Shape("mark:N", title=None,
                        scale=alt.Scale(domain=names, range=[m[1] for m in _TRACE_MARKS])),
        stroke=alt.Stroke("mark:N", title=None,
                          scale=alt.Scale(domain=names, range=[m[2] for m in _TRACE_MARKS])),
        size=alt.Size("mark:N", title=None,
                      scale=alt.Scale(domain=names, range=[m[3] for m in _TRACE_MARKS])),
        tooltip=tooltip)
    return alt.layer(dots, rings, title=title).properties(width=360, height=300)
