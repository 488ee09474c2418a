"""Build ``datasets/mcp/`` from the real MCP captures and the hand-written requests.

Inputs: the ``tools/list`` captures of 11 public MCP servers (``datasets/mcp/captures/*.json``,
copied unchanged from the study's ``shared/real/mcp/``) and ``datasets/mcp/requests.yaml`` (requests written for this project, each with
its server, expected tool and, where the request pins them down, the gold arguments)::

    python datasets/build_mcp.py                 # or: --real path/to/captures

Outputs, in ``datasets/mcp/``:

- ``<server>.json``: each server's tools as IR JSON (through ``toolform.io.from_mcp``);
- ``catalogue.json``: all 97 tools in one toolset, named ``<server>__<tool>`` (GitHub and GitLab
  share eight tool names);
- ``requests.jsonl``: one ``Request.to_dict()`` per request, ``"tools"`` naming its server's
  file; ``catalogue.jsonl``: the same requests against ``catalogue.json``.

Every gold call is checked against the tool's original ``inputSchema`` with ``jsonschema``; a
request naming an unknown server or tool, or arguments the schema rejects, stops the build.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from toolform.errors import DatasetError
from toolform.io import from_mcp
from toolform.ir import ToolIR, Toolset

OUT_DIR = Path(__file__).resolve().parent / "mcp"
REAL_DIR = OUT_DIR / "captures"
SEPARATOR = "__"


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def build(real_dir: Path = REAL_DIR, out_dir: Path = OUT_DIR) -> dict[str, int]:
    """Write the dataset files; return counts (servers, tools, requests, with_arguments).

    Raises
    ------
    DatasetError
        When a capture is missing, or a request names an unknown server or tool or gives
        arguments its tool's schema rejects (the message names the request).
    """
    captures = sorted(real_dir.glob("*.json"))
    if not captures:
        raise DatasetError(f"no MCP captures in {real_dir}")
    servers: dict[str, tuple[dict[str, Any], Toolset]] = {}
    for path in captures:
        raw = json.loads(path.read_text(encoding="utf-8"))
        servers[path.stem] = (raw, from_mcp(raw, source=path.name))
    entries = yaml.safe_load((out_dir / "requests.yaml").read_text(encoding="utf-8"))

    catalogue = Toolset(tuple(ToolIR(f"{stem}{SEPARATOR}{t.name}", t.description, t.params,
                                     t.returns, t.title)
                              for stem, (_, toolset) in servers.items() for t in toolset),
                        source="catalogue.json")
    by_server: list[str] = []
    combined: list[str] = []
    counters: dict[str, int] = {}
    for number, entry in enumerate(entries, start=1):
        stem, name, text = entry["s"], entry["t"], entry["q"]
        where = f"requests.yaml entry {number} ({text[:40]!r})"
        if stem not in servers:
            raise DatasetError(f"{where}: unknown server {stem!r}")
        raw, toolset = servers[stem]
        schema = next((t.get("inputSchema", {}) for t in raw["tools"] if t["name"] == name),
                      None)
        if schema is None:
            raise DatasetError(f"{where}: server {stem!r} has no tool {name!r}")
        arguments = entry.get("a")
        if arguments is not None:
            error = jsonschema.exceptions.best_match(
                jsonschema.validators.validator_for(schema)(schema).iter_errors(arguments))
            if error is not None:
                raise DatasetError(f"{where}: arguments rejected at {error.json_path}: "
                                   f"{error.message}")
        counters[stem] = counters.get(stem, 0) + 1
        row = {"id": f"mcp_{stem}_{counters[stem]:03d}",
               "category": "call" if arguments is not None else "routing",
               "source": f"{raw['server']}@{raw['version']}", "request": text}
        accepted = {k: [v] for k, v in (arguments or {}).items()}
        by_server.append(json.dumps({**row, "tools": f"{stem}.json",
                                     "gold": [{"name": name, "accepted": accepted}]},
                                    ensure_ascii=False))
        combined.append(json.dumps({**row, "tools": "catalogue.json",
                                    "gold": [{"name": f"{stem}{SEPARATOR}{name}",
                                              "accepted": accepted}]}, ensure_ascii=False))
    for stem, (_, toolset) in servers.items():
        _write(out_dir / f"{stem}.json", toolset.to_json(indent=1) + "\n")
    _write(out_dir / "catalogue.json", catalogue.to_json(indent=1) + "\n")
    _write(out_dir / "requests.jsonl", "\n".join(by_server) + "\n")
    _write(out_dir / "catalogue.jsonl", "\n".join(combined) + "\n")
    return {"servers": len(servers), "tools": len(catalogue), "requests": len(entries),
            "with_arguments": sum("a" in e for e in entries)}


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; prints the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--real", type=Path, default=REAL_DIR, help="folder of MCP captures")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="dataset folder")
    args = parser.parse_args(argv)
    print(json.dumps(build(args.real, args.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
