"""The routing lab (a simulation): the noise law, the label, routing, the four missions and one
request traced step by step."""

from __future__ import annotations

import math

import numpy as np
import pytest

from toolform.catalogue import (LAB_COLUMNS, MISSIONS, REQUEST_COLUMNS, TRACE_COLUMNS,
                                TRACE_POINT_COLUMNS, RoutingLab, chooser_noise, mission_grid,
                                run_mission, tokens_per_tool)
from toolform.charts import routing_trace_chart
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


# -- one request traced ----------------------------------------------------------------------------

def tiny_lab():
    """12 tools in 3 tight domains (tool i is in domain i % 3); requests are exactly their tool
    and the router reads them exactly, so every shortlist can be worked out by hand."""
    return RoutingLab(12, 3, distinctiveness=0.1, vagueness=0.0, retriever_noise=0.0)


def test_a_trace_on_a_tiny_catalogue_has_the_expected_shortlist():
    lab = tiny_lab()
    for i in range(3):
        one = lab.trace(i, k=1, n_requests=3)
        # the request is its tool's own vector: the router's first tool is the right one
        assert one.shortlist == (one.target,) and one.target_rank == 1 and one.in_shortlist
        assert (one.pick, one.correct) == (one.target, True)
        four = lab.trace(i, k=4, n_requests=3)
        domain = four.target % 3
        assert four.target_domain == domain
        # the four nearest tools are the four of the target's domain, the target first
        assert set(four.shortlist) == {domain, domain + 3, domain + 6, domain + 9}
        assert four.shortlist[0] == four.target
        grouped = lab.trace(i, routing="grouped", k=4, groups=1, n_requests=3)
        assert grouped.domains_searched == (domain,)
        assert set(grouped.shortlist) == set(four.shortlist)


def test_the_trace_frame_holds_the_shortlist_with_scores_and_ranks():
    lab = tiny_lab()
    trace = lab.trace(0, k=4, n_requests=3)
    frame = trace.frame()
    assert list(frame.columns) == [c[0] for c in TRACE_COLUMNS]
    assert frame["simulation"].all()
    assert tuple(frame["tool"]) == trace.shortlist
    assert frame["router_rank"].tolist() == [1, 2, 3, 4]
    # with no retriever noise, the router's score is the cosine of the request and the tool
    target = lab.vectors[trace.target]
    assert np.allclose(frame["router_score"], lab.vectors[list(trace.shortlist)] @ target)
    assert frame["router_score"].iloc[0] == pytest.approx(1.0)
    assert frame["router_score"].is_monotonic_decreasing
    assert sorted(frame["chooser_rank"]) == [1, 2, 3, 4]
    assert frame.loc[frame["chooser_rank"] == 1, "tool"].item() == trace.pick
    assert frame.loc[frame["right_tool"], "tool"].item() == trace.target
    assert frame["picked"].sum() == 1
    assert trace.tokens == pytest.approx(4 * lab.tokens_per_tool)
    assert trace.latency_s == pytest.approx(0.5 + trace.tokens / 2000.0)
    assert trace.chooser_noise == pytest.approx(0.01 + 0.012 * math.log(4))


def test_a_trace_is_one_request_of_the_run():
    lab = RoutingLab(60, 6, vagueness=0.6)
    settings = {"routing": "exact", "k": 2, "n_requests": 40, "seed": 3}
    rows = lab.per_request(**settings)
    assert list(rows.columns) == [c[0] for c in REQUEST_COLUMNS]
    run = lab.run(**settings).iloc[0]
    assert 100 * rows["in_shortlist"].mean() == pytest.approx(run["recall"])
    assert 100 * rows["correct"].mean() == pytest.approx(run["success"])
    assert not rows["correct"].all() and not rows["in_shortlist"].all()  # both cases below
    for i in range(40):
        trace = lab.trace(i, **settings)
        row = rows.iloc[i]
        assert (trace.target, trace.pick, trace.in_shortlist, trace.correct) == (
            row["target"], row["pick"], row["in_shortlist"], row["correct"])
        assert trace.target_rank == row["target_rank"]
        assert trace.in_shortlist == (trace.target_rank <= 2)
        assert trace.in_shortlist == (trace.target in trace.shortlist)


def test_the_steps_say_what_happened():
    lab = RoutingLab(60, 6, vagueness=0.6)
    rows = lab.per_request(k=1, n_requests=40)
    missed = int(rows.loc[~rows["in_shortlist"], "request"].iloc[0])
    trace = lab.trace(missed, k=1, n_requests=40)
    steps = trace.steps().set_index("step")["what_happened"]
    assert list(steps.index) == ["request", "router", "shortlist", "right tool shown", "pick",
                                 "outcome"]
    assert steps["request"] == (f"request {missed} of 40 means tool {trace.target} (domain "
                                f"{trace.target % 6})")
    assert steps["right tool shown"] == (f"no: the router ranked it {trace.target_rank}, "
                                         f"outside the top 1")
    assert steps["shortlist"] == str(trace.pick)
    assert steps["outcome"] == "wrong tool: the right one was not shown"
    hit = lab.trace(0, k=1, n_requests=40)
    assert hit.correct and hit.steps()["what_happened"].iloc[-1] == "right tool"


