"""The five crossing protocols and ``parse_reply``: round trips, real reply shapes, lenient
reading, hostile replies (fuzzing is in ``test_protocols_fuzz.py``)."""

from __future__ import annotations

import ast
import difflib
import json
import time
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolform.errors import GradingError, ParseError, UnknownProtocolError
from toolform.evidence import load_evidence
from toolform.ir import ParamIR, ToolCall, ToolIR, Toolset, TypeIR
from toolform.grading import select_calls
from toolform.protocols import get_protocol, parse_reply, protocol_ids
from toolform.protocols._limits import MAX_DEPTH
from toolform.protocols._loose_json import loads_loose
from toolform.protocols._names import resolve_name
from toolform.protocols._python import _may_warn
from toolform.protocols._renest import renest
from toolform.protocols._text import strip_think
from toolform.protocols._values import coerce_text

#: The protocols of the study's format x protocol crossing (its protocols table, in_crossing).
CROSSING = tuple(r["protocol_id"] for r in load_evidence("protocols").frame().to_dict("records")
                 if r["in_crossing"])
S = TypeIR("string")
UNIT = TypeIR("enum", values=("celsius", "fahrenheit"))

WEATHER = ToolIR("get_weather", "Current weather.", params=(
    ParamIR("city", S),
    ParamIR("unit", UNIT, required=False, default="celsius"),
    ParamIR("days", TypeIR("integer"), required=False, default=1),
))
FLIGHT = ToolIR("book_flight", params=(
    ParamIR("route", TypeIR("object", fields=(ParamIR("origin", S), ParamIR("destination", S)))),
    ParamIR("passengers", TypeIR("integer")),
    ParamIR("price", TypeIR("number"), required=False),
    ParamIR("refundable", TypeIR("boolean"), required=False, default=False),
    ParamIR("tags", TypeIR("array", items=S), required=False),
))
EVENT = ToolIR("create_event", params=(
    ParamIR("event", TypeIR("object", fields=(
        ParamIR("title", S),
        ParamIR("when", TypeIR("object", fields=(ParamIR("date", S),
                                                 ParamIR("hour", TypeIR("integer"))))),
    ))),
))
FACTORIAL = ToolIR("math.factorial", params=(ParamIR("n", TypeIR("integer")),))
PAGE = ToolIR("API-post-page", params=(
    ParamIR("title", S),
    ParamIR("user-id", TypeIR("integer"), required=False),
    ParamIR("properties", TypeIR("object"), required=False),
))
METEO = ToolIR("météo", params=(ParamIR("ville", S),))
CLOCK = ToolIR("get_time")
TOOLS = Toolset((WEATHER, FLIGHT, EVENT, FACTORIAL, PAGE, METEO, CLOCK))


def typed(value: Any) -> Any:
    """A value with its JSON type made explicit, so ``1 == 1.0 == True`` cannot hide a slip."""
    if isinstance(value, dict):
        return ("object", {k: typed(v) for k, v in value.items()})
    if isinstance(value, list):
        return ("array", [typed(v) for v in value])
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, int):
        return ("integer", value)
    if isinstance(value, float):
        return ("number", value)
    return (type(value).__name__, value)


def same_calls(got: list[ToolCall] | tuple[ToolCall, ...], want: list[ToolCall]) -> bool:
    return [(c.name, typed(dict(c.arguments))) for c in got] == \
        [(c.name, typed(dict(c.arguments))) for c in want]


def roundtrip(protocol_id: str, calls: list[ToolCall]) -> list[ToolCall]:
    protocol = get_protocol(protocol_id).protocol
    return protocol.parse(protocol.write(calls, TOOLS), TOOLS)


# -- registry metadata ---------------------------------------------------------------------------
def test_the_crossing_is_five_protocols_that_name_the_placeholders():
    assert sorted(CROSSING) == ["json_object", "nl_intent", "python_call", "tool_call_tags",
                                "xml_call"]
    for pid in CROSSING:
        assert "tool_name" in get_protocol(pid).instruction


