"""Schema formats: how a toolset is shown to a model.

Each format is one registered renderer (``@register_format``) in the module of its family;
``render`` turns a toolset into chat messages, ``format_ids`` lists the registry.
"""

from . import _code, _json, _markup, _prose, _tabular, _yaml  # noqa: F401  (registers formats)
from ._registry import FORMATS, FormatSpec, RenderOptions, format_ids, get_format, register_format
from ._render import RenderedPrompt, render, render_block

__all__ = sorted([
    "FORMATS", "FormatSpec", "RenderOptions", "RenderedPrompt", "format_ids", "get_format",
    "register_format", "render", "render_block",
])
