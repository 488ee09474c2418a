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
    """channel -> (field, type), first found, over a spec, its layers and concatenated parts."""
    out = {}
    parts = [spec]
    while parts:
        part = parts.pop(0)
        parts.extend(part.get("layer", []) + part.get("hconcat", []) + part.get("vconcat", []))
        for channel, enc in part.get("encoding", {}).items():
            if isinstance(enc, dict) and "field" in enc and channel not in out:
                out[channel] = (enc["field"], enc.get("type"))
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
    (rule_flip_chart, "main_grid", {"y": ("rule", "nominal"),
                                    "x": ("minus_json_low", "quantitative"),
                                    "x2": ("minus_json_high", None)}),
    (crossing_chart, "protocol_crossing", {"x": ("protocol_id", "nominal"),
                                           "y": ("format_id", "nominal"),
                                           "color": ("accuracy", "quantitative")}),
    (disclosure_chart, "disclosure", {"x": ("n_tools", "ordinal"), "xOffset": ("arm", "nominal"),
                                      "y": ("gain_low", "quantitative"),
                                      "y2": ("gain_high", None)}),
    (selection_chart, "selection", {"x": ("procedure", "nominal"),
                                    "y": ("family_label", "nominal"),
                                    "color": ("accuracy", "quantitative"),
                                    "text": ("shown", "nominal")}),
    (ladder_chart, "ladder", {"x": ("shows", "nominal"), "y": ("accuracy", "quantitative")}),
    (hijack_chart, "injection", {"x": ("followed", "quantitative"),
                                 "y": ("format_id", "nominal"),
                                 "color": ("shows_descriptions", "nominal"),
                                 "x2": ("minus_nl_high", None)}),
    (cost_frontier_chart, "cost_frontier", {"x": ("tokens", "quantitative"),
                                            "y": ("accuracy", "quantitative"),
                                            "color": ("on_frontier", "nominal"),
                                            "text": ("format_id", "nominal")}),
]


@pytest.mark.parametrize("make,table,expected", CASES, ids=[c[0].__name__ for c in CASES])
def test_chart_validates_and_encodes_the_table(make, table, expected) -> None:
    chart = make(frame(table))
    assert isinstance(chart, alt.TopLevelMixin)
    spec = chart.to_dict()  # validates against the Vega-Lite schema
    assert spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/")
    got = encodings(spec)
    for channel, (field, kind) in expected.items():
        assert got[channel][0] == field, channel
        if kind is not None:
            assert got[channel][1] == kind, channel


def test_charts_carry_the_table_values_unchanged() -> None:
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
    line = spec["layer"][0]
    assert line["transform"] == [{"fold": ["accuracy", "empty"], "as": ["measure", "percent"]}]
    assert line["encoding"]["x"]["scale"] == {"type": "log", "base": 2}


def test_rule_flip_shows_xml_minus_json_with_its_interval_per_rule() -> None:
    grid = frame("main_grid")
    spec = rule_flip_chart(grid).to_dict()
    rows = data_rows(spec)
    xml = grid[grid.format_id == "xml_schema"]
    assert [(r["rule"], r["minus_json"], r["minus_json_low"], r["minus_json_high"])
            for r in rows] == list(xml[["rule", "minus_json", "minus_json_low",
                                        "minus_json_high"]].itertuples(index=False, name=None))
    # the headline contrast: +13.8 under main, +1.07 symmetric, -3.28 as written (main_grid)
    assert [r["minus_json"] for r in rows] == [13.8, 1.07, -3.28]
    assert spec["layer"][1]["encoding"]["y"]["sort"] == list(dict.fromkeys(grid["rule"]))
    with pytest.raises(ValueError, match="format_id must be one of"):
        rule_flip_chart(grid, format_id="xml_shema")


def test_the_two_crossing_heatmaps_order_their_rows_alike() -> None:
    crossing = frame("protocol_crossing")
    orders = {rule: crossing_chart(crossing, rule=rule).to_dict()["encoding"]["y"]["sort"]
              for rule in ("main", "symmetric", "as_written")}
    assert orders["main"] == orders["symmetric"] == orders["as_written"]


def test_selection_marks_the_winner_of_each_family() -> None:
    selection = frame("selection")
    spec = selection_chart(selection).to_dict()
    import vl_convert as vlc

    svg = vlc.vegalite_to_svg(spec)
    contenders = selection[selection.procedure != "oracle"]
    winners = contenders.loc[contenders.groupby("family_label")["accuracy"].idxmax()]
    for row in winners.itertuples():  # each family's best cell carries the star
        assert f"{row.accuracy:.2f} ★" in svg, row.family_label
    assert svg.count("★") >= selection["family_label"].nunique()
    # dark text on every cell: no viridis yellow on white
    assert spec["layer"][1]["mark"]["color"] == "#111111"


def test_ladder_shows_the_names_only_gap_with_its_interval() -> None:
    chart = ladder_chart(frame("ladder"), frame("names_only_by_count"))
    assert isinstance(chart, alt.HConcatChart)
    got = encodings(chart.to_dict()["hconcat"][1])
    assert got["y"][0] == "gap_low" and got["y2"][0] == "gap_high"


def test_hijack_and_cost_frontier_name_what_they_show() -> None:
    spec = cost_frontier_chart(frame("cost_frontier")).to_dict()
    text = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "text")
    assert text["encoding"]["text"]["field"] == "format_id"
    assert text["transform"] == [{"filter": "datum.on_frontier"}]
    hijack = hijack_chart(frame("injection")).to_dict()
    assert "natural_language" in hijack["hconcat"][1]["layer"][1]["encoding"]["x"]["title"]


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
    from toolform.experiments import bfcl_arm_table

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
    from toolform.charts import bfcl_arm_chart
    from toolform.grading import GRADINGS

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
        "yOffset": ("rule", "nominal"), "color": ("rule", "nominal")}
    assert encodings(point)["x"] == ("accuracy", "quantitative")
    for layer in (rule, point):
        assert layer["encoding"]["color"]["scale"]["domain"] == list(GRADINGS)
        assert layer["encoding"]["yOffset"]["scale"]["domain"] == list(GRADINGS)
        assert layer["encoding"]["y"]["sort"] == ["a/x", "b/y"]
    assert rule["encoding"]["x"]["scale"]["domain"] == [0, 100]
    rows = data_rows(spec)
    assert [r["accuracy"] for r in rows] == table["accuracy"].tolist()
    assert [r["rule"] for r in rows[:4]] == list(GRADINGS)


def test_bfcl_arm_chart_rejects_what_is_not_its_table() -> None:
    from toolform.charts import bfcl_arm_chart

    table = bfcl_table()
    with pytest.raises(ValueError, match=r"lacks columns \['rule'\].*bfcl_arm_table"):
        bfcl_arm_chart(table.drop(columns="rule"))
    with pytest.raises(ValueError, match=r"unknown grading rule 'lenient'.*possible_answers"):
        bfcl_arm_chart(table.assign(rule="lenient"))
    with pytest.raises(TypeError, match="DataFrame"):
        bfcl_arm_chart(table.to_dict("records"))
