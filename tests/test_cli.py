"""The ``toolform`` command line: lazy listing, plain help, failures never hidden, the new
commands (render, parse, grade, convert, version, doctor) checked against the library."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

import toolform
from toolform.cli import COMMANDS, app

RUNNER = CliRunner()

TOOLS = [{"type": "function", "function": {
    "name": "calculate_triangle_area", "description": "Area of a triangle.",
    "parameters": {"type": "object", "properties": {
        "base": {"type": "integer", "description": "The base."},
        "height": {"type": "integer", "description": "The height."}},
        "required": ["base", "height"]}}}]
GOLD = {"name": "calculate_triangle_area", "arguments": {"base": 10, "height": 5}}


def run(*args: str):
    return RUNNER.invoke(app, list(args))


@pytest.fixture()
def tools_file(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(TOOLS), encoding="utf-8")
    return path


# -- listing, help, start-up ----------------------------------------------------------------------

def test_help_lists_every_command_with_its_own_first_paragraph():
    result = run("--help")
    assert result.exit_code == 0, result.output
    for name, entry in COMMANDS.items():
        command = app_command(name)
        own = " ".join((command.help or "").split("\n\n")[0].split())
        assert entry.summary == own, name
        assert name in result.output
    # plain click help: wrapped, never cut off with an ellipsis, flags without <bool>
    assert "…" not in result.output and "<bool>" not in result.output


def app_command(name):
    import typer

    return typer.main.get_command(app).get_command(None, name)


def test_listing_the_commands_imports_none_of_them():
    code = textwrap.dedent("""
        import sys
        from toolform.cli import app
        try:
            app(["--help"])
        except SystemExit:
            pass
        heavy = [m for m in ("pandas", "numpy", "altair", "toolform.formats", "toolform.experiments",
                             "toolform.cli._abtest", "toolform.cli._guard") if m in sys.modules]
        print("HEAVY", heavy)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert "HEAVY []" in out, out


def test_command_help_wraps_defaults_and_shows_flags_plainly():
    result = run("ab-test", "--help")
    assert result.exit_code == 0
    text = result.output
    assert "bfcl/simple_python,bfcl/multiple" in text  # the whole default, not cut at 80
    assert "<bool>" not in text and "…" not in text and "│" not in text
    assert "--allow-misses" in text and "--strict" in text and "--pace SECONDS" in text
    # the docstring's line breaks are not carried into the help
    bfcl = run("bfcl-arm", "--help").output
    assert "parallel_multiple) and print accuracy" in " ".join(bfcl.split())


def test_unknown_command_suggests_the_closest():
    result = run("ab-tset")
    assert result.exit_code == 2 and "Did you mean 'ab-test'" in result.output


# -- ab-test: failures are never hidden ------------------------------------------------------------

def test_ab_test_refuses_a_draw_the_cassette_does_not_hold(tmp_path):
    result = run("ab-test", "--seed", "1", "--out", str(tmp_path), "--no-progress")
    assert result.exit_code == 2
    assert "360 of 400 turns" in result.stderr and "--allow-misses" in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "turns.csv").exists()


def test_ab_test_allow_misses_reports_failures_and_strict_exits_1(tmp_path):
    result = run("ab-test", "--seed", "1", "--n", "5", "--out", str(tmp_path), "--no-progress",
                 "--allow-misses")
    assert result.exit_code == 0, result.output
    cells = __import__("pandas").read_csv(tmp_path / "cells.csv")
    failed = int(cells[cells.rule == "main"]["n_errors"].sum())
    assert failed > 0
    assert f"warning: {failed} of 40 turns failed" in result.stderr
    assert "CassetteMissError" in result.stderr
    assert f"(cassette_miss: {failed} turns, 0 attempts)" in result.stderr  # by error_kind
    strict = run("ab-test", "--seed", "1", "--n", "5", "--out", str(tmp_path / "s"),
                 "--no-progress", "--allow-misses", "--strict")
    assert strict.exit_code == 1 and f"error: {failed} of 40 turns failed" in strict.stderr
    assert (tmp_path / "s" / "cells.csv").exists()  # the tables are still written


