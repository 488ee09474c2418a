"""Repeats are samples: each asked with the user's sampling and its own seed, keyed apart.

The stub client's reply depends only on the seed it is sent (never on how often it was asked),
as a seeded sampling server's does: so the flip rate, pass@k and pass^k below come from
genuinely different replies, and a cassette recorded once replays every repeat's own reply.
"""

from __future__ import annotations

import threading

import pytest

from toolform.atlas import atlas
from toolform.clients import Completion, ReplayClient, request_key
from toolform.errors import InvalidParameterError
from toolform.ir import GoldCall, ParamIR, Request, ToolCall, ToolIR, Toolset, TypeIR
from toolform.plan import plan_run
from toolform.protocols import get_protocol
from toolform.repeats import NOT_SAMPLED, Sampling, expand_repeats, repeat_index, repeat_summary
from toolform.runs import Cell, run_cells

WEATHER = ToolIR("get_weather", "Current weather for a city.", params=(
    ParamIR("city", TypeIR("string"), "City name."),))
TOOLS = Toolset((WEATHER,))
REQUESTS = [Request(id=f"q{i}", text=f"weather in City{i}", toolset=TOOLS,
                    gold=(GoldCall.from_call(ToolCall("get_weather", {"city": f"City{i}"})),),
                    category="test") for i in range(2)]
BASE_SEED = 100
# by seed: q0 is right at seeds 100 and 102, wrong at 101; q1 is right at every seed
RIGHT_AT = {"weather in City0": {100, 102}, "weather in City1": {100, 101, 102}}
CELL = Cell("json_schema_openai", "json_object")


class SeededClient:
    """Answers by the seed in ``extra_body``: the gold call where ``RIGHT_AT`` says so."""

    model = "seeded"

    def __init__(self) -> None:
        self.sent: list[tuple[float, dict | None]] = []
        self.lock = threading.Lock()

    def complete(self, messages, *, max_tokens=256, temperature=0.0, tools=None, extra_body=None):
        with self.lock:
            self.sent.append((temperature, extra_body))
        text = messages[-1]["content"]
        request = next(r for r in REQUESTS if r.text == text)
        right = extra_body is not None and extra_body.get("seed") in RIGHT_AT[text]
        reply = (get_protocol("json_object").protocol.write([request.gold[0].first_call()], TOOLS)
                 if right else "I cannot help with that.")
        return Completion(text=reply, tool_calls=None, prompt_tokens=50, completion_tokens=5,
                          latency_s=0.01, model=self.model, finish_reason="stop")


def _check(turns) -> None:
    per_request, per_cell = repeat_summary(turns, k=2, sampling=Sampling(temperature=0.7))
    q0 = per_request[per_request.request_id == "q0"].iloc[0]
    # q0 right 2 of 3: pass@2 = 1 - C(1,2)/C(3,2) = 1, pass^2 = C(2,2)/C(3,2) = 1/3, flips
    assert (q0.n_repeats, q0.n_correct, bool(q0.flipped)) == (3, 2, True)
    assert q0.pass_at_k == pytest.approx(1.0) and q0.pass_hat_k == pytest.approx(1 / 3)
    row = per_cell.iloc[0]
    assert row.flip_rate == pytest.approx(50.0)  # q0 flips, q1 does not
    assert row.pass_hat_k == pytest.approx(100 * (1 / 3 + 1) / 2)
    assert row.sampling == "temperature 0.7, seed per repeat"


def test_repeats_are_seeded_samples_and_a_cassette_replays_them(tmp_path):
    sampling = Sampling(temperature=0.7, top_p=0.9, seed=BASE_SEED)
    client = SeededClient()
    cassette = tmp_path / "repeats.jsonl"
    recorder = ReplayClient(cassette, client, mode="record")
    live = run_cells([CELL], expand_repeats(REQUESTS, 3), recorder, sampling=sampling,
                     max_concurrency=1, progress=False)
    # the user's sampling reached the client, each repeat with its own seed
    assert sorted(client.sent, key=lambda s: s[1]["seed"]) == [
        (0.7, {"top_p": 0.9, "seed": s}) for s in (100, 100, 101, 101, 102, 102)]
    _check(live)
    # six turns, six keys: the replay gives each repeat its own recorded reply, nothing asked
    assert len({line for line in cassette.read_text().splitlines()}) == 6
    replay = ReplayClient(cassette, model="seeded", mode="replay")
    again = run_cells([CELL], expand_repeats(REQUESTS, 3), replay, sampling=sampling,
                      max_concurrency=1, progress=False)
    assert again["correct_main"].tolist() == live["correct_main"].tolist()
    assert again["error"].isna().all()
    _check(again)


def test_atlas_repeats_are_samples():
    found = atlas(REQUESTS, SeededClient(), formats=["json_schema_openai"],
                  protocols=["json_object"], budget_turns=6, repeats=3, concurrency=1,
                  search="halving", sampling=Sampling(temperature=0.7, seed=BASE_SEED))
    _check(found.turns)
    assert "temperature 0.7" in found.summary()


def test_temperature_zero_repeats_say_their_flip_rate_is_by_construction():
    client = SeededClient()
    turns = run_cells([CELL], expand_repeats(REQUESTS, 3), client, max_concurrency=1,
                      progress=False)
    # the default still sends a seed per repeat (0, 1, 2: keys apart) at temperature 0
    assert sorted(s[1]["seed"] for s in client.sent) == [0, 0, 1, 1, 2, 2]
    assert {s[0] for s in client.sent} == {0.0}
    _, per_cell = repeat_summary(turns)
    assert per_cell["sampling"].tolist() == [NOT_SAMPLED]


def test_a_single_ask_keeps_its_key_and_sends_no_seed():
    plan = plan_run([CELL], REQUESTS, model="seeded", max_tokens=64)
    turn = plan[0]
    assert turn.extra_body is None
    assert turn.key == request_key("seeded", turn.messages, max_tokens=64, temperature=0.0,
                                   tools=None)
    seeded = plan_run([CELL], expand_repeats(REQUESTS, 2), model="seeded", max_tokens=64,
                      sampling=Sampling(seed=7))
    assert [t.extra_body for t in seeded] == [{"seed": 7}, {"seed": 8}] * 2
    assert seeded[1].key == request_key("seeded", seeded[1].messages, max_tokens=64,
                                        temperature=0.0, tools=None, extra_body={"seed": 8})
    assert seeded[1].body()["seed"] == 8
    assert len({t.key for t in seeded}) == 4


def test_sampling_checks_its_values():
    assert repeat_index("a#repeat3") == 3 and repeat_index("a") is None
    for bad in ({"temperature": -1}, {"top_p": 0}, {"seed": 1.5}, {"extra": {"seed": 1}}):
        with pytest.raises(InvalidParameterError):
            Sampling(**bad)
