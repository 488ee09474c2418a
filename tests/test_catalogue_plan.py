"""plan_catalogue: thresholds, the budget rule, evidence rows from the tables, and the package."""

from __future__ import annotations

import pytest

import toolform.catalogue as catalogue
from toolform._thresholds import catalogue_strategy
from toolform.catalogue import SELECTION_ASK, CataloguePlan, plan_catalogue
from toolform.evidence import load_evidence
from toolform.formats import render_block
from toolform.generator import decoy_catalogue
from toolform.ir import Toolset
from toolform.tokens import estimate_tokens

WEATHER = "What's the weather like in Osaka right now?"


def cat(n: int) -> Toolset:
    return decoy_catalogue(n, 0, target="get_current_weather")


def test_all_is_sorted_and_every_name_exists():
    assert catalogue.__all__ == sorted(catalogue.__all__)
    for name in catalogue.__all__:
        assert hasattr(catalogue, name), name


def test_empty_catalogue_is_refused():
    with pytest.raises(ValueError, match="empty catalogue"):
        plan_catalogue(Toolset(source="tools.json"))


@pytest.mark.parametrize("n, expected", [(1, "one_shot"), (31, "one_shot"), (32, "retrieve"),
                                         (63, "retrieve"), (64, "two_stage"), (200, "two_stage")])
def test_thresholds_by_tool_count(n, expected):
    plan = plan_catalogue(cat(n))
    assert plan.strategy == expected
    assert plan.n_tools == n
    assert plan.schema_tokens == estimate_tokens(render_block(cat(n), "xml_schema"))
    assert plan.retrieval is None and plan.selection_messages is None  # no query given


@pytest.mark.parametrize("n", [1, 5, 20, 33, 50, 70])
@pytest.mark.parametrize("context", [None, 4000, 40000])
def test_plan_agrees_with_the_shared_thresholds(n, context):
    tokens = estimate_tokens(render_block(cat(n), "json_schema_openai"))
    expected = catalogue_strategy(n, block_tokens=tokens, context_tokens=context)
    assert plan_catalogue(cat(n), format_id="json_schema_openai",
                          context_tokens=context).strategy == expected


def test_block_over_half_the_context_is_two_stage():
    toolset = cat(16)  # ~3,300 tokens in xml_schema
    tokens = estimate_tokens(render_block(toolset, "xml_schema"))
    assert plan_catalogue(toolset, context_tokens=2 * tokens + 2).strategy == "one_shot"
    plan = plan_catalogue(toolset, context_tokens=2 * tokens - 2)
    assert plan.strategy == "two_stage"
    assert f"{tokens}-token block is over 50% of the {2 * tokens - 2}-token context" \
        in plan.reason


def test_retrieve_with_a_query_carries_the_retrieval():
    plan = plan_catalogue(cat(40), query=WEATHER, k=5)
    assert plan.strategy == "retrieve"
    assert plan.retrieval is not None and len(plan.retrieval.ranked) == 5
    assert plan.retrieval.names[0] == "get_current_weather"
    assert plan.retrieved_tokens == estimate_tokens(render_block(plan.retrieval.toolset,
                                                                 "xml_schema"))


def test_two_stage_with_a_query_carries_the_selection_messages():
    plan = plan_catalogue(cat(100), query=WEATHER)
    assert plan.strategy == "two_stage"
    system, user = plan.selection_messages
    assert user == {"role": "user", "content": WEATHER + SELECTION_ASK}
    assert all(f'"{name}"' in system["content"] for name in cat(100).names)


def test_over_budget_without_query_is_two_stage_with_query_retrieve():
    toolset = cat(8)
    tokens = estimate_tokens(render_block(toolset, "xml_schema"))
    assert plan_catalogue(toolset, budget_tokens=tokens).strategy == "one_shot"
    no_query = plan_catalogue(toolset, budget_tokens=tokens - 1)
    assert no_query.strategy == "two_stage"
    assert "no query" in no_query.reason
    with_query = plan_catalogue(toolset, budget_tokens=tokens - 1, query=WEATHER, k=2)
    assert with_query.strategy == "retrieve"
    assert with_query.retrieved_tokens <= tokens - 1
    assert "get_current_weather" in with_query.retrieval.names
    # retrieval that still does not fit leaves two-stage
    tight = plan_catalogue(toolset, budget_tokens=10, query=WEATHER, k=2)
    assert tight.strategy == "two_stage" and tight.retrieval is None


def _in_table(row) -> bool:
    table = load_evidence(row.table)
    return tuple(table.source) == row.source and any(dict(r) == dict(row.row)
                                                     for r in table.rows)


def test_evidence_rows_are_table_rows_and_the_reason_quotes_them():
    plan = plan_catalogue(cat(256))
    assert plan.strategy == "two_stage"
    assert all(_in_table(e) for e in plan.evidence)
    tables = {e.table for e in plan.evidence}
    assert tables == {"tool_count_pooled", "disclosure"}
    desc = next(e.row for e in plan.evidence
                if e.table == "disclosure" and e.row["arm"] == "names_desc")
    assert desc["n_tools"] == 256
    assert f"{desc['gain']:+.2f} points [{desc['gain_low']:.2f}, {desc['gain_high']:.2f}]" \
        in plan.reason
    strict = {e.row["n_tools"]: e.row["value"] for e in plan.evidence
              if e.table == "tool_count_pooled" and e.row["reading"] == "strict"}
    assert f"{strict[1]:.2f}% at 1 tool" in plan.reason
    assert f"{strict[256]:.2f}% at 256" in plan.reason


def test_retrieve_evidence_comes_from_the_retrieval_baseline():
    plan = plan_catalogue(cat(40))
    rows = [e for e in plan.evidence if e.table == "retrieval_baseline"]
    assert {(r.row["method"], r.row["top_k"]) for r in rows} == {
        ("none", None), ("bm25", 8), ("embedding", 8)}
    assert all(_in_table(e) for e in plan.evidence)
    bm25 = next(r.row["accuracy"] for r in rows if r.row["method"] == "bm25")
    assert f"BM25 {bm25:.2f}%" in plan.reason
    frame = plan.evidence_frame()
    assert list(frame.columns[:2]) == ["table", "source"]
    assert len(frame) == len(plan.evidence)


def test_to_dict_is_json_ready():
    import json

    plan = plan_catalogue(cat(40), query=WEATHER)
    data = json.loads(json.dumps(plan.to_dict()))
    assert data["strategy"] == "retrieve" and data["retrieved"][0] == "get_current_weather"
    assert isinstance(plan, CataloguePlan)


@pytest.mark.parametrize("bad", [{"k": 0}, {"budget_tokens": 0}, {"context_tokens": -5}])
def test_bad_numbers_are_refused(bad):
    with pytest.raises(ValueError):
        plan_catalogue(cat(4), **bad)
