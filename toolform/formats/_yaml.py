"""YAML formats: the JSON Schema content written as block-style YAML."""

from __future__ import annotations

import yaml

from ..ir import Toolset
from ._common import function_entry, prepare
from ._registry import RenderOptions, register_format

__all__ = ["yaml_schema"]


class _BlockDumper(yaml.SafeDumper):
    """A safe dumper that never writes anchors: a value shared by two tools is written twice."""

    def ignore_aliases(self, data: object) -> bool:
        return True


@register_format(
    name="JSON Schema as block YAML",
    family="yaml",
    default_protocol="json_object",
    description=("The tool definitions of the JSON Schema format (name, description, parameter "
                 "schema, return schema) written as block-style YAML, a common way to spend "
                 "fewer tokens on the same content."),
    language="yaml",
    core=True,
)
def yaml_schema(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a block-style YAML list of tool definitions.

    Each item holds ``name``, ``description`` (when not empty), ``parameters`` (the JSON Schema
    of :meth:`ToolIR.input_schema`) and ``returns`` when known: exactly the ``function`` objects
    of ``json_schema_openai``, so ``yaml.safe_load`` of this block equals them. Keys keep their
    declaration order; no anchors or aliases are written.

    Parameters
    ----------
    toolset : Toolset
        The tools, in the order shown.
    options : RenderOptions
        Descriptions and return types are shown only when the options ask for them.

    Returns
    -------
    str
        YAML text ending with a newline.

    Raises
    ------
    RenderError
        When a tool nests past ``options.max_depth``.
    """
    entries = [function_entry(t) for t in prepare(toolset, options)]
    return yaml.dump(entries, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=100)
