"""Complexity tiers: how hard a tool's parameters are to fill, on the study's 1 to 5 scale.

The study sorted tools into five tiers by the shape of their parameters and measured accuracy per
tier (``../shared/study/tiers.json``, from the paper's ``tab_tier_by_format``: accuracy falls from
about 70-86 percent at tier 1 to 26-47 percent at tier 5 across the eight core formats). The tier
*definitions* are the study's and are written here as data (:data:`TIER_LIMITS`); they are
definitions, not measurements.

:func:`tier_estimate` places a tool, or a whole toolset, on that scale with five rules, checked
from the hardest down; the hardest tool sets the toolset's tier:

====  =====================================================================================
tier  rule
====  =====================================================================================
5     objects nested 3 deep, or two or more unions
4     objects nested 2 deep, or one union
3     one level of nesting: an object parameter, or an array of objects
2     flat, but with an enum, an optional parameter, or a constraint (bounds, lengths,
      pattern, format); a nullable scalar, an array of scalars or an untyped value also
      count here, as they are not plain scalars
1     flat required scalars only
====  =====================================================================================

A union is a ``union`` kind anywhere in the schema; a nullable type (``type: [X, "null"]``) is not
counted as a union.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import InvalidParameterError

if TYPE_CHECKING:  # ir.Toolset.tier_estimate calls this module: no import back at run time
    from .ir import ParamIR, ToolIR, Toolset, TypeIR

__all__ = ["TIER_LIMITS", "TierLimits", "ToolProfile", "tier_estimate", "tool_profile"]


@dataclass(frozen=True)
class TierLimits:
    """The study's definition of one tier: the most a tool of that tier has of each feature.

    Parameters
    ----------
    tier : int
        1 to 5.
    name : str
        The study's label (``minimal`` … ``extreme``).
    max_params : int
        Parameters counted at every nesting level (top-level parameters plus object fields).
    max_depth : int
        Object nesting depth (0: flat).
    max_enums, max_unions, max_arrays, max_optional : int
        Counts over the whole schema, every level included.
    """

    tier: int
    name: str
    max_params: int
    max_depth: int
    max_enums: int
    max_unions: int
    max_arrays: int
    max_optional: int

    def admits(self, profile: ToolProfile) -> bool:
        """Whether a tool with this profile stays within every limit of the tier."""
        return (profile.n_params <= self.max_params and profile.depth <= self.max_depth
                and profile.enums <= self.max_enums and profile.unions <= self.max_unions
                and profile.arrays <= self.max_arrays and profile.optional <= self.max_optional)


#: The five tiers as ``tiers.json`` ("definitions") states them.
TIER_LIMITS: dict[int, TierLimits] = {
    1: TierLimits(1, "minimal", max_params=2, max_depth=0, max_enums=0, max_unions=0,
                  max_arrays=0, max_optional=0),
    2: TierLimits(2, "simple", max_params=4, max_depth=0, max_enums=1, max_unions=0,
                  max_arrays=0, max_optional=1),
    3: TierLimits(3, "moderate", max_params=6, max_depth=1, max_enums=1, max_unions=0,
                  max_arrays=1, max_optional=2),
    4: TierLimits(4, "complex", max_params=9, max_depth=2, max_enums=2, max_unions=1,
                  max_arrays=1, max_optional=4),
    5: TierLimits(5, "extreme", max_params=12, max_depth=3, max_enums=3, max_unions=2,
                  max_arrays=2, max_optional=6),
}


@dataclass(frozen=True)
class ToolProfile:
    """What a tool's parameters contain, counted over every nesting level.

    Parameters
    ----------
    n_params : int
        Named parameters and object fields.
    depth : int
        Object nesting depth (:meth:`toolform.ir.ToolIR.depth`).
    enums, unions, arrays : int
        How many types of each kind occur.
    optional : int
        Parameters and fields that are not required.
    constraints : int
        Types carrying at least one constraint (bounds, lengths, pattern, format).
    irregular : int
        Types that are neither plain scalars nor counted above: nullable, ``any``, a map, a
        reference to a recursive type (a tool with a recursive type is tier 5: its nesting
        has no bound).
    arrays_of_objects : int
        Arrays whose items are objects.
    """

    n_params: int = 0
    depth: int = 0
    enums: int = 0
    unions: int = 0
    arrays: int = 0
    optional: int = 0
    constraints: int = 0
    irregular: int = 0
    arrays_of_objects: int = 0


def tool_profile(tool: ToolIR) -> ToolProfile:
    """Count the features of ``tool``'s parameters (see :class:`ToolProfile`)."""
    counts = {"n_params": 0, "enums": 0, "unions": 0, "arrays": 0, "optional": 0,
              "constraints": 0, "irregular": 0, "arrays_of_objects": 0}

    def visit_param(param: ParamIR) -> None:
        counts["n_params"] += 1
        counts["optional"] += not param.required
        visit_type(param.type)

    def visit_type(t: TypeIR) -> None:
        counts["constraints"] += bool(t.constraints)
        counts["irregular"] += t.nullable or t.kind in ("any", "ref") or t.is_map
        if t.kind == "enum":
            counts["enums"] += 1
        elif t.kind == "union":
            counts["unions"] += 1
            for option in t.options:
                visit_type(option)
        elif t.kind == "array":
            counts["arrays"] += 1
            if t.items is not None:
                counts["arrays_of_objects"] += t.items.kind == "object"
                visit_type(t.items)
        elif t.kind == "object":
            for field in t.fields:
                visit_param(field)
            for inner in (*(v for _, v in t.pattern_types), t.value_type):
                if inner is not None:  # a map's values
                    visit_type(inner)

    for param in tool.params:
        visit_param(param)
    return ToolProfile(depth=tool.depth(), **counts)


def _tool_tier(tool: ToolIR) -> int:
    profile = tool_profile(tool)
    if tool.named_types():  # recursive: nesting without bound
        return 5
    if profile.depth >= 3 or profile.unions >= 2:
        return 5
    if profile.depth == 2 or profile.unions == 1:
        return 4
    if profile.depth == 1:
        return 3
    if profile.enums or profile.optional or profile.constraints or profile.arrays \
            or profile.irregular:
        return 2
    return 1


def tier_estimate(tools: ToolIR | Toolset | Iterable[ToolIR]) -> int:
    """The complexity tier (1 to 5) of a tool, or of a toolset as its hardest tool.

    Parameters
    ----------
    tools : ToolIR, Toolset or iterable of ToolIR
        One tool, or several.

    Returns
    -------
    int
        1 (flat required scalars) to 5 (nested 3 deep or two unions); the rules are in this
        module's docstring. A tool with no parameters is tier 1.

    Raises
    ------
    ValueError
        When given no tool at all (an empty toolset has no tier).

    Examples
    --------
    >>> from toolform.ir import ParamIR, ToolIR, TypeIR
    >>> tier_estimate(ToolIR("ping", params=(ParamIR("host", TypeIR("string")),)))
    1
    """
    if not isinstance(tools, Iterable):  # one ToolIR (a Toolset and a list iterate over tools)
        return _tool_tier(tools)
    tiers = [_tool_tier(tool) for tool in tools]
    if not tiers:
        raise InvalidParameterError("tier_estimate needs at least one tool; the toolset is empty")
    return max(tiers)