# -- round trips ---------------------------------------------------------------------------------
HAND_CALLS = [
    [ToolCall("get_weather", {"city": "Paris", "unit": "fahrenheit", "days": 3})],
    [ToolCall("book_flight", {"route": {"origin": "JFK", "destination": "CDG"}, "passengers": 2,
                              "price": 199.99, "refundable": True, "tags": ["a", "b, c"]})],
    [ToolCall("create_event", {"event": {"title": "Stand-up", "when": {"date": "2024-05-01",
                                                                       "hour": 9}}})],
    [ToolCall("math.factorial", {"n": 5})],
    [ToolCall("API-post-page", {"title": 'Quote "x" & <y> ]]>', "user-id": 7,
                                "properties": {"k": [1, 2.5, None, True], "é": {}}})],
    [ToolCall("météo", {"ville": "Zürich – 東京 ✓ 🌧"})],
    [ToolCall("get_time", {})],
    [ToolCall("get_weather", {"city": "Paris"}), ToolCall("get_weather", {"city": "Tokyo"}),
     ToolCall("math.factorial", {"n": -3})],
    [ToolCall("get_weather", {"city": 'I will use get_weather with city = "x". Then (a, b)',
                              "unit": "celsius"})],
    [ToolCall("get_weather", {"city": "line one\nline two\ttab\r\n  ", "days": 0})],
    [ToolCall("book_flight", {"passengers": 1, "route": {"origin": "", "destination": " "},
                              "price": 1e-05, "tags": []})],
]


@pytest.mark.parametrize("protocol_id", CROSSING)
@pytest.mark.parametrize("calls", HAND_CALLS, ids=lambda c: c[0].name)
def test_round_trip_hand_calls(protocol_id, calls):
    assert same_calls(roundtrip(protocol_id, calls), calls)


@pytest.mark.parametrize("protocol_id", CROSSING)
def test_empty_list_writes_an_abstention_nobody_reads(protocol_id):
    text = get_protocol(protocol_id).protocol.write([], TOOLS)
    parsed = parse_reply(text, TOOLS, protocol_id)
    assert parsed.no_call and parsed.format_compliant and not parsed.parsed_lenient


def test_written_shapes_are_the_documented_ones():
    call = [ToolCall("get_weather", {"city": "Paris", "days": 2})]
    write = {p: get_protocol(p).protocol.write(call, TOOLS) for p in CROSSING}
    assert json.loads(write["json_object"]) == {"name": "get_weather",
                                                "arguments": {"city": "Paris", "days": 2}}
    assert write["tool_call_tags"] == ('<tool_call>{"name": "get_weather", "arguments": '
                                       '{"city": "Paris", "days": 2}}</tool_call>')
    assert write["python_call"] == "get_weather(city='Paris', days=2)"
    assert write["nl_intent"] == 'I will use get_weather with city = "Paris" and days = 2.'
    assert '<invoke name="get_weather">' in write["xml_call"]
    assert '<parameter name="days">2</parameter>' in write["xml_call"]
    page = get_protocol("python_call").protocol.write(
        [ToolCall("API-post-page", {"title": "t", "user-id": 1})], TOOLS)
    assert page == "call('API-post-page', title='t', **{'user-id': 1})"


# hypothesis: calls generated from the schemas
_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
_XML_TEXT = st.text(st.characters(exclude_categories=("Cs", "Cc", "Cn"),
                                  include_characters="\n\t\r"), max_size=12)


def values_for(t: TypeIR, text: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    if t.kind == "string":
        return text
    if t.kind == "integer":
        return st.integers(-10**15, 10**15)
    if t.kind == "number":
        return st.floats(allow_nan=False, allow_infinity=False) | st.integers(-999, 999)
    if t.kind == "boolean":
        return st.booleans()
    if t.kind == "enum":
        return st.sampled_from(t.values)
    if t.kind == "array":
        return st.lists(values_for(t.items or S, text), max_size=3)
    if t.kind == "object" and not t.fields:
        return st.dictionaries(text, st.integers() | text | st.booleans() | st.none(),
                               max_size=3)
    return arguments_for(t.fields, text)


def arguments_for(params, text) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {p.name: values_for(p.type, text) for p in params if p.required},
        optional={p.name: values_for(p.type, text) for p in params if not p.required})


def calls_strategy(text):
    one = st.sampled_from(TOOLS.tools).flatmap(
        lambda tool: arguments_for(tool.params, text).map(lambda a: ToolCall(tool.name, a)))
    return st.lists(one, min_size=1, max_size=3)


@pytest.mark.parametrize("protocol_id", [p for p in CROSSING if p != "xml_call"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=calls_strategy(_TEXT))
def test_round_trip_generated(protocol_id, calls):
    assert same_calls(roundtrip(protocol_id, calls), calls)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=calls_strategy(_XML_TEXT))
