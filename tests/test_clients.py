"""Model clients against a fake OpenAI-compatible server on 127.0.0.1 (no real model needed)."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import toolform.clients as clients
from toolform.clients import (ChatClient, Completion, OpenAICompatClient, ReplayClient,
                              request_key)
from toolform.errors import CassetteMissError, ClientError, DatasetError

MESSAGES = [{"role": "user", "content": "What is the weather in Oslo?"}]


class FakeServer:
    """A tiny ``/v1/chat/completions`` server that can be told to fail or stall."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.fail_status: int | None = None
        self.fail_times = 0
        self.sleep_s = 0.0
        self.in_flight = 0
        self.max_in_flight = 0
        self.tool_calls: list[dict] | None = None
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with fake._lock:
                    fake.requests.append(body)
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                    failing = fake.fail_times > 0
                    if failing:
                        fake.fail_times -= 1
                try:
                    if fake.sleep_s:
                        time.sleep(fake.sleep_s)
                    payload = ({"error": {"message": "told to fail"}} if failing
                               else fake.reply(body))
                finally:
                    # out of flight before the reply leaves: once it is sent, the client may send
                    # its next request before this thread runs again (a count of 3 under a bound of 2)
                    with fake._lock:
                        fake.in_flight -= 1
                self._send(fake.fail_status if failing else 200, payload)

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,),
                                        daemon=True)
        self._thread.start()

    def reply(self, body: dict) -> dict:
        last = body["messages"][-1]["content"]
        message: dict = {"role": "assistant", "content": f"echo: {last}"}
        if self.tool_calls:
            message = {"role": "assistant", "content": None, "tool_calls": self.tool_calls}
        return {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "message": message,
                             "finish_reason": "tool_calls" if self.tool_calls else "stop"}],
                "usage": {"prompt_tokens": 11 + len(last), "completion_tokens": 7,
                          "total_tokens": 18 + len(last)}}

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    fake = FakeServer()
    yield fake
    fake.stop()


def make_client(server: FakeServer, **kwargs) -> OpenAICompatClient:
    kwargs.setdefault("backoff", 0.01)
    kwargs.setdefault("timeout", 5.0)
    return OpenAICompatClient(server.base_url, "fake-model", **kwargs)


# -- Completion and the protocol ----------------------------------------------------------------
def test_completion_round_trip():
    c = Completion("hi", [{"id": "1", "type": "function",
                           "function": {"name": "f", "arguments": "{}"}}], 3, 4, 0.25, "m", "stop")
    assert Completion.from_dict(json.loads(json.dumps(c.to_dict()))) == c


def test_clients_satisfy_the_protocol(server, tmp_path):
    live = make_client(server)
    assert isinstance(live, ChatClient)
    assert isinstance(ReplayClient(tmp_path / "c.jsonl", live), ChatClient)


def test_all_is_sorted():
    assert clients.__all__ == sorted(clients.__all__)


# -- OpenAICompatClient --------------------------------------------------------------------------
def test_reply_text_tokens_and_sent_parameters(server):
    client = make_client(server, max_tokens=99, temperature=0.3)
    start = time.perf_counter()
    reply = client.complete(MESSAGES)
    elapsed = time.perf_counter() - start
    assert reply.text == "echo: What is the weather in Oslo?"
    assert reply.prompt_tokens == 11 + len(MESSAGES[0]["content"])
    assert reply.completion_tokens == 7
    assert reply.finish_reason == "stop"
    assert reply.model == "fake-model"
    assert 0 < reply.latency_s <= elapsed  # the client's own wall clock, not a speed target
    sent = server.requests[-1]
    assert (sent["model"], sent["max_tokens"], sent["temperature"]) == ("fake-model", 99, 0.3)
    client.complete(MESSAGES, max_tokens=5, temperature=0.0)
    assert (server.requests[-1]["max_tokens"], server.requests[-1]["temperature"]) == (5, 0.0)


