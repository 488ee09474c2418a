"""Issue 18, points 4 and 5: any text a server sends is kept and graded, and failures are
retried by a stated policy, against a real HTTP stub server on 127.0.0.1."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pandas as pd
import pytest

from toolform import _jsontext as jsontext
from toolform.clients import (OpenAICompatClient, ReplayClient, RetryPolicy, StubReply,
                              StubServer, cassette_client, read_json_body)
from toolform.clients._policy import MalformedReply, retry_after_s
from toolform.errors import ClientError, ModelServerError
from toolform.ir import GoldCall, ParamIR, Request, ToolCall, ToolIR, Toolset, TypeIR
from toolform.csvtext import read_csv
from toolform.runs import TURN_COLUMNS, Cell, read_checkpoint, run_cells

MESSAGES = [{"role": "user", "content": "hi"}]
FAST = RetryPolicy(retries=3, timeout_s=5.0, backoff_s=0.01, max_backoff_s=0.05)

# what servers have sent: a lone surrogate (as a JSON escape), NUL, a private-use and an astral
# character, a right-to-left override
NASTY = ["lone \ud800 high", "lone \udfff low", "nul \x00 byte", "\U0010ffff\U0001f600",
         "\u202eevil", ""]


@pytest.fixture
def server():
    with StubServer() as stub:
        yield stub


def client(server: StubServer, **kwargs) -> OpenAICompatClient:
    kwargs.setdefault("retry_policy", FAST)
    return OpenAICompatClient(server.base_url, server.model, **kwargs)


# -- point 4: lossless text ---------------------------------------------------------------------
@pytest.mark.parametrize("text", NASTY)
def test_any_text_arrives_as_sent(server, text):
    server.responder = text
    assert client(server).complete(MESSAGES).text == text


def test_invalid_utf8_is_kept_as_surrogate_escapes(server):
    body = (b'{"choices": [{"message": {"role": "assistant", "content": "caf\xe9 \xff\xfe"}, '
            b'"finish_reason": "stop"}]}')
    server.script(StubReply(200, body))
    reply = client(server).complete(MESSAGES)
    assert reply.text == "caf\udce9 \udcff\udcfe"
    assert reply.text.encode("utf-8", "surrogateescape") == b"caf\xe9 \xff\xfe"  # the bytes back


def test_a_ten_megabyte_reply_arrives_whole(server):
    server.responder = "x" * 10_000_000
    reply = client(server).complete(MESSAGES)
    assert len(reply.text) == 10_000_000


@pytest.mark.parametrize("value", [NASTY, {"k\ud800": ["\udcff", "\x00"]}, "a\udc80b"])
def test_jsontext_is_valid_utf8_and_reads_back(value):
    text = jsontext.dumps(value)
    text.encode("utf-8")  # no UnicodeEncodeError
    assert json.loads(text) == value
    line = jsontext.dumps_line(value)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == value


def test_jsontext_leaves_ordinary_text_as_json_dumps_does():
    value = {"b": "café ☃ \U0001f600", "a": [1, 2.5, None]}
    assert jsontext.dumps(value, sort_keys=True) == json.dumps(value, sort_keys=True,
                                                               ensure_ascii=False)


def _gold_run(tmp_path, server, city):
    tool = ToolIR("get_weather", "Weather.", params=(ParamIR("city", TypeIR("string"), "City."),))
    request = Request(id="r0", text="weather?", toolset=Toolset((tool,)),
                      gold=(GoldCall.from_call(ToolCall("get_weather", {"city": city})),))
    arguments = jsontext.dumps({"city": city})
    server.responder = {"content": "nul \x00 and \ud800", "tool_calls": [
        {"id": "c1", "type": "function",
         "function": {"name": "get_weather", "arguments": arguments}}]}
    checkpoint = tmp_path / "turns.jsonl"
    frame = run_cells([Cell("json_schema_openai", "native")], [request], client(server),
                      checkpoint=checkpoint, progress=False)
    return frame, checkpoint


def test_a_plain_client_run_stores_grades_and_resumes_nasty_text(tmp_path, server):
    city = "Os\ud800lo\x00"
    frame, checkpoint = _gold_run(tmp_path, server, city)
    row = frame.iloc[0]
    assert pd.isna(row["error"]) or row["error"] == ""
    assert row["reply"] == "nul \x00 and \ud800"
    assert bool(row["correct_main"]) and bool(row["correct_symmetric"])
    checkpoint.read_bytes().decode("utf-8")  # the checkpoint is valid UTF-8
    (stored,) = read_checkpoint(checkpoint)
    assert stored["reply"] == "nul \x00 and \ud800"
    assert stored["calls"][0]["arguments"] == {"city": city}
    asked = len(server.requests)
    again, _ = _gold_run(tmp_path, server, city)  # resume: nothing asked again, same verdict
    assert len(server.requests) == asked
    assert bool(again.iloc[0]["correct_main"])


def test_a_cassette_records_and_replays_nasty_text(tmp_path, server):
    tape = tmp_path / "tape.jsonl"
    recorder = ReplayClient(tape, client(server), mode="record")
    for text in NASTY:
        server.responder = text
        recorder.complete([{"role": "user", "content": f"say {text}"}])
    tape.read_bytes().decode("utf-8")  # valid UTF-8
    offline = ReplayClient(tape, mode="replay", model=server.model)
    assert [offline.complete([{"role": "user", "content": f"say {t}"}]).text
            for t in NASTY] == NASTY


def test_nasty_replies_are_stored_graded_resumed_and_replayed_on_every_path(tmp_path):
    """A stub client answering a lone surrogate, invalid UTF-8 (as PEP 383 escapes), NUL and
    10 MB: the checkpoint, the cassette and the CSV keep each reply exactly, a resume asks
    nothing again, and a replay of the cassette gives the same rows."""
    from toolform.clients import StubClient
    from toolform.csvtext import write_csv

    call = '{"name": "get_weather", "arguments": {"city": "Oslo"}}'
    replies = {"r0": "lone \ud800 " + call, "r1": "caf\udce9 \udcff", "r2": "nul \x00 " + call,
               "r3": call + " " + "x" * 10_000_000}
    tool = ToolIR("get_weather", "Weather.", params=(ParamIR("city", TypeIR("string"), "City."),))
    requests = [Request(id=rid, text=f"weather {rid}?", toolset=Toolset((tool,)),
                        gold=(GoldCall.from_call(ToolCall("get_weather", {"city": "Oslo"})),))
                for rid in replies]
    asked = []

    def answer(messages, tools):
        rid = messages[-1]["content"].split()[1].rstrip("?")
        asked.append(rid)
        return replies[rid]

    cells = [Cell("json_schema_openai", "json_object")]
    checkpoint, tape = tmp_path / "turns.jsonl", tmp_path / "tape.jsonl"
    with ReplayClient(tape, StubClient(answer)) as recorder:
        first = run_cells(cells, requests, recorder, checkpoint=checkpoint, progress=False)
    assert dict(zip(first["request_id"], first["reply"])) == replies
    assert first["error"].isna().all()
    # graded, not crashed: r1 holds no call; r3's call is followed by 10 MB of prose
    assert list(first["correct_main"]) == [True, False, True, False]
    checkpoint.read_bytes().decode("utf-8"), tape.read_bytes().decode("utf-8")  # valid UTF-8
    assert {r["request_id"]: r["reply"] for r in read_checkpoint(checkpoint)} == replies
    resumed = run_cells(cells, requests, StubClient(answer), checkpoint=checkpoint,
                        progress=False)
    assert len(asked) == 4 and resumed["reply"].tolist() == first["reply"].tolist()
    replayed = run_cells(cells, requests, ReplayClient(tape, mode="replay", model="stub-model"),
                         progress=False)
    columns = ["request_id", "reply", "correct_main", "correct_symmetric", "n_calls"]
    assert replayed[columns].equals(first[columns])
    write_csv(first, tmp_path / "turns.csv")
    back = read_csv(tmp_path / "turns.csv", TURN_COLUMNS)
    assert back["reply"].tolist() == first["reply"].tolist()
    assert back["calls"].tolist() == first["calls"].tolist()


def test_cassette_keys_of_ordinary_text_are_unchanged():
    # the key of a committed recording, computed before lone surrogates were escaped
    from toolform.clients import request_key
    import hashlib
    messages = [{"role": "user", "content": "café"}]
    old = hashlib.sha256(json.dumps(
        {"model": "m", "messages": messages, "params": {"max_tokens": None, "temperature": None,
                                                         "tools": None, "extra_body": None}},
        sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
    assert request_key("m", messages) == old


CASSETTES = sorted((Path(__file__).parents[1] / "datasets" / "cassettes").glob("*.jsonl"))


@pytest.mark.parametrize("path", CASSETTES, ids=lambda p: p.stem)
def test_every_committed_recording_keeps_its_key(path):
    from toolform.clients import request_key
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines
    for line in lines:
        request = line["request"]
        assert request_key(request["model"], request["messages"], **request["params"]) == \
            line["key"]


@pytest.mark.parametrize("text", ["\ud800", "a\udcff\udcfeb", "nul \x00", "\ud83d\ude00",
                                  "x" * 10_000_000])
def test_a_request_key_takes_any_text_by_its_documented_encoding(text):
    import hashlib

    from toolform.clients import request_key
    from toolform.plan import plan_run
    messages = [{"role": "user", "content": text}]
    key = request_key("m", messages)
    # the documented bytes: canonical JSON, lone surrogates as their \\u escapes, UTF-8
    canonical = json.dumps({"messages": messages, "model": "m",
                            "params": {"extra_body": None, "max_tokens": None,
                                       "temperature": None, "tools": None}},
                           sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    for code in range(0xD800, 0xE000):
        canonical = canonical.replace(chr(code), f"\\u{code:04x}")
    assert key == hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    # a plan keys such a request the same way (its fast path hashes the tool block once)
    tool = ToolIR("f", "F.", params=())
    (turn,) = plan_run([Cell("json_schema_openai")], [Request(id="r", text=text,
                                                               toolset=Toolset((tool,)))],
                       model="m")
    assert turn.key == request_key("m", turn.messages, max_tokens=turn.max_tokens,
                                   temperature=turn.temperature, tools=turn.tools)


def test_the_key_of_a_lone_surrogate_is_stable():
    from toolform.clients import request_key
    assert request_key("m", [{"role": "user", "content": "\ud800"}]) == (
        "2060538e66349959e64fe0d9e480e839bb8c9196025f95f5cfb486a8af39a963")


# -- point 5: the retry policy ------------------------------------------------------------------
def test_a_malformed_body_is_retried_then_named(server):
    server.script(*[StubReply(200, b'{"choices": [{"mess')] * 4)
    with pytest.raises(ModelServerError) as caught:
        client(server).complete(MESSAGES)
    error = caught.value
    assert (error.kind, error.attempts, error.url, error.model) == (
        "malformed_body", 4, server.base_url, server.model)
    assert "not JSON" in error.detail and '{"choices"' in error.detail
    assert not isinstance(error, json.JSONDecodeError)
    assert len(server.requests) == 4


@pytest.mark.parametrize("body", [b"<html>502 Bad Gateway</html>", b"[]", b'{"choices": []}',
                                  b'{"error": {"message": "overloaded"}}', b""])
def test_malformed_bodies_recover_on_retry(server, body):
    server.script(StubReply(200, body))
    assert client(server).complete(MESSAGES).text == "OK"
    assert len(server.requests) == 2


def test_retry_after_is_honoured(server):
    server.script(StubReply(429, {"error": {"message": "slow down"}}, {"Retry-After": "0.3"}))
    start = time.perf_counter()
    assert client(server).complete(MESSAGES).text == "OK"
    assert time.perf_counter() - start >= 0.3  # the server's wait, not the 0.01 s back-off


def test_a_retry_after_beyond_the_policy_fails_at_once(server):
    server.script(StubReply(503, {"error": {"message": "down"}}, {"Retry-After": "3600"}))
    with pytest.raises(ModelServerError) as caught:
        client(server).complete(MESSAGES)
    assert caught.value.kind == "retry_after_too_long" and caught.value.attempts == 1


def test_x_should_retry_false_is_obeyed(server):
    server.script(StubReply(500, {"error": {"message": "no"}}, {"x-should-retry": "false"}))
    with pytest.raises(ModelServerError) as caught:
        client(server).complete(MESSAGES)
    assert (caught.value.status, caught.value.attempts) == (500, 1)


def test_a_failed_turn_row_names_url_model_attempts_and_error(tmp_path, server):
    server.script(*[StubReply(200, b"not json")] * 2)
    tool = ToolIR("f", "F.", params=())
    request = Request(id="r0", text="go", toolset=Toolset((tool,)),
                      gold=(GoldCall.from_call(ToolCall("f", {})),))
    frame = run_cells([Cell("json_schema_openai")], [request],
                      client(server, retries=1), progress=False)
    error = frame.iloc[0]["error"]
    assert server.base_url in error and repr(server.model) in error
    assert "2 attempt(s)" in error and "malformed body" in error and "not JSON" in error
    assert (frame.iloc[0]["error_kind"], frame.iloc[0]["attempts"]) == ("malformed_body", 2)


def test_error_rows_carry_kind_and_attempts(tmp_path, server):
    tool = ToolIR("f", "F.", params=())
    request = Request(id="r0", text="go", toolset=Toolset((tool,)),
                      gold=(GoldCall.from_call(ToolCall("f", {})),))
    server.script(*[StubReply(503, b"busy")] * 3)
    frame = run_cells([Cell("json_schema_openai")], [request], client(server, retries=2),
                      checkpoint=tmp_path / "turns.jsonl", progress=False)
    assert (frame.iloc[0]["error_kind"], frame.iloc[0]["attempts"]) == ("status", 3)
    (stored,) = read_checkpoint(tmp_path / "turns.jsonl")
    assert (stored["error_kind"], stored["attempts"]) == ("status", 3)
    replay = ReplayClient(tmp_path / "empty.jsonl", mode="replay", model=server.model)
    missed = run_cells([Cell("json_schema_openai")], [request], replay, progress=False)
    assert (missed.iloc[0]["error_kind"], missed.iloc[0]["attempts"]) == ("cassette_miss", 0)
    ok = run_cells([Cell("json_schema_openai")], [request], client(server), progress=False)
    assert pd.isna(ok.iloc[0]["error_kind"]) and pd.isna(ok.iloc[0]["attempts"])


def test_policy_backoff_and_bounds():
    policy = RetryPolicy()
    assert [policy.backoff(k, rng=lambda: 0.0) for k in (1, 2, 3, 4, 5, 6)] == [
        0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert policy.backoff(1, rng=lambda: 1.0) == 0.375  # at most 25 % shorter
    assert policy.worst_case_s() == 5 * 60.0 + 4 * 120.0
    assert policy.retryable_status(429) and policy.retryable_status(502)
    assert not policy.retryable_status(400) and policy.retryable_status(400, {"x-should-retry":
                                                                               "true"})
    with pytest.raises(ValueError, match="RetryPolicy.retries"):
        RetryPolicy(retries=-1)
    with pytest.raises(ValueError, match="retry_statuses"):
        RetryPolicy(retry_statuses=frozenset({503}))


def test_retry_after_forms():
    assert retry_after_s({"retry-after-ms": "250"}) == 0.25
    assert retry_after_s({"retry-after": "2"}) == 2.0
    assert 50 < retry_after_s({"retry-after": time.strftime(
        "%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 60))}) <= 61
    assert retry_after_s({"retry-after": "soon"}) is None and retry_after_s(None) is None


def test_read_json_body_names_what_is_wrong():
    assert read_json_body(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}  # a BOM is skipped
    with pytest.raises(MalformedReply, match="not JSON"):
        read_json_body(b"{")


def test_model_server_error_survives_pickle_and_dicts():
    import pickle
    error = ModelServerError(url="http://h/v1", model="m", attempts=3, kind="status",
                             detail="boom", status=503, elapsed_s=1.5)
    back = pickle.loads(pickle.dumps(error))
    assert isinstance(back, ClientError) and back.to_dict() == error.to_dict()
    assert str(back) == "http://h/v1 (model 'm') failed after 3 attempt(s) with HTTP 503: boom"


def test_cassette_client_takes_the_policy(tmp_path, server):
    live = cassette_client(tmp_path / "t.jsonl", server.model, base_url=server.base_url,
                           timeout=7.0, retries=1)
    assert live.describe()["inner"]["retry_policy"]["timeout_s"] == 7.0
    assert live.describe()["inner"]["retries"] == 1



def test_ab_test_takes_timeout_retries_and_concurrency(tmp_path, server, monkeypatch):
    from typer.testing import CliRunner

    import toolform.experiments
    from toolform.cli import app
    seen = {}

    def fake_ab_test(datasets, client, **options):  # the run itself is tested above
        seen.update(client=client.describe(), **options)
        raise RuntimeError("stop here")

    monkeypatch.setattr(toolform.experiments, "ab_test", fake_ab_test)
    result = CliRunner().invoke(app, [
        "ab-test", "--base-url", server.base_url, "--model", server.model, "--n", "1",
        "--cassette", str(tmp_path / "tape.jsonl"), "--out", str(tmp_path / "out"),
        "--timeout", "7.5", "--retries", "1", "--concurrency", "2", "--no-progress"])
    assert str(result.exception) == "stop here"
    inner = seen["client"]["inner"]
    assert (inner["timeout_s"], inner["retries"], inner["max_concurrency"]) == (7.5, 1, 2)
    assert seen["concurrency"] == 2


def test_ab_test_against_a_server_sending_lone_surrogates_finishes(tmp_path, server,
                                                                     monkeypatch):
    from typer.testing import CliRunner

    import toolform.charts
    from toolform.cli import app
    monkeypatch.setattr(toolform.charts, "save_chart", lambda chart, path: [])  # not the point
    server.responder = "no call \ud800 \x00 here"
    out = tmp_path / "out"
    result = CliRunner().invoke(app, [
        "ab-test", "--base-url", server.base_url, "--model", server.model, "--n", "1",
        "--cassette", str(tmp_path / "tape.jsonl"), "--out", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    rows = read_checkpoint(out / "turns.jsonl")
    assert len(rows) == 8 and {r["reply"] for r in rows} == {"no call \ud800 \x00 here"}
    assert not any(r["error"] for r in rows)
    raw = (out / "turns.csv").read_bytes()
    assert b"\x00" not in raw and b"_x0000_" in raw and b"_xD800_" in raw
    raw.decode("utf-8")  # valid UTF-8
    turns = read_csv(out / "turns.csv", TURN_COLUMNS)  # the exact text back
    assert set(turns["reply"]) == {"no call \ud800 \x00 here"}
