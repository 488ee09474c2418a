"""Intervals, paired tests, the noise floor and repeat statistics for accuracies measured on turns.

Accuracies and differences here are in percent and percentage points (0–100); shares such as
the discordance are proportions (0–1). Functions over a turn frame take the tidy frame of
``toolform.runs`` (one row per turn, ``correct_<rule>`` verdicts, ``error`` set on a failed turn);
the repeat statistics also want a ``repeat`` column (0, 1, ... for each ask of a request).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from .errors import InvalidParameterError
from .grading import GRADINGS, check_rule
from .validation import Interval, check_parameters

__all__ = [
    "CONTRAST_COLUMNS",
    "discordant_pairs",
    "holm",
    "mcnemar_exact",
    "minimum_detectable_effect",
    "noise_floor",
    "noise_floor_sentence",
    "paired_bootstrap",
    "paired_contrasts",
    "pass_at_k",
    "pass_hat_k",
    "plan_n",
    "repeat_cells",
    "repeat_requests",
    "wilson_interval",
]


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
        raise InvalidParameterError(
            f"paired_bootstrap needs two equal, non-empty sequences; got {x.size} and {y.size}")
    diff = x - y
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, diff.size, size=(n_boot, diff.size))
    means = diff[idx].mean(axis=1)
    tail = (1 - confidence) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return (100 * float(diff.mean()), 100 * float(low), 100 * float(high))


# -- paired comparisons on the same requests ----------------------------------------------------

def discordant_pairs(a: Sequence[bool], b: Sequence[bool]) -> tuple[int, int]:
    """The discordant pairs of two cells answered on the same requests.

    Parameters
    ----------
    a, b : sequence of bool, length n
        Per-request correctness, aligned on the same requests.

    Returns
    -------
    (a_only, b_only) : tuple of int
        Requests ``a`` got right and ``b`` wrong, and the reverse.

    Raises
    ------
    ValueError
        When the sequences differ in length.
    """
    x, y = _paired(a, b, "discordant_pairs", allow_empty=True)
    return int((x & ~y).sum()), int((~x & y).sum())


def _paired(a: Sequence[bool], b: Sequence[bool], name: str, *, allow_empty: bool = False
            ) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(a, dtype=bool)
    y = np.asarray(b, dtype=bool)
    if x.shape != y.shape or x.ndim != 1 or (x.size == 0 and not allow_empty):
        raise InvalidParameterError(f"{name} needs two equal{'' if allow_empty else ', non-empty'} "
                                    f"sequences; got {x.size} and {y.size}")
    return x, y


def _log_binom_cdf_half(k: int, n: int) -> float:
    """log P(X <= k) for X ~ Binomial(n, 1/2), summed in log space (no underflow at large n)."""
    terms = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in range(k + 1)]
    top = max(terms)
    return top + math.log(sum(math.exp(t - top) for t in terms)) - n * math.log(2)


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Exact two-sided McNemar test of two paired proportions, from the discordant pairs.

    Under the null hypothesis the ``a_only + b_only`` discordant pairs split as a fair coin;
    the p-value is twice the smaller binomial tail, capped at 1 (the convention of
    ``statsmodels.stats.contingency_tables.mcnemar(exact=True)`` and, for p = 1/2, of
    ``scipy.stats.binomtest``).

    Parameters
    ----------
    a_only, b_only : int
        Discordant pair counts (see :func:`discordant_pairs`).

    Returns
    -------
    float
        Two-sided p-value; 1.0 when there is no discordant pair.

    Raises
    ------
    ValueError
        On a negative count.
    """
    if a_only < 0 or b_only < 0:
        raise InvalidParameterError(
            f"discordant pair counts must be >= 0; got {a_only} and {b_only}")
    n = a_only + b_only
    if n == 0:
        return 1.0
    return min(1.0, 2.0 * math.exp(_log_binom_cdf_half(min(a_only, b_only), n)))


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjustment of p-values (family-wise error control).

    Parameters
    ----------
    p_values : sequence of float, length m
        Unadjusted p-values; NaN entries are left out of the family and stay NaN.

    Returns
    -------
    numpy.ndarray, shape (m,)
        Adjusted p-values, in the input order (``multipletests(method="holm")``'s values).
    """
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    keep = np.flatnonzero(~np.isnan(p))
    m = len(keep)
    if m == 0:
        return out
    order = keep[np.argsort(p[keep], kind="stable")]
    stepped = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out[order] = np.minimum(stepped, 1.0)
    return out


#: Declared columns of :func:`paired_contrasts`: (name, dtype, unit, meaning).
CONTRAST_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("cell", "string", "", "the cell compared with the reference"),
    ("reference", "string", "", "the reference cell"),
    ("rule", "string", "", "grading rule"),
    ("n_pairs", "int64", "requests", "requests both cells answered without a server error"),
    ("accuracy", "float64", "percent", "the cell's accuracy on those requests"),
    ("reference_accuracy", "float64", "percent", "the reference's accuracy on those requests"),
    ("difference", "float64", "percentage points", "accuracy - reference_accuracy"),
    ("difference_low", "float64", "percentage points", "paired bootstrap interval, lower"),
    ("difference_high", "float64", "percentage points", "paired bootstrap interval, upper"),
    ("cell_only", "int64", "requests", "discordant pairs the cell got right"),
    ("reference_only", "int64", "requests", "discordant pairs the reference got right"),
    ("p_value", "float64", "", "exact McNemar test, two-sided"),
    ("p_holm", "float64", "", "p_value Holm-corrected across the cells compared"),
    ("significant", "boolean", "", "p_holm below alpha"),
)


def paired_contrasts(turns: Any, reference: str, *, rule: str = "main", cells: Sequence[str] | None = None,
                     alpha: float = 0.05, n_boot: int = 2000, seed: int = 0,
                     confidence: float = 0.95) -> Any:
    """Each cell against a reference on the requests both answered: interval, test, Holm.

    Parameters
    ----------
    turns : pandas.DataFrame
        A turn frame (``toolform.runs.TURN_COLUMNS``: ``cell``, ``request_id``, ``error``,
        ``correct_<rule>``); with a ``repeat`` column, a (request, repeat) pair is one pair.
    reference : str
        The reference cell's label (``format_id/protocol_id``).
    rule : str
        Which verdict column to compare (``correct_<rule>``): one of
        ``toolform.grading.GRADINGS``.
    cells : sequence of str, optional
        The cells to compare (default: every other cell in ``turns``).
    alpha : float
        Family-wise level of the Holm correction.
    n_boot, seed, confidence
        Passed to :func:`paired_bootstrap`.

    Returns
    -------
    pandas.DataFrame
        One row per cell, with the columns of :data:`CONTRAST_COLUMNS`; a cell sharing no
        request with the reference has ``n_pairs`` 0 and NaN statistics (left out of the Holm
        family).

    Raises
    ------
    ValueError
        When the reference cell or the verdict column is not in ``turns``.
    GradingError
        When ``rule`` is not one of ``GRADINGS`` (a ``ValueError`` too).
    """
    import pandas as pd

    column = f"correct_{check_rule(rule, GRADINGS)}"
    if column not in turns.columns:
        raise InvalidParameterError(f"paired_contrasts: no column {column!r} in the turn frame")
    if reference not in set(turns["cell"]):
        raise InvalidParameterError(
            f"paired_contrasts: reference cell {reference!r} is not in the turns")
    keys = ["request_id", "repeat"] if "repeat" in turns.columns else ["request_id"]
    graded = turns[turns["error"].isna()]
    ref = graded.loc[graded["cell"] == reference, [*keys, column]]
    chosen = [c for c in (cells if cells is not None else dict.fromkeys(turns["cell"]))
              if c != reference]
    rows = []
    for cell in chosen:
        mine = graded.loc[graded["cell"] == cell, [*keys, column]]
        pairs = mine.merge(ref, on=keys, suffixes=("", "_ref"))
        x = pairs[column].astype(bool).to_numpy()
        y = pairs[f"{column}_ref"].astype(bool).to_numpy()
        row: dict[str, Any] = {"cell": cell, "reference": reference, "rule": rule,
                               "n_pairs": len(pairs)}
        if len(pairs):
            diff, low, high = paired_bootstrap(x, y, n_boot=n_boot, seed=seed,
                                               confidence=confidence)
            a_only, b_only = discordant_pairs(x, y)
            row.update(accuracy=100 * x.mean(), reference_accuracy=100 * y.mean(),
                       difference=diff, difference_low=low, difference_high=high,
                       cell_only=a_only, reference_only=b_only,
                       p_value=mcnemar_exact(a_only, b_only))
        else:
            row.update(accuracy=math.nan, reference_accuracy=math.nan, difference=math.nan,
                       difference_low=math.nan, difference_high=math.nan, cell_only=0,
                       reference_only=0, p_value=math.nan)
        rows.append(row)
    frame = pd.DataFrame(rows, columns=[c[0] for c in CONTRAST_COLUMNS])
    frame["p_holm"] = holm(frame["p_value"].to_numpy(dtype=float)) if len(frame) else []
    frame["significant"] = frame["p_holm"] < alpha
    return frame.astype({n: d for n, d, _, _ in CONTRAST_COLUMNS})


# -- how small a difference a run can see -------------------------------------------------------

def _z(q: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(q)


#: What the power-analysis functions accept (``discordance``: the share of discordant pairs).
_DESIGN = {"alpha": [Interval(float, 0, 1, closed="neither")],
           "power": [Interval(float, 0, 1, closed="neither")],
           "discordance": [Interval(float, 0, 1, closed="right")],
           "n": [Interval(int, 1, None)]}


def _check_design(power: float, alpha: float, discordance: float) -> None:
    check_parameters(_DESIGN, power=power, alpha=alpha, discordance=discordance)


def plan_n(effect_points: float, *, power: float = 0.8, alpha: float = 0.05,
           discordance: float) -> int:
    """Requests per cell a paired comparison needs to detect a difference.

    Connor's (1987) sample size for McNemar's test: with ``psi`` the share of discordant
    pairs and ``d`` the difference in proportions,
    ``n = (z_{1-alpha/2} sqrt(psi) + z_{power} sqrt(psi - d^2))^2 / d^2``, rounded up.

    Parameters
    ----------
    effect_points : float
        The difference to detect, in percentage points (its sign is ignored).
    power : float, default 0.8
        Probability of detecting it.
    alpha : float, default 0.05
        Two-sided level (divide by the number of contrasts for a Bonferroni or Holm-first-step
        family).
    discordance : float
        Expected share of requests on which the two cells disagree, as a proportion in (0, 1]
        (:func:`discordant_pairs` of a pilot run, divided by its n).

    Returns
    -------
    int
        Requests per cell.

    Raises
    ------
    ValueError
        When the effect is zero or larger than the discordance allows (``|d| <= psi``), or a
        level is outside (0, 1).
    """
    _check_design(power, alpha, discordance)
    d = abs(effect_points) / 100
    if d == 0 or d > discordance:
        raise InvalidParameterError(
            f"effect_points={effect_points} must be non-zero and at most the "
            f"discordance ({100 * discordance:.1f} points): a paired difference "
            f"cannot exceed the share of discordant pairs")
    n = (_z(1 - alpha / 2) * math.sqrt(discordance)
         + _z(power) * math.sqrt(discordance - d * d)) ** 2 / (d * d)
    return math.ceil(n - 1e-9)


def minimum_detectable_effect(n: int, *, discordance: float, power: float = 0.8,
                              alpha: float = 0.05) -> float:
    """The smallest paired difference a run of ``n`` requests detects with ``power``.

    The inverse of :func:`plan_n` (Connor's formula solved for the difference).

    Parameters
    ----------
    n : int
        Requests both cells answered.
    discordance : float
        Share of discordant pairs, a proportion in (0, 1].
    power, alpha : float
        As for :func:`plan_n`.

    Returns
    -------
    float
        The minimum detectable effect, in percentage points; ``100 * discordance`` when even
        that is not detectable (no difference larger can exist).

    Raises
    ------
    ValueError
        When ``n < 1`` or a level is outside (0, 1).
    """
    _check_design(power, alpha, discordance)
    check_parameters(_DESIGN, n=n)
    za, zb = _z(1 - alpha / 2), _z(power)

    def needed(d: float) -> float:
        return (za * math.sqrt(discordance) + zb * math.sqrt(max(discordance - d * d, 0.0))
                ) ** 2 / (d * d)

    low, high = 1e-9, discordance
    if needed(high) > n:
        return 100 * discordance
    for _ in range(100):  # needed() falls as d grows: bisect for needed(d) = n
        mid = (low + high) / 2
        low, high = (mid, high) if needed(mid) > n else (low, mid)
    return 100 * high


def noise_floor(turns: Any, reference: str, *, rule: str = "main", power: float = 0.8,
                alpha: float = 0.05) -> dict[str, Any]:
    """The minimum detectable effect of a run as it stands: its n and its discordance.

    ``n`` is the median number of pairs a cell shares with the reference; the discordance is
    pooled over every cell's pairs with the reference.

    Parameters
    ----------
    turns : pandas.DataFrame
        A turn frame (see :func:`paired_contrasts`).
    reference : str
        The reference cell's label.
    rule : str
        Which verdict to compare.
    power, alpha : float
        As for :func:`plan_n`; ``alpha`` is per contrast.

    Returns
    -------
    dict
        ``n`` (requests), ``discordance`` (proportion), ``n_discordant`` and ``n_pairs``
        (pooled counts), ``power``, ``alpha``, ``mde_points`` (percentage points; NaN with no
        discordant pair) and ``sentence`` (see :func:`noise_floor_sentence`).

    Raises
    ------
    ValueError
        As :func:`paired_contrasts`, or when no cell shares a request with the reference.
    """
    contrasts = paired_contrasts(turns, reference, rule=rule, n_boot=1)
    used = contrasts[contrasts["n_pairs"] > 0]
    if used.empty:
        raise InvalidParameterError(
            f"noise_floor: no cell shares a graded request with {reference!r}")
    n = int(np.median(used["n_pairs"]))
    pairs = int(used["n_pairs"].sum())
    discordant = int((used["cell_only"] + used["reference_only"]).sum())
    psi = discordant / pairs
    mde = (minimum_detectable_effect(n, discordance=psi, power=power, alpha=alpha)
           if discordant else math.nan)
    out = {"n": n, "discordance": psi, "n_discordant": discordant, "n_pairs": pairs,
           "power": power, "alpha": alpha, "mde_points": mde}
    out["sentence"] = noise_floor_sentence(mde, n=n, discordance=psi, power=power, alpha=alpha)
    return out


def noise_floor_sentence(mde_points: float, *, n: int, discordance: float, power: float = 0.8,
                         alpha: float = 0.05) -> str:
    """The noise floor in words, for a table or a chart's caption.

    Parameters
    ----------
    mde_points : float
        Minimum detectable effect in percentage points (:func:`minimum_detectable_effect`).
    n : int
        Requests per cell.
    discordance : float
        Share of discordant pairs (proportion).
    power, alpha : float
        The levels the effect was computed at.

    Returns
    -------
    str
        E.g. "Differences smaller than 12.4 points cannot be told apart in this run (50
        requests a cell, 22% of paired answers discordant; 80% power, alpha 0.05)."
    """
    if math.isnan(mde_points):
        return (f"No two cells disagreed on any request in this run ({n} requests a cell), so "
                f"it cannot say how large a difference it would detect.")
    return (f"Differences smaller than {mde_points:.1f} points cannot be told apart in this run "
            f"({n} requests a cell, {100 * discordance:.0f}% of paired answers discordant; "
            f"{100 * power:.0f}% power, alpha {alpha:g}).")


# -- repeats: the same request asked k times ------------------------------------------------------

def pass_at_k(n: int, c: int, k: int) -> float:
    """Chance that at least one of ``k`` tries is correct, estimated from ``c`` of ``n``.

    The unbiased estimator ``1 - C(n - c, k) / C(n, k)`` (Chen et al., 2021).

    Parameters
    ----------
    n : int
        Tries of the request.
    c : int
        Correct tries, ``0 <= c <= n``.
    k : int
        Tries allowed, ``1 <= k <= n``.

    Returns
    -------
    float
        A proportion in [0, 1].

    Raises
    ------
    ValueError
        When the counts are inconsistent.
    """
    _check_counts(n, c, k)
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Chance that all of ``k`` tries are correct (pass^k), estimated from ``c`` of ``n``.

    The unbiased estimator ``C(c, k) / C(n, k)`` (Yao et al., 2024, tau-bench).

    Parameters
    ----------
    n, c, k : int
        As for :func:`pass_at_k`.

    Returns
    -------
    float
        A proportion in [0, 1].

    Raises
    ------
    ValueError
        When the counts are inconsistent.
    """
    _check_counts(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def _check_counts(n: int, c: int, k: int) -> None:
    if not (0 <= c <= n and 1 <= k <= n):
        raise InvalidParameterError(f"need 0 <= c <= n and 1 <= k <= n; got n={n}, c={c}, k={k}")


def _repeat_counts(turns: Any, rule: str) -> Any:
    column = f"correct_{check_rule(rule, GRADINGS)}"
    for needed in ("repeat", column):
        if needed not in turns.columns:
            raise InvalidParameterError(f"the turn frame has no {needed!r} column")
    graded = turns[turns["error"].isna()]
    return (graded.assign(_ok=graded[column].astype(bool).astype(int))
            .groupby(["cell", "request_id"], sort=False)["_ok"].agg(["size", "sum"])
            .rename(columns={"size": "n_repeats", "sum": "n_correct"}).reset_index())


def repeat_requests(turns: Any, *, rule: str = "main", k: int | None = None) -> Any:
    """Per cell and request: how often it was right across repeats, pass@k and pass^k.

    Parameters
    ----------
    turns : pandas.DataFrame
        A turn frame with a ``repeat`` column; turns with a server error are left out.
    rule : str
        Which verdict (``correct_<rule>``).
    k : int, optional
        Tries for pass@k and pass^k (default: each request's own number of graded repeats).

    Returns
    -------
    pandas.DataFrame
        Columns ``cell``, ``request_id``, ``n_repeats``, ``n_correct``, ``pass_at_k`` and
        ``pass_hat_k`` (proportions; NaN where fewer than ``k`` repeats were graded) and
        ``flipped`` (both verdicts occurred).

    Raises
    ------
    ValueError
        When the frame lacks the ``repeat`` or verdict column.
    """
    counts = _repeat_counts(turns, rule)

    def estimate(fn: Any, row: Any) -> float:
        kk = k or int(row.n_repeats)
        return fn(int(row.n_repeats), int(row.n_correct), kk) if row.n_repeats >= kk else math.nan

    counts["pass_at_k"] = [estimate(pass_at_k, r) for r in counts.itertuples()]
    counts["pass_hat_k"] = [estimate(pass_hat_k, r) for r in counts.itertuples()]
    counts["flipped"] = (counts["n_correct"] > 0) & (counts["n_correct"] < counts["n_repeats"])
    return counts


def repeat_cells(turns: Any, *, rule: str = "main", k: int | None = None) -> Any:
    """Per cell: the flip rate, the spread of accuracy across repeats, pass@k and pass^k.

    Parameters
    ----------
    turns : pandas.DataFrame
        A turn frame with a ``repeat`` column (see :func:`repeat_requests`).
    rule : str
        Which verdict.
    k : int, optional
        As for :func:`repeat_requests`.

    Returns
    -------
    pandas.DataFrame
        One row per cell: ``n_requests``, ``n_repeats`` (most repeats of a request),
        ``accuracy`` (percent, every graded turn), ``accuracy_sd`` (percentage points: sample
        standard deviation across repeats of each repeat's accuracy; NaN with one repeat),
        ``accuracy_variance`` (its square, points²), ``flip_rate`` (percent of requests with
        both verdicts), ``pass_at_k`` and ``pass_hat_k`` (percent, mean over requests).

    Raises
    ------
    ValueError
        When the frame lacks the ``repeat`` or verdict column.
    """
    import pandas as pd

    per_request = repeat_requests(turns, rule=rule, k=k)
    column = f"correct_{check_rule(rule, GRADINGS)}"
    graded = turns[turns["error"].isna()]
    per_repeat = (graded.assign(_ok=graded[column].astype(bool).astype(float))
                  .groupby(["cell", "repeat"], sort=False)["_ok"].mean() * 100)
    rows = []
    for cell, group in per_request.groupby("cell", sort=False):
        spread = per_repeat.loc[cell]
        sd = float(spread.std(ddof=1)) if len(spread) > 1 else math.nan
        rows.append({"cell": cell, "n_requests": len(group),
                     "n_repeats": int(group["n_repeats"].max()),
                     "accuracy": 100 * group["n_correct"].sum() / group["n_repeats"].sum(),
                     "accuracy_sd": sd, "accuracy_variance": sd * sd,
                     "flip_rate": 100 * float(group["flipped"].mean()),
                     "pass_at_k": 100 * float(group["pass_at_k"].mean()),
                     "pass_hat_k": 100 * float(group["pass_hat_k"].mean())})
    return pd.DataFrame(rows)
