"""The four two-stage disclosure variants: a menu of tools first, one tool's schema second.

Progressive disclosure splits a turn in two model calls. The first call shows a *menu* and asks
which tool fits; the second shows the full JSON Schema (``json_schema_openai``) of the tool the
first call chose and asks for the call. The study ran four variants (tags ``two_stage``):

============================  ===================================  ============================
variant                       stage 1 (the menu)                   stage 2 (the schema shown)
============================  ===================================  ============================
``names_then_schema``         tool names (``names_only``)          the selected tool
``names_then_schema_v2``      tool names (``names_only``)          the selected tool
``names_desc_then_schema``    names with one-line descriptions     the selected tool
``oracle_then_schema``        none: one call only                  the gold tool(s)
============================  ===================================  ============================

``v2`` shows the same blocks as ``names_then_schema``; what changed in the study is the run
policy (no fallback when the first call names no tool, grading on the original catalogue, both
calls' tokens counted), which belongs to the catalogue runner, not to the rendering.

Each variant is a registered format, so ``render`` and the registry work for it: its plain
rendering is the stage-1 menu (for the oracle, the menu a perfect selector chooses from; it is
never sent to a model). :func:`two_stage_stages` gives both stages for the catalogue module.
The facts of the four (family ``json``, default protocol ``json_object``, every ``supports_*``
true, not lossy, compressed, novel) are the study's registry rows: their family there is
``json`` (stage 2 is JSON Schema), so they are registered under it rather than under the
registry's ``two_stage`` family, with ``two_stage=True``.

Recursive and map types (see ``toolform.ir``): the stage-two schemas show a recursive type unrolled to
``RenderOptions.recursion_depth`` levels (default 2; the innermost references become ``any``)
and a map as an object with one stand-in key per kind of key (``<key>``,
``<key matching the pattern P>``) holding the values' type (``_common.plain_type``).
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Sequence, Union

from ..errors import RenderError
from ..ir import GoldCall, Toolset
from ._common import prepare, summary_line
from ._json import json_schema_openai, names_only
from ._registry import RenderOptions, get_format, register_format

__all__ = ["TwoStageBlocks", "names_desc_then_schema", "names_then_schema",
           "names_then_schema_v2", "oracle_then_schema", "two_stage_stages"]

#: What ``selected`` and ``gold`` accept: a tool name or a gold call, or a sequence of them.
ToolChoice = Union[str, GoldCall, Sequence[Union[str, GoldCall]], None]


@dataclass(frozen=True)
class TwoStageBlocks:
    """The blocks of one two-stage turn.

    Attributes
    ----------
    format_id : str
        The variant.
    stage1 : str or None
        The menu the first call shows; ``None`` for ``oracle_then_schema``, which makes no
        first call.
    stage2 : str or None
        The full JSON Schema (``json_schema_openai``) of the chosen tools, for the second call;
        ``None`` when no tool was chosen.
    tools : tuple of str
        The tools ``stage2`` shows, in the order given (duplicates dropped).
    """

    format_id: str
    stage1: str | None
    stage2: str | None
    tools: tuple[str, ...]

    @property
    def calls(self) -> int:
        """Model calls the variant makes for a turn: 1 for the oracle, 2 for the others."""
        return 1 if self.stage1 is None else 2


def _names_with_descriptions(toolset: Toolset, options: RenderOptions) -> str:
    """A JSON object from each tool name to its one-line description, one tool per line."""
    lines = [f"  {json.dumps(t.name, ensure_ascii=False)}: "
             f"{json.dumps(summary_line(t.description), ensure_ascii=False)}"
             for t in prepare(toolset, options)]
    return "{\n" + ",\n".join(lines) + "\n}" if lines else "{}"


_FLAGS = dict(family="json", default_protocol="json_object", language="json", novel=True,
              compressed=True, two_stage=True)


@register_format(
    name="Tool names, then the chosen tool's schema",
    description=("Progressive disclosure in two calls: the model first picks from the bare "
                 "list of tool names, then writes the call seeing only the picked tool's full "
                 "JSON Schema. Renders the name list."),
    **_FLAGS,
    returns="A JSON array of tool names, one per line.",
    options_doc="Only ``max_depth`` matters for the menu.",
)
def names_then_schema(toolset: Toolset, options: RenderOptions) -> str:
    """Render the stage-1 menu of ``names_then_schema``: the tool names (``names_only``).

    Stage 2 is given by :func:`two_stage_stages` with ``selected=``.
    """
    return names_only(toolset, options)


@register_format(
    name="Tool names, then the chosen tool's schema (second run)",
    description=("The same two blocks as the first names-then-schema run, under the study's "
                 "stricter second policy: no fallback when no tool is named, graded on the "
                 "full catalogue, both calls' tokens counted. Renders the name list."),
    **_FLAGS,
    returns="A JSON array of tool names, one per line.",
    options_doc="Only ``max_depth`` matters for the menu.",
)
def names_then_schema_v2(toolset: Toolset, options: RenderOptions) -> str:
    """Render the stage-1 menu of ``names_then_schema_v2``: the tool names (``names_only``).

    The blocks equal ``names_then_schema``'s; the variant differs in how a runner treats the
    turn (see the module docstring).
    """
    return names_only(toolset, options)


@register_format(
    name="Names with one-line descriptions, then the chosen tool's schema",
    description=("Progressive disclosure in two calls where the menu gives each tool name "
                 "with the first line of its description; the second call sees the picked "
                 "tool's full JSON Schema. Renders the described menu."),
    **_FLAGS,
    returns="A JSON object (``{}`` for an empty toolset).",
    options_doc="``include_descriptions`` and ``max_depth`` matter.",
)
def names_desc_then_schema(toolset: Toolset, options: RenderOptions) -> str:
    """Render the stage-1 menu of ``names_desc_then_schema``.

    A JSON object from each tool name to the first line of its description
    (:func:`~toolform.formats._common.summary_line`, at most 160 characters), one tool per
    line; with ``options.include_descriptions`` False every value is ``""``.
    """
    return _names_with_descriptions(toolset, options)


@register_format(
    name="Gold tool's schema alone (oracle selection)",
    description=("The ceiling of progressive disclosure: a single call that sees only the "
                 "gold tool's full JSON Schema, as if a perfect first stage had chosen it. "
                 "Renders the name list the oracle chooses from."),
    **_FLAGS,
    returns="A JSON array of tool names, one per line.",
    options_doc="Only ``max_depth`` matters for the menu.",
)
def oracle_then_schema(toolset: Toolset, options: RenderOptions) -> str:
    """Render the menu the oracle chooses from (the tool names); no model ever sees it.

    The block a model sees is stage 2 of :func:`two_stage_stages` with ``gold=``.
    """
    return names_only(toolset, options)


def _chosen(toolset: Toolset, choice: ToolChoice, what: str) -> tuple[str, ...]:
    """Tool names from a name, a gold call or a sequence of them; unknown names raise."""
    if choice is None:
        return ()
    items = [choice] if isinstance(choice, (str, GoldCall)) else list(choice)
    names: list[str] = []
    for item in items:
        name = item.name if isinstance(item, GoldCall) else item
        if name not in toolset:
            close = difflib.get_close_matches(str(name), toolset.names, n=3, cutoff=0.5)
            hint = f"; closest: {', '.join(close)}" if close else ""
            raise RenderError(f"{what} tool {name!r} is not in the toolset "
                              f"{toolset.source or '(unnamed)'}{hint}")
        if name not in names:
            names.append(name)
    return tuple(names)


def two_stage_stages(toolset: Toolset, format_id: str, *, selected: ToolChoice = None,
                     gold: ToolChoice = None,
                     options: RenderOptions | None = None) -> TwoStageBlocks:
    """The blocks of a two-stage turn: the menu, and the schema of the chosen tool(s).

    Parameters
    ----------
    toolset : Toolset
        The whole catalogue.
    format_id : str
        One of the four two-stage variants (``get_format(id).two_stage`` is True).
    selected : str, GoldCall or sequence of them, optional
        The tool(s) the first call chose; what stage 2 shows for every variant but the
        oracle. ``None`` (or empty): nothing chosen, ``stage2`` is None.
    gold : str, GoldCall or sequence of them, optional
        The request's gold call(s); what stage 2 shows for ``oracle_then_schema``. The other
        variants ignore it, so a runner may pass it to all four.
    options : RenderOptions, optional
        Applied to both stages.

    Returns
    -------
    TwoStageBlocks
        ``stage1`` is the format's plain rendering (``None`` for the oracle), ``stage2`` the
        ``json_schema_openai`` block of the chosen tools.

    Raises
    ------
    UnknownFormatError
        When ``format_id`` is not registered.
    RenderError
        When the format is not a two-stage variant, a chosen tool is not in the toolset (the
        message names the closest tool names), or a tool nests past ``options.max_depth``.
    """
    spec = get_format(format_id)
    if not spec.two_stage:
        raise RenderError(f"format {format_id!r} is not a two-stage variant; use one of "
                          f"{', '.join(_VARIANTS)}")
    options = options or RenderOptions()
    oracle = format_id == "oracle_then_schema"
    names = _chosen(toolset, gold if oracle else selected, "gold" if oracle else "selected")
    stage1 = None if oracle else spec.render(toolset, options)
    stage2 = json_schema_openai(toolset.subset(names), options) if names else None
    return TwoStageBlocks(format_id=format_id, stage1=stage1, stage2=stage2, tools=names)


_VARIANTS = ("names_then_schema", "names_then_schema_v2", "names_desc_then_schema",
             "oracle_then_schema")
