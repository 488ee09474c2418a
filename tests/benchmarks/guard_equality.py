"""The guard's findings on every corpus it is developed on, recorded and compared, so that a
change meant only to make the scan faster can be shown to move no finding.

    python tests/benchmarks/guard_equality.py record /tmp/before.jsonl   # before the change
    python tests/benchmarks/guard_equality.py compare /tmp/before.jsonl  # after it: exit 0 when equal

What is scanned, each source as one line of the record (every finding's rule, name, severity,
tool, path, kind, offsets, excerpt and detail):

- every captured server of ``datasets/mcp_servers/tools/`` that a revision may read (the
  batches awaiting their one-time scoring are left out, as ``evaluate.py`` leaves them), through
  :func:`toolform.guard.guard` as ``toolform guard`` reads the file;
- every row of ``datasets/guard/labelled.jsonl`` and of each file of ``datasets/guard/blind/``,
  in its toolset (:func:`toolform.guard.labelled_toolset`), and alone through
  :func:`toolform.guard.scan_text` with its catalogue's names;
- the two 10,000-tool toolsets of ``bench_guard.py`` (repeated and unique parameter texts).

The caches are emptied before each source, so no source's result depends on the order.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "datasets" / "mcp_servers"), str(ROOT / "datasets" / "guard"),
                str(Path(__file__).resolve().parent)]

import bench_guard  # noqa: E402  (the benchmark's own toolsets)
import evaluate  # noqa: E402  (datasets/mcp_servers: which captures a revision may read)
import score_blind  # noqa: E402  (datasets/guard: how a blind batch is read)

from toolform.errors import LoaderError  # noqa: E402
from toolform.guard import (Finding, clear_caches, guard, labelled_toolset,  # noqa: E402
                            load_labelled_set, scan_text, scan_toolset)


def _rows(findings: list[Finding]) -> list[list[object]]:
    return [list(f.to_dict().values()) for f in findings]


def sources() -> Iterator[tuple[str, list[list[object]]]]:
    """(source label, its findings as lists of column values), for every source above."""
    for server, path in evaluate.captures():
        clear_caches()
        try:
            found = _rows(list(guard(path).findings))
        except LoaderError as exc:
            found = [["not read", str(exc)]]
        yield f"server {server['name']}", found
    batches = [("labelled", load_labelled_set())]
    for path in sorted((ROOT / "datasets" / "guard" / "blind").glob("*.jsonl")):
        batches.append((f"blind/{path.name}", score_blind.read_batch(path, "blind")))
    for label, rows in batches:
        for row in rows:
            clear_caches()
            in_toolset = _rows(scan_toolset(labelled_toolset(row)))
            alone = _rows(scan_text(row.text, row.place, tool=row.tool,
                                    tool_names=(*row.catalogue, row.tool)))
            yield f"{label} {row.id}", [*in_toolset, ["scan_text"], *alone]
    for unique in (False, True):
        clear_caches()
        yield (f"bench 10k unique_params={unique}",
               _rows(scan_toolset(bench_guard.toolset_10k(unique_params=unique))))


def record(out: Path) -> int:
    start = time.process_time()
    with out.open("w", encoding="utf-8") as fh:
        count = 0
        for label, found in sources():
            fh.write(json.dumps([label, found], ensure_ascii=False) + "\n")
            count += len(found)
    print(f"recorded {count} rows to {out} in {time.process_time() - start:.1f} s CPU")
    return 0


def compare(recorded: Path) -> int:
    before = dict(json.loads(line) for line in recorded.read_text(encoding="utf-8").splitlines())
    now = dict(sources())
    moved = [k for k in sorted(before.keys() | now.keys()) if before.get(k) != now.get(k)]
    for label in moved[:20]:
        old, new = before.get(label, []), now.get(label, [])
        print(f"{label}: {len(old)} rows before, {len(new)} now")
        for row in [r for r in old if r not in new][:5]:
            print(f"  - {row}")
        for row in [r for r in new if r not in old][:5]:
            print(f"  + {row}")
    print(f"{len(now)} sources, {sum(map(len, now.values()))} rows; {len(moved)} moved")
    return 1 if moved else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("record", "compare"))
    parser.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    return record(args.file) if args.action == "record" else compare(args.file)


if __name__ == "__main__":
    sys.exit(main())
