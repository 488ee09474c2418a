"""Intervals and paired contrasts for accuracies measured on turns.

All accuracies here are in percent (0–100).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

__all__ = ["paired_bootstrap", "wilson_interval"]


def wilson_interval(correct: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion, in percent.

    Parameters
    ----------
    correct : int
        Successes.
    n : int
        Trials; ``n == 0`` gives ``(nan, nan)``.
    confidence : float
        Two-sided confidence level (0.95 for a 95% interval).

    Returns
    -------
    (low, high) : tuple of float
        Bounds in percent.
    """
    if n == 0:
        return (math.nan, math.nan)
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = correct / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (100 * max(0.0, centre - half), 100 * min(1.0, centre + half))


def paired_bootstrap(a: Sequence[bool], b: Sequence[bool], *, n_boot: int = 2000, seed: int = 0,
                     confidence: float = 0.95) -> tuple[float, float, float]:
    """Paired bootstrap of the accuracy difference ``a − b`` over the same requests.

    Parameters
    ----------
    a, b : sequence of bool
        Per-request correctness in two cells, aligned on the same requests (same length).
    n_boot : int
        Bootstrap resamples of the requests.
    seed : int
        Seed of the resampling (results are deterministic for a seed).
    confidence : float
        Two-sided level of the percentile interval.

    Returns
    -------
    (difference, low, high) : tuple of float
        Observed difference and percentile interval, in percentage points.

    Raises
    ------
    ValueError
        When the sequences differ in length or are empty.
    """
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    if x.shape != y.shape or x.size == 0:
        raise ValueError(f"paired_bootstrap needs two equal, non-empty sequences; got {x.size} and {y.size}")
    diff = x - y
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, diff.size, size=(n_boot, diff.size))
    means = diff[idx].mean(axis=1)
    tail = (1 - confidence) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return (100 * float(diff.mean()), 100 * float(low), 100 * float(high))
