"""Charts of an atlas and of its validation. Each is a function of a tidy frame, returning an
``alt.Chart`` the caller composes; no metric is computed here.

(They live with the atlas for now; the finalists' intervals reuse ``toolform.charts.ab_chart``.)
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from ..errors import InvalidParameterError, ParameterTypeError

__all__ = ["atlas_heatmap", "search_path_chart", "validation_chart"]


def _need(frame: pd.DataFrame, columns: tuple[str, ...], what: str) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise ParameterTypeError(f"{what} expects a DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InvalidParameterError(f"{what}: the frame lacks columns {missing}")


def atlas_heatmap(cells: pd.DataFrame, *, rule: str | None = None,
                  title: str = "The explored grid") -> alt.LayerChart:
    """The explored grid: one square per cell, coloured by accuracy; finalists outlined.

    Parameters
    ----------
    cells : pandas.DataFrame
        ``AtlasResult.cells``: ``format_id``, ``protocol_id``, ``rule``, ``n``, ``accuracy``,
        ``ci_low``, ``ci_high`` (percent), ``eliminated_in``, ``finalist``.
    rule : str, optional
        The rule to show (default: the first in the frame).
    title : str
        Chart title.

    Returns
    -------
    altair.LayerChart
        x: protocol, y: format (both in the frame's order); colour: accuracy (percent); the
        text in a square is its number of graded turns; the tooltip gives the Wilson interval
        and the round the search dropped the cell in. Cells never asked stay blank.

    Raises
    ------
    TypeError, ValueError
        When ``cells`` is not a frame with those columns.
    """
    _need(cells, ("format_id", "protocol_id", "rule", "n", "accuracy", "ci_low", "ci_high",
                  "eliminated_in", "finalist"), "atlas_heatmap")
    shown = cells[cells["rule"] == (rule or cells["rule"].iloc[0])]
    base = alt.Chart(shown, title=title).encode(
        x=alt.X("protocol_id:N", sort=list(dict.fromkeys(shown["protocol_id"])),
                title="protocol"),
        y=alt.Y("format_id:N", sort=list(dict.fromkeys(shown["format_id"])), title="format"),
    )
    squares = base.mark_rect().encode(
        color=alt.Color("accuracy:Q", title="accuracy (%)",
                        scale=alt.Scale(domain=[0, 100], scheme="viridis")),
        tooltip=[alt.Tooltip("format_id:N"), alt.Tooltip("protocol_id:N"),
                 alt.Tooltip("accuracy:Q", format=".1f"), alt.Tooltip("ci_low:Q", format=".1f"),
                 alt.Tooltip("ci_high:Q", format=".1f"), alt.Tooltip("n:Q"),
                 alt.Tooltip("eliminated_in:Q", title="dropped after round (-1: finalist)")],
    )
    outline = base.transform_filter(alt.datum.finalist).mark_rect(
        fill=None, stroke="black", strokeWidth=2)
    counts = base.mark_text(fontSize=9).encode(
        text=alt.Text("n:Q"),
        color=alt.condition(alt.datum.accuracy > 60, alt.value("black"), alt.value("white")))
    return alt.layer(squares, outline, counts).properties(width=alt.Step(46),
                                                          height=alt.Step(16))


def search_path_chart(path: pd.DataFrame, *, title: str = "The search's path") -> alt.LayerChart:
    """Cells still in the search against turns spent, one point per round.

    Parameters
    ----------
    path : pandas.DataFrame
        ``AtlasResult.path``: ``round``, ``n_cells``, ``cumulative_turns``, ``survivors``,
        ``leader``, ``leader_score`` (percent).
    title : str
        Chart title.

    Returns
    -------
    altair.LayerChart
        x: cumulative turns; y: cells asked in the round (log scale); each point labelled with
        the round's leader.

    Raises
    ------
    TypeError, ValueError
        When ``path`` is not a frame with those columns.
    """
    _need(path, ("round", "n_cells", "cumulative_turns", "survivors", "leader", "leader_score"),
          "search_path_chart")
    base = alt.Chart(path, title=title).encode(
        x=alt.X("cumulative_turns:Q", title="turns spent"),
        y=alt.Y("n_cells:Q", title="cells asked in the round", scale=alt.Scale(type="log")),
    )
    line = base.mark_line(point=True).encode(
        tooltip=[alt.Tooltip("round:Q"), alt.Tooltip("n_cells:Q"), alt.Tooltip("survivors:Q"),
                 alt.Tooltip("cumulative_turns:Q"), alt.Tooltip("leader:N"),
                 alt.Tooltip("leader_score:Q", format=".1f")])
    labels = base.mark_text(align="left", dx=6, dy=-6, fontSize=10).encode(text="leader:N")
    return alt.layer(line, labels).properties(width=420, height=220)


def validation_chart(curve: pd.DataFrame, *, title: str = "The search on synthetic grids",
                     target_share: float = 10.0, target_p: float = 0.9) -> alt.LayerChart:
    """P(the returned cell is within δ points of the true best) against the turns spent.

    Parameters
    ----------
    curve : pandas.DataFrame
        ``validation_curve(...)``: ``method``, ``turns_share`` (percent), ``delta`` (points),
        ``p_within``, ``p_low``, ``p_high`` (proportions), ``n_grids``.
    title : str
        Chart title.
    target_share, target_p : float
        The target drawn as dashed rules (a share of the full grid's turns, a probability).

    Returns
    -------
    altair.LayerChart
        x: turns spent (% of the full grid, log scale); y: probability; colour: δ; shape:
        method; bars: Wilson 95% intervals over the grids.

    Raises
    ------
    TypeError, ValueError
        When ``curve`` is not a frame with those columns.
    """
    _need(curve, ("method", "turns_share", "delta", "p_within", "p_low", "p_high", "n_grids"),
          "validation_chart")
    base = alt.Chart(curve, title=title).encode(
        x=alt.X("turns_share:Q", title="turns spent (% of the full grid)",
                scale=alt.Scale(type="log")),
        color=alt.Color("delta:O", title="within δ points"),
    )
    bars = base.mark_rule().encode(y=alt.Y("p_low:Q", title="P(returned cell within δ of the best)",
                                           scale=alt.Scale(domain=[0, 1])), y2="p_high:Q")
    points = base.mark_point(filled=True, size=50).encode(
        y="p_within:Q", shape=alt.Shape("method:N", title="method"),
        tooltip=[alt.Tooltip("method:N"), alt.Tooltip("turns_share:Q", format=".1f"),
                 alt.Tooltip("delta:Q"), alt.Tooltip("p_within:Q", format=".2f"),
                 alt.Tooltip("n_grids:Q")])
    lines = base.transform_filter(alt.datum.method == "atlas").mark_line().encode(y="p_within:Q")
    target = pd.DataFrame({"p": [target_p], "share": [target_share]})
    hline = alt.Chart(target).mark_rule(strokeDash=[4, 4], color="gray").encode(y="p:Q")
    vline = alt.Chart(target).mark_rule(strokeDash=[4, 4], color="gray").encode(x="share:Q")
    return alt.layer(bars, lines, points, hline, vline).properties(width=420, height=260)
