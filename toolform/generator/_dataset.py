"""Write the generated toolset and its tasks as a dataset folder (``datasets/generated/``)."""

from __future__ import annotations

import json
from pathlib import Path

from ._build import generated_tasks, generated_toolset

#: File names inside the dataset folder.
TOOLSET_FILE = "toolset.json"
TASKS_FILE = "tasks.jsonl"


def write_generated_dataset(folder: str | Path, seed: int = 0) -> list[Path]:
    """Write ``toolset.json`` (IR JSON) and ``tasks.jsonl`` (one request per line) to ``folder``.

    Each JSONL line is :meth:`toolform.ir.Request.to_dict` with ``"tools"`` replaced by the
    toolset's file name (``"toolset.json"``, relative to the folder), so the 93-tool toolset is
    stored once. The output is byte-identical for the same seed.

    Parameters
    ----------
    folder : str or Path
        Target folder; created when missing. Existing files of the same names are replaced.
    seed : int, default 0
        Generator seed.

    Returns
    -------
    list of Path
        The files written.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    toolset = generated_toolset(seed)
    toolset_path = out / TOOLSET_FILE
    toolset_path.write_text(toolset.to_json(indent=1) + "\n", encoding="utf-8")
    lines = []
    for request in generated_tasks(seed, toolset=toolset):
        row = request.to_dict()
        row["tools"] = TOOLSET_FILE
        lines.append(json.dumps(row, ensure_ascii=False))
    tasks_path = out / TASKS_FILE
    tasks_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [toolset_path, tasks_path]