def test_extra_body_reaches_the_server_and_merges(server):
    client = make_client(server, extra_body={"chat_template_kwargs": {"enable_thinking": False},
                                             "top_k": 1})
    client.complete(MESSAGES, extra_body={"top_k": 5})
    sent = server.requests[-1]
    assert sent["chat_template_kwargs"] == {"enable_thinking": False}
    assert sent["top_k"] == 5


def test_native_tool_calls_are_kept(server):
    server.tool_calls = [{"id": "call_1", "type": "function",
                          "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}]
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}}}}]
    reply = make_client(server).complete(MESSAGES, tools=tools)
    assert server.requests[-1]["tools"] == tools
    assert reply.text == ""
    assert reply.finish_reason == "tool_calls"
    assert reply.tool_calls == server.tool_calls


def test_the_body_is_the_one_the_sdks_typed_call_sends(server):
    """The client encodes the request itself (skipping the SDK's per-call walk of its types);
    the server must see the same JSON as from ``chat.completions.create``."""
    import openai

    messages = [{"role": "system", "content": "Tools: café, ü, 😀, \u0000 and \"quotes\""},
                {"role": "user", "content": "What is the weather in Oslo?"}]
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}}}}]
    make_client(server, enable_thinking=False, extra_body={"top_k": 1}).complete(
        messages, max_tokens=7, temperature=0.5, tools=tools, extra_body={"seed": 3})
    ours = server.requests[-1]
    sdk = openai.OpenAI(base_url=server.base_url, api_key="EMPTY", max_retries=0)
    sdk.chat.completions.create(model="fake-model", messages=messages, max_tokens=7,
                                temperature=0.5, tools=tools, extra_body={
                                    "top_k": 1, "seed": 3,
                                    "chat_template_kwargs": {"enable_thinking": False}})
    assert ours == server.requests[-1]
    assert ours["messages"][0]["content"] == messages[0]["content"]


@pytest.mark.parametrize("status", [429, 500, 503])
def test_transient_statuses_are_retried(server, status):
    server.fail_status, server.fail_times = status, 2
    reply = make_client(server, retries=4).complete(MESSAGES)
    assert reply.text.startswith("echo:")
    assert len(server.requests) == 3


def test_backoff_waits_grow(server):
    server.fail_status, server.fail_times = 500, 3
    start = time.perf_counter()
    make_client(server, retries=3, backoff=0.1).complete(MESSAGES)
    # waits are 0.1 * (1 + 2 + 4) s, each shortened by at most 25 % jitter: at least 0.525 s
    assert 0.35 <= time.perf_counter() - start  # the backoff really waited


def test_last_retry_raises_client_error_with_status(server):
    server.fail_status, server.fail_times = 503, 100
    with pytest.raises(ClientError) as caught:
        make_client(server, retries=2).complete(MESSAGES)
    assert caught.value.status == 503
    assert "3 attempt(s)" in str(caught.value)
    assert len(server.requests) == 3


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_other_4xx_fail_at_once(server, status):
    server.fail_status, server.fail_times = status, 100
    with pytest.raises(ClientError) as caught:
        make_client(server, retries=4).complete(MESSAGES)
    assert caught.value.status == status
    assert len(server.requests) == 1


def test_timeouts_are_retried_then_raise(server):
    server.sleep_s = 0.6
    with pytest.raises(ClientError) as caught:
        make_client(server, retries=1, timeout=0.2).complete(MESSAGES)
    assert caught.value.status is None
    assert "Timeout" in str(caught.value)
    assert len(server.requests) == 2


def test_connection_errors_are_retried_then_raise():
    fake = FakeServer()
    url = fake.base_url
    fake.stop()
    client = OpenAICompatClient(url, "m", backoff=0.01, retries=2, timeout=2.0)
    with pytest.raises(ClientError) as caught:
        client.complete(MESSAGES)
    assert caught.value.status is None
    assert "3 attempt(s)" in str(caught.value)


