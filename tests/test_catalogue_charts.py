"""Catalogue charts: valid Vega-Lite specs over the comparison frames, with typed encodings."""

from __future__ import annotations

import pandas as pd
import pytest

from catalogue_fakes import CatalogueFake
from toolform.abtest import select_requests
from toolform.catalogue import (RoutingLab, count_sweep, end_to_end, make_strategies,
                                recall_at_k, summarize_sweep)
from toolform.charts._catalogue import (count_sweep_chart, end_to_end_chart, recall_chart,
                                        routing_lab_chart, sweep_tokens_chart)
from toolform.datasets import load_dataset
from toolform.generator import generated_tasks


@pytest.fixture(scope="module")
def summary():
    requests = select_requests(generated_tasks(), 3, seed=1)
    turns = count_sweep(CatalogueFake(requests), requests, sizes=(1, 8),
                        strategies=make_strategies(ks=(4,), methods=("bm25",)))
    return summarize_sweep(turns)


@pytest.fixture(scope="module")
def recall():
    return pd.concat([recall_at_k(load_dataset("mcp/catalogue"), ks=(1, 4, 16)),
                      recall_at_k(load_dataset("generated/tasks"), ks=(1, 4, 16))])


def layer_fields(spec):
    layers = spec.get("layer", [spec])
    return [(layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"],
             {k: v.get("field") for k, v in layer.get("encoding", {}).items()
              if isinstance(v, dict)}) for layer in layers]


def test_count_sweep_chart(summary):
    spec = count_sweep_chart(summary).to_dict()
    marks = layer_fields(spec)
    assert [m for m, _ in marks] == ["area", "line", "line"]
    assert marks[1][1]["y"] == "accuracy" and marks[2][1]["y"] == "empty"
    x = spec["layer"][1]["encoding"]["x"]
    assert x["type"] == "quantitative" and x["scale"] == {"type": "log", "base": 2}


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
