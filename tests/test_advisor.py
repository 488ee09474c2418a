"""The advisor: the study's method step by step, checked by hand against the evidence tables.

The agreement with the reference package over its whole situation grid is
``tests/test_advisor_parity.py``; here each rule of the method has its own hand-checked case.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from toolform.advisor import (MEASUREMENT_COLUMNS, OBJECTIVES, SWITCH_GAIN_POINTS, TIE_POINTS,
                              Recommendation, Situation, recommend, recommend_from_measurement)
from toolform.cost import PRICES, Price, cost_of
from toolform.evidence import load_evidence
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR
from toolform.study import CORE_FORMATS


def frame(table_id: str, **key) -> pd.DataFrame:
    out = load_evidence(table_id).frame()
    for column, value in key.items():
        out = out[out[column].isna() if value is None else out[column] == value]
    return out


def value(table_id: str, column: str = "accuracy", **key) -> float:
    hit = frame(table_id, **key)
    assert len(hit) == 1, (table_id, key)
    return float(hit[column].iloc[0])


def logit(percent: float) -> float:
    p = min(max(percent, 0.5), 99.5) / 100
    return math.log(p / (1 - p))


def expit(x: float) -> float:
    return 100 / (1 + math.exp(-x))


def cell(rec: Recommendation, fid: str):
    return next(c for c in rec.ranking if c.format_id == fid)


# -- bases ----------------------------------------------------------------------------------------

def test_pooled_main_grid_reads_the_table_and_its_range() -> None:
    rec = recommend()
    assert (rec.format_id, rec.protocol_id, rec.basis) == ("xml_schema", "xml_call", "pooled")
    assert rec.expected_accuracy == pytest.approx(value("main_grid", format_id="xml_schema",
                                                        rule="main"))
    assert dict(rec.shifts) == {}
    # the range spans the table values the estimate rests on: the main grid, the tool-count and
    # tier tables at the main grid's conditions, and the crossing cell
    spread = [value("main_grid", format_id="xml_schema", rule="main"),
              value("tool_count", format_id="xml_schema", n_tools=8),
              value("tiers", format_id="xml_schema", tier=3),
              value("protocol_crossing", format_id="xml_schema", protocol_id="xml_call",
                    rule="main")]
    assert rec.interval == pytest.approx((min(spread), max(spread)))
    assert rec.interval == pytest.approx((65.30, 69.80))
    assert rec.interval_kind == "range" and (rec.n_tools, rec.tier) == (8, 3)
    assert any("not a confidence interval" in n for n in rec.notes)
    assert rec.strategy == "one_shot"


def test_a_checkpoint_reads_its_own_row() -> None:
    rec = recommend(model="Qwen/Qwen3-8B")
    assert rec.basis == "checkpoint:Qwen/Qwen3-8B"
    assert rec.resolution.matched_by == "checkpoint"
    for fid in CORE_FORMATS:
        assert cell(rec, fid).expected_accuracy == pytest.approx(
            value("checkpoint_accuracy", checkpoint_id="Qwen/Qwen3-8B", format_id=fid))
    assert (rec.format_id, rec.expected_accuracy) == ("xml_schema", 90.0)
    assert recommend(model="qwen/qwen3-8b").basis == "checkpoint:Qwen/Qwen3-8B"  # case ignored


@pytest.mark.parametrize("model, basis", [
    ("claude-opus-5-5-low", "anchor:Claude Opus 5.5 (low)"),
    ("claude-opus-5-5", "anchor:Claude Opus 5.5 (medium)"),     # no effort: medium preferred
    ("Claude Opus 5", "anchor:Claude Opus 5 (medium)"),         # Opus 5 is not Opus 5.5
    ("arc/GLM-5.3-high", "anchor:GLM-5.3 (high)"),
    ("GLM-5.3", "anchor:GLM-5.3 (medium)"),
    ("DeepSeek-V4.1-Flash", "anchor:DeepSeek-V4.1-Flash (none)"),
    ("claude-haiku-4-5-20251001", "anchor:Claude Haiku 4.5"),   # an anchor with no effort level
    ("gpt-oss-120b", "anchor:gpt-oss-120b (medium)"),
    ("openai/gpt-oss-120b", "checkpoint:openai/gpt-oss-120b"),  # the main-grid checkpoint
])
def test_anchor_models_with_and_without_effort(model, basis) -> None:
    assert recommend(model=model).basis == basis


def test_an_anchor_reads_its_effort_row() -> None:
    rec = recommend(model="claude-opus-5-5-low")
    base = [e for e in rec.evidence if e.role == "base"]
    assert [dict(e.key) for e in base] == [{"anchor": "Claude Opus 5.5", "effort": "low",
                                            "format_id": rec.format_id}]
    assert base[0].value == value("anchor_accuracy", anchor="Claude Opus 5.5", effort="low",
                                  format_id=rec.format_id)


@pytest.mark.parametrize("kwargs, basis", [
    ({"model": "someone/Qwen3-8B-Instruct-GGUF"}, "family:qwen3"),   # a zoo pattern
    ({"model": "Qwen/Qwen3-14B-AWQ"}, "family:qwen3"),              # zoo id, alias qwen3-quant
    ({"model": "ministral-3b-instruct"}, "family:mistral"),
    ({"model": "Qwen/Qwen3.5-122B-A10B"}, "family:qwen3.5-large"),  # its own key, by size
    ({"model": "qwen3.5-custom", "params_b": 122.0}, "family:qwen3.5-large"),
    ({"model": "qwen3.5-custom", "params_b": 99.9}, "family:qwen3.5"),
    ({"family": "qwen3.5-large"}, "family:qwen3.5-large"),
    ({"family": "glm", "model": "Qwen/Qwen3-8B"}, "family:glm"),     # family wins over the id
    ({"model": "gemini-2.5-pro"}, "pooled"),                         # a family with no row
    ({"model": "totally-unknown-model"}, "pooled"),
])
def test_families_by_the_zoo(kwargs, basis) -> None:
    assert recommend(**kwargs).basis == basis


def test_a_family_reads_its_row_and_keeps_its_protocols() -> None:
    rec = recommend(family="glm", tier=5)
    # the family row was measured with each format's own protocol, so the pooled crossing table's
    # better protocol for YAML (xml_call, 7.8 points) is not taken, and a note says so
    assert (rec.format_id, rec.protocol_id, rec.basis) == ("yaml_schema", "json_object",
                                                           "family:glm")
    base = value("family_accuracy", family="glm", format_id="yaml_schema")
    move = logit(value("tiers", format_id="yaml_schema", tier=5)) - logit(
        value("tiers", format_id="yaml_schema", tier=3))
    assert rec.expected_accuracy == pytest.approx(expit(logit(base) + move))
    assert round(rec.expected_accuracy, 2) == 79.81
    assert any("xml_call" in n and "is kept" in n for n in rec.notes)
    assert rec.protocol_source == "default"


def test_other_rules_read_the_pooled_table() -> None:
    rec = recommend(model="Qwen/Qwen3-8B", rule="symmetric", protocol="nl_intent")
    assert rec.basis == "pooled"
    assert any("main rule only" in n for n in rec.notes)
    assert cell(rec, "natural_language").expected_accuracy == pytest.approx(
        value("main_grid", format_id="natural_language", rule="symmetric"))


# -- moves ----------------------------------------------------------------------------------------

def test_tool_count_interpolates_in_percent_over_log2_tools() -> None:
    c64 = value("tool_count", format_id="xml_schema", n_tools=64)
    c128 = value("tool_count", format_id="xml_schema", n_tools=128)
    c8 = value("tool_count", format_id="xml_schema", n_tools=8)
    w = (math.log2(100) - 6) / (7 - 6)
    at_100 = c64 + w * (c128 - c64)
    rec = recommend(n_tools=100, candidates=["xml_schema"])
    assert rec.shifts["tool_count"] == pytest.approx(logit(at_100) - logit(c8))
    base = value("main_grid", format_id="xml_schema", rule="main")
    assert rec.expected_accuracy == pytest.approx(expit(logit(base) + rec.shifts["tool_count"]))


def test_counts_past_256_read_the_256_value() -> None:
    assert recommend(n_tools=512).expected_accuracy == pytest.approx(
        recommend(n_tools=256).expected_accuracy)
    assert any("outside the measured counts" in n for n in recommend(n_tools=512).notes)


def test_a_tier_gain_is_applied_at_8_tools_only_and_a_loss_everywhere() -> None:
    fid = "xml_schema"
    gain = logit(value("tiers", format_id=fid, tier=1)) - logit(value("tiers", format_id=fid,
                                                                       tier=3))
    loss = logit(value("tiers", format_id=fid, tier=5)) - logit(value("tiers", format_id=fid,
                                                                       tier=3))
    assert gain > 0 > loss
    assert recommend(tier=1, candidates=[fid]).shifts["tier"] == pytest.approx(gain)
    at_64 = recommend(n_tools=64, tier=1, candidates=[fid])
    assert "tier" not in at_64.shifts
    assert any("its gain is not applied at 64 tools" in n for n in at_64.notes)
    assert recommend(n_tools=64, tier=5, candidates=[fid]).shifts["tier"] == pytest.approx(loss)


def test_the_interval_spans_table_values_and_single_factor_estimates() -> None:
    fid = "python_stub"
    rec = recommend(n_tools=64, tier=5, candidates=[fid])
    # on the pooled table python_stub answers in xml_call, 2+ points higher in the crossing
    assert rec.protocol_id == "xml_call" and rec.protocol_source == "crossing_switch"
    base = value("main_grid", format_id=fid, rule="main")
    c_n = value("tool_count", format_id=fid, n_tools=64)
    t_t = value("tiers", format_id=fid, tier=5)
    cross = value("protocol_crossing", format_id=fid, protocol_id="xml_call", rule="main")
    dn, dt, dp = rec.shifts["tool_count"], rec.shifts["tier"], rec.shifts["protocol"]
    views = [base, c_n, t_t, cross, expit(logit(base) + dn), expit(logit(base) + dt),
             expit(logit(base) + dp), rec.expected_accuracy]
    assert rec.interval == pytest.approx((min(views), max(views)))
    assert rec.expected_accuracy == pytest.approx(expit(logit(base) + dn + dt + dp))


def test_on_the_pooled_table_a_protocol_gain_of_two_points_switches() -> None:
    crossing = frame("protocol_crossing", rule="symmetric")
    xml = crossing[crossing.format_id == "xml_schema"].set_index("protocol_id")["accuracy"]
    assert xml["json_object"] - xml["xml_call"] >= SWITCH_GAIN_POINTS
    rec = recommend(rule="symmetric", candidates=["xml_schema"])
    assert (rec.protocol_id, rec.protocol_source) == ("json_object", "crossing_switch")
    assert rec.shifts["protocol"] == pytest.approx(logit(xml["json_object"])
                                                   - logit(xml["xml_call"]))


def test_a_fixed_protocol_moves_each_format_by_the_crossing() -> None:
    rec = recommend(protocol="tool_call_tags")
    assert {c.protocol_id for c in rec.ranking} == {"tool_call_tags"}
    nl = cell(rec, "natural_language")
    move = logit(value("protocol_crossing", format_id="natural_language",
                       protocol_id="tool_call_tags", rule="main")) - logit(
        value("protocol_crossing", format_id="natural_language", protocol_id="nl_intent",
              rule="main"))
    assert nl.expected_accuracy == pytest.approx(
        expit(logit(value("main_grid", format_id="natural_language", rule="main")) + move))
    # a protocol outside the crossing keeps each format's own estimate, and says so
    other = recommend(protocol="yaml_call")
    assert other.protocol_id == "yaml_call"
    assert cell(other, "xml_schema").expected_accuracy == pytest.approx(67.52)
    assert any("no measurement pairs" in n for n in other.notes)


def test_searching_protocols_is_an_explicit_extrapolation() -> None:
    rec = recommend(model="Qwen/Qwen3-8B", search_protocols=True)
    cells = {(c.format_id, c.protocol_id) for c in rec.ranking}
    assert len(cells) == len(frame("protocol_crossing", rule="main"))
    if rec.protocol_source == "crossing_search":
        assert rec.extrapolated and "extrapolation" in rec.summary()
        assert any("an extrapolation" in n for n in rec.notes)
    with pytest.raises(ValueError, match="one or the other"):
        recommend(protocol="xml_call", search_protocols=True)


def test_ties_are_within_two_points() -> None:
    rec = recommend(model="claude-opus-5-5")
    best = rec.expected_accuracy
    assert set(rec.ties) == {(c.format_id, c.protocol_id) for c in rec.ranking[1:]
                             if best - c.expected_accuracy <= TIE_POINTS}
    assert rec.ties and "tied with" in rec.summary()


# -- tokens, cost, budget, window -----------------------------------------------------------------

def test_cost_per_request_from_the_cost_table_and_a_price() -> None:
    rec = recommend(n_tools=16, candidates=["json_schema_openai"], protocol="json_object")
    row = frame("cost", format_id="json_schema_openai").iloc[0]
    schema = round(row["schema_tokens"] * 16 / 8)
    prompt = round(schema + row["prompt_tokens"] - row["schema_tokens"])
    assert (rec.schema_tokens, rec.tokens_source) == (schema, "study")
    assert rec.cost_per_request == pytest.approx(cost_of(
        prompt, round(row["completion_tokens"]), cached_tokens=schema, price="frontier_api"))
    hosted = recommend(n_tools=16, candidates=["json_schema_openai"], protocol="json_object",
                       price="self_hosted")
    assert hosted.cost_per_request == pytest.approx(cost_of(
        prompt, round(row["completion_tokens"]), price="self_hosted"))
    assert not PRICES["self_hosted"].schema_cached and PRICES["frontier_api"].schema_cached


def test_the_cost_objective_ranks_by_accuracy_per_cost() -> None:
    rec = recommend(objective="cost")
    assert rec.objective == "cost"
    for c in rec.ranking:
        assert c.score == pytest.approx(c.expected_accuracy / c.cost_per_request)
    assert [c.score for c in rec.ranking] == sorted((c.score for c in rec.ranking),
                                                    reverse=True)
    per_token = recommend(objective="accuracy_per_token")
    assert per_token.ranking[0].score >= per_token.ranking[-1].score
    # a format outside the cost table cannot be scored; the JSON form stays strict JSON
    mixed = recommend(objective="cost", candidates=["xml_schema", "go_signature"])
    assert mixed.ranking[-1].format_id == "go_signature" and mixed.ranking[-1].score == -math.inf
    assert json.loads(json.dumps(mixed.to_dict(), allow_nan=False))["ranking"][-1]["score"] is None
    custom = recommend(objective="cost", price=Price(3.0, 3.0, 15.0))
    assert custom.price.input_per_m == 3.0
    assert set(OBJECTIVES) == {"accuracy", "cost", "accuracy_per_token"}


def test_a_token_budget_leaves_out_what_does_not_fit() -> None:
    fits = recommend(token_budget=1000)
    sizes = frame("cost").set_index("format_id")["schema_tokens"]
    assert {c.format_id for c in fits.ranking} == set(sizes[sizes.round() <= 1000].index)
    assert any("over the token budget of 1000" in n for n in fits.notes)
    none_fit = recommend(n_tools=128, token_budget=150)
    assert [c.format_id for c in none_fit.ranking] == ["json_minimal"]
    assert none_fit.strategy == "two_stage"


def test_a_block_over_half_the_window_is_ranked_last() -> None:
    rec = recommend(n_tools=64, context_tokens=16384)
    last = [c for c in rec.ranking if c.penalties]
    assert last and all(c.schema_tokens > 8192 for c in last)
    assert rec.ranking[:-len(last)] == tuple(c for c in rec.ranking if not c.penalties)
    assert not rec.ranking[0].penalties
    # the zoo's window for a listed id
    listed = recommend(model="Qwen/Qwen3-8B", n_tools=256)
    assert listed.resolution.context_tokens is not None


def _toolset(n_tools: int = 3, nested: bool = False) -> Toolset:
    params = [ParamIR("city", TypeIR("string")), ParamIR("days", TypeIR("integer"))]
    if nested:
        params.append(ParamIR("window", TypeIR("object", fields=(
            ParamIR("start_hour", TypeIR("integer")), ParamIR("end_hour", TypeIR("integer"))))))
    return Toolset(tuple(ToolIR(f"forecast_{i}", "Weather forecast.", tuple(params))
                         for i in range(n_tools)))


def test_tools_give_the_count_the_tier_and_rendered_tokens() -> None:
    from toolform.formats import render_block
    from toolform.tokens import estimate_tokens

    tools = _toolset(5, nested=True)
    rec = recommend(tools)
    assert (rec.n_tools, rec.tier) == (5, tools.tier_estimate())
    assert rec.tokens_source == "rendered"
    assert rec.schema_tokens == estimate_tokens(render_block(tools, rec.format_id))
    assert recommend(tools, n_tools=70, tier=1).strategy == "two_stage"
    with pytest.raises(ValueError, match="empty"):
        recommend(Toolset())


def test_hidden_required_fields_are_found() -> None:
    from toolform.advisor import _hidden_required

    tools = _toolset(1, nested=True)
    shown = "forecast_0(city: str, days: int, window: {start_hour: int, end_hour: int})"
    assert _hidden_required(tools, shown) == []
    assert _hidden_required(tools, "forecast_0(city, days, window: object)") == [
        "forecast_0.window.start_hour", "forecast_0.window.end_hour"]


def test_tools_from_a_file(tmp_path: Path) -> None:
    doc = [{"type": "function", "function": {
        "name": f"tool_{i}", "description": "does a thing",
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}},
                       "required": ["q"]}}} for i in range(40)]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(doc), "utf-8")
    rec = recommend(path)
    assert (rec.n_tools, rec.strategy) == (40, "retrieve")
    assert "retrieval_baseline" in {e.table for e in rec.catalogue.evidence}


# -- candidates, guard, surface -------------------------------------------------------------------

def test_candidates_outside_the_core_read_the_leaderboard() -> None:
    rec = recommend(candidates=["go_signature", "protobuf"])
    best = max(("go_signature", "protobuf"), key=lambda f: value("formats", "call_exact",
                                                                  format_id=f))
    assert rec.format_id == best and rec.basis == "pooled"
    assert rec.expected_accuracy == value("formats", "call_exact", format_id=best)
    assert rec.evidence[0].table == "formats"
    with pytest.raises(ValueError, match="two-stage format"):
        recommend(candidates=["names_then_schema"])
    with pytest.raises(ValueError, match="not a registered format"):
        recommend(candidates=["toml_schema"])


def test_third_party_tools_get_the_guard_advice() -> None:
    rec = recommend(third_party_tools=True)
    assert rec.guard.action == "strip"
    followed = value("injection", "followed", format_id=rec.format_id, exposure="standard")
    assert f"{followed:.2f}%" in rec.guard.reason
    minimal = recommend(third_party_tools=True, candidates=["json_minimal"])
    assert minimal.guard.action == "none"
    assert recommend().guard is None


def test_a_known_size_adds_the_fitted_surface_for_extrapolation_only() -> None:
    from toolform.surface import predict_surface

    rec = recommend(model="Qwen/Qwen3-8B")
    assert rec.surface["predicted_accuracy"] == pytest.approx(
        predict_surface(rec.format_id, params_b=8.0, n_tools=8, tier=3))
    assert rec.surface["heldout_r2"] == pytest.approx(0.219)
    huge = recommend(model="unknown-model", params_b=700.0)
    assert huge.surface is None and any("outside the open checkpoints" in n for n in huge.notes)


def test_thinking_families_are_told_to_switch_thinking_off() -> None:
    assert any("enable_thinking=False" in n for n in recommend(model="Qwen/Qwen3-8B").notes)
    assert not any("enable_thinking" in n for n in recommend(family="glm").notes)


# -- evidence, validation, result type ------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [{}, {"model": "Qwen/Qwen3-8B", "n_tools": 40, "tier": 4},
                                    {"model": "gpt-oss-120b-high", "rule": "as_written"},
                                    {"family": "llama3", "n_tools": 2, "objective": "cost"},
                                    {"protocol": "python_call", "third_party_tools": True}])
def test_every_evidence_row_is_in_its_table(kwargs) -> None:
    rec = recommend(**kwargs)
    rows = [*rec.evidence, *rec.catalogue.evidence, *(rec.guard.evidence if rec.guard else ())]
    assert rows and all(e.label for e in rows)
    for row in rows:
        table = load_evidence(row.table)
        assert row.source == table.source
        assert value(row.table, row.column, **dict(row.key)) == pytest.approx(row.value)
        assert row.unit == table.column(row.column).unit


@pytest.mark.parametrize("kwargs, match", [
    ({"rule": "lenient"}, "rule must be one of"), ({"tier": 9}, "tier must be one of"),
    ({"n_tools": 0}, "n_tools must be"), ({"context_tokens": -5}, "context_tokens must be"),
    ({"token_budget": 1.5}, "token_budget must be"), ({"params_b": -1.0}, "params_b must be"),
    ({"objective": "speed"}, "objective must be one of"), ({"price": "cheap"}, "price must be"),
    ({"protocol": "xml_cal"}, "closest: xml_call"), ({"family": "qwen9"}, "family must be one"),
    ({"candidates": []}, "non-empty"), ({"candidates": "xml_schema"}, "list of format ids"),
    ({"third_party_tools": "yes"}, "third_party_tools must be"),
])
def test_bad_inputs_name_the_field(kwargs, match) -> None:
    with pytest.raises(ValueError, match=match):
        recommend(**kwargs)


def test_unknown_fields_and_situations() -> None:
    with pytest.raises(TypeError):
        recommend(n_tool=8)
    situation = Situation(model="Qwen/Qwen3-8B", n_tools=64)
    assert recommend(situation).basis == recommend(situation=situation).basis
    assert recommend(situation, tier=5).tier == 5


def test_the_result_is_frozen_json_ready_and_one_line() -> None:
    import dataclasses

    rec = recommend(model="Qwen/Qwen3-8B", n_tools=100, tier=2, third_party_tools=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rec.format_id = "x"  # type: ignore[misc]
    line = rec.summary()
    assert "\n" not in line and rec.format_id in line and rec.basis in line
    data = json.loads(json.dumps(rec.to_dict()))
    assert data["format_id"] == rec.format_id and data["catalogue"]["strategy"] == "two_stage"
    assert data["evidence"][0]["source"] and data["situation"]["model"] == "Qwen/Qwen3-8B"
    assert list(rec.evidence_frame().columns) == ["table", "source", "key", "column", "value",
                                                  "unit", "label", "role"]
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
    rec = recommend_from_measurement(_cells(), n_tools=20)
    assert (rec.format_id, rec.protocol_id, rec.expected_accuracy) == (
        "python_stub", "python_call", 90.0)
    assert rec.interval == (82.0, 98.0)
    assert (rec.basis, rec.interval_kind, rec.strategy) == ("measured", "measured", "one_shot")
    sel = frame("selection", scope="mean").set_index("procedure")["accuracy"]
    for procedure in ("measure_eight", "fitted_rule", "always_json"):
        assert f"{sel[procedure]:.2f}%" in rec.notes[0]
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


def test_measured_overlaps_are_the_ties() -> None:
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
    bad.loc[0, "accuracy"] = 900.0
    with pytest.raises(ValueError, match="percent"):
        recommend_from_measurement(bad)
    with pytest.raises(TypeError):
        recommend_from_measurement([1, 2, 3])
    assert set(MEASUREMENT_COLUMNS) <= set(_cells().columns)


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


def test_cli_recommend_json_holds_the_whole_result(cli) -> None:
    result = cli("recommend", "--family", "glm", "--tier", "5", "--objective", "cost",
                 "--price", "self_hosted", "--third-party", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    expected = recommend(family="glm", tier=5, objective="cost", price="self_hosted",
                         third_party_tools=True).to_dict()
    assert data == json.loads(json.dumps(expected))
    assert {"format_id", "protocol_id", "expected_accuracy", "interval", "basis", "ties",
            "catalogue", "schema_tokens", "cost_per_request", "evidence"} <= set(data)


def test_cli_recommend_with_tools_and_evidence(cli, tmp_path: Path) -> None:
    doc = [{"type": "function", "function": {"name": f"t{i}", "description": "x",
                                             "parameters": {"type": "object",
                                                            "properties": {}}}}
           for i in range(70)]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(doc), "utf-8")
    result = cli("recommend", "--model", "x", "--tools", str(path), "--evidence",
                 "--candidate", "xml_schema", "--candidate", "typescript")
    assert result.exit_code == 0, result.output
    assert "70 tools" in result.output and "catalogue: two_stage" in result.output
    assert "tool_count" in result.output and "paper:tab_count_by_format" in result.output


def test_cli_recommend_rejects_bad_values(cli) -> None:
    result = cli("recommend", "--model", "x", "--rule", "lenient")
    assert result.exit_code == 1
    assert "rule must be one of" in result.output
    assert cli("recommend", "--protocol", "xml_call", "--search-protocols").exit_code == 1


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
