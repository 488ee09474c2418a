"""Runs as plans: executors (local, Ray, batch) against stub servers on 127.0.0.1, the cost
ledger, torn checkpoint and cassette lines, and a real run killed with ``kill -9`` and resumed."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import toolform.plan as plan_module
from toolform.experiments import summarize_cells
from toolform.clients import Completion, OpenAICompatClient, ReplayClient
from toolform.cost import cost_of, get_price
from toolform.errors import MissingDependencyError
from toolform.executors import (BatchExecutor, RayExecutor, import_batch_output,
                                write_batch_input)
from toolform.ir import GoldCall, ParamIR, Request, ToolCall, ToolIR, Toolset, TypeIR
from toolform.journal import JournalWriter, torn_side_file
from toolform.plan import plan_run
from toolform.runs import Cell, read_checkpoint, run_cells

TOOLS = Toolset((
    ToolIR("get_weather", "Current weather for a city.",
           params=(ParamIR("city", TypeIR("string"), "City name."),)),
    ToolIR("get_time", "Local time in a time zone.",
           params=(ParamIR("zone", TypeIR("string"), "IANA zone."),)),
))
CELLS = [Cell("json_schema_openai"), Cell("yaml_schema"), Cell("xml_schema")]
#: columns that depend on the reply and the code, not on how the reply was fetched
VERDICT_COLUMNS = ["cell", "model", "request_id", "reply", "calls", "parsed_strict",
                   "correct_main", "correct_symmetric", "correct_as_written",
                   "correct_possible_answers", "prompt_tokens", "completion_tokens", "cost_usd"]


def make_requests(k: int) -> list[Request]:
    return [Request(id=f"r{i}", text=f"Weather in City{i}?", toolset=TOOLS, category="test",
                    gold=(GoldCall.from_call(ToolCall("get_weather", {"city": f"City{i}"})),))
            for i in range(k)]


def chat_reply(body: dict) -> dict:
    """A stub model: the gold call as a JSON object for even requests, prose for odd ones;
    usage counted from the request."""
    text = body["messages"][-1]["content"]
    number = int(text.split("City")[1].rstrip("?"))
    content = (json.dumps({"name": "get_weather", "arguments": {"city": f"City{number}"}})
               if number % 2 == 0 else "I am not sure.")
    return {"id": "stub", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": len(json.dumps(body["messages"])) // 4,
                      "completion_tokens": len(content) // 4, "total_tokens": 0}}


class StubChatServer:
    """``/v1/chat/completions`` on 127.0.0.1 in a thread; counts the requests it answers."""

    def __init__(self, delay_s: float = 0.0) -> None:
        self.count = 0
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if delay_s:
                    time.sleep(delay_s)
                data = json.dumps(chat_reply(body)).encode()
                stub.count += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def servers():
    made = [StubChatServer(), StubChatServer()]
    yield made
    for server in made:
        server.stop()


def verdicts(frame):
    return frame[VERDICT_COLUMNS].to_dict("records")


def test_a_plan_keys_each_turn_as_the_cassette_does_and_renders_once(monkeypatch):
    renders = []
    real = plan_module.render
    monkeypatch.setattr(plan_module, "render", lambda *a, **k: renders.append(a[1:]) or real(*a, **k))
    requests = make_requests(5)
    plan = plan_run(CELLS, requests, model="m", max_tokens=64)
    assert len(plan) == 15 and len(renders) == 3  # once per (toolset, format, protocol)
    replay = ReplayClient("unused.jsonl", mode="replay", model="m")
    for turn in plan:
        assert turn.key == replay.key(turn.messages, max_tokens=64, temperature=0.0,
                                      tools=turn.tools)
    # every request of a cell starts with the same system message: a cacheable prefix
    assert len({t.messages[0]["content"] for t in plan if t.cell.format_id == "yaml_schema"}) == 1
    frame = plan.frame()
    assert frame["key"].is_unique and frame["render_error"].isna().all()


def test_local_batch_and_replay_give_the_same_verdict_rows(servers, tmp_path):
    requests = make_requests(6)
    live = OpenAICompatClient(servers[0].base_url, "stub-model")
    local = run_cells(CELLS, requests, live, progress=False, cassette=tmp_path / "live.jsonl")
    # the batch round trip: the plan as a batch input file, a stub batch processor that posts
    # each line's body to a stub server (as `vllm run-batch` does), its output as replies
    plan = plan_run(CELLS, requests, model="stub-model", max_tokens=256)
    assert write_batch_input(plan, tmp_path / "in.jsonl") == 18
    run_stub_batch(tmp_path / "in.jsonl", tmp_path / "out.jsonl", servers[1].base_url)
    batch = run_cells(CELLS, requests, "stub-model", progress=False,
                      executor=BatchExecutor(tmp_path / "out.jsonl"))
    assert verdicts(batch) == verdicts(local)
    assert batch["latency_s"].isna().all()
    # imported as a cassette, and the cassette the live run streamed: both replay offline
    assert import_batch_output(tmp_path / "out.jsonl", plan, tmp_path / "batch.jsonl") == 18
    for cassette in ("batch.jsonl", "live.jsonl"):
        replayed = run_cells(CELLS, requests, ReplayClient(tmp_path / cassette, mode="replay",
                                                           model="stub-model"), progress=False)
        assert verdicts(replayed) == verdicts(local)
    # the even requests in the two cells that ask for a JSON object (xml_schema asks for XML)
    assert local.groupby("cell")["correct_main"].sum().to_dict() == {
        "json_schema_openai/json_object": 3, "xml_schema/xml_call": 0,
        "yaml_schema/json_object": 3}


def run_stub_batch(source: Path, output: Path, base_url: str) -> None:
    """A stub batch processor: each input line's body posted to the server, one output line."""
    with open(source) as lines, open(output, "w") as out:
        for number, line in enumerate(lines):
            item = json.loads(line)
            assert item["method"] == "POST" and item["url"] == "/v1/chat/completions"
            post = urllib.request.Request(base_url.removesuffix("/v1") + item["url"],
                                          data=json.dumps(item["body"]).encode(),
                                          headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(post) as reply:
                body = json.loads(reply.read())
            out.write(json.dumps({"id": f"batch_req_{number}", "custom_id": item["custom_id"],
                                  "response": {"status_code": 200, "request_id": str(number),
                                               "body": body}, "error": None}) + "\n")


def test_a_missing_or_failed_batch_reply_is_an_error_row(tmp_path):
    requests = make_requests(2)
    plan = plan_run([Cell("json_schema_openai")], requests, model="m")
    out = tmp_path / "out.jsonl"
    out.write_text(json.dumps({"custom_id": plan[0].key, "response": {"status_code": 429,
                   "body": {"error": "rate"}}, "error": None}) + "\n")
    frame = run_cells([Cell("json_schema_openai")], requests, "m", progress=False,
                      executor=BatchExecutor(out))
    assert frame["error"].str.startswith("BatchError: HTTP 429")[0]
    assert "no reply for key" in frame["error"][1] and str(out) in frame["error"][1]


def test_a_sweep_over_two_models(servers):
    requests = make_requests(4)
    clients = {"model-a": OpenAICompatClient(servers[0].base_url, "model-a"),
               "model-b": OpenAICompatClient(servers[1].base_url, "model-b")}
    cells = [Cell("json_schema_openai", model=m) for m in clients]
    frame = run_cells(cells, requests, clients, progress=False)
    assert frame.groupby("model")["correct_main"].sum().to_dict() == {"model-a": 2, "model-b": 2}
    assert servers[0].count == servers[1].count == 4
    with pytest.raises(ValueError, match="no client for model"):
        run_cells([Cell("json_schema_openai", model="model-c")], requests, clients,
                  progress=False)


def test_the_cost_ledger_uses_server_usage_or_a_labelled_estimate():
    requests = make_requests(4)

    class NoUsage:
        model = "quiet"

        def complete(self, messages, **kw):
            body = chat_reply({"model": self.model, "messages": messages})
            return Completion(body["choices"][0]["message"]["content"], None, None, None, 0.01,
                              self.model, "stop")

    class WithUsage(NoUsage):
        def complete(self, messages, **kw):
            return Completion("I am not sure.", None, 500, 20, 0.01, self.model, "stop")

    estimated = run_cells([Cell("json_schema_openai")], requests, NoUsage(), progress=False)
    assert estimated["tokens_estimated"].all()
    system, user = plan_run([Cell("json_schema_openai")], requests[:1], model="quiet")[0].messages
    assert estimated["prompt_tokens"][0] == math.ceil(len(system["content"] + user["content"]) / 4)
    counted = run_cells([Cell("json_schema_openai")], requests, WithUsage(), progress=False,
                        price="self_hosted")
    assert not counted["tokens_estimated"].any() and (counted["price"] == "self_hosted").all()
    assert counted["cost_usd"][0] == pytest.approx(cost_of(500, 20, price="self_hosted"))
    frontier = run_cells([Cell("json_schema_openai")], requests, WithUsage(), progress=False)
    cached = frontier["schema_tokens"][0]  # frontier_api prices the tool block as cached
    assert frontier["cost_usd"][0] == pytest.approx(cost_of(500, 20, cached_tokens=cached))
    cells = summarize_cells(estimated, n_boot=50)
    main = cells[cells["rule"] == "main"].iloc[0]
    assert main["correct"] == 2
    assert main["cost_usd"] == pytest.approx(estimated["cost_usd"].sum())
    assert main["cost_usd_per_correct"] == pytest.approx(estimated["cost_usd"].sum() / 2)
    assert main["tokens_per_correct"] == pytest.approx(
        (estimated["prompt_tokens"] + estimated["completion_tokens"]).sum() / 2)
    assert get_price("frontier_api").schema_cached


def test_a_torn_checkpoint_line_is_set_aside_and_its_turn_run_again(tmp_path):
    requests = make_requests(4)
    checkpoint = tmp_path / "turns.jsonl"

    class Counting:
        model = "m"
        asked: list[str] = []

        def complete(self, messages, **kw):
            self.asked.append(messages[-1]["content"])
            return Completion("I am not sure.", None, 10, 2, 0.01, self.model, "stop")

    run_cells([Cell("python_stub")], requests, Counting(), checkpoint=checkpoint,
              progress=False)
    lines = checkpoint.read_bytes().splitlines(keepends=True)
    torn = lines[-1][:40]  # the last turn's record, cut short mid-write
    checkpoint.write_bytes(b"".join(lines[:-1]) + torn)
    Counting.asked.clear()
    with pytest.warns(RuntimeWarning, match="torn"):
        frame = run_cells([Cell("python_stub")], requests, Counting(), checkpoint=checkpoint,
                          progress=False)
    assert Counting.asked == [json.loads(lines[-1])["request_id"].replace("r", "Weather in City")
                              + "?"]
    assert torn_side_file(checkpoint).read_bytes() == torn + b"\n"
    keys = [json.loads(line)["request_id"] for line in checkpoint.read_bytes().splitlines()]
    assert sorted(keys) == ["r0", "r1", "r2", "r3"] and len(frame) == 4


def test_a_middle_line_that_is_not_a_row_names_the_file_and_line(tmp_path):
    from toolform.errors import DatasetError

    path = tmp_path / "c.jsonl"
    path.write_text('{"model": "m", "cell"\n{"model": "m", "cell": "a/b", "request_id": "r"}\n')
    with pytest.raises(DatasetError, match=r"c\.jsonl, line 1"):
        read_checkpoint(path)


def test_a_torn_cassette_line_is_kept_in_a_side_file(tmp_path):
    cassette = tmp_path / "c.jsonl"

    class Inner:
        model = "m"

        def complete(self, messages, **kw):
            return Completion("hi", None, 1, 1, 0.0, "m", "stop")

        def describe(self):
            return {"model": "m"}

    recorder = ReplayClient(cassette, Inner())
    recorder.complete([{"role": "user", "content": "one"}])
    good = cassette.read_bytes()
    cassette.write_bytes(good + good[:30])
    with pytest.warns(RuntimeWarning):
        again = ReplayClient(cassette, Inner())
    with pytest.warns(RuntimeWarning, match="kept in"):
        again.complete([{"role": "user", "content": "two"}])
    assert torn_side_file(cassette).read_bytes() == good[:30] + b"\n"
    assert len(cassette.read_bytes().splitlines()) == 2


def test_a_cassette_fsyncs_by_policy_not_per_recording(tmp_path, monkeypatch):
    from toolform.clients import StubClient

    synced = []
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd))
    started = time.monotonic()
    with ReplayClient(tmp_path / "c.jsonl", StubClient("hi"), mode="record") as recorder:
        for i in range(40):
            recorder.complete([{"role": "user", "content": f"ask {i}"}])
        during = len(synced)
        elapsed = time.monotonic() - started
        assert during <= elapsed / 1.0 + 1  # by the second, not per recording (40)
        assert len((tmp_path / "c.jsonl").read_bytes().splitlines()) == 40  # all flushed
    assert len(synced) == during + 1  # and on close


