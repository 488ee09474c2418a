"""The comparisons with a scripted client: the count sweep, its summary, cost, replay, recall
and end-to-end accuracy."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from catalogue_fakes import CatalogueFake
from toolform.catalogue import Retriever
from toolform.clients import ReplayClient
from toolform.errors import CassetteMissError
from toolform.evidence import load_evidence
from toolform.experiments import (END_TO_END_COLUMNS, SWEEP_COLUMNS, SWEEP_SUMMARY_COLUMNS, Strategy,
                                  count_sweep, end_to_end, make_strategies, recall_at_k,
                                  select_requests, summarize_sweep)
from toolform.generator import decoy_catalogue, generated_tasks

SIZES = (1, 4, 16, 64)
STRATEGIES = make_strategies(ks=(4,), methods=("bm25",))


@pytest.fixture(scope="module")
def requests():
    return select_requests(generated_tasks(), 5, seed=3)


@pytest.fixture(scope="module")
def turns(requests):
    return count_sweep(requests, CatalogueFake(requests, confused_above=32), sizes=SIZES,
                       strategies=STRATEGIES, concurrency=1).turns


def test_one_row_per_turn_with_declared_columns(turns, requests):
    assert list(turns.columns) == [c[0] for c in SWEEP_COLUMNS]
    assert len(turns) == len(requests) * len(SIZES) * len(STRATEGIES)
    assert set(turns["strategy"]) == {"one_shot", "bm25_k4", "two_stage_names",
                                      "two_stage_names_desc"}
    for name, dtype, _, _ in SWEEP_COLUMNS:
        if dtype != "object":
            assert str(turns[name].dtype) == dtype, name
    assert turns["error"].isna().all()


def test_one_shot_answers_until_the_fake_is_confused(turns):
    one = turns[turns["strategy"] == "one_shot"]
    assert one[one["n_tools"] <= 16]["correct_main"].all()
    big = one[one["n_tools"] == 64]
    assert big["empty"].all() and not big["correct_main"].any() and big["gold_shown"].all()
    assert (one["shown_tools"] == one["n_tools"]).all()


def test_retrieval_is_right_exactly_when_the_gold_tool_was_retrieved(turns, requests):
    by_id = {r.id: r for r in requests}
    rows = turns[turns["strategy"] == "bm25_k4"]
    for row in rows.itertuples():
        request = by_id[row.request_id]
        catalogue = decoy_catalogue(row.n_tools, 0, target=request.gold[0].name)
        names = Retriever(catalogue).search(request.text, k=4).names
        assert row.gold_shown == (request.gold[0].name in names)
        assert row.correct_main == row.gold_shown
        assert row.shown_tools == min(4, row.n_tools)
        if not row.gold_shown:
            assert row.no_call and not row.empty  # the fake abstains in words


def test_two_stage_selects_then_calls(turns):
    staged = turns[turns["kind"] == "two_stage"]
    assert staged["correct_main"].all() and (staged["model_calls"] == 2).all()
    assert (staged["selected"] == staged["gold_names"].str[0]).all()
    assert (staged["shown_tools"] == 1).all() and not staged["selection_failed"].any()


def test_cost_uses_the_price_table(turns, requests):
    # the default, frontier_api, prices the tool block as cached input (as the runner does)
    prices = {r["setting"]: r for r in load_evidence("cost_prices").rows}["frontier_api"]
    assert prices["schema_cached"]
    expected = ((turns["prompt_tokens"] - turns["schema_tokens"]) * prices["input_usd_per_m"]
                + turns["schema_tokens"] * prices["cached_input_usd_per_m"]
                + turns["completion_tokens"] * prices["output_usd_per_m"]) / 1e6
    assert turns["cost_usd"].tolist() == pytest.approx(expected.tolist())
    hosted = count_sweep(requests[:1], CatalogueFake(requests), sizes=(1,),
                         strategies=STRATEGIES[:1], price="self_hosted").turns
    prices = {r["setting"]: r for r in load_evidence("cost_prices").rows}["self_hosted"]
    assert hosted["cost_usd"].tolist() == pytest.approx(
        ((hosted["prompt_tokens"] * prices["input_usd_per_m"]
          + hosted["completion_tokens"] * prices["output_usd_per_m"]) / 1e6).tolist())


def test_summary_hand_checked(turns, requests):
    summary = summarize_sweep(turns)
    assert list(summary.columns) == [c[0] for c in SWEEP_SUMMARY_COLUMNS]
    assert len(summary) == len(SIZES) * len(STRATEGIES)
    row = summary[(summary["strategy"] == "one_shot") & (summary["n_tools"] == 64)].iloc[0]
    assert (row["n"], row["accuracy"], row["empty"]) == (len(requests), 0.0, 100.0)
    assert row["ci_low"] == pytest.approx(0.0, abs=1e-9)
    assert math.isnan(row["selection_failed"])
    bm25 = turns[(turns["strategy"] == "bm25_k4") & (turns["n_tools"] == 16)]
    got = summary[(summary["strategy"] == "bm25_k4") & (summary["n_tools"] == 16)].iloc[0]
    assert got["accuracy"] == pytest.approx(100 * bm25["correct_main"].mean())
    assert got["prompt_tokens"] == pytest.approx(bm25["prompt_tokens"].mean())
    assert got["cost_usd_per_1k"] == pytest.approx(1000 * bm25["cost_usd"].mean())


def test_over_context_prompts_are_not_sent(requests):
    fake = CatalogueFake(requests[:2])
    turns = count_sweep(requests[:2], fake, sizes=(64,), strategies=(Strategy("one_shot"),),
                        context_tokens=4000).turns
    assert turns["over_context"].all() and turns["empty"].all()
    assert fake.log == [] and (turns["model_calls"] == 0).all()


def test_bad_inputs_fail_before_any_model_call(requests):
    fake = CatalogueFake(requests)
    with pytest.raises(ValueError):
        count_sweep(requests, fake, sizes=(10_000,), strategies=STRATEGIES)
    with pytest.raises(ValueError, match="price must be a Price or one of"):
        count_sweep(requests, fake, sizes=(1,), price="free")
    assert fake.log == []


@pytest.mark.parametrize("kwargs", [{"kind": "shown"}, {"kind": "retrieve", "method": "bm25"},
                                    {"kind": "retrieve", "method": "grep", "k": 4},
                                    {"kind": "one_shot", "k": 4}])
def test_strategy_validation(kwargs):
    with pytest.raises(ValueError):
        Strategy(**kwargs)


def test_strategy_ids():
    assert [s.id for s in make_strategies(ks=(8,))] == [
        "one_shot", "bm25_k8", "embed_k8", "two_stage_names", "two_stage_names_desc"]


def test_a_recorded_sweep_replays_without_the_model(tmp_path, requests):
    cassette = tmp_path / "sweep.jsonl"
    fake = CatalogueFake(requests[:2])
    recorder = ReplayClient(cassette, fake, mode="auto")
    first = count_sweep(requests[:2], recorder, sizes=(1, 16), strategies=STRATEGIES).turns
    offline = ReplayClient(cassette, mode="replay", model=fake.model)
    again = count_sweep(requests[:2], offline, sizes=(1, 16), strategies=STRATEGIES).turns
    pd.testing.assert_frame_equal(first, again)
    with pytest.raises(CassetteMissError):
        count_sweep(requests[2:3], offline, sizes=(1,), strategies=STRATEGIES)


def test_end_to_end_from_the_study_sweep():
    recall = pd.DataFrame({"dataset": ["d", "d"], "method": ["bm25", "bm25"], "k": [4, 5],
                           "n": [10, 10], "n_tools": [97, 97], "recall": [80.0, 90.0]})
    frame = end_to_end(recall)
    assert list(frame.columns) == [c[0] for c in END_TO_END_COLUMNS]
    pooled = {(r["n_tools"], r["reading"]): r["value"]
              for r in load_evidence("tool_count_pooled").rows}
    assert frame["selection_accuracy"].iloc[0] == pooled[(4, "exact_tool")]
    assert frame["end_to_end"].iloc[0] == pytest.approx(80.0 * pooled[(4, "exact_tool")] / 100)
    assert math.isnan(frame["end_to_end"].iloc[1])  # 5 tools was never measured
    strict = end_to_end(recall, reading="strict")
    assert strict["selection_accuracy"].iloc[0] == pooled[(4, "strict")]
    with pytest.raises(ValueError, match="reading"):
        end_to_end(recall, reading="vibes")


def test_end_to_end_from_a_measured_sweep(turns):
    recall = recall_at_k(generated_tasks()[:20], ks=(1, 4, 16)).cells
    one_shot = summarize_sweep(turns).query("strategy == 'one_shot'")
    frame = end_to_end(recall, one_shot)
    assert (frame["selection_source"] == "measured").all()
    at4 = frame[frame["k"] == 4].iloc[0]
    assert at4["selection_accuracy"] == 100.0
    assert at4["end_to_end"] == pytest.approx(at4["recall"])
    assert math.isnan(frame[frame["k"] == 1]["end_to_end"].iloc[0]) is False


def test_a_resumed_sweep_regrades_turns_graded_by_other_code(tmp_path, requests):
    import json

    from toolform.grading import grading_version

    path = tmp_path / "sweep.jsonl"
    client = CatalogueFake(requests, confused_above=32)
    fresh = count_sweep(requests, client, sizes=SIZES, strategies=STRATEGIES, concurrency=1,
                        checkpoint=path).turns
    assert (fresh["grading_version"] == grading_version()).all()
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:  # as an older grader might have left them: a stale stamp, verdicts flipped
        row.update(grading_version="old", correct_main=not row["correct_main"], calls=[])
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    asked = len(client.log)
    resumed = count_sweep(requests, client, sizes=SIZES, strategies=STRATEGIES, concurrency=1,
                          checkpoint=path).turns
    assert len(client.log) == asked  # re-graded from the stored replies: no model asked
    for column in ("correct_main", "correct_symmetric", "tool_correct", "calls", "n_calls",
                   "grading_version"):
        assert resumed[column].tolist() == fresh[column].tolist(), column
    lines = path.read_text().splitlines()
    assert len(lines) == 2 * len(rows)  # the re-graded rows were appended to the checkpoint
