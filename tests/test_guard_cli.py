"""``toolform guard`` through typer's CliRunner, on a local app with only this command."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from toolform.cli._guard import EXIT_FINDINGS, EXIT_USAGE, register
from toolform.guard import DEFAULT_SENTENCE, read_lockfile, scan_toolset
from toolform.io import load_tools

app = typer.Typer()
register(app)


@app.callback()
def _root() -> None:
    """Make ``guard`` a subcommand, as in the real ``toolform`` app."""


runner = CliRunner()


def mcp_file(path, poisoned: bool):
    tools = [
        {"name": "get_sum", "description": "Returns the sum of two numbers.",
         "inputSchema": {"type": "object", "properties": {
             "a": {"type": "number", "description": "First number"},
             "b": {"type": "number", "description": "Second number"}},
             "required": ["a", "b"]}},
        {"name": "echo", "description": "Echoes back the input string.",
         "inputSchema": {"type": "object", "properties": {
             "message": {"type": "string", "description": "Message to echo"}}}},
    ]
    if poisoned:
        tools[0]["description"] += " " + DEFAULT_SENTENCE
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return path


def test_clean_tools_pass_and_can_be_pinned(tmp_path):
    tools = mcp_file(tmp_path / "tools.json", poisoned=False)
    result = runner.invoke(app, ["guard", str(tools), "--pin", str(tmp_path / "lock.json")])
    assert result.exit_code == 0, result.output
    assert "0 high" in result.output and "OK" in result.output
    assert set(read_lockfile(tmp_path / "lock.json")["tools"]) == {"get_sum", "echo"}


def test_a_high_finding_fails_with_its_rule_and_path(tmp_path):
    tools = mcp_file(tmp_path / "tools.json", poisoned=True)
    result = runner.invoke(app, ["guard", str(tools)])
    assert result.exit_code == EXIT_FINDINGS
    assert "HIGH   TS101 argument-directive" in result.output
    assert "tools[0].description [32:80]" in result.output


def test_a_description_changed_after_pinning_fails_verify(tmp_path):
    lock = tmp_path / "lock.json"
    runner.invoke(app, ["guard", str(mcp_file(tmp_path / "approved.json", False)),
                        "--pin", str(lock)])
    served = mcp_file(tmp_path / "served.json", poisoned=True)
    result = runner.invoke(app, ["guard", str(served), "--verify", str(lock), "--json"])
    assert result.exit_code == EXIT_FINDINGS
    report = json.loads(result.output)
    assert report["ok"] is False and report["pin"]["changed"] == ["get_sum"]
    assert report["counts"]["high"] == 2
    assert [f["rule"] for f in report["findings"]] == ["TS101", "TS111"]


def test_clean_writes_the_same_kind_without_the_sentence(tmp_path):
    tools = mcp_file(tmp_path / "tools.json", poisoned=True)
    out = tmp_path / "clean.json"
    result = runner.invoke(app, ["guard", str(tools), "--clean", "strip_high", "--out", str(out),
                                 "--pin", str(tmp_path / "lock.json")])
    assert result.exit_code == EXIT_FINDINGS  # the input still had a high finding
    assert "cleaned tools[0].description (strip; TS101, TS111)" in result.output
    written = json.loads(out.read_text(encoding="utf-8"))
    assert "inputSchema" in written["tools"][0]  # still an MCP tools/list document
    cleaned = load_tools(out)
    assert cleaned["get_sum"].description == "Returns the sum of two numbers."
    assert scan_toolset(cleaned) == []
    again = runner.invoke(app, ["guard", str(out), "--verify", str(tmp_path / "lock.json")])
    assert again.exit_code == 0, again.output


@pytest.mark.parametrize("args", [
    ["--clean", "strip_everything", "--out", "x.json"],
    ["--clean", "strip_high"],
    ["--min-severity", "severe"],
])
def test_usage_errors_exit_2(tmp_path, args):
    tools = mcp_file(tmp_path / "tools.json", poisoned=False)
    result = runner.invoke(app, ["guard", str(tools), *args])
    assert result.exit_code == EXIT_USAGE


def test_an_unreadable_file_exits_2_naming_it(tmp_path):
    result = runner.invoke(app, ["guard", str(tmp_path / "missing.json")])
    assert result.exit_code == EXIT_USAGE
    assert "missing.json" in result.output