CASSETTE_CHILD = textwrap.dedent("""
    import sys
    from toolform.clients import ReplayClient, StubClient
    recorder = ReplayClient(sys.argv[1], StubClient(lambda m, t: "reply to " + m[-1]["content"]),
                            mode="auto")
    for i in range(100000):
        recorder.complete([{"role": "user", "content": f"ask {i}"}])
        print(i, flush=True)
""")


def test_kill_minus_9_while_recording_loses_no_recording(tmp_path):
    from toolform.clients import StubClient

    cassette = tmp_path / "tape.jsonl"
    script = tmp_path / "child.py"
    script.write_text(CASSETTE_CHILD)
    child = subprocess.Popen([sys.executable, str(script), str(cassette)],
                             stdout=subprocess.PIPE, text=True)
    done = []
    for line in child.stdout:  # every recording whose complete() returned
        done.append(int(line))
        if len(done) == 150:
            break
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()
    offline = ReplayClient(cassette, mode="replay", model="stub-model")
    assert all(offline.key([{"role": "user", "content": f"ask {i}"}]) in offline for i in done)
    # the child may have recorded a few more before the kill landed
    data = cassette.read_bytes()
    recorded = [int(json.loads(line)["request"]["messages"][-1]["content"].split()[1])
                for line in data.splitlines()]
    assert set(done) <= set(recorded) and len(recorded) == len(set(recorded))
    # a power loss mid-write: the last recording torn; it is set aside and asked again
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    cassette.write_bytes(data[:last] + data[last:last + 25])
    with pytest.warns(RuntimeWarning, match="truncated last line"):
        resumed = ReplayClient(cassette, StubClient(lambda m, t: "reply to " + m[-1]["content"]))
    asked = [i for i in recorded
             if resumed.key([{"role": "user", "content": f"ask {i}"}]) not in resumed]
    assert asked == recorded[-1:]  # only the torn one
    with pytest.warns(RuntimeWarning, match="kept in"), resumed:
        for i in recorded:
            assert resumed.complete([{"role": "user", "content": f"ask {i}"}]).text == \
                f"reply to ask {i}"
    assert torn_side_file(cassette).read_bytes() == data[last:last + 25] + b"\n"
    again = ReplayClient(cassette, mode="replay", model="stub-model")
    assert all(again.key([{"role": "user", "content": f"ask {i}"}]) in again for i in recorded)
    assert len(cassette.read_bytes().splitlines()) == len(recorded)  # none twice


