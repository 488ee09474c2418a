"""Names the study fixed for its whole design, as constants a notebook can import.

These are design facts, not measurements: which formats every statistical claim is made on,
which protocols the format x protocol crossing paired with all of them, which formats are the
two-stage variants, and where ToolForm keeps each grading rule's verdict. A test checks each
against the registries and the evidence tables (``formats``, ``protocols``, ``main_grid``), so
they cannot drift.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

__all__ = [
    "CORE_DEFAULT_PROTOCOLS",
    "CORE_FORMATS",
    "CORE_FORMAT_LABELS",
    "CROSSING_PROTOCOLS",
    "RULE_COLUMNS",
    "TWO_STAGE_FORMATS",
]

#: The eight core formats, in the order of the study's main grid (evidence table ``main_grid``).
CORE_FORMATS: tuple[str, ...] = (
    "xml_schema", "natural_language", "python_stub", "json_schema_openai", "yaml_schema",
    "typescript", "markdown_table", "json_minimal",
)

#: How the study's tables name each core format.
CORE_FORMAT_LABELS: Mapping[str, str] = MappingProxyType({
    "xml_schema": "XML",
    "natural_language": "natural language",
    "python_stub": "Python stub",
    "json_schema_openai": "JSON Schema",
    "yaml_schema": "YAML",
    "typescript": "TypeScript",
    "markdown_table": "Markdown table",
    "json_minimal": "minimal schema",
})

#: The protocol each core format was measured with on the main grid (its default protocol).
CORE_DEFAULT_PROTOCOLS: Mapping[str, str] = MappingProxyType({
    "xml_schema": "xml_call",
    "natural_language": "nl_intent",
    "python_stub": "python_call",
    "json_schema_openai": "json_object",
    "yaml_schema": "json_object",
    "typescript": "json_object",
    "markdown_table": "json_object",
    "json_minimal": "json_object",
})

#: The five protocols the format x protocol crossing paired with every core format
#: (evidence table ``protocol_crossing``).
CROSSING_PROTOCOLS: tuple[str, ...] = (
    "xml_call", "nl_intent", "json_object", "python_call", "tool_call_tags",
)

#: The registered two-stage formats (names first, then one schema); the catalogue module runs
#: them as :class:`toolform.catalogue.TwoStage`. The other 129 formats are the study's.
TWO_STAGE_FORMATS: tuple[str, ...] = (
    "names_then_schema", "names_then_schema_v2", "names_desc_then_schema",
    "oracle_then_schema",
)

#: Where a turn's verdict under each grading rule lives in a run's turn frame
#: (``toolform.runs``): rule -> column.
RULE_COLUMNS: Mapping[str, str] = MappingProxyType({
    "main": "correct_main",
    "symmetric": "correct_symmetric",
    "as_written": "correct_as_written",
})
