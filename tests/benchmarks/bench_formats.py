"""Benchmark: every registered format renders the 97 real MCP tools in under 1 s (issue 3, point 8).

The tools are the 11 real MCP catalogues under ``datasets/mcp/`` (97 tools, the study's
``tools/list`` captures as IR JSON), each catalogue rendered as its own toolset, in every registered format (two-stage variants give their
stage-1 menu, which is what ``render`` returns). Timed as this process's CPU time
(``time.process_time``), best of three rounds after a warm-up round (which pays for lazy
imports), so other work on the shared machine does not fail it. The per-format times (best of
three) go to ``benchmark.extra_info["slowest_formats"]`` and are printed (``pytest -s``).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from toolform.formats import format_ids, render_block
from toolform.ir import Toolset

REAL_DIR = Path(__file__).resolve().parents[2] / "datasets" / "mcp"
LIMIT_SECONDS = 1.0


def real_toolsets() -> list[Toolset]:
    paths = sorted(p for p in REAL_DIR.glob("*.json") if p.stem != "catalogue")
    if not paths:
        pytest.skip(f"no real MCP catalogues under {REAL_DIR}")
    from toolform.io import load_tools

    return [load_tools(p) for p in paths]


def render_all(toolsets: list[Toolset], ids: list[str]) -> int:
    """Render every toolset in every format; the total characters written."""
    return sum(len(render_block(ts, fmt)) for fmt in ids for ts in toolsets)


def seconds_per_format(toolsets: list[Toolset], ids: list[str]) -> dict[str, float]:
    """CPU seconds to render every toolset in each format, best of three."""
    out = {}
    for fmt in ids:
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            for ts in toolsets:
                render_block(ts, fmt)
            best = min(best, time.process_time() - start)
        out[fmt] = best
    return out


@pytest.mark.benchmark(timer=time.process_time)
def test_bench_render_all_formats(benchmark):
    toolsets = real_toolsets()
    assert sum(len(ts) for ts in toolsets) == 97
    ids = format_ids()
    written = benchmark.pedantic(render_all, args=(toolsets, ids), rounds=3, iterations=1,
                                 warmup_rounds=1)
    assert written > 0
    per_format = seconds_per_format(toolsets, ids)
    slowest = sorted(per_format.items(), key=lambda kv: -kv[1])[:5]
    benchmark.extra_info["formats"] = len(ids)
    benchmark.extra_info["slowest_formats"] = {f: round(s, 4) for f, s in slowest}
    print(f"\n{len(ids)} formats x 97 tools: best {benchmark.stats.stats.min:.3f} s CPU; slowest: "
          + ", ".join(f"{f} {s * 1000:.1f} ms" for f, s in slowest))
    assert benchmark.stats.stats.min < LIMIT_SECONDS
