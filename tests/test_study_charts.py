"""The study charts: each is a valid Vega-Lite spec encoding the evidence table's own columns."""

from __future__ import annotations

import altair as alt
import pandas as pd
import pytest

from toolform.charts import _study
from toolform.charts._study import (cost_frontier_chart, crossing_chart, disclosure_chart,
                                    hijack_chart, ladder_chart, rule_flip_chart, s_curve_chart,
                                    selection_chart)
from toolform.evidence import load_evidence


def frame(table_id: str) -> pd.DataFrame:
    return load_evidence(table_id).frame()


def encodings(spec: dict) -> dict[str, tuple[str, str]]:
    """channel -> (field or datum, type) over a spec and its layers."""
    out = {}
    for part in [spec, *spec.get("layer", [])]:
        for channel, enc in part.get("encoding", {}).items():
            if isinstance(enc, dict):
                out[channel] = (enc.get("field", enc.get("datum")), enc.get("type"))
    return out


def data_rows(spec: dict) -> list[dict]:
    """The rows of the (single) named dataset the chart carries."""
    datasets = spec["datasets"]
    assert len(datasets) == 1
    return next(iter(datasets.values()))


CASES = [
    (s_curve_chart, "tool_count", {"x": ("n_tools", "quantitative"),
                                   "y": ("percent", "quantitative"),
                                   "color": ("format_id", "nominal"),
                                   "strokeDash": ("measure", "nominal")}),
    (rule_flip_chart, "main_grid", {"x": ("rule", "nominal"), "y": ("accuracy", "quantitative"),
                                    "color": ("format_id", "nominal")}),
    (crossing_chart, "protocol_crossing", {"x": ("protocol_id", "nominal"),
                                           "y": ("format_id", "nominal"),
                                           "color": ("accuracy", "quantitative")}),
    (disclosure_chart, "disclosure", {"x": ("n_tools", "ordinal"), "xOffset": ("arm", "nominal"),
                                      "y": ("gain", "quantitative"),
                                      "y2": ("gain_high", None)}),
    (selection_chart, "selection", {"x": ("procedure", "nominal"),
                                    "y": ("family_label", "nominal"),
                                    "text": ("accuracy", "quantitative")}),
    (ladder_chart, "ladder", {"x": ("shows", "nominal"), "y": ("accuracy", "quantitative")}),
    (hijack_chart, "injection", {"x": ("followed", "quantitative"),
                                 "y": ("format_id", "nominal"),
                                 "color": ("shows_descriptions", "nominal")}),
    (cost_frontier_chart, "cost_frontier", {"x": ("tokens", "quantitative"),
                                            "y": ("accuracy", "quantitative"),
                                            "color": ("on_frontier", "nominal")}),
]


@pytest.mark.parametrize("make,table,expected", CASES, ids=[c[0].__name__ for c in CASES])
def test_chart_validates_and_encodes_the_table(make, table, expected) -> None:
    chart = make(frame(table))
    assert isinstance(chart, (alt.Chart, alt.LayerChart))
    spec = chart.to_dict()  # validates against the Vega-Lite schema
    assert spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/")
    got = encodings(spec)
    for channel, (field, kind) in expected.items():
        assert got[channel][0] == field, channel
        if kind is not None:
            assert got[channel][1] == kind, channel


def test_single_mark_charts_are_plain_charts() -> None:
    for make, table, _ in CASES:
        if make is not disclosure_chart:
            assert isinstance(make(frame(table)), alt.Chart), make.__name__
    assert isinstance(disclosure_chart(frame("disclosure")), alt.LayerChart)


def test_charts_carry_the_table_values_unchanged() -> None:
    grid = frame("main_grid")
    rows = data_rows(rule_flip_chart(grid).to_dict())
    assert [r["accuracy"] for r in rows] == grid["accuracy"].tolist()
    crossing = frame("protocol_crossing")
    shown = data_rows(crossing_chart(crossing, rule="as_written").to_dict())
    expected = crossing[crossing["rule"] == "as_written"]
    assert len(shown) == len(expected)
    assert {r["rule"] for r in shown} == {"as_written"}
    assert sorted(r["accuracy"] for r in shown) == sorted(expected["accuracy"])
    injection = frame("injection")
    once = data_rows(hijack_chart(injection, exposure="shown_once").to_dict())
    assert len(once) == int((injection["exposure"] == "shown_once").sum())


def test_s_curve_folds_accuracy_and_empty_without_computing() -> None:
    spec = s_curve_chart(frame("tool_count")).to_dict()
    assert spec["transform"] == [{"fold": ["accuracy", "empty"], "as": ["measure", "percent"]}]
    assert spec["encoding"]["x"]["scale"] == {"type": "log", "base": 2}