def test_the_journal_fsyncs_by_policy_not_per_record(tmp_path, monkeypatch):
    synced = []
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd))
    with JournalWriter(tmp_path / "j.jsonl", fsync_every=10, fsync_interval_s=3600) as journal:
        for i in range(25):
            journal.append({"i": i, "text": "\ud800 lone surrogate"})
        assert len(synced) == 2  # after 10 and 20 records
    assert len(synced) == 3  # and on close
    rows = [json.loads(line) for line in (tmp_path / "j.jsonl").read_bytes().splitlines()]
    assert [r["i"] for r in rows] == list(range(25)) and rows[0]["text"][0] == "\ud800"


def test_without_ray_the_ray_executor_names_the_install_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    executor = RayExecutor({"m": ["http://127.0.0.1:9/v1"]})
    with pytest.raises(MissingDependencyError, match=r'pip install "toolform\[ray\]"'):
        run_cells([Cell("json_schema_openai")], make_requests(1), "m", progress=False,
                  executor=executor)


#: Seconds a local Ray head may take to start before the Ray test is skipped.
RAY_START_S = 90.0


def _free_ports(n: int) -> list[int]:
    sockets = [socket.socket() for _ in range(n)]
    for sock in sockets:
        sock.bind(("127.0.0.1", 0))
    ports = [sock.getsockname()[1] for sock in sockets]
    for sock in sockets:
        sock.close()
    return ports


