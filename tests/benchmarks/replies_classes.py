"""The real-world reply cases per class of issue 14 (points 1 to 5): how many read right.

Usage::

    python tests/benchmarks/replies_classes.py             # this tree, the tuned split
    python tests/benchmarks/replies_classes.py --held-out  # the held-out split
    PYTHONPATH=/path/to/older/tree python tests/benchmarks/replies_classes.py   # another

Reads ``tests/fixtures/replies/real_world.jsonl`` (the split the parsers were tuned on) or,
with ``--held-out``, ``real_world_held_out.jsonl`` (replies from other threads, their
expectations written before they were first parsed; each case names the public thread or
document it reproduces) and prints, per class, the cases tried and the cases whose parse
matches every expectation; it runs against whichever ``toolform`` is imported, so the same
cases score an older tree too (an expectation about a field the older tree lacks fails).
``check`` is also what ``tests/test_protocols_real_world.py`` asserts case by case.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "fixtures" / "replies" / "real_world.jsonl"
HELD_OUT = ROOT / "tests" / "fixtures" / "replies" / "real_world_held_out.jsonl"
TOOLS = ROOT / "tests" / "fixtures" / "replies" / "real_world_tools.json"


def _typed(value: Any) -> Any:
    if isinstance(value, dict):
        return ("object", {k: _typed(v) for k, v in value.items()})
    if isinstance(value, list):
        return ("array", [_typed(v) for v in value])
    return (type(value).__name__, value)


def _calls(calls: Any) -> list[Any]:
    return [(c["name"], _typed(c["arguments"])) for c in calls]


def check(case: dict[str, Any], toolset: Any) -> list[str]:
    """What differs from the case's expectations (empty when it reads right)."""
    from toolform.protocols import parse_reply

    want = case["expect"]
    parsed = parse_reply(case["reply"], toolset, case["protocol_id"])
    wrong = []
    for key in ("parsed_strict", "format_compliant", "lenient_protocol", "vendor_shape"):
        if key in want and getattr(parsed, key, "<missing>") != want[key]:
            wrong.append(f"{key}: {getattr(parsed, key, '<missing>')!r} != {want[key]!r}")
    got = _calls([c.to_dict() for c in parsed.calls_as_written])
    if got != _calls(want["calls"]):
        wrong.append(f"calls: {got} != {_calls(want['calls'])}")
    if "lenient_calls" in want:
        lenient = parse_reply(case["reply"], toolset, case["protocol_id"], lenient_fallback=True)
        got = _calls([c.to_dict() for c in lenient.calls_as_written])
        if got != _calls(want["lenient_calls"]):
            wrong.append(f"lenient calls: {got} != {_calls(want['lenient_calls'])}")
    if "example_calls" in want:
        names = [c.name for c in getattr(parsed, "example_calls", ())]
        if names != want["example_calls"]:
            wrong.append(f"example calls: {names} != {want['example_calls']}")
    if "issue" in want and not any(want["issue"] in i for i in parsed.issues):
        wrong.append(f"no issue mentions {want['issue']!r}: {list(parsed.issues)}")
    if any("parser failed" in i for i in parsed.issues):
        wrong.append(f"a parser crashed: {list(parsed.issues)}")
    return wrong


def cases(held_out: bool = False) -> list[dict[str, Any]]:
    """Every case of the tuned split, or of the held-out one."""
    path = HELD_OUT if held_out else CASES
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]


def main(argv: list[str]) -> int:
    from toolform.ir import Toolset

    held_out = "--held-out" in argv
    toolset = Toolset.from_json(TOOLS.read_text("utf-8"))
    tried: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for case in cases(held_out):
        tried[case["class"]] += 1
        try:
            wrong = check(case, toolset)
            ok = not wrong
            if wrong:
                print(f"{case['id']}: {'; '.join(wrong)}", file=sys.stderr)
        except Exception as exc:  # noqa: BLE001 - an older tree may lack what a case asks
            print(f"{case['id']}: {type(exc).__name__}: {exc}", file=sys.stderr)
            ok = False
        right[case["class"]] += ok
    print(f"split: {'held out' if held_out else 'tuned'}")
    print("| class | cases tried | read right |\n| --- | --- | --- |")
    for cls in tried:
        print(f"| {cls} | {tried[cls]} | {right[cls]} |")
    print(f"| all | {sum(tried.values())} | {sum(right.values())} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
