"""Grading against BFCL-style possible answers: each numbered point with a hand-checked case."""

from __future__ import annotations

import pytest

from toolform.errors import GradingError
from toolform.io import from_bfcl
from toolform.ir import GoldCall, ToolCall
from toolform.grading import grade_possible_answers, normalise_string
from toolform.protocols import parse_reply

TOOLSET = from_bfcl([
    {"name": "weather.get", "description": "Weather for a city.",
     "parameters": {"type": "dict", "required": ["city"], "properties": {
         "city": {"type": "string", "description": "City name."},
         "days": {"type": "integer", "description": "Days ahead.", "default": 1},
         "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Unit."},
         "lat": {"type": "float", "description": "Latitude."},
         "alerts": {"type": "boolean", "description": "Include alerts."},
         "tags": {"type": "array", "items": {"type": "string"}, "description": "Tags."},
         "range": {"type": "array", "items": {"type": "integer"}, "description": "Range."},
         "where": {"type": "dict", "description": "Filter.", "properties": {
             "zone": {"type": "string"}, "level": {"type": "integer"}}},
         "note": {"type": "any", "description": "Anything."}}}},
    {"name": "news", "description": "Headlines.",
     "parameters": {"type": "dict", "required": ["topic"], "properties": {
         "topic": {"type": "string", "description": "Topic."}}}},
])
GOLD = GoldCall("weather.get", {"city": ("San Francisco, CA", "SF"), "days": (3,),
                                "unit": ("celsius",), "lat": (37.7,), "alerts": (True,),
                                "tags": (["rain", "wind"],), "range": ([1, 2],),
                                "where": ({"zone": "bay area", "level": 2},), "note": ("x",)},
                may_omit=("unit", "lat", "alerts", "tags", "range", "where", "note"))


def verdict(arguments, gold=GOLD, name="weather.get"):
    return grade_possible_answers([ToolCall(name, arguments)], [gold], TOOLSET)


def test_normalise_string_drops_spaces_and_punctuation_and_lowers_case():
    assert normalise_string("San Francisco, CA") == "sanfranciscoca"
    assert normalise_string("April 1, 2024") == normalise_string("april 1 2024")
    assert normalise_string("it's") == 'it"s'


def test_a_full_right_call_and_a_minimal_right_call_pass():
    assert verdict({"city": "SF", "days": 3}).correct
    assert verdict({"city": "san francisco ca", "days": 3, "unit": "Celsius", "lat": 37.7,
                    "alerts": True, "tags": ["Rain", "wind"], "range": [1, 2],
                    "where": {"zone": "Bay-Area", "level": 2}, "note": "x"}).correct


def test_point_1_names_must_match_exactly():
    v = verdict({"city": "SF", "days": 3}, name="weather_get")
    assert not v.correct and not v.tool_correct and "wrong tool" in v.reason


def test_point_2_call_count_and_order_free_matching():
    gold = [GoldCall("news", {"topic": ("sport",)}), GoldCall("news", {"topic": ("art",)})]
    calls = [ToolCall("news", {"topic": "Art"}), ToolCall("news", {"topic": "sport"})]
    assert grade_possible_answers(calls, gold, TOOLSET).correct
    assert grade_possible_answers(calls[:1], gold, TOOLSET).reason == "expected 2 calls, got 1"
    twice = [ToolCall("news", {"topic": "art"})] * 2
    assert not grade_possible_answers(twice, gold, TOOLSET).correct


def test_point_2_greedy_matching_as_bfcl_and_optimal_on_request():
    # gold 1 accepts either call, gold 2 only the first: greedy in gold order takes the first
    gold = [GoldCall("news", {"topic": ("a", "b")}), GoldCall("news", {"topic": ("a",)})]
    calls = [ToolCall("news", {"topic": "a"}), ToolCall("news", {"topic": "b"})]
    greedy = grade_possible_answers(calls, gold, TOOLSET)
    assert not greedy.correct and greedy.tool_correct
    assert greedy.reason.startswith("no call left for gold call 2 (news)")
    assert grade_possible_answers(calls, gold, TOOLSET, matching="optimal").correct
    clash = [GoldCall("news", {"topic": ("a",)}), GoldCall("news", {"topic": ("a",)})]
    assert grade_possible_answers([calls[0], calls[1]], clash, TOOLSET,
                                  matching="optimal").reason == (
        "no call left for gold call 2 (news): the calls that fit it are each needed by "
        "another gold call")
    # in the other order greedy finds the matching too
    assert grade_possible_answers(calls[::-1], gold, TOOLSET).correct
    with pytest.raises(GradingError, match="unknown matching"):
        grade_possible_answers(calls, gold, TOOLSET, matching="hungarian")