def test_grouped_routing_can_miss_the_right_domain():
    lab = RoutingLab(300, vagueness=0.6)
    rows = lab.per_request(routing="grouped", k=8, groups=1, n_requests=300)
    outside = rows[rows["target_rank"].isna()]
    assert len(outside) and not outside["in_shortlist"].any()
    trace = lab.trace(int(outside["request"].iloc[0]), routing="grouped", k=8, groups=1,
                      n_requests=300)
    assert trace.target_rank is None and not trace.correct
    assert len(trace.domains_searched) == 1 and trace.target_domain not in trace.domains_searched
    assert {d % 12 for d in trace.shortlist} == set(trace.domains_searched)
    assert trace.steps().set_index("step").loc["right tool shown", "what_happened"] == (
        f"no: its domain {trace.target_domain} was not searched")


def test_showing_everything_has_no_router_and_a_merged_catalogue_has_no_twins():
    lab = RoutingLab(30, 3, near_duplicates=5)
    every = lab.trace(0, routing="all", n_requests=10)
    assert every.k == 35 and len(every.shortlist) == 35 and every.target_rank is None
    frame = every.frame()
    assert frame["router_rank"].isna().all() and frame["router_score"].isna().all()
    assert frame["chooser_rank"].tolist() == list(range(1, 36))  # chooser order for all
    assert frame["tool"].iloc[0] == every.pick
    merged = lab.trace(0, k=4, merge_duplicates=True, n_requests=10)
    twins = set(np.flatnonzero(lab.original != np.arange(35)).tolist())
    assert merged.n_tools == 30 and not twins & set(merged.shortlist)
    assert merged.target not in twins
    assert not twins & set(merged.points()["tool"])


def test_the_picture_points_mark_the_request_the_right_tool_the_shortlist_and_the_pick():
    lab = RoutingLab(60, 6)
    trace = lab.trace(5, k=6, n_requests=10)
    points = trace.points()
    assert list(points.columns) == [c[0] for c in TRACE_POINT_COLUMNS]
    counts = points["mark"].value_counts()
    assert (counts["tool"], counts["request"], counts["shortlist"]) == (60, 1, 6)
    assert (counts["right tool"], counts["pick"]) == (1, 1)
    by_mark = points.groupby("mark")["tool"].apply(list)
    assert by_mark["right tool"] == [trace.target] and by_mark["pick"] == [trace.pick]
    assert sorted(by_mark["shortlist"]) == sorted(trace.shortlist)
    assert by_mark["request"] == [trace.target]
    tools = points[points["mark"] == "tool"].set_index("tool")
    assert (tools["domain"] == tools.index % 6).all()
    # a highlighted tool sits where the tool is drawn
    pick = points[points["mark"] == "pick"].iloc[0]
    assert (pick["x"], pick["y"]) == (tools.loc[trace.pick, "x"], tools.loc[trace.pick, "y"])
    # the plane is the catalogue's principal plane: centred coordinates
    assert abs(tools["x"].mean()) < 1e-9 and abs(tools["y"].mean()) < 1e-9
    assert tools["x"].var() >= tools["y"].var()


def test_the_trace_chart_draws_tools_by_domain_and_the_highlights():
    points = RoutingLab(60, 6).trace(5, k=6, n_requests=10).points()
    spec = routing_trace_chart(points).to_dict()
    dots, rings = spec["layer"]
    assert dots["encoding"]["color"]["field"] == "domain"
    assert dots["encoding"]["color"]["type"] == "nominal"
    assert rings["mark"]["type"] == "point" and rings["mark"]["filled"] is False
    assert rings["encoding"]["shape"]["scale"]["domain"] == ["request", "shortlist",
                                                             "right tool", "pick"]
    assert "simulation" in spec["title"]
    datasets = spec["datasets"].values()
    assert sorted(len(d) for d in datasets) == [9, 60]  # 60 tools; 1 + 6 + 1 + 1 highlights


def test_bad_trace_requests_are_refused():
    lab = RoutingLab(30)
    with pytest.raises(ValueError, match=r"request must be an integer in \[0, n_requests=10\)"):
        lab.trace(10, n_requests=10)
    with pytest.raises(ValueError, match="request must be"):
        lab.trace(True)
    with pytest.raises(ValueError, match="routing"):
        lab.trace(0, routing="random")
