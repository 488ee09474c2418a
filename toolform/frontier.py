"""The Pareto front of accuracy against cost: the formats no other format beats on both.

A point is on the front when no other point is at most as costly and strictly more accurate,
or strictly cheaper and at least as accurate. The study drew this front over every format's
mean tokens and strict-call accuracy (evidence table ``cost_frontier``, column ``on_frontier``).

>>> import pandas as pd
>>> points = pd.DataFrame({"format_id": ["a", "b", "c"], "tokens": [100, 200, 300],
...                        "accuracy": [40.0, 35.0, 60.0]})
>>> pareto_front(points)["format_id"].tolist()
['a', 'c']
"""

from __future__ import annotations

from typing import Any, Iterable

import pandas as pd

from .errors import InvalidParameterError, NotFoundError

__all__ = ["pareto_front", "on_pareto_front"]


def on_pareto_front(cost: Iterable[float], accuracy: Iterable[float]) -> list[bool]:
    """For each point, whether it is on the front (lower cost and higher accuracy are better).

    Parameters
    ----------
    cost, accuracy : iterables of float, same length
        Any units (tokens, money; percent or proportion).

    Returns
    -------
    list of bool
        In the input order. Of several points with equal cost and accuracy, all are kept.

    Raises
    ------
    ValueError
        When the lengths differ or a value is missing (NaN).
    """
    costs, accs = [float(c) for c in cost], [float(a) for a in accuracy]
    if len(costs) != len(accs):
        raise InvalidParameterError(
            f"cost and accuracy differ in length: {len(costs)} and {len(accs)}")
    if any(v != v for v in costs + accs):
        raise InvalidParameterError("cost and accuracy must not hold missing values (NaN)")
    order = sorted(range(len(costs)), key=lambda i: (costs[i], -accs[i]))
    keep = [False] * len(costs)
    best = float("-inf")
    last: tuple[float, float] | None = None
    for i in order:
        point = (costs[i], accs[i])
        if accs[i] > best or point == last:
            keep[i] = True
            best = max(best, accs[i])
            last = point
    return keep


def pareto_front(points: pd.DataFrame, *, cost: str = "tokens",
                 accuracy: str = "accuracy") -> pd.DataFrame:
    """The rows of ``points`` on the accuracy-against-cost front, cheapest first.

    Parameters
    ----------
    points : DataFrame
        One row per candidate (a format, a cell), with a cost column and an accuracy column.
    cost : str, default "tokens"
        The column to minimise.
    accuracy : str, default "accuracy"
        The column to maximise.

    Returns
    -------
    DataFrame
        A copy of the front's rows, sorted by cost (then by accuracy, highest first).

    Raises
    ------
    NotFoundError
        When a column is missing (a ``KeyError`` too; the message names the columns there are).
    ValueError
        As :func:`on_pareto_front`.
    """
    missing = [c for c in (cost, accuracy) if c not in points.columns]
    if missing:
        raise NotFoundError(f"pareto_front needs columns {missing}; the frame has "
                            f"{list(points.columns)}", key=missing[0])
    mask: Any = on_pareto_front(points[cost], points[accuracy])
    front = points[mask].copy()
    return front.sort_values([cost, accuracy], ascending=[True, False], kind="stable")
