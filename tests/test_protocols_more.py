"""The protocols beyond the five of the crossing: round trips honouring ``cannot_carry``, real
reply shapes and hostile replies (their metadata against the study is in
``test_protocols_conformance.py``; fuzzing of ``parse_reply`` in ``test_protocols_fuzz.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolform.errors import ParseError
from toolform.ir import GoldCall, ToolCall, Toolset, TypeIR
from toolform.protocols import get_protocol, parse_reply, protocol_ids
from toolform.protocols._code_calls import _field_type
from toolform.protocols._values import coerce_value, text_of

from test_protocols import (CROSSING, HAND_CALLS, PARIS, TOOLS, _TEXT, _XML_TEXT, arguments_for,
                            same_calls)

#: Every registered protocol outside the crossing, in registry order.
MORE = tuple(p for p in protocol_ids() if p not in CROSSING)


def test_instructions_name_the_placeholders():
    for protocol_id in MORE:
        if protocol_id != "bfcl_python_list":  # BFCL's template keeps its own placeholders
            assert "tool_name" in get_protocol(protocol_id).instruction, protocol_id


# -- what each protocol loses, exactly as declared -----------------------------------------------
def _drop_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value if v is not None]
    return value


def _fits(value: Any, t: TypeIR | None) -> bool:
    """The value has its declared type (an ``any`` type declares none: untyped)."""
    return t is not None and t.kind != "any" and Draft202012Validator(
        t.to_json_schema()).is_valid(value)


def _text_back(value: Any, t: TypeIR | None) -> Any:
    """A value as a text-valued protocol gives it back: unchanged when it fits its declared
    type; else (mistyped, or untyped) its text typed by the schema."""
    return value if _fits(value, t) else coerce_value(text_of(value), t)


def _url_back(value: Any, t: TypeIR | None) -> Any:
    """As ``_text_back``, leaf by leaf through a flattened (non-empty) object."""
    if isinstance(value, dict) and value:
        return {k: _url_back(v, _field_type(t, k)) for k, v in value.items()}
    return _text_back(value, t)


def expected(protocol_id: str, calls: list[ToolCall], toolset: Toolset = TOOLS
             ) -> list[ToolCall]:
    """The calls a round trip gives back, applying only the losses ``cannot_carry`` declares."""
    lost = set(get_protocol(protocol_id).cannot_carry)
    out = []
    for call in calls:
        args = dict(call.arguments)
        if "null_values" in lost:
            args = _drop_nulls(args)
        if "empty_strings" in lost:
            args = {k: v for k, v in args.items() if v != ""}
        tool = toolset.get(call.name)
        if "mistyped_values" in lost and tool is not None:
            back = _url_back if "dotted_keys" in lost else _text_back
            for p in tool.params:
                if p.name in args:
                    args[p.name] = back(args[p.name], p.type)
        out.append(ToolCall(call.name, args))
    return out


def roundtrip(protocol_id: str, calls: list[ToolCall], toolset: Toolset = TOOLS
              ) -> list[ToolCall]:
    protocol = get_protocol(protocol_id).protocol
    return protocol.parse(protocol.write(calls, toolset), toolset)


def test_declared_losses():
    assert get_protocol("csv_call").cannot_carry == (
        "untyped_values", "mistyped_values", "undeclared_arguments", "unknown_tools",
        "empty_strings")
    assert "dotted_keys" in get_protocol("url_call").cannot_carry
    assert "untyped_values" in get_protocol("cli_call").cannot_carry
    assert get_protocol("toml_call").cannot_carry == ("null_values",)
    lossless = [p for p in MORE if not get_protocol(p).cannot_carry]
    assert "json_array" in lossless and "sql_call" in lossless and "yaml_call" in lossless


def _single(protocol_id: str) -> list[list[ToolCall]]:
    if get_protocol(protocol_id).supports_parallel:
        return HAND_CALLS
    return [c for c in HAND_CALLS if len(c) == 1]


@pytest.mark.parametrize("protocol_id", MORE)
def test_round_trip_hand_calls(protocol_id):
    for calls in _single(protocol_id):
        got = roundtrip(protocol_id, calls)
        assert same_calls(got, expected(protocol_id, calls)), (protocol_id, calls, got)


DATASETS = Path(__file__).resolve().parent.parent / "datasets"


def _dataset_cases() -> list[tuple[str, Toolset, list[ToolCall]]]:
    """Every request of the generated tasks (tiers 1 to 5) and of the BFCL sets, with its gold
    calls as concrete calls (the first acceptable value of each argument)."""
    shared = Toolset.from_json((DATASETS / "generated" / "toolset.json").read_text("utf-8"))
    cases = []
    for path in [DATASETS / "generated" / "tasks.jsonl", *sorted((DATASETS / "bfcl").glob(
            "*.jsonl"))]:
        for line in path.read_text("utf-8").splitlines():
            row = json.loads(line)
            tools = shared if isinstance(row["tools"], str) else Toolset.from_dict(row["tools"])
            calls = [GoldCall.from_dict(g).first_call() for g in row["gold"]]
            if calls:
                cases.append((row["category"], tools, calls))
    return cases


CASES = _dataset_cases()


def test_dataset_cases_cover_every_tier_and_bfcl():
    categories = {category for category, _, _ in CASES}
    assert {f"tier{n}_clear" for n in range(1, 6)} <= categories
    assert {"simple_python", "multiple"} <= categories and len(CASES) >= 800


@pytest.mark.parametrize("protocol_id", MORE)
def test_round_trip_dataset_gold_calls(protocol_id):
    parallel = get_protocol(protocol_id).supports_parallel
    failures = []
    for category, tools, calls in CASES:
        groups = [calls] if parallel else [[c] for c in calls]
        for group in groups:
            got = roundtrip(protocol_id, group, tools)
            if not same_calls(got, expected(protocol_id, group, tools)):
                failures.append((category, group, got))
    assert not failures, failures[:3]


def test_lossy_protocols_do_lose_what_they_declare():
    page = [ToolCall("API-post-page", {"title": "t", "properties": {"n": 5, "k": None}})]
    assert same_calls(roundtrip("url_call", page),
                      [ToolCall("API-post-page", {"title": "t",
                                                  "properties": {"n": "5", "k": "null"}})])
    assert same_calls(roundtrip("toml_call", page),
                      [ToolCall("API-post-page", {"title": "t", "properties": {"n": 5}})])
    weather = [ToolCall("get_weather", {"city": "", "days": 2})]
    assert same_calls(roundtrip("csv_call", weather), [ToolCall("get_weather", {"days": 2})])


@pytest.mark.parametrize("protocol_id", MORE)
def test_empty_list_writes_an_abstention_nobody_reads(protocol_id):
    text = get_protocol(protocol_id).protocol.write([], TOOLS)
    parsed = parse_reply(text, TOOLS, protocol_id)
    assert parsed.no_call and parsed.format_compliant and not parsed.parsed_lenient


def test_written_shapes_are_the_documented_ones():
    call = [ToolCall("get_weather", {"city": "Paris", "days": 2})]
    w = {p: get_protocol(p).protocol.write(call, TOOLS) for p in MORE}
    assert w["python_list_call"] == "[get_weather(city='Paris', days=2)]"
    assert w["cli_call"] == "get_weather --city Paris --days 2"
    assert w["sql_call"] == "SELECT get_weather(city => 'Paris', days => 2);"
    assert w["graphql_call"] == 'mutation {\n  get_weather(city: "Paris", days: 2)\n}'
    assert w["url_call"] == "POST /get_weather?city=Paris&days=2"
    assert w["sexpr_call"] == '(get_weather :city "Paris" :days 2)'
    assert json.loads(w["json_array"]) == [{"name": "get_weather",
                                            "arguments": {"city": "Paris", "days": 2}}]
    assert w["nl_intent_structured"] == 'Use get_weather with city = "Paris", days = 2.'
    assert w["key_value_call"] == "TOOL: get_weather\ncity: Paris\ndays: 2"
    assert w["pipe_call"] == "get_weather|city=Paris|days=2"
    assert w["csv_call"] == "get_weather,Paris,,2"
    assert w["symbolic_call"] == "get_weather ★city§Paris ★days#2"
    assert w["two_step_call"] == 'get_weather\n{"city": "Paris", "days": 2}'
    assert w["function_tags"] == '<function=get_weather>{"city": "Paris", "days": 2}</function>'
    assert w["xml_generic_call"] == '<call name="get_weather"><city>Paris</city><days>2</days></call>'
    assert w["python_tag"] == "<|python_tag|>get_weather(city='Paris', days=2)<|eom_id|>"
    assert w["react"].endswith('Action: get_weather\nAction Input: {"city": "Paris", "days": 2}')
    assert w["bracket_call"] == "I need [get_weather(city='Paris', days=2)]."
    native = json.loads(w["native"])["tool_calls"][0]
    assert native["type"] == "function" and json.loads(native["function"]["arguments"]) == \
        {"city": "Paris", "days": 2}
    assert "[call.arguments]" in w["toml_call"] and "| tool | argument | value |" in w[
        "table_call"]


def calls_strategy(text, parallel: bool):
    one = st.sampled_from(TOOLS.tools).flatmap(
        lambda tool: arguments_for(tool.params, text).map(lambda a: ToolCall(tool.name, a)))
    return st.lists(one, min_size=1, max_size=3 if parallel else 1)


def _no_dotted_keys(value: Any) -> bool:
    if isinstance(value, dict):
        return all("." not in k and _no_dotted_keys(v) for k, v in value.items())
    return True


@pytest.mark.parametrize("protocol_id", [p for p in MORE if p != "xml_generic_call"])
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_round_trip_generated(protocol_id, data):
    spec = get_protocol(protocol_id)
    calls = data.draw(calls_strategy(_TEXT, spec.supports_parallel))
    if "dotted_keys" in spec.cannot_carry:
        assume(all(_no_dotted_keys(dict(c.arguments)) for c in calls))
    got = roundtrip(protocol_id, calls)
    assert same_calls(got, expected(protocol_id, calls)), (spec.protocol.write(calls, TOOLS),
                                                           got)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(calls=calls_strategy(_XML_TEXT, True))
def test_round_trip_generated_xml_generic(calls):
    assert same_calls(roundtrip("xml_generic_call", calls), calls)


# -- real reply shapes ---------------------------------------------------------------------------
FACT = [ToolCall("math.factorial", {"n": 4})]
TWO = [*PARIS, *FACT]
THINK = "<think>Maybe get_time? No, the weather.</think>"
REAL = [
    ("python_list_call", "Sure:\n```python\n[get_weather(city='Paris', days=3), "
                         "math.factorial(n=4)]\n```", TWO),
    ("python_list_call", THINK + "The answer is [get_weather(city=\"Paris\", days=3)].", PARIS),
    ("bfcl_python_list", "[get_weather(city='Paris', days=3), math.factorial(n=4)]", TWO),
    ("bfcl_python_list", "get_weather(city='Paris', days=3)", PARIS),
    ("cli_call", "Run this:\n```bash\n$ get_weather --city \"Paris\" \\\n  --days=3\n```\n"
                 "Done.", PARIS),
    ("cli_call", THINK + "get_weather --city Paris --days 3\nmath.factorial --n 4", TWO),
    ("sql_call", "```sql\nSELECT get_weather(city => 'Paris', days => 3);\n"
                 "SELECT math.factorial(n := 4);\n```", TWO),
    ("sql_call", "Here you go: select get_weather('Paris', days => 3)", PARIS),
    ("graphql_call", "```graphql\nmutation GetIt {\n  a: get_weather(city: \"Paris\" days: 3) "
                     "{ temp }\n}\n```", PARIS),
    ("graphql_call", THINK + "mutation { get_weather(city: \"Paris\", days: 3) }", PARIS),
    ("url_call", "I'll send:\n`GET /get_weather?city=Paris&days=3`", PARIS),
    ("url_call", "POST https://api.example.com/get_weather?city=Paris&days=3\n"
                 "POST /math.factorial?n=4", TWO),
    ("sexpr_call", "```lisp\n(get_weather :city \"Paris\" :days 3)\n```", PARIS),
    ("sexpr_call", THINK + "Calling (get_weather :city \"Paris\" :days 3) and "
                   "(math.factorial :n 4).", TWO),
    ("json_array", 'Sure!\n```json\n[{"name": "get_weather", "arguments": {"city": "Paris", '
                   '"days": 3}}]\n```', PARIS),
    ("json_array", THINK + "[{'name': 'get_weather', 'arguments': {'city': 'Paris', "
                   "'days': 3,},}, {'name': 'math.factorial', 'arguments': {'n': 4}}]", TWO),
    ("jsonl_call", 'Calls:\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n'
                   "{'name': 'math.factorial', 'arguments': {'n': 4}}\nThat's it.", TWO),
    ("code_block_json", THINK + 'Here:\n```json\n{"name": "get_weather", "arguments": '
                        '{"city": "Paris", "days": 3}}\n```', PARIS),
    ("code_block_json", '```\n[{"name": "get_weather", "arguments": {"city": "Paris", '
                        '"days": 3}}, {"name": "math.factorial", "arguments": {"n": 4}}]\n```',
     TWO),
    ("native", '{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": '
               '"get_weather", "arguments": "{\\"city\\": \\"Paris\\", \\"days\\": 3}"}}]}',
     PARIS),
    ("native", '[{"type": "function", "function": {"name": "math.factorial", '
               '"arguments": {"n": 4}}}]', FACT),
    ("nl_intent_structured", THINK + "Use get_weather with city = Paris, days = 3.", PARIS),
    ("nl_intent_structured", "Plan:\n1. Use get_weather with city = \"Paris\", days = 3.\n"
                             "2. Use math.factorial with n = 4.", TWO),
    ("key_value_call", "Sure.\n\nTOOL: get_weather\ncity: Paris\ndays: 3\n\nThanks!", PARIS),
    ("key_value_call", "**Tool:** `get_weather`\n- city: Paris\n- days: 3\n\nTOOL: "
                       "math.factorial\nn: 4", TWO),
    ("yaml_call", "```yaml\nname: get_weather\narguments:\n  city: Paris\n  days: 3\n```",
     PARIS),
    ("yaml_call", THINK + "- name: get_weather\n  arguments: {city: Paris, days: 3}\n"
                  "- name: math.factorial\n  arguments:\n    n: 4\n", TWO),
    ("toml_call", "```toml\n[[call]]\nname = \"get_weather\"\n[call.arguments]\ncity = "
                  "\"Paris\"\ndays = 3\n```", PARIS),
    ("toml_call", "Here it is:\n[[call]]\nname = \"get_weather\"\narguments = { city = "
                  "\"Paris\", days = 3 }\n\nLet me know.", PARIS),
    ("pipe_call", "get_weather|city=Paris|days=3\nmath.factorial|n=4", TWO),
    ("pipe_call", THINK + "`get_weather|city=Paris|days=3`", PARIS),
    ("csv_call", "```csv\nget_weather,Paris,,3\nmath.factorial,4\n```", TWO),
    ("csv_call", "Answer:\nget_weather, \"Paris\", , 3", PARIS),
    ("table_call", "| tool | argument | value |\n|---|---|---|\n| get_weather | city | Paris |\n"
                   "| get_weather | days | 3 |", PARIS),
    ("table_call", THINK + "| Tool | Argument | Value |\n|:--|:--|:--|\n| get_weather | city | "
                   "Paris |\n|  | days | 3 |\n| math.factorial | n | 4 |", TWO),
    ("symbolic_call", "get_weather ★city§Paris ★days#3", PARIS),
    ("symbolic_call", THINK + "Here:\nget_weather ★ city § Paris ★ days # 3\nmath.factorial "
                      "★n#4", TWO),
    ("slot_fill_call", 'Filled:\n{"name": "get_weather", "arguments": {"city": "Paris", '
                       '"days": 3}}', PARIS),
    ("two_step_call", "get_weather\n{\"city\": \"Paris\",\n \"days\": 3}\n\n"
                      "math.factorial\n{\"n\": 4}", TWO),
    ("two_step_call", THINK + "**get_weather**\n{'city': 'Paris', 'days': 3}", PARIS),
    ("function_tags", "<function=get_weather>{\"city\": \"Paris\", \"days\": 3}</function>",
     PARIS),
    ("function_tags", THINK + "<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
                      "<parameter=days>\n3\n</parameter>\n</function>", PARIS),
    ("xml_generic_call", "Let me check.\n<call name=\"get_weather\">\n  <city>Paris</city>\n"
                         "  <days> 3 </days>\n</call>", PARIS),
    ("python_tag", "<|python_tag|>get_weather(city=\"Paris\", days=3)<|eom_id|>", PARIS),
    ("python_tag", '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris", '
                   '"days": 3}}', PARIS),
    ("react", "Thought: I need the weather.\nAction: get_weather\nAction Input: {\"city\": "
              "\"Paris\", \"days\": 3}\nObservation: 21C\nAction: math.factorial\n"
              "Action Input: {\"n\": 4}", PARIS),
    ("react", "Action: math.factorial\nAction Input: 4", FACT),
    ("bracket_call", "The weather in Paris is [get_weather(city=\"Paris\", days=3) → sunny].",
     PARIS),
    ("bracket_call", THINK + "I need [get_weather(city='Paris', days=3)] and "
                     "[math.factorial(n=4)].", TWO),
]


@pytest.mark.parametrize("protocol_id,reply,want", REAL,
                         ids=[f"{p}-{i}" for i, (p, _, _) in enumerate(REAL)])
def test_real_reply_shapes(protocol_id, reply, want):
    parsed = parse_reply(reply, TOOLS, protocol_id)
    assert parsed.parsed_strict and parsed.format_compliant, parsed.issues
    assert same_calls(parsed.calls, want), parsed.calls


def test_every_protocol_has_real_shapes():
    assert {p for p, _, _ in REAL} == set(MORE)


BROKEN = [
    ("python_list_call", "[get_weather(city='Paris', days=)]"),
    ("sql_call", "SELECT get_weather(city => 'Paris);"),
    ("graphql_call", "mutation { get_weather(city: $city) }"),
    ("sexpr_call", "(get_weather :city \"Paris\" oops)"),
    ("json_array", '[{"name": "get_weather", "arguments": {"city": "Paris"}'),
    ("jsonl_call", '{"name": "get_weather", "arguments": {"city": "Paris"}'),
    ("yaml_call", "name: get_weather\narguments: {city: [Paris}\n"),
    ("toml_call", "[[call]]\nname = get_weather\n"),
    ("pipe_call", "get_weather|Paris"),
    ("csv_call", "math.factorial,1,2"),
    ("symbolic_call", "get_weather ★days#three"),
    ("slot_fill_call", '{"name": "get_weather", "arguments": {"city": "<city>"}}'),
    ("two_step_call", "get_weather\n{\"city\": \"Paris\""),
    ("function_tags", "<function=get_weather>city is Paris</function>"),
    ("xml_generic_call", "<call><city>Paris</city></call>"),
    ("python_tag", "<|python_tag|>I am not sure<|eom_id|>"),
    ("react", "Action: get_weather\nAction Input: Paris and 3 days"),
    ("bracket_call", "[get_weather(city='Paris',,)]"),
]


@pytest.mark.parametrize("protocol_id,reply", BROKEN, ids=[p for p, _ in BROKEN])
def test_broken_markers_are_issues_not_calls(protocol_id, reply):
    with pytest.raises(ParseError):
        get_protocol(protocol_id).protocol.parse(reply, TOOLS)
    parsed = parse_reply(reply, TOOLS, protocol_id)
    assert not parsed.parsed_strict and not parsed.format_compliant and parsed.issues


def test_text_values_are_typed_from_the_schema():
    reply = "book_flight --route '{\"origin\": \"A\", \"destination\": \"B\"}' --passengers 2 " \
            "--refundable --tags '[\"x\"]' --price 10"
    assert same_calls(get_protocol("cli_call").protocol.parse(reply, TOOLS), [ToolCall(
        "book_flight", {"route": {"origin": "A", "destination": "B"}, "passengers": 2,
                        "refundable": True, "tags": ["x"], "price": 10})])
    url = "POST /book_flight?route.origin=A+B&route.destination=C&passengers=2&refundable=yes"
    assert same_calls(get_protocol("url_call").protocol.parse(url, TOOLS), [ToolCall(
        "book_flight", {"route": {"origin": "A B", "destination": "C"}, "passengers": 2,
                        "refundable": True})])


def test_yaml_aliases_and_tags_are_refused():
    bomb = "name: get_weather\narguments:\n  a: &a [x, x]\n  b: &b [*a, *a]\n  c: [*b, *b]\n"
    with pytest.raises(ParseError, match="alias"):
        get_protocol("yaml_call").protocol.parse(bomb, TOOLS)
    with pytest.raises(ParseError):
        get_protocol("yaml_call").protocol.parse(
            "name: get_weather\narguments: !!python/object/apply:os.system [ls]\n", TOOLS)
    dated = get_protocol("yaml_call").protocol.parse(
        "name: create_event\narguments: {event: {title: x, when: {date: 2024-05-01}}}", TOOLS)
    assert dated[0].arguments["event"]["when"]["date"] == "2024-05-01"


def test_xml_generic_entities_are_refused():
    reply = ('<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
             '<call name="get_weather"><city>&b;</city></call>')
    parsed = parse_reply(reply, TOOLS, "xml_generic_call")
    assert parsed.no_call and any("DTD" in i for i in parsed.issues)


def test_react_stops_at_the_observation_and_native_reads_string_arguments():
    assert len(get_protocol("react").protocol.parse(REAL[-4][1], TOOLS)) == 1
    text = get_protocol("native").protocol.write(TWO, TOOLS)
    assert isinstance(json.loads(text)["tool_calls"][1]["function"]["arguments"], str)


def test_deep_nesting_is_refused_not_crashing():
    deep = "[" * 5000 + "]" * 5000
    # a failed strict parse runs every registered parser, so each reply reaches all of them
    for pid, reply in [("cli_call", f"get_weather --city '{deep}'"),
                       ("sql_call", f"SELECT get_weather(city => ARRAY{deep})"),
                       ("graphql_call", f"mutation {{ get_weather(city: {deep}) }}"),
                       ("sexpr_call", f"(get_weather :city {deep})"),
                       ("toml_call", f"[[call]]\nname = \"x\"\n[call.arguments]\nk = {deep}"),
                       ("yaml_call", f"name: get_weather\narguments: {{city: {deep}}}")]:
        parsed = parse_reply(reply, TOOLS, pid)
        if pid != "cli_call":  # there the brackets are just text of a string parameter
            assert parsed.no_call and not parsed.format_compliant, pid
        assert not any("parser failed" in i for i in parsed.issues), (pid, parsed.issues)


# -- real replies of the local model, with their expected parse ----------------------------------
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "replies" / "local_model.jsonl"
FIXTURE_ROWS = [json.loads(line) for line in FIXTURES.read_text("utf-8").splitlines()]


def _fixture_toolset(dataset: str, request_id: str) -> Toolset:
    from toolform.datasets import load_dataset

    return next(r.toolset for r in load_dataset(dataset) if r.id == request_id)


def _typed_calls(calls: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    from test_protocols import typed

    return [(c["name"], typed(c["arguments"])) for c in calls]


def test_fixtures_cover_every_protocol():
    assert len(FIXTURE_ROWS) >= 60
    assert {r["protocol_id"] for r in FIXTURE_ROWS} == set(protocol_ids())
    assert sum(r["expected"]["parsed_strict"] for r in FIXTURE_ROWS) >= 20


@pytest.mark.parametrize("row", FIXTURE_ROWS, ids=[r["id"] for r in FIXTURE_ROWS])
def test_real_replies_parse_as_checked_by_eye(row):
    toolset = _fixture_toolset(row["dataset"], row["request_id"])
    want = row["expected"]
    strict = parse_reply(row["reply"], toolset, row["protocol_id"])
    lenient = parse_reply(row["reply"], toolset, row["protocol_id"], lenient_fallback=True)
    assert strict.parsed_strict == want["parsed_strict"], strict.issues
    assert strict.format_compliant == want["format_compliant"], strict.issues
    assert strict.lenient_protocol == want["lenient_protocol"], strict.issues
    assert _typed_calls([c.to_dict() for c in strict.calls_as_written]) == \
        _typed_calls(want["strict_calls"])
    assert _typed_calls([c.to_dict() for c in lenient.calls_as_written]) == \
        _typed_calls(want["lenient_calls"])