def test_round_trip_generated_xml(calls):
    assert same_calls(roundtrip("xml_call", calls), calls)


# -- real reply shapes -----------------------------------------------------------------------------
PARIS = [ToolCall("get_weather", {"city": "Paris", "days": 3})]
REAL = [
    ("json_object", 'Sure!\n```json\n{"name": "get_weather", "arguments": {"city": "Paris", '
                    '"days": 3}}\n```\nLet me know.', PARIS),
    ("json_object", "<think>I could call {\"name\": \"get_time\"}</think>"
                    "{'name': 'get_weather', 'arguments': {'city': 'Paris', 'days': 3,},}", PARIS),
    ("json_object", '{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\", '
                    '\\"days\\": 3}"}', PARIS),
    ("json_object", '{"function": {"name": "get_weather", "parameters": {"city": "Paris", '
                    '"days": 3}}}', PARIS),
    ("json_object", "[{'name': 'get_time', 'arguments': None}, {'name': 'math.factorial', "
                    "'arguments': {'n': 4}}]",
     [ToolCall("get_time", {}), ToolCall("math.factorial", {"n": 4})]),
    ("tool_call_tags", "Checking.\n<tool_call>\n```json\n{\"name\": \"get_weather\", "
                       "\"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n```\n</tool_call>",
     PARIS),
    ("tool_call_tags", '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>\n'
                       "<tool_call>{'name': 'get_weather', 'arguments': {'city': 'Paris', "
                       "'days': 3}}",  # the last closing tag was a stop sequence
     [ToolCall("get_time", {}), *PARIS]),
    ("python_call", "I'll look it up.\n```python\nget_weather(city=\"Paris\", days=3)\n```", PARIS),
    ("python_call", "<think>maybe get_time()</think>Calling get_weather('Paris', days=3) now.",
     PARIS),
    ("python_call", "result = math.factorial(n=4)\nprint(result)",
     [ToolCall("math.factorial", {"n": 4})]),
    ("python_call", "get_weather(city='Paris', days=3, unit=None)\nbook_flight(route={'origin': "
                    "'A', 'destination': 'B'}, passengers=1, refundable=true)",
     [ToolCall("get_weather", {"city": "Paris", "days": 3, "unit": None}),
      ToolCall("book_flight", {"route": {"origin": "A", "destination": "B"}, "passengers": 1,
                               "refundable": True})]),
    ("xml_call", "Let me check.\n<function_calls>\n<invoke name=\"get_weather\">\n"
                 "<parameter name=\"city\">Paris</parameter>\n<parameter name=\"days\"> 3 "
                 "</parameter>\n</invoke>\n", PARIS),  # closing tag eaten by a stop sequence
    ("xml_call", '<function_calls><invoke name="book_flight"><parameter name="route">'
                 '<origin>A & B</origin><destination>x < y</destination></parameter>'
                 '<parameter name="passengers">2</parameter><parameter name="refundable">'
                 'True</parameter><parameter name="tags">["a"]</parameter></invoke>'
                 '</function_calls>',
     [ToolCall("book_flight", {"route": {"origin": "A & B", "destination": "x < y"},
                               "passengers": 2, "refundable": True, "tags": ["a"]})]),
    ("nl_intent", "<think>use get_time?</think>I'll call the `get_weather` tool with the city "
                  "set to Paris and days set to 3.", PARIS),
    ("nl_intent", "First I will use get_weather with city: 'Paris', days = 3, then I will "
                  "invoke math.factorial with n = 4.",
     [*PARIS, ToolCall("math.factorial", {"n": 4})]),
    ("nl_intent", "I will use get_time.", [ToolCall("get_time", {})]),
    ("nl_intent", "I will use get_weather with the following parameters:\n- city: Paris\n"
                  "- days: 3\n\nThat is all.", PARIS),
    ("xml_call", '<function_calls><invoke name="book_flight"><parameter name="route">{"origin":'
                 ' "A", "destination": "B"}</parameter><parameter name="passengers">1'
                 '</parameter><parameter name="tags"><item>a</item><item>b</item></parameter>'
                 '</invoke></function_calls>',
     [ToolCall("book_flight", {"route": {"origin": "A", "destination": "B"}, "passengers": 1,
                               "tags": ["a", "b"]})]),
]


