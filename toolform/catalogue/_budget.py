"""``fit_to_budget``: shrink a tool block until it fits a per-turn token budget.

The steps, in order, each taken only while the block is still over the budget:

1. ``as_is`` — render the catalogue unchanged;
2. with a query, ``drop_lowest_ranked`` — drop the tools BM25 ranks lowest for it, one at a
   time; without one, ``drop_optional_descriptions`` — blank the descriptions of optional
   parameters, longest first;
3. ``drop_from_end`` — drop tools from the end of the catalogue.

``keep`` tools (core or pinned tools) are never dropped. Token counts are characters / 4
(:func:`toolform.tokens.estimate_tokens`) of the block in the asked format. Each step removes
the shortest prefix of its order that brings the block under the budget (found by bisection:
removing more never makes a block longer), so a 10,000-tool catalogue takes a few dozen renders.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from ..errors import InvalidParameterError
from ..formats import render_block
from ..ir import Toolset
from ..tokens import estimate_tokens
from ._retrieve import Retriever

__all__ = ["BudgetFit", "BudgetResult", "fit_to_budget"]


@dataclass(frozen=True)
class BudgetFit:
    """A catalogue fitted to a token budget.

    Attributes
    ----------
    fits : bool
        The reduced block is within the budget.
    tokens_before, tokens_after : int
        The block before and after, in tokens (characters / 4).
    budget_tokens : int
        The budget, in tokens.
    format_id : str
        The format the block is measured in.
    steps : tuple of str
        The steps taken, in order (``as_is`` first).
    dropped : tuple of dict
        What was removed, in order: ``{"tool", "reason", "tokens"}``, with ``reason`` one of
        ``"lowest_ranked"``, ``"optional_description:<parameter>"``, ``"from_end"``, and
        ``tokens`` the removed part's own size in tokens (a dropped tool's block rendered
        alone; a dropped description's text).
    toolset : Toolset
        The reduced catalogue, in the original order.
    """

    fits: bool
    tokens_before: int
    tokens_after: int
    budget_tokens: int
    format_id: str
    steps: tuple[str, ...]
    dropped: tuple[dict[str, Any], ...]
    toolset: Toolset

    def dropped_frame(self) -> Any:
        """``dropped`` as a DataFrame with columns ``tool``, ``reason``, ``tokens``."""
        import pandas as pd

        return pd.DataFrame(list(self.dropped), columns=["tool", "reason", "tokens"])


#: The study's name for a fitted catalogue (``toolform.catalogue.BudgetResult``).
BudgetResult = BudgetFit


def _tokens(toolset: Toolset, format_id: str) -> int:
    return estimate_tokens(render_block(toolset, format_id)) if len(toolset) else 0


def _shortest_prefix(n: int, fits: Callable[[int], bool]) -> int:
    """The smallest m in [0, n] with fits(m), or n when none fits (fits is monotone in m)."""
    lo, hi = 0, n
    if not fits(hi):
        return n
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _without(toolset: Toolset, names: Sequence[str]) -> Toolset:
    gone = set(names)
    return replace(toolset, tools=tuple(t for t in toolset if t.name not in gone),
                   executors={n: f for n, f in toolset.executors.items() if n not in gone})


def _strip_descriptions(toolset: Toolset, targets: Sequence[tuple[str, str]]) -> Toolset:
    by_tool: dict[str, set[str]] = {}
    for tool, param in targets:
        by_tool.setdefault(tool, set()).add(param)
    tools = tuple(
        replace(t, params=tuple(replace(p, description="") if p.name in by_tool[t.name] else p
                                for p in t.params)) if t.name in by_tool else t
        for t in toolset)
    return replace(toolset, tools=tools)


def fit_to_budget(toolset: Toolset, format_id: str, budget_tokens: int,
                  query: str | None = None, keep: Sequence[str] = ()) -> BudgetFit:
    """Shrink ``toolset`` until its block in ``format_id`` fits ``budget_tokens``.

    Parameters
    ----------
    toolset : Toolset
        The catalogue.
    format_id : str
        The format the block is shown in.
    budget_tokens : int
        The most tokens the tool block may take.
    query : str, optional
        The request: with one, the tools BM25 ranks lowest for it go first.
    keep : sequence of str
        Tools never dropped.

    Returns
    -------
    BudgetFit
        ``fits`` is False when only ``keep`` tools are left and the block is still too large.

    Raises
    ------
    ValueError
        When ``budget_tokens`` is not a positive integer, or ``keep`` names an unknown tool.
    UnknownFormatError
        When ``format_id`` is not registered.
    """
    if isinstance(budget_tokens, bool) or not isinstance(budget_tokens, int) or budget_tokens < 1:
        raise InvalidParameterError(
            f"budget_tokens must be a positive integer, got {budget_tokens!r}")
    unknown = [n for n in keep if n not in toolset]
    if unknown:
        raise InvalidParameterError(f"keep names tools the catalogue does not have: {unknown}")
    pinned = set(keep)
    before = _tokens(toolset, format_id)
    current = toolset
    tokens = before
    steps = ["as_is"]
    dropped: list[dict[str, Any]] = []

    def alone(name: str) -> int:
        return _tokens(toolset.subset([name]), format_id)

    def drop_tools(order: list[str], reason: str, step: str) -> None:
        nonlocal current, tokens
        if tokens <= budget_tokens or not order:
            return
        steps.append(step)
        base = current
        m = _shortest_prefix(len(order), lambda m: _tokens(_without(base, order[:m]), format_id)
                             <= budget_tokens)
        current = _without(base, order[:m])
        tokens = _tokens(current, format_id)
        dropped.extend({"tool": n, "reason": reason, "tokens": alone(n)} for n in order[:m])

    if query is not None:
        if len(toolset) and tokens > budget_tokens:
            ranked = [n for n, _ in Retriever(toolset).rank(query)]
            drop_tools([n for n in reversed(ranked) if n not in pinned], "lowest_ranked",
                       "drop_lowest_ranked")
    elif tokens > budget_tokens:
        optional = sorted(((t.name, p.name, p.description) for t in current for p in t.params
                           if not p.required and p.description),
                          key=lambda x: -len(x[2]))
        if optional:
            steps.append("drop_optional_descriptions")
            base = current
            targets = [(t, p) for t, p, _ in optional]
            m = _shortest_prefix(len(optional), lambda m: _tokens(
                _strip_descriptions(base, targets[:m]), format_id) <= budget_tokens)
            current = _strip_descriptions(base, targets[:m])
            tokens = _tokens(current, format_id)
            dropped.extend({"tool": t, "reason": f"optional_description:{p}",
                            "tokens": estimate_tokens(d)} for t, p, d in optional[:m])
    drop_tools([n for n in reversed(current.names) if n not in pinned], "from_end",
               "drop_from_end")
    return BudgetFit(fits=tokens <= budget_tokens, tokens_before=before, tokens_after=tokens,
                     budget_tokens=budget_tokens, format_id=format_id, steps=tuple(steps),
                     dropped=tuple(dropped), toolset=current)
