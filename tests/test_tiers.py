"""toolform.tiers: each of the five rules on a hand-built tool, and the tier definitions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolform import tiers
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR
from toolform.tiers import TIER_LIMITS, tier_estimate, tool_profile

S = TypeIR("string")
I = TypeIR("integer")


def tool(*params: ParamIR) -> ToolIR:
    return ToolIR("t", "", params)


def obj(*fields: ParamIR) -> TypeIR:
    return TypeIR("object", fields=fields)


def test_rule_1_flat_required_scalars():
    assert tier_estimate(tool(ParamIR("city", S), ParamIR("days", I))) == 1
    assert tier_estimate(tool()) == 1


@pytest.mark.parametrize("param", [
    ParamIR("units", TypeIR("enum", values=("c", "f"))),           # an enum
    ParamIR("days", I, required=False, default=3),                 # an optional parameter
    ParamIR("days", TypeIR("integer", minimum=1, maximum=10)),      # a constraint
    ParamIR("email", TypeIR("string", format="email")),            # a format is a constraint
    ParamIR("tags", TypeIR("array", items=S)),                     # an array of scalars
    ParamIR("note", TypeIR("string", nullable=True)),              # nullable is not a union
])
def test_rule_2_flat_with_enum_optional_or_constraint(param):
    assert tier_estimate(tool(ParamIR("city", S), param)) == 2


def test_rule_3_one_nested_object_or_array_of_objects():
    nested = tool(ParamIR("contact", obj(ParamIR("name", S), ParamIR("phone", S))))
    array_of_objects = tool(ParamIR("items", TypeIR("array", items=obj(ParamIR("sku", S)))))
    assert tier_estimate(nested) == 3
    assert tier_estimate(array_of_objects) == 3
    assert tool_profile(array_of_objects).arrays_of_objects == 1


def test_rule_4_depth_two_or_one_union():
    depth_two = tool(ParamIR("shipping", obj(ParamIR("address", obj(ParamIR("city", S))))))
    one_union = tool(ParamIR("guests", TypeIR("union", options=(I, S))))
    assert tier_estimate(depth_two) == 4
    assert tier_estimate(one_union) == 4


def test_rule_5_depth_three_or_two_unions():
    depth_three = tool(ParamIR("a", obj(ParamIR("b", obj(ParamIR("c", obj(ParamIR("d", S))))))))
    union = TypeIR("union", options=(I, S))
    two_unions = tool(ParamIR("x", union), ParamIR("y", union))
    nested_union = tool(ParamIR("x", TypeIR("union", options=(S, union))))
    assert tier_estimate(depth_three) == 5
    assert tier_estimate(two_unions) == 5
    assert tier_estimate(nested_union) == 5


def test_hardest_tool_sets_the_toolset_tier():
    easy = ToolIR("easy", params=(ParamIR("q", S),))
    hard = ToolIR("hard", params=(ParamIR("x", TypeIR("union", options=(I, S))),))
    assert tier_estimate(Toolset((easy, hard))) == 4
    assert tier_estimate([easy]) == 1


def test_empty_toolset_has_no_tier():
    with pytest.raises(ValueError, match="empty"):
        tier_estimate(Toolset())


def test_profile_counts_every_level():
    t = tool(ParamIR("a", obj(ParamIR("b", TypeIR("enum", values=(1, 2)), required=False),
                               ParamIR("c", TypeIR("array", items=I)))),
             ParamIR("d", S, required=False))
    p = tool_profile(t)
    assert (p.n_params, p.depth, p.enums, p.arrays, p.optional) == (4, 1, 1, 1, 2)
    assert TIER_LIMITS[3].admits(p)
    assert not TIER_LIMITS[2].admits(p)


STUDY = Path(__file__).resolve().parents[1] / "evidence" / "tables" / "tier_definitions.json"


def test_limits_match_the_study_definitions():
    rows = json.loads(STUDY.read_text(encoding="utf-8"))["rows"]
    assert [r["tier"] for r in rows] == [1, 2, 3, 4, 5]
    for row in rows:
        limits = TIER_LIMITS[row["tier"]]
        assert (limits.name, limits.max_params, limits.max_depth, limits.max_enums,
                limits.max_unions, limits.max_arrays, limits.max_optional) == (
            row["name"], row["max_params"], row["max_nesting"], row["enums"], row["unions"],
            row["arrays"], row["max_optional"]), row


def test_all_is_sorted():
    assert tiers.__all__ == sorted(tiers.__all__)