def test_point_6_an_explicit_empty_string_is_bfcls_omission_marker():
    assert verdict({"city": "SF", "days": 3, "note": ""}).correct  # "" among note's answers
    assert verdict({"city": "SF", "days": 3, "unit": ", "}).correct  # normalises to ""
    assert not verdict({"city": "", "days": 3}).correct  # city may not be left out
    omit_days = GoldCall(GOLD.name, GOLD.accepted, (*GOLD.may_omit, "days"))
    assert not verdict({"city": "SF", "days": ""}, omit_days).correct  # "" is no integer
    assert not verdict({"city": "SF", "days": 3, "where": ""}).correct  # nor a dict


def test_point_3_required_parameters_must_be_present():
    assert verdict({"days": 3}).reason == "missing required argument city"


def test_point_4_extra_arguments_fail_even_at_their_default():
    gold = GoldCall("weather.get", {"city": ("SF",)})
    assert verdict({"city": "SF", "days": 1}, gold).reason == "unexpected argument days"
    assert verdict({"city": "SF", "wind": 1}).reason == "unexpected argument wind"


def test_point_5_types_are_exact():
    assert "wrong type for days" in verdict({"city": "SF", "days": 3.0}).reason
    assert "wrong type for days" in verdict({"city": "SF", "days": "3"}).reason
    assert "wrong type for alerts" in verdict({"city": "SF", "days": 3, "alerts": 1}).reason
    assert verdict({"city": "SF", "days": 3, "lat": 37.7}).correct
    # an int is converted for a float parameter: 37 is then compared as 37.0
    assert "wrong value for lat" in verdict({"city": "SF", "days": 3, "lat": 37}).reason
    assert "wrong type for note" in verdict({"city": "SF", "days": 3, "note": 5}).reason
    required_range = GoldCall("weather.get", {"city": ("SF",), "range": ([1, 2],)})
    assert "wrong element type in range" in verdict({"city": "SF", "range": [1.0, 2.0]},
                                                    required_range).reason
    # BFCL skips the element check when the argument may be left out: 1.0 == 1 then passes
    assert verdict({"city": "SF", "days": 3, "range": [1.0, 2.0]}).correct


def test_point_5_a_value_of_the_gold_values_type_is_a_variable():
    gold = GoldCall("weather.get", {"city": ("SF",), "days": ("n_days",)})
    assert verdict({"city": "SF", "days": "n_days"}, gold).correct
    assert "wrong value for days" in verdict({"city": "SF", "days": "N_days"}, gold).reason


def test_point_6_strings_in_lists_are_normalised_but_order_counts():
    assert verdict({"city": "SF", "days": 3, "tags": ["RAIN", "wind"]}).correct
    assert not verdict({"city": "SF", "days": 3, "tags": ["wind", "rain"]}).correct


def test_point_7_dicts_need_the_same_keys_and_equal_values():
    assert not verdict({"city": "SF", "days": 3, "where": {"zone": "bay area"}}).correct
    assert not verdict({"city": "SF", "days": 3,
                        "where": {"zone": "bay area", "level": 3}}).correct


def test_point_8_numbers_compare_by_value():
    assert not verdict({"city": "SF", "days": 4}).correct


def test_point_9_listed_arguments_must_be_given_unless_omittable():
    assert verdict({"city": "SF"}).reason == (
        "missing argument days, which the gold call does not let be left out")


def test_point_9_an_empty_list_is_taken_as_left_out_for_an_omittable_list():
    assert verdict({"city": "SF", "days": 3, "tags": []}).correct


def test_point_10_no_gold_and_no_call_is_right():
    assert grade_possible_answers([], [], TOOLSET).correct
    assert not grade_possible_answers([ToolCall("news", {"topic": "a"})], [], TOOLSET).correct


def test_a_parsed_reply_is_graded_as_written():
    parsed = parse_reply('[weather.get(city="SF", days=3)]', TOOLSET, "bfcl_python_list")
    assert grade_possible_answers(parsed, GOLD, TOOLSET).correct
    parsed = parse_reply('[Weather.Get(city="SF", days=3)]', TOOLSET, "bfcl_python_list")
    assert not grade_possible_answers(parsed, GOLD, TOOLSET).correct


def test_bad_inputs_raise_grading_error():
    with pytest.raises(GradingError, match="not a tool"):
        grade_possible_answers([], [GoldCall("nope")], TOOLSET)
    with pytest.raises(GradingError):
        grade_possible_answers("text", [GOLD], TOOLSET)
    with pytest.raises(GradingError, match="GoldCall"):
        grade_possible_answers([], [ToolCall("news", {})], TOOLSET)