@pytest.mark.parametrize("protocol_id,reply,expected", REAL,
                         ids=[f"{p}-{i}" for i, (p, _, _) in enumerate(REAL)])
def test_real_reply_shapes(protocol_id, reply, expected):
    parsed = parse_reply(reply, TOOLS, protocol_id)
    assert parsed.parsed_strict and parsed.format_compliant, parsed.issues
    assert same_calls(parsed.calls, expected)


def test_think_block_is_removed_and_reported():
    assert strip_think("<think>a</think>b<THINKING>c</thinking>d") == ("bd", True)
    assert strip_think("reasoning</think>answer") == ("answer", True)
    assert strip_think("answer<think>never closed") == ("answer", True)
    assert strip_think("plain") == ("plain", False)
    parsed = parse_reply("<think>get_time()</think>No call needed.", TOOLS, "python_call")
    assert parsed.no_call and parsed.format_compliant
    assert any("think" in i for i in parsed.issues)


def test_tolerant_json_reader():
    assert loads_loose("{'a': True, 'b': None, 'c': [1, 2,],}") == {"a": True, "b": None,
                                                                   "c": [1, 2]}
    assert loads_loose('{a: "x\\ty", // note\n "b": -1.5e2}') == {"a": "x\ty", "b": -150.0}
    for bad in ("{'a': }", "[1 2]", "{'a': NaN}", "", "[" * (MAX_DEPTH + 5) + "]" *
                (MAX_DEPTH + 5)):
        with pytest.raises(ParseError):
            loads_loose(bad)


def test_coercion_by_schema():
    assert coerce_text(" 5 ", TypeIR("integer")) == 5
    assert coerce_text("5.0", TypeIR("integer")) == 5
    assert coerce_text("5.5", TypeIR("integer")) == "5.5"  # left for the grader to reject
    assert coerce_text("2.5", TypeIR("number")) == 2.5
    assert coerce_text("Yes", TypeIR("boolean")) is True
    assert coerce_text(" 5 ", S) == " 5 "
    assert coerce_text("null", TypeIR("integer", nullable=True)) is None
    assert coerce_text('{"a": 1}', TypeIR("object")) == {"a": 1}
    assert coerce_text("a, b", TypeIR("array", items=S)) == ["a", "b"]
    assert coerce_text("7", TypeIR("union", options=(S, TypeIR("integer")))) == 7
    assert coerce_text("seven", TypeIR("union", options=(S, TypeIR("integer")))) == "seven"
    assert coerce_text("7", None) == "7" and coerce_text("[7]", None) == [7]


def test_name_resolution_levels():
    assert resolve_name("get_weather", TOOLS) == ("get_weather", None)
    assert resolve_name("GET_WEATHER", TOOLS) == ("get_weather", "case")
    assert resolve_name("get-weather", TOOLS) == ("get_weather", "separator")
    assert resolve_name("getWeather", TOOLS) == ("get_weather", "separator")
    assert resolve_name("math_factorial", TOOLS) == ("math.factorial", "separator")
    assert resolve_name("get_wether", TOOLS) == ("get_weather", "nearest")
    assert resolve_name("get_wether", TOOLS, nearest=False) == ("get_wether", None)
    assert resolve_name("search_web", TOOLS) == ("search_web", None)


def _nearest_by_difflib(name: str, names: list[str]) -> str | None:
    """The nearest step as difflib says it: the first name of the highest ratio >= 0.85."""
    best, best_ratio = None, 0.0
    for n in names:
        r = difflib.SequenceMatcher(None, name, n, autojunk=False).ratio()
        if r >= 0.85 and r > best_ratio:
            best, best_ratio = n, r
    return best


_NAME_CHARS = st.text("abcdeAB_-. ", min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(_NAME_CHARS, min_size=1, max_size=6, unique=True), _NAME_CHARS)
def test_nearest_name_is_difflibs_nearest(names, name):
    # the nearest step skips names by difflib's ratio bounds without building a matcher
    tools = Toolset(tuple(ToolIR(name=n) for n in names))
    got, how = resolve_name(name, tools)
    folded = [n for n in names if n.casefold() == name.casefold()]
    if name in names or len(folded) == 1 or how == "separator":
        return
    assert (got if how == "nearest" else None) == _nearest_by_difflib(name, names)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["f(", ")", "x=1", "'a'", "1", "0x1f", "if", "or", "in", " ",
                                 "\n", "\\", "\\d", "1.5", "1j", "_", "é", "٣", "b'x'",
                                 "f'{x}'", ",", "2.", "."]), max_size=10).map("".join))
