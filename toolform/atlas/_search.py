"""Successive halving over a format × protocol grid, with strength shared along rows and columns.

The search knows nothing of models: it asks an ``ask`` callback for the outcomes of (cell,
request) pairs and decides which cells to ask next, so the same code runs against a live model
(through :func:`toolform.atlas.atlas`) and against a synthetic grid whose true accuracies are
known (:mod:`toolform.atlas._simulate`).

Round 0 gives every cell a few requests in a Latin design (each format meets many requests
across its protocols, each protocol across its formats). Each cell is then scored by its
request-adjusted accuracy shrunk toward an additive format + protocol prediction fitted on every
turn so far — a cell seen on one request borrows the evidence of the ~30 turns of its format and
the ~130 of its protocol — and the best ``1/eta`` survive. Later rounds give every survivor the
same new requests (a paired design), until ``finalists`` cells are left; they share the rest of
the budget, up to every request. When the request pool runs out before the budget does, the
best cells dropped so far are given the survivors' requests, best first, and rejoin the final.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from ..errors import InvalidParameterError

__all__ = ["SearchResult", "SearchRound", "confidence_elimination", "successive_halving"]

#: ``ask(cells, requests) -> outcomes``: parallel int arrays of cell and request indices in,
#: a float array out (1.0 correct, 0.0 wrong, NaN when the turn failed and has no verdict).
Ask = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class SearchRound:
    """One round of the search.

    Attributes
    ----------
    round : int
        0 for the Latin round over the whole grid.
    n_cells : int
        Cells asked in this round.
    requests_per_cell : int
        New requests each of them was given.
    turns : int
        Turns asked in the round.
    cumulative_turns : int
        Turns asked so far, this round included.
    leader : int
        Index of the best-scored cell after the round.
    leader_score : float
        Its score (shrunk, request-adjusted accuracy), as a proportion.
    survivors : tuple of int
        The cells kept for the next round.
    """

    round: int
    n_cells: int
    requests_per_cell: int
    turns: int
    cumulative_turns: int
    leader: int
    leader_score: float
    survivors: tuple[int, ...]


@dataclass(frozen=True)
class SearchResult:
    """What the search found.

    Attributes
    ----------
    best : int
        Index of the returned cell.
    finalists : tuple of int
        The cells of the last round, best first.
    scores : numpy.ndarray, shape (n_cells,)
        Final score of every cell (proportion; NaN for a cell never answered).
    n_turns : numpy.ndarray, shape (n_cells,)
        Graded turns per cell.
    eliminated_in : numpy.ndarray, shape (n_cells,)
        The round after which each cell was dropped (-1 for the finalists).
    rounds : tuple of SearchRound
        The search's path.
    turns : int
        Turns asked in all.
    outcomes : dict
        ``(cell, request) -> outcome`` for every pair asked.
    """

    best: int
    finalists: tuple[int, ...]
    scores: np.ndarray
    n_turns: np.ndarray
    eliminated_in: np.ndarray
    rounds: tuple[SearchRound, ...]
    turns: int
    outcomes: dict[tuple[int, int], float] = field(repr=False)


def _latin_requests(rows: np.ndarray, cols: np.ndarray, n_cols: int, n_requests: int,
                    per_cell: int, order: np.ndarray) -> list[np.ndarray]:
    """Round 0's requests per cell: cell (i, j) takes ``order[(i + j*s + t*k) mod N]``.

    The stride ``s`` spreads one format's protocols over the request pool, and ``k`` spreads a
    cell's own requests, so every format and every protocol meets the pool evenly."""
    stride = max(1, n_requests // max(1, n_cols))
    step = max(1, n_requests // max(1, per_cell))
    out = []
    for i, j in zip(rows, cols):
        idx = {(int(i) + int(j) * stride + t * step) % n_requests for t in range(per_cell)}
        t = 0
        while len(idx) < per_cell:  # a collision: take the next free request
            idx.add((int(i) + int(j) * stride + t) % n_requests)
            t += 1
        out.append(order[sorted(idx)])
    return out


def _additive_fit(y: np.ndarray, w: np.ndarray, rows: np.ndarray, cols: np.ndarray,
                  n_rows: int, n_cols: int, iterations: int = 25) -> np.ndarray:
    """Weighted two-way additive fit ``mu + a[row] + b[col]`` of cell means, by backfitting.
    Returns the prediction for every cell; cells with weight 0 get their row and column's."""
    total = w.sum()
    mu = float((w * y).sum() / total) if total else 0.5
    a = np.zeros(n_rows)
    b = np.zeros(n_cols)
    for _ in range(iterations):
        resid = y - mu - b[cols]
        num = np.bincount(rows, w * resid, n_rows)
        den = np.bincount(rows, w, n_rows)
        a = np.divide(num, den, out=np.zeros(n_rows), where=den > 0)
        resid = y - mu - a[rows]
        num = np.bincount(cols, w * resid, n_cols)
        den = np.bincount(cols, w, n_cols)
        b = np.divide(num, den, out=np.zeros(n_cols), where=den > 0)
    return mu + a[rows] + b[cols]


class _State:
    """Outcomes so far, and the scores they give."""

    def __init__(self, rows: np.ndarray, cols: np.ndarray, n_requests: int) -> None:
        self.rows, self.cols = rows, cols
        self.n_rows, self.n_cols = int(rows.max()) + 1, int(cols.max()) + 1
        self.n_requests = n_requests
        self.outcomes: dict[tuple[int, int], float] = {}
        self.asked: list[set[int]] = [set() for _ in range(len(rows))]

    def add(self, cells: np.ndarray, requests: np.ndarray, values: np.ndarray) -> None:
        for c, r, v in zip(cells.tolist(), requests.tolist(), values.tolist()):
            self.outcomes[(c, r)] = v
            self.asked[c].add(r)

    def scores(self, prior_turns: float | str) -> tuple[np.ndarray, np.ndarray, float]:
        """(score, graded turns, prior weight) per cell: request-adjusted accuracy, shrunk
        toward the additive prediction with the weight of ``prior_turns`` turns (``"auto"``:
        the empirical-Bayes weight, see :func:`_prior_weight`)."""
        n_cells = len(self.rows)
        keys = np.array([k for k, v in self.outcomes.items() if not math.isnan(v)], dtype=int
                        ).reshape(-1, 2)
        vals = np.array([v for v in self.outcomes.values() if not math.isnan(v)], dtype=float)
        if not len(vals):
            return np.full(n_cells, np.nan), np.zeros(n_cells), 0.0
        cells, reqs = keys[:, 0], keys[:, 1]
        req_mean = (np.bincount(reqs, vals, self.n_requests)
                    / np.maximum(np.bincount(reqs, minlength=self.n_requests), 1))
        adjusted = vals - req_mean[reqs] + vals.mean()
        n = np.bincount(cells, minlength=n_cells).astype(float)
        mean = np.divide(np.bincount(cells, adjusted, n_cells), n, out=np.full(n_cells, np.nan),
                         where=n > 0)
        filled = np.nan_to_num(mean)
        prior = _additive_fit(filled, n, self.rows, self.cols, self.n_rows, self.n_cols)
        k = (_prior_weight(adjusted, cells, filled, prior, n) if prior_turns == "auto"
             else float(prior_turns))
        score = (n * filled + k * prior) / (n + k)
        return score, n, k

    def within_variance(self) -> float:
        """Per-turn variance of request-adjusted verdicts within a cell, pooled over cells
        (the ``s2`` of :func:`_prior_weight`); 0.25 before any cell has two turns."""
        keys = np.array([k for k, v in self.outcomes.items() if not math.isnan(v)], dtype=int
                        ).reshape(-1, 2)
        vals = np.array([v for v in self.outcomes.values() if not math.isnan(v)], dtype=float)
        if not len(vals):
            return 0.25
        cells, reqs = keys[:, 0], keys[:, 1]
        req_mean = (np.bincount(reqs, vals, self.n_requests)
                    / np.maximum(np.bincount(reqs, minlength=self.n_requests), 1))
        adjusted = vals - req_mean[reqs]
        n = np.bincount(cells, minlength=len(self.rows)).astype(float)
        mean = np.divide(np.bincount(cells, adjusted, len(self.rows)), n,
                         out=np.zeros(len(self.rows)), where=n > 0)
        dof = float((n[n > 0] - 1).sum())
        return max(float(((adjusted - mean[cells]) ** 2).sum() / dof), 1e-6) if dof > 0 else 0.25


def _prior_weight(adjusted: np.ndarray, cells: np.ndarray, mean: np.ndarray, prior: np.ndarray,
                  n: np.ndarray) -> float:
    """Empirical-Bayes weight of the additive prediction, in turns: ``s2 / tau2``.

    ``s2`` is the per-turn variance of request-adjusted verdicts within a cell (pooled over
    cells with two or more turns); ``tau2`` the variance of cells around the additive
    prediction that sampling does not explain (method of moments, floored). Kept in [1, 1000].
    """
    seen = n > 0
    within = adjusted - mean[cells]
    dof = float((n[seen] - 1).sum())
    s2 = float((within ** 2).sum() / dof) if dof > 0 else float(
        adjusted.mean() * (1 - adjusted.mean()))
    s2 = max(s2, 1e-6)
    excess = (mean[seen] - prior[seen]) ** 2 - s2 / n[seen]
    tau2 = max(float(np.average(excess, weights=n[seen])), 1e-6)
    return float(np.clip(s2 / tau2, 1.0, 1000.0))



def _ask_survivors(state, survivors: list[int], new: list[int], ask: Ask) -> int:
    """Ask every survivor the ``new`` requests it has not had yet; the number of turns asked."""
    pairs = [(c, q) for c in survivors for q in new if q not in state.asked[c]]
    if pairs:
        cells = np.array([p[0] for p in pairs], dtype=int)
        reqs = np.array([p[1] for p in pairs], dtype=int)
        state.add(cells, reqs, np.asarray(ask(cells, reqs), dtype=float))
    return len(pairs)


def _rejoin(state, weight, readmitted: dict, survivors: list[int], eliminated: dict, tie,
            r: int, spent: int, rounds: list) -> tuple[int, list[int]]:
    """Put the topped-up cells back among the survivors and record that round; the turns
    spent so far and the survivors, after."""
    turns = sum(len(p) for p in readmitted.values())
    spent += turns
    survivors = survivors + list(readmitted)
    for c in readmitted:
        eliminated[c] = -1
    score, _, _ = state.scores(weight)
    ranked = _rank(score, survivors, tie)
    rounds.append(SearchRound(r + 1, len(readmitted), max(len(p) for p in readmitted.values()),
                              turns, spent, ranked[0], float(score[ranked[0]]), tuple(ranked)))
    return spent, survivors

def _result(state, weight, survivors: list[int], eliminated: dict, tie, rounds: list,
            spent: int) -> SearchResult:
    """The search's result: the survivors ranked by their final scores."""
    score, n, _ = state.scores(weight)
    final = tuple(_rank(score, survivors, tie))
    return SearchResult(best=final[0], finalists=final, scores=score, n_turns=n,
                        eliminated_in=eliminated, rounds=tuple(rounds), turns=spent,
                        outcomes=dict(state.outcomes))


def _top_up(state: _State, weight: float, eliminated: np.ndarray, shared: np.ndarray,
            tie: np.ndarray, left: int, ask: Ask) -> dict[int, list[int]]:
    """Give dropped cells, best-scored first, the shared requests they lack, while ``left``
    turns last; returns each re-admitted cell's new requests."""
    if left <= 0 or not len(shared):
        return {}
    score, _, _ = state.scores(weight)
    dropped = _rank(score, [int(c) for c in np.flatnonzero(eliminated >= 0)], tie)
    plan: dict[int, list[int]] = {}
    for c in dropped:
        missing = [int(q) for q in shared if int(q) not in state.asked[c]]
        if len(missing) > left:
            break
        plan[c] = missing
        left -= len(missing)
    pairs = [(c, q) for c, qs in plan.items() for q in qs]
    if pairs:
        cells = np.array([p[0] for p in pairs], dtype=int)
        reqs = np.array([p[1] for p in pairs], dtype=int)
        state.add(cells, reqs, np.asarray(ask(cells, reqs), dtype=float))
    return {c: qs for c, qs in plan.items() if qs}


def _rank(score: np.ndarray, among: Sequence[int], order_key: np.ndarray) -> list[int]:
    """``among`` best first; ties broken by a seeded key, never by position."""
    return sorted(among, key=lambda c: (-score[c], order_key[c]))


def successive_halving(rows: Sequence[int], cols: Sequence[int], n_requests: int,
                       budget_turns: int, ask: Ask, *, eta: float = 3.0, finalists: int = 4,
                       first_round_requests: int | None = None,
                       prior_turns: float | str = "auto",
                       seed: int = 0) -> SearchResult:
    """Find the best cell of a grid for at most ``budget_turns`` turns.

    Parameters
    ----------
    rows, cols : sequence of int, length n_cells
        Each cell's format index and protocol index (the additive prediction shares strength
        along them).
    n_requests : int
        Requests in the pool; a cell is never asked one request twice.
    budget_turns : int
        Most turns to ask (a failed turn counts as asked).
    ask : callable
        ``ask(cells, requests) -> outcomes`` (see :data:`Ask`).
    eta : float, default 3
        Each round keeps ``1/eta`` of the cells.
    finalists : int, default 4
        Halving stops at this many cells, which share what is left of the budget.
    first_round_requests : int, optional
        Requests per cell in round 0 (default: what an even split of the budget over the
        rounds allows, at least 1).
    prior_turns : float or "auto", default "auto"
        Weight, in turns, of the additive prediction in a cell's score; ``"auto"`` estimates
        it once, from round 0's balanced design (empirical Bayes: within-cell variance over
        the variance of cells around the prediction).
    seed : int
        Seed of the request order and of tie-breaking.

    Returns
    -------
    SearchResult

    Raises
    ------
    ValueError
        When the grid is empty, the lengths differ, or the budget cannot give every cell one
        turn (the message gives the least budget that can).
    """
    rows_a = np.asarray(rows, dtype=int)
    cols_a = np.asarray(cols, dtype=int)
    n_cells = len(rows_a)
    if n_cells == 0 or len(cols_a) != n_cells:
        raise InvalidParameterError(
            f"successive_halving needs rows and cols of one non-zero length; got "
            f"{len(rows_a)} and {len(cols_a)}")
    if n_requests < 1:
        raise InvalidParameterError(f"n_requests must be at least 1, got {n_requests}")
    if eta <= 1:
        raise InvalidParameterError(f"eta must be above 1, got {eta}")
    if budget_turns < n_cells:
        raise InvalidParameterError(
            f"budget_turns={budget_turns} cannot give each of the {n_cells} cells "
            f"one turn; give at least {n_cells}")
    rng = np.random.default_rng(seed)
    order = rng.permutation(n_requests)
    tie = rng.permutation(n_cells)
    state = _State(rows_a, cols_a, n_requests)
    finalists = max(1, finalists)
    planned = math.ceil(math.log(max(n_cells / finalists, 1.0), eta)) + 1
    m0 = first_round_requests or max(1, budget_turns // (planned * n_cells))
    m0 = min(m0, n_requests, budget_turns // n_cells)
    eliminated = np.full(n_cells, -1)
    rounds: list[SearchRound] = []

    # round 0: the Latin design over the whole grid
    per_cell = _latin_requests(rows_a, cols_a, int(cols_a.max()) + 1, n_requests, m0, order)
    cells = np.repeat(np.arange(n_cells), [len(p) for p in per_cell])
    reqs = np.concatenate(per_cell)
    state.add(cells, reqs, np.asarray(ask(cells, reqs), dtype=float))
    spent = len(cells)
    # the empirical-Bayes weight is estimated once, on round 0's unselected, balanced design:
    # later rounds see only survivors, whose spread around the prediction selection inflates
    _, _, weight = state.scores(prior_turns)
    survivors = list(range(n_cells))
    asked_cells, width, turns = n_cells, m0, spent
    next_request = 0  # rounds >= 1 give every survivor order[next_request:next_request + width]
    r = 0
    while True:
        score, _, _ = state.scores(weight)
        ranked = _rank(score, survivors, tie)
        keep = ranked
        if len(ranked) > finalists:
            keep = ranked[:max(finalists, math.ceil(len(ranked) / eta))]
        for c in ranked[len(keep):]:
            eliminated[c] = r
        rounds.append(SearchRound(r, asked_cells, width, turns, spent, ranked[0],
                                  float(score[ranked[0]]), tuple(keep)))
        survivors = keep
        rounds_left = 1
        if len(survivors) > finalists:
            rounds_left = math.ceil(math.log(len(survivors) / finalists, eta)) + 1
        left = budget_turns - spent
        if 0 < left < len(survivors) and len(survivors) > finalists:
            # too little left to give every survivor a request: keep the best the budget covers
            for c in survivors[max(finalists, left):]:
                eliminated[c] = r
            survivors = survivors[:max(finalists, left)]
        width = min(max(left // (len(survivors) * rounds_left), 1 if left >= len(survivors) else 0),
                    n_requests - next_request)
        if width < 1:
            break
        new = order[next_request:next_request + width].tolist()
        next_request += width
        turns = _ask_survivors(state, survivors, new, ask)
        spent += turns
        asked_cells = len(survivors)
        r += 1
    # the pool ran out before the budget did: the best cells dropped so far are given every
    # request the survivors had, best first, while the budget lasts, and rejoin the final
    readmitted = _top_up(state, weight, eliminated, order[:next_request], tie,
                         budget_turns - spent, ask)
    if readmitted:
        spent, survivors = _rejoin(state, weight, readmitted, survivors, eliminated, tie, r,
                                   spent, rounds)
    return _result(state, weight, survivors, eliminated, tie, rounds, spent)


def confidence_elimination(rows: Sequence[int], cols: Sequence[int], n_requests: int,
                           budget_turns: int, ask: Ask, *, first_share: float = 0.4,
                           z: float = 2.0, prior_turns: float | str = "auto",
                           seed: int = 0) -> SearchResult:
    """Find the best cell by successive elimination with confidence bounds (best-arm search).

    Round 0 is the Latin design of :func:`successive_halving`, spending ``first_share`` of the
    budget. Every cell then has a score (request-adjusted accuracy shrunk toward the additive
    format + protocol prediction, weight ``k`` turns) and a posterior standard deviation
    ``sqrt(s2 / (n + k))`` (``s2``: the pooled per-turn variance within cells). A survivor is
    dropped once its upper bound ``score + z·sd`` falls below the leader's lower bound
    ``score - z·sd``; when the budget cannot give every survivor the next round, the lowest
    upper bounds go first. Each round gives every survivor the same new requests (a paired
    design), half of what is left of the budget; the search stops when one survivor is left, or
    the pool or the budget runs out. What is left then goes to the dropped cells with the
    highest scores, on the survivors' requests (:func:`_top_up`), and they rejoin the final.

    Parameters
    ----------
    rows, cols, n_requests, budget_turns, ask, prior_turns, seed
        As for :func:`successive_halving`.
    first_share : float, default 0.4
        Share of the budget (a proportion) spent in round 0; at least one turn per cell.
    z : float, default 2
        Width of the confidence bounds, in posterior standard deviations.

    Returns
    -------
    SearchResult

    Raises
    ------
    ValueError
        As :func:`successive_halving`, and when ``first_share`` is outside (0, 1] or ``z`` < 0.
    """
    rows_a = np.asarray(rows, dtype=int)
    cols_a = np.asarray(cols, dtype=int)
    n_cells = len(rows_a)
    if n_cells == 0 or len(cols_a) != n_cells:
        raise InvalidParameterError(f"confidence_elimination needs rows and cols of one non-zero length; "
                         f"got {len(rows_a)} and {len(cols_a)}")
    if n_requests < 1:
        raise InvalidParameterError(f"n_requests must be at least 1, got {n_requests}")
    if not 0 < first_share <= 1 or z < 0:
        raise InvalidParameterError(f"need 0 < first_share <= 1 and z >= 0; got {first_share}, {z}")
    if budget_turns < n_cells:
        raise InvalidParameterError(f"budget_turns={budget_turns} cannot give each of the {n_cells} cells "
                         f"one turn; give at least {n_cells}")
    rng = np.random.default_rng(seed)
    order = rng.permutation(n_requests)
    tie = rng.permutation(n_cells)
    state = _State(rows_a, cols_a, n_requests)
    m0 = min(max(1, int(first_share * budget_turns) // n_cells), n_requests)
    per_cell = _latin_requests(rows_a, cols_a, int(cols_a.max()) + 1, n_requests, m0, order)
    cells = np.repeat(np.arange(n_cells), [len(p) for p in per_cell])
    reqs = np.concatenate(per_cell)
    state.add(cells, reqs, np.asarray(ask(cells, reqs), dtype=float))
    spent = turns = len(cells)
    _, _, weight = state.scores(prior_turns)  # estimated once, on the unselected design
    eliminated = np.full(n_cells, -1)
    rounds: list[SearchRound] = []
    survivors = list(range(n_cells))
    asked_cells, width, next_request, r = n_cells, m0, 0, 0
    while True:
        score, n, _ = state.scores(weight)
        sd = np.sqrt(state.within_variance() / (n + weight))
        upper = score + z * sd
        ranked = _rank(score, survivors, tie)
        leader = ranked[0]
        floor = score[leader] - z * sd[leader]
        keep = [c for c in ranked if upper[c] >= floor]
        left = budget_turns - spent
        if len(keep) > max(left, 1):  # the budget cannot give every survivor a request
            keep = sorted(keep, key=lambda c: (-upper[c], tie[c]))[:max(left, 1)]
            keep = _rank(score, keep, tie)
        for c in survivors:
            if c not in keep:
                eliminated[c] = r
        rounds.append(SearchRound(r, asked_cells, width, turns, spent, keep[0],
                                  float(score[keep[0]]), tuple(keep)))
        survivors = keep
        width = min(max(left // (2 * len(survivors)), 1), n_requests - next_request)
        if len(survivors) == 1 or width < 1 or left < len(survivors):
            break
        new = order[next_request:next_request + width].tolist()
        next_request += width
        turns = _ask_survivors(state, survivors, new, ask)
        spent += turns
        asked_cells = len(survivors)
        r += 1
    readmitted = _top_up(state, weight, eliminated, order[:next_request], tie,
                         budget_turns - spent, ask)
    if readmitted:
        spent, survivors = _rejoin(state, weight, readmitted, survivors, eliminated, tie, r,
                                   spent, rounds)
    return _result(state, weight, survivors, eliminated, tie, rounds, spent)
