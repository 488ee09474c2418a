"""toolform.io._responses: the OpenAI Responses-API tool shape in and out."""

from __future__ import annotations

import jsonschema
import pytest

from toolform.errors import LoaderError
from toolform.generator import generated_toolset
from toolform.io._responses import from_responses, to_responses
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR

WEATHER = {"type": "function", "name": "get_weather", "description": "Weather for a city.",
           "parameters": {"type": "object",
                          "properties": {"city": {"type": "string"},
                                         "units": {"type": "string",
                                                   "enum": ["c", "f"], "default": "c"}},
                          "required": ["city"]},
           "strict": False}


def test_round_trip_is_exact():
    original = generated_toolset(0)
    exported = to_responses(original)
    assert exported[0].keys() == {"type", "name", "description", "parameters", "strict"}
    assert all(tool["type"] == "function" and tool["strict"] is False for tool in exported)
    assert from_responses(exported) == original
    assert from_responses({"model": "gpt-x", "tools": exported}) == original


def test_hand_checked_load():
    t = from_responses([WEATHER], source="weather.json")["get_weather"]
    assert t.params == (ParamIR("city", TypeIR("string")),
                        ParamIR("units", TypeIR("enum", values=("c", "f")), required=False,
                                default="c"))
    assert from_responses([{"type": "function", "name": "ping", "parameters": None,
                            "strict": None}])["ping"].params == ()


def test_strict_export_has_every_key_required_and_no_extra_keys():
    tool = ToolIR("book", "Book.", (
        ParamIR("who", TypeIR("object", fields=(ParamIR("name", TypeIR("string")),
                                                ParamIR("phone", TypeIR("string"),
                                                        required=False)))),
        ParamIR("nights", TypeIR("integer", minimum=1), required=False, default=1),
        ParamIR("kind", TypeIR("enum", values=("a", "b")), required=False)))
    [exported] = to_responses(Toolset((tool,)), strict=True)
    schema = exported["parameters"]
    assert exported["strict"] is True
    assert schema["required"] == ["who", "nights", "kind"]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["who"]["required"] == ["name", "phone"]
    assert schema["properties"]["who"]["additionalProperties"] is False
    assert schema["properties"]["nights"] == {"type": ["integer", "null"], "minimum": 1}
    assert schema["properties"]["kind"]["enum"] == ["a", "b", None]
    validator = jsonschema.Draft202012Validator(schema)
    validator.validate({"who": {"name": "Ana", "phone": None}, "nights": None, "kind": None})
    assert not validator.is_valid({"who": {"name": "Ana"}, "nights": 2, "kind": "a"})
    loaded = from_responses([exported])["book"]
    assert all(p.required for p in loaded.params) and loaded.params[1].type.nullable


def test_strict_export_refuses_what_strict_mode_cannot_express():
    free = Toolset((ToolIR("f", params=(ParamIR("meta", TypeIR("object", additional=True)),)),))
    with pytest.raises(ValueError, match=r"'f': \$\.meta is a free-form object"):
        to_responses(free, strict=True)
    assert to_responses(free)[0]["parameters"]["properties"]["meta"]["type"] == "object"


@pytest.mark.parametrize("tools, path, words", [
    ([{"type": "web_search"}], "$[0].type", "only function tools"),
    ([{"type": "function", "function": {"name": "x"}}], "$[0].function", "kind='openai'"),
    ([{"type": "function", "name": "x", "strict": "yes"}], "$[0].strict", "boolean"),
    ([{"type": "function", "description": "no name"}], "$[0].name", "no 'name'"),
    ([{**WEATHER, "parameters": {"type": "object", "properties": {"city": {"type": "txt"}}}}],
     "$[0].parameters.properties.city.type", "txt"),
])
def test_malformed_tools_raise_loader_error(tools, path, words):
    with pytest.raises(LoaderError) as info:
        from_responses(tools, source="tools.json")
    assert info.value.file == "tools.json" and info.value.path == path
    assert words in str(info.value)