@pytest.fixture
def ray_cluster(tmp_path_factory):
    """A Ray cluster to run on: the one at ``RAY_ADDRESS``, else a two-CPU head of our own.

    Our own head is ``ray start --head --block`` in a process group of its own, on free ports
    chosen here, the dashboard agent's included: with them left to Ray, the raylet waits a fixed
    15 s for the agent to report its port and a loaded machine fails ``ray.init``
    (ray-project/ray#65983). Its own temp dir and ports keep it apart from any other cluster on
    the machine; at the end the group is stopped (``ray stop`` would stop every cluster here).
    """
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'toolform[ray]')")
    if os.environ.get("RAY_ADDRESS"):  # a cluster already up (`ray start --head ...`)
        ray.init(address=os.environ["RAY_ADDRESS"], log_to_driver=False)
        yield ray
        ray.shutdown()
        return
    names = ("port", "node-manager-port", "object-manager-port",
             "metrics-export-port", "dashboard-agent-grpc-port", "dashboard-agent-listen-port",
             "runtime-env-agent-port")
    ports = dict(zip(names, _free_ports(len(names))))
    temp = tempfile.mkdtemp(prefix="tfray")  # short: Ray's socket paths must fit 107 bytes
    log = tmp_path_factory.mktemp("ray") / "ray-start.log"
    command = [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block",
               "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
               f"--temp-dir={temp}",
               *(f"--{name}={port}" for name, port in ports.items())]
    # a throwaway head on loopback ports: Ray 2.5x's token authentication is switched off for it
    # (a token written to ~/.ray by another cluster on the machine fails this driver's handshake)
    auth = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    with open(log, "wb") as out:
        head = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        deadline = time.monotonic() + RAY_START_S
        while b"Ray runtime started" not in log.read_bytes():
            if head.poll() is not None or time.monotonic() > deadline:
                tail = log.read_bytes().decode("utf-8", "replace").strip().splitlines()[-3:]
                pytest.skip(f"a local Ray head did not start within {RAY_START_S:.0f} s "
                            f"(exit {head.poll()}): {' | '.join(tail)}")
            time.sleep(0.2)
        ray.init(address=f"127.0.0.1:{ports['port']}", log_to_driver=False)
        yield ray
        ray.shutdown()
    finally:
        head.send_signal(signal.SIGTERM)  # --block stops the processes it started
        try:
            head.wait(30)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(head.pid, signal.SIGKILL)  # anything of that group still running
        except ProcessLookupError:
            pass
        shutil.rmtree(temp, ignore_errors=True)
        if auth is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = auth


