"""Benchmark: the run engine against a bare ``openai`` loop, side by side (issue 18, point 1).

All ask the same stub server (``stub_server.py``, its own process on 127.0.0.1) at the same
concurrency (4 requests in flight):

* the **bare loop**: a thread pool calling ``openai.OpenAI().chat.completions.create`` with one
  prompt rendered beforehand, nothing parsed, nothing written (the issue's baseline);
* the **raw loop**: the same, but sending as the runner's client does (the body encoded once
  beforehand and posted as bytes through the SDK's transport, the reply's JSON read);
* the **runner**: ``run_cells`` over the eight core formats × ``N / 8`` requests sharing one
  toolset (an agent's toolset, many requests), through ``OpenAICompatClient``, every reply
  parsed and graded under every rule, each turn written to a JSONL checkpoint.

Four conditions: a reply delay of 20 ms and of 0 ms, each on a quiet machine and beside a
CPU-bound neighbour process. Each condition runs ``ROUNDS`` interleaved rounds of the three,
back to back, the order rotating. Reported per condition: turns per second of bare and runner,
the throughput ratio runner / bare, the CPU time a turn costs in this process
(``time.process_time``, all threads), and the runner's extra CPU a turn over the bare loop (the
target) and over the raw loop (its own cost beyond sending and reading), in ms: the median of
the per-round differences, with their quartiles as its spread, and the load average at start
and end (the machine is shared). A round's members run within seconds of each other, so a load
that drifts during the run moves them alike; the median discards the odd round a burst of other
work lands on.

Beside the table, the CPU of the runner's own part of a turn, measured in this process without a
server: parsing, grading under every grading, building the row and encoding its checkpoint line
(``toolform.runs._turn_row`` and the journal's JSON encoding), the best of several passes.

Targets: extra CPU over the bare loop ≤ 0.5 ms a turn; ratio ≥ 0.9 at 20 ms and ≥ 0.8 at 0 ms,
quiet and busy. Run: ``nice python tests/benchmarks/bench_runner_overhead.py`` (or under pytest
with ``-s``).
"""

from __future__ import annotations

import json
import os
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
ROUNDS = 7
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


def raw_loop(base_url: str, n: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``n`` requests sent as the runner's client sends them:
    the body encoded once beforehand, posted as bytes through the SDK's transport, the reply's
    JSON read; nothing parsed as a call, graded or written. The runner minus this loop is the
    runner's own cost beyond sending and reading a request."""
    from toolform.clients._openai_compat import post_escaped

    sdk = openai.OpenAI(base_url=base_url, api_key="EMPTY", max_retries=0)
    params = {"model": "stub", "max_tokens": 160, "temperature": 0.0,
              "messages": render(TOOLS, "json_schema_openai", None,
                                 "What is the weather in Oslo?").messages}

    def one(_: int) -> str:
        body = json.loads(post_escaped(sdk, "/chat/completions", params))
        return body["choices"][0]["message"]["content"] or ""

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


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    """(lower quartile, median, upper quartile) of ``values``."""
    low, mid, high = statistics.quantiles(values, n=4, method="inclusive")
    return low, mid, high


def measure(delay_s: float, busy: bool, rounds: int = ROUNDS) -> dict[str, Any]:
    """One condition: ``rounds`` interleaved rounds of (bare, runner, raw), the order rotating.

    Each round gives a throughput ratio runner / bare and the extra CPU a turn of the runner
    over the bare loop (and over the raw loop), all over ``N_TURNS``, back to back: drift in
    the machine's load (six other engineers share it) moves the members of a round alike, so
    the median over rounds is the figure and the quartiles of the per-round values its spread.
    """
    arms = (bare_loop, runner, raw_loop)
    per: dict[Any, list[tuple[float, float]]] = {arm: [] for arm in arms}
    with StubServer(delay_s) as server:
        for arm in arms:  # warm every path (imports, connections)
            arm(server.base_url, 80)
        neighbour = Neighbour() if busy else None
        if neighbour:
            neighbour.__enter__()
        try:
            for i in range(rounds):
                for arm in arms[i % 3:] + arms[:i % 3]:
                    per[arm].append(arm(server.base_url, N_TURNS))
        finally:
            if neighbour:
                neighbour.__exit__()
    bare, ours, raw = per[bare_loop], per[runner], per[raw_loop]
    ratios = [b[0] / o[0] for b, o in zip(bare, ours)]
    extra = [1000 * (o[1] - b[1]) / N_TURNS for b, o in zip(bare, ours)]
    over_raw = [1000 * (o[1] - r[1]) / N_TURNS for r, o in zip(raw, ours)]

    def cpu_ms(samples: list[tuple[float, float]]) -> float:
        return statistics.median(1000 * c / N_TURNS for _, c in samples)

    return {"delay_ms": delay_s * 1000, "busy": busy, "rounds": rounds,
            "bare_turns_per_s": statistics.median(N_TURNS / w for w, _ in bare),
            "runner_turns_per_s": statistics.median(N_TURNS / w for w, _ in ours),
            "ratio": statistics.median(ratios), "ratio_quartiles": _quartiles(ratios),
            "bare_cpu_ms_per_turn": cpu_ms(bare), "runner_cpu_ms_per_turn": cpu_ms(ours),
            "raw_cpu_ms_per_turn": cpu_ms(raw),
            "extra_cpu_ms_per_turn": statistics.median(extra),
            "extra_cpu_quartiles": _quartiles(extra), "extra_cpu_rounds": extra,
            "over_raw_cpu_ms_per_turn": statistics.median(over_raw),
            "over_raw_cpu_quartiles": _quartiles(over_raw)}


def main() -> list[dict[str, Any]]:
    start_load = os.getloadavg()
    results = [measure(delay, busy) for busy in (False, True) for delay in (0.02, 0.0)]
    end_load = os.getloadavg()
    print(f"load average (1, 5, 15 min) at start {start_load[0]:.2f} {start_load[1]:.2f} "
          f"{start_load[2]:.2f}, at end {end_load[0]:.2f} {end_load[1]:.2f} {end_load[2]:.2f}; "
          f"{os.cpu_count()} cores; {N_TURNS} turns a sample, {ROUNDS} interleaved rounds a "
          f"condition, medians over rounds [quartiles]")
    print("| delay | neighbour | bare turns/s | runner turns/s | ratio [quartiles] | "
          "CPU ms/turn bare / raw / runner | extra CPU ms/turn over bare [quartiles] | "
          "over raw [quartiles] |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results:
        (rl, _, rh), (el, _, eh) = r["ratio_quartiles"], r["extra_cpu_quartiles"]
        ol, _, oh = r["over_raw_cpu_quartiles"]
        print(f"| {r['delay_ms']:.0f} ms | {'busy' if r['busy'] else 'quiet'} | "
              f"{r['bare_turns_per_s']:.0f} | {r['runner_turns_per_s']:.0f} | "
              f"{r['ratio']:.2f} [{rl:.2f}, {rh:.2f}] | {r['bare_cpu_ms_per_turn']:.2f} / "
              f"{r['raw_cpu_ms_per_turn']:.2f} / {r['runner_cpu_ms_per_turn']:.2f} | "
              f"{r['extra_cpu_ms_per_turn']:+.2f} [{el:+.2f}, {eh:+.2f}] | "
              f"{r['over_raw_cpu_ms_per_turn']:+.2f} [{ol:+.2f}, {oh:+.2f}] |")
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
