"""Benchmark: the worst-case parse CPU per protocol on adversarial replies (issue 14, point 6).

Every reply of ``tests/benchmarks/adversarial.py`` at 1,000,000 characters (the largest reply
``parse_reply`` reads, ``MAX_REPLY_CHARS``) and at 250,000, 62,500 and 15,625 (:data:`SIZES`)
is parsed under every registered protocol, with ``lenient_fallback`` off and on, each parse
cold: the parsers' memoised passes are forgotten first (:func:`forget_parser_caches`), as for a reply no
parser has seen, so no protocol rides on what the one before it left in a cache. The time is
this process's CPU time (``time.process_time``), so other work on the shared machine does not
inflate it, with the garbage collector off during each parse as ``timeit`` does (:func:`_cpu`).
A reply taking more than :data:`LIMIT_S` at any size fails the benchmark. Two ratios, measured in the same run, make the figures
comparable across machines: each protocol's worst time over the *baseline*, the CPU of one
pass of a non-backtracking tokenising regular expression over the same reply
(:func:`baseline`), and the *growth*: the slowest pairs (reply, protocol) timed again at the
full size and at 1/16 of it (64 KB at 1 MB), each parse with the parsers' memoised passes
forgotten first (:func:`forget_parser_caches`, so both sizes pay for their own), where linear work gives a
ratio near 16 and quadratic work 256 (a pair growing by more than :data:`GROWTH_LIMIT`
fails). The smaller sizes matter on their own: a reader's caps (``MAX_CANDIDATES``,
``MAX_BRACKET_STEPS``) refuse a 1 MB reply early, while a smaller one just under them is read
in full, and "up to 1 MB" includes it. The worst reply per protocol (with its size) and the
worst parser (the protocol parser's own ``read`` on the reasoning-free text, at 1/16 of the
size) per input are printed (``pytest -s``) and go to ``benchmark.extra_info``.

Run it alone, with ``nice``::

    nice -n 19 python -m pytest tests/benchmarks/bench_worst_case.py -s

``TOOLFORM_WORST_SIZE`` overrides the size (characters) for a quicker look.
"""

from __future__ import annotations

import gc
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

from toolform.protocols import get_protocol, parse_reply, protocol_ids

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]
from adversarial import adversarial_replies, forget_parser_caches  # noqa: E402
from test_protocols import TOOLS  # noqa: E402

