"""fit_to_budget: the steps in order, what is dropped, keep tools, and the token counts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from toolform.catalogue import Retriever, fit_to_budget
from toolform.formats import render_block
from toolform.generator import decoy_catalogue
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR
from toolform.tokens import estimate_tokens

S = TypeIR("string")


def tokens(toolset: Toolset, fmt: str = "xml_schema") -> int:
    return estimate_tokens(render_block(toolset, fmt))


def described() -> Toolset:
    """Three tools whose optional parameters carry long descriptions of different lengths."""
    return Toolset((
        ToolIR("search_docs", "Search the documentation.", (
            ParamIR("query", S, "What to look for."),
            ParamIR("locale", S, "Language of the pages. " * 12, required=False, default="en"),
        )),
        ToolIR("open_page", "Open a page by id.", (
            ParamIR("page_id", S, "The page id."),
            ParamIR("anchor", S, "Section to scroll to. " * 6, required=False, default=""),
        )),
        ToolIR("list_pages", "List pages.", (
            ParamIR("prefix", S, "Only pages starting with this. " * 3, required=False,
                    default=""),
        )),
    ))


def test_a_block_that_fits_is_left_alone():
    toolset = described()
    fit = fit_to_budget(toolset, "xml_schema", tokens(toolset))
    assert fit.fits and fit.steps == ("as_is",) and fit.dropped == ()
    assert fit.toolset == toolset and fit.tokens_before == fit.tokens_after == tokens(toolset)


def test_without_a_query_the_longest_optional_descriptions_go_first():
    toolset = described()
    full = tokens(toolset)
    first = toolset[0]
    without_locale = tokens(replace(toolset, tools=(
        replace(first, params=(first.params[0], replace(first.params[1], description=""))),
        *toolset.tools[1:])))
    fit = fit_to_budget(toolset, "xml_schema", without_locale)
    assert fit.fits and fit.steps == ("as_is", "drop_optional_descriptions")
    assert [(d["tool"], d["reason"]) for d in fit.dropped] == [
        ("search_docs", "optional_description:locale")]
    assert fit.dropped[0]["tokens"] == estimate_tokens("Language of the pages. " * 12)
    assert fit.toolset["search_docs"].param("locale").description == ""
    assert fit.toolset["open_page"].param("anchor").description.startswith("Section")
    assert fit.tokens_before == full and fit.tokens_after == tokens(fit.toolset) <= \
        without_locale


def test_then_tools_are_dropped_from_the_end_never_keep():
    toolset = decoy_catalogue(12, 0, target="get_current_weather")
    keep = toolset.names[-1]
    fit = fit_to_budget(toolset, "xml_schema", tokens(toolset) // 3, keep=[keep])
    assert fit.fits and fit.steps[0] == "as_is" and fit.steps[-1] == "drop_from_end"
    gone = [d["tool"] for d in fit.dropped if d["reason"] == "from_end"]
    assert keep not in gone and keep in fit.toolset
    rest = [n for n in toolset.names if n != keep]
    assert gone == rest[::-1][:len(gone)]  # from the end, in order
    assert fit.toolset.names == [n for n in toolset.names if n not in gone]
    assert fit.tokens_after == tokens(fit.toolset) <= fit.budget_tokens
    # the shortest cut: putting back the last tool dropped breaks the budget
    back = toolset.subset([n for n in toolset.names if n not in gone[:-1]])
    assert tokens(back) > fit.budget_tokens
    for d in fit.dropped:
        if d["reason"] == "from_end":
            assert d["tokens"] == tokens(toolset.subset([d["tool"]]))


def test_with_a_query_the_lowest_ranked_go_first():
    toolset = decoy_catalogue(24, 0, target="get_current_weather")
    query = "What's the weather like in Osaka right now?"
    fit = fit_to_budget(toolset, "json_schema_openai", 600, query=query)
    assert fit.fits and fit.steps == ("as_is", "drop_lowest_ranked")
    assert "get_current_weather" in fit.toolset
    ranked = [n for n, _ in Retriever(toolset).rank(query)]
    assert [d["tool"] for d in fit.dropped] == ranked[::-1][:len(fit.dropped)]
    assert all(d["reason"] == "lowest_ranked" for d in fit.dropped)


def test_a_budget_only_keep_tools_exceed_does_not_fit():
    toolset = decoy_catalogue(6, 0, target="get_current_weather")
    fit = fit_to_budget(toolset, "xml_schema", 5, keep=["get_current_weather"])
    assert not fit.fits and fit.toolset.names == ["get_current_weather"]
    assert fit.tokens_after == tokens(fit.toolset) > 5
    assert len(fit.dropped_frame()) == len(fit.dropped)


@pytest.mark.parametrize("kwargs, message", [
    ({"budget_tokens": 0}, "budget_tokens"), ({"budget_tokens": 100, "keep": ["nope"]},
                                              "does not have"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        fit_to_budget(described(), "xml_schema", **kwargs)
