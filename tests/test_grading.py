"""Grading: a hand-checked case for each numbered point of ``toolform.grading`` and for each
of the three rules."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolform.errors import GradingError, SchemaValidatorError
from toolform.grading import (RULES, ArgumentProblem, Verdict, call_schema_valid, grade,
                              grade_all, schema_check, validate_arguments)
from toolform.grading._grade import _validator, _written_alike
from toolform.ir import GoldCall, ParamIR, ToolCall, ToolIR, Toolset, TypeIR
from toolform.protocols import parse_reply

S = TypeIR("string")
CABIN = TypeIR("enum", values=("economy", "business"))
TOOLS = Toolset((
    ToolIR("get_weather", params=(
        ParamIR("city", S),
        ParamIR("unit", TypeIR("enum", values=("celsius", "fahrenheit")), required=False,
                default="celsius"),
        ParamIR("days", TypeIR("integer"), required=False, default=1),
    )),
    ToolIR("book_flight", params=(
        ParamIR("route", TypeIR("object", fields=(
            ParamIR("origin", S), ParamIR("destination", S),
            ParamIR("cabin", CABIN, required=False, default="economy")))),
        ParamIR("passengers", TypeIR("integer")),
        ParamIR("price", TypeIR("number"), required=False),
        ParamIR("refundable", TypeIR("boolean"), required=False),
        ParamIR("tags", TypeIR("array", items=S), required=False),
    )),
    ToolIR("get_time"),
))
PARIS = GoldCall("get_weather", {"city": ("Paris",)})


def verdicts(reply: str, protocol_id: str, gold) -> dict[str, bool]:
    return {rule: v.correct for rule, v in grade_all(reply, TOOLS, protocol_id, gold).items()}


def json_call(name: str, **arguments) -> str:
    return json.dumps({"name": name, "arguments": arguments})


ALL_RIGHT = {"main": True, "symmetric": True, "as_written": True}
ALL_WRONG = {"main": False, "symmetric": False, "as_written": False}


# (1) tool names -----------------------------------------------------------------------------------
@pytest.mark.parametrize("written", ["Get_Weather", "get-weather", "GetWeather"])
def test_1_case_and_separator_names_pass_main_and_symmetric_only(written):
    result = grade_all(json_call(written, city="Paris"), TOOLS, "json_object", [PARIS])
    assert {r: v.correct for r, v in result.items()} == {"main": True, "symmetric": True,
                                                         "as_written": False}
    assert result["as_written"] == Verdict(
        False, False, False, f"wrong tool: expected get_weather, got {written}",
        f"{written}: no tool of that name in the toolset")


def test_1_nearest_name_is_never_accepted():
    reply = json_call("get_wether", city="Paris")
    parsed = parse_reply(reply, TOOLS, "json_object")
    assert parsed.calls[0].name == "get_weather"  # resolved and reported by the parser...
    assert parsed.resolved_names == (("get_wether", "get_weather", "nearest"),)
    for rule in RULES:  # ...but no rule grades it right
        verdict = grade(parsed, [PARIS], TOOLS, rule)
        assert not verdict.correct and not verdict.tool_correct
        assert verdict.reason == "wrong tool: expected get_weather, got get_wether"


# (2) types ----------------------------------------------------------------------------------------
def test_2_typed_protocol_writing_text_for_an_integer_is_wrong():
    gold = [GoldCall("get_weather", {"city": ("Paris",), "days": (5,)})]
    result = grade_all(json_call("get_weather", city="Paris", days="5"), TOOLS,
                       "json_object", gold)
    assert {r: v.correct for r, v in result.items()} == ALL_WRONG
    assert result["main"].reason == "wrong value for days: '5' not in [5]"
    assert not result["main"].schema_valid and result["main"].tool_correct
    python = 'get_weather(city="Paris", days="5")'
    assert verdicts(python, "python_call", gold) == ALL_WRONG


def test_2_text_protocols_type_values_in_the_parser():
    gold = [GoldCall("get_weather", {"city": ("Paris",), "days": (5,)})]
    xml = ('<function_calls><invoke name="get_weather"><parameter name="city">Paris'
           '</parameter><parameter name="days">5</parameter></invoke></function_calls>')
    assert verdicts(xml, "xml_call", gold) == ALL_RIGHT
    nl = "I will use get_weather with city = Paris and days = 5."
    assert verdicts(nl, "nl_intent", gold) == ALL_RIGHT


# (3) strings ------------------------------------------------------------------------------------------
def test_3_enum_values_ignore_case_other_strings_do_not():
    gold = [GoldCall("get_weather", {"city": ("Paris",), "unit": ("fahrenheit",)})]
    assert grade([ToolCall("get_weather", {"city": "Paris", "unit": "Fahrenheit"})], gold,
                 TOOLS).correct
    verdict = grade([ToolCall("get_weather", {"city": "paris", "unit": "fahrenheit"})], gold,
                    TOOLS)
    assert not verdict.correct
    assert verdict.reason == "wrong value for city: 'paris' not in ['Paris']"
    verdict = grade([ToolCall("get_weather", {"city": "Paris", "unit": "F"})], gold, TOOLS)
    assert verdict.reason == "wrong value for unit: 'F' not in ['fahrenheit']"
    assert not verdict.schema_valid


# (4) numbers ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("given,expected,correct", [
    (5.0, 5, True),  # int and float by value
    (5, 5.0, True),
    (199.99000001, 199.99, True),  # relative difference 5e-11
    (199.99, 199.9901, True),  # relative difference 5.0e-7, inside 1e-6
    (200.0, 199.99, False),
    (True, 1, False),  # a boolean is not a number
])
def test_4_numbers(given, expected, correct):
    gold = [GoldCall("book_flight", {"route": ({"origin": "A", "destination": "B"},),
                                     "passengers": (2,), "price": (expected,)})]
    call = ToolCall("book_flight", {"route": {"origin": "A", "destination": "B"},
                                    "passengers": 2, "price": given})
    assert grade([call], gold, TOOLS).correct is correct


def test_4_tolerance_edge():
    gold = [GoldCall("book_flight", {"route": ({"origin": "A", "destination": "B"},),
                                     "passengers": (2,), "price": (100.0,)})]
    base = {"route": {"origin": "A", "destination": "B"}, "passengers": 2}
    assert grade([ToolCall("book_flight", {**base, "price": 100.00009})], gold, TOOLS).correct
    assert not grade([ToolCall("book_flight", {**base, "price": 100.0002})], gold,
                     TOOLS).correct


# (5) omissions --------------------------------------------------------------------------------------
def test_5_absent_argument_matches_a_gold_default_or_may_omit():
    gold_default = [GoldCall("get_weather", {"city": ("Paris",), "unit": ("celsius",)})]
    assert grade([ToolCall("get_weather", {"city": "Paris"})], gold_default, TOOLS).correct
    gold_omit = [GoldCall("get_weather", {"city": ("Paris",), "days": (3,)},
                          may_omit=("days",))]
    assert grade([ToolCall("get_weather", {"city": "Paris"})], gold_omit, TOOLS).correct
    assert grade([ToolCall("get_weather", {"city": "Paris", "days": 3})], gold_omit,
                 TOOLS).correct
    assert not grade([ToolCall("get_weather", {"city": "Paris", "days": 4})], gold_omit,
                     TOOLS).correct
    gold_days = [GoldCall("get_weather", {"city": ("Paris",), "days": (3,)})]
    verdict = grade([ToolCall("get_weather", {"city": "Paris"})], gold_days, TOOLS)
    assert verdict.reason == "missing argument days"
    verdict = grade([ToolCall("get_weather", {"days": 3})], gold_days, TOOLS)
    assert verdict.reason == "missing required argument city" and not verdict.schema_valid


def test_5_explicit_default_matches_a_gold_that_omits_it():
    call = ToolCall("get_weather", {"city": "Paris", "unit": "celsius", "days": 1})
    assert grade([call], [PARIS], TOOLS).correct


# (6) extras -----------------------------------------------------------------------------------------
def test_6_extra_arguments():
    verdict = grade([ToolCall("get_weather", {"city": "Paris", "days": 2})], [PARIS], TOOLS)
    assert verdict.reason == "unexpected argument days = 2" and verdict.schema_valid
    verdict = grade([ToolCall("get_weather", {"city": "Paris", "country": "FR"})], [PARIS],
                    TOOLS)
    assert verdict.reason == "argument country is not in the schema"


# (7) parallel calls -----------------------------------------------------------------------------------
def test_7_parallel_calls_match_as_a_multiset():
    tokyo = GoldCall("get_weather", {"city": ("Tokyo",)})
    reply = [ToolCall("get_weather", {"city": "Tokyo"}), ToolCall("get_weather",
                                                                  {"city": "Paris"})]
    assert grade(reply, [PARIS, tokyo], TOOLS).correct
    twice = [ToolCall("get_weather", {"city": "Paris"})] * 2
    verdict = grade(twice, [PARIS, tokyo], TOOLS)
    assert not verdict.correct and verdict.tool_correct
    assert verdict.reason == "wrong value for city: 'Paris' not in ['Tokyo']"
    assert grade(twice[:1], [PARIS, tokyo], TOOLS).reason == "expected 2 calls, got 1"
    # a gold call that accepts either city must not take the only Tokyo call from its twin
    either = GoldCall("get_weather", {"city": ("Paris", "Tokyo")})
    assert grade(reply, [either, tokyo], TOOLS).correct
    mixed = [ToolCall("get_time", {}), ToolCall("get_weather", {"city": "Paris"})]
    assert grade(mixed, [PARIS, GoldCall("get_time")], TOOLS).correct


# (8) no call ---------------------------------------------------------------------------------------
def test_8_no_call_when_none_is_expected():
    for protocol_id in ("xml_call", "nl_intent", "json_object", "python_call",
                        "tool_call_tags"):
        assert verdicts("Paris is the capital of France.", protocol_id, []) == ALL_RIGHT
    verdict = grade([ToolCall("get_time", {})], [], TOOLS)
    assert verdict == Verdict(False, False, True, "expected no call, got 1", "")
    assert grade([], [PARIS], TOOLS).reason == "expected 1 call, got none"


# (9) nested objects and arrays -----------------------------------------------------------------------
def test_9_nested_objects_and_arrays():
    gold = [GoldCall("book_flight", {"route": ({"origin": "A", "destination": "B"},),
                                     "passengers": (2,), "tags": (["x", "y"],)})]

    def call(route, tags=("x", "y")):
        return [ToolCall("book_flight", {"route": route, "passengers": 2, "tags": list(tags)})]

    assert grade(call({"origin": "A", "destination": "B"}), gold, TOOLS).correct
    # a nested field equal to its default, and a nested enum in another case
    assert grade(call({"origin": "A", "destination": "B", "cabin": "ECONOMY"}), gold,
                 TOOLS).correct
    assert not grade(call({"origin": "A", "destination": "B", "cabin": "business"}), gold,
                     TOOLS).correct
    assert not grade(call({"origin": "A", "destination": "b"}), gold, TOOLS).correct
    assert not grade(call({"origin": "A", "destination": "B", "gate": 4}), gold,
                     TOOLS).correct
    assert not grade(call({"origin": "A", "destination": "B"}, tags=("y", "x")), gold,
                     TOOLS).correct
    assert not grade(call({"origin": "A", "destination": "B"}, tags=("x",)), gold,
                     TOOLS).correct


# the three rules on the same reply ---------------------------------------------------------------------
FLIGHT_GOLD = [GoldCall("book_flight", {"route": ({"origin": "A", "destination": "B"},),
                                        "passengers": (2,)})]


def test_rules_flat_json_is_right_only_under_symmetric():
    reply = json_call("book_flight", origin="A", destination="B", passengers=2)
    assert verdicts(reply, "json_object", FLIGHT_GOLD) == {
        "main": False, "symmetric": True, "as_written": False}
    main = grade_all(reply, TOOLS, "json_object", FLIGHT_GOLD)["main"]
    assert main.reason == "missing required argument route" and not main.schema_valid


def test_rules_flat_xml_is_right_under_main_and_symmetric():
    reply = ('<function_calls><invoke name="book_flight"><parameter name="origin">A'
             '</parameter><parameter name="destination">B</parameter><parameter '
             'name="passengers">2</parameter></invoke></function_calls>')
    assert verdicts(reply, "xml_call", FLIGHT_GOLD) == {
        "main": True, "symmetric": True, "as_written": False}


def test_rules_a_parsed_reply_is_regraded_for_each_rule():
    parsed = parse_reply(json_call("Book-Flight", origin="A", destination="B", passengers=2),
                         TOOLS, "python_call", lenient_fallback=True)
    assert parsed.lenient_taken and parsed.lenient_protocol == "json_object"
    assert [grade(parsed, FLIGHT_GOLD, TOOLS, r).correct for r in RULES] == [False, True,
                                                                            False]
    assert list(grade_all("x", TOOLS, "json_object", [])) == list(RULES)


def test_as_written_never_takes_another_protocols_calls():
    from toolform.grading import grade_rules, select_calls

    # the exact call, but written in json_object when python_call was asked for
    parsed = parse_reply(json_call("book_flight", route={"origin": "A", "destination": "B"}, passengers=2),
                         TOOLS, "python_call", lenient_fallback=True)
    assert parsed.lenient_taken and parsed.calls_as_written
    assert select_calls(parsed, "as_written") == ()
    by_rule = {r: grade(parsed, FLIGHT_GOLD, TOOLS, r) for r in RULES}
    assert [by_rule[r].correct for r in RULES] == [True, True, False]
    assert by_rule["as_written"].reason == "expected 1 call, got none"
    assert {r: v.correct for r, v in grade_rules(parsed, FLIGHT_GOLD, TOOLS).items()} == \
        {r: v.correct for r, v in by_rule.items()}
    strict = parse_reply(json_call("book_flight", route={"origin": "A", "destination": "B"}, passengers=2),
                         TOOLS, "json_object", lenient_fallback=True)
    assert grade(strict, FLIGHT_GOLD, TOOLS, "as_written").correct  # its own protocol: taken


def test_multiple_accepted_values():
    gold = [GoldCall("get_weather", {"city": ("NYC", "New York"), "unit": ("fahrenheit",)})]
    for city in ("NYC", "New York"):
        assert grade([ToolCall("get_weather", {"city": city, "unit": "fahrenheit"})], gold,
                     TOOLS).correct


def test_tool_calls_as_gold():
    assert grade([ToolCall("get_weather", {"city": "Paris"})],
                 [ToolCall("get_weather", {"city": "Paris"})], TOOLS).correct
    assert grade(ToolCall("get_time", {}), GoldCall("get_time"), TOOLS).correct


@pytest.mark.parametrize("gold,message", [
    ([GoldCall("search_web", {"q": ("x",)})], "not in the toolset"),
    ([GoldCall("get_weather", {"town": ("x",)})], "does not declare"),
    ([GoldCall("get_weather", {"city": ()})], "accepts no value"),
    (["get_weather"], "expected GoldCall or ToolCall"),
    ("get_weather", "must be a sequence"),
])
def test_malformed_gold_raises(gold, message):
    with pytest.raises(GradingError, match=message):
        grade([], gold, TOOLS)


def test_unknown_rule_and_bad_calls_raise():
    with pytest.raises(GradingError, match="unknown grading rule"):
        grade([], [], TOOLS, rule="strict")
    with pytest.raises(GradingError, match="ParsedReply or a sequence"):
        grade("get_time()", [], TOOLS)


def test_text_value_of_an_enum_or_object_union_becomes_the_object():
    from toolform.protocols._values import coerce_text

    delivery = TypeIR("union", options=(
        TypeIR("enum", values=("pickup", "standard")),
        TypeIR("object", fields=(ParamIR("street", TypeIR("string")),))))
    assert coerce_text('{"street": "Main St"}', delivery) == {"street": "Main St"}
    assert coerce_text("pickup", delivery) == "pickup"


def test_grade_rules_equals_grading_each_rule_on_real_replies():
    # grade_rules grades each distinct selection of calls once; it must not change a verdict
    import json
    from pathlib import Path

    from toolform.datasets import load_dataset
    from toolform.grading import grade_rules
    from toolform.protocols import parse_reply

    path = Path(__file__).parent / "fixtures" / "bfcl_agreement" / "replies.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == 560
    for row in rows:
        request = load_dataset(f"bfcl/{row['category']}")[row["request_id"]]
        parsed = parse_reply(row["reply"], request.toolset, row["protocol_id"])
        assert grade_rules(parsed, request.gold, request.toolset) == {
            rule: grade(parsed, request.gold, request.toolset, rule) for rule in RULES}


# schema validity --------------------------------------------------------------------------------------
NOTES = ToolIR("find_notes", params=(
    ParamIR("query", S),
    ParamIR("tags", TypeIR("array", items=S), required=False, default=[]),
    ParamIR("filters", TypeIR("object", fields=(ParamIR("year", TypeIR("integer")),)),
            required=False, default={}),
))


def test_schema_valid_for_a_tool_whose_default_is_an_empty_list_or_object():
    # a [] or {} default makes the tool unhashable; its calls were all graded invalid
    with pytest.raises(TypeError):
        hash(NOTES)
    tools = Toolset((NOTES,))
    gold = [GoldCall("find_notes", {"query": ("rust",)})]
    verdict = grade([ToolCall("find_notes", {"query": "rust"})], gold, tools)
    assert verdict == Verdict(True, True, True, "", "")
    wrong = grade([ToolCall("find_notes", {"query": "rust", "tags": "work",
                                           "filters": {"year": "2024"}})], gold, tools)
    assert wrong.schema_valid is False
    assert wrong.schema_issue == ("find_notes: filters.year: expected integer, got the string "
                                  "'2024'; find_notes: tags: expected array, got the string "
                                  "'work'")


def test_validate_arguments_says_where_and_what_in_words():
    def problems(arguments):
        return [str(p) for p in validate_arguments(TOOLS["book_flight"], arguments)]

    route = {"origin": "A", "destination": "B"}
    assert problems({"route": route, "passengers": 2}) == []
    assert problems({"route": route, "passengers": 2.0}) == []  # JSON Schema: 2.0 is an integer
    assert problems({"route": {"origin": "A", "cabin": "first"}, "passengers": "10",
                     "tags": ["x", 3], "refundable": None, "price": [1]}) == [
        "passengers: expected integer, got the string '10'",
        "price: expected number, got an array of 1 item",
        "refundable: expected boolean, got null",
        "route.cabin: expected one of 'economy' or 'business', got the string 'first'",
        "route.destination: required but missing",
        "tags[1]: expected string, got the integer 3",
    ]
    assert problems({"route": route}) == ["passengers: required but missing"]
    # an enum's list says what a type error at the same place would
    assert problems({"route": {**route, "cabin": 3}, "passengers": 1}) == [
        "route.cabin: expected one of 'economy' or 'business', got the integer 3"]
    first = validate_arguments(TOOLS["book_flight"], {"route": route, "passengers": True})[0]
    assert first == ArgumentProblem(("passengers",), "type",
                                    "expected integer, got the boolean true")
    odd = ToolIR("odd", params=(ParamIR("a b", TypeIR("integer", minimum=1)),
                                ParamIR("code", TypeIR("string", pattern="^[A-Z]{3}$",
                                                       max_length=3))))
    assert [str(p) for p in validate_arguments(odd, {"a b": 0, "code": "abcd"})] == [
        '["a b"]: expected at least 1, got the integer 0',
        "code: expected at most 3 characters, got 4",
        "code: expected text matching the pattern '^[A-Z]{3}$', got the string 'abcd'"]
    assert str(ArgumentProblem((), "type", "expected object, got an array")) == \
        "(arguments): expected object, got an array"


def test_tools_with_the_same_schema_share_one_validator():
    # BFCL's requests bring a new tool object for the same function: compiled once per schema
    def tool(default):
        return ToolIR("count", params=(ParamIR("n", TypeIR("integer"), required=False,
                                               default=default),))

    first, again, as_bool = tool(1), tool(1), tool(True)
    assert first is not again and first.input_schema() == as_bool.input_schema()  # 1 == True
    assert _validator(first) is _validator(again)
    assert _validator(as_bool) is not _validator(first)  # a schema's types are kept apart
    assert validate_arguments(again, {"n": "2"})[0].message == \
        "expected integer, got the string '2'"


def test_a_validator_that_cannot_run_is_unknown_never_false():
    # jsonschema-rs rejects this Python-only regex; before, such a call was "not valid"
    unusable = ToolIR("lookup", params=(ParamIR("key", TypeIR("string", pattern=r"(?P<k>a)\Z")),))
    tools = Toolset((unusable, TOOLS["get_time"]))
    with pytest.raises(SchemaValidatorError, match="lookup"):
        validate_arguments(unusable, {"key": "a"})
    gold = [GoldCall("lookup", {"key": ("a",)})]
    verdict = grade([ToolCall("lookup", {"key": "a"})], gold, tools)
    assert verdict.correct and verdict.schema_valid is None
    assert "the input schema of tool 'lookup' cannot be validated against" in verdict.schema_issue
    assert call_schema_valid(ToolCall("lookup", {"key": "a"}), tools) is None
    # one call known invalid settles it: not every call is valid
    assert schema_check([ToolCall("lookup", {"key": "a"}), ToolCall("get_time", {"x": 1})],
                        tools)[0] is None  # get_time's schema is open: {"x": 1} is valid
    assert schema_check([ToolCall("lookup", {"key": "a"}), ToolCall("nope", {})], tools)[0] \
        is False


def test_a_regex_the_validator_gives_up_on_is_unknown():
    # fancy-regex stops at its backtracking limit: "does not match" would be a guess
    slow = ToolIR("slow", params=(ParamIR("text", TypeIR("string",
                                                         pattern=r"^(\w+\s?)*(?=x)$")),))
    with pytest.raises(SchemaValidatorError, match="backtracking"):
        validate_arguments(slow, {"text": "a" * 40 + "c"})
    verdict = grade([ToolCall("slow", {"text": "a" * 40 + "c"})], [], Toolset((slow,)))
    assert verdict.schema_valid is None and "backtracking" in verdict.schema_issue
    # on a short value the same regex finishes, and its "no" is a verdict
    assert [p.keyword for p in validate_arguments(slow, {"text": "ab"})] == ["pattern"]


def test_numbers_past_the_float_range_compare_exactly():
    tools = Toolset((ToolIR("f", params=(ParamIR("n", TypeIR("number")),)),))
    big = 10 ** 400
    assert grade([ToolCall("f", {"n": big})], [GoldCall("f", {"n": (big,)})], tools).correct
    assert not grade([ToolCall("f", {"n": big})], [GoldCall("f", {"n": (1e308,)})],
                     tools).correct
    assert not grade([ToolCall("f", {"n": float("inf")})], [GoldCall("f", {"n": (big,)})],
                     tools).correct
    near = int(1.5e308) + 1  # within the float range's neighbourhood: a relative tolerance
    assert grade([ToolCall("f", {"n": near})], [GoldCall("f", {"n": (1.5e308,)})],
                 tools).correct


def test_rules_whose_selections_are_equal_but_typed_apart_grade_apart(monkeypatch):
    # True == 1 in Python: two rules' selections that differ only so must not share a verdict
    import toolform.grading._grade as graded

    toolset = Toolset((ToolIR("f", params=(ParamIR("flag", TypeIR("boolean")),)),))
    picks = {"as_written": (ToolCall("f", {"flag": 1}),), "main": (ToolCall("f", {"flag": True}),)}
    monkeypatch.setattr(graded, "selections", lambda parsed: picks)
    parsed = parse_reply('{"name": "f", "arguments": {"flag": 1}}', toolset, "json_object")
    verdicts = graded.grade_rules(parsed, ToolCall("f", {"flag": True}), toolset)
    assert (verdicts["as_written"].correct, verdicts["main"].correct) == (False, True)



#: Leaves that are equal across types (0 == False == 0.0 == -0.0), so equal pairs are common.
_ALIKE_LEAVES = st.sampled_from([0, False, 0.0, -0.0, 1, True, 1.0, "a"])
_ALIKE_VALUES = st.recursive(
    _ALIKE_LEAVES, lambda inner: st.lists(inner, max_size=2)
    | st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2), max_leaves=4)


@settings(max_examples=500, derandomize=True, database=None, deadline=None)
@given(a=_ALIKE_VALUES, b=_ALIKE_VALUES)
def test_selections_are_graded_once_only_when_written_alike(a, b):
    """Two rules' selections share a verdict when equal and written alike: the cheap check
    says what ``repr`` equality says (``True`` vs ``1`` vs ``1.0``, ``-0.0``, key order)."""
    calls_a, calls_b = (ToolCall("f", {"x": a}),), (ToolCall("f", {"x": b}),)
    if calls_a == calls_b:
        assert _written_alike(calls_a, calls_b) == (repr(calls_a) == repr(calls_b))
    assert _written_alike(calls_a, calls_a)


def test_calls_with_keys_in_another_order_are_not_written_alike():
    one, other = (ToolCall("f", {"x": 1, "y": 2}),), (ToolCall("f", {"y": 2, "x": 1}),)
    assert one == other and not _written_alike(one, other)
