"""``CataloguePlanner``: how to show a long catalogue for one request, and what each way costs."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import pandas as pd

from toolform.catalogue import METHODS, Retriever, TwoStage, fit_to_budget, plan_catalogue
from toolform.datasets import load_dataset
from toolform.formats import format_ids
from toolform.ir import Toolset

from ._common import Conventions
from ._html import error, esc, frame_table, pre, table

__all__ = ["CataloguePlanner"]

#: The dataset whose requests share one catalogue (the 97 tools of 11 real MCP servers).
DEFAULT_DATASET = "mcp/catalogue"

#: Ranked tools listed beyond the ``k`` a retrieval keeps, to show what just missed.
_EXTRA_RANKS = 4
#: Dropped tools listed by the budget view (the rest are counted).
_DROPPED_ROWS = 12
#: A retrieval whose best score is at most this found nothing the request names: every score
#: is near zero (BM25 scores no shared word 0; cosine similarity of unrelated text is near 0).
NEAR_ZERO_SCORE = 0.05


class CataloguePlanner(Conventions, widgets.VBox):
    """A catalogue and a request: the plan, the retrieval ranking, the budget fit, two-stage.

    - The plan is ``toolform.catalogue.plan_catalogue`` (one shot, retrieve or two-stage, with
      its reason and the evidence rows it quotes).
    - The ranking is ``Retriever(toolset, method).rank(query)``: the ``k`` kept tools and a few
      more, with scores, the request's gold tools marked; when every score is near zero
      (at most :data:`NEAR_ZERO_SCORE`) a warning says the retrieval found nothing relevant.
    - The budget fit is ``fit_to_budget`` (when a budget is set): tokens before and after, the
      steps, the tools kept and the tools dropped.
    - Two-stage is ``TwoStage(toolset).selection_messages(query)``: the first prompt, names
      with descriptions.

    Parameters
    ----------
    toolset : Toolset, optional
        The catalogue. Default: the shared toolset of ``mcp/catalogue``, whose requests
        :attr:`request` then offers.
    query : str, optional
        The request text (default: the first request's).

    Attributes
    ----------
    request : ipywidgets.Dropdown
        A request of ``mcp/catalogue`` (only when no toolset is given); picking one sets
        :attr:`query`.
    query : ipywidgets.Text
    format : ipywidgets.Dropdown
        The format whose block size the plan and the budget use.
    method : ipywidgets.Dropdown
        ``bm25`` or ``embed`` (the latter needs the ``embed`` extra).
    k : ipywidgets.IntSlider
        Tools a retrieval keeps.
    context_tokens, budget_tokens : ipywidgets.IntText
        The model's context window and the per-turn tool budget, in tokens (0: not set).
    plan_view, ranking, budget_view, selection : ipywidgets.HTML
        One tab each in :attr:`tabs`.
    tabs : ipywidgets.Tab
    plan : CataloguePlan or None
    fit : BudgetFit or None
    frame : pandas.DataFrame
        The ranking shown (``rank``, ``tool``, ``score``, ``kept``, ``gold``); ``download`` saves
        it as CSV.
    """

    def __init__(self, toolset: Toolset | None = None, *, query: str | None = None) -> None:
        self._dataset = load_dataset(DEFAULT_DATASET) if toolset is None else None
        self.toolset = toolset if toolset is not None else self._dataset[0].toolset
        self.plan: Any = None
        self.fit: Any = None
        self._retrievers: dict[str, Retriever] = {}
        self.request = widgets.Dropdown(description="request",
                                        layout=widgets.Layout(width="70%"))
        first = query if query is not None else (self._dataset[0].text if self._dataset else "")
        self.query = widgets.Text(value=first, description="query", continuous_update=False,
                                  layout=widgets.Layout(width="70%"))
        self.format = widgets.Dropdown(options=format_ids(), value="xml_schema",
                                       description="format")
        self.method = widgets.Dropdown(options=METHODS, value="bm25", description="retrieval")
        self.k = widgets.IntSlider(value=8, min=1, max=min(32, len(self.toolset)),
                                   description="k", continuous_update=False)
        self.context_tokens = widgets.IntText(value=0, description="context")
        self.budget_tokens = widgets.IntText(value=0, description="budget")
        self.status = widgets.HTML()
        # a set width, so long text wraps and wide tables scroll inside the tab
        self.plan_view, self.ranking, self.budget_view, self.selection = (
            widgets.HTML(layout=widgets.Layout(width="98%")) for _ in range(4))
        source = []
        if self._dataset is not None:
            self.request.options = [(f"{r.id}: {r.text[:70]}", r.id) for r in self._dataset]
            self.request.value = self._dataset[0].id
            source = [self.request]
        self.tabs = widgets.Tab(children=[self.plan_view, self.ranking, self.budget_view,
                                          self.selection],
                                titles=("Plan", "Retrieval", "Budget fit", "Two-stage"))
        toolbar = self._conventions("catalogue_ranking", {
            self.request: "A request of mcp/catalogue: its text becomes the query",
            self.query: "The request to plan for, retrieve for and write the first prompt of",
            self.format: "The format the tool block is shown in (its size drives the plan)",
            self.method: "bm25, or embed (needs the embed extra)",
            self.k: "How many tools a retrieval keeps",
            self.context_tokens: "The model's context window in tokens (0: not set)",
            self.budget_tokens: "Most tokens the tool block may take per turn (0: no fit)",
        })
        super().__init__(children=[
            toolbar, *source, self.query,
            widgets.HBox([self.format, self.method, self.k]),
            widgets.HBox([self.context_tokens, self.budget_tokens]), self.status, self.tabs,
        ])
        self.request.observe(self._on_request, names="value")
        for control in (self.query, self.format, self.method, self.k, self.context_tokens,
                        self.budget_tokens):
            control.observe(lambda _: self.refresh(), names="value")
        self.refresh()
        self._remember_start()

    def __repr__(self) -> str:
        return f"CataloguePlanner(tools={len(self.toolset)}, query={self.query.value!r})"

    def _on_request(self, _: Any) -> None:
        if self._dataset is not None and self.request.value is not None:
            self.query.value = self._dataset[self.request.value].text  # its observer refreshes

    def _gold(self) -> set[str]:
        """The gold tools of the picked request, when the query is still that request's."""
        if self._dataset is None or self.request.value is None:
            return set()
        request = self._dataset[self.request.value]
        return {g.name for g in request.gold} if request.text == self.query.value else set()

    def refresh(self) -> None:
        """Plan, rank, fit and write the two-stage prompt for the current settings."""
        query = self.query.value.strip()
        context = self.context_tokens.value or None
        budget = self.budget_tokens.value or None
        try:
            with self._working("planning"):
                self._compute(query, context, budget)
        except Exception as exc:  # a missing extra or a bad setting is shown, not raised
            self.status.value = error(exc)
            return
        self.status.value = ""
        self._show(query, self._ranked)

    def _compute(self, query: str, context: int | None, budget: int | None) -> None:
        """The plan, the ranking and the fit for these settings (library calls only)."""
        self.plan = plan_catalogue(self.toolset, format_id=self.format.value,
                                   context_tokens=context, budget_tokens=budget,
                                   query=query or None, k=self.k.value)
        retriever = self._retrievers.get(self.method.value)
        if retriever is None:
            retriever = self._retrievers[self.method.value] = Retriever(self.toolset,
                                                                        self.method.value)
        self._ranked = retriever.rank(query) if query else []
        self.fit = (fit_to_budget(self.toolset, self.format.value, budget, query=query or None)
                    if budget else None)

    def _show(self, query: str, ranked: list[tuple[str, float]]) -> None:
        """Write the four tabs from the last plan, ranking and fit."""
        plan = self.plan
        self.plan_view.value = (
            f'<div class="toolform-plan"><h4 style="margin: 4px 0">Plan: '
            f"<code>{esc(plan.strategy)}</code></h4><div>{len(self.toolset)} tools, "
            f"{plan.schema_tokens:,} tokens in {esc(plan.format_id)}. {esc(plan.reason)}</div>"
            + table([[e.table, ", ".join(e.source),
                      "; ".join(f"{k} = {v}" for k, v in e.row.items() if v is not None)]
                     for e in plan.evidence], ["evidence table", "source", "row"])
            + "</div>")
        gold = self._gold()
        rows, records = [], []
        for rank, (name, score) in enumerate(ranked[:self.k.value + _EXTRA_RANKS], start=1):
            kept = "kept" if rank <= self.k.value else ""
            rows.append([rank, f"<b>{esc(name)}</b>" if name in gold else esc(name),
                         f"{score:.3f}", kept, "gold" if name in gold else ""])
            records.append({"rank": rank, "tool": name, "score": score,
                            "kept": rank <= self.k.value, "gold": name in gold})
        self._export(pd.DataFrame(records, columns=["rank", "tool", "score", "kept", "gold"]))
        where = [i for i, (name, _) in enumerate(ranked, start=1) if name in gold]
        found = (f" The request's gold tool is ranked {', '.join(map(str, where))}."
                 if where else "")
        nothing = (
            '<div class="toolform-warning" style="color: #b45309"><b>Nothing relevant found:'
            f"</b> every score is near zero (best {ranked[0][1]:.3f}), so the {self.k.value} "
            "tools kept are arbitrary. The request shares no words with the tools' names and "
            "descriptions; reword it, or show the catalogue another way.</div>"
            if ranked and ranked[0][1] <= NEAR_ZERO_SCORE else "")
        self.ranking.value = (
            f'<div class="toolform-ranking"><h4 style="margin: 4px 0">Retrieval '
            f"({esc(self.method.value)}, k = {self.k.value})</h4>{nothing}<div>{found}</div>"
            + (table(rows, ["rank", "tool", "score", "", ""], raw=[1]) if rows else
               "<i>type a query</i>") + "</div>")
        if self.fit is None:
            self.budget_view.value = "<div><i>Set a budget to fit the catalogue to it.</i></div>"
        else:
            fit = self.fit
            dropped = fit.dropped_frame()
            more = len(dropped) - _DROPPED_ROWS
            kept = fit.toolset.names
            self.budget_view.value = (
                f'<div class="toolform-budget"><h4 style="margin: 4px 0">Budget fit: '
                f"{'fits' if fit.fits else 'does not fit'}</h4><div>{fit.tokens_before:,} → "
                f"{fit.tokens_after:,} tokens (budget {fit.budget_tokens:,}) in "
                f"{esc(fit.format_id)}; {len(fit.toolset)} of {len(self.toolset)} tools kept; "
                f"steps: {esc(', '.join(fit.steps))}.</div>"
                f"<div><b>Kept</b> ({len(kept)}): {esc(', '.join(kept)) or 'none'}</div>"
                + (f"<div><b>Dropped</b> ({len(dropped)}):</div>"
                   + frame_table(dropped.head(_DROPPED_ROWS)) if len(dropped) else
                   "<div><b>Dropped</b>: none</div>")
                + (f"<div>… and {more} more dropped</div>" if more > 0 else "") + "</div>")
        messages = TwoStage(self.toolset).selection_messages(query)
        self.selection.value = (
            '<div class="toolform-two-stage"><h4 style="margin: 4px 0">Two-stage: the first '
            "prompt</h4>" + "".join(f"<div><b>{esc(m['role'])}</b></div>"
                                     f"{pre(m['content'], max_height=320)}" for m in messages)
            + "</div>")
