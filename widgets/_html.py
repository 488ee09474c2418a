"""Presentation helpers shared by the widgets: HTML escaping, tables, highlights, type labels.

Nothing here computes a result; each helper turns a value the library returned into HTML.
"""

from __future__ import annotations

import html
from typing import Any, Iterable, Sequence

from toolform.ir import ParamIR, TypeIR

#: Background colour of a highlighted span, by guard severity.
SEVERITY_COLOURS = {"high": "#f9b4b4", "medium": "#fde68a", "low": "#c7dcfb"}

_PRE_STYLE = ("white-space: pre-wrap; font-family: var(--jp-code-font-family, monospace); "
              "font-size: 12px; line-height: 1.35; margin: 0; padding: 6px; "
              "background: var(--jp-layout-color2, #f5f5f5); border-radius: 3px")


def esc(value: Any) -> str:
    """``value`` as text, HTML-escaped (quotes included)."""
    return html.escape(str(value), quote=True)


def pre(text: str, *, css_class: str = "", max_height: int | None = None) -> str:
    """A wrapped monospace block of ``text`` (escaped), scrolling past ``max_height`` pixels."""
    klass = f' class="{esc(css_class)}"' if css_class else ""
    scroll = f"; max-height: {max_height}px; overflow-y: auto" if max_height else ""
    return f'<pre{klass} style="{_PRE_STYLE}{scroll}">{esc(text)}</pre>'


def error(exc: BaseException) -> str:
    """An error line: the exception's class and message, in red."""
    return (f'<div class="toolform-error" style="color: #b00020"><b>{esc(type(exc).__name__)}'
            f"</b>: {esc(exc)}</div>")


def mark(flag: bool | None) -> str:
    """A check mark, a cross, or a dash for unknown."""
    if flag is None:
        return "–"
    return '<span style="color: #137333">✓</span>' if flag else \
        '<span style="color: #b00020">✗</span>'


def fact(flag: bool | None) -> str:
    """A neutral yes, no or dash: for facts that are neither good nor bad (no red cross)."""
    if flag is None:
        return "–"
    return "yes" if flag else "no"


def table(rows: Sequence[Sequence[Any]], header: Sequence[str], *, raw: Iterable[int] = ()) -> str:
    """An HTML table; cells are escaped except in the column positions listed in ``raw``."""
    keep = set(raw)
    head = "".join(f'<th style="text-align: left; padding: 2px 8px">{esc(h)}</th>' for h in header)
    body = []
    for row in rows:
        cells = "".join(
            f'<td style="text-align: left; vertical-align: top; padding: 2px 8px">'
            f"{cell if i in keep else esc(cell)}</td>" for i, cell in enumerate(row))
        body.append(f"<tr>{cells}</tr>")
    return (f'<table class="toolform-table" style="border-collapse: collapse">'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")


def _cell(value: Any, float_format: str) -> Any:
    if value is None or (isinstance(value, float) and value != value):  # None or NaN
        return ""
    return float_format.format(value) if isinstance(value, float) else value


def frame_table(frame: Any, *, float_format: str = "{:.1f}") -> str:
    """A pandas DataFrame as an HTML table (no index; floats with ``float_format``, NaN blank)."""
    rows = [[_cell(v, float_format) for v in row] for row in frame.itertuples(index=False)]
    return table(rows, [str(c) for c in frame.columns])


def highlight(text: str, spans: Sequence[tuple[int, int, str, str]]) -> str:
    """``text`` escaped, with each ``(start, end, severity, title)`` span in a coloured mark.

    Overlapping spans are shown from the earliest start; a span starting inside the previous
    one is merged into it (its title joined).
    """
    ordered = sorted(spans, key=lambda s: (s[0], -s[1]))
    merged: list[list[Any]] = []
    for start, end, severity, title in ordered:
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
            merged[-1][3] += f"; {title}"
            continue
        merged.append([start, end, severity, title])
    out, last = [], 0
    for start, end, severity, title in merged:
        out.append(esc(text[last:start]))
        colour = SEVERITY_COLOURS.get(severity, "#e0e0e0")
        out.append(f'<mark class="toolform-{esc(severity)}" title="{esc(title)}" '
                   f'style="background: {colour}">{esc(text[start:end]) or "&#8203;"}</mark>')
        last = end
    out.append(esc(text[last:]))
    return "".join(out)


def type_label(t: TypeIR) -> str:
    """A short type label: ``string``, ``array<integer>``, ``enum(c, f)``, ``object{a, b}``."""
    if t.kind == "array":
        label = f"array<{type_label(t.items)}>" if t.items is not None else "array"
    elif t.kind == "enum":
        shown = ", ".join(str(v) for v in t.values[:6]) + (", …" if len(t.values) > 6 else "")
        label = f"enum({shown})"
    elif t.kind == "union":
        label = " | ".join(type_label(o) for o in t.options)
    elif t.kind == "object" and t.fields:
        label = "object{" + ", ".join(p.name for p in t.fields) + "}"
    else:
        label = t.kind
    if t.constraints:
        label += " [" + ", ".join(f"{k}={v}" for k, v in t.constraints.items()) + "]"
    return label + (" | null" if t.nullable else "")


def flat_params(params: Sequence[ParamIR], prefix: str = "") -> list[tuple[str, ParamIR]]:
    """Parameters and their object fields at any depth, as ``(dotted name, ParamIR)``, in order."""
    out: list[tuple[str, ParamIR]] = []
    for p in params:
        name = f"{prefix}{p.name}"
        out.append((name, p))
        inner = p.type.items if p.type.kind == "array" and p.type.items is not None else p.type
        if inner.kind == "object":
            out.extend(flat_params(inner.fields, f"{name}{'[]' if inner is not p.type else ''}."))
    return out


def findings_html(findings: Sequence[Any], texts: dict[str, str]) -> str:
    """Guard findings grouped by field: the field's text with every finding's span marked, then
    one line per finding (rule, name, severity, detail).

    Parameters
    ----------
    findings : sequence of toolform.guard.Finding
        In field order, as ``scan_toolset`` returns them.
    texts : dict of str to str
        The text of each field by its path (``FieldText.path`` → ``FieldText.text``).
    """
    if not findings:
        return '<div class="toolform-findings">No guard findings.</div>'
    by_path: dict[str, list[Any]] = {}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    blocks = []
    for path, group in by_path.items():
        text = texts.get(path, "")
        spans = [(f.start, f.end, f.severity, f"{f.rule} {f.name}: {f.detail}") for f in group]
        lines = "".join(
            f'<li><b>{esc(f.rule)}</b> {esc(f.name)} '
            f'<span style="background: {SEVERITY_COLOURS.get(f.severity, "#e0e0e0")}">'
            f"{esc(f.severity)}</span> — {esc(f.detail)}</li>" for f in group)
        blocks.append(
            f'<div class="toolform-finding"><div><code>{esc(path)}</code> '
            f"({esc(group[0].tool)})</div>"
            f'<div style="{_PRE_STYLE}">{highlight(text, spans)}</div>'
            f'<ul style="margin: 2px 0 8px 0">{lines}</ul></div>')
    return f'<div class="toolform-findings">{"".join(blocks)}</div>'
