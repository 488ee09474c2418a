"""Score an off-the-shelf prompt-injection classifier beside the guard: NanoGuard.

NanoGuard (``pip install metatronnanoguard``, MIT) is a 16.8-million-parameter transformer
classifier whose weights ship inside the package (``nanoguard/assets/model.pt``), so it runs
offline; it needs PyTorch. It is not a ToolForm dependency: this script measures it on the
same held-out servers and labelled splits as the guard, so the two can be compared.

    pip install metatronnanoguard
    python datasets/guard/baseline_nanoguard.py --servers heldout
    python datasets/guard/baseline_nanoguard.py --splits blind1 confusables1
    python datasets/guard/baseline_nanoguard.py --servers heldout --batch 3 --blind b.jsonl
    python datasets/guard/baseline_nanoguard.py --servers all --only playwright github

A text counts as flagged when NanoGuard's injection score is at least ``--threshold`` (its own
default, 0.5). For servers, the texts are the fields the guard reads (titles, descriptions,
defaults and enum values); a server "exits 0" when none of its texts is flagged. For labelled
splits, a row is flagged when its text is.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

from toolform.errors import LoaderError
from toolform.guard import iter_fields, load_labelled_set
from toolform.io import load_tools

HERE = Path(__file__).resolve().parent
SERVERS = HERE.parent / "mcp_servers" / "tools"
_KINDS = ("tool.title", "tool.description", "param.title", "param.description",
          "param.default", "param.enum")


def _batches() -> list[int]:
    """The batches ``servers.json`` names (``evaluate.py``'s :func:`batches`)."""
    path = SERVERS.parent / "evaluate.py"
    spec = importlib.util.spec_from_file_location("evaluate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.batches()


def classifier():
    """NanoGuard on the CPU (a clear message when the package is missing)."""
    try:
        from nanoguard.scanner import NanoGuard
    except ImportError:
        sys.exit("NanoGuard is not installed: pip install metatronnanoguard")
    return NanoGuard(device="cpu")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", choices=("dev", "heldout", "all"))
    parser.add_argument("--batch", type=int, choices=_batches(),
                        help="only the servers of this batch (those servers.json names)")
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME",
                        help="only these servers (their manifest names)")
    parser.add_argument("--splits", nargs="*", default=())
    parser.add_argument("--blind", nargs="*", type=Path, default=(),
                        help="blind batch files (score_blind.py's format), scored as they are")
    parser.add_argument("--threshold", type=float, default=0.5)
    args = parser.parse_args(argv)
    model = classifier()
    cache: dict[str, float] = {}

    def flagged(text: str) -> bool:
        if text not in cache:
            cache[text] = model.scan(text).injection_score
        return cache[text] >= args.threshold

    if args.servers:
        texts = hits = passed = servers = 0
        print("| server | texts | texts flagged | exit |")
        print("| --- | ---: | ---: | ---: |")
        for path in sorted(SERVERS.glob("*.json")):
            doc = json.loads(path.read_text(encoding="utf-8"))
            if (args.servers not in ("all", doc["split"])
                    or args.batch not in (None, doc.get("batch", 1))
                    or args.only is not None and doc["name"] not in args.only):
                continue
            try:
                toolset = load_tools(path)
            except LoaderError as exc:  # as `toolform guard`: unreadable, exit 2
                print(f"| {doc['name']} | unreadable: {exc} | | 2 |")
                servers += 1
                continue
            fields = [f.text for f in iter_fields(toolset) if f.kind in _KINDS and f.text.strip()]
            n = sum(flagged(t) for t in fields)
            servers += 1
            texts += len(fields)
            hits += n
            passed += n == 0
            print(f"| {doc['name']} | {len(fields)} | {n} | {0 if n == 0 else 1} |")
        print(f"| **{servers} servers** | {texts} | {hits} ({100 * hits / max(texts, 1):.2f}%) "
              f"| {passed} exit 0 |")
    for split in args.splits:
        rows = load_labelled_set(splits=[split])
        for label in ("injected", "benign"):
            group = [r for r in rows if r.label == label]
            n = sum(flagged(r.text) for r in group)
            print(f"{split} {label}: {n}/{len(group)} flagged "
                  f"({100 * n / max(len(group), 1):.1f}%)")
    for path in args.blind:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        for label in ("injected", "benign"):
            group = [r for r in rows if r["label"] == label]
            n = sum(flagged(r["text"]) for r in group)
            print(f"{path.name} {label}: {n}/{len(group)} flagged "
                  f"({100 * n / max(len(group), 1):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
