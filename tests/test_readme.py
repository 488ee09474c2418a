"""The README's "From Python" snippet runs offline, as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks(section: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    body = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", body, re.S)


def test_the_from_python_snippet_runs_offline_as_written():
    offline = python_blocks("From Python")[0]
    out = io.StringIO()
    namespace: dict = {}
    with contextlib.redirect_stdout(out):
        exec(compile(offline, "README.md", "exec"), namespace)
    printed = out.getvalue()
    assert "ToolCall(name='list_directory', arguments={'path': '/tmp'})" in printed
    assert "best cell json_schema_openai/json_object at 76.0%" in " ".join(printed.split())
    assert namespace["result"].turns["error"].isna().all()