def test_rule_flip_keeps_the_table_order_of_rules() -> None:
    spec = rule_flip_chart(frame("main_grid")).to_dict()
    assert spec["encoding"]["x"]["sort"] == list(dict.fromkeys(frame("main_grid")["rule"]))


@pytest.mark.parametrize("make,table,_", CASES, ids=[c[0].__name__ for c in CASES])
def test_missing_columns_are_named(make, table, _) -> None:
    broken = frame(table).iloc[:, :1]
    with pytest.raises(ValueError, match=rf"lacks columns .*load_evidence\('{table}'\)"):
        make(broken)


def test_unknown_rule_and_exposure_are_rejected() -> None:
    with pytest.raises(ValueError, match="rule must be one of"):
        crossing_chart(frame("protocol_crossing"), rule="lenient")
    with pytest.raises(ValueError, match="exposure must be one of"):
        hijack_chart(frame("injection"), exposure="never")
    with pytest.raises(TypeError, match="DataFrame"):
        ladder_chart(load_evidence("ladder"))  # the table, not its frame


def test_all_is_sorted_and_complete() -> None:
    assert _study.__all__ == sorted(_study.__all__)
    assert set(_study.__all__) == {c[0].__name__ for c in CASES}


# -- bfcl_arm_chart (toolform.charts._runs): a chart of measured turns, not of an evidence table --
def bfcl_table() -> pd.DataFrame:
    """``bfcl_arm_table`` of six hand-made turns: two cells, two categories, every turn graded."""
    from toolform.bfcl_arm import bfcl_arm_table

    rows = [("a/x", "simple_python", True, True, True, False),
            ("a/x", "simple_python", False, False, False, True),
            ("a/x", "multiple", True, True, False, True),
            ("b/y", "simple_python", True, True, True, True),
            ("b/y", "multiple", False, True, False, False),
            ("b/y", "multiple", True, True, True, True)]
    turns = pd.DataFrame(rows, columns=["cell", "category", "correct_main", "correct_symmetric",
                                        "correct_as_written", "correct_possible_answers"])
    turns["error"] = None
    return bfcl_arm_table(turns)


def test_bfcl_arm_chart_facets_by_category_and_colours_the_four_gradings() -> None:
    from toolform.bfcl_arm import GRADINGS
    from toolform.charts import bfcl_arm_chart

    table = bfcl_table()
    assert table.loc[(table.cell == "b/y") & (table.category == "multiple"),
                     "accuracy"].tolist() == [50.0, 100.0, 50.0, 50.0]
    chart = bfcl_arm_chart(table)
    assert isinstance(chart, alt.FacetChart)
    spec = chart.to_dict()  # validates against the Vega-Lite schema
    assert spec["facet"]["column"]["field"] == "category"
    assert spec["facet"]["column"]["type"] == "nominal"
    assert spec["facet"]["column"]["sort"] == ["simple_python", "multiple"]
    rule, point = spec["spec"]["layer"]
    assert rule["mark"]["type"] == "rule" and point["mark"]["type"] == "point"
    assert {k: encodings(rule)[k] for k in ("x", "x2", "y", "yOffset", "color")} == {
        "x": ("ci_low", "quantitative"), "x2": ("ci_high", None), "y": ("cell", "nominal"),
        "yOffset": ("grading", "nominal"), "color": ("grading", "nominal")}
    assert encodings(point)["x"] == ("accuracy", "quantitative")
    for layer in (rule, point):
        assert layer["encoding"]["color"]["scale"]["domain"] == list(GRADINGS)
        assert layer["encoding"]["yOffset"]["scale"]["domain"] == list(GRADINGS)
        assert layer["encoding"]["y"]["sort"] == ["a/x", "b/y"]
    assert rule["encoding"]["x"]["scale"]["domain"] == [0, 100]
    rows = data_rows(spec)
    assert [r["accuracy"] for r in rows] == table["accuracy"].tolist()
    assert [r["grading"] for r in rows[:4]] == list(GRADINGS)


def test_bfcl_arm_chart_rejects_what_is_not_its_table() -> None:
    from toolform.charts import bfcl_arm_chart

    table = bfcl_table()
    with pytest.raises(ValueError, match=r"lacks columns \['grading'\].*bfcl_arm_table"):
        bfcl_arm_chart(table.drop(columns="grading"))
    with pytest.raises(ValueError, match=r"unknown gradings \['lenient'\]"):
        bfcl_arm_chart(table.assign(grading="lenient"))
    with pytest.raises(TypeError, match="DataFrame"):
        bfcl_arm_chart(table.to_dict("records"))
