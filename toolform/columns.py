"""The column vocabulary the experiments' frames share, and the names older files used.

Every experiment frame (``toolform.experiments``, ``toolform.runs``) spells a concept one way:

- the grading rule of a row: ``rule`` (one of ``toolform.grading.GRADINGS``);
- a turn's verdict under a rule: ``correct_<rule>`` (``correct_main``, ``correct_symmetric``...);
- counts of a summary row: ``n`` (graded turns) and ``n_errors`` (turns lost to a server error);
  ``n_requests`` where a row counts requests rather than graded turns;
- an accuracy or rate: a name in percent (``accuracy``, ``hijack_rate``), its Wilson 95% interval
  ``ci_low``/``ci_high``; accuracy under a condition ``accuracy_<condition>``;
- a difference of two accuracies: ``delta`` in percentage points (``delta_<condition>``), its
  interval ``delta_ci_low``/``delta_ci_high``;
- money: ``cost_usd`` (US dollars), per correct turn ``cost_usd_per_correct``.

Frames and checkpoints written before the names were unified are read through
:func:`upgrade_columns`, which applies :data:`RENAMED_COLUMNS`; the old names are read one
release and then dropped.
"""

from __future__ import annotations

from typing import Any, Mapping, TypeVar

import pandas as pd

__all__ = ["RENAMED_COLUMNS", "upgrade_columns"]

#: Old column name → new, per frame: ``turns`` (a run's turn rows and checkpoints), ``verdicts``
#: and ``summary`` (``toolform.runs.verdicts_frame``/``summarize_verdicts``, the BFCL arm's
#: table), ``ab_cells`` (``ABResult.cells``), ``hijack_cells`` (``HijackResult.cells``),
#: ``sweep_turns`` (``SweepResult.turns`` and the sweep's checkpoints).
RENAMED_COLUMNS: dict[str, dict[str, str]] = {
    "turns": {"cost": "cost_usd"},
    "verdicts": {"grading": "rule"},
    "summary": {"grading": "rule"},
    "ab_cells": {"minus_reference": "delta", "minus_reference_low": "delta_ci_low",
                 "minus_reference_high": "delta_ci_high", "cost": "cost_usd",
                 "cost_per_correct": "cost_usd_per_correct"},
    "hijack_cells": {"n_turns": "n_requests", "acc_control": "accuracy_control",
                     "acc_planted": "accuracy_planted", "acc_cleaned": "accuracy_cleaned",
                     "acc_drop": "delta_planted", "acc_drop_cleaned": "delta_cleaned"},
    "sweep_turns": {"correct": "correct_main"},
}

Rows = TypeVar("Rows", pd.DataFrame, Mapping[str, Any])


def upgrade_columns(data: Rows, frame: str) -> Rows:
    """``data`` with the old column names of ``frame`` given their current names.

    Parameters
    ----------
    data : pandas.DataFrame or mapping
        A frame, or one row (a dict, as a checkpoint line holds it).
    frame : str
        Which frame it is: a key of :data:`RENAMED_COLUMNS`.

    Returns
    -------
    pandas.DataFrame or dict
        The same object when no old name is present, else a renamed copy (a column already
        under its new name wins over its old name).

    Raises
    ------
    KeyError
        When ``frame`` is not a key of :data:`RENAMED_COLUMNS`.
    """
    renames = RENAMED_COLUMNS[frame]
    present = [old for old in renames if old in data]
    if not present:
        return data
    if isinstance(data, pd.DataFrame):
        dropped = [old for old in present if renames[old] in data.columns]
        return data.drop(columns=dropped).rename(columns=renames)
    row = dict(data)
    for old in present:
        value = row.pop(old)
        row.setdefault(renames[old], value)
    return row
