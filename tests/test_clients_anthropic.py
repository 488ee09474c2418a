"""Issue 18, point 6: AnthropicClient drives the real ``anthropic`` SDK against a stub of the
Messages API on 127.0.0.1; StubClient answers in-process. Both run through the real runner."""

from __future__ import annotations

import json
import sys

import pytest

pytest.importorskip("anthropic")

from toolform.clients import (AnthropicClient, ChatClient, RetryPolicy, StubClient, StubReply,
                              StubServer)
from toolform.clients._anthropic import anthropic_request, completion_from_message
from toolform.clients._policy import MalformedReply
from toolform.errors import MissingDependencyError, ModelServerError
from toolform.ir import GoldCall, ParamIR, Request, ToolCall, ToolIR, Toolset, TypeIR
from toolform.runs import Cell, run_cells

FAST = RetryPolicy(retries=2, timeout_s=5.0, backoff_s=0.01, max_backoff_s=0.05)
WEATHER = ToolIR("get_weather", "Current weather for a city.", params=(
    ParamIR("city", TypeIR("string"), "City name."),))
TOOLS = Toolset((WEATHER,))
REQUEST = Request(id="r0", text="Weather in Oslo?", toolset=TOOLS,
                  gold=(GoldCall.from_call(ToolCall("get_weather", {"city": "Oslo"})),))
OSLO = {"content": None, "tool_calls": [{"id": "toolu_1", "type": "function", "function": {
    "name": "get_weather", "arguments": '{"city": "Oslo"}'}}]}


@pytest.fixture
def server():
    with StubServer() as stub:
        yield stub


def claude(server: StubServer, **kwargs) -> AnthropicClient:
    kwargs.setdefault("retry_policy", FAST)
    return AnthropicClient(server.model, "test-key", base_url=server.anthropic_url, **kwargs)


def test_text_reply_and_the_request_the_sdk_sent(server):
    server.responder = "Hello \ud800 \x00"
    client = claude(server, max_tokens=77)
    reply = client.complete([{"role": "system", "content": "Be brief."},
                             {"role": "user", "content": "hi"}])
    assert isinstance(client, ChatClient)
    assert (reply.text, reply.finish_reason) == ("Hello \ud800 \x00", "stop")
    assert reply.prompt_tokens > 0 and reply.completion_tokens > 0
    assert server.paths[-1] == "/v1/messages"
    sent = server.requests[-1]
    assert sent["system"] == "Be brief." and sent["max_tokens"] == 77
    assert sent["temperature"] == 0.0
    claude(server, send_temperature=False).complete([{"role": "user", "content": "hi"}],
                                                    temperature=0.5)
    assert "temperature" not in server.requests[-1]
    assert sent["messages"] == [{"role": "user", "content": "hi"}]
    assert client.describe()["client"] == "AnthropicClient"


