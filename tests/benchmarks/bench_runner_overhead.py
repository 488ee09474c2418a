"""Benchmark: the run engine against a bare ``openai`` loop, side by side (issue 18, point 1).

Both ask the same stub server (``stub_server.py``, its own process on 127.0.0.1) at the same
concurrency (4 requests in flight):

* the **bare loop**: a thread pool calling ``openai.OpenAI().chat.completions.create`` with one
  prompt rendered beforehand, nothing parsed, nothing written;
* the **runner**: ``run_cells`` over the eight core formats × ``N / 8`` requests sharing one
  toolset (an agent's toolset, many requests), through ``OpenAICompatClient``, every reply
  parsed and graded under every rule, each turn written to a JSONL checkpoint.

Four conditions: a reply delay of 20 ms and of 0 ms, each on a quiet machine and beside a
CPU-bound neighbour process. Each condition alternates bare and runner ``ROUNDS`` times and
keeps the median of each. Reported: turns per second of each, the ratio runner / bare, and the
extra CPU time a turn costs in this process (``time.process_time``, all threads), in ms.

Beside the table, the CPU of the runner's own part of a turn, measured in this process without a
server: parsing, grading under every grading, building the row and encoding its checkpoint line
(``toolform.runs._turn_row`` and the journal's JSON encoding), the best of several passes. The
rest of the extra CPU is the client, the executor's threads and the plan.

Targets: extra CPU ≤ 0.5 ms a turn; ratio ≥ 0.9 at 20 ms and ≥ 0.8 at 0 ms, quiet and busy.
Run: ``nice python tests/benchmarks/bench_runner_overhead.py`` (or under pytest with ``-s``).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import openai

sys.path.insert(0, str(Path(__file__).parent))
from stub_server import Neighbour, StubServer  # noqa: E402

from toolform.study import CORE_FORMATS  # noqa: E402
from toolform.clients import OpenAICompatClient  # noqa: E402
from toolform.formats import render  # noqa: E402
from toolform.ir import GoldCall, ParamIR, Request, ToolCall, ToolIR, Toolset, TypeIR  # noqa: E402
from toolform.runs import Cell, run_cells  # noqa: E402

N_TURNS = 800
CONCURRENCY = 4
ROUNDS = 3
TOOLS = Toolset(tuple(
    ToolIR(f"tool_{i}", f"Tool number {i}: looks something up.", params=(
        ParamIR("city", TypeIR("string"), "City name."),
        ParamIR("unit", TypeIR("enum", values=("celsius", "fahrenheit")), "Unit.",
                required=False, default="celsius"),
        ParamIR("days", TypeIR("integer"), "Days ahead.", required=False, default=1),
    )) for i in range(6)) + (ToolIR("get_weather", "Current weather for a city.", params=(
        ParamIR("city", TypeIR("string"), "City name."),)),))


def _requests(n: int) -> list[Request]:
    gold = (GoldCall.from_call(ToolCall("get_weather", {"city": "Oslo"})),)
    return [Request(id=f"r{i}", text=f"What is the weather in Oslo? ({i})", toolset=TOOLS,
                    gold=gold, category="bench") for i in range(n)]


def bare_loop(base_url: str, n: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``n`` plain SDK requests, ``CONCURRENCY`` at a time."""
    sdk = openai.OpenAI(base_url=base_url, api_key="EMPTY", max_retries=0)
    messages = render(TOOLS, "json_schema_openai", None, "What is the weather in Oslo?").messages

    def one(_: int) -> str:
        reply = sdk.chat.completions.create(model="stub", messages=messages, max_tokens=160,
                                            temperature=0.0)
        return reply.choices[0].message.content or ""

    wall, cpu = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(CONCURRENCY) as pool:
        list(pool.map(one, range(n)))
    return time.perf_counter() - wall, time.process_time() - cpu


