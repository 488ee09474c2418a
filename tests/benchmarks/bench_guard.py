"""Benchmark: the guard scans 10,000 tools in less than 2 s (issue 7, point 7).

The tools are built from real tool prose, the MCP catalogue and BFCL's ``multiple`` category
(``datasets/``): each tool gets a real tool description made unique by a made-up word, three
parameters with real parameter descriptions, an enum and a default. The guard flags a few real
texts high (its false positives); the benchmarks check that stays under 1% of the tools.

- ``test_bench_scan_10k`` is the target: parameter descriptions repeat as they do in real
  catalogues (the GitHub server alone repeats "Repository owner (username or organization)"
  across 20 tools), so the scan's reuse of repeated texts helps, as it would on a real file.
- ``test_bench_scan_10k_all_texts_unique`` is the worst case: every one of the 50,000 texts is
  different, so nothing is reused. It is held to a regression bound, not to the target.

The made-up words are letters only (digits would wake checks that real prose rarely needs).
Times are this process's CPU time (``time.process_time``), best of three rounds, so other work
on the shared machine disturbs them less. The guard caches sentence splits and sentence readings
(catalogues repeat sentences); the caches are emptied before every round, so each round is a cold
scan.
"""

from __future__ import annotations

import json
import time
from importlib import resources

import pytest

from toolform.guard import clear_caches, scan_toolset
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR

N_TOOLS = 10_000
LIMIT_SECONDS = 2.0
# the eighth revision (rules and TS111) measured 3.3 s here on this corpus (best of three,
# 2026-11-29): the bound catches a regression past that, it is not a target
WORST_CASE_BOUND_SECONDS = 5.5
_LETTERS = "bdfghjklmnpqrstvwxz"  # no vowels: the made-up words spell no real word


def tag(n: int) -> str:
    """A made-up word, unique for each ``n``: ``zq`` then ``n`` written in consonants."""
    out = ""
    while True:
        n, r = divmod(n, len(_LETTERS))
        out = _LETTERS[r] + out
        if n == 0:
            return "zq" + out


def real_texts() -> tuple[list[str], list[str]]:
    """Distinct tool descriptions and parameter descriptions of the real MCP catalogue and of
    BFCL's ``multiple`` category, in first-seen order."""
    root = resources.files("toolform.datasets")
    catalogue = root.joinpath("mcp/catalogue.json").read_text(encoding="utf-8")
    toolsets = [Toolset.from_dict(json.loads(catalogue))]
    for line in root.joinpath("bfcl/multiple.jsonl").read_text(encoding="utf-8").splitlines():
        toolsets.append(Toolset.from_dict(json.loads(line)["tools"]))
    tools: dict[str, None] = {}
    params: dict[str, None] = {}
    for toolset in toolsets:
        for tool in toolset.tools:
            if tool.description.strip():
                tools.setdefault(tool.description, None)
            for p in tool.params:
                if p.description.strip():
                    params.setdefault(p.description, None)
    return list(tools), list(params)


def toolset_10k(*, unique_params: bool) -> Toolset:
    tool_texts, param_texts = real_texts()
    tools = []
    for k in range(N_TOOLS):
        params = []
        for j in range(3):
            text = param_texts[(3 * k + j) % len(param_texts)]
            params.append(ParamIR(f"p{j}", TypeIR("string"),
                                  f"{text} ({tag(3 * k + j)})" if unique_params else text))
        params.append(ParamIR("mode", TypeIR("enum", values=("fast", "full", tag(k))),
                              "How thorough.", required=False, default="fast"))
        tools.append(ToolIR(f"tool_{k}", f"{tool_texts[k % len(tool_texts)]} Variant {tag(k)}.",
                            tuple(params)))
    return Toolset(tuple(tools), source="bench-10k")


def flagged_share(findings) -> float:
    """The proportion of the 10,000 tools with a high finding."""
    return len({f.tool for f in findings if f.severity == "high"}) / N_TOOLS


@pytest.mark.benchmark(timer=time.process_time)
def test_bench_scan_10k(benchmark):
    toolset = toolset_10k(unique_params=False)
    findings = benchmark.pedantic(scan_toolset, args=(toolset,), setup=clear_caches, rounds=3,
                                  iterations=1)
    assert flagged_share(findings) < 0.01  # real benign prose
    assert benchmark.stats.stats.min < LIMIT_SECONDS


@pytest.mark.benchmark(timer=time.process_time)
def test_bench_scan_10k_all_texts_unique(benchmark):
    toolset = toolset_10k(unique_params=True)
    findings = benchmark.pedantic(scan_toolset, args=(toolset,), setup=clear_caches, rounds=3,
                                  iterations=1)
    assert flagged_share(findings) < 0.01
    assert benchmark.stats.stats.min < WORST_CASE_BOUND_SECONDS