def test_python_sources_read_without_catching_warnings_do_not_warn(source):
    # py_parse_source catches warnings only where Python's parser can warn
    if _may_warn(source):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            ast.parse(source)
        except SyntaxError:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with pytest.raises(SyntaxError):  # a real syntax error, not a warning raised
                    ast.parse(source)


def test_a_number_run_into_a_word_warns_nothing():
    # found by the long fuzz: "5.info(" reached Python's parser unguarded and printed a
    # SyntaxWarning ("invalid decimal literal") from inside parse_reply
    # (recorded, not raised: a warning raised as an error would read as a syntax error)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for reply in ('I will use find_restaurants with param_name = "Manhattan" and '
                      "other_param = 5.info(case_number='XYZ123', year=2023)",
                      "f(x=1if 2 else 3)"):
            parse_reply(reply, TOOLS, "python_call", lenient_fallback=True)
    assert [str(w.message) for w in caught] == []


def test_names_are_resolved_and_reported():
    reply = ('[{"name": "Get-Weather", "arguments": {"city": "A"}}, '
             '{"name": "get_wether", "arguments": {"city": "B"}}, '
             '{"name": "search_web", "arguments": {"q": "C"}}]')
    parsed = parse_reply(reply, TOOLS, "json_object")
    assert [c.name for c in parsed.calls] == ["get_weather", "get_weather", "search_web"]
    assert [c.name for c in parsed.calls_as_written] == ["Get-Weather", "get_wether",
                                                        "search_web"]
    assert parsed.resolved_names == (("Get-Weather", "get_weather", "separator"),
                                     ("get_wether", "get_weather", "nearest"))
    assert sum("read as" in i for i in parsed.issues) == 2
    assert parsed.name_resolutions == ("separator", "nearest", None)
    assert [c.name for c in select_calls(parsed, "as_written")] == ["Get-Weather", "get_wether",
                                                                    "search_web"]
    # the grader never takes a nearest name: that call keeps its name as written
    assert [c.name for c in select_calls(parsed, "main")] == ["get_weather", "get_wether",
                                                              "search_web"]
    with pytest.warns(DeprecationWarning, match="parse_reply"):
        as_written = parse_reply(reply, TOOLS, "json_object", rule="as_written")
    assert [c.name for c in as_written.calls] == ["Get-Weather", "get_wether", "search_web"]


# -- re-nesting ------------------------------------------------------------------------------------
def test_renest_moves_flat_fields_one_and_two_levels_down():
    args, moves = renest({"origin": "A", "destination": "B", "passengers": 2}, FLIGHT.params)
    assert args == {"passengers": 2, "route": {"origin": "A", "destination": "B"}}
    assert [(m.path, m.keys) for m in moves] == [("route", ("origin", "destination"))]
    args, _ = renest({"title": "T", "date": "D", "hour": "9"}, EVENT.params, coerce=True)
    assert args == {"event": {"title": "T", "when": {"date": "D", "hour": 9}}}
    args, moves = renest({"event": {"title": "T", "date": "D"}}, EVENT.params)
    assert args == {"event": {"title": "T", "when": {"date": "D"}}} and moves
    # the object parameter is present: nothing moves
    args, moves = renest({"route": {"origin": "A"}, "destination": "B"}, FLIGHT.params)
    assert args == {"route": {"origin": "A"}, "destination": "B"} and not moves


FLAT_XML = ('<function_calls><invoke name="book_flight"><parameter name="origin">A</parameter>'
            '<parameter name="destination">B</parameter><parameter name="passengers">2'
            '</parameter></invoke></function_calls>')
FLAT_JSON = ('{"name": "book_flight", "arguments": {"origin": "A", "destination": "B", '
             '"passengers": 2}}')
NESTED = {"route": {"origin": "A", "destination": "B"}, "passengers": 2}
FLAT = {"origin": "A", "destination": "B", "passengers": 2}