def test_ab_test_unknown_dataset_is_one_line(tmp_path):
    result = run("ab-test", "--dataset", "bfcl/nope", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "unknown dataset 'bfcl/nope'" in result.stderr


def test_ab_test_prints_the_table_with_units_rules_and_errors(tmp_path):
    from toolform.experiments import recorded_ab

    result = run("ab-test", "--out", str(tmp_path), "--no-progress")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # no failed turn on the committed draw
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines if not line.startswith("wrote ")) <= 100
    text = " ".join(result.stdout.split())
    assert "percent of graded turns" in text and "percentage points" in text
    assert "paired bootstrap 95% interval" in text and "Wilson interval" in text
    assert "Rules: main:" in text and "symmetric: the same repairs for every protocol" in text
    assert "chosen under symmetric: it repairs every protocol alike" in text
    header = next(line for line in lines if line.startswith("cell "))
    assert header.split()[:3] == ["cell", "n", "failed"]
    expected = recorded_ab()
    row = next(line for line in lines if line.startswith("xml_schema/xml_call "))
    values = expected.table().set_index("cell").loc["xml_schema/xml_call"]
    assert row.split()[1:4] == ["50", "0", f"{values.symmetric:.1f}"]
    assert "reference" in next(line for line in lines
                               if line.startswith("json_schema_openai/json_object "))
    html = (tmp_path / "ab_chart.html").read_text(encoding="utf-8")
    assert "cdn.jsdelivr" not in html and "<script src=" not in html
    assert len(html) > 500_000  # Vega, Vega-Lite and vega-embed inlined
    assert (tmp_path / "ab_chart.png").read_bytes()[:4] == b"\x89PNG"


def test_bfcl_arm_prints_n_and_intervals_per_category(tmp_path):
    from toolform.experiments import bfcl_arm_table

    result = run("bfcl-arm", "--out", str(tmp_path), "--no-progress")
    assert result.exit_code == 0, result.output
    table = bfcl_arm_table(__import__("pandas").read_csv(tmp_path / "turns.csv"))
    assert max(len(line) for line in result.stdout.splitlines()
               if not line.startswith("wrote ")) <= 100
    for row in table[table.rule == "possible_answers"].itertuples():
        line = next(line for line in result.stdout.splitlines()
                    if line.startswith(row.category + " "))
        assert line.split()[1] == str(row.n)
        assert f"{row.accuracy:.1f} [{row.ci_low:.1f}, {row.ci_high:.1f}]" in line


# -- render, parse, grade, convert -----------------------------------------------------------------

def test_render_prints_the_library_prompt(tools_file):
    from toolform.formats import render

    expected = render(toolform.load_tools(tools_file), "xml_schema", request="Area?")
    result = run("render", str(tools_file), "--format", "xml_schema", "--request", "Area?")
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"--- system ---\n{expected.messages[0]['content']}\n"
                             f"--- user ---\nArea?\n")
    assert f"{expected.schema_tokens:,} tokens" in result.stderr
    block = run("render", str(tools_file), "--format", "json_schema_openai", "--block-only")
    assert json.loads(block.stdout)  # the JSON Schema block is JSON
    as_json = json.loads(run("render", str(tools_file), "--json").stdout)
    assert as_json["protocol_id"] == "json_object" and as_json["messages"][0]["role"] == "system"


