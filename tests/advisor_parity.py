"""Replay the advisor parity grid (``tests/fixtures/advisor_parity/grid.jsonl``) against ToolForm.

Each line holds a situation and what the reference package (``toolform`` 0.0.1, the study's own)
recommended for it; ``build.py`` beside the grid made it. Three agreement figures, as the issue
defines them:

* ``pick``: ToolForm's format and protocol are the reference's, or among its reported ties;
* ``basis``: the same basis string (``checkpoint:...``, ``anchor:...``, ``family:...``,
  ``pooled``);
* ``accuracy``: expected accuracy within :data:`ACCURACY_POINTS` percentage points.

Run as a script to print the figures per group: ``python tests/advisor_parity.py``.
"""

from __future__ import annotations

import collections
import functools
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GRID = ROOT / "tests" / "fixtures" / "advisor_parity" / "grid.jsonl"
ACCURACY_POINTS = 0.5
FIGURES = ("pick", "basis", "accuracy")


def load_grid() -> list[dict[str, Any]]:
    """Every line of the grid, in order."""
    return [json.loads(line) for line in GRID.read_text("utf-8").splitlines() if line.strip()]


@functools.lru_cache(maxsize=None)
def _tools(path: str) -> Any:
    from toolform.io import load_tools

    return load_tools(ROOT / path)


def ours(situation: dict[str, Any]) -> dict[str, Any]:
    """ToolForm's recommendation for one situation, in the grid's shape."""
    from toolform.advisor import recommend

    kwargs = dict(situation)
    tools = kwargs.pop("tools", None)
    try:
        rec = recommend(_tools(tools) if tools else None, **kwargs)
    except ValueError as exc:
        return {"error": str(exc)}
    return {"format_id": rec.format_id, "protocol_id": rec.protocol_id,
            "expected_accuracy": rec.expected_accuracy, "interval": list(rec.interval),
            "basis": rec.basis, "ties": [list(t) for t in rec.ties],
            "catalogue_strategy": rec.strategy, "schema_tokens": rec.schema_tokens,
            "cost_per_request": rec.cost_per_request,
            "guard_action": rec.guard.action if rec.guard else None}


def agreement(reference: dict[str, Any], mine: dict[str, Any]) -> dict[str, bool]:
    """The three agreement figures for one situation (both erring counts as agreeing)."""
    if "error" in reference or "error" in mine:
        same = ("error" in reference) == ("error" in mine)
        return dict.fromkeys(FIGURES, same)
    group = {(reference["format_id"], reference["protocol_id"])} | {
        tuple(t) for t in reference["ties"]}
    return {
        "pick": (mine["format_id"], mine["protocol_id"]) in group,
        "basis": mine["basis"] == reference["basis"],
        "accuracy": abs(mine["expected_accuracy"] - reference["expected_accuracy"])
        <= ACCURACY_POINTS,
    }


def measure() -> tuple[dict[str, float], dict[str, dict[str, float]], list[dict[str, Any]]]:
    """Agreement over the whole grid, per group, and every situation that differs.

    Returns
    -------
    (dict, dict, list)
        Overall percentages by figure (plus ``n``), the same per group, and one record per
        differing situation (``group``, ``situation``, ``reference``, ``ours``, ``differs``).
    """
    totals: collections.Counter[str] = collections.Counter()
    groups: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    differences = []
    for case in load_grid():
        mine = ours(case["situation"])
        agree = agreement(case["reference"], mine)
        for counter in (totals, groups[case["group"]]):
            counter["n"] += 1
            counter.update(k for k, v in agree.items() if v)
        if not all(agree.values()):
            differences.append({**case, "ours": mine,
                                "differs": [k for k, v in agree.items() if not v]})

    def pct(c: collections.Counter[str]) -> dict[str, float]:
        return {"n": c["n"], **{k: 100.0 * c[k] / c["n"] for k in FIGURES}}

    return pct(totals), {g: pct(c) for g, c in groups.items()}, differences


if __name__ == "__main__":
    overall, by_group, diffs = measure()
    print("overall  " + "  ".join(f"{k} {overall[k]:.1f}%" for k in FIGURES)
          + f"  (n={overall['n']})")
    for name, figures in by_group.items():
        print(f"  {name:12s} n={figures['n']:5d}  "
              + "  ".join(f"{k} {figures[k]:5.1f}%" for k in FIGURES))
    for d in diffs[:40]:
        print(json.dumps({k: d[k] for k in ("group", "situation", "differs")}))
        print("   ref ", json.dumps({k: d["reference"].get(k) for k in (
            "format_id", "protocol_id", "expected_accuracy", "basis", "ties")}))
        print("   ours", json.dumps({k: d["ours"].get(k) for k in (
            "format_id", "protocol_id", "expected_accuracy", "basis", "ties")}))
