"""Run the guard over the captured servers, one server at a time, and print the table.

    python datasets/mcp_servers/evaluate.py                 # the development servers
    python datasets/mcp_servers/evaluate.py --split heldout # the held-out servers
    python datasets/mcp_servers/evaluate.py --split heldout --findings   # and each high finding
    python datasets/mcp_servers/evaluate.py --split heldout --batch 2     # the second batch

For each server: its tools, the text fields the guard read (titles, descriptions, defaults and
enum values; names aside), the text fields with a high finding, the high findings, and the exit
status ``toolform guard`` gives it with the default gate (``--fail-on high``: 0 passes, 1
fails, 2 the file could not be read). The last line pools the servers: the share of text fields flagged high and how many
servers exit 0. Held-out servers are for scoring a revision once, never for revising it (see
``README.md``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Iterator

from toolform.errors import LoaderError
from toolform.guard import guard

HERE = Path(__file__).resolve().parent


def _manifest_doc() -> dict[str, Any]:
    return json.loads((HERE / "servers.json").read_text(encoding="utf-8"))


def _manifest() -> list[dict[str, Any]]:
    return _manifest_doc()["servers"]


def awaiting() -> list[int]:
    """The batches captured but not yet scored (the manifest's ``awaiting_scoring``): no rule
    revision reads them, so :func:`captures` leaves them out unless ``batch`` names one."""
    return list(_manifest_doc().get("awaiting_scoring", ()))


def batches() -> list[int]:
    """The batches ``servers.json`` names, in increasing order (an entry without a ``batch``
    field is of batch 1)."""
    return sorted({s.get("batch", 1) for s in _manifest()})


def captures(split: str | None = None,
             batch: int | None = None) -> Iterator[tuple[dict[str, Any], Path]]:
    """The manifest entry and capture file of every captured server of ``split`` (``"dev"``,
    ``"heldout"``; every server when ``None``) and of ``batch`` (one of :func:`batches`, when
    given; without it, every batch but those :func:`awaiting` their scoring), in the order of
    their file names."""
    entry = {s["name"]: s for s in _manifest()}
    waiting = awaiting()
    for path in sorted((HERE / "tools").glob("*.json")):
        server = entry[path.stem]
        number = server.get("batch", 1)
        if (split is None or server["split"] == split) and (
                number == batch if batch is not None else number not in waiting):
            yield server, path


def rows(split: str | None = None, batch: int | None = None) -> list[dict[str, object]]:
    """One row per captured server of ``split`` and ``batch`` (see :func:`captures`): name,
    package, split, batch, tools, texts, fields flagged high, high findings, exit status, and
    the high findings themselves. Each capture is read and scanned once."""
    out = []
    for server, path in captures(split, batch):
        row: dict[str, object] = {
            "server": server["name"], "package": f"{server['package']}@{server['version']}",
            "split": server["split"], "batch": server.get("batch", 1)}
        try:
            report = guard(path)
        except LoaderError as exc:  # `toolform guard` says why and exits 2
            tools = len(json.loads(path.read_text(encoding="utf-8"))["tools"])
            out.append({**row, "tools": tools, "texts": 0, "fields_high": 0, "high": 0,
                        "exit": 2, "findings": [], "error": str(exc)})
            continue
        high = [f for f in report.findings if f.severity == "high"]
        out.append({**row, "tools": len(report.toolset), "texts": report.texts,
                    "fields_high": len({f.path for f in high}), "high": len(high),
                    "exit": 0 if report.passes("high") else 1, "findings": high})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "heldout"), default="dev")
    parser.add_argument("--batch", type=int, choices=batches(),
                        help="only this batch of servers (those servers.json names); without "
                             "it, every batch but those awaiting their one-time scoring")
    parser.add_argument("--findings", action="store_true", help="list every high finding")
    args = parser.parse_args(argv)
    table = rows(args.split, args.batch)
    print("| server | package | tools | texts | texts flagged high | high findings | exit |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for r in table:
        print(f"| {r['server']} | `{r['package']}` | {r['tools']} | {r['texts']} | "
              f"{r['fields_high']} | {r['high']} | {r['exit']} |")
    texts = sum(int(r["texts"]) for r in table)
    flagged = sum(int(r["fields_high"]) for r in table)
    passed = sum(r["exit"] == 0 for r in table)
    print(f"| **{len(table)} servers** | | {sum(int(r['tools']) for r in table)} | {texts} | "
          f"{flagged} ({100 * flagged / max(texts, 1):.2f}%) | "
          f"{sum(int(r['high']) for r in table)} | {passed} exit 0 "
          f"({100 * passed / max(len(table), 1):.1f}%) |")
    for r in table:
        if r.get("error"):
            print(f"{r['server']}: not read, exit 2: {r['error']}")
    if args.findings:
        for r in table:
            for f in r["findings"]:  # type: ignore[union-attr]
                print(f"{r['server']}\t{f.rule}\t{f.path}\t{f.excerpt!r}\t{f.detail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