def runner(base_url: str, n: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``run_cells`` over the eight cells, ``n`` turns in all."""
    client = OpenAICompatClient(base_url, "stub", max_concurrency=CONCURRENCY)
    requests = _requests(n // len(CORE_FORMATS))
    with tempfile.TemporaryDirectory() as folder:
        wall, cpu = time.perf_counter(), time.process_time()
        frame = run_cells([Cell(f) for f in CORE_FORMATS], requests, client,
                          checkpoint=Path(folder) / "turns.jsonl", max_concurrency=CONCURRENCY,
                          max_tokens=160, progress=False)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert len(frame) == n and frame["error"].isna().all(), frame["error"].dropna().head()
    return wall, cpu


def turn_path_ms(passes: int = 15) -> dict[str, float]:
    """CPU ms a turn of the runner's own work on a reply, without a server (best of ``passes``):
    ``row`` (parse, grade, row) and ``line`` (the checkpoint line's JSON encoding)."""
    from toolform.clients import Completion
    from toolform.cost import get_price
    from toolform.executors import Outcome
    from toolform.plan import plan_run
    from toolform.runs import _turn_row
    from stub_server import REPLY_TEXT

    plan = plan_run([Cell(f) for f in CORE_FORMATS], _requests(50), model="stub", max_tokens=160)
    reply = Completion(text=REPLY_TEXT, tool_calls=None, prompt_tokens=321, completion_tokens=17,
                       latency_s=0.001, model="stub", finish_reason="stop")
    outcomes = [Outcome(turn, reply, None) for turn in plan]
    price = get_price("frontier_api")

    def timed(work: Any) -> float:
        start = time.process_time()
        for item in work:
            pass
        return 1000 * (time.process_time() - start) / len(outcomes)

    rows = [_turn_row(o, price) for o in outcomes]
    row = min(timed(_turn_row(o, price) for o in outcomes) for _ in range(passes))
    line = min(timed(json.dumps(r, ensure_ascii=True, sort_keys=True, default=str).encode()
                     for r in rows) for _ in range(passes))
    return {"row": row, "line": line}


def measure(delay_s: float, busy: bool) -> dict[str, float]:
    """One condition: medians over ``ROUNDS`` alternating rounds."""
    bare, ours = [], []
    with StubServer(delay_s) as server:
        bare_loop(server.base_url, 40)  # warm both paths (imports, connections)
        runner(server.base_url, 40)
        neighbour = Neighbour() if busy else None
        if neighbour:
            neighbour.__enter__()
        try:
            for _ in range(ROUNDS):
                bare.append(bare_loop(server.base_url, N_TURNS))
                ours.append(runner(server.base_url, N_TURNS))
        finally:
            if neighbour:
                neighbour.__exit__()
    bare_wall = statistics.median(w for w, _ in bare)
    ours_wall = statistics.median(w for w, _ in ours)
    bare_cpu = statistics.median(c for _, c in bare)
    ours_cpu = statistics.median(c for _, c in ours)
    return {"delay_ms": delay_s * 1000, "busy": busy,
            "bare_turns_per_s": N_TURNS / bare_wall, "runner_turns_per_s": N_TURNS / ours_wall,
            "ratio": bare_wall / ours_wall,
            "bare_cpu_ms_per_turn": 1000 * bare_cpu / N_TURNS,
            "runner_cpu_ms_per_turn": 1000 * ours_cpu / N_TURNS,
            "extra_cpu_ms_per_turn": 1000 * (ours_cpu - bare_cpu) / N_TURNS}


def main() -> list[dict[str, float]]:
    results = [measure(delay, busy) for busy in (False, True) for delay in (0.02, 0.0)]
    print("| delay | neighbour | bare turns/s | runner turns/s | ratio | bare CPU ms/turn | "
          "runner CPU ms/turn | extra CPU ms/turn |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['delay_ms']:.0f} ms | {'busy' if r['busy'] else 'quiet'} | "
              f"{r['bare_turns_per_s']:.0f} | {r['runner_turns_per_s']:.0f} | {r['ratio']:.2f} | "
              f"{r['bare_cpu_ms_per_turn']:.2f} | {r['runner_cpu_ms_per_turn']:.2f} | "
              f"{r['extra_cpu_ms_per_turn']:.2f} |")
    path = turn_path_ms()
    print(f"runner's own work on a reply: {path['row']:.3f} ms CPU a turn to parse, grade and "
          f"build the row, {path['line']:.3f} ms to encode its checkpoint line")
    return results


def test_runner_keeps_up_with_a_bare_openai_loop():
    for r in main():
        floor = 0.9 if r["delay_ms"] else 0.8
        assert r["ratio"] >= floor, r
        assert r["extra_cpu_ms_per_turn"] <= 0.5, r


if __name__ == "__main__":
    main()
