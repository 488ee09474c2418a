"""The run engine, the eight-cell A/B and the statistics behind it, with a scripted client."""

from __future__ import annotations

import dataclasses
import json
import math
import threading

import pytest

from toolform.experiments import ab_test, select_requests, summarize_cells
from toolform.study import CORE_FORMATS
from toolform.clients import Completion
from toolform.errors import ClientError
from toolform.ir import GoldCall, ParamIR, Request, ToolCall, ToolIR, Toolset, TypeIR
from toolform.protocols import get_protocol
from toolform.runs import TURN_COLUMNS, Cell, read_checkpoint, run_cells
from toolform.stats import paired_bootstrap, wilson_interval

WEATHER = ToolIR("get_weather", "Current weather for a city.", params=(
    ParamIR("city", TypeIR("string"), "City name."),
    ParamIR("unit", TypeIR("enum", values=("celsius", "fahrenheit")), "Unit.", required=False,
            default="celsius"),
))
TIME = ToolIR("get_time", "Local time in a time zone.", params=(
    ParamIR("zone", TypeIR("string"), "IANA zone."),))
TOOLS = Toolset((WEATHER, TIME))


def make_requests(k: int) -> list[Request]:
    out = []
    for i in range(k):
        gold = ToolCall("get_weather", {"city": f"City{i}"}) if i % 2 == 0 else \
            ToolCall("get_time", {"zone": f"Zone/{i}"})
        out.append(Request(id=f"r{i}", text=f"request {i}", toolset=TOOLS,
                           gold=(GoldCall.from_call(gold),), category="test"))
    return out


class ScriptedClient:
    """Answers with the gold call in the asked protocol, except on requests listed as wrong or
    failing. Counts calls per (system prompt, request)."""

    model = "scripted"

    def __init__(self, requests, wrong=(), failing=(), fail_times=1):
        self.by_text = {r.text: r for r in requests}
        self.wrong = set(wrong)
        self.failing = {rid: fail_times for rid in failing}
        self.calls = 0
        self.lock = threading.Lock()

    def complete(self, messages, *, max_tokens=256, temperature=0.0, tools=None, extra_body=None):
        with self.lock:
            self.calls += 1
        request = self.by_text[messages[-1]["content"]]
        system = messages[0]["content"]
        protocol = next(p for p in ("xml_call", "nl_intent", "python_call", "json_object")
                        if get_protocol(p).instruction in system)
        with self.lock:
            if self.failing.get(request.id, 0) > 0:
                self.failing[request.id] -= 1
                raise ClientError("server said 503", status=503)
        if request.id in self.wrong:
            text = "I cannot help with that."
        else:
            text = get_protocol(protocol).protocol.write([request.gold[0].first_call()], TOOLS)
        return Completion(text=text, tool_calls=None, prompt_tokens=100, completion_tokens=10,
                          latency_s=0.01, model=self.model, finish_reason="stop")


def test_every_turn_is_a_row_with_declared_columns():
    requests = make_requests(4)
    client = ScriptedClient(requests, wrong={"r1"})
    frame = run_cells([Cell("json_schema_openai"), Cell("xml_schema")], requests, client,
                      progress=False)
    assert list(frame.columns) == [c[0] for c in TURN_COLUMNS]
    assert len(frame) == 8
    assert set(frame["cell"]) == {"json_schema_openai/json_object", "xml_schema/xml_call"}
    assert frame.loc[frame["request_id"] == "r1", "correct_main"].tolist() == [False, False]
    assert frame.loc[frame["request_id"] != "r1", "correct_main"].all()
    assert (frame["model"] == "scripted").all()
    assert frame["prompt_tokens"].tolist() == [100] * 8


def test_failed_request_is_a_row_and_resume_retries_only_it(tmp_path):
    requests = make_requests(6)
    checkpoint = tmp_path / "turns.jsonl"
    client = ScriptedClient(requests, failing={"r3"})
    first = run_cells([Cell("json_schema_openai")], requests, client, checkpoint=checkpoint,
                      progress=False, max_concurrency=2)
    assert client.calls == 6
    failed = first[first["request_id"] == "r3"].iloc[0]
    assert "503" in failed["error"] and not failed["correct_main"]
    assert first["error"].isna().sum() == 5
    again = run_cells([Cell("json_schema_openai")], requests, client, checkpoint=checkpoint,
                      progress=False)
    assert client.calls == 7  # only the failed turn was asked again
    assert again["error"].isna().all() and again["correct_main"].all()
    assert len(read_checkpoint(checkpoint)) == 6


