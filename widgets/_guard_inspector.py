"""``GuardInspector``: a toolset's guard findings in place, the cleaned copy, pin and verify."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import pandas as pd

from toolform.datasets import load_dataset
from toolform.guard import (CLEAN_MODES, DEFAULT_SENTENCE, clean_toolset, iter_fields, pin,
                            plant_instruction, scan_toolset, verify)
from toolform.io import load_tools
from toolform.ir import Toolset

from ._common import Conventions
from ._html import SEVERITY_COLOURS, error, esc, findings_html, table

__all__ = ["GuardInspector"]

#: The dataset and request whose toolset is shown when none is given (Brave Search's two tools).
DEFAULT_REQUEST = ("mcp/requests", 0)


class GuardInspector(Conventions, widgets.VBox):
    """Scan a toolset's metadata, see each finding highlighted where it is, clean, pin, verify.

    Findings come from ``toolform.guard.scan_toolset`` (rules TS101 to TS111); each flagged field
    is shown with the matched spans marked by severity. Clean is ``clean_toolset`` in the chosen
    mode, shown as the fields it changed (before and after) and the findings left afterwards.
    Pin is ``pin`` (one SHA-256 per tool definition); Verify is ``verify`` of the toolset shown
    now against the last pin. To see a hijack caught, pin, plant a sentence into a tool's
    description (``plant_instruction``, the study's injection), then scan and verify. Reset
    takes the planted text out again (back to the starting tools) and forgets the pin;
    a new load clears the last pin's result (the pin itself is kept, so the new tools can be
    verified against it).

    Parameters
    ----------
    toolset : Toolset, optional
        The tools to inspect (default: the first request's toolset in ``mcp/requests``).

    Attributes
    ----------
    path : ipywidgets.Text
        A tools file to load instead.
    load_button : ipywidgets.Button
    plant_tool : ipywidgets.Dropdown
        The tool to plant :attr:`sentence` into.
    sentence : ipywidgets.Text
        The planted instruction (default: the guard's ``DEFAULT_SENTENCE``).
    plant_button : ipywidgets.Button
    status : ipywidgets.HTML
        The last load or plant, or why it failed.
    summary, findings_view : ipywidgets.HTML
        Counts by severity; the findings in place.
    mode : ipywidgets.Dropdown
        ``strip_high`` or ``drop_descriptions``.
    clean_button : ipywidgets.Button
    preview : ipywidgets.HTML
        The cleaning log and what is left.
    pin_button, verify_button : ipywidgets.Button
    pin_view : ipywidgets.HTML
        The lockfile's hashes, or the verification.
    toolset : Toolset
        What is inspected now.
    findings : list of Finding
    cleaned : Toolset or None
        The last cleaned copy.
    lockfile : dict or None
        The last pin.
    frame : pandas.DataFrame
        The findings shown (``Finding.to_dict()`` rows); ``download`` saves them as CSV.
    """

    def __init__(self, toolset: Toolset | None = None) -> None:
        if toolset is None:
            name, index = DEFAULT_REQUEST
            toolset = load_dataset(name)[index].toolset
        self.toolset = toolset
        self._initial = toolset  # what Reset goes back to: the starting tools, nothing planted
        self.findings: list[Any] = []
        self.cleaned: Toolset | None = None
        self.lockfile: dict[str, Any] | None = None
        self.path = widgets.Text(description="file", placeholder="tools.json",
                                 layout=widgets.Layout(width="60%"))
        self.load_button = widgets.Button(description="Load")
        self.plant_tool = widgets.Dropdown(description="plant into")
        self.sentence = widgets.Text(value=DEFAULT_SENTENCE, description="sentence",
                                     layout=widgets.Layout(width="80%"))
        self.plant_button = widgets.Button(description="Plant", button_style="danger")
        self.status = widgets.HTML()
        self.summary = widgets.HTML()
        self.findings_view = widgets.HTML()
        self.mode = widgets.Dropdown(options=CLEAN_MODES, value=CLEAN_MODES[0],
                                     description="clean mode")
        self.clean_button = widgets.Button(description="Clean", button_style="success")
        self.preview = widgets.HTML()
        self.pin_button = widgets.Button(description="Pin", icon="lock")
        self.verify_button = widgets.Button(description="Verify", icon="check")
        self.pin_view = widgets.HTML()
        toolbar = self._conventions("guard_findings", {
            self.path: "A tools file (OpenAI, Anthropic, MCP tools/list, BFCL or IR JSON)",
            self.load_button: "Load the file and scan it (clears the last pin's result)",
            self.plant_tool: "The tool whose description gets the planted sentence",
            self.sentence: "The instruction to plant (the study's injection)",
            self.plant_button: "Append the sentence to the tool's description and scan again",
            self.mode: "strip_high drops flagged sentences and hidden characters; "
                       "drop_descriptions removes every description",
            self.clean_button: "Make a cleaned copy and show what changed and what is left",
            self.pin_button: "Record one SHA-256 per tool definition of the tools shown",
            self.verify_button: "Compare the tools shown with the last pin",
        })
        super().__init__(children=[
            toolbar, widgets.HBox([self.path, self.load_button]),
            widgets.HBox([self.plant_tool, self.plant_button]), self.sentence, self.status,
            self.summary, self.findings_view,
            widgets.HBox([self.mode, self.clean_button]), self.preview,
            widgets.HBox([self.pin_button, self.verify_button]), self.pin_view,
        ])
        self.load_button.on_click(lambda _: self.load())
        self.plant_button.on_click(lambda _: self.plant())
        self.clean_button.on_click(lambda _: self.clean())
        self.pin_button.on_click(lambda _: self.pin())
        self.verify_button.on_click(lambda _: self.verify())
        self.set_toolset(toolset)
        self._remember_start()

    def __repr__(self) -> str:
        return f"GuardInspector(tools={len(self.toolset)}, findings={len(self.findings)})"

    def set_toolset(self, toolset: Toolset) -> None:
        """Inspect ``toolset`` (the last pin is kept, so Verify compares against it)."""
        self.toolset = toolset
        self.cleaned = None
        self.preview.value = ""
        self.plant_tool.options = toolset.names
        self.findings = scan_toolset(toolset)
        self._export(pd.DataFrame([f.to_dict() for f in self.findings]))
        texts = {f.path: f.text for f in iter_fields(toolset)}
        counts = [(s, sum(f.severity == s for f in self.findings)) for s in SEVERITY_COLOURS]
        shown = ", ".join(f'<span style="background: {SEVERITY_COLOURS[s]}">{n} {s}</span>'
                          for s, n in counts if n)
        self.summary.value = (f"<b>{len(toolset)} tools</b> · <b>{len(self.findings)}</b> "
                              f"findings{' (' + shown + ')' if shown else ''}")
        self.findings_view.value = findings_html(self.findings, texts)

    # -- actions ---------------------------------------------------------------------------------
    def load(self) -> None:
        """Load :attr:`path` and inspect it; an error is shown in :attr:`status`."""
        try:
            with self._working("loading and scanning"):
                toolset = load_tools(self.path.value.strip())
        except Exception as exc:  # a loader error is shown, not raised into the UI
            self.status.value = error(exc)
            return
        self.status.value = f"loaded {len(toolset)} tools from <code>{esc(self.path.value)}</code>"
        with self._working("scanning"):
            self.set_toolset(toolset)
        # the last pin's result was about other tools; the pin is kept to verify these against
        self.pin_view.value = ("" if self.lockfile is None else
                               f"<div>A pin of {len(self.lockfile['tools'])} tools is kept: "
                               "Verify compares the loaded tools with it.</div>")

    def _on_reset(self) -> None:
        """The starting tools (no planted text), no pin, no cleaned copy."""
        self.lockfile = None
        self.pin_view.value = ""
        self.status.value = ""
        self.set_toolset(self._initial)

    def plant(self) -> None:
        """Append :attr:`sentence` to the chosen tool's description and inspect the result."""
        try:
            planted = plant_instruction(self.toolset, self.plant_tool.value, self.sentence.value)
        except Exception as exc:  # e.g. an empty sentence
            self.status.value = error(exc)
            return
        self.status.value = f"planted the sentence into <code>{esc(self.plant_tool.value)}</code>"
        tool = self.plant_tool.value
        self.set_toolset(planted)
        self.plant_tool.value = tool

    def clean(self) -> None:
        """Clean the toolset in :attr:`mode` and show what changed and what is left."""
        cleaned, log = clean_toolset(self.toolset, self.mode.value)
        self.cleaned = cleaned
        left = scan_toolset(cleaned)
        rows = [[e.tool, e.path, e.action, ", ".join(e.rules), e.before,
                 "(removed)" if e.after is None else e.after] for e in log]
        changes = (table(rows, ["tool", "field", "action", "rules", "before", "after"])
                   if rows else "<div>Nothing to change.</div>")
        self.preview.value = (f'<div class="toolform-clean"><b>Cleaned ({esc(self.mode.value)})'
                              f"</b>: {len(log)} fields changed, {len(left)} findings left."
                              f"{changes}</div>")

    def pin(self) -> None:
        """Pin the toolset shown now (one hash per tool)."""
        self.lockfile = pin(self.toolset)
        rows = [[name, digest[:16] + "…"] for name, digest in self.lockfile["tools"].items()]
        self.pin_view.value = ("<div class='toolform-pin'><b>Pinned</b> "
                               f"{len(rows)} tools (SHA-256 of each definition)"
                               + table(rows, ["tool", "sha256"]) + "</div>")

    def verify(self) -> None:
        """Compare the toolset shown now with the last pin."""
        if self.lockfile is None:
            self.pin_view.value = "<div>Nothing pinned yet: press Pin first.</div>"
            return
        report = verify(self.toolset, self.lockfile)
        colour = "#137333" if report.ok else "#b00020"
        self.pin_view.value = (f"<div class='toolform-verify' style='color: {colour}'>"
                               f"<b>{esc(report.summary())}</b></div>")