def test_concurrency_bound_is_honoured(server):
    server.sleep_s = 0.15
    client = make_client(server, max_concurrency=2)
    with ThreadPoolExecutor(max_workers=6) as pool:
        replies = list(pool.map(lambda i: client.complete(
            [{"role": "user", "content": str(i)}]), range(6)))
    assert [r.text for r in replies] == [f"echo: {i}" for i in range(6)]
    assert server.max_in_flight == 2


def test_describe_names_model_and_server(server):
    info = make_client(server).describe()
    assert info["model"] == "fake-model"
    assert info["base_url"] == server.base_url
    assert info["client"] == "OpenAICompatClient"


def test_bad_settings_raise():
    with pytest.raises(ValueError, match="max_concurrency"):
        OpenAICompatClient("http://127.0.0.1:9/v1", "m", max_concurrency=0)
    with pytest.raises(ValueError, match="retries"):
        OpenAICompatClient("http://127.0.0.1:9/v1", "m", retries=-1)


# -- request keys --------------------------------------------------------------------------------
def test_key_is_stable_and_order_free():
    a = request_key("m", [{"role": "user", "content": "hi"}], max_tokens=10,
                    extra_body={"a": 1, "b": 2})
    b = request_key("m", [{"content": "hi", "role": "user"}], max_tokens=10,
                    extra_body={"b": 2, "a": 1})
    assert a == b
    assert len(a) == 64 and int(a, 16) >= 0


@pytest.mark.parametrize("change", [
    {"model": "other"},
    {"max_tokens": 11},
    {"temperature": 0.5},
    {"tools": [{"type": "function", "function": {"name": "f"}}]},
    {"extra_body": {"a": 2}},
    {"messages": [{"role": "user", "content": "hi!"}]},
])
def test_any_change_changes_the_key(change):
    base = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 10,
            "temperature": 0.0, "tools": None, "extra_body": {"a": 1}}
    changed = {**base, **change}
    assert request_key(base.pop("model"), base.pop("messages"), **base) != \
        request_key(changed.pop("model"), changed.pop("messages"), **changed)


