"""Schema formats: how a toolset is shown to a model.

Each format is one registered renderer (``@register_format``) in the module of its family;
``render`` turns a toolset into chat messages, ``format_ids`` lists the registry.

Every format renders recursive and map types (``toolform.ir``): those with ``named_types``
(the JSON Schema formats, and the EBNF and GBNF grammars) name a recursive type once and use
it by name, and write maps in their own syntax; every other format shows a recursive type
unrolled to ``RenderOptions.recursion_depth`` levels and a map as an object with stand-in keys.
Each family module's docstring says which of its formats do what.
"""

from . import (  # noqa: F401  (importing a family module registers its formats)
    _code, _code_langs, _config, _grammar, _idl, _json, _markup, _novel, _prose, _tabular,
    _two_stage, _vendor, _yaml,
)
from ._compare import COMPARE_COLUMNS, compare_formats
from ._registry import FORMATS, FormatSpec, RenderOptions, format_ids, get_format, register_format
from ._render import RenderedPrompt, render, render_block
from ._two_stage import TwoStageBlocks, two_stage_stages

__all__ = [
    "COMPARE_COLUMNS", "FORMATS", "FormatSpec", "RenderOptions", "RenderedPrompt",
    "TwoStageBlocks", "compare_formats", "format_ids", "get_format", "register_format", "render",
    "render_block", "two_stage_stages",
]
