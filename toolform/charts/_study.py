"""Charts of the study's findings, drawn from the evidence tables.

Each function takes the tidy frame of one evidence table (``load_evidence(id).frame()``) and
returns an Altair chart with explicit encoding types. Nothing is computed here: a chart only
filters, orders and encodes the columns it is given.
"""

from __future__ import annotations

from typing import Sequence

import altair as alt
import pandas as pd

from ..errors import InvalidParameterError
from ._frames import require_columns

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
#: Solid for the first measure, dashed for the second; the legend draws lines, not dots.
_DASHES = alt.Scale(range=[[1, 0], [5, 3]])
_DASH_LEGEND = alt.Legend(symbolType="stroke", symbolStrokeWidth=2, symbolSize=300,
                          symbolStrokeColor="#333333")
_SOURCE = "evidence table {}"
#: A zero line for contrasts: one data-free row, so it is drawn once.
_ZERO = alt.Chart(alt.Data(values=[{}])).mark_rule(strokeDash=[4, 4], color="gray").encode(
    x=alt.datum(0))


def _require(frame: pd.DataFrame, columns: Sequence[str], table: str) -> None:
    require_columns(frame, columns, expected=f"of evidence table {table!r}",
                    remedy=f"load_evidence({table!r}).frame()")


def s_curve_chart(frame: pd.DataFrame, *,
                  title: str = "Accuracy and empty turns as the catalogue grows"
                  ) -> alt.LayerChart:
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
    altair.LayerChart
        Lines and points; x: tools (log2 scale); y: percent of turns; colour: format; dash:
        measure (its legend draws the dash). The study gives no interval for these per-format points (its tables
        have none), so none is drawn.

    Raises
    ------
    ValueError
        When a column is missing.
    """
    _require(frame, ["format_id", "n_tools", "accuracy", "empty"], "tool_count")
    base = alt.Chart(frame).transform_fold(
        ["accuracy", "empty"], as_=["measure", "percent"],
    ).encode(
        x=alt.X("n_tools:Q", scale=alt.Scale(type="log", base=2), title="tools in the prompt"),
        y=alt.Y("percent:Q", scale=_PERCENT, title="percent of turns"),
        color=alt.Color("format_id:N", title="format"),
        tooltip=[alt.Tooltip("format_id:N"), alt.Tooltip("n_tools:Q"),
                 alt.Tooltip("measure:N"), alt.Tooltip("percent:Q", format=".1f")],
    )
    # points in a layer of their own: a line with points would draw the dash legend blank
    lines = base.mark_line().encode(
        strokeDash=alt.StrokeDash("measure:N", sort=["accuracy", "empty"], title="measure",
                                  scale=_DASHES, legend=_DASH_LEGEND))
    return alt.layer(lines, base.mark_point(filled=True, size=25), title=alt.Title(
        title, subtitle=["solid: accuracy; dashed: empty turns (the study gives no interval "
                         "for these)", _SOURCE.format("tool_count")])
    ).properties(width=420, height=280)


def rule_flip_chart(frame: pd.DataFrame, *, format_id: str = "xml_schema",
                    title: str | None = None) -> alt.LayerChart:
    """One format minus JSON Schema under each grading rule, with its 95% interval.

    The contrast the main grid is read for: under the main rule XML leads JSON Schema by a
    wide margin, under symmetric the gap vanishes, read as written it turns around.

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``main_grid``: ``format_id``, ``rule``, ``minus_json``,
        ``minus_json_low``, ``minus_json_high`` (percentage points, paired 95% interval).
    format_id : str, default "xml_schema"
        The format contrasted with ``json_schema_openai``.
    title : str, optional
        Chart title (default names the format).

    Returns
    -------
    altair.LayerChart
        y: rule (in the table's order); x: percentage points; a dashed zero line, the interval
        as a rule, the contrast as a point labelled with its value.

    Raises
    ------
    ValueError
        When a column is missing, or ``format_id`` has no contrast in the table.
    """
    _require(frame, ["format_id", "rule", "minus_json", "minus_json_low", "minus_json_high"],
             "main_grid")
    shown = frame[(frame["format_id"] == format_id) & frame["minus_json"].notna()]
    if not len(shown):
        contrasted = sorted(set(frame.loc[frame["minus_json"].notna(), "format_id"]))
        raise InvalidParameterError(f"format_id must be one of {contrasted}, got {format_id!r}")
    rules = list(dict.fromkeys(frame["rule"]))
    base = alt.Chart(shown).encode(
        y=alt.Y("rule:N", sort=rules, title="grading rule"),
        tooltip=[alt.Tooltip("rule:N"), alt.Tooltip("minus_json:Q", format="+.2f"),
                 alt.Tooltip("minus_json_low:Q", format="+.2f"),
                 alt.Tooltip("minus_json_high:Q", format="+.2f")],
    )
    interval = base.mark_rule(strokeWidth=3, color="#4c78a8").encode(
        x=alt.X("minus_json_low:Q", title=f"{format_id} minus json_schema_openai "
                                          "(percentage points)"),
        x2=alt.X2("minus_json_high:Q"))
    point = base.mark_point(filled=True, size=90, color="#4c78a8").encode(x="minus_json:Q")
    label = base.mark_text(dy=-12, fontSize=11).encode(
        x="minus_json:Q", text=alt.Text("minus_json:Q", format="+.1f"))
    subtitle = ["points: the paired contrast; bars: its 95% interval",
                _SOURCE.format("main_grid")]
    return alt.layer(_ZERO, interval, point, label, title=alt.Title(
        title or f"{format_id} minus JSON Schema under each grading rule", subtitle=subtitle)
    ).properties(width=360, height=alt.Step(40))


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
        x: protocol; y: format, both in the whole table's order (the same for every rule);
        colour: accuracy.

    Raises
    ------
    ValueError
        When a column is missing or no row has ``rule``.
    """
    _require(frame, ["format_id", "protocol_id", "rule", "accuracy"], "protocol_crossing")
    if rule not in set(frame["rule"]):
        raise InvalidParameterError(
            f"rule must be one of {sorted(set(frame['rule']))}, got {rule!r}")
    shown = frame[frame["rule"] == rule]
    # the whole table's order, so the heatmaps of two rules put their rows in the same order
    return alt.Chart(shown, title=title or f"Format x protocol, {rule} rule").mark_rect().encode(
        x=alt.X("protocol_id:N", sort=list(dict.fromkeys(frame["protocol_id"])),
                title="answer protocol"),
        y=alt.Y("format_id:N", sort=list(dict.fromkeys(frame["format_id"])), title="format"),
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
                    title: str = "Choosing a format, each family held out") -> alt.LayerChart:
    """The selection table: accuracy of each procedure for each held-out family.

    Cells are shaded by accuracy with dark text on them; the best procedure of each family
    (the hindsight ``oracle`` aside) is marked with a star and a frame.

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``selection``: ``scope``, ``family_label``, ``procedure``, ``accuracy``
        (percent).
    title : str
        Chart title.

    Returns
    -------
    altair.LayerChart
        x: procedure; y: family (the mean row last); rect colour, text: accuracy; the winner
        per family outlined and starred.

    Raises
    ------
    ValueError
        When a column is missing.
    """
    _require(frame, ["scope", "family_label", "procedure", "accuracy"], "selection")
    base = alt.Chart(frame).transform_calculate(
        contender="datum.procedure !== 'oracle'",
    ).transform_joinaggregate(
        best="max(accuracy)", groupby=["family_label", "contender"],
    ).transform_calculate(
        winner="datum.contender && datum.accuracy === datum.best",
        shown="format(datum.accuracy, '.2f') + (datum.winner ? ' ★' : '')",
    ).encode(
        x=alt.X("procedure:N", sort=list(dict.fromkeys(frame["procedure"])),
                title="procedure", axis=alt.Axis(orient="top", labelAngle=0)),
        y=alt.Y("family_label:N", sort=list(dict.fromkeys(frame["family_label"])),
                title="held-out family"),
    )
    cells = base.mark_rect().encode(
        color=alt.Color("accuracy:Q", scale=alt.Scale(scheme="blues", domain=[40, 100]),
                        title="accuracy (%)"),
        stroke=alt.condition("datum.winner", alt.value("#d62728"), alt.value(None)),
        strokeWidth=alt.condition("datum.winner", alt.value(2), alt.value(0)),
        tooltip=[alt.Tooltip("family_label:N"), alt.Tooltip("procedure:N"),
                 alt.Tooltip("accuracy:Q", format=".2f"), alt.Tooltip("scope:N"),
                 alt.Tooltip("winner:N", title="best for the family")])
    text = base.mark_text(fontSize=11, color="#111111").encode(text=alt.Text("shown:N"))
    subtitle = ["★: the best procedure for the family (oracle, chosen in hindsight, aside)",
                _SOURCE.format("selection")]
    return alt.layer(cells, text, title=alt.Title(title, subtitle=subtitle)).properties(
        width=alt.Step(92), height=alt.Step(18))


def ladder_chart(frame: pd.DataFrame, names_by_count: pd.DataFrame | None = None, *,
                 title: str = "The schema ladder: what the model is shown") -> alt.TopLevelMixin:
    """Accuracy on each rung of the schema ladder, and the names-only gap by tool count.

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``ladder``: ``rung``, ``format_id``, ``shows``, ``accuracy`` (percent).
        The study gives the rungs without intervals.
    names_by_count : pandas.DataFrame, optional
        Evidence table ``names_only_by_count``: ``n_tools``, ``gap``, ``gap_low``,
        ``gap_high`` (percentage points, 95% interval). When given, a second panel shows the
        full schema minus names alone at each tool count, with its interval.
    title : str
        Chart title.

    Returns
    -------
    altair.Chart or altair.HConcatChart
        Bars; x: what is shown, in rung order; y: accuracy. With ``names_by_count``, beside
        them: x: tool count (log2); y: the gap, a point with a rule over its interval.

    Raises
    ------
    ValueError
        When a column is missing.
    """
    _require(frame, ["rung", "format_id", "shows", "accuracy"], "ladder")
    bars = alt.Chart(frame, title="the four rungs (no interval in the study)").mark_bar().encode(
        x=alt.X("shows:N", sort=alt.EncodingSortField("rung", order="ascending"),
                title="shown to the model", axis=alt.Axis(labelAngle=-20, labelLimit=260)),
        y=alt.Y("accuracy:Q", scale=_PERCENT, title="strict-call accuracy (%)"),
        tooltip=[alt.Tooltip("rung:O"), alt.Tooltip("format_id:N"), alt.Tooltip("shows:N"),
                 alt.Tooltip("accuracy:Q", format=".2f")],
    ).properties(width=360, height=260)
    if names_by_count is None:
        return bars.properties(title=alt.Title(title, subtitle=_SOURCE.format("ladder")))
    _require(names_by_count, ["n_tools", "gap", "gap_low", "gap_high"], "names_only_by_count")
    base = alt.Chart(names_by_count, title="full schema minus names alone, by tool count"
                     ).encode(
        x=alt.X("n_tools:Q", scale=alt.Scale(type="log", base=2), title="tools in the prompt"),
        tooltip=[alt.Tooltip("n_tools:Q"), alt.Tooltip("gap:Q", format="+.2f"),
                 alt.Tooltip("gap_low:Q", format="+.2f"),
                 alt.Tooltip("gap_high:Q", format="+.2f")])
    interval = base.mark_rule(strokeWidth=2).encode(
        y=alt.Y("gap_low:Q", title="percentage points (95% interval)"), y2="gap_high:Q")
    gap = base.mark_point(filled=True, size=60).encode(y="gap:Q")
    return alt.hconcat(bars, alt.layer(interval, gap).properties(width=260, height=260),
                       title=alt.Title(title, subtitle=_SOURCE.format(
                           "ladder; names_only_by_count")))


def hijack_chart(frame: pd.DataFrame, *, exposure: str = "standard",
                 title: str = "A planted instruction in one description, followed"
                 ) -> alt.HConcatChart:
    """How often each core format's readers follow a planted instruction, and the paired
    contrast against the natural-language format with its 95% interval.

    Parameters
    ----------
    frame : pandas.DataFrame
        Evidence table ``injection``: ``format_id``, ``exposure``, ``shows_descriptions``,
        ``followed`` (percent), ``minus_nl``, ``minus_nl_low``, ``minus_nl_high`` (percentage
        points).
    exposure : str
        Which exposure to show (``standard`` or ``shown_once``).
    title : str
        Chart title.

    Returns
    -------
    altair.HConcatChart
        Left: horizontal bars, most followed first, coloured by whether the format shows
        descriptions. Right, in the same row order: ``minus_nl`` as a point with a rule over
        its interval (natural_language itself, the reference, has none).

    Raises
    ------
    ValueError
        When a column is missing or no row has ``exposure``.
    """
    _require(frame, ["format_id", "exposure", "shows_descriptions", "followed", "minus_nl",
                     "minus_nl_low", "minus_nl_high"], "injection")
    if exposure not in set(frame["exposure"]):
        raise InvalidParameterError(f"exposure must be one of {sorted(set(frame['exposure']))}, "
                                    f"got {exposure!r}")
    shown = frame[frame["exposure"] == exposure]
    order = list(shown.sort_values("followed", ascending=False)["format_id"])
    y = alt.Y("format_id:N", sort=order, title="format")
    bars = alt.Chart(shown).mark_bar().encode(
        x=alt.X("followed:Q", scale=_PERCENT, title="turns following the planted instruction (%)"),
        y=y,
        color=alt.Color("shows_descriptions:N", title="shows descriptions"),
        tooltip=[alt.Tooltip("format_id:N"), alt.Tooltip("followed:Q", format=".2f"),
                 alt.Tooltip("shows_descriptions:N")],
    ).properties(width=300, height=alt.Step(20))
    contrasted = alt.Chart(shown).transform_filter("isValid(datum.minus_nl)").encode(
        y=alt.Y("format_id:N", sort=order, axis=None),
        tooltip=[alt.Tooltip("format_id:N"), alt.Tooltip("minus_nl:Q", format="+.2f"),
                 alt.Tooltip("minus_nl_low:Q", format="+.2f"),
                 alt.Tooltip("minus_nl_high:Q", format="+.2f")])
    interval = contrasted.mark_rule(strokeWidth=2).encode(
        x=alt.X("minus_nl_low:Q", title="minus natural_language (points, 95% interval)"),
        x2="minus_nl_high:Q")
    point = contrasted.mark_point(filled=True, size=50).encode(x="minus_nl:Q")
    return alt.hconcat(bars, alt.layer(_ZERO, interval, point).properties(
        width=200, height=alt.Step(20)), title=alt.Title(
        title, subtitle=[f"exposure: {exposure}", _SOURCE.format("injection")]))


def cost_frontier_chart(frame: pd.DataFrame, *,
                        title: str = "Tokens against accuracy, every format") -> alt.LayerChart:
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
    altair.LayerChart
        Points; x: tokens (log scale); y: accuracy; colour: on the frontier or not; the
        frontier's formats joined by a line and named; every point named in its tooltip.

    Raises
    ------
    ValueError
        When a column is missing.
    """
    _require(frame, ["format_id", "tokens", "accuracy", "on_frontier"], "cost_frontier")
    base = alt.Chart(frame).encode(
        x=alt.X("tokens:Q", scale=alt.Scale(type="log"), title="mean tokens per cell"),
        y=alt.Y("accuracy:Q", scale=_PERCENT, title="strict-call accuracy (%)"))
    points = base.mark_point(filled=True).encode(
        color=alt.Color("on_frontier:N", title="on the frontier"),
        tooltip=[alt.Tooltip("format_id:N"), alt.Tooltip("tokens:Q", format=".0f"),
                 alt.Tooltip("accuracy:Q", format=".2f"), alt.Tooltip("on_frontier:N")])
    frontier = base.transform_filter("datum.on_frontier")
    line = frontier.mark_line(color="#f58518", strokeDash=[3, 2]).encode(order="tokens:Q")
    names = frontier.mark_text(align="left", dx=6, dy=-6, fontSize=10).encode(
        text="format_id:N")
    return alt.layer(line, points, names, title=alt.Title(
        title, subtitle=["named: the formats on the cost frontier (none is both cheaper and "
                         "more accurate)", _SOURCE.format("cost_frontier")])
    ).properties(width=460, height=320)
