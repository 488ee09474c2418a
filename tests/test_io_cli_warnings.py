"""The CLI prints a tools file's load warnings (``Toolset.warnings``) on stderr."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from toolform.cli import app
from toolform.cli._common import print_load_warnings
from toolform.io import load_tools

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "tools"
WARNED = FIXTURES / "warn_mcp_required_not_declared.json"
runner = CliRunner()


@pytest.mark.parametrize("args", [
    ["guard", str(WARNED)],
    ["catalogue", str(WARNED)],
    ["recommend", "--tools", str(WARNED), "--model", "qwen2.5-coder-0.5b-instruct"],
])
def test_every_command_that_loads_tools_prints_their_warnings(args):
    result = runner.invoke(app, args)
    assert "warning: [required-not-declared]" in result.stderr, (result.stdout, result.stderr)
    assert "$.tools[0].inputSchema.required[1]" in result.stderr
    assert "warning:" not in result.stdout


def test_helper_prints_one_line_per_warning(capsys):
    toolset = load_tools(FIXTURES / "warn_bfcl_required_not_declared.json")
    print_load_warnings(toolset)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split("]")[0] for line in lines] == [
        "warning: [name-rejected-by-providers", "warning: [required-not-declared",
        "warning: [required-not-declared"]
    print_load_warnings(load_tools(FIXTURES / "ok_bfcl_question.json"))
    assert capsys.readouterr().err == ""