def test_stop_then_resume_loses_and_repeats_nothing(tmp_path):
    requests = make_requests(10)
    checkpoint = tmp_path / "turns.jsonl"
    stop = threading.Event()

    class Stopping(ScriptedClient):
        def complete(self, messages, **kw):
            out = super().complete(messages, **kw)
            if self.calls >= 4:
                stop.set()
            return out

    client = Stopping(requests)
    partial = run_cells([Cell("python_stub")], requests, client, checkpoint=checkpoint,
                        progress=False, max_concurrency=1, stop=stop)
    assert 4 <= len(partial) < 10
    stop.clear()
    resumed = ScriptedClient(requests)
    full = run_cells([Cell("python_stub")], requests, resumed, checkpoint=checkpoint,
                     progress=False)
    assert resumed.calls == 10 - len(partial)
    assert full["request_id"].tolist() == [f"r{i}" for i in range(10)]
    assert full["correct_main"].all()


def test_torn_checkpoint_line_is_skipped(tmp_path):
    path = tmp_path / "c.jsonl"
    row = {"model": "m", "cell": "a/b", "request_id": "r0"}
    path.write_text(json.dumps(row) + "\n" + '{"model": "m", "cell', encoding="utf-8")
    assert read_checkpoint(path) == [row]


def test_ab_test_accuracy_intervals_and_best_cell():
    requests = make_requests(20)
    client = ScriptedClient(requests, wrong={"r0", "r1", "r2", "r3"})
    result = ab_test(requests, client, n=20, progress=False)
    assert set(result.cells["format_id"]) == set(CORE_FORMATS)
    main = result.cells[result.cells["rule"] == "main"]
    assert (main["accuracy"] == 80.0).all()
    lo, hi = wilson_interval(16, 20)
    assert main["ci_low"].round(6).eq(round(lo, 6)).all()
    assert (main["delta"] == 0.0).all()
    assert len(result.best) == 8  # every cell tied, and the tie is reported
    assert "tied" in result.summary()
    table = result.table()
    assert list(table["cell"])[0] == "xml_schema/xml_call" and table["main"].eq(80.0).all()


def test_select_requests_is_seeded():
    requests = make_requests(30)
    a = [r.id for r in select_requests(requests, 10, seed=1)]
    assert a == [r.id for r in select_requests(requests, 10, seed=1)]
    assert a != [r.id for r in select_requests(requests, 10, seed=2)]
    assert len(select_requests(requests, 99)) == 30


def test_summarize_leaves_out_errors():
    requests = make_requests(4)
    client = ScriptedClient(requests, failing={"r0"}, fail_times=99)
    turns = run_cells([Cell("json_minimal")], requests, client, progress=False)
    cells = summarize_cells(turns)
    row = cells[cells["rule"] == "main"].iloc[0]
    assert (row["n"], row["n_errors"], row["correct"], row["accuracy"]) == (3, 1, 3, 100.0)


def test_wilson_interval_hand_checked():
    lo, hi = wilson_interval(5, 10)
    assert (round(lo, 2), round(hi, 2)) == (23.66, 76.34)
    lo, hi = wilson_interval(0, 10)
    assert round(lo, 9) == 0.0 and round(hi, 2) == 27.75
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_paired_bootstrap():
    same = [True, False, True, True]
    assert paired_bootstrap(same, same) == (0.0, 0.0, 0.0)
    diff, lo, hi = paired_bootstrap([True] * 10, [False] * 5 + [True] * 5, seed=3)
    assert diff == 50.0 and lo < 50.0 < hi <= 100.0
    assert paired_bootstrap([True] * 10, [False] * 5 + [True] * 5, seed=3) == (diff, lo, hi)
    with pytest.raises(ValueError):
        paired_bootstrap([True], [True, False])


