"""ToolForm: how should an agent show its tools to a language model, and read the calls back?

The flat public namespace; heavier pieces import on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import _deprecated
from .errors import ToolFormError
from .ir import GoldCall, ParamIR, Request, ToolCall, ToolIR, Toolset, TypeIR

__version__ = "0.1.0"

_deprecated.install_moved_modules()  # toolform.abtest, toolform.bfcl_arm: moved, served one release

# public name -> module that defines it (imported on first attribute access)
_LAZY = {
    "load_tools": "toolform.io",
    "export_tools": "toolform.io",
    "render": "toolform.formats",
    "format_ids": "toolform.formats",
    "parse_reply": "toolform.protocols",
    "protocol_ids": "toolform.protocols",
    "grade": "toolform.grading",
    "grade_all": "toolform.grading",
    "grade_possible_answers": "toolform.grading",
    "load_dataset": "toolform.datasets",
    "run_cells": "toolform.runs",
    "ab_test": "toolform.experiments",
    "recommend": "toolform.advisor",
    "plan_catalogue": "toolform.catalogue",
    "retrieve": "toolform.catalogue",
    "scan_toolset": "toolform.guard",
    "load_evidence": "toolform.evidence",
}

__all__ = [
    "GoldCall", "ParamIR", "Request", "ToolCall", "ToolFormError", "ToolIR", "Toolset", "TypeIR",
    "ab_test", "export_tools", "format_ids", "grade", "grade_all", "grade_possible_answers",
    "load_dataset", "load_evidence", "load_tools", "parse_reply", "plan_catalogue", "protocol_ids",
    "recommend", "render", "retrieve", "run_cells", "scan_toolset",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'toolform' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
