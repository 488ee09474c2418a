"""BFCL's format-sensitivity statistics, computed over the cells an atlas covered.

BFCL v4's ``format_sensitivity`` category asks the same questions under several prompt
configurations and reports, over the configurations' accuracies, the spread between the best
and the worst (``accuracy_max_delta``), their sample standard deviation (``accuracy_std``) and
variance (``accuracy_variance``), in points and points²; a single configuration gives zeros.
Here a configuration is a cell (or any grouping column of the turn frame).
"""

from __future__ import annotations

import statistics
from typing import Any

import pandas as pd

from ..errors import InvalidParameterError
from ..grading import GRADINGS, check_rule

__all__ = ["format_sensitivity"]


def format_sensitivity(turns: pd.DataFrame, *, rule: str = "main", by: str = "cell",
                       common_requests: bool = False) -> dict[str, Any]:
    """Max-Delta, standard deviation and variance of accuracy over configurations, BFCL's way.

    Parameters
    ----------
    turns : pandas.DataFrame
        A turn frame (``toolform.runs.TURN_COLUMNS``); turns with a server error are left out.
    rule : str
        Which verdict (``correct_<rule>``).
    by : str
        The column whose values are the configurations (default ``cell``; ``format_id`` gives
        the formats' spread with protocols pooled).
    common_requests : bool
        Keep only the requests every configuration answered, so the accuracies are measured on
        the same questions (an adaptive search gives cells different requests).

    Returns
    -------
    dict
        ``n_configurations``, ``n_requests`` (distinct requests used), ``max_delta`` (points),
        ``std`` (points, sample standard deviation), ``variance`` (points²) and ``accuracy``
        (configuration → percent). With fewer than two configurations the three statistics
        are 0.0, as BFCL reports them.

    Raises
    ------
    ValueError
        When the frame lacks the verdict or grouping column.
    """
    column = f"correct_{check_rule(rule, GRADINGS)}"
    for needed in (column, by):
        if needed not in turns.columns:
            raise InvalidParameterError(
                f"format_sensitivity: no column {needed!r} in the turn frame")
    graded = turns[turns["error"].isna()]
    if common_requests and len(graded):
        sets = graded.groupby(by)["request_id"].agg(set)
        shared = set.intersection(*sets) if len(sets) else set()
        graded = graded[graded["request_id"].isin(shared)]
    accuracy = (graded.assign(_ok=graded[column].astype(bool))
                .groupby(by, sort=False)["_ok"].mean())
    values = accuracy.tolist()
    if len(values) > 1:
        variance = statistics.variance(values) * 100 ** 2
        std = statistics.stdev(values) * 100
        max_delta = (max(values) - min(values)) * 100
    else:
        variance = std = max_delta = 0.0
    return {"n_configurations": len(values), "n_requests": int(graded["request_id"].nunique()),
            "max_delta": max_delta, "std": std, "variance": variance,
            "accuracy": {str(k): 100 * float(v) for k, v in accuracy.items()}}
