"""The routing lab (a simulation): the noise law, the label, routing and the four missions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from toolform.catalogue import (LAB_COLUMNS, MISSIONS, RoutingLab, chooser_noise, mission_grid,
                                run_mission, tokens_per_tool)
from toolform.evidence import load_evidence


def test_chooser_noise_law():
    assert chooser_noise(1) == pytest.approx(0.01)
    assert chooser_noise(math.e) == pytest.approx(0.022)
    assert chooser_noise(300) == pytest.approx(0.01 + 0.012 * math.log(300))
    assert np.allclose(chooser_noise(np.array([1.0, 8.0])), [0.01, 0.01 + 0.012 * math.log(8)])


def test_tokens_per_tool_comes_from_the_cost_table():
    table = load_evidence("cost")
    row = next(r for r in table.rows if r["format_id"] == "xml_schema")
    assert tokens_per_tool("xml_schema") == row["schema_tokens"] / table.conditions["n_tools"]
    with pytest.raises(ValueError, match="cost"):
        tokens_per_tool("names_only")


def test_every_result_is_labelled_a_simulation():
    lab = RoutingLab(60, 6)
    assert "simulation" in repr(lab)
    row = lab.run(k=4, n_requests=100)
    assert list(row.columns) == [c[0] for c in LAB_COLUMNS]
    assert row["simulation"].all()
    assert lab.sweep((1, 4), n_requests=50)["simulation"].all()
    assert "simulation" in repr(run_mission("shortlist_300", routing="exact", k=8))


def test_runs_are_seeded_and_consistent():
    lab = RoutingLab(120, 6)
    a, b = lab.run(k=8, seed=5), lab.run(k=8, seed=5)
    assert a.equals(b)
    row = a.iloc[0]
    assert row["shown"] == 8 and row["k"] == 8 and row["n_tools"] == 120
    assert row["tokens"] == pytest.approx(8 * lab.tokens_per_tool)
    assert row["latency_s"] == pytest.approx(0.5 + row["tokens"] / 2000.0)
    # success = recall × accuracy among the hits, up to rounding of the two shares
    assert row["success"] == pytest.approx(row["recall"] * row["choice_accuracy"] / 100)


def test_showing_everything_has_full_recall_and_grouped_over_every_domain_is_exact():
    lab = RoutingLab(120, 6)
    everything = lab.run(routing="all").iloc[0]
    assert everything["recall"] == 100.0 and everything["shown"] == 120
    exact = lab.run(routing="exact", k=6).iloc[0]
    grouped = lab.run(routing="grouped", k=6, groups=6).iloc[0]
    assert (exact["recall"], exact["success"]) == (grouped["recall"], grouped["success"])
    one_group = lab.run(routing="grouped", k=6, groups=1).iloc[0]
    assert one_group["recall"] <= exact["recall"]


def test_near_duplicates_can_only_be_fixed_in_the_catalogue():
    lab = RoutingLab(300, near_duplicates=60)
    assert len(lab.vectors) == 360
    twins = np.flatnonzero(lab.original != np.arange(360))
    assert len(twins) == 60
    gaps = np.einsum("ij,ij->i", lab.vectors[twins], lab.vectors[lab.original[twins]])
    assert (gaps > 0.99).all()
    merged = lab.run(k=8, merge_duplicates=True).iloc[0]
    assert merged["n_tools"] == 300 and merged["merged"]
    assert merged["success"] > lab.run(k=8).iloc[0]["success"]


@pytest.mark.parametrize("mission, winning, losing", [
    ("shortlist_300", {"routing": "exact", "k": 8}, {"routing": "all"}),
    ("vague_k", {"routing": "exact", "k": 4}, {"routing": "exact", "k": 1}),
    ("near_duplicates", {"routing": "exact", "k": 8, "merge_duplicates": True},
     {"routing": "exact", "k": 8}),
    ("tripled_budget", {"routing": "exact", "k": 8}, {"routing": "exact", "k": 16}),
])
def test_each_mission_has_a_way_to_win_and_a_way_to_lose(mission, winning, losing):
    won = run_mission(mission, **winning)
    assert won.passed and all(won.checks.values())
    lost = run_mission(mission, **losing)
    assert not lost.passed


def test_the_budget_mission_checks_tokens_and_latency():
    played = run_mission("tripled_budget", routing="exact", k=16)
    assert set(played.checks) == {"success", "tokens", "latency"}
    assert played.checks["success"] and not played.checks["tokens"]
    row = played.result.iloc[0]
    assert row["tokens"] > MISSIONS["tripled_budget"].max_tokens


def test_no_k_wins_near_duplicates_without_merging():
    grid = mission_grid("near_duplicates", ks=(1, 2, 4, 8, 16), n_requests=300)
    assert set(grid["merged"]) == {False, True}
    assert not grid[~grid["merged"]]["passed"].any()
    assert grid[grid["merged"]]["passed"].any()
    assert grid["simulation"].all() and (grid["mission"] == "near_duplicates").all()


def test_bad_choices_are_refused():
    with pytest.raises(KeyError, match="unknown mission"):
        run_mission("moon_landing")
    with pytest.raises(ValueError, match="lets you choose"):
        run_mission("shortlist_300", merge_duplicates=True)
    with pytest.raises(ValueError, match="routing"):
        RoutingLab(30).run(routing="random")
    with pytest.raises(ValueError, match="near_duplicates"):
        RoutingLab(30, near_duplicates=31)
    with pytest.raises(ValueError, match="k must"):
        RoutingLab(30).run(k=0)