@pytest.mark.parametrize("reply,protocol_id,rule,expected", [
    (FLAT_XML, "xml_call", "main", NESTED),
    (FLAT_XML, "xml_call", "symmetric", NESTED),
    (FLAT_XML, "xml_call", "as_written", FLAT),
    (FLAT_JSON, "json_object", "main", FLAT),
    (FLAT_JSON, "json_object", "symmetric", NESTED),
    (FLAT_JSON, "json_object", "as_written", FLAT),
])
def test_renesting_follows_the_rule(reply, protocol_id, rule, expected):
    parsed = parse_reply(reply, TOOLS, protocol_id)
    assert select_calls(parsed, rule)[0].arguments == expected
    assert parsed.calls_as_written[0].arguments == FLAT
    assert parsed.calls_renested[0].arguments == NESTED
    assert parsed.renested
    # the deprecated spelling gives the same calls for one release
    with pytest.warns(DeprecationWarning):
        assert parse_reply(reply, TOOLS, protocol_id, rule=rule).calls[0].arguments == expected


def test_the_old_rule_names_of_the_parser_forward_to_grading():
    from toolform.grading import RULES, select_repaired
    from toolform.protocols import _parse

    with pytest.warns(DeprecationWarning, match="toolform.grading.RULES"):
        assert _parse.RULES is RULES
    with pytest.warns(DeprecationWarning, match="select_repaired"):
        assert _parse.select_calls is select_repaired


def test_nl_renesting_types_moved_values():
    parsed = parse_reply("I will use create_event with title = Demo, date = 2024-01-02 and "
                         "hour = 10.", TOOLS, "nl_intent")
    assert same_calls(parsed.calls, [ToolCall("create_event", {"event": {
        "title": "Demo", "when": {"date": "2024-01-02", "hour": 10}}})])


# -- lenient reading -------------------------------------------------------------------------------
@pytest.mark.parametrize("asked", CROSSING)
@pytest.mark.parametrize("used", CROSSING)
def test_another_protocols_shape_is_read_leniently(asked, used):
    reply = get_protocol(used).protocol.write(PARIS, TOOLS)
    parsed = parse_reply(reply, TOOLS, asked)
    if asked == used:
        assert parsed.parsed_strict and parsed.format_compliant
        return
    assert not parsed.parsed_strict and parsed.parsed_lenient
    assert parsed.lenient_protocol == used and not parsed.format_compliant
    assert parsed.no_call and not parsed.lenient_taken
    taken = parse_reply(reply, TOOLS, asked, lenient_fallback=True)
    assert taken.lenient_taken and same_calls(taken.calls, PARIS)
    assert not taken.format_compliant


def test_lenient_order_is_the_registry_order():
    assert protocol_ids()[:5] == ["json_object", "tool_call_tags", "nl_intent", "python_call",
                                  "xml_call"]


def test_broken_markers_are_not_compliant():
    for reply, pid in [('{"name": "get_weather", "arguments": {"city": "Paris"', "json_object"),
                       ("<tool_call>get_weather please</tool_call>", "tool_call_tags"),
                       ("<function_calls><invoke name='get_weather'><parameter>x</parameter>"
                        "</invoke></function_calls>", "xml_call"),
                       ("get_weather(city=Paris)", "python_call")]:
        parsed = parse_reply(reply, TOOLS, pid)
        assert parsed.no_call and not parsed.format_compliant and parsed.issues, reply


def test_plain_text_abstention_is_compliant():
    for pid in CROSSING:
        parsed = parse_reply("The capital of France is Paris.", TOOLS, pid)
        assert parsed.no_call and parsed.format_compliant and not parsed.parsed_lenient
        assert parsed.lenient_protocol is None


def test_nl_negation_and_code_are_not_intents():
    for reply in ("I don't need to use get_weather for this.",
                  "I can answer without calling get_time.",
                  "I would use get_weather(city='Paris')."):
        assert parse_reply(reply, TOOLS, "nl_intent").no_call


# -- reply objects, errors ---------------------------------------------------------------------------
def test_message_dicts_and_objects():
    msg = {"role": "assistant", "content": [{"type": "text", "text": "get_time()"}]}
    assert parse_reply(msg, TOOLS, "python_call").calls == (ToolCall("get_time", {}),)
    native = {"content": None, "tool_calls": [{"id": "1", "function": {"name": "get_time"}}]}
    parsed = parse_reply(native, TOOLS, "json_object")
    assert parsed.no_call and not parsed.format_compliant
    assert any("native" in i for i in parsed.issues)

    class Message:
        content = 'I will use get_weather with city = "Paris" and days = 3.'
        tool_calls = None

    assert same_calls(parse_reply(Message(), TOOLS, "nl_intent").calls, PARIS)
    for odd in (None, 42, b"bytes", object()):
        parsed = parse_reply(odd, TOOLS, "xml_call")
        assert parsed.no_call and parsed.issues


