"""TwoStage: the stage-one menu from the format registry, selection parsing, and both stages."""

from __future__ import annotations

import json

import pytest

from catalogue_fakes import CatalogueFake
from toolform.catalogue import SELECTION_ASK, SELECTION_MAX_TOKENS, TwoStage
from toolform.clients import Completion
from toolform.formats import render, render_block
from toolform.generator import decoy_catalogue
from toolform.ir import GoldCall, Request, ToolCall, ToolIR, Toolset

TOOLS = Toolset((ToolIR("get_weather", "Current weather."),
                 ToolIR("get_weather_v2", "Current weather, newer."),
                 ToolIR("get_time", "Local time."),
                 ToolIR("send-mail", "Send an email.")))


@pytest.fixture()
def stages():
    return TwoStage(TOOLS)


@pytest.mark.parametrize("reply, name, how", [
    ("get_time", "get_time", "name"),
    ("I would use `GET_TIME` here.", "get_time", "name"),
    ("get_weather_v2", "get_weather_v2", "name"),                # longest wins
    ("get_weather or get_weather_v2?", "get_weather_v2", "name"),
    ("get_time, then send-mail", "send-mail", "name"),            # longer name wins
    ("get_timezone", "get_time", "name"),                         # contained, as the study reads
    ("SEND-MAIL", "send-mail", "name"),
    ("SendMail", None, "failed"),                                 # not a name as written
    ('"Get_Time."', "get_time", "name"),
    ("none", None, "failed"),
    ("I am not sure which one.", None, "failed"),                 # no fallback to a tool
    ("", None, "failed"),
    (None, None, "failed"),
])
def test_parse_selection(stages, reply, name, how):
    assert stages.parse_selection(reply) == name
    selection = stages.read_selection(reply)
    assert (selection.name, selection.how) == (name, how)
    assert selection.failed is (name is None)


def test_equally_long_names_go_to_the_catalogue_order():
    stages = TwoStage(Toolset((ToolIR("tool_b", "one"), ToolIR("tool_a", "two"))))
    assert stages.parse_selection("tool_a or tool_b") == "tool_b"
    # a first word that is a name, stripped of quotes and punctuation, is contained anyway
    assert stages.parse_selection("'TOOL_A'.") == "tool_a"


def test_stage_one_uses_the_registered_two_stage_formats():
    toolset = decoy_catalogue(16, 0, target="get_current_weather")
    with_desc = TwoStage(toolset)
    assert with_desc.stage_one_block == render_block(toolset, "names_desc_then_schema")
    menu = json.loads(with_desc.stage_one_block)
    assert list(menu) == toolset.names and menu["get_current_weather"]
    names = TwoStage(toolset, include_descriptions=False)
    assert json.loads(names.stage_one_block) == toolset.names
    system, user = names.selection_messages("weather in Osaka?")
    assert names.stage_one_block in system["content"]
    # as in the study, the selection sentence ends the user's request
    assert user == {"role": "user", "content": "weather in Osaka?" + SELECTION_ASK}
    assert SELECTION_ASK not in system["content"]


def test_call_messages_show_the_selected_schema_alone():
    toolset = decoy_catalogue(16, 0, target="get_current_weather")
    stages = TwoStage(toolset, format_id="xml_schema")
    expected = render(toolset.subset(["get_current_weather"]), "xml_schema", "xml_call",
                      "weather?").messages
    assert stages.call_messages("weather?", "get_current_weather") == expected
    with pytest.raises(KeyError):
        stages.call_messages("weather?", "no_such_tool")


def _request(toolset: Toolset) -> Request:
    call = ToolCall("get_current_weather", {"city": "Osaka"})
    return Request("r1", "What's the weather like in Osaka right now?", toolset,
                   (GoldCall.from_call(call),))


def test_run_both_stages_and_count_tokens():
    toolset = decoy_catalogue(64, 0, target="get_current_weather")
    request = _request(toolset)
    fake = CatalogueFake([request])
    result = TwoStage(toolset).run(fake, request)
    assert result.selected == "get_current_weather" and not result.selection_failed
    assert result.request == request.text
    assert result.call_messages == TwoStage(toolset).call_messages(request, result.selected)
    assert [c.to_dict() for c in result.parsed.calls] == [
        {"name": "get_current_weather", "arguments": {"city": "Osaka"}}]
    assert [entry["max_tokens"] for entry in fake.log] == [SELECTION_MAX_TOKENS, 256]
    assert SELECTION_MAX_TOKENS == 48
    first, second = (len(entry["system"]) // 4 for entry in fake.log)
    assert (result.selection_prompt_tokens, result.call_prompt_tokens) == (first, second)
    assert result.prompt_tokens == first + second
    assert result.latency_s == pytest.approx(0.02)


class _Scripted:
    model = "scripted"

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.calls = 0

    def complete(self, messages, **kwargs):
        self.calls += 1
        return Completion(self.replies.pop(0), None, None, None, 0.1, self.model, "stop")


def test_a_selection_failure_has_no_second_stage():
    toolset = decoy_catalogue(8, 0, target="get_current_weather")
    client = _Scripted("I am not sure.")
    result = TwoStage(toolset).run(client, _request(toolset))
    assert result.selection_failed and result.selected is None
    assert client.calls == 1 and result.reply == "" and result.parsed is None
    assert result.call_messages is None
    assert result.call_prompt_tokens is None and result.prompt_tokens is None


def test_stage_two_is_parsed_against_the_whole_catalogue():
    toolset = decoy_catalogue(8, 0, target="get_current_weather")
    other = next(n for n in toolset.names if n != "get_current_weather")
    reply = json.dumps({"name": other, "arguments": {}})
    client = _Scripted("get_current_weather", reply)
    result = TwoStage(toolset).run(client, _request(toolset))
    assert result.selected == "get_current_weather"
    assert [c.name for c in result.parsed.calls] == [other]


def test_empty_toolset_is_refused():
    with pytest.raises(ValueError, match="empty"):
        TwoStage(Toolset())


def test_the_system_placement_keeps_the_recorded_layout():
    from toolform.catalogue import ASK_PLACEMENTS, SELECTION_INSTRUCTION

    toolset = decoy_catalogue(4, 0, target="get_current_weather")
    system, user = TwoStage(toolset, ask_placement="system").selection_messages("weather?")
    # the layout the committed count-sweep cassette was recorded with, byte for byte
    block = render_block(toolset, "names_desc_then_schema")
    assert system["content"] == (f"You can use one of the following tools.\n\n{block}\n\n"
                                 f"{SELECTION_INSTRUCTION}\n")
    assert user == {"role": "user", "content": "weather?"}
    assert ASK_PLACEMENTS == ("request", "system")
    with pytest.raises(ValueError, match="ask_placement"):
        TwoStage(toolset, ask_placement="both")
    with pytest.raises(KeyError):
        TwoStage(toolset, protocol_id="no_such_protocol")
