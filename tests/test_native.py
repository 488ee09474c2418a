"""The native protocol end to end: tools in the API's field, calls read from tool_calls."""

from __future__ import annotations

from toolform.clients import Completion
from toolform.formats import render
from toolform.ir import GoldCall, ParamIR, Request, ToolCall, ToolIR, Toolset, TypeIR
from toolform.protocols import parse_reply
from toolform.runs import Cell, run_cells

TOOLS = Toolset((ToolIR("get_weather", "Weather now.", (ParamIR("city", TypeIR("string")),)),))
CALLS = [{"id": "c1", "type": "function",
          "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}}]


def test_render_puts_the_tools_in_the_api_field_only_for_native():
    native = render(TOOLS, "json_schema_openai", "native", "Weather in Oslo?")
    assert native.api_tools == [{"type": "function", "function": {
        "name": "get_weather", "description": "Weather now.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                       "required": ["city"]}}}]
    assert render(TOOLS, "json_schema_openai", "json_object").api_tools is None


def test_parse_reply_reads_a_completion_and_its_tool_calls():
    completion = Completion(text="", tool_calls=CALLS, prompt_tokens=3, completion_tokens=2,
                            latency_s=0.1, model="m", finish_reason="tool_calls")
    parsed = parse_reply(completion, TOOLS, "native")
    assert parsed.calls == (ToolCall("get_weather", {"city": "Oslo"}),)
    assert parsed.parsed_strict and parsed.format_compliant
    text = Completion(text='{"name": "get_weather", "arguments": {"city": "Oslo"}}',
                      tool_calls=None, prompt_tokens=3, completion_tokens=2, latency_s=0.1,
                      model="m", finish_reason="stop")
    assert parse_reply(text, TOOLS, "json_object").calls == parsed.calls


def test_a_native_run_grades_the_api_calls():
    seen = {}

    class NativeClient:
        model = "native-model"

        def complete(self, messages, *, max_tokens=None, temperature=None, tools=None,
                     extra_body=None):
            seen["tools"] = tools
            return Completion(text="", tool_calls=CALLS, prompt_tokens=3, completion_tokens=2,
                              latency_s=0.1, model=self.model, finish_reason="tool_calls")

    request = Request("r0", "Weather in Oslo?", TOOLS,
                      (GoldCall.from_call(ToolCall("get_weather", {"city": "Oslo"})),))
    frame = run_cells([Cell("json_schema_openai", "native")], [request], NativeClient(),
                      progress=False)
    assert seen["tools"][0]["function"]["name"] == "get_weather"
    assert frame["correct_main"].tolist() == [True]
