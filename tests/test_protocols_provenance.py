"""What ``parse_reply`` says about each call: ``ParsedCall`` provenance (reader, span in the
reply, example flag, repairs), the examples switch (issue 14, point 5), vendor shapes named in
the issues (point 4), and the protocols package's public names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import toolform.protocols as protocols
from toolform.ir import ToolCall
from toolform.protocols import ParsedCall, VENDOR_SHAPES, parse_reply, protocol_ids

from test_protocols import FLAT_XML, TOOLS

PACKAGE = Path(protocols.__file__).resolve().parent


def test_every_protocol_module_has_a_literal_sorted_all():
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        found = [n for n in tree.body if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)]
        assert len(found) == 1, path.name
        value = found[0].value
        assert isinstance(value, ast.List), f"{path.name}: __all__ is not a literal list"
        names = [e.value for e in value.elts]
        assert names == sorted(names), path.name
        module = __import__(f"toolform.protocols.{path.stem}" if path.stem != "__init__"
                            else "toolform.protocols", fromlist=["_"])
        assert all(hasattr(module, n) for n in names), path.name


def test_parsed_call_is_public_and_carries_its_provenance():
    reply = "<think>maybe get_time()</think>Sure:\nget_weather(city='Paris', days=3)"
    parsed = parse_reply(reply, TOOLS, "python_call")
    (call,) = parsed.parsed_calls
    assert isinstance(call, ParsedCall) and call.call == ToolCall("get_weather",
                                                                  {"city": "Paris", "days": 3})
    assert call.protocol_id == "python_call" and call.vendor_shape is None and not call.example
    start, end = call.span  # in the reply's own characters, the reasoning included
    assert reply[start:end] == "get_weather(city='Paris', days=3)"
    assert call.to_dict()["span"] == [start, end]


def test_repairs_are_on_the_call_and_in_the_issues():
    parsed = parse_reply(FLAT_XML, TOOLS, "xml_call")
    (call,) = parsed.parsed_calls
    assert any("moved origin, destination into route (re-nesting repair)" in r
               for r in call.repairs)
    named = parse_reply('{"name": "Get-Weather", "arguments": {"city": "A"}}', TOOLS,
                        "json_object")
    assert named.parsed_calls[0].repairs == ("name read as 'get_weather' (separator)",)
    unclosed = parse_reply('<function_calls><invoke name="get_weather"><parameter name="city">'
                           'Paris<parameter name="days">3</parameter></invoke>'
                           "</function_calls>", TOOLS, "xml_call")
    assert unclosed.calls == (ToolCall("get_weather", {"city": "Paris", "days": 3}),)
    assert any("is not closed" in r for r in unclosed.parsed_calls[0].repairs)
    assert any("is not closed" in i for i in unclosed.issues)


EXAMPLE = ("You can call the weather tool. Here's an example call:\n\n```python\n"
           "get_weather(city='Paris', days=3)\n```\n")


def test_an_example_is_not_a_call_unless_the_caller_says_so():
    parsed = parse_reply(EXAMPLE, TOOLS, "python_call")
    assert parsed.no_call and parsed.parsed_strict and parsed.format_compliant
    assert [c.name for c in parsed.example_calls] == ["get_weather"]
    assert parsed.example_calls[0].example and not parsed.examples
    assert any("shown as an example" in i and "not counted" in i for i in parsed.issues)
    counted = parse_reply(EXAMPLE, TOOLS, "python_call", examples=True)
    assert counted.calls == (ToolCall("get_weather", {"city": "Paris", "days": 3}),)
    assert counted.parsed_calls[0].example and counted.example_calls == ()
    assert any("counted, since examples=True" in i for i in counted.issues)
    for other in (counted, parsed):
        assert other.format_compliant == parsed.format_compliant


@pytest.mark.parametrize("reply,cue", [
    ("For example: {\"name\": \"get_time\", \"arguments\": {}}", "For example"),
    ("I won't run {\"name\": \"get_time\", \"arguments\": {}} without asking.", "won't"),
    ("{\"name\": \"get_time\", \"arguments\": {}}\nThis is just an example.",
     "This is just an example"),
    # any case, and outside ASCII, where re's case folding reads "ſ" as "s"
    ("E.G. {\"name\": \"get_time\", \"arguments\": {}}", "E.G."),
    ("I CANNOT run {\"name\": \"get_time\", \"arguments\": {}}.", "CANNOT"),
    ("A ſample: {\"name\": \"get_time\", \"arguments\": {}}", "ſample"),
    ("{\"name\": \"get_time\", \"arguments\": {}}\nIt is just an illuſtration, not run.",
     "It is just an illuſtration"),
])
def test_each_cue_of_the_rule(reply, cue):
    parsed = parse_reply(reply, TOOLS, "json_object")
    assert parsed.no_call and len(parsed.example_calls) == 1
    assert any(repr(cue) in i for i in parsed.issues), parsed.issues


def test_a_call_introduced_as_the_call_is_a_call():
    parsed = parse_reply("Here is the call:\n{\"name\": \"get_time\", \"arguments\": {}}",
                         TOOLS, "json_object")
    assert parsed.calls == (ToolCall("get_time", {}),) and parsed.example_calls == ()


def test_vendor_shapes_are_named_and_never_compliant_plain_text():
    assert set(VENDOR_SHAPES) == {"hermes", "qwen3_coder", "llama_function",
                                  "llama_python_tag", "mistral", "gemma", "deepseek"}
    for shape in VENDOR_SHAPES.values():
        assert shape.protocol_id is None or shape.protocol_id in protocol_ids()
    reply = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}'
    for asked in protocol_ids():
        parsed = parse_reply(reply, TOOLS, asked)
        assert not parsed.format_compliant and parsed.vendor_shape == "mistral", asked
        assert any("Mistral [TOOL_CALLS]" in i for i in parsed.issues), asked
        taken = parse_reply(reply, TOOLS, asked, lenient_fallback=True)
        assert taken.calls == (ToolCall("get_weather", {"city": "Paris"}),)
        assert taken.parsed_calls[0].vendor_shape == "mistral"
        assert taken.parsed_calls[0].protocol_id is None
