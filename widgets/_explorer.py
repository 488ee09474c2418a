"""``ToolsetExplorer``: load a toolset; browse its tools, parameters, tiers and guard findings."""

from __future__ import annotations

import shlex
from typing import Any, Callable

import ipywidgets as widgets
import pandas as pd

from toolform.datasets import dataset_names, load_dataset
from toolform.guard import iter_fields, scan_toolset
from toolform.io import load_mcp, load_tools
from toolform.ir import NO_DEFAULT, Toolset
from toolform.tiers import TIER_LIMITS, tier_estimate, tool_profile

from ._common import Conventions
from ._html import esc, error, findings_html, flat_params, mark, table, type_label
from toolform.errors import InvalidParameterError

__all__ = ["ToolsetExplorer"]

#: Where a toolset can come from: (label, value) pairs of :attr:`ToolsetExplorer.source`.
SOURCES = (("dataset", "dataset"), ("file", "file"), ("MCP server", "mcp"))


class ToolsetExplorer(Conventions, widgets.VBox):
    """Load a toolset from a packaged dataset, a tools file or a live MCP server, and browse it.

    The list shows each tool with its complexity tier (``toolform.tiers.tier_estimate``, the
    study's 1 to 5 scale) and its guard findings (``toolform.guard.scan_toolset``); the detail
    pane shows the selected tool's description, parameters (nested fields as dotted names) and
    findings, each finding's span highlighted in the text it was found in.

    Parameters
    ----------
    toolset : Toolset, optional
        Shown at once; otherwise the first request of ``dataset`` is loaded.
    dataset : str, default "mcp/requests"
        The packaged dataset picked first (``toolform.datasets.dataset_names()``).

    Attributes
    ----------
    source : ipywidgets.ToggleButtons
        ``"dataset"``, ``"file"`` or ``"mcp"``.
    dataset, request : ipywidgets.Dropdown
        A packaged dataset and one of its requests (each request carries its toolset); picking
        a request loads its toolset when ``source`` is ``"dataset"``.
    path : ipywidgets.Text
        A tools file (OpenAI, Anthropic, MCP ``tools/list``, BFCL or IR JSON).
    command : ipywidgets.Text
        An MCP server command line, e.g. ``npx -y @modelcontextprotocol/server-everything``.
    load_button : ipywidgets.Button
        Loads from the current source.
    status, summary, detail : ipywidgets.HTML
        The last load's outcome or error; the toolset's size, tier and findings; the selected
        tool.
    tools : ipywidgets.Select
        One entry per tool (its value is the tool name).
    toolset : Toolset or None
        What is shown now.
    findings : list of toolform.guard.Finding
        The guard's findings on ``toolset``.
    frame : pandas.DataFrame
        One row per tool shown: ``tool``, ``tier``, ``n_params``, ``depth``, ``findings``,
        ``description``; ``download`` saves it as CSV.
    """

    def __init__(self, toolset: Toolset | None = None, *, dataset: str = "mcp/requests") -> None:
        self.toolset: Toolset | None = None
        self.findings: list[Any] = []
        self._texts: dict[str, str] = {}
        self._listeners: list[Callable[[Toolset], None]] = []
        self.source = widgets.ToggleButtons(options=SOURCES, value="dataset",
                                            description="source")
        names = dataset_names()
        self.dataset = widgets.Dropdown(options=names,
                                        value=dataset if dataset in names else names[0],
                                        description="dataset")
        self.request = widgets.Dropdown(description="request",
                                        layout=widgets.Layout(width="60%"))
        self.path = widgets.Text(description="file", placeholder="tools.json",
                                 layout=widgets.Layout(width="60%"))
        self.command = widgets.Text(description="command",
                                    placeholder="npx -y @modelcontextprotocol/server-everything",
                                    layout=widgets.Layout(width="60%"))
        self.load_button = widgets.Button(description="Load", button_style="primary")
        self.status = widgets.HTML()
        self.summary = widgets.HTML()
        self.tools = widgets.Select(description="tools", rows=12,
                                    layout=widgets.Layout(width="38%"))
        self.detail = widgets.HTML(layout=widgets.Layout(width="62%"))
        self._inputs = widgets.VBox()
        toolbar = self._conventions("toolset", {
            self.source: "Where the tools come from: a packaged dataset, a file, or a live "
                         "MCP server",
            self.dataset: "A packaged dataset; each request carries its own toolset",
            self.request: "The request whose toolset is shown",
            self.path: "A tools file (OpenAI, Anthropic, MCP tools/list, BFCL or IR JSON)",
            self.command: "An MCP server's command line; it is started and asked tools/list",
            self.load_button: "Load from the chosen source",
            self.tools: "Pick a tool to see its parameters and guard findings",
        })
        super().__init__(children=[
            toolbar, self.source, self._inputs, widgets.HBox([self.load_button, self.status]),
            self.summary, widgets.HBox([self.tools, self.detail]),
        ])
        self._fill_requests()
        self._show_inputs()
        self.source.observe(lambda _: self._show_inputs(), names="value")
        self.dataset.observe(lambda _: self._fill_requests(), names="value")
        self.request.observe(self._on_request, names="value")
        self.load_button.on_click(lambda _: self.load())
        self.tools.observe(lambda _: self._show_tool(), names="value")
        self._initial = toolset
        if toolset is not None:
            self.show_toolset(toolset)
        else:
            self.load()
        self._remember_start()

    def reset(self) -> None:
        """Back to the starting state: the given toolset, or the first dataset's request."""
        super().reset()
        self.status.value = ""
        if self._initial is not None:
            self.show_toolset(self._initial)
        else:
            self.load()

    def __repr__(self) -> str:
        shown = self.toolset.source if self.toolset is not None else None
        return f"ToolsetExplorer(source={shown!r}, tools={len(self.toolset or ())})"

    # -- wiring ----------------------------------------------------------------------------------
    def on_load(self, callback: Callable[[Toolset], None]) -> None:
        """Call ``callback(toolset)`` after every successful load (e.g. ``viewer.set_toolset``)."""
        self._listeners.append(callback)

    def _show_inputs(self) -> None:
        by_source = {"dataset": [self.dataset, self.request], "file": [self.path],
                     "mcp": [self.command]}
        self._inputs.children = by_source[self.source.value]

    def _fill_requests(self) -> None:
        ds = load_dataset(self.dataset.value)
        self.request.options = [(f"{r.id}: {r.text[:70]}", r.id) for r in ds.requests]
        if self.request.value is None:  # a Dropdown that had no options selects none
            self.request.value = ds.requests[0].id

    def _on_request(self, _: Any) -> None:
        if self.source.value == "dataset" and self.request.value is not None:
            self.load()

    # -- actions ---------------------------------------------------------------------------------
    def load(self) -> Toolset | None:
        """Load from the current source and show it; an error is shown in :attr:`status`.

        Returns
        -------
        Toolset or None
            The loaded toolset, or None when loading failed.
        """
        try:
            with self._working("loading"):
                toolset = self._load_source()
                label = self._label
        except Exception as exc:  # any loader failure is shown, never raised into the UI
            self.status.value = error(exc)
            return None
        with self._working("scanning"):
            self.show_toolset(toolset)
        self.status.value = f"loaded {len(toolset)} tools from <code>{esc(label)}</code>"
        for callback in self._listeners:
            callback(toolset)
        return toolset

    def _load_source(self) -> Toolset:
        """The toolset of the current source; ``_label`` says where it came from."""
        if self.source.value == "dataset":
            request = load_dataset(self.dataset.value)[self.request.value]
            self._label = f"{self.dataset.value} · {request.id}"
            return request.toolset
        if self.source.value == "file":
            self._label = self.path.value.strip()
            return load_tools(self._label)
        argv = shlex.split(self.command.value)
        if not argv:
            raise InvalidParameterError("type an MCP server command line first")
        self._label = self.command.value.strip()
        return load_mcp(argv)

    def show_toolset(self, toolset: Toolset) -> None:
        """Show ``toolset`` (scan it with the guard, list its tools, select the first)."""
        self.toolset = toolset
        self.findings = scan_toolset(toolset)
        self._texts = {f.path: f.text for f in iter_fields(toolset)}
        counts = {t.name: 0 for t in toolset}
        for f in self.findings:
            counts[f.tool] = counts.get(f.tool, 0) + 1
        options = []
        for tool in toolset:
            flag = f" · ⚠ {counts[tool.name]}" if counts[tool.name] else ""
            options.append((f"{tool.name} · tier {tier_estimate(tool)}{flag}", tool.name))
        self.tools.options = options
        self._export(pd.DataFrame(
            [{"tool": t.name, "tier": tier_estimate(t), "n_params": tool_profile(t).n_params,
              "depth": tool_profile(t).depth, "findings": counts[t.name],
              "description": t.description} for t in toolset],
            columns=["tool", "tier", "n_params", "depth", "findings", "description"]))
        self.summary.value = self._summary_html()
        self.tools.value = toolset.names[0] if len(toolset) else None
        self._show_tool()

    # -- views -----------------------------------------------------------------------------------
    def _summary_html(self) -> str:
        toolset = self.toolset
        assert toolset is not None
        if not len(toolset):
            return "<b>0 tools</b>"
        tier = tier_estimate(toolset)
        by_severity = {s: sum(f.severity == s for f in self.findings)
                       for s in ("high", "medium", "low")}
        guard = ", ".join(f"{n} {s}" for s, n in by_severity.items() if n) or "none"
        return (f"<b>{len(toolset)} tools</b> · toolset tier <b>{tier}</b> "
                f"({esc(TIER_LIMITS[tier].name)}, its hardest tool) · guard findings: "
                f"<b>{len(self.findings)}</b> ({esc(guard)})")

    def _show_tool(self) -> None:
        if self.toolset is None or self.tools.value is None:
            self.detail.value = ""
            return
        tool = self.toolset[self.tools.value]
        tier = tier_estimate(tool)
        profile = tool_profile(tool)
        rows = []
        for name, p in flat_params(tool.params):
            default = "" if p.default is NO_DEFAULT else repr(p.default)
            rows.append([name, type_label(p.type), mark(p.required), default, p.description])
        params = table(rows, ["parameter", "type", "required", "default", "description"],
                       raw=[2]) if rows else "<i>no parameters</i>"
        found = [f for f in self.findings if f.tool == tool.name]
        self.detail.value = (
            f'<div class="toolform-tool"><h4 style="margin: 4px 0">{esc(tool.name)}'
            f"{' — ' + esc(tool.title) if tool.title else ''}</h4>"
            f"<div>{esc(tool.description) or '<i>no description</i>'}</div>"
            f"<div style='margin: 4px 0'>tier <b>{tier}</b> ({esc(TIER_LIMITS[tier].name)}): "
            f"{profile.n_params} parameters and fields, depth {profile.depth}, "
            f"{profile.enums} enums, {profile.unions} unions, {profile.arrays} arrays, "
            f"{profile.optional} optional</div>{params}"
            f"<h5 style='margin: 6px 0 2px 0'>Guard</h5>{findings_html(found, self._texts)}</div>")