def test_end_state_column_runs_generated_executors():
    from toolform.generator import generated_tasks

    tasks = [t for t in generated_tasks(0) if t.gold][:6]
    assert all(t.toolset.executors for t in tasks)

    class GoldThenWrong(ScriptedClient):
        """The gold call for even turns, a call with a changed argument value for odd ones."""

        def __init__(self):
            self.answers = {}
            for i, task in enumerate(tasks):
                call = task.gold[0].first_call()
                if i % 2:
                    name, value = next(iter(call.arguments.items()))
                    changed = value + 1 if isinstance(value, int) and not isinstance(value, bool) \
                        else f"{value}-changed"
                    call = ToolCall(call.name, {**call.arguments, name: changed})
                self.answers[task.text] = call
            self.calls, self.lock = 0, threading.Lock()

        def complete(self, messages, **kw):
            call = self.answers[messages[-1]["content"]]
            text = get_protocol("json_object").protocol.write([call], tasks[0].toolset)
            return Completion(text=text, tool_calls=None, prompt_tokens=1, completion_tokens=1,
                              latency_s=0.0, model="scripted", finish_reason="stop")

    frame = run_cells([Cell("json_minimal")], tasks, GoldThenWrong(), progress=False)
    assert frame["correct_end_state"].tolist()[0::2] == [True] * 3
    assert frame["correct_end_state"].tolist() == frame["correct_main"].tolist()
    plain = run_cells([Cell("json_minimal")], make_requests(1), ScriptedClient(make_requests(1)),
                      progress=False)
    assert plain["correct_end_state"].isna().all()


def test_a_request_system_message_goes_ahead_of_the_tool_prompt():
    seen = []

    class Recording(ScriptedClient):
        def complete(self, messages, **kw):
            seen.append(messages)
            return super().complete(messages, **kw)

    request = dataclasses.replace(make_requests(1)[0], system="You are a travel agent.")
    run_cells([Cell("json_schema_openai")], [request], Recording([request]), progress=False)
    system = seen[0][0]["content"]
    assert system.startswith("You are a travel agent.\n\nYou have access to the following tools.")
    assert seen[0][1] == {"role": "user", "content": "request 0"}


