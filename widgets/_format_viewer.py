"""``FormatViewer``: a toolset in any format and protocol, its size, and what the study measured."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import pandas as pd

from toolform.datasets import load_dataset
from toolform.evidence import load_evidence
from toolform.formats import RenderOptions, format_ids, get_format, render
from toolform.grading import RULES
from toolform.ir import Toolset
from toolform.protocols import get_protocol, protocol_ids

from ._common import Conventions
from ._html import error, esc, pre, table

__all__ = ["FormatViewer"]

#: The dataset and request whose toolset is shown when none is given (two BFCL tools).
DEFAULT_REQUEST = ("bfcl/multiple", 0)


def _tokens_html(prompt: Any) -> str:
    exact = (f" · <b>{prompt.schema_tokens_tiktoken:,}</b> tokens (tiktoken cl100k_base)"
             if prompt.schema_tokens_tiktoken is not None else "")
    return (f'<span class="toolform-tokens">{prompt.schema_chars:,} characters · '
            f"<b>{prompt.schema_tokens:,}</b> tokens (estimate: characters / 4){exact}</span>")


class FormatViewer(Conventions, widgets.VBox):
    """Render a toolset in a chosen format and protocol, beside a second format, with the study's
    figures for the choice.

    The block is ``toolform.formats.render(toolset, format, protocol)``'s ``schema_text``; the
    token counts are its ``schema_tokens`` (characters / 4) and, when tiktoken is available,
    ``schema_tokens_tiktoken``. The study's figures come from three evidence tables, each named
    where it is shown: ``formats`` (the format pooled over every cell it ran in), ``main_grid``
    (8 tools, tier 3, the format with its own protocol, three rules) and ``protocol_crossing``
    (each core format with each of five protocols, three rules). Accuracies are in percent.

    Parameters
    ----------
    toolset : Toolset, optional
        The tools to show (default: the toolset of the first request of ``bfcl/multiple``).
    format_id : str, default "json_schema_openai"
        The format shown first.
    compare_id : str, default "xml_schema"
        The format shown beside it ("" for none).

    Attributes
    ----------
    format, protocol, compare : ipywidgets.Dropdown
        Choosing a format also sets the protocol to that format's default protocol.
    descriptions : ipywidgets.Checkbox
        Show tool and parameter descriptions (off gives the study's description ablation).
    block, compare_block : ipywidgets.HTML
        The rendered tool blocks.
    tokens, compare_tokens : ipywidgets.HTML
        Their sizes.
    instruction : ipywidgets.HTML
        The protocol's instruction, as the prompt gives it.
    study : ipywidgets.HTML
        The study's accuracy for the chosen format and protocol.
    prompt, compare_prompt : RenderedPrompt or None
        The last renders.
    frame : pandas.DataFrame
        One row per block shown: ``format_id``, ``protocol_id``, ``schema_chars``,
        ``schema_tokens`` (characters / 4), ``schema_tokens_tiktoken``; ``download`` saves it.
    """

    def __init__(self, toolset: Toolset | None = None, *, format_id: str = "json_schema_openai",
                 compare_id: str = "xml_schema") -> None:
        if toolset is None:
            name, index = DEFAULT_REQUEST
            toolset = load_dataset(name)[index].toolset
        self.toolset = toolset
        self._initial = toolset
        self.prompt: Any = None
        self.compare_prompt: Any = None
        self._formats = load_evidence("formats")
        self._grid = load_evidence("main_grid")
        self._crossing = load_evidence("protocol_crossing")
        options = [(f"{f} ({get_format(f).family})", f) for f in format_ids()]
        self.format = widgets.Dropdown(options=options, value=format_id, description="format")
        self.protocol = widgets.Dropdown(options=protocol_ids(),
                                         value=get_format(format_id).default_protocol,
                                         description="protocol")
        self.compare = widgets.Dropdown(options=[("(none)", "")] + options, value=compare_id,
                                        description="beside it")
        self.descriptions = widgets.Checkbox(value=True, description="descriptions",
                                             indent=False)
        self.block = widgets.HTML()
        self.tokens = widgets.HTML()
        self.compare_block = widgets.HTML()
        self.compare_tokens = widgets.HTML()
        self.instruction = widgets.HTML()
        self.study = widgets.HTML()
        # one Layout each: hiding the comparison must not hide the main block
        self._compare_box = widgets.VBox([self.compare_tokens, self.compare_block],
                                         layout=widgets.Layout(width="50%"))
        self._main_box = widgets.VBox([self.tokens, self.block],
                                      layout=widgets.Layout(width="50%"))
        toolbar = self._conventions("format_sizes", {
            self.format: "The schema format the tools are shown in (family in brackets)",
            self.protocol: "The answer protocol asked for; a new format sets its own default",
            self.compare: "A second format shown beside the first",
            self.descriptions: "Show tool and parameter descriptions (off: the study's "
                               "description ablation)",
        })
        super().__init__(children=[
            widgets.HBox([self.format, self.protocol, self.descriptions]),
            self.compare,
            widgets.HBox([self._main_box, self._compare_box]),
            self.instruction, self.study, toolbar,
        ])
        self.format.observe(self._on_format, names="value")
        for control in (self.protocol, self.compare, self.descriptions):
            control.observe(lambda _: self.refresh(), names="value")
        self.refresh()
        self._remember_start()

    def _on_reset(self) -> None:
        self.toolset = self._initial

    def __repr__(self) -> str:
        return (f"FormatViewer(format={self.format.value!r}, protocol={self.protocol.value!r}, "
                f"compare={self.compare.value!r}, tools={len(self.toolset)})")

    def set_toolset(self, toolset: Toolset) -> None:
        """Show ``toolset`` instead (e.g. ``explorer.on_load(viewer.set_toolset)``)."""
        self.toolset = toolset
        self.refresh()

    def _on_format(self, _: Any) -> None:
        default = get_format(self.format.value).default_protocol
        if self.protocol.value == default:
            self.refresh()
        else:
            self.protocol.value = default  # its observer refreshes

    def refresh(self) -> None:
        """Render both blocks and read the study's figures for the current choice."""
        options = RenderOptions(include_descriptions=self.descriptions.value)
        self.prompt = self._show(self.format.value, self.protocol.value, options,
                                 self.block, self.tokens)
        if self.compare.value:
            self._compare_box.layout.display = None
            self._main_box.layout.width = "50%"
            self.compare_prompt = self._show(self.compare.value, None, options,
                                             self.compare_block, self.compare_tokens,
                                             label=True)
        else:
            self._compare_box.layout.display = "none"
            self._main_box.layout.width = "100%"
            self.compare_prompt = None
        spec = get_protocol(self.protocol.value)
        self.instruction.value = (f"<b>Protocol {esc(spec.id)}</b> ({esc(spec.name)}) — the "
                                  f"prompt's instruction:{pre(spec.instruction)}")
        self.study.value = self._study_html(self.format.value, self.protocol.value)
        self._export(pd.DataFrame(
            [{"format_id": p.format_id, "protocol_id": p.protocol_id,
              "schema_chars": p.schema_chars, "schema_tokens": p.schema_tokens,
              "schema_tokens_tiktoken": p.schema_tokens_tiktoken}
             for p in (self.prompt, self.compare_prompt) if p is not None]))

    def _show(self, format_id: str, protocol_id: str | None, options: RenderOptions,
              block: widgets.HTML, tokens: widgets.HTML, *, label: bool = False) -> Any:
        try:
            prompt = render(self.toolset, format_id, protocol_id, options=options)
        except Exception as exc:  # a format that cannot show this toolset says why
            block.value = error(exc)
            tokens.value = ""
            return None
        spec = get_format(format_id)
        head = f"<b>{esc(spec.id)}</b> with {esc(prompt.protocol_id)} · " if label else ""
        tokens.value = f"<div>{head}{_tokens_html(prompt)}</div>"
        block.value = pre(prompt.schema_text, css_class="toolform-block", max_height=480)
        return prompt

    def _study_html(self, format_id: str, protocol_id: str) -> str:
        parts = [f"<h4 style='margin: 6px 0 2px 0'>What the study measured for {esc(format_id)} "
                 f"with {esc(protocol_id)}</h4>"]
        formats = self._formats.frame()
        row = formats[formats["format_id"] == format_id]
        if len(row) and row["call_exact"].notna().iloc[0]:
            r = row.iloc[0]
            parts.append(
                f"<div>The format pooled over every cell it ran in ({int(r.n_cells):,} cells, "
                f"table <code>formats</code>, {esc(', '.join(self._formats.source))}): strict "
                f"calls right <b>{r.call_exact:.1f}%</b>, right tool {r.tool_correct:.1f}%, "
                f"replies kept to the protocol {r.format_compliant:.1f}%, mean tool block "
                f"{r.mean_schema_tokens:,.0f} tokens.</div>")
        else:
            parts.append("<div>The study has no pooled measurement of this format "
                         "(table <code>formats</code>).</div>")
        for evidence, what in ((self._grid, "the main grid"),
                               (self._crossing, "the protocol crossing")):
            frame = evidence.frame()
            rows = frame[(frame["format_id"] == format_id)
                         & (frame["protocol_id"] == protocol_id)]
            if not len(rows):
                continue
            by_rule = rows.set_index("rule")["accuracy"]
            cells = [f"{by_rule[rule]:.1f}%" if rule in by_rule else "–" for rule in RULES]
            conditions = evidence.conditions
            parts.append(
                f"<div>In {what} (table <code>{esc(evidence.id)}</code>, "
                f"{esc(', '.join(evidence.source))}; {conditions['n_tools']} tools, tier "
                f"{conditions['tier']}), accuracy by grading rule:</div>"
                + table([cells], list(RULES)))
        if len(parts) == 2:
            parts.append("<div>Neither the main grid nor the protocol crossing measured this "
                         "format with this protocol.</div>")
        return '<div class="toolform-study">' + "".join(parts) + "</div>"
