"""``compare_formats``: one toolset in every format, side by side with the study's figures."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Sequence

import pandas as pd

from ..errors import RenderError
from ..evidence import load_evidence
from ..ir import Toolset
from ..tokens import estimate_tokens, tiktoken_tokens
from ._registry import FORMATS, FormatSpec, RenderOptions, get_format

__all__ = ["COMPARE_COLUMNS", "compare_formats"]

#: The evidence table the study's figures are read from (built from the study's
#: ``formats.json``, whose measured rows come from the site export ``format_leaderboard``).
SOURCE_TABLE = "formats"

#: Columns of :func:`compare_formats`: name, dtype, unit and meaning.
COMPARE_COLUMNS: tuple[tuple[str, str, str | None, str], ...] = (
    ("format", "str", None, "the format id"),
    ("family", "str", None, "its family"),
    ("novel", "bool", None, "invented for the study rather than taken from practice"),
    ("characters", "Int64", "characters", "length of the rendered tool block"),
    ("estimated_tokens", "Int64", "tokens", "characters / 4, rounded up"),
    ("tiktoken_tokens", "Int64", "tokens",
     "exact cl100k_base count; missing when tiktoken or its encoding is not available offline"),
    ("drops", "str", None,
     "what the block leaves out, comma-separated ('' when nothing): what the format's flags say "
     "it cannot show (nesting, enums, constraints, optionality, return types) and what "
     "rendering this toolset shows it leaves out (descriptions, parameters)"),
    ("study_call_exact", "float64", "percent",
     "the study's strict-call accuracy for the format, pooled over every cell it ran in; NaN "
     "for the two-stage variants, which the export does not measure"),
    ("study_accuracy_per_1k_tokens", "float64", "proportion_per_1k_tokens",
     "the study's accuracy per 1,000 tokens of tool block, as its site export defines it"),
    ("source_table", "str", None, "the evidence table the study columns come from"),
    ("error", "str", None, "why the toolset could not be rendered in the format; '' when it was"),
)

_FLAG_DROPS = (("supports_nesting", "nesting"), ("supports_enum", "enums"),
               ("supports_constraints", "constraints"), ("supports_optional", "optionality"),
               ("supports_returns", "return types"))


def _drops(spec: FormatSpec, toolset: Toolset, block: str, options: RenderOptions) -> str:
    """What the block leaves out: the flags' gaps, then what re-rendering shows."""
    out = [word for flag, word in _FLAG_DROPS if not getattr(spec, flag)]
    described = any(t.description or any(p.description for p in t.params) for t in toolset)
    if (options.include_descriptions and described
            and spec.render(toolset, replace(options, include_descriptions=False)) == block):
        out.append("descriptions")
    if any(t.params for t in toolset):
        bare = Toolset(tuple(replace(t, params=()) for t in toolset), source=toolset.source)
        if spec.render(bare, options) == block:
            out.append("parameters")
    return ", ".join(out)




def compare_formats(toolset: Toolset, formats: Sequence[str] | None = None, *,
                    options: RenderOptions | None = None) -> pd.DataFrame:
    """Render ``toolset`` in every format and line the sizes up with the study's accuracy.

    Parameters
    ----------
    toolset : Toolset
        The tools to render.
    formats : sequence of str, optional
        Format ids to compare, in this order; default every registered format in registry
        order.
    options : RenderOptions, optional
        Renderer options used for every format.

    Returns
    -------
    pandas.DataFrame
        One row per format, the columns of :data:`COMPARE_COLUMNS` in that order. For the
        two-stage variants the block measured is their plain rendering, the stage-1 menu.
        A format that cannot render the toolset (too deep) gets a row with its error and
        missing sizes. ``attrs["source"]`` names the study tables behind the study columns.

    Raises
    ------
    UnknownFormatError
        When a requested id is not registered (the message names the closest ids).
    """
    options = options or RenderOptions()
    specs = [get_format(f) for f in formats] if formats is not None else list(FORMATS)
    table = load_evidence(SOURCE_TABLE)
    study = {row["format_id"]: row for row in table.rows}
    rows = []
    for spec in specs:
        measured = study.get(spec.id, {})
        row: dict[str, Any] = {
            "format": spec.id, "family": spec.family, "novel": spec.novel,
            "characters": None, "estimated_tokens": None, "tiktoken_tokens": None,
            "drops": "",
            "study_call_exact": _number(measured.get("call_exact")),
            "study_accuracy_per_1k_tokens":
                _number(measured.get("export_accuracy_per_1k_tokens")),
            "source_table": SOURCE_TABLE, "error": "",
        }
        try:
            block = spec.render(toolset, options)
        except RenderError as exc:
            row["error"] = str(exc)
        else:
            row.update(characters=len(block), estimated_tokens=estimate_tokens(block),
                       tiktoken_tokens=tiktoken_tokens(block),
                       drops=_drops(spec, toolset, block, options))
        rows.append(row)
    frame = pd.DataFrame(rows, columns=[c[0] for c in COMPARE_COLUMNS])
    frame = frame.astype({name: dtype for name, dtype, _, _ in COMPARE_COLUMNS})
    frame.attrs["source"] = f"evidence:{SOURCE_TABLE} ({', '.join(table.source)})"
    return frame


def _number(value: Any) -> float:
    """A figure as a float, NaN when the table has none."""
    return math.nan if value is None else float(value)