def test_native_tools_are_sent_as_anthropic_tools_and_read_back_as_calls(server):
    server.responder = OSLO
    tools = [{"type": "function", "function": {
        "name": "get_weather", "description": "Weather.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]
    reply = claude(server).complete([{"role": "user", "content": "Oslo?"}], tools=tools)
    assert server.requests[-1]["tools"] == [{
        "name": "get_weather", "description": "Weather.",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}]
    assert reply.finish_reason == "tool_calls"
    (call,) = reply.tool_calls
    assert call["function"]["name"] == "get_weather"
    assert json.loads(call["function"]["arguments"]) == {"city": "Oslo"}


@pytest.mark.parametrize("cell", [Cell("json_schema_openai", "native"), Cell("json_schema_openai")])
def test_a_run_with_claude_grades_native_and_in_prompt_cells(server, cell):
    if cell.protocol_id == "native":
        server.responder = OSLO
    else:  # answer in the cell's protocol, as the gold call written by that protocol
        from toolform.formats import get_format
        from toolform.protocols import get_protocol
        protocol = get_protocol(get_format(cell.format_id).default_protocol)
        server.responder = protocol.protocol.write([ToolCall("get_weather", {"city": "Oslo"})],
                                                   TOOLS)
    frame = run_cells([cell], [REQUEST], claude(server), progress=False)
    assert bool(frame.iloc[0]["correct_main"]), frame.iloc[0].to_dict()
    assert ("tools" in server.requests[-1]) == (cell.protocol_id == "native")


def test_retries_follow_the_policy_and_errors_name_everything(server):
    server.script(StubReply(529, {"type": "error", "error": {"type": "overloaded_error",
                                                             "message": "busy"}}),
                  StubReply(200, b"{torn"))
    assert claude(server).complete([{"role": "user", "content": "hi"}]).text == "OK"
    assert len(server.requests) == 3
    server.script(*[StubReply(200, b"<html>")] * 3)
    with pytest.raises(ModelServerError) as caught:
        claude(server).complete([{"role": "user", "content": "hi"}])
    error = caught.value
    assert (error.kind, error.attempts, error.model) == ("malformed_body", 3, server.model)
    assert error.url.startswith(server.anthropic_url)
    server.script(StubReply(400, {"type": "error", "error": {"type": "invalid_request_error",
                                                             "message": "bad"}}))
    with pytest.raises(ModelServerError) as caught:
        claude(server).complete([{"role": "user", "content": "hi"}])
    assert (caught.value.status, caught.value.attempts) == (400, 1)


def test_a_request_holding_a_lone_surrogate_is_sent(server):
    server.responder = lambda messages, tools: messages[-1]["content"]
    text = "echo \ud800"
    assert claude(server).complete([{"role": "user", "content": text}]).text == text


def test_message_reading_rejects_what_is_not_a_message():
    with pytest.raises(MalformedReply, match="content blocks"):
        completion_from_message({"id": "x"}, 0.1, "m")
    with pytest.raises(MalformedReply, match="tool_use"):
        completion_from_message({"content": [{"type": "tool_use", "input": []}]}, 0.1, "m")
    read = completion_from_message({"content": [{"type": "text", "text": "a"},
                                                {"type": "thinking", "thinking": "..."},
                                                {"type": "text", "text": "b"}],
                                    "stop_reason": "max_tokens"}, 0.1, "m")
    assert (read.text, read.finish_reason, read.prompt_tokens) == ("ab", "length", None)


def test_anthropic_request_joins_system_messages():
    params = anthropic_request("m", [{"role": "system", "content": "A"},
                                     {"role": "system", "content": "B"},
                                     {"role": "user", "content": "q"}],
                               tools=None, max_tokens=5)
    assert params["system"] == "A\n\nB" and "tools" not in params


def test_a_missing_sdk_gives_the_install_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "anthropic", None)  # import anthropic now raises
    with pytest.raises(MissingDependencyError, match=r'pip install "toolform\[anthropic\]"'):
        AnthropicClient("claude")


# -- StubClient -------------------------------------------------------------------------------
def test_stub_client_answers_records_and_injects_faults():
    stub = StubClient(lambda messages, tools: OSLO if tools else "text",
                      fail_when=lambda messages: "fail" in messages[-1]["content"])
    assert isinstance(stub, ChatClient)
    assert stub.complete([{"role": "user", "content": "x"}]).text == "text"
    native = stub.complete([{"role": "user", "content": "x"}], tools=[{"type": "function"}])
    assert native.tool_calls == OSLO["tool_calls"] and native.finish_reason == "tool_calls"
    with pytest.raises(ModelServerError) as caught:
        stub.complete([{"role": "user", "content": "please fail"}])
    assert caught.value.kind == "injected" and caught.value.url == "stub://stub-model"
    assert len(stub.requests) == 3


def test_stub_client_failures_become_error_rows():
    stub = StubClient(OSLO, fail_when=lambda messages: True)
    frame = run_cells([Cell("json_schema_openai", "native")], [REQUEST], stub, progress=False)
    assert "stub://stub-model" in frame.iloc[0]["error"]
    ok = run_cells([Cell("json_schema_openai", "native")], [REQUEST], StubClient(OSLO),
                   progress=False)
    assert bool(ok.iloc[0]["correct_main"])


def test_an_ab_test_whose_every_turn_failed_still_reports():
    from toolform.experiments import ab_test
    result = ab_test([REQUEST], StubClient(fail_when=lambda messages: True), n=1,
                     progress=False)
    assert result.turns["error"].notna().all()
    assert "every turn failed" in result.summary()
