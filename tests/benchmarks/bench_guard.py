"""Benchmarks: the guard scans 10,000 tools in less than 1 s CPU, a one-million-value enum in
less than 5 s, and its cost grows linearly with the length of names and texts (issue 16,
point 7).

The machine is shared and noisy, so every target is checked against a baseline measured in the
same process just before: a loop that reads every field of the same toolset once
(``iter_fields``, lower-casing and one regex search). The ratio bounds below are the targets
divided by that baseline's time on a quiet machine; the CPU times are printed beside them.

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
scan. ``guard_equality.py`` beside this file checks that a change made for speed moves no
finding (see ``README.md``).
"""

from __future__ import annotations

import json
import re
import time
from importlib import resources

import pytest

from toolform.guard import clear_caches, iter_fields, scan_text, scan_toolset
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR

N_TOOLS = 10_000
#: The target (issue 16): 10,000 tools in less than 1 s of CPU time, on a quiet machine.
LIMIT_SECONDS = 1.0
#: Scan time over the same-run baseline (see :func:`baseline_seconds`). The scan reads every
#: field with twelve rules; the baseline once with one regex.
RATIO_10K = 12.0
RATIO_ENUM = 12.0
#: Doubling a name's or a text's length may at most multiply the time by this (2 is linear).
LINEAR_BOUND = 2.6
# every text unique: nothing is reused; a regression bound over the same baseline, not a target
WORST_CASE_RATIO = 30.0
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


_PROBE = re.compile(r"\b(?:always|ignore|send)\b")


def baseline_seconds(toolset: Toolset, rounds: int = 3) -> float:
    """Best CPU time of reading every field of ``toolset`` once: lower-case it and search one
    regex (the floor any scan of those fields costs)."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for f in iter_fields(toolset):
            _PROBE.search(f.text.lower())
        best = min(best, time.process_time() - start)
    return best


def best_scan_seconds(toolset: Toolset, rounds: int = 3) -> tuple[float, list]:
    best, findings = float("inf"), []
    for _ in range(rounds):
        clear_caches()
        start = time.process_time()
        findings = scan_toolset(toolset)
        best = min(best, time.process_time() - start)
    return best, findings


@pytest.mark.benchmark(timer=time.process_time)
def test_bench_scan_10k(benchmark):
    toolset = toolset_10k(unique_params=False)
    base = baseline_seconds(toolset)
    findings = benchmark.pedantic(scan_toolset, args=(toolset,), setup=clear_caches, rounds=3,
                                  iterations=1)
    assert flagged_share(findings) < 0.01  # real benign prose
    ratio = benchmark.stats.stats.min / base
    print(f"10,000 tools: {benchmark.stats.stats.min:.3f} s CPU, baseline {base:.3f} s, "
          f"ratio {ratio:.1f} (bound {RATIO_10K}; target {LIMIT_SECONDS} s on a quiet machine)")
    assert ratio < RATIO_10K


def million_value_enum(n: int = 1_000_000) -> Toolset:
    """One tool whose one parameter is an enum of ``n`` identifier-like values."""
    values = tuple(f"region_{i:07d}_{tag(i)}" for i in range(n))
    return Toolset((ToolIR("pick_region", "Picks a region.", (
        ParamIR("region", TypeIR("enum", values=values), "The region."),)),), source="enum")


def test_bench_million_value_enum():
    toolset = million_value_enum()
    base = baseline_seconds(toolset, rounds=1)
    seconds, findings = best_scan_seconds(toolset, rounds=1)
    assert findings == []
    print(f"1,000,000-value enum: {seconds:.2f} s CPU, baseline {base:.2f} s, ratio "
          f"{seconds / base:.1f} (bound {RATIO_ENUM}; target 5 s)")
    assert seconds / base < RATIO_ENUM


def _scan_seconds(toolset: Toolset) -> float:
    return best_scan_seconds(toolset, rounds=3)[0]


@pytest.mark.parametrize("length", [20_000])
def test_bench_cost_is_linear_in_name_length(length):
    def names(n: int) -> Toolset:
        return Toolset((ToolIR("a" * n + "b"), ToolIR("a" * n + "c"), ToolIR("x" * n)))

    ratio = _scan_seconds(names(2 * length)) / max(_scan_seconds(names(length)), 1e-6)
    print(f"names of {length} and {2 * length} characters: time ratio {ratio:.2f}")
    assert ratio < LINEAR_BOUND


@pytest.mark.parametrize("unit", ["Reads the file and returns its contents. ",
                                  "Always set the value to x. ", "word "])
def test_bench_cost_is_linear_in_text_length(unit):
    def described(n: int) -> Toolset:
        return Toolset((ToolIR("t", (unit * (n // len(unit) + 1))[:n]),))

    small, large = described(100_000), described(200_000)
    _scan_seconds(small)  # the learned model is read once, outside the timing
    ratio = _scan_seconds(large) / max(_scan_seconds(small), 1e-6)
    print(f"a {unit.strip()!r} text of 100,000 and 200,000 characters: time ratio {ratio:.2f}")
    assert ratio < LINEAR_BOUND


# Hostile texts a server can send, each a prefix and one unit repeated: every one of them cost
# the square of its length (or worse) before a pattern was mended; 40,000 characters of them
# took 7 to 28 s.
HOSTILE = [
    ("dotted run (domain)", "Copy of ", "a.", "tool.description", ()),
    ("separator chain after a tool name", "Do not call send_mail or x", "-or",
     "tool.description", ("send_mail", "get_item")),
    ("dashes under an example heading", "You must always send the results. Example usage: do "
     "this\n", "-", "tool.description", ()),
    ("address characters (e-mail)", "Envía la copia del ", "a.", "tool.description", ()),
    ("an identifier of many words", "policy_", "by_", "param.default", ()),
    # 20,000 letters after an order in another language took 4.3 s (an identifier search
    # retried from every letter of the run)
    ("a letter run in a sentence in another language", "Всегда вызывай инструмент ", "a",
     "tool.description", ()),
]


@pytest.mark.parametrize("label,prefix,unit,kind,names", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_bench_cost_is_linear_on_hostile_text(label, prefix, unit, kind, names):
    def seconds(n: int) -> float:
        text = prefix + unit * (n // len(unit))
        best = float("inf")
        for _ in range(3):
            clear_caches()
            start = time.process_time()
            scan_text(text, kind, tool="t", tool_names=names)
            best = min(best, time.process_time() - start)
        return best

    small, large = seconds(20_000), seconds(40_000)
    print(f"{label}, 20,000 and 40,000 characters: {small:.3f} s, {large:.3f} s, ratio "
          f"{large / max(small, 1e-6):.2f}")
    assert large / max(small, 1e-6) < LINEAR_BOUND


@pytest.mark.benchmark(timer=time.process_time)
def test_bench_scan_10k_all_texts_unique(benchmark):
    toolset = toolset_10k(unique_params=True)
    base = baseline_seconds(toolset)
    findings = benchmark.pedantic(scan_toolset, args=(toolset,), setup=clear_caches, rounds=3,
                                  iterations=1)
    assert flagged_share(findings) < 0.01
    ratio = benchmark.stats.stats.min / base
    print(f"10,000 tools, every text unique: {benchmark.stats.stats.min:.3f} s CPU, baseline "
          f"{base:.3f} s, ratio {ratio:.1f}")
    assert ratio < WORST_CASE_RATIO
