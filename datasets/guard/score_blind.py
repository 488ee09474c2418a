"""Score a blind batch of planted instructions once, then add it to the labelled set.

    python datasets/guard/score_blind.py score /path/to/batch1.jsonl
    python datasets/guard/score_blind.py add /path/to/batch1.jsonl --split blind1

A blind batch is written by someone who has seen neither the guard nor earlier batches: one
JSON object per line with ``id``, ``label`` (``injected`` or ``benign``), ``place``, ``text``,
``server``, ``tool``, ``param``, ``threat`` (``t1`` ... ``t10``, ``confusables``; none for
benign rows), ``catalogue`` (the server's other tool names; a writer who gave whole tools, objects with a
``name``, is read by their names) and ``note``. ``score`` builds each row's toolset as the labelled
set does (``toolform.guard.labelled_toolset``: the catalogue as name-only tools, then the
carrier tool with the text at its place) and prints how many rows get a high finding on the
carrier tool (and how many a medium or high one: the two gates of
``--fail-on``), by threat and place. ``add`` appends the rows to ``labelled.jsonl`` as a new
split (ids ``benign-NNNN`` / ``injected-NNNN`` continuing the set's numbering, the batch's own
id and file kept in ``note``), after the batch has been scored: a batch is scored once, before
anyone reads its misses.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

from toolform.errors import DatasetError
from toolform.guard import LabelledText, labelled_toolset, scan_toolset
from toolform.guard._labelled import PLACES

HERE = Path(__file__).resolve().parent
LABELLED = HERE / "labelled.jsonl"


def catalogue_names(entries: list) -> tuple[str, ...]:
    """The tool names of a row's ``catalogue``: each entry a name, or a tool object whose
    ``name`` is taken (its description and schema are not read: every batch is scored on a
    catalogue of names, as the labelled set is)."""
    return tuple(e["name"] if isinstance(e, dict) else e for e in entries)


def place_of(spelled: str, where: str) -> str:
    """The place a writer spelled, as one of ``PLACES``: ``tool_description`` is
    ``tool.description``, and a bare ``default``, ``enum`` is the parameter's.

    Raises
    ------
    DatasetError
        When the spelling names no place (``where`` names the file, line and row).
    """
    place = spelled.strip().lower().replace("_", ".")
    place = {"default": "param.default", "enum": "param.enum"}.get(place, place)
    if place not in PLACES:
        raise DatasetError(f"{where}: place must be one of {PLACES}, got {spelled!r}")
    return place


def read_batch(path: Path, split: str) -> list[LabelledText]:
    """The batch's rows as labelled texts of ``split`` (style: the threat, or written-benign).

    Raises
    ------
    DatasetError
        When a row's place names no place of ``PLACES``.
    """
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        raw = json.loads(line)
        place = place_of(raw["place"], f"{path}:{number} ({raw.get('id')})")
        rows.append(LabelledText(
            id=raw["id"], split=split, label=raw["label"], place=place, text=raw["text"],
            server=raw.get("server") or "", tool=raw.get("tool") or "", param=raw.get("param"),
            style=raw.get("threat") or "written-benign",
            catalogue=catalogue_names(raw.get("catalogue") or ()), note=raw.get("note") or ""))
    return rows


def severity(row: LabelledText) -> str | None:
    """The worst severity (``"high"``, ``"medium"``, ``"low"``) of a finding on the carrier
    tool of the row's toolset, or ``None`` when it has none."""
    toolset = labelled_toolset(row)
    carrier = toolset.tools[-1].name
    found = {f.severity for f in scan_toolset(toolset) if f.tool == carrier}
    return next((s for s in ("high", "medium", "low") if s in found), None)


def flagged(row: LabelledText) -> bool:
    """Whether the carrier tool of the row's toolset gets a high finding."""
    return severity(row) == "high"


def score(path: Path) -> None:
    rows = read_batch(path, "blind")
    by: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    for row in rows:
        worst = severity(row)
        for key in (row.label, f"{row.label} {row.style}", f"{row.label} @ {row.place}"):
            by[key][0] += 1
            by[key][1] += worst == "high"
            by[key][2] += worst in ("high", "medium")
    for key in sorted(by):
        n, high, medium = by[key]
        print(f"{key:40} {high:3}/{n:3} flagged high ({100 * high / n:.1f}%), "
              f"{medium:3}/{n:3} medium or above ({100 * medium / n:.1f}%)")


def add(path: Path, split: str) -> None:
    existing = [json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines()]
    count = collections.Counter(r["label"] for r in existing)
    lines = []
    for row in read_batch(path, split):
        count[row.label] += 1
        note = f"blind batch {path.name}, row {row.id}" + (f": {row.note}" if row.note else "")
        lines.append(json.dumps({
            "id": f"{row.label}-{count[row.label]:03d}", "split": split, "label": row.label,
            "place": row.place, "text": row.text, "server": row.server, "tool": row.tool,
            "param": row.param, "style": row.style, "catalogue": list(row.catalogue),
            "note": note}, ensure_ascii=True))
    with LABELLED.open("a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    print(f"added {len(lines)} rows to {LABELLED.name} as split {split!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("score", "add"))
    parser.add_argument("batch", type=Path)
    parser.add_argument("--split", help="the new split's name (add)")
    args = parser.parse_args(argv)
    if args.command == "add" and not args.split:
        parser.error("add needs --split")
    try:
        score(args.batch) if args.command == "score" else add(args.batch, args.split)
    except DatasetError as exc:  # every row is read before any is scored or added
        print(f"score_blind.py: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
