"""The advisor: bases, log-odds moves, ranges, ties, strategy, and the measured override."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from toolform import _thresholds
from toolform.advisor import (MEASUREMENT_COLUMNS, Recommendation, recommend,
                              recommend_from_measurement)
from toolform.evidence import load_evidence
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR


def frame(table_id: str, **key) -> pd.DataFrame:
    out = load_evidence(table_id).frame()
    for column, value in key.items():
        out = out[out[column] == value]
    return out


def value(table_id: str, column: str = "accuracy", **key) -> float:
    hit = frame(table_id, **key)
    assert len(hit) == 1, (table_id, key)
    return float(hit[column].iloc[0])


def logit(percent: float) -> float:
    p = percent / 100
    return math.log(p / (1 - p))


def expit(x: float) -> float:
    return 100 / (1 + math.exp(-x))


GRID = load_evidence("main_grid")
BASE_TOOLS = GRID.conditions["n_tools"]
BASE_TIER = GRID.conditions["tier"]


def main_protocol(fid: str) -> str:
    return frame("main_grid", format_id=fid, rule="main")["protocol_id"].item()


# -- bases ----------------------------------------------------------------------------------------

def test_pooled_main_grid_at_its_own_conditions() -> None:
    rec = recommend()
    assert rec.basis == "pooled"
    grid = frame("main_grid", rule="main")
    # with no moves, the best cell is the main grid's best format with its own protocol,
    # unless another protocol of the crossing moves some format past it
    assert rec.expected_accuracy >= grid["accuracy"].max() - 1e-9
    assert rec.shifts.keys() <= {"protocol"}
    if not rec.shifts:
        assert rec.format_id == grid.loc[grid["accuracy"].idxmax(), "format_id"]
        assert rec.expected_accuracy == pytest.approx(grid["accuracy"].max())
    families = frame("family_accuracy", format_id=rec.format_id)["accuracy"]
    low, high = rec.interval
    assert low <= rec.expected_accuracy <= high
    if not rec.shifts:
        assert (low, high) == pytest.approx((families.min(), families.max()))
    assert rec.interval_kind == "range"
    assert any("not a confidence interval" in n for n in rec.notes)
    assert rec.strategy is None  # no tool count given


def test_pooled_best_is_xml_schema_with_xml_call() -> None:
    rec = recommend(n_tools=BASE_TOOLS, tier=BASE_TIER)
    assert (rec.format_id, rec.protocol_id) == ("xml_schema", "xml_call")
    assert rec.expected_accuracy == pytest.approx(
        value("main_grid", format_id="xml_schema", rule="main"))
    assert dict(rec.shifts) == {}
    assert rec.strategy == "one_shot"


def test_checkpoint_basis_reads_the_checkpoint_row() -> None:
    rec = recommend(model="Qwen/Qwen3-8B", n_tools=BASE_TOOLS, tier=BASE_TIER)
    assert rec.basis == "checkpoint:Qwen/Qwen3-8B"
    rows = frame("checkpoint_accuracy", checkpoint_id="Qwen/Qwen3-8B")
    fid = rec.format_id
    point = value("checkpoint_accuracy", checkpoint_id="Qwen/Qwen3-8B", format_id=fid)
    move = rec.shifts.get("protocol", 0.0)
    assert rec.expected_accuracy == pytest.approx(expit(logit(point) + move), abs=0.005)
    assert rec.interval == pytest.approx((rec.expected_accuracy, rec.expected_accuracy))
    assert len(rows) == 8
    # the id matches without its organisation and in any case
    assert recommend(model="qwen3-8b").basis == "checkpoint:Qwen/Qwen3-8B"


def test_anchor_basis_with_and_without_effort() -> None:
    low = recommend(model="claude-opus-5-5-low")
    assert low.basis == "anchor:Claude Opus 5.5"
    anchor_rows = [e for e in low.evidence if e.table == "anchor_accuracy"]
    assert anchor_rows and {e.key["effort"] for e in anchor_rows} == {"low"}
    pooled = recommend(model="claude-opus-5-5")
    efforts = {e.key["effort"] for e in pooled.evidence if e.table == "anchor_accuracy"}
    assert efforts == set(frame("anchor_accuracy", anchor="Claude Opus 5.5")["effort"])
    assert any("efforts" in n for n in pooled.notes)
    # the longest anchor name wins: Opus 5.5 is not read as Opus 5
    assert recommend(model="claude-opus-5").basis == "anchor:Claude Opus 5"
    assert recommend(model="claude-haiku-4-5-20251001").basis == "anchor:Claude Haiku 4.5"


def test_family_basis_by_pattern_and_alias() -> None:
    rec = recommend(model="someone/Qwen3-8B-Instruct-GGUF")
    assert rec.basis == "family:qwen3"
    checkpoints = frame("checkpoint_accuracy", family="qwen3", format_id=rec.format_id)
    assert len([e for e in rec.evidence if e.role == "range"]) == len(checkpoints)
    # listed in the zoo under qwen3-quant, which the zoo reports under qwen3
    assert recommend(model="Qwen/Qwen3-14B-AWQ").basis == "family:qwen3"
    assert recommend(model="ministral-3b-instruct").basis == "family:mistral"


def test_unknown_models_fall_back_to_pooled_and_say_why() -> None:
    rec = recommend(model="totally-unknown-model")
    assert rec.basis == "pooled"
    assert any("matches no checkpoint" in n for n in rec.notes)
    gemini = recommend(model="gemini-2.5-pro")  # a zoo family without a main-grid row
    assert gemini.basis == "pooled"
    assert any("'gemini'" in n for n in gemini.notes)


# -- moves ----------------------------------------------------------------------------------------

def test_tool_count_move_is_the_log_odds_difference() -> None:
    rec = recommend(n_tools=256, tier=BASE_TIER)
    fid = rec.format_id
    expected = logit(value("tool_count", format_id=fid, n_tools=256)) - \
        logit(value("tool_count", format_id=fid, n_tools=BASE_TOOLS))
    assert rec.shifts["tool_count"] == pytest.approx(expected)
    base = value("main_grid", format_id=fid, rule="main")
    total = sum(rec.shifts.values())
    assert rec.expected_accuracy == pytest.approx(expit(logit(base) + total), abs=0.005)
    assert rec.strategy == "two_stage"
    assert any("combination was not itself evaluated" in n for n in rec.notes)
    used = {(e.table, e.key.get("n_tools")) for e in rec.evidence if e.role == "tool_count"}
    assert used == {("tool_count", 256), ("tool_count", BASE_TOOLS)}


def test_interpolated_tool_count_lies_between_its_neighbours() -> None:
    fid, pid = "xml_schema", "xml_call"

    def cell(n: int) -> float:
        ranking = recommend(n_tools=n, tier=BASE_TIER).ranking_frame()
        return ranking[(ranking.format_id == fid) & (ranking.protocol_id == pid)][
            "expected_accuracy"].item()

    a, mid, b = cell(64), cell(100), cell(128)
    assert min(a, b) < mid < max(a, b)
    assert any("between measured counts 64 and 128" in n for n in
               recommend(n_tools=100).notes)


def test_tier_and_rule_moves() -> None:
    rec = recommend(tier=5, rule="symmetric", n_tools=BASE_TOOLS)
    fid = rec.format_id
    assert rec.shifts["tier"] == pytest.approx(
        logit(value("tiers", format_id=fid, tier=5)) - logit(value("tiers", format_id=fid,
                                                                    tier=BASE_TIER)))
    assert rec.shifts["rule"] == pytest.approx(
        logit(value("main_grid", format_id=fid, rule="symmetric"))
        - logit(value("main_grid", format_id=fid, rule="main")))
    if rec.protocol_id != main_protocol(fid):
        assert rec.shifts["protocol"] == pytest.approx(
            logit(value("protocol_crossing", format_id=fid, protocol_id=rec.protocol_id,
                        rule="symmetric"))
            - logit(value("protocol_crossing", format_id=fid, protocol_id=main_protocol(fid),
                          rule="symmetric")))


@pytest.mark.parametrize("model", [None, "claude-fable-5-1-medium",
                                   "HuggingFaceTB/SmolLM2-360M-Instruct"])
@pytest.mark.parametrize("n_tools,tier", [(1, 1), (256, 5), (3, 2), (1000, 4)])
@pytest.mark.parametrize("rule", ["main", "symmetric", "as_written"])
def test_estimates_stay_inside_0_and_100(model, n_tools, tier, rule) -> None:
    rec = recommend(model=model, n_tools=n_tools, tier=tier, rule=rule)
    for cell in rec.ranking:
        assert 0 < cell.low <= cell.expected_accuracy <= cell.high < 100
    # ranked at the tables' precision (two decimals), ties in the main grid's format order
    assert round(rec.ranking[0].expected_accuracy, 2) == \
        round(max(c.expected_accuracy for c in rec.ranking), 2)


def test_ranking_covers_core_formats_times_crossing_protocols() -> None:
    rec = recommend()
    cells = {(c.format_id, c.protocol_id) for c in rec.ranking}
    crossing = frame("protocol_crossing", rule="main")
    assert cells == set(zip(crossing["format_id"], crossing["protocol_id"]))


def test_ties_are_the_cells_equal_to_the_best_at_two_decimals() -> None:
    for model in (None, "claude-opus-5-5", "claude-fable-5-1-medium", "GLM-5.3"):
        rec = recommend(model=model)
        best = round(rec.ranking[0].expected_accuracy, 2)
        assert set(rec.ties) == {(c.format_id, c.protocol_id) for c in rec.ranking[1:]
                                 if round(c.expected_accuracy, 2) == best}
        if rec.ties:
            assert "tied with" in rec.summary()


# -- evidence provenance --------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [{}, {"model": "Qwen/Qwen3-8B", "n_tools": 40, "tier": 4},
                                    {"model": "gpt-oss-120b-high", "rule": "as_written"},
                                    {"model": "llama-3-8b-whatever", "n_tools": 2}])
def test_every_evidence_row_is_in_its_table(kwargs) -> None:
    rec = recommend(**kwargs)
    assert rec.evidence
    for row in rec.evidence:
        table = load_evidence(row.table)
        assert row.source == table.source
        assert value(row.table, row.column, **dict(row.key)) == row.value
        assert row.unit == "percent"


# -- strategy -------------------------------------------------------------------------------------

def test_thresholds_are_shared() -> None:
    s = _thresholds.catalogue_strategy
    assert s(_thresholds.RETRIEVE_MIN_TOOLS - 1) == "one_shot"
    assert s(_thresholds.RETRIEVE_MIN_TOOLS) == "retrieve"
    assert s(_thresholds.TWO_STAGE_MIN_TOOLS - 1) == "retrieve"
    assert s(_thresholds.TWO_STAGE_MIN_TOOLS) == "two_stage"
    assert s(4, block_tokens=600, context_tokens=1000) == "two_stage"
    assert s(4, block_tokens=400, context_tokens=1000) == "one_shot"
    assert s(4, block_tokens=600) == "one_shot"  # no window, no window test
    with pytest.raises(ValueError, match="n_tools"):
        s(0)
    for n, expected in ((31, "one_shot"), (32, "retrieve"), (63, "retrieve"), (64, "two_stage")):
        assert recommend(n_tools=n).strategy == expected


def _toolset(n_params: int, nested: bool = False, n_tools: int = 3) -> Toolset:
    params = [ParamIR(f"p{i}", TypeIR("string")) for i in range(n_params)]
    if nested:
        params[-1] = ParamIR("opts", TypeIR("object", fields=(ParamIR("x", TypeIR("integer")),)))
    return Toolset(tuple(ToolIR(f"tool_{t}", "does a thing", tuple(params))
                         for t in range(n_tools)))


def test_tools_give_count_and_tier() -> None:
    defs = frame("tier_definitions").sort_values("tier")
    flat_three = recommend(_toolset(3))
    assert flat_three.n_tools == 3
    assert flat_three.tier == defs[(defs.max_params >= 3) & (defs.max_nesting >= 0)][
        "tier"].min()
    nested = recommend(_toolset(3, nested=True))
    assert nested.tier == defs[(defs.max_params >= 3) & (defs.max_nesting >= 1)]["tier"].min()
    assert recommend(_toolset(3), n_tools=70, tier=1).tier == 1
    assert recommend(_toolset(3), n_tools=70).strategy == "two_stage"


def test_tools_from_a_file(tmp_path: Path) -> None:
    doc = [{"type": "function", "function": {
        "name": f"tool_{i}", "description": "does a thing",
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}},
                       "required": ["q"]}}} for i in range(40)]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(doc), "utf-8")
    rec = recommend(path)
    assert (rec.n_tools, rec.strategy) == (40, "retrieve")


def test_a_block_over_half_the_window_means_two_stage() -> None:
    small = recommend(_toolset(6, n_tools=4), context_tokens=50)
    assert small.strategy == "two_stage"
    assert any("tool block is about" in n for n in small.notes)
    assert recommend(_toolset(6, n_tools=4), context_tokens=10**6).strategy == "one_shot"


# -- validation and the result type ---------------------------------------------------------------

@pytest.mark.parametrize("kwargs,match", [({"rule": "lenient"}, "rule must be one of"),
                                          ({"tier": 9}, "tier must be one of"),
                                          ({"n_tools": 0}, "n_tools must be"),
                                          ({"context_tokens": -5}, "context_tokens must be")])
def test_bad_arguments_name_the_parameter(kwargs, match) -> None:
    with pytest.raises(ValueError, match=match):
        recommend(**kwargs)


def test_recommendation_is_frozen_and_summarises_in_one_line() -> None:
    rec = recommend(model="Qwen/Qwen3-8B", n_tools=100, tier=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.format_id = "x"  # type: ignore[misc]
    line = rec.summary()
    assert "\n" not in line
    assert rec.format_id in line and rec.basis in line and "not a CI" in line
    assert list(rec.evidence_frame().columns) == ["table", "source", "key", "column", "value",
                                                  "unit", "role"]
    assert rec.ranking_frame()["expected_accuracy"].is_monotonic_decreasing


# -- the measured override ------------------------------------------------------------------------

def _cells(best: tuple[str, str] = ("python_stub", "python_call"), tie: bool = False
           ) -> pd.DataFrame:
    grid = frame("main_grid", rule="main")
    out = []
    for i, (fid, pid) in enumerate(zip(grid["format_id"], grid["protocol_id"])):
        for rule in ("main", "symmetric", "as_written"):
            acc = 40.0 + i
            if (fid, pid) == best and rule == "main":
                acc = 90.0
            if tie and fid == "json_minimal" and rule == "main":
                acc = 90.0
            out.append({"format_id": fid, "protocol_id": pid, "rule": rule, "accuracy": acc,
                        "ci_low": acc - 8, "ci_high": acc + 8, "n": 50})
    return pd.DataFrame(out)


def test_measured_override_picks_the_best_cell_and_says_why() -> None:
    cells = _cells()
    rec = recommend_from_measurement(cells, n_tools=20)
    assert (rec.format_id, rec.protocol_id, rec.expected_accuracy) == (
        "python_stub", "python_call", 90.0)
    assert rec.interval == (82.0, 98.0)
    assert (rec.basis, rec.interval_kind, rec.strategy) == ("measured", "measured", "one_shot")
    sel = frame("selection", scope="mean").set_index("procedure")["accuracy"]
    why = rec.notes[0]
    for procedure in ("measure_eight", "fitted_rule", "always_json"):
        assert f"{sel[procedure]:.2f}%" in why
    assert "69.18%" in why and "64.35%" in why and "57.97%" in why
    measured = [e for e in rec.evidence if e.table == "measurement"]
    assert len(measured) == 8 and all(e.source == ("ab_test",) for e in measured)
    assert {e.key["procedure"] for e in rec.evidence if e.table == "selection"} == {
        "measure_eight", "fitted_rule", "always_json"}


def test_measured_override_through_recommend_and_cells_attribute() -> None:
    result = SimpleNamespace(cells=_cells(best=("xml_schema", "xml_call")))
    rec = recommend(model="Qwen/Qwen3-8B", measured=result)
    assert (rec.format_id, rec.basis) == ("xml_schema", "measured")
    symmetric = recommend_from_measurement(result, rule="symmetric")
    assert symmetric.expected_accuracy == _cells().query("rule == 'symmetric'")[
        "accuracy"].max()


def test_measured_ties_and_overlaps_are_reported() -> None:
    rec = recommend_from_measurement(_cells(tie=True))
    assert len(rec.ties) == 1
    assert {(rec.format_id, rec.protocol_id), rec.ties[0]} == {
        ("python_stub", "python_call"), ("json_minimal", "json_object")}
    assert any("intervals reaching" in n for n in rec.notes)


def test_measured_input_is_validated() -> None:
    with pytest.raises(ValueError, match="lacks columns"):
        recommend_from_measurement(_cells().drop(columns=["ci_low"]))
    with pytest.raises(ValueError, match="measured rules"):
        recommend_from_measurement(_cells(), rule="lenient")
    bad = _cells()
    bad.loc[0, "accuracy"] = 0.9 * 1000
    with pytest.raises(ValueError, match="percent"):
        recommend_from_measurement(bad)
    with pytest.raises(TypeError):
        recommend_from_measurement([1, 2, 3])
    assert set(MEASUREMENT_COLUMNS) <= set(_cells().columns)


def test_recommendation_type_is_exported() -> None:
    assert isinstance(recommend(), Recommendation)


# -- the command line -----------------------------------------------------------------------------

@pytest.fixture()
def cli():
    import typer
    from typer.testing import CliRunner

    from toolform.cli import _advisor

    app = typer.Typer()
    _advisor.register(app)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def test_cli_recommend_prints_the_summary(cli) -> None:
    result = cli("recommend", "--model", "Qwen/Qwen3-8B", "--n-tools", "100", "--tier", "4")
    assert result.exit_code == 0, result.output
    expected = recommend(model="Qwen/Qwen3-8B", n_tools=100, tier=4)
    assert result.output.splitlines()[0] == expected.summary()
    assert "not itself evaluated" in result.output


def test_cli_recommend_with_tools_and_evidence(cli, tmp_path: Path) -> None:
    doc = [{"type": "function", "function": {"name": f"t{i}", "description": "x",
                                             "parameters": {"type": "object",
                                                            "properties": {}}}}
           for i in range(70)]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(doc), "utf-8")
    result = cli("recommend", "--model", "x", "--tools", str(path), "--evidence")
    assert result.exit_code == 0, result.output
    assert "70 tools" in result.output and "catalogue: two_stage" in result.output
    assert "tool_count" in result.output and "paper:tab_count_by_format" in result.output


def test_cli_recommend_rejects_bad_values(cli) -> None:
    result = cli("recommend", "--model", "x", "--rule", "lenient")
    assert result.exit_code == 1
    assert "rule must be one of" in result.output
    assert cli("recommend").exit_code != 0  # --model is required


def test_cli_evidence_lists_and_shows(cli) -> None:
    listing = cli("evidence")
    assert listing.exit_code == 0
    assert "main_grid" in listing.output and "selection" in listing.output
    shown = cli("evidence", "ladder")
    assert shown.exit_code == 0
    assert "source: paper:tab_ladder" in shown.output
    for acc in frame("ladder")["accuracy"]:
        assert f"{acc:.2f}" in shown.output
    as_csv = cli("evidence", "selection", "--csv")
    assert as_csv.exit_code == 0
    from io import StringIO

    pd.testing.assert_frame_equal(pd.read_csv(StringIO(as_csv.output)).iloc[:, -1:],
                                  frame("selection").reset_index(drop=True).iloc[:, -1:])
    missing = cli("evidence", "main_gird")
    assert missing.exit_code == 1 and "closest: main_grid" in missing.output
