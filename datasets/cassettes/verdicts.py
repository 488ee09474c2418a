"""Re-grade every committed cassette and compare the verdicts with the committed snapshot.

Each recorded experiment is replayed offline (no model is asked) and every turn's verdicts are
written as one JSON line keyed by what identifies the turn. The snapshot under
``datasets/cassettes/verdicts/`` is what the current parsers and graders say of the recorded
replies; ``tests/test_recorded_verdicts.py`` fails when a change moves any of them.

Usage::

    python datasets/cassettes/verdicts.py diff     # how many verdicts moved, per cassette
    python datasets/cassettes/verdicts.py write    # accept the current verdicts as the snapshot

After a deliberate parser or grader change, run ``diff`` (its per-cassette counts go in the
closing note), then ``write``, and commit the snapshot with the change.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

SNAPSHOT_DIR = Path(__file__).resolve().parent / "verdicts"

#: Columns of a run-engine turn row that carry a verdict or what the parser read (``verdicts``:
#: each rule's correct, tool_correct, schema_valid and reason).
RUN_VERDICTS = ("correct_main", "correct_symmetric", "correct_as_written",
                "correct_possible_answers", "correct_end_state", "tool_correct", "schema_valid",
                "format_compliant", "parsed_strict", "parsed_lenient", "lenient_protocol",
                "n_calls", "calls", "verdicts")
SWEEP_VERDICTS = ("correct_main", "correct_symmetric", "tool_correct", "no_call", "selected",
                  "selection_failed", "gold_shown", "n_calls", "calls")


def _plain(value: Any) -> Any:
    """A JSON-comparable form of a frame cell (pandas NA and numpy scalars made plain)."""
    try:
        import pandas as pd

        if value is None or (not isinstance(value, (list, dict, tuple)) and pd.isna(value)):
            return None
    except (TypeError, ValueError):
        pass
    if hasattr(value, "item") and not isinstance(value, (list, dict, str)):
        return value.item()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _rows(frame: Any, keys: tuple[str, ...], verdicts: tuple[str, ...],
          extra: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    for record in frame.to_dict("records"):
        row = {**(extra or {}), **{k: _plain(record[k]) for k in keys}}
        row["verdicts"] = {v: _plain(record[v]) for v in verdicts if v in record}
        yield row


def _ab8() -> Iterator[dict[str, Any]]:
    from toolform.experiments import recorded_ab

    result = recorded_ab(concurrency=1)
    yield from _rows(result.turns, ("cell", "request_id"), RUN_VERDICTS)


def _bfcl_arm() -> Iterator[dict[str, Any]]:
    from toolform.experiments import recorded_bfcl_arm

    turns = recorded_bfcl_arm().turns
    yield from _rows(turns, ("cell", "request_id"), RUN_VERDICTS)


def _catalogue_sweep() -> Iterator[dict[str, Any]]:
    from toolform.experiments import recorded_sweep

    turns = recorded_sweep().turns
    yield from _rows(turns, ("strategy", "n_tools", "request_id"), SWEEP_VERDICTS)


def _atlas() -> Iterator[dict[str, Any]]:
    from toolform.atlas import recorded_atlas

    turns = recorded_atlas(concurrency=1).turns
    yield from _rows(turns, ("cell", "request_id"), RUN_VERDICTS)


def _hijack() -> Iterator[dict[str, Any]]:
    from toolform.experiments import RECORDED_HIJACK_SENTENCES, recorded_hijack

    for i, sentence in enumerate(RECORDED_HIJACK_SENTENCES):
        turns = recorded_hijack(sentence).turns
        yield from _rows(turns, ("condition", "cell", "request_id"), RUN_VERDICTS + ("followed",),
                         extra={"sentence": i})


#: cassette file name -> the replay that re-grades it
EXPERIMENTS: dict[str, Callable[[], Iterator[dict[str, Any]]]] = {
    "ab8_qwen2.5-coder-0.5b-instruct": _ab8,
    "atlas_qwen2.5-coder-0.5b-instruct": _atlas,
    "bfcl_arm_qwen2.5-coder-0.5b-instruct": _bfcl_arm,
    "catalogue_sweep_qwen2.5-coder-0.5b-instruct": _catalogue_sweep,
    "hijack_qwen2.5-coder-0.5b-instruct": _hijack,
}


def _key(row: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in row.items() if k != "verdicts"}, sort_keys=True)


def current(name: str) -> list[dict[str, Any]]:
    """The verdict rows the current code gives for one cassette's recorded replies."""
    return sorted(EXPERIMENTS[name](), key=_key)


def snapshot(name: str) -> list[dict[str, Any]]:
    """The committed verdict rows of one cassette (empty when none is committed)."""
    path = SNAPSHOT_DIR / f"{name}.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def compare(name: str) -> dict[str, Any]:
    """Compare one cassette's current verdicts with its snapshot.

    Returns
    -------
    dict
        ``turns`` (current rows), ``moved`` (turns whose verdicts differ), ``by_column``
        (column -> turns where it differs), ``added``/``removed`` (turn keys only on one side)
        and ``examples`` (up to five moved turns: key, before, after).
    """
    now = {_key(r): r["verdicts"] for r in current(name)}
    before = {_key(r): r["verdicts"] for r in snapshot(name)}
    moved, by_column, examples = 0, {}, []
    for key in now.keys() & before.keys():
        diff = {c for c in set(now[key]) | set(before[key]) if now[key].get(c) != before[key].get(c)}
        if diff:
            moved += 1
            for c in diff:
                by_column[c] = by_column.get(c, 0) + 1
            if len(examples) < 5:
                examples.append({"turn": json.loads(key),
                                 "before": {c: before[key].get(c) for c in sorted(diff)},
                                 "after": {c: now[key].get(c) for c in sorted(diff)}})
    return {"turns": len(now), "moved": moved, "by_column": dict(sorted(by_column.items())),
            "added": len(now.keys() - before.keys()), "removed": len(before.keys() - now.keys()),
            "examples": examples}


def write(name: str) -> int:
    """Write the current verdicts of one cassette as its snapshot; returns the row count."""
    rows = current(name)
    SNAPSHOT_DIR.mkdir(exist_ok=True)
    text = "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows)
    (SNAPSHOT_DIR / f"{name}.jsonl").write_text(text, encoding="utf-8")
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("diff", "write"))
    parser.add_argument("--cassette", choices=sorted(EXPERIMENTS), action="append",
                        help="only this cassette (repeatable); default all")
    parser.add_argument("--examples", action="store_true", help="print moved turns (diff)")
    args = parser.parse_args(argv)
    names = args.cassette or list(EXPERIMENTS)
    status = 0
    for name in names:
        if args.command == "write":
            print(f"{name}: {write(name)} turns written")
            continue
        result = compare(name)
        print(f"{name}: {result['moved']} of {result['turns']} turns moved"
              f" (+{result['added']} / -{result['removed']} turns) {result['by_column']}")
        if args.examples:
            for example in result["examples"]:
                print("   ", json.dumps(example, ensure_ascii=False)[:600])
        status |= bool(result["moved"] or result["added"] or result["removed"])
    return status


if __name__ == "__main__":
    sys.exit(main())