def test_parse_and_grade_name_what_is_wrong(tools_file, tmp_path):
    reply = '{"name": "calculate_triangle_area", "arguments": {"base": "10", "height": 5}}'
    parsed = run("parse", str(tools_file), "--protocol", "json_object", "--reply", reply)
    assert parsed.exit_code == 0, parsed.output
    assert "strict parse (json_object): yes" in parsed.stdout
    assert json.loads(parsed.stdout.splitlines()[2]) == {
        "name": "calculate_triangle_area", "arguments": {"base": "10", "height": 5}}
    reply_file = tmp_path / "reply.txt"
    reply_file.write_text(reply, encoding="utf-8")
    graded = run("grade", str(tools_file), str(reply_file), "--protocol", "json_object",
                 "--gold", json.dumps(GOLD), "--json")
    assert graded.exit_code == 0, graded.output
    verdicts = json.loads(graded.stdout)
    assert set(verdicts) == {"main", "symmetric", "as_written"}
    assert not verdicts["main"]["correct"] and verdicts["main"]["tool_correct"]
    assert "'10'" in verdicts["main"]["reason"]  # a typed protocol's string is not an integer
    right = run("grade", str(tools_file), "--protocol", "json_object", "--gold", json.dumps(GOLD),
                "--reply", json.dumps(GOLD))
    assert right.stdout.count("correct: yes") == 3


def test_grade_never_turns_a_bad_gold_call_into_a_verdict(tools_file):
    result = run("grade", str(tools_file), "--protocol", "json_object", "--reply", "no call",
                 "--gold", '{"name": "no_such_tool", "arguments": {}}')
    assert result.exit_code == 2 and "no_such_tool" in result.stderr
    assert "correct" not in result.stdout


def test_convert_round_trips_between_kinds(tools_file, tmp_path):
    original = toolform.load_tools(tools_file)
    for kind in ("anthropic", "mcp", "ir", "openai"):
        out = tmp_path / f"{kind}.json"
        result = run("convert", str(tools_file), "--to", kind, "--out", str(out))
        assert result.exit_code == 0, result.output
        assert toolform.load_tools(out).names == original.names
        assert toolform.load_tools(out)["calculate_triangle_area"].params == \
            original["calculate_triangle_area"].params
    bad = run("convert", str(tools_file), "--to", "bfcl")
    assert bad.exit_code == 2 and "cannot export tools as 'bfcl'" in bad.stderr
    missing = run("convert", str(tmp_path / "none.json"), "--to", "mcp")
    assert missing.exit_code == 2 and "none.json" in missing.stderr


# -- version, doctor ------------------------------------------------------------------------------

def test_version():
    result = run("version")
    assert result.exit_code == 0 and result.stdout.startswith(f"toolform {toolform.__version__} ")


def test_doctor_reports_packages_and_an_endpoint_that_does_not_answer():
    with socket.socket() as sock:  # a free port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = run("doctor", "--base-url", f"http://127.0.0.1:{port}/v1", "--timeout", "0.5",
                 "--json")
    assert result.exit_code == 0, result.output
    found = {c["name"]: c for c in json.loads(result.stdout)}
    # every core requirement of the installed metadata, all present ("14 of 14 installed (...)")
    assert found["core"]["ok"] and re.match(r"(\d+) of \1 installed", found["core"]["detail"])
    assert not found["endpoint"]["ok"] and "does not answer" in found["endpoint"]["detail"]
    for name in ("python", "toolform", "extra dev", "chromium", "jupyterlab", "local model",
                 "mcp"):
        assert name in found, name
    if not found["local model"]["ok"]:
        assert "[local]" in found["local model"]["hint"]
    text = run("doctor", "--base-url", f"http://127.0.0.1:{port}/v1", "--timeout", "0.5")
    assert max(len(line) for line in text.stdout.splitlines()) <= 100


def test_evidence_says_why_a_column_is_empty():
    result = run("evidence", "main_grid")
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "minus_json is empty in 7 of 24 rows" in text
    assert "json_schema_openai is the reference itself" in text
    assert "minus_json_low is empty in 9 of 24 rows" in text
    assert "empty cells" not in run("evidence", "ladder").stdout  # nothing empty, nothing said
