"""repeats=k: requests expanded before the runner, and pass@k, pass^k, the flip rate off the turns.

The stub client answers each prompt from a script indexed by how many times that prompt was
asked, so the answers vary by repeat (one turn in flight at a time keeps the order fixed).
"""

from __future__ import annotations

import threading
from collections import Counter

import pandas as pd
import pytest

from toolform.experiments import ab_test
from toolform.atlas import atlas
from toolform.experiments import bfcl_arm
from toolform.clients import Completion
from toolform.ir import GoldCall, ParamIR, Request, ToolCall, ToolIR, Toolset, TypeIR
from toolform.protocols import get_protocol
from toolform.repeats import REPEAT_MARK, expand_repeats, repeat_summary, split_repeats
from toolform.runs import Cell, read_checkpoint, run_cells

WEATHER = ToolIR("get_weather", "Current weather for a city.", params=(
    ParamIR("city", TypeIR("string"), "City name."),))
TOOLS = Toolset((WEATHER,))
REQUESTS = [Request(id=f"q{i}", text=f"weather in City{i}", toolset=TOOLS,
                    gold=(GoldCall.from_call(ToolCall("get_weather", {"city": f"City{i}"})),),
                    category="test") for i in range(2)]
# request q0 is right, wrong, right across its three repeats; q1 is right every time
SCRIPT = {"weather in City0": [True, False, True], "weather in City1": [True, True, True]}


class ByRepeatClient:
    """The n-th ask of a prompt gets ``SCRIPT[text][n]``: the gold call, or a refusal."""

    model = "by-repeat"

    def __init__(self) -> None:
        self.asked: Counter[tuple[str, str]] = Counter()
        self.lock = threading.Lock()

    def complete(self, messages, *, max_tokens=256, temperature=0.0, tools=None, extra_body=None):
        text, system = messages[-1]["content"], messages[0]["content"]
        with self.lock:
            n = self.asked[(system, text)]
            self.asked[(system, text)] += 1
        request = next(r for r in REQUESTS if r.text == text)
        protocol = next(p for p in ("xml_call", "python_call", "json_object", "nl_intent")
                        if get_protocol(p).instruction in system)
        reply = (get_protocol(protocol).protocol.write([request.gold[0].first_call()], TOOLS)
                 if SCRIPT[text][n % 3] else "I cannot help with that.")
        return Completion(text=reply, tool_calls=None, prompt_tokens=50, completion_tokens=5,
                          latency_s=0.01, model=self.model, finish_reason="stop")


def test_expand_repeats_ids_order_and_errors():
    out = expand_repeats(REQUESTS, 3)
    assert [r.id for r in out] == [f"q0{REPEAT_MARK}0", f"q0{REPEAT_MARK}1", f"q0{REPEAT_MARK}2",
                                   f"q1{REPEAT_MARK}0", f"q1{REPEAT_MARK}1", f"q1{REPEAT_MARK}2"]
    assert all(r.text == REQUESTS[i // 3].text and r.gold == REQUESTS[i // 3].gold
               for i, r in enumerate(out))
    assert expand_repeats(REQUESTS, 1) == REQUESTS
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match="repeats"):
            expand_repeats(REQUESTS, bad)
    with pytest.raises(ValueError, match="repeat mark"):
        expand_repeats(out, 2)


def test_split_repeats_reads_the_ids_back():
    frame = pd.DataFrame({"request_id": ["a#repeat0", "a#repeat11", "plain", "x#repeatz"]})
    split = split_repeats(frame)
    assert split["request_id"].tolist() == ["a", "a", "plain", "x#repeatz"]
    assert split["repeat"].tolist() == [0, 11, 0, 0]
    with pytest.raises(ValueError, match="request_id"):
        split_repeats(pd.DataFrame({"id": [1]}))


def _check_hand_worked(turns: pd.DataFrame, cell: str) -> None:
    per_request, per_cell = repeat_summary(turns, k=2)
    q0 = per_request[(per_request.cell == cell) & (per_request.request_id == "q0")].iloc[0]
    q1 = per_request[(per_request.cell == cell) & (per_request.request_id == "q1")].iloc[0]
    # q0: 2 of 3 right. pass@2 = 1 - C(1,2)/C(3,2) = 1; pass^2 = C(2,2)/C(3,2) = 1/3; it flips
    assert (q0.n_repeats, q0.n_correct) == (3, 2)
    assert q0.pass_at_k == pytest.approx(1.0) and q0.pass_hat_k == pytest.approx(1 / 3)
    assert bool(q0.flipped)
    assert (q1.n_correct, q1.pass_at_k, q1.pass_hat_k, bool(q1.flipped)) == (3, 1.0, 1.0, False)
    row = per_cell[per_cell.cell == cell].iloc[0]
    # repeats' accuracies 100, 50, 100: sd = sqrt(((100-83.3)^2*2 + (50-83.3)^2) / 2) = 28.87
    assert row.accuracy == pytest.approx(500 / 6)
    assert row.accuracy_sd == pytest.approx(28.8675, abs=1e-3)
    assert row.accuracy_variance == pytest.approx(2500 / 3)
    assert row.flip_rate == pytest.approx(50.0)
    assert row.pass_at_k == pytest.approx(100.0)
    assert row.pass_hat_k == pytest.approx(100 * (1 / 3 + 1) / 2)


def test_ab_test_repeats_hand_checked(tmp_path):
    client = ByRepeatClient()
    result = ab_test(REQUESTS, client, n=2, cells=["json_schema_openai"], repeats=3,
                     checkpoint=tmp_path / "ab.jsonl", concurrency=1, progress=False)
    assert len(result.turns) == 6
    _check_hand_worked(result.turns, "json_schema_openai/json_object")
    # the checkpoint keys the repeats apart: running again asks nothing and keeps every verdict
    again = ab_test(REQUESTS, ByRepeatClient(), n=2, cells=["json_schema_openai"], repeats=3,
                    checkpoint=tmp_path / "ab.jsonl", concurrency=1, progress=False)
    assert len({r["request_id"] for r in read_checkpoint(tmp_path / "ab.jsonl")}) == 6
    assert sorted(again.turns["correct_main"]) == sorted(result.turns["correct_main"])


def test_bfcl_arm_repeats_in_every_cell():
    cells = [Cell("xml_schema", "xml_call"), Cell("python_stub", "python_call")]
    turns = bfcl_arm(REQUESTS, ByRepeatClient(), cells=cells, repeats=3, concurrency=1,
                     progress=False).turns
    assert len(turns) == 12
    for cell in ("xml_schema/xml_call", "python_stub/python_call"):
        _check_hand_worked(turns, cell)


def test_atlas_repeats_expand_the_pool():
    found = atlas(REQUESTS, ByRepeatClient(), formats=["json_schema_openai"],
                  protocols=["json_object"], budget_turns=6, repeats=3, concurrency=1,
                  search="halving")  # one cell: elimination would stop at its first round
    assert found.n_requests == 6 and found.turns_spent == 6
    _check_hand_worked(found.turns, "json_schema_openai/json_object")


def test_one_repeat_changes_nothing():
    plain = run_cells([Cell("json_schema_openai")], REQUESTS, ByRepeatClient(), progress=False,
                      max_concurrency=1)
    assert plain["request_id"].tolist() == ["q0", "q1"]
    assert split_repeats(plain)["repeat"].tolist() == [0, 0]