# stale verdicts: a resumed run re-grades, never re-asks ------------------------------------------
def _old_run():
    """The toolset, requests, cells and gold-writing client of ``fixtures/runs``."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent / "fixtures" / "runs" / "make_old_checkpoint.py"
    spec = importlib.util.spec_from_file_location("make_old_checkpoint", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path.with_name("old_checkpoint.jsonl")


class NeverAsked:
    model = "gold-writer"

    def complete(self, messages, **kw):
        raise AssertionError("a resumed run asked the model again")


VERDICT_COLUMNS = ["calls", "n_calls", "parsed_strict", "parsed_lenient", "format_compliant",
                   "issues", "correct_main", "correct_symmetric", "correct_as_written",
                   "correct_possible_answers", "tool_correct", "schema_valid", "schema_issue",
                   "reason", "grading_version"]


def _verdicts(frame):
    return frame[["cell", "request_id", *VERDICT_COLUMNS]].to_dict("records")


def test_a_checkpoint_of_older_code_is_regraded_without_asking_the_model(tmp_path):
    from toolform.errors import StaleVerdictWarning
    from toolform.grading import grading_version

    old, fixture = _old_run()
    checkpoint = tmp_path / "turns.jsonl"
    checkpoint.write_bytes(fixture.read_bytes())
    before = {(r["cell"], r["request_id"]): r for r in read_checkpoint(checkpoint)}
    # the old code's verdicts: every call to find_notes (a [] default) was "schema-invalid"
    assert [k for k, r in before.items() if r["schema_valid"] is False] == [
        (c, r) for c in ("json_schema_openai/json_object", "xml_schema/xml_call",
                         "json_schema_openai/native") for r in ("n0", "n1")]
    assert all("grading_version" not in r and "reply_tool_calls" not in r
               for r in before.values())
    with pytest.warns(StaleVerdictWarning, match="3 native-protocol turns"):
        resumed = run_cells(old.CELLS, old.REQUESTS, NeverAsked(), checkpoint=checkpoint,
                            progress=False)
    fresh = run_cells(old.CELLS, old.REQUESTS, old.GoldClient(), progress=False)
    text = resumed["protocol_id"] != "native"
    assert _verdicts(resumed[text]) == _verdicts(fresh[text])
    assert resumed.loc[text, "schema_valid"].all()
    assert (resumed.loc[text, "grading_version"] == grading_version()).all()
    # the old native rows lack the server's tool calls: kept as they were, and still marked old
    native = resumed[~text]
    assert native["grading_version"].isna().all()
    assert native["schema_valid"].tolist() == [False, False, True]
    assert len(checkpoint.read_text().splitlines()) == 9 + 6  # the re-graded rows appended
    assert {(r["cell"], r["request_id"]): r.get("grading_version")
            for r in read_checkpoint(checkpoint)} == {
        k: (None if k[0].endswith("native") else grading_version()) for k in before}


def test_verdicts_of_the_running_code_are_kept_and_stale_ones_regraded(tmp_path):
    old, _ = _old_run()
    checkpoint = tmp_path / "turns.jsonl"
    fresh = run_cells(old.CELLS, old.REQUESTS, old.GoldClient(), checkpoint=checkpoint,
                      progress=False)
    assert fresh["correct_main"].all() and fresh["schema_valid"].all()
    rows = read_checkpoint(checkpoint)

    def rewrite(changes):
        checkpoint.write_text("".join(json.dumps({**r, **changes}) + "\n" for r in rows))

    # same stamp: the stored verdicts stand (a planted wrong one included), nothing is asked
    rewrite({"correct_main": False})
    kept = run_cells(old.CELLS, old.REQUESTS, NeverAsked(), checkpoint=checkpoint,
                     progress=False)
    assert not kept["correct_main"].any()
    # another stamp: every turn is graded again from its stored reply, native ones included
    rewrite({"correct_main": False, "grading_version": "older-code"})
    regraded = run_cells(old.CELLS, old.REQUESTS, NeverAsked(), checkpoint=checkpoint,
                         progress=False)
    assert _verdicts(regraded) == _verdicts(fresh)


def test_changed_gold_calls_regrade_the_stored_reply(tmp_path):
    old, _ = _old_run()
    checkpoint = tmp_path / "turns.jsonl"
    run_cells(old.CELLS[:1], old.REQUESTS, old.GoldClient(), checkpoint=checkpoint,
              progress=False)
    moved = [dataclasses.replace(r, gold=(GoldCall("get_time", {"zone": ("Asia/Tokyo",)}),))
             if r.id == "t0" else r for r in old.REQUESTS]
    again = run_cells(old.CELLS[:1], moved, NeverAsked(), checkpoint=checkpoint,
                      progress=False)
    assert again["correct_main"].tolist() == [True, True, False]
    assert again.loc[2, "reason"] == "wrong value for zone: 'Europe/Oslo' not in ['Asia/Tokyo']"
    assert again.loc[2, "gold"] == [{"name": "get_time", "accepted": {"zone": ["Asia/Tokyo"]}}]


def test_grading_version_follows_the_verdict_code(tmp_path, monkeypatch):
    import toolform.grading._version as grading  # where grading_version reads VERDICT_MODULES

    module = tmp_path / "verdict_code_probe.py"
    module.write_text("RULE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(grading, "VERDICT_MODULES", (*grading.VERDICT_MODULES,
                                                     "verdict_code_probe"))
    first = grading.grading_version.__wrapped__()
    assert first == grading.grading_version.__wrapped__()
    module.write_text("RULE = 2\n")
    assert grading.grading_version.__wrapped__() != first
    module.write_text("RULE = 1\r\n")  # a checkout's line endings are not a change of code
    assert grading.grading_version.__wrapped__() == first
    assert len(first) == 16 and int(first, 16) >= 0


def test_a_failed_turn_has_unknown_schema_validity():
    requests = make_requests(1)
    frame = run_cells([Cell("json_schema_openai")], requests,
                      ScriptedClient(requests, failing={"r0"}), progress=False)
    assert frame["error"].notna().all() and frame["schema_valid"].isna().all()