def test_key_matches_the_documented_recipe():
    import hashlib

    canonical = json.dumps({"model": "m", "messages": MESSAGES,
                            "params": {"max_tokens": 5, "temperature": None, "tools": None,
                                       "extra_body": None}},
                           sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert request_key("m", MESSAGES, max_tokens=5) == \
        hashlib.sha256(canonical.encode()).hexdigest()


# -- ReplayClient --------------------------------------------------------------------------------
def test_record_then_replay_with_the_server_gone(tmp_path):
    fake = FakeServer()
    cassette = tmp_path / "replies.jsonl"
    recorder = ReplayClient(cassette, make_client(fake))
    first = recorder.complete(MESSAGES, max_tokens=20)
    again = recorder.complete(MESSAGES, max_tokens=20)
    assert again == first and len(fake.requests) == 1  # auto mode replays what it recorded
    fake.stop()

    lines = [json.loads(line) for line in cassette.read_text().splitlines()]
    assert len(lines) == 1
    assert set(lines[0]) == {"key", "request", "response", "recorded_at"}
    assert lines[0]["request"]["params"]["max_tokens"] == 20
    assert lines[0]["key"] == request_key("fake-model", MESSAGES, max_tokens=20)

    offline = ReplayClient(cassette, mode="replay", model="fake-model")
    assert offline.complete(MESSAGES, max_tokens=20) == first
    assert offline.describe()["recordings"] == 1


def test_miss_names_key_and_cassette(tmp_path):
    cassette = tmp_path / "empty.jsonl"
    client = ReplayClient(cassette, mode="replay", model="m")
    with pytest.raises(CassetteMissError) as caught:
        client.complete(MESSAGES)
    key = request_key("m", MESSAGES)
    assert caught.value.key == key
    assert key in str(caught.value) and str(cassette) in str(caught.value)
    assert isinstance(caught.value, KeyError) and isinstance(caught.value, ClientError)


def test_record_mode_always_asks_and_latest_wins(server, tmp_path):
    cassette = tmp_path / "c.jsonl"
    recorder = ReplayClient(cassette, make_client(server), mode="record")
    recorder.complete(MESSAGES)
    server.tool_calls = [{"id": "c", "type": "function",
                          "function": {"name": "g", "arguments": "{}"}}]
    newest = recorder.complete(MESSAGES)
    assert len(server.requests) == 2
    assert len(cassette.read_text().splitlines()) == 2
    assert ReplayClient(cassette, mode="replay", model="fake-model").complete(MESSAGES) == newest


def test_truncated_last_line_is_skipped_then_dropped(server, tmp_path):
    cassette = tmp_path / "c.jsonl"
    recorder = ReplayClient(cassette, make_client(server))
    recorder.complete(MESSAGES)
    good = cassette.read_text()
    cassette.write_text(good + good[: len(good) // 2])  # a crash mid-write
    with pytest.warns(RuntimeWarning, match="truncated last line 2"):
        reread = ReplayClient(cassette, make_client(server))
    assert len(reread) == 1
    with pytest.warns(RuntimeWarning, match="dropping"):
        reread.complete([{"role": "user", "content": "another"}])
    lines = cassette.read_text().splitlines()
    assert len(lines) == 2 and all(json.loads(line)["key"] for line in lines)


def test_malformed_middle_line_names_file_and_line(tmp_path):
    cassette = tmp_path / "c.jsonl"
    cassette.write_text('{"key": "a"\n{"also": "bad"}\n')
    with pytest.raises(DatasetError, match=r"c\.jsonl, line 1"):
        ReplayClient(cassette, mode="replay", model="m")


def test_folder_cassette_reads_all_and_appends_to_recorded(server, tmp_path):
    folder = tmp_path / "cassettes"
    ReplayClient(folder / "session1.jsonl", make_client(server)).complete(MESSAGES)
    other = [{"role": "user", "content": "second"}]
    combined = ReplayClient(folder, make_client(server))
    assert len(combined) == 1
    combined.complete(other)
    assert (folder / "recorded.jsonl").is_file()
    offline = ReplayClient(folder, mode="replay", model="fake-model")
    assert offline.complete(other).text == "echo: second"
    assert offline.complete(MESSAGES).text.startswith("echo: What")


def test_concurrent_recording_keeps_every_line(server, tmp_path):
    cassette = tmp_path / "c.jsonl"
    recorder = ReplayClient(cassette, make_client(server, max_concurrency=4))
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda i: recorder.complete([{"role": "user", "content": str(i)}]),
                      range(24)))
    keys = [json.loads(line)["key"] for line in cassette.read_text().splitlines()]
    assert len(keys) == len(set(keys)) == 24


def test_replay_client_argument_checks(server, tmp_path):
    with pytest.raises(ValueError, match="mode"):
        ReplayClient(tmp_path / "c.jsonl", mode="live", model="m")
    with pytest.raises(ValueError, match="inner"):
        ReplayClient(tmp_path / "c.jsonl", mode="auto", model="m")
    with pytest.raises(ValueError, match="model"):
        ReplayClient(tmp_path / "c.jsonl", mode="replay")
    with pytest.raises(ValueError, match="differs"):
        ReplayClient(tmp_path / "c.jsonl", make_client(server), model="other")


def test_sdk_reexports():
    import toolform.sdk as sdk

    assert sdk.OpenAICompatClient is OpenAICompatClient
    assert sdk.ReplayClient is ReplayClient
    assert sdk.Completion is Completion
    assert sdk.__all__ == sorted(sdk.__all__)
