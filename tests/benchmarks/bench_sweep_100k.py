"""Benchmark: a 100,000-turn simulated sweep on the local and the Ray executors (issue 18, point 8).

The sweep: the eight core formats × 12,500 requests sharing one toolset, answered by a
simulated model that waits a uniform 0–20 ms and replies with a ``json_object`` call (as a
stub server would; no HTTP, so the figures are the run engine's and the executor's, not the
SDK's). Each executor runs in its own process, writing a JSONL checkpoint; reported are turns per
second (wall), the process's peak resident memory (``ru_maxrss``, the driver's for Ray) and the
checkpoint's size. Concurrency: 32 requests in flight on both (local: 32 threads; Ray: two
endpoints × 16, one threaded actor each, under ``ray.init(num_cpus=2)``).

Run: ``nice python tests/benchmarks/bench_sweep_100k.py [--turns 100000] [--executors local,ray]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONCURRENCY = 32
REPLY_TEXT = '{"name": "get_weather", "arguments": {"city": "Oslo"}}'


class SimulatedModel:
    """A model that waits 0–20 ms and answers the same call, with usage counts."""

    def __init__(self, base_url: str = "sim://", model: str = "sim", **_: object) -> None:
        self.model = model
        self.base_url = base_url

    def complete(self, messages, *, max_tokens=None, temperature=None, tools=None,
                 extra_body=None):
        from toolform.clients import Completion

        delay = random.uniform(0.0, 0.02)
        time.sleep(delay)
        return Completion(REPLY_TEXT, None, 300, 17, delay, self.model, "stop")

    def describe(self) -> dict[str, str]:
        return {"client": "SimulatedModel", "model": self.model}


def simulated_model(base_url: str, model: str, **options: object) -> SimulatedModel:
    """The Ray executor's client factory (module level, so it pickles)."""
    return SimulatedModel(base_url, model)


def one(executor_name: str, turns: int) -> dict[str, float | str | int]:
    """Run the sweep on one executor in this process."""
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_runner_overhead import _requests

    from toolform.study import CORE_FORMATS
    from toolform.executors import LocalExecutor, RayExecutor
    from toolform.runs import Cell, run_cells

    requests = _requests(turns // len(CORE_FORMATS))
    if executor_name == "ray":
        import ray

        if os.environ.get("RAY_ADDRESS"):  # a cluster already up (`ray start --head ...`)
            ray.init(address=os.environ["RAY_ADDRESS"], log_to_driver=False)
        else:
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        executor = RayExecutor({"sim": ["sim://a", "sim://b"]}, per_endpoint=CONCURRENCY // 2,
                               client_factory=simulated_model)
    else:
        executor = LocalExecutor(CONCURRENCY)
    with tempfile.TemporaryDirectory() as folder:
        checkpoint = Path(folder) / "turns.jsonl"
        start = time.perf_counter()
        frame = run_cells([Cell(f) for f in CORE_FORMATS], requests, SimulatedModel(),
                          checkpoint=checkpoint, executor=executor, progress=False,
                          max_tokens=160)
        wall = time.perf_counter() - start
        size = checkpoint.stat().st_size
    assert len(frame) == len(CORE_FORMATS) * len(requests) and frame["error"].isna().all()
    return {"executor": executor_name, "turns": len(frame), "wall_s": wall,
            "turns_per_s": len(frame) / wall,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "checkpoint_mb": size / 2**20, "checkpoint_bytes_per_turn": size / len(frame)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--executors", default="local,ray")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.turns)))
        return
    results = []
    for name in args.executors.split(","):
        out = subprocess.run([sys.executable, __file__, "--one", name, "--turns",
                              str(args.turns)], stdout=subprocess.PIPE, text=True, check=True)
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    print("| executor | turns | wall s | turns/s | peak RSS MB | checkpoint MB | bytes/turn |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['executor']} | {r['turns']} | {r['wall_s']:.0f} | {r['turns_per_s']:.0f} | "
              f"{r['peak_rss_mb']:.0f} | {r['checkpoint_mb']:.1f} | "
              f"{r['checkpoint_bytes_per_turn']:.0f} |")


if __name__ == "__main__":
    main()