SIZE = int(os.environ.get("TOOLFORM_WORST_SIZE", "1000000"))
#: The issue's bound: no reply of up to 1 MB costs more than this many CPU seconds.
LIMIT_S = 0.1
#: The smaller size of the growth pairs is the full size over this (1 MB / 16 = 62.5 KB).
GROWTH_SIZE_RATIO = 16
#: The sizes every reply is parsed at, in characters.
SIZES = tuple(SIZE // d for d in (1, 4, 16, 64))
#: Most a pair (reply, protocol) may grow from the smaller size to the full size (linear work
#: grows by about 16, quadratic by 256; twice linear leaves room for a noisy machine).
GROWTH_LIMIT = 32.0
#: Pairs timed again at both sizes (the slowest ones at full size, above 5 ms).
GROWTH_PAIRS = 12
_TOKENS = re.compile(r"\w+|[^\w\s]")

#: A reply still running after this many CPU seconds is stopped and counted at this value.
STOP_S = 20.0


class _Stopped(Exception):
    pass


def _stop(signum: int, frame: Any) -> None:
    raise _Stopped


def _cpu(fn: Any, *args: Any, **kwargs: Any) -> float:
    """CPU seconds ``fn`` takes (at most :data:`STOP_S`), with the cyclic garbage collector
    off while it runs, as ``timeit`` times: a full collection walks the whole process's heap
    (under pytest, about 60 ms here), and one landing inside a parse is the heap's cost, not
    the reply's (measured: with collection on, single parses of 40-60 ms took 120-140 ms). The
    garbage the parse leaves is collected after it, when the next allocation finds the
    collector on again."""
    gc.disable()
    signal.setitimer(signal.ITIMER_PROF, STOP_S)
    start = time.process_time()
    try:
        fn(*args, **kwargs)
    except _Stopped:
        return STOP_S
    except Exception:  # noqa: BLE001 - a parser may raise ParseError here; only time matters
        pass
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        gc.enable()
    return time.process_time() - start


def _cold(fn: Any, *args: Any, **kwargs: Any) -> float:
    """CPU seconds ``fn`` takes after :func:`forget_parser_caches`, with no stop timer (and,
    as :func:`_cpu`, no garbage collection): only pairs that already ran to their end are timed
    so, and while a CPU timer is armed the process clock advances in scheduler ticks (4 ms
    here), too coarse for a 64 KB reply."""
    forget_parser_caches()
    gc.disable()
    start = time.process_time()
    try:
        fn(*args, **kwargs)
    except Exception:  # noqa: BLE001 - only time matters
        pass
    finally:
        gc.enable()
    return time.process_time() - start


def baseline(reply: str) -> float:
    """CPU seconds of one tokenising pass over ``reply`` (words and single punctuation marks,
    a regular expression that cannot backtrack): the unit of the benchmark's ratios. Timed
    without the stop timer, whose 4 ms ticks would round a pass of a millisecond to nothing."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        _TOKENS.findall(reply)
        best = min(best, time.process_time() - start)
    return best


def measure(size: int = SIZE) -> dict[str, Any]:
    """Worst CPU seconds per protocol (``parse_reply``) and per input (slowest parser), each
    protocol's worst ratio to the baseline, and the growth of the slowest pairs."""
    signal.signal(signal.SIGPROF, _stop)
    small_size = size // GROWTH_SIZE_RATIO
    worst: dict[str, tuple[float, str]] = {}
    ratio: dict[str, float] = {}
    parsers: dict[str, tuple[float, str]] = {}
    over: list[tuple[str, str, bool, float]] = []
    pairs: list[tuple[float, str, str, bool]] = []
    for at in (size, size // 4, small_size, size // 64):
        label = "" if at == size else f" at {at:,}"
        for kind, name, reply in adversarial_replies(at):
            unit = max(baseline(reply), 1e-6) if at == size else None
            for pid in protocol_ids():
                for fallback in (False, True):
                    forget_parser_caches()
                    spent = _cpu(parse_reply, reply, TOOLS, pid, lenient_fallback=fallback)
                    if unit is not None:
                        pairs.append((spent, name, pid, fallback))
                        ratio[pid] = max(ratio.get(pid, 0.0), spent / unit)
                    if spent > worst.get(pid, (-1.0, ""))[0]:
                        worst[pid] = (spent, name + label)
                    if spent > LIMIT_S:
                        over.append((name + label, pid, fallback, spent))
            if at == small_size:
                for pid in protocol_ids():
                    forget_parser_caches()
                    spent = _cpu(get_protocol(pid).protocol.read, reply, TOOLS)
                    if spent > parsers.get(name, (-1.0, ""))[0]:
                        parsers[name] = (spent, pid)
    full = {name: reply for _, name, reply in adversarial_replies(size)}
    smaller = {name: reply for _, name, reply in adversarial_replies(small_size)}
    growth = {}
    for spent, name, pid, fallback in sorted(pairs, reverse=True)[:GROWTH_PAIRS]:
        if spent > 0.005:
            big = min(_cold(parse_reply, full[name], TOOLS, pid, lenient_fallback=fallback)
                      for _ in range(2))
            small = min(_cold(parse_reply, smaller[name], TOOLS, pid,
                              lenient_fallback=fallback) for _ in range(3))
            growth[(name, pid, fallback)] = big / max(small, 1e-6)
    return {"worst": worst, "ratio": ratio, "parsers": parsers, "over": over,
            "growth": growth}


def test_bench_worst_case_parse(benchmark):
    result = benchmark.pedantic(measure, rounds=1, iterations=1)
    worst, parsers, over = result["worst"], result["parsers"], result["over"]
    ratio, growth = result["ratio"], result["growth"]
    print(f"\nworst cold parse_reply CPU per protocol, adversarial replies of "
          f"{', '.join(f'{n:,}' for n in SIZES)} characters "
          f"(and the worst ratio to one tokenising pass over the same reply at {SIZE:,}):")
    for pid in sorted(worst, key=lambda p: -worst[p][0]):
        print(f"  {pid:22s} {worst[pid][0] * 1000:8.1f} ms  x{ratio[pid]:7.1f}  "
              f"({worst[pid][1]})")
    print(f"growth from 1/{GROWTH_SIZE_RATIO} of the size, memoised passes forgotten "
          f"(linear: ~{GROWTH_SIZE_RATIO}, quadratic: ~{GROWTH_SIZE_RATIO ** 2}):")
    for (name, pid, fallback), g in growth.items():
        print(f"  {name:22s} {pid:22s} lenient={fallback!s:5s} x{g:.1f}")
    print("slowest parser per input (its read alone):")
    for name in sorted(parsers, key=lambda n: -parsers[n][0])[:15]:
        print(f"  {name:22s} {parsers[name][0] * 1000:8.1f} ms  ({parsers[name][1]})")
    benchmark.extra_info.update({
        "sizes_chars": list(SIZES),
        "worst_ms": {p: round(v * 1000, 1) for p, (v, _) in worst.items()},
        "worst_input": {p: n for p, (_, n) in worst.items()},
        "worst_ratio_to_baseline": {p: round(v, 1) for p, v in ratio.items()},
        "growth_from_sixteenth": {f"{n}/{p}/{f}": round(g, 2) for (n, p, f), g in growth.items()},
        "over_limit": len(over),
    })
    assert not over, over[:10]
    assert all(g < GROWTH_LIMIT for g in growth.values()), growth
