"""Catalogue charts: valid Vega-Lite specs over the comparison frames, with typed encodings."""

from __future__ import annotations

import pandas as pd
import pytest

from catalogue_fakes import CatalogueFake
from toolform.catalogue import RoutingLab
from toolform.charts._catalogue import (count_sweep_chart, end_to_end_chart, recall_chart,
                                        routing_lab_chart, sweep_tokens_chart)
from toolform.datasets import load_dataset
from toolform.experiments import (count_sweep, end_to_end, make_strategies, recall_at_k,
                                  select_requests)
from toolform.generator import generated_tasks


@pytest.fixture(scope="module")
def summary():
    requests = select_requests(generated_tasks(), 3, seed=1)
    return count_sweep(requests, CatalogueFake(requests), sizes=(1, 8),
                       strategies=make_strategies(ks=(4,), methods=("bm25",))).cells


@pytest.fixture(scope="module")
def recall():
    return pd.concat([recall_at_k(load_dataset("mcp/catalogue"), ks=(1, 4, 16)).cells,
                      recall_at_k(load_dataset("generated/tasks"), ks=(1, 4, 16)).cells])


def layer_fields(spec):
    layers = spec.get("layer", [spec])
    return [(layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"],
             {k: v.get("field") for k, v in layer.get("encoding", {}).items()
              if isinstance(v, dict)}) for layer in layers]


def legends(chart) -> dict[str, dict]:
    """The legends of the compiled Vega spec, by title: what a reader actually sees."""
    import vl_convert as vlc

    return {legend.get("title"): legend for legend in
            vlc.vegalite_to_vega(chart.to_dict()).get("legends", [])}


def test_count_sweep_chart(summary):
    chart = count_sweep_chart(summary)
    spec = chart.to_dict()
    marks = layer_fields(spec)
    assert [m for m, _ in marks] == ["area", "line", "point"]
    assert marks[0][1]["y"] == "ci_low" and marks[0][1]["y2"] == "ci_high"  # the interval band
    assert marks[1][1]["y"] == "percent" and marks[1][1]["strokeDash"] == "measure"
    assert spec["layer"][1]["transform"] == [{"fold": ["accuracy", "empty"],
                                              "as": ["measure", "percent"]}]
    x = spec["layer"][1]["encoding"]["x"]
    assert x["type"] == "quantitative" and x["scale"] == {"type": "log", "base": 2}
    shown = legends(chart)
    assert set(shown) == {"strategy", "measure"}  # four strategies, solid and dashed
    assert shown["measure"]["symbolType"] == "stroke" and "stroke" not in str(
        shown["measure"].get("encode", ""))


def test_sweep_tokens_chart_leaves_out_the_unsent_cells(summary):
    unsent = summary.assign(prompt_tokens=summary["prompt_tokens"].where(
        summary.index != summary.index[-1], 0.0))
    spec = sweep_tokens_chart(unsent).to_dict()
    assert spec["transform"] == [{"filter": "datum.prompt_tokens > 0"}]
    last = unsent.iloc[-1]
    assert f"{last.strategy} at {last.n_tools}" in spec["title"]["subtitle"]
    assert "strategy" in legends(sweep_tokens_chart(unsent))


def test_routing_sweep_chart_labels_the_baseline_and_the_goal():
    from toolform.charts import routing_sweep_chart

    sweep = RoutingLab(60, 6).sweep((1, 4, 16), n_requests=100)
    chart = routing_sweep_chart(sweep, goal=70)
    spec = chart.to_dict()
    levels = next(iter(d for d in spec["datasets"].values() if "label" in d[0]))
    every = sweep.loc[sweep.routing == "all", "success"].iloc[0]
    assert [r["label"] for r in levels] == [f"all tools shown: {every:.1f}% success",
                                            "mission goal: success ≥ 70%"]
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["line", "rule", "text"]
    assert {"simulated measure", "level"} <= set(legends(chart))
    plain = routing_sweep_chart(sweep).to_dict()
    assert len(next(d for d in plain["datasets"].values() if "label" in d[0])) == 1


def test_tokens_and_recall_and_end_to_end_charts(summary, recall):
    tokens = sweep_tokens_chart(summary).to_dict()
    assert tokens["encoding"]["y"]["field"] == "prompt_tokens"
    rec = recall_chart(recall).to_dict()
    assert rec["encoding"]["column"]["field"] == "dataset"
    assert rec["encoding"]["y"]["field"] == "recall"
    e2e = end_to_end_chart(end_to_end(recall)).to_dict()
    assert e2e["transform"][0]["fold"] == ["recall", "selection_accuracy", "end_to_end"]


def test_routing_chart_is_titled_a_simulation():
    frame = RoutingLab(60, 6).sweep((1, 4, 16), n_requests=100)
    spec = routing_lab_chart(frame).to_dict()
    assert "simulation" in spec["title"]
    assert "simulated" in spec["encoding"]["y"]["title"]
