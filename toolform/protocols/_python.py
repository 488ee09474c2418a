"""The Python-call answer protocol: ``tool_name(arg=value)``, one call per line.

Names: a tool whose name is a dotted Python identifier (``get_weather``,
``math.factorial``) is written as-is; any other name (``API-post-page``, a Python keyword, the
name ``call`` itself being fine) is written ``call("API-post-page", arg=1)``. Arguments whose
names are not identifiers go in a trailing ``**{"user-id": 7}``.

Reading never runs code: the text goes through ``ast.parse`` and only the argument nodes through
``ast.literal_eval`` (after ``true``/``false``/``null`` are read as their Python literals).
"""

from __future__ import annotations

from typing import Sequence

from ..ir import ToolCall, Toolset
from ._common import (PY_CODE_LANGS, code_fences, py_module_calls, py_prose_calls, py_write_call,
                      strip_think)
from ._json import ABSTENTION
from ._registry import Protocol, register_protocol

__all__ = ["PythonCall"]


@register_protocol(
    name="Python function call",
    description=("Each call as a Python call expression with keyword arguments and Python "
                 "literal values, one per line."),
    supports_parallel=True,
    structured=True,
    text_values=False,
)
class PythonCall(Protocol):
    """``tool_name(arg="value", n=2)``, one call per line; see the module docstring for names.

    Reading: fenced Python blocks when there are any, else the whole reply. A block that is
    valid Python gives its top-level call statements; otherwise each ``name(...)`` in the
    prose is parsed on its own. Names that are not tools (``print(x)``) are skipped unless
    they pass keyword arguments only. A tool named ``call`` is read as the tool itself unless
    its first positional argument is a string naming another tool.
    """

    instruction = ('To call a tool, write it as a Python call with keyword arguments, such as '
                   'tool_name(param_name="value", other_param=2), one call per line; write a tool whose '
                   'name is not a Python identifier as call("tool-name", param_name="value").')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One call expression per line, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(py_write_call(c) for c in calls)

    def parse(self, text: str, toolset: Toolset) -> list[ToolCall]:
        """The Python calls in ``text``."""
        text, _ = strip_think(text)
        fences = [body for lang, body in code_fences(text) if lang in PY_CODE_LANGS]
        calls: list[ToolCall] = []
        for block in fences or [text]:
            found = py_module_calls(block, toolset)
            calls.extend(found if found else py_prose_calls(block, toolset))
        return calls
