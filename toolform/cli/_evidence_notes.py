"""Why an evidence table has empty cells: the lines ``toolform evidence TABLE`` prints under it.

For every column with empty cells it says where they are (the rows' labels) and why: a reason
written for the cases the study's tables leave empty on purpose, else the column's own meaning
(which says, for instance, "null where not reported").
"""

from __future__ import annotations

import textwrap
from typing import Any

__all__ = ["WHY_EMPTY", "empty_cell_notes"]

#: Why a column is empty, for the tables whose gaps are deliberate: (table, column) -> reason.
WHY_EMPTY: dict[tuple[str, str], str] = {
    ("main_grid", "minus_json"):
        "the study reports the paired contrast against JSON Schema under the symmetric rule for "
        "xml_schema only (its headline), and json_schema_openai is the reference itself",
    ("main_grid", "minus_json_low"):
        "no interval where there is no contrast; json_schema_openai minus itself is 0 by "
        "definition and has none",
    ("main_grid", "minus_json_high"):
        "no interval where there is no contrast; json_schema_openai minus itself is 0 by "
        "definition and has none",
    ("injection", "minus_nl"): "natural_language is the reference of the contrast",
    ("injection", "minus_nl_low"): "natural_language is the reference of the contrast",
    ("injection", "minus_nl_high"): "natural_language is the reference of the contrast",
}


def _labels(frame: Any) -> list[str]:
    """The columns that name a row: the text ones, in the table's order."""
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    return [c for c in frame.columns
            if not is_numeric_dtype(frame[c]) and not is_bool_dtype(frame[c])]


def empty_cell_notes(table: Any) -> list[str]:
    """One line per column with empty cells: where they are, and why.

    Parameters
    ----------
    table : toolform.evidence.EvidenceTable
        A loaded evidence table.

    Returns
    -------
    list of str
        Empty when no cell is empty; else a heading line and one line per column.
    """
    frame = table.frame()
    labels = _labels(frame)
    notes = []
    for column in frame.columns:
        empty = frame[frame[column].isna()]
        if not len(empty) or column in labels:
            continue
        where = ", ".join("/".join(str(row[c]) for c in labels if isinstance(row[c], str))
                          for _, row in empty.iterrows())
        why = WHY_EMPTY.get((table.id, column)) or table.column(column).meaning
        notes.append(textwrap.fill(
            f"{column} is empty in {len(empty)} of {len(frame)} rows "
            f"({'/'.join(labels)}: {where}). Why: {why}.", 100, initial_indent="  ",
            subsequent_indent="    "))
    return ["empty cells:", *notes] if notes else []