def test_caller_errors_raise():
    with pytest.raises(UnknownProtocolError):
        parse_reply("x", TOOLS, "json_objekt")
    with pytest.raises(GradingError):
        with pytest.warns(DeprecationWarning):
            parse_reply("x", TOOLS, "json_object", rule="lenient")


def test_to_dict_is_json_ready():
    parsed = parse_reply(FLAT_XML, TOOLS, "xml_call")
    data = json.loads(json.dumps(parsed.to_dict()))
    assert data["calls"][0] == {"name": "book_flight", "arguments": NESTED}
    assert data["renested"] is True and data["rule"] == "main"
    assert set(data) == set(parsed.__dataclass_fields__) | {"calls"}


# -- hostile replies -------------------------------------------------------------------------------
BILLION_LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
                  + "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10}">'
                            for i in range(2, 10)).replace("&lol1;", "&lol;")
                  + ']><function_calls><invoke name="get_weather"><parameter name="city">'
                  '&lol9;</parameter></invoke></function_calls>')
EXTERNAL = ('<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><function_calls>'
            '<invoke name="get_weather"><parameter name="city">&xxe;</parameter></invoke>'
            '</function_calls>')
INLINE_ENTITY = ('<function_calls><!DOCTYPE x [<!ENTITY a "b">]><invoke name="get_weather">'
                 '<parameter name="city">&a;</parameter></invoke></function_calls>')


@pytest.mark.parametrize("reply", [BILLION_LAUGHS, EXTERNAL, INLINE_ENTITY])
def test_xml_entities_are_refused_not_expanded(reply):
    with pytest.raises(ParseError):
        get_protocol("xml_call").protocol.parse(reply, TOOLS)
    parsed = parse_reply(reply, TOOLS, "xml_call")
    assert parsed.no_call and not parsed.format_compliant
    assert "lol" * 10 not in repr(parsed) and "root:" not in repr(parsed)


HOSTILE = {
    "two_mb": "{" * 2_000_000,
    "deep_brackets": "[" * 10_000 + "]" * 10_000,
    "deep_call": '{"name": "get_weather", "arguments": {"city": ' + "[" * 10_000 + "]" * 10_000
                 + "}}",
    "deep_parens": "get_weather(city=" + "(" * 10_000 + "1" + ")" * 10_000 + ")",
    "deep_xml": '<function_calls><invoke name="get_weather"><parameter name="city">'
                + "<a>" * 10_000 + "</a>" * 10_000 + "</parameter></invoke></function_calls>",
    "nul_bytes": '<function_calls>\x00<invoke name="get_weather">\x00</invoke>\x00'
                 '{"name": "get_time\x00", "arguments": {}}\x00get_time(\x00)',
    "unicode": "".join(chr(c) for c in range(0, 0x3000, 7)),
    "huge_int": '{"name": "math.factorial", "arguments": {"n": ' + "9" * 5000 + "}}",
    "many_tags": "<tool_call>" * 20_000,
    "many_blocks": "<function_calls>" * 20_000,
    "lone_surrogate": 'get_weather(city="\ud800")',
}


@pytest.mark.parametrize("protocol_id", CROSSING)
@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_replies_never_raise(protocol_id, name):
    parsed = parse_reply(HOSTILE[name], TOOLS, protocol_id, lenient_fallback=True)
    assert isinstance(parsed.calls, tuple)
    if name == "two_mb":
        assert parsed.no_call and not parsed.format_compliant
        assert any("cap" in i for i in parsed.issues)
    if name == "deep_xml":
        # a string is text, never markup: the nested tags are the city's text, as written
        # (read by xml_call, leniently under the other protocols)
        assert parsed.calls == (ToolCall("get_weather", {"city": "<a>" * 10_000
                                                         + "</a>" * 10_000}),)
    elif name in ("deep_brackets", "deep_call", "deep_parens", "deep_xml"):
        assert parsed.no_call


def test_ten_megabyte_reply_returns_fast():
    reply = '{"name": "get_weather", "arguments": {"city": "Paris"}} ' * 180_000
    assert len(reply) > 10_000_000
    start = time.perf_counter()
    parsed = parse_reply(reply, TOOLS, "json_object")
    assert time.perf_counter() - start < 1.0
    assert parsed.no_call and any("cap" in i for i in parsed.issues)
