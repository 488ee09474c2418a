"""``toolform catalogue``: the plan printed and as JSON, retrieval, fitting to a budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from toolform.cli._catalogue import EXIT_USAGE, register
from toolform.io import load_tools

MCP = Path(__file__).resolve().parents[1] / "datasets" / "mcp"
CATALOGUE = MCP / "catalogue.json"   # 97 tools
GITHUB = MCP / "github.json"         # 26 tools


@pytest.fixture(scope="module")
def app():
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Keep ``catalogue`` a subcommand."""

    register(app)
    return app


def run(app, *args):
    return CliRunner().invoke(app, ["catalogue", *map(str, args)])


def test_a_97_tool_catalogue_is_two_stage(app):
    result = run(app, CATALOGUE)
    assert result.exit_code == 0, result.output
    assert "97 tools" in result.output and "strategy: two_stage" in result.output
    assert "[disclosure; paper:tab_disclosure_v2]" in result.output


def test_json_report_with_a_query(app):
    result = run(app, GITHUB, "--query", "Create an issue in the repo", "--k", "3",
                 "--budget", "800", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["n_tools"] == 26 and report["strategy"] == "retrieve"
    assert len(report["retrieved"]) == 3 and "create_issue" in report["retrieved"]
    assert report["retrieved_tokens"] <= 800 < report["schema_tokens"]
    assert {e["table"] for e in report["evidence"]} == {"tool_count_pooled",
                                                        "retrieval_baseline"}


def test_fit_writes_the_reduced_catalogue(app, tmp_path):
    out = tmp_path / "reduced.json"
    result = run(app, GITHUB, "--fit", "--budget", "1500", "--out", out, "--json")
    assert result.exit_code == 0, result.output
    fit = json.loads(result.output)["fit"]
    reduced = load_tools(out)
    assert fit["fits"] and fit["tokens_after"] <= 1500 < fit["tokens_before"]
    assert len(reduced) == fit["n_tools"] < 26
    assert reduced.names == load_tools(GITHUB).names[:len(reduced)]  # dropped from the end
    text = run(app, GITHUB, "--fit", "--budget", "1500", "--out", out)
    assert "fits 1500" in text.output and f"{len(reduced)} tools written" in text.output


@pytest.mark.parametrize("args", [
    ["--fit", "--budget", "100"], ["--out", "x.json"], ["--format", "xml_shema"],
])
def test_usage_errors(app, args):
    result = run(app, GITHUB, *args)
    assert result.exit_code == EXIT_USAGE


def test_unreadable_file(app, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    result = run(app, bad)
    assert result.exit_code == EXIT_USAGE and "error:" in result.output
