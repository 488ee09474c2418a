"""Loaders and exporters: tool documents in, :class:`~toolform.ir.Toolset` out, and back.

Kinds read: ``openai`` (chat-completions tools or bare function objects), ``anthropic``
(``input_schema`` tools), ``mcp`` (a ``tools/list`` result), ``bfcl`` (BFCL function documents,
import only) and ``ir`` (the project's IR JSON); also Python functions (``from_python``, ``@tool``),
TypeScript declarations (``from_typescript``), the OpenAI Responses-API shape and live MCP
servers over stdio (``load_mcp``). :func:`load_tools` detects the kind; every loader
raises only :class:`~toolform.errors.LoaderError`, naming the file, the tool and the JSON path,
and reports what loaded but was probably not meant as named warnings on ``Toolset.warnings``
(:class:`~toolform.errors.LoaderWarning`; the CLI prints them).
JSON Schema is mapped onto the IR by :func:`json_schema_to_type` (the rules are in
``toolform/io/_jsonschema.py``).
"""

from ._detect import detect_kind, export_tools, load_tools, save_tools
from ._ir import from_ir, to_ir
from ._jsonschema import json_schema_to_params, json_schema_to_type
from ._mcp_live import load_mcp, load_mcp_async
from ._python import from_python, tool
from ._responses import from_responses, to_responses
from ._typescript import from_typescript
from ._vendors import (from_anthropic, from_bfcl, from_mcp, from_openai, to_anthropic, to_mcp,
                       to_openai)

__all__ = [
    "detect_kind", "export_tools", "from_anthropic", "from_bfcl", "from_ir", "from_mcp",
    "from_openai", "from_python", "from_responses", "from_typescript", "json_schema_to_params",
    "json_schema_to_type", "load_mcp", "load_mcp_async", "load_tools", "save_tools",
    "to_anthropic", "to_ir", "to_mcp", "to_openai", "to_responses", "tool",
]
