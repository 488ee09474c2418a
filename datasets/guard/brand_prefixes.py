"""Build ``brand_prefixes.json``: the name prefixes that belong to one server (TS110).

    python datasets/guard/brand_prefixes.py

A real server often puts its product's name in front of its tools (``slack_post_message``,
``brave_web_search``, ``tavily-search``). A tool on *another* catalogue that carries that
prefix, when no other tool of its catalogue does, borrows the product's name to pass for its
tool (TS110, fourteenth revision). This script reads the catalogues the fourteenth revision
was written on (the 292 readable servers of ``datasets/mcp_servers/tools`` captured before
:data:`BUILT_BEFORE`, and the 11 reference servers of ``datasets/mcp``; servers captured later
were scored with this table, so they do not build it) and keeps a tool name's first word as a
brand prefix when

- one server puts it in front of three or more of its tools, at least half of them;
- at most four servers use it as a first word at all (a verb or a common word is used by many);
- the word is part of that server's name or package (``slack`` in ``slack``); and
- it is not a common technical word (:data:`COMMON`: ``agent``, ``api``, ``git`` ...).

Writes ``{"prefix": {"server": name, "tools": n, "servers": m}}``, sorted.
"""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SERVERS = HERE.parent / "mcp_servers"
REFERENCE = HERE.parent / "mcp"
OUT = HERE / "brand_prefixes.json"
#: Captures from this time on (batch 5's remainder, batch 6) came after the table was built.
BUILT_BEFORE = "2026-12-03T15:00:00Z"

#: First words that pass the counts but name a thing, not a product.
COMMON = frozenset({"agent", "api", "cache", "mcp", "mobile", "games", "git", "lean", "maps",
                    "excel", "pg", "bb", "uidb"})


def _parts(name: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower())


def catalogues(captured_before: str | None = None) -> dict[str, tuple[set[str], str]]:
    """Server -> (its tool names, its name and package in lower case), for every capture, or
    for those captured before ``captured_before`` (an ISO 8601 UTC time, as the captures'
    ``captured_at``) and the reference servers."""
    manifest = {s["name"]: s for s in json.loads(
        (SERVERS / "servers.json").read_text(encoding="utf-8"))["servers"]}
    out: dict[str, tuple[set[str], str]] = {}
    for path in sorted((SERVERS / "tools").glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if captured_before is not None and doc.get("captured_at", "") >= captured_before:
            continue
        tools = doc.get("tools") or []
        entry = manifest.get(path.stem, {})
        out[path.stem] = ({t["name"] for t in tools if isinstance(t, dict) and "name" in t},
                          f"{path.stem} {entry.get('package', '')}".lower())
    for path in sorted(REFERENCE.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        tools = raw.get("tools") if isinstance(raw, dict) else None
        if tools and path.stem != "catalogue":
            out[f"mcp/{path.stem}"] = ({t["name"] for t in tools}, path.stem.lower())
    return out


def brand_prefixes(cats: dict[str, tuple[set[str], str]]) -> dict[str, dict[str, object]]:
    lead: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for server, (names, _label) in cats.items():
        for name in names:
            parts = _parts(name)
            if len(parts) >= 2:
                lead[parts[0]][server] += 1
    out: dict[str, dict[str, object]] = {}
    for word, counts in sorted(lead.items()):
        top, n = counts.most_common(1)[0]
        if (n >= 3 and n >= 0.5 * len(cats[top][0]) and len(counts) <= 4
                and word in cats[top][1] and word not in COMMON):
            out[word] = {"server": top, "tools": n, "servers": len(counts)}
    return out


def main() -> int:
    table = brand_prefixes(catalogues(BUILT_BEFORE))
    OUT.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(table)} brand prefixes -> {OUT.name}: {', '.join(table)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
