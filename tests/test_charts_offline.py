"""Charts offline: ToolForm's Altair renderer, self-contained HTML files, and the A/B chart."""

from __future__ import annotations

import altair as alt
import pandas as pd
import pytest

from toolform.charts import (OFFLINE_RENDERER, VEGA_MIME_TYPE, ab_chart, displayable,
                             enable_offline, offline_bundle, save_chart, s_curve_chart)
from toolform.evidence import load_evidence


def test_importing_the_charts_enables_the_offline_renderer():
    assert alt.renderers.active == OFFLINE_RENDERER


def test_a_displayed_chart_carries_a_vega_spec_and_its_svg():
    chart = s_curve_chart(load_evidence("tool_count").frame())
    bundle = chart._repr_mimebundle_()
    if isinstance(bundle, tuple):
        bundle = bundle[0]
    assert set(bundle) == {VEGA_MIME_TYPE, "image/svg+xml", "text/plain"}
    vega = bundle[VEGA_MIME_TYPE]
    assert vega["$schema"].startswith("https://vega.github.io/schema/vega/")
    assert any(d.get("values") for d in vega["data"])  # the data travels inline, no URL
    assert "cdn.jsdelivr" not in str(vega)
    svg = bundle["image/svg+xml"]
    assert svg.lstrip().startswith("<svg") and "Accuracy and empty turns" in svg
    assert bundle["text/plain"] == "<chart: Accuracy and empty turns as the catalogue grows>"
    assert set(displayable(chart)._repr_mimebundle_()) == {VEGA_MIME_TYPE, "text/plain"}
    assert offline_bundle(chart.to_dict(), image=False).keys() == {VEGA_MIME_TYPE, "text/plain"}


def test_a_renderer_chosen_before_is_kept_unless_forced():
    try:
        alt.renderers.enable("svg")
        assert enable_offline() == "svg"
        assert enable_offline(force=True) == OFFLINE_RENDERER
    finally:
        alt.renderers.enable(OFFLINE_RENDERER)


def test_save_chart_writes_self_contained_html_and_a_png(tmp_path):
    chart = s_curve_chart(load_evidence("tool_count").frame())
    html, png = save_chart(chart, tmp_path / "run.v2" / "curve.html")
    assert (html.name, png.name) == ("curve.html", "curve.png")  # a dot in a folder is kept
    text = html.read_text(encoding="utf-8")
    assert "<script src=" not in text and "cdn.jsdelivr" not in text
    assert "vegaEmbed" in text and len(text) > 500_000
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def cells_frame(n_errors: int = 0) -> pd.DataFrame:
    rows = []
    for cell, fmt in (("xml_schema/xml_call", "xml_schema"),
                      ("json_schema_openai/json_object", "json_schema_openai")):
        for rule in ("main", "symmetric", "as_written"):
            rows.append({"cell": cell, "format_id": fmt, "rule": rule, "n": 50 - n_errors,
                         "n_errors": n_errors, "accuracy": 60.0, "ci_low": 46.2,
                         "ci_high": 72.4})
    return pd.DataFrame(rows)


def test_ab_chart_says_n_what_its_bars_are_and_the_reference():
    spec = ab_chart(cells_frame()).to_dict()
    labels = [r["label"] for r in next(iter(spec["datasets"].values()))]
    assert labels[0] == "xml_schema/xml_call (n=50)"
    assert labels[3] == "json_schema_openai/json_object (n=50, reference)"
    assert spec["title"]["subtitle"][0].startswith("points: accuracy")
    assert "bars: Wilson 95% interval" in spec["title"]["subtitle"][0]
    rule, point = spec["layer"]
    assert (rule["encoding"]["x"]["field"], rule["encoding"]["x2"]["field"]) == ("ci_low",
                                                                                  "ci_high")
    assert rule["encoding"]["color"]["scale"]["domain"] == ["main", "symmetric", "as_written"]
    failed = next(iter(ab_chart(cells_frame(3)).to_dict()["datasets"].values()))
    assert failed[0]["label"] == "xml_schema/xml_call (n=47, 3 failed)"
    with pytest.raises(ValueError, match=r"lacks columns \['n_errors'\]"):
        ab_chart(cells_frame().drop(columns="n_errors"))
