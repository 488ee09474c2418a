"""The study's documented API, written as its documentation writes it, runs against ToolForm.

One test per item of the documented list (issue 15): the SDK and IR imports, the catalogue
planner, the OpenAI-compatible client with its thinking switch, two-stage disclosure, retrieval,
fitting to a budget and the catalogue command line; then the names ToolForm adds for parity
(prices and cost, token counts, messages with the study's prompt variants, the Pareto front, the
format-sensitivity index) and the parity table in ``docs/reference-parity.md``.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
from pathlib import Path

import pytest

from test_clients import FakeServer

ROOT = Path(__file__).resolve().parents[1]
GITHUB = ROOT / "datasets" / "mcp" / "github.json"        # 26 tools
CATALOGUE = ROOT / "datasets" / "mcp" / "catalogue.json"  # 97 tools


@pytest.fixture()
def server():
    fake = FakeServer()
    yield fake
    fake.stop()


def test_the_documented_imports():
    from toolform.ir import ParamIR, ToolCall, ToolIR, ToolUniverse, TypeIR
    from toolform.sdk import (CORE_FORMAT_LABELS, CROSSING_PROTOCOLS, RULE_COLUMNS,
                              TWO_STAGE_FORMATS, OpenAICompatClient, ParsedReply, Toolset,
                              generated_toolset, parse_reply)

    import toolform.study as study

    assert (CORE_FORMAT_LABELS, CROSSING_PROTOCOLS, RULE_COLUMNS, TWO_STAGE_FORMATS) == (
        study.CORE_FORMAT_LABELS, study.CROSSING_PROTOCOLS, study.RULE_COLUMNS,
        study.TWO_STAGE_FORMATS)
    assert len(generated_toolset()) == 93 and isinstance(generated_toolset(), Toolset)
    assert OpenAICompatClient.__name__ == "OpenAICompatClient"
    universe = ToolUniverse(tools=[ToolIR("get_weather", "Weather now.", (
        ParamIR("city", TypeIR("string")),))], universe_id="weather")
    assert isinstance(universe, Toolset) and universe.universe_id == "weather"
    reply = '{"name": "get_weather", "arguments": {"city": "Oslo"}}'
    parsed = parse_reply(reply, universe, "json_object")
    assert isinstance(parsed, ParsedReply)
    assert list(parsed.calls) == [ToolCall("get_weather", {"city": "Oslo"})]


def test_the_study_constants_agree_with_the_registries_and_tables():
    from toolform.evidence import load_evidence
    from toolform.experiments import CORE_CELLS
    from toolform.formats import format_ids, get_format
    from toolform.grading import RULES
    from toolform.runs import TURN_COLUMNS
    from toolform.study import (CORE_DEFAULT_PROTOCOLS, CORE_FORMAT_LABELS, CORE_FORMATS,
                                CROSSING_PROTOCOLS, RULE_COLUMNS, TWO_STAGE_FORMATS)

    grid = load_evidence("main_grid").rows
    assert CORE_FORMATS == tuple(dict.fromkeys(r["format_id"] for r in grid))
    assert tuple(c.format_id for c in CORE_CELLS) == CORE_FORMATS
    assert tuple(CORE_FORMAT_LABELS) == CORE_FORMATS
    assert dict(CORE_DEFAULT_PROTOCOLS) == {r["format_id"]: r["protocol_id"] for r in grid}
    crossing = {r["protocol_id"] for r in load_evidence("protocols").rows if r["in_crossing"]}
    assert set(CROSSING_PROTOCOLS) == crossing
    assert set(TWO_STAGE_FORMATS) == {f for f in format_ids() if get_format(f).two_stage}
    assert tuple(RULE_COLUMNS) == tuple(RULES)
    assert set(RULE_COLUMNS.values()) <= {c[0] for c in TURN_COLUMNS}


def test_plan_catalogue_as_documented():
    from toolform.catalogue import plan_catalogue
    from toolform.io import load_tools

    tools = load_tools(CATALOGUE)
    plan = plan_catalogue(tools, format_id="xml_schema")
    assert (plan.strategy, plan.n_tools) == ("two_stage", 97) and plan.schema_tokens > 0
    assert "two-stage threshold" in plan.reason
    for row in plan.evidence:
        assert row.source and row.label and isinstance(row.value, (int, float))
        assert row.value == row.row[row.column]
    forty = tools.subset(tools.names[:40])
    retrieved = plan_catalogue(forty, format_id="xml_schema", query="Find a file called notes")
    assert retrieved.strategy == "retrieve" and len(retrieved.retrieval.ranked) == 8
    staged = plan_catalogue(tools, format_id="xml_schema", query="Find a file called notes")
    assert staged.selection_messages[-1]["content"].startswith("Find a file called notes")
    budget = plan_catalogue(load_tools(GITHUB), format_id="xml_schema", budget_tokens=800,
                            query="Create an issue in the repo", k=3)
    assert budget.strategy == "retrieve" and "create_issue" in budget.retrieval.names
    assert budget.budget_tokens == 800 and budget.retrieved_tokens <= 800


def test_the_client_takes_enable_thinking_and_sends_the_template_switch(server):
    from toolform.sdk import OpenAICompatClient

    documented = OpenAICompatClient("http://localhost:8000/v1", model="Qwen/Qwen3-8B",
                                    enable_thinking=False)
    assert documented.describe()["enable_thinking"] is False
    client = OpenAICompatClient(server.base_url, model="fake-model", enable_thinking=False,
                                backoff=0.01, timeout=5.0)
    client.complete([{"role": "user", "content": "hi"}])
    assert server.requests[-1]["chat_template_kwargs"] == {"enable_thinking": False}
    # a call's own chat-template arguments join the switch
    client.complete([{"role": "user", "content": "hi"}],
                    extra_body={"chat_template_kwargs": {"reasoning_effort": "low"}})
    assert server.requests[-1]["chat_template_kwargs"] == {"enable_thinking": False,
                                                           "reasoning_effort": "low"}
    plain = OpenAICompatClient(server.base_url, model="fake-model", backoff=0.01)
    plain.complete([{"role": "user", "content": "hi"}])
    assert "chat_template_kwargs" not in server.requests[-1]
    with pytest.raises(ValueError, match="enable_thinking"):
        OpenAICompatClient(server.base_url, model="m", enable_thinking="no")


class _Model(FakeServer):
    """Names the tool on the selection step, then writes its call (in JSON)."""

    def __init__(self, selection: str) -> None:
        self.selection = selection
        super().__init__()

    def reply(self, body: dict) -> dict:
        from toolform.catalogue import SELECTION_ASK

        out = super().reply(body)
        asked = body["messages"][-1]["content"]
        out["choices"][0]["message"]["content"] = (
            self.selection if asked.endswith(SELECTION_ASK)
            else json.dumps({"name": "create_issue", "arguments": {"owner": "o", "repo": "r",
                                                                   "title": "t"}}))
        return out


def test_two_stage_as_documented():
    from toolform.catalogue import SELECTION_ASK, SELECTION_MAX_TOKENS, TwoStage
    from toolform.io import load_tools
    from toolform.sdk import OpenAICompatClient

    tools = load_tools(GITHUB)
    request = "Open an issue called t in o/r"
    two = TwoStage(tools, include_descriptions=True, format_id="json_schema_openai",
                   protocol_id="json_object")
    messages = two.selection_messages(request)
    assert messages[-1]["content"] == request + SELECTION_ASK
    assert two.parse_selection("I would use create_issue.") == "create_issue"
    assert two.parse_selection("no idea") is None
    call = two.call_messages(request, "create_issue")
    assert '"create_issue"' in call[0]["content"] and '"list_issues"' not in call[0]["content"]
    for selection, selected in (("create_issue", "create_issue"), ("hmm", None)):
        fake = _Model(selection)
        try:
            client = OpenAICompatClient(fake.base_url, model="m", backoff=0.01, timeout=5.0)
            result = two.run(client, request)
        finally:
            fake.stop()
        assert result.selected == selected and result.selection_failed is (selected is None)
        assert fake.requests[0]["max_tokens"] == SELECTION_MAX_TOKENS == 48
        sent = [11 + len(r["messages"][-1]["content"]) for r in fake.requests]
        assert result.prompt_tokens == sum(sent)             # both stages
        assert result.completion_tokens == 7 * len(fake.requests)
        if selected is None:
            assert result.parsed is None and len(fake.requests) == 1  # no fallback
        else:
            assert [c.name for c in result.parsed.calls] == ["create_issue"]


def test_retrieve_as_documented(monkeypatch):
    from toolform.catalogue import retrieve
    from toolform.catalogue import _retrieve
    from toolform.io import load_tools

    tools = load_tools(GITHUB)
    found = retrieve(tools, "create a pull request", k=8, keep=["search_code"])
    assert len(found.ranked) == 8 and "search_code" in found.names
    assert found.toolset.names == found.names
    assert found.names[0] == "create_pull_request"
    # without sentence-transformers, the embedding method names the package to install
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    _retrieve._embedding_model.cache_clear()
    try:
        with pytest.raises(ImportError, match="sentence-transformers"):
            retrieve(tools, "create a pull request", method="embed")
    finally:
        _retrieve._embedding_model.cache_clear()


def test_fit_to_budget_as_documented():
    from toolform.catalogue import BudgetFit, BudgetResult, fit_to_budget
    from toolform.io import load_tools

    assert BudgetResult is BudgetFit
    result = fit_to_budget(load_tools(CATALOGUE), "xml_schema", 4000,
                           query="search the web for the news")
    assert isinstance(result, BudgetResult)
    assert result.fits and result.tokens_after <= 4000 < result.tokens_before
    assert result.steps[0] == "as_is" and result.dropped
    assert set(result.dropped[0]) == {"tool", "reason", "tokens"}
    assert len(result.toolset) == 97 - len({d["tool"] for d in result.dropped
                                            if not d["reason"].startswith("optional")})


@pytest.fixture(scope="module")
def toolform_cli():
    from typer.testing import CliRunner

    from toolform.cli import app

    runner = CliRunner()
    return lambda *args: runner.invoke(app, [str(a) for a in args])


def test_the_catalogue_command_as_documented(toolform_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools.json").write_text(GITHUB.read_text("utf-8"), "utf-8")
    plain = toolform_cli("catalogue", "tools.json", "--format", "xml_schema", "--context", 32768)
    assert plain.exit_code == 0 and "strategy: one_shot" in plain.output
    queried = toolform_cli("catalogue", "tools.json", "--query", "Create an issue in the repo",
                           "--k", 3, "--budget", 800, "--json")
    assert queried.exit_code == 0 and json.loads(queried.output)["strategy"] == "retrieve"
    staged = toolform_cli("catalogue", CATALOGUE, "--query", "Find a file called notes", "--k", 8)
    assert staged.exit_code == 0 and "first-stage prompt" in staged.output
    fitted = toolform_cli("catalogue", "tools.json", "--budget", 4000, "--fit", "--out",
                          "reduced.json")
    assert fitted.exit_code == 0, fitted.output
    from toolform.io import load_tools

    assert 0 < len(load_tools(tmp_path / "reduced.json")) <= 26
    assert "fits 4000" in fitted.output


def test_the_recommend_command_prints_json(toolform_cli):
    result = toolform_cli("recommend", "--model", "Qwen/Qwen3-8B", "--n-tools", 128, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["basis"] == "checkpoint:Qwen/Qwen3-8B"
    assert data["catalogue"]["strategy"] == "two_stage" and data["catalogue"]["reason"]


# -- the names added for parity -------------------------------------------------------------------

def test_prices_and_cost_of():
    from toolform.evidence import load_evidence
    from toolform.sdk import PRICES, Price, cost_of

    for row in load_evidence("cost_prices").rows:
        price = PRICES[row["setting"]]
        assert (price.input_per_m, price.cached_input_per_m, price.output_per_m) == (
            row["input_usd_per_m"], row["cached_input_usd_per_m"], row["output_usd_per_m"])
    # 1,000 prompt tokens of which 400 cached, 100 completion tokens, frontier API prices
    assert cost_of(1000, 100, cached_tokens=400) == pytest.approx(
        (600 * 1 + 400 * 0.1 + 100 * 5) / 1e6)
    assert cost_of(1000, 100, price="self_hosted") == pytest.approx((1000 * 0.2 + 100 * 2) / 1e6)
    assert cost_of(10, 10, cached_tokens=99, price=Price(1, 0, 1)) == pytest.approx(10 / 1e6)
    with pytest.raises(ValueError, match="frontier_api"):
        cost_of(1, 1, price="cheap")
    with pytest.raises(ValueError, match="input_per_m"):
        Price(-1, 0, 0)


def test_count_tokens():
    from toolform.errors import MissingDependencyError
    from toolform.sdk import count_tokens, estimate_tokens

    assert count_tokens("x" * 41) == estimate_tokens("x" * 41) == 11
    try:
        exact = count_tokens("hello world", "cl100k_base")
    except ValueError as exc:  # offline: the encoding file cannot be fetched; never a guess
        assert "cl100k_base" in str(exc)
    else:
        assert exact == 2
    try:
        import transformers  # noqa: F401  (only whether it is installed)
    except ImportError:
        with pytest.raises(MissingDependencyError, match="pip install transformers"):
            count_tokens("hello", "Qwen/Qwen3-8B")


def test_build_messages_with_the_prompt_variants():
    from toolform.formats import render
    from toolform.formats._render import NULL_CLAUSE, SYSTEM_TEMPLATE, TRUST_LINE
    from toolform.io import load_tools
    from toolform.sdk import PERSONAS, build_messages

    tools = load_tools(GITHUB).subset(["create_issue", "get_issue"])
    default = build_messages(tools, "Open an issue", format_id="xml_schema")
    assert default == render(tools, "xml_schema", None, "Open an issue").messages
    block = render(tools, "xml_schema").schema_text
    from toolform.protocols import get_protocol

    assert default[0]["content"] == SYSTEM_TEMPLATE.format(
        block=block, instruction=get_protocol("xml_call").instruction)
    for persona, sentence in PERSONAS.items():
        varied = build_messages(tools, "Open an issue", format_id="xml_schema", persona=persona,
                                null_clause=False, trust_line=True)[0]["content"]
        assert varied.startswith(sentence) and TRUST_LINE in varied
        assert NULL_CLAUSE not in varied and block in varied
    with pytest.raises(ValueError, match="persona"):
        build_messages(tools, "x", format_id="xml_schema", persona="pirate")


def test_the_pareto_front_reproduces_the_study_frontier():
    from toolform.evidence import load_evidence
    from toolform.sdk import pareto_front

    frame = load_evidence("cost_frontier").frame()
    front = pareto_front(frame, cost="tokens", accuracy="accuracy")
    assert set(front["format_id"]) == set(frame.loc[frame["on_frontier"], "format_id"])
    assert front["tokens"].is_monotonic_increasing and front["accuracy"].is_monotonic_increasing


def test_the_format_sensitivity_index_reproduces_the_study_spreads():
    from toolform.evidence import load_evidence
    from toolform.sdk import format_sensitivity_index

    facts = {r["fact_id"]: r["value"] for r in load_evidence("headline_facts").rows}
    rows = load_evidence("checkpoint_accuracy").rows
    by_checkpoint: dict[str, dict[str, float]] = {}
    for r in rows:
        by_checkpoint.setdefault(r["checkpoint_id"], {})[r["format_id"]] = r["accuracy"]
    spreads = [format_sensitivity_index(acc, kind="range") for acc in by_checkpoint.values()]
    assert statistics.median(spreads) == pytest.approx(facts["open_spread_median"])
    anchors: dict[tuple, dict[str, float]] = {}
    for r in load_evidence("anchor_accuracy").rows:
        anchors.setdefault((r["anchor"], r["effort"]), {})[r["format_id"]] = r["accuracy"]
    median = statistics.median(format_sensitivity_index(a, kind="range")
                               for a in anchors.values())
    assert round(median) == facts["anchor_spread_median"]
    assert format_sensitivity_index({"a": 50.0, "b": 70.0}) == pytest.approx(10.0)
    assert format_sensitivity_index({"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "e": 5.0},
                                    kind="iqr") == pytest.approx(2.0)
    assert format_sensitivity_index({"a": 50.0}) == 0.0


def test_the_parity_table_covers_every_public_name_of_the_reference():
    names = json.loads((ROOT / "tests" / "fixtures" / "advisor_parity" /
                        "reference_names.json").read_text("utf-8"))
    doc = (ROOT / "docs" / "reference-parity.md").read_text("utf-8")
    rows = {m.group(1) for m in re.finditer(r"^\| `([^`]+)` \|", doc, re.MULTILINE)}
    for module, public in names.items():
        for name in public:
            assert f"{module}.{name}" in rows or (module == "toolform.sdk" and name in rows), (
                module, name)
