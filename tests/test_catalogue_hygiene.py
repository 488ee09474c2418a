"""Catalogue hygiene: lint findings and the prune report, on hand-built cases."""

from __future__ import annotations

import pandas as pd
import pytest

from toolform.catalogue import (LINT_COLUMNS, PRUNE_COLUMNS, filter_permitted, lint_catalogue,
                                prune_report)
from toolform.datasets import load_dataset
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR

S = TypeIR("string")

TOOLS = Toolset((
    ToolIR("read_file", "Read a file from disk and return its text.",
           (ParamIR("path", S, "File path."),)),
    ToolIR("read_text_file", "Read a text file from disk and return its text.",
           (ParamIR("path", S, "File path."),)),
    ToolIR("delete_file", "Delete a file. Do not use it to empty a folder; use clear_folder.",
           (ParamIR("path", S, "File path."),)),
    ToolIR("weather_now", "Current weather for a city. Only use it for today.",
           (ParamIR("city", S, "City."),)),
))


def findings(frame: pd.DataFrame, rule: str) -> list[tuple[str, str]]:
    sub = frame[frame["rule"] == rule]
    return list(zip(sub["tool"], sub["other"]))


def test_lint_finds_each_rule():
    frame = lint_catalogue(TOOLS)
    assert list(frame.columns) == [c[0] for c in LINT_COLUMNS]
    assert findings(frame, "near_duplicate") == [("read_file", "read_text_file")]
    assert 0.8 <= frame[frame["rule"] == "near_duplicate"]["score"].iloc[0] <= 1.0
    # "read_fil" vs "read_tex": first 8 characters differ; delete_file is alone
    assert findings(frame, "name_prefix") == []
    assert [t for t, _ in findings(frame, "no_when_not_to_use")] == ["read_file",
                                                                     "read_text_file"]
    assert findings(frame, "not_permitted") == []


def test_names_sharing_eight_characters():
    tools = Toolset((ToolIR("get_pull_request"), ToolIR("get_pull_request_files"),
                     ToolIR("Get_Pull_Status"), ToolIR("get_issue")))
    frame = lint_catalogue(tools)
    assert findings(frame, "name_prefix") == [
        ("get_pull_request", "get_pull_request_files, Get_Pull_Status"),
        ("get_pull_request_files", "get_pull_request, Get_Pull_Status"),
        ("Get_Pull_Status", "get_pull_request, get_pull_request_files")]


def test_similarity_threshold_and_real_twins():
    strict = lint_catalogue(TOOLS, similarity=0.999)
    assert findings(strict, "near_duplicate") == []
    github = load_dataset("mcp/requests")
    toolset = next(r.toolset for r in github if r.id.startswith("mcp_github"))
    pairs = findings(lint_catalogue(toolset, similarity=0.7), "near_duplicate")
    assert pairs and all(a.startswith("get_pull_request") or b.startswith("get_pull_request")
                         for a, b in pairs[:3])


def test_permission_filter_before_retrieval():
    frame = lint_catalogue(TOOLS, allowed=["read_file", "weather_now"])
    assert [t for t, _ in findings(frame, "not_permitted")] == ["read_text_file", "delete_file"]
    assert filter_permitted(TOOLS, ["weather_now", "read_file"]).names == ["read_file",
                                                                           "weather_now"]
    with pytest.raises(ValueError, match="does not have"):
        filter_permitted(TOOLS, ["rm_rf"])


def test_bad_lint_arguments():
    with pytest.raises(ValueError, match="method"):
        lint_catalogue(TOOLS, method="bm25")
    with pytest.raises(ValueError, match="similarity"):
        lint_catalogue(TOOLS, similarity=0)


def call_log() -> list[dict]:
    """60 calls over 20 sessions: search then open in every session (turns 1 and 2), a
    constant-locale search, a rare export and a rare but safety-critical revoke."""
    log = []
    for s in range(20):
        log.append({"session": s, "turn": 1, "tool": "search",
                    "arguments": {"query": f"q{s}", "locale": "en"}})
        log.append({"session": s, "turn": 2, "tool": "open", "arguments": {"id": s}})
        log.append({"session": s, "turn": 9, "tool": "summarize",
                    "arguments": {"id": s, "style": "short" if s % 2 else "long"}})
    log[-1] = {"session": 19, "turn": 9, "tool": "export", "arguments": {"id": 19}}
    log[-4] = {"session": 18, "turn": 9, "tool": "revoke_access", "arguments": {"id": 18}}
    return log


def test_prune_report_hand_checked():
    tools = Toolset(tuple(ToolIR(n) for n in ("search", "open", "summarize", "export",
                                               "revoke_access", "never_used")))
    frame = prune_report(call_log(), toolset=tools, safety_critical=["revoke_access"])
    assert list(frame.columns) == [c[0] for c in PRUNE_COLUMNS]
    rare = frame[frame["finding"] == "rarely_used"]
    assert list(rare["tool"]) == ["export", "never_used"]
    assert rare["share"].tolist() == pytest.approx([100 / 60, 0.0])
    together = frame[frame["finding"] == "called_together"]
    assert list(zip(together["tool"], together["other"])) == [("open", "search")]
    assert together["share"].iloc[0] == 100.0 and together["calls"].iloc[0] == 40
    constant = frame[frame["finding"] == "constant_parameter"]
    assert list(zip(constant["tool"], constant["parameter"], constant["value"])) == [
        ("search", "locale", '"en"')]


def test_pairs_further_apart_than_the_window_are_not_together():
    frame = prune_report(call_log(), window=0)
    assert not (frame["finding"] == "called_together").any()


def test_a_log_without_the_needed_columns_is_refused():
    with pytest.raises(ValueError, match="missing \\['turn'\\]"):
        prune_report([{"session": 1, "tool": "x"}])
