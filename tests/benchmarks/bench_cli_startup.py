"""Benchmark: ``toolform --help`` against ``python -c pass`` (issue 17, point 13).

Both commands run as fresh processes, in turn (A B A B ...), so a drift of the shared machine's
speed moves both. Each run's CPU time (user + system, from ``os.wait4``) and wall time are
taken; the figures are the medians over the runs, and the ratio is taken pair by pair. CPU time
is what the target is checked on (under 0.3 s): wall time on a busy two-core machine mostly
measures the other jobs. The console script is run when it sits beside the interpreter (a
virtual environment), else the same entry point through ``-c``.

Run with ``python -m pytest tests/benchmarks/bench_cli_startup.py -s``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 9
CPU_LIMIT_S = 0.3


def _command() -> list[str]:
    script = Path(sys.executable).with_name("toolform")
    if script.is_file():
        return [sys.executable, str(script), "--help"]
    return [sys.executable, "-c", "from toolform.cli import app; app()", "--help"]


def _timed(argv: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``argv``, which must exit 0."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0, process.stderr.read() if process.stderr else ""
    return usage.ru_utime + usage.ru_stime, wall


def measure(runs: int = RUNS) -> dict[str, float]:
    """Medians of ``toolform --help`` and ``python -c pass``, and of their pairwise ratios."""
    help_cmd, baseline = _command(), [sys.executable, "-c", "pass"]
    _timed(help_cmd), _timed(baseline)  # warm the file cache
    pairs = [(_timed(help_cmd), _timed(baseline)) for _ in range(runs)]
    return {
        "help_cpu_s": statistics.median(a[0] for a, _ in pairs),
        "help_wall_s": statistics.median(a[1] for a, _ in pairs),
        "pass_cpu_s": statistics.median(b[0] for _, b in pairs),
        "pass_wall_s": statistics.median(b[1] for _, b in pairs),
        "cpu_ratio": statistics.median(a[0] / max(b[0], 1e-3) for a, b in pairs),
        "wall_ratio": statistics.median(a[1] / max(b[1], 1e-3) for a, b in pairs),
    }


def test_help_starts_in_a_fraction_of_a_second():
    figures = measure()
    print("toolform --help: " + ", ".join(f"{k} {v:.3f}" for k, v in figures.items()))
    assert figures["help_cpu_s"] < CPU_LIMIT_S, figures


if __name__ == "__main__":
    print(measure())