def test_a_local_ray_cluster_over_two_endpoints_gives_the_local_rows(servers, ray_cluster,
                                                                      tmp_path):
    requests = make_requests(6)
    local = run_cells(CELLS, requests, OpenAICompatClient(servers[0].base_url, "stub-model"),
                      progress=False)
    before = [s.count for s in servers]
    executor = RayExecutor({"stub-model": [s.base_url for s in servers]}, per_endpoint=2)
    checkpoint = tmp_path / "turns.jsonl"
    remote = run_cells(CELLS, requests, "stub-model", progress=False, executor=executor,
                       checkpoint=checkpoint, cassette=tmp_path / "ray.jsonl")
    assert verdicts(remote) == verdicts(local)
    assert all(s.count - b > 0 for s, b in zip(servers, before))  # both endpoints served
    assert len(read_checkpoint(checkpoint)) == 18
    replayed = run_cells(CELLS, requests, ReplayClient(tmp_path / "ray.jsonl", mode="replay",
                                                       model="stub-model"), progress=False)
    assert verdicts(replayed) == verdicts(local)


CHILD = textwrap.dedent("""
    import sys
    from toolform.clients import OpenAICompatClient
    from toolform.ir import GoldCall, ParamIR, Request, ToolCall, ToolIR, Toolset, TypeIR
    from toolform.runs import Cell, run_cells
    tools = Toolset((ToolIR("get_weather", "Current weather for a city.",
                             params=(ParamIR("city", TypeIR("string"), "City name."),)),))
    requests = [Request(id=f"r{i}", text=f"Weather in City{i}?", toolset=tools,
                        gold=(GoldCall.from_call(ToolCall("get_weather", {"city": f"City{i}"})),))
                for i in range(int(sys.argv[3]))]
    client = OpenAICompatClient(sys.argv[1], "stub-model", max_concurrency=3)
    run_cells([Cell("json_schema_openai"), Cell("python_stub")], requests, client,
              checkpoint=sys.argv[2], max_concurrency=3, progress=False)
""")


def test_kill_minus_9_at_any_point_loses_and_duplicates_no_turn(tmp_path):
    server = StubChatServer(delay_s=0.01)
    checkpoint = tmp_path / "turns.jsonl"
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    n_requests, kills = 20, 0
    try:
        for round_ in range(3):
            child = subprocess.Popen([sys.executable, str(script), server.base_url,
                                      str(checkpoint), str(n_requests)])
            if round_ == 2:  # the last run finishes
                assert child.wait(120) == 0
                break
            start = _lines(checkpoint)
            deadline = time.monotonic() + 60
            while _lines(checkpoint) < start + 8 and child.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.01)
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            kills += 1
            if round_ == 0:  # a power loss: the last record torn mid-write
                data = checkpoint.read_bytes()
                last = data.rstrip(b"\n").rfind(b"\n") + 1
                checkpoint.write_bytes(data[:last] + data[last:last + 25])
    finally:
        server.stop()
    rows = [json.loads(line) for line in checkpoint.read_bytes().splitlines()]
    keys = [(r["cell"], r["request_id"]) for r in rows]
    assert kills == 2
    assert len(keys) == len(set(keys)) == 2 * n_requests  # 0 duplicated, 0 lost
    assert not any(r["error"] for r in rows)
    assert torn_side_file(checkpoint).stat().st_size > 0


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0
