"""``atlas``: search a model's format × protocol grid adaptively, on today's runner.

Every turn goes through :func:`toolform.runs.run_cells` (the one adapter, :func:`_run_turns`),
so the atlas checkpoints, resumes and replays from cassettes exactly as any run does: the search
is deterministic for a seed, so running it again with the same checkpoint (or a replaying
cassette client) asks for the same turns and finds them already answered.
"""

from __future__ import annotations

import os
import threading
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pandas as pd

from .._deprecated import renamed_keywords
from ..errors import GradingError, InvalidParameterError
from ..grading import GRADINGS, check_rule
from ..ir import Request
from ..repeats import NOT_SAMPLED, Sampling, expand_repeats
from ..runs import (DEFAULT_CONCURRENCY, DEFAULT_MAX_TOKENS, Cell, run_cells, summarize_verdicts,
                    verdicts_frame)
from ..stats import noise_floor, paired_contrasts
from ._grid import carry_grid
from ._search import SearchResult, confidence_elimination, successive_halving
from ._sensitivity import format_sensitivity
from ._simulate import ILLUSTRATION_FORMATS, ILLUSTRATION_PROTOCOLS

__all__ = ["ATLAS_CELL_COLUMNS", "PATH_COLUMNS", "RECORDED_ATLAS_BUDGET", "RECORDED_ATLAS_CASSETTE",
           "RECORDED_ATLAS_DRAW", "RECORDED_ATLAS_FORMATS", "RECORDED_ATLAS_PAIRS",
           "RECORDED_ATLAS_PROTOCOLS", "RECORDED_ATLAS_SEARCH", "SEARCHES", "AtlasResult", "atlas", "record_atlas", "recorded_atlas",
           "recorded_atlas_requests"]

#: The committed atlas cassette of the local model, relative to the packaged datasets folder.
RECORDED_ATLAS_CASSETTE = "cassettes/atlas_qwen2.5-coder-0.5b-instruct.jsonl"
#: Its request pool: (datasets, n, seed) for ``select_requests`` (the A/B's draw, first 20).
RECORDED_ATLAS_DRAW = (("bfcl/simple_python", "bfcl/multiple"), 20, 0)
#: Its grid: the illustration slice of the simulation (``ILLUSTRATION_FORMATS`` x
#: ``ILLUSTRATION_PROTOCOLS``: the eight core formats and twelve others, one or two per family,
#: crossed with the study's five crossing protocols), 20 x 5 = 100 cells x 20 requests = a
#: 2,000-turn full grid. Replies the eight-cell A/B cassette holds cost nothing.
RECORDED_ATLAS_FORMATS = ILLUSTRATION_FORMATS
RECORDED_ATLAS_PROTOCOLS = ILLUSTRATION_PROTOCOLS
RECORDED_ATLAS_PAIRS = tuple((f, p) for f in RECORDED_ATLAS_FORMATS for p in RECORDED_ATLAS_PROTOCOLS)
#: Its budget, in turns: 10% of the 2,000-turn full grid (two requests a cell on average).
RECORDED_ATLAS_BUDGET = 200
#: The search it was recorded with (a replay must ask the same turns).
RECORDED_ATLAS_SEARCH = "elimination"
#: Per-attempt timeout of a live turn, in seconds (a loaded machine's turn takes minutes).
RECORDED_ATLAS_TIMEOUT_S = 1800.0
#: Completion budget of every recorded turn, in tokens (as the eight-cell A/B).
RECORDED_ATLAS_MAX_TOKENS = 160

#: The searches :func:`atlas` runs.
SEARCHES = ("elimination", "halving")

#: Declared columns of ``AtlasResult.cells``: (name, dtype, unit, meaning).
ATLAS_CELL_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("cell", "string", "", "format_id/protocol_id"),
    ("format_id", "string", "", "schema format"),
    ("protocol_id", "string", "", "answer protocol"),
    ("rule", "string", "", "grading rule"),
    ("n", "int64", "turns", "graded turns (server errors left out)"),
    ("n_errors", "int64", "turns", "turns lost to a server error"),
    ("correct", "int64", "turns", "turns graded correct"),
    ("accuracy", "float64", "percent", "correct / n"),
    ("ci_low", "float64", "percent", "Wilson 95% interval, lower bound"),
    ("ci_high", "float64", "percent", "Wilson 95% interval, upper bound"),
    ("score", "float64", "percent",
     "the search's score (request-adjusted, shrunk toward the additive prediction); search rule only"),
    ("eliminated_in", "int64", "", "round after which the search dropped the cell (-1: a finalist)"),
    ("finalist", "boolean", "", "the cell reached the search's last round"),
)

#: Declared columns of ``AtlasResult.path``: (name, dtype, unit, meaning).
PATH_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("round", "int64", "", "0 is the Latin round over the whole grid"),
    ("n_cells", "int64", "cells", "cells asked in the round"),
    ("requests_per_cell", "int64", "requests", "new requests each was given"),
    ("turns", "int64", "turns", "turns asked in the round"),
    ("cumulative_turns", "int64", "turns", "turns asked so far"),
    ("leader", "string", "", "best-scored cell after the round"),
    ("leader_score", "float64", "percent", "its score"),
    ("survivors", "int64", "cells", "cells kept for the next round"),
)


@dataclass(frozen=True)
class AtlasResult:
    """What :func:`atlas` returns.

    Attributes
    ----------
    turns : pandas.DataFrame
        Every turn asked (``toolform.runs.TURN_COLUMNS``) plus ``atlas_round``.
    cells : pandas.DataFrame
        One row per explored cell and rule (:data:`ATLAS_CELL_COLUMNS`).
    path : pandas.DataFrame
        The search's rounds (:data:`PATH_COLUMNS`).
    grid : pandas.DataFrame
        Every format × protocol pair asked for, and whether it was carried
        (``toolform.atlas.GRID_COLUMNS``).
    contrasts : pandas.DataFrame
        Each finalist against the best on their common requests: paired bootstrap interval,
        exact McNemar test, Holm across finalists (``toolform.stats.CONTRAST_COLUMNS``).
    best : str
        The cell the search returns.
    rule : str
        The verdict the search ranked on.
    budget_turns, full_grid_turns, n_requests : int
        The budget, the turns the full grid would take (carried cells × requests), the pool.
    model : str
        The model measured.
    repeats : int
        Times each request was asked.
    sampling : toolform.repeats.Sampling
        How the turns sampled (each repeat with its own seed).
    """

    turns: pd.DataFrame
    cells: pd.DataFrame
    path: pd.DataFrame
    grid: pd.DataFrame
    contrasts: pd.DataFrame
    best: str
    rule: str
    budget_turns: int
    full_grid_turns: int
    n_requests: int
    model: str
    repeats: int = 1
    sampling: Sampling = Sampling()

    @property
    def turns_spent(self) -> int:
        """Turns the search asked (a failed turn counts)."""
        return len(self.turns)

    @property
    def share(self) -> float:
        """Turns spent as a share of the full grid's, in percent."""
        return 100 * self.turns_spent / self.full_grid_turns

    def finalists(self) -> pd.DataFrame:
        """The finalists under the search rule, best first, with intervals."""
        head = self.cells[(self.cells["rule"] == self.rule) & self.cells["finalist"]]
        return head.sort_values("score", ascending=False).reset_index(drop=True)

    def sensitivity(self, *, finalists_only: bool = True) -> dict[str, Any]:
        """BFCL's Max-Delta and standard deviation over the cells covered.

        Parameters
        ----------
        finalists_only : bool, default True
            Over the finalists on the requests they all answered (comparable accuracies);
            False: over every explored cell on all its turns (cells then differ in requests
            and in n, which inflates the spread).

        Returns
        -------
        dict
            See :func:`toolform.atlas.format_sensitivity`.
        """
        turns = self.turns
        if finalists_only:
            names = set(self.finalists()["cell"])
            turns = turns[turns["cell"].isin(names)]
        return format_sensitivity(turns, rule=self.rule, common_requests=finalists_only)

    def noise_floor(self, *, power: float = 0.8, alpha: float = 0.05) -> dict[str, Any]:
        """The finalists' noise floor against the best (``toolform.stats.noise_floor``)."""
        names = set(self.finalists()["cell"])
        return noise_floor(self.turns[self.turns["cell"].isin(names)], self.best,
                           rule=self.rule, power=power, alpha=alpha)

    def summary(self) -> str:
        """What the atlas found and what it spent, in one paragraph."""
        top = self.finalists().iloc[0]
        tied = self.contrasts[~self.contrasts["significant"]]["cell"].tolist()
        tie = (f"; not told apart from it (Holm-corrected exact McNemar): {', '.join(tied)}"
               if tied else "")
        repeats = ""
        if self.repeats > 1:
            repeats = (f" Each request asked {self.repeats} times, seed per repeat, at "
                       + (f"temperature {self.sampling.temperature:g}." if self.sampling.sampled
                          else f"{NOT_SAMPLED}."))
        return (f"{self.model}: best cell {self.best} at {top.accuracy:.1f}% "
                f"[{top.ci_low:.1f}, {top.ci_high:.1f}] under {self.rule} (n={int(top.n)}){tie}. "
                f"Spent {self.turns_spent} turns of a {self.full_grid_turns}-turn full grid "
                f"({self.share:.1f}%), over {self.cells['cell'].nunique()} cells.{repeats}")


def _run_turns(cells: Sequence[Cell], requests: Sequence[Request], client: Any,
               checkpoint: str | os.PathLike[str] | None, run_options: dict[str, Any]
               ) -> pd.DataFrame:
    """The atlas's one call into the runner: every cell of ``cells`` on every request."""
    return run_cells(cells, requests, client, checkpoint=checkpoint, **run_options)


def _asker(cells: Sequence[Cell], requests: Sequence[Request], client: Any,
           checkpoint: str | os.PathLike[str] | None, rule: str, run_options: dict[str, Any],
           collected: list[pd.DataFrame], stop: threading.Event | None) -> Any:
    """The search's ``ask``: groups the pairs into crosses, runs them, returns the verdicts."""
    column = f"correct_{rule}"
    labels = [c.label for c in cells]

    def ask(cell_idx: np.ndarray, request_idx: np.ndarray) -> np.ndarray:
        by_request: dict[int, list[int]] = defaultdict(list)
        for c, r in zip(cell_idx.tolist(), request_idx.tolist()):
            by_request[r].append(c)
        crosses: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for r, cs in by_request.items():
            crosses[tuple(sorted(cs))].append(r)
        verdict: dict[tuple[str, str], float] = {}
        for cs, rs in crosses.items():
            if stop is not None and stop.is_set():
                break
            frame = _run_turns([cells[i] for i in cs], [requests[j] for j in sorted(rs)],
                               client, checkpoint, run_options)
            collected.append(frame)
            for row in frame.itertuples():
                ok = getattr(row, column)
                verdict[(row.cell, row.request_id)] = (
                    float("nan") if isinstance(row.error, str) or pd.isna(ok) else float(bool(ok)))
        return np.array([verdict.get((labels[c], requests[r].id), float("nan"))
                         for c, r in zip(cell_idx.tolist(), request_idx.tolist())])

    return ask


@renamed_keywords({"max_concurrency": "concurrency"})
def atlas(requests: Any, client: Any, *, formats: Sequence[str] | None = None,
          protocols: Sequence[str] | None = None,
          pairs: Sequence[tuple[str, str]] | None = None, rules: Sequence[str] = ("main",),
          budget_turns: int, n_requests: int | None = None, seed: int = 0,
          checkpoint: str | os.PathLike[str] | None = None, search: str = "elimination",
          eta: float = 3.0, finalists: int = 4, concurrency: int = DEFAULT_CONCURRENCY,
          max_tokens: int = DEFAULT_MAX_TOKENS, progress: bool = False,
          stop: threading.Event | None = None, repeats: int = 1,
          on_turn: Any = None, sampling: Sampling | None = None,
          price: Any = "frontier_api", executor: Any = None) -> AtlasResult:
    """Search the format × protocol grid for a model's best cells within a turn budget.

    The grid is every pair of ``formats`` × ``protocols`` whose protocol can carry every
    request's gold calls (:func:`toolform.atlas.carry_grid`); the search is successive halving
    with strength shared along formats and protocols
    (:func:`toolform.atlas.successive_halving`), validated on synthetic grids before any model
    is asked (:func:`toolform.atlas.simulate_search`).

    Parameters
    ----------
    requests : Dataset, sequence of Dataset, or sequence of Request
        The request pool; ``n_requests`` are drawn by a seeded shuffle.
    client : ChatClient
        The model (``OpenAICompatClient``, a cassette's ``ReplayClient``...).
    formats, protocols : sequence of str, optional
        The grid's axes (default: every registered format and protocol).
    pairs : sequence of (format_id, protocol_id), optional
        Search only these cells instead of the whole ``formats`` × ``protocols`` product (a
        sparse grid, e.g. cells already recorded); ``formats`` and ``protocols`` are then
        ignored.
    rules : sequence of str, default ("main",)
        Verdicts to report, from ``main``, ``symmetric``, ``as_written``,
        ``possible_answers``; the first one drives the search.
    budget_turns : int
        Most turns to ask.
    n_requests : int, optional
        Requests in the pool (default: all of ``requests``).
    seed : int
        Seed of the request draw, the search's request order and tie-breaking.
    checkpoint : path, optional
        JSONL checkpoint of every turn; running again resumes from it.
    search : {"elimination", "halving"}, default "elimination"
        :func:`toolform.atlas.confidence_elimination` (successive elimination with confidence
        bounds, the validated default) or :func:`toolform.atlas.successive_halving`.
    eta, finalists
        Passed to :func:`toolform.atlas.successive_halving` (``search="halving"`` only).
    concurrency, max_tokens, progress, stop, on_turn, price, executor
        Passed to :func:`toolform.runs.run_cells`: ``concurrency`` as its ``max_concurrency``,
        ``executor`` one of ``toolform.executors`` (each round's turns run on it); the defaults
        are the runner's and every experiment's (``toolform.runs.DEFAULT_*``; the recorded
        atlas keeps its own budget, :data:`RECORDED_ATLAS_MAX_TOKENS`). ``on_turn`` sees each
        turn of every round's run; ``toolform.experiments.atlas`` reports each turn once. The
        old spelling ``max_concurrency=`` is read one release, with a ``DeprecationWarning``.
    repeats : int, default 1
        Times each request is asked (after the draw; the search treats each repeat as a request of the pool; ``toolform.repeats.expand_repeats``: repeat ``i``
        has the id ``<id>#repeat<i>``; ``toolform.repeats.repeat_summary`` reads pass@k,
        pass^k and the flip rate off the turns). Each repeat is a sample: asked with
        ``sampling`` and its own seed, so its cassette key is its own.
    sampling : toolform.repeats.Sampling, optional
        Temperature, ``top_p``... and the base seed of the repeats (default temperature 0:
        repeats then differ only in seed, and a deterministic server gives flip rate 0, which
        :meth:`AtlasResult.summary` says).

    Returns
    -------
    AtlasResult

    Raises
    ------
    ValueError
        On an unknown search or rule, duplicate request ids, an empty grid, or a budget below one turn
        per carried cell.
    KeyError
        When ``pairs`` repeats a cell.
    """
    from ..recordings import select_requests

    if search not in SEARCHES:
        raise InvalidParameterError(f"search must be one of {SEARCHES}; got {search!r}")
    rules = tuple(rules)
    if not rules:
        raise GradingError(f"rules must be a non-empty selection of {list(GRADINGS)}; got none")
    for rule in rules:
        check_rule(rule, GRADINGS, parameter="rules")
    pool = expand_repeats(select_requests(requests, n_requests if n_requests is not None
                                          else 10 ** 9, seed), repeats)
    ids = [r.id for r in pool]
    if len(set(ids)) != len(ids):
        raise InvalidParameterError(
            "atlas: request ids must be unique in the pool (they key the turns)")
    if pairs is not None:
        wanted = [Cell(f, p).label for f, p in pairs]
        grid = carry_grid(pool, list(dict.fromkeys(f for f, _ in pairs)),
                          list(dict.fromkeys(p for _, p in pairs)))
        grid = grid.set_index("cell").loc[wanted].reset_index()[list(grid.columns)]
    else:
        grid = carry_grid(pool, formats, protocols)
    carried = grid[grid["carried"]]
    if carried.empty:
        raise InvalidParameterError(
            "atlas: no format x protocol pair can carry these requests' calls")
    cells = [Cell(f, p) for f, p in zip(carried["format_id"], carried["protocol_id"])]
    f_index = {f: i for i, f in enumerate(dict.fromkeys(carried["format_id"]))}
    p_index = {p: j for j, p in enumerate(dict.fromkeys(carried["protocol_id"]))}
    collected: list[pd.DataFrame] = []
    sampling = sampling if sampling is not None else Sampling()
    run_options = {"max_concurrency": concurrency, "max_tokens": max_tokens,
                   "progress": progress, "stop": stop, "on_turn": on_turn,
                   "sampling": sampling, "price": price, "executor": executor}
    ask = _asker(cells, pool, client, checkpoint, rules[0], run_options, collected, stop)
    axes = ([f_index[c.format_id] for c in cells], [p_index[c.protocol_id] for c in cells],
            len(pool), budget_turns, ask)
    found = (confidence_elimination(*axes, seed=seed) if search == "elimination"
             else successive_halving(*axes, eta=eta, finalists=finalists, seed=seed))
    turns = _turns_with_rounds(collected, found, cells, pool)
    table = _cell_table(turns, found, cells, rules)
    best = cells[found.best].label
    contrasts = paired_contrasts(turns[turns["cell"].isin([cells[i].label for i in found.finalists])],
                                 best, rule=rules[0], seed=seed)
    path = _path_frame(found, cells)
    return AtlasResult(turns=turns, cells=table, path=path, grid=grid, contrasts=contrasts,
                       best=best, rule=rules[0], budget_turns=budget_turns,
                       full_grid_turns=len(cells) * len(pool), n_requests=len(pool),
                       model=getattr(client, "model", ""), repeats=repeats, sampling=sampling)


def recorded_atlas_requests() -> list[Request]:
    """The recorded atlas's request pool (:data:`RECORDED_ATLAS_DRAW`)."""
    from ..recordings import select_requests
    from ..datasets import load_dataset

    names, n, seed = RECORDED_ATLAS_DRAW
    return select_requests([load_dataset(name) for name in names], n, seed)


def _recorded_options() -> dict[str, Any]:
    return {"pairs": RECORDED_ATLAS_PAIRS,
            "rules": GRADINGS,
            "budget_turns": RECORDED_ATLAS_BUDGET, "seed": RECORDED_ATLAS_DRAW[2],
            "search": RECORDED_ATLAS_SEARCH,
            "max_tokens": RECORDED_ATLAS_MAX_TOKENS}


def recorded_atlas(**run_options: Any) -> AtlasResult:
    """The committed atlas of the local model, replayed offline (an illustration).

    Twenty formats × five protocols (:data:`RECORDED_ATLAS_PAIRS`, 100 cells) × 20 BFCL
    requests, searched for 10% of the full grid's turns (:data:`RECORDED_ATLAS_DRAW`,
    :data:`RECORDED_ATLAS_BUDGET`, :data:`RECORDED_ATLAS_SEARCH`).

    Parameters
    ----------
    **run_options
        Passed to :func:`atlas` (``concurrency``, ``progress``...).

    Returns
    -------
    AtlasResult

    Raises
    ------
    DatasetError
        When the cassette is not there (record it with :func:`record_atlas`). A prompt the
        cassette lacks does not raise: it becomes a turn with its error set (a changed format or
        protocol instruction shows up as errors).
    """
    from ..recordings import LOCAL_MODEL_ID
    from ..clients import ReplayClient
    from ..errors import DatasetError

    path = _atlas_cassette()
    if not path.is_file():
        raise DatasetError(f"the atlas cassette {path} is not recorded; serve the local model "
                           f"and run toolform.atlas.record_atlas(base_url)")
    client = ReplayClient(path, model=LOCAL_MODEL_ID, mode="replay")
    return atlas(recorded_atlas_requests(), client, **{**_recorded_options(), **run_options})


def _atlas_cassette() -> Any:
    """Where the packaged atlas cassette lives (whether or not it is recorded yet)."""
    from ..datasets import data_path

    return data_path("cassettes/README.md").parent / RECORDED_ATLAS_CASSETTE.split("/")[-1]


class _SeededClient:
    """Answers from a committed cassette where it can (the same model, prompt and parameters
    give the same reply at temperature 0), and asks the live client otherwise."""

    def __init__(self, seed: Any, live: Any) -> None:
        self.seed, self.live, self.model = seed, live, live.model

    def complete(self, messages: list[dict[str, Any]], **params: Any) -> Any:
        from ..errors import CassetteMissError

        try:
            return self.seed.complete(messages, **params)
        except CassetteMissError:
            return self.live.complete(messages, **params)

    def describe(self) -> dict[str, Any]:
        return {**self.live.describe(), "seeded_from": str(self.seed.cassette)}


@renamed_keywords({"max_concurrency": "concurrency"})
def record_atlas(base_url: str, *, cassette: str | os.PathLike[str] | None = None,
                 checkpoint: str | os.PathLike[str] | None = None, concurrency: int = 1,
                 progress: bool = True) -> AtlasResult:
    """Record the illustration atlas against a live local-model server.

    Replies the eight-cell A/B cassette already holds (its cells are in the slice, on the same
    requests) are taken from it rather than asked again; every reply the atlas uses, old or
    new, is written to ``cassette``, so the atlas cassette replays on its own.

    Parameters
    ----------
    base_url : str
        The OpenAI-compatible endpoint (``toolform local-model serve``: ``http://127.0.0.1:8080/v1``).
    cassette : path, optional
        Where to record (default: the packaged :data:`RECORDED_ATLAS_CASSETTE`).
    checkpoint : path, optional
        The run's checkpoint, to resume a recording that stopped.
    concurrency : int, default 1
        Requests in flight (the local server answers one at a time; ``max_concurrency=`` is
        its old spelling, read one release with a warning).
    progress : bool
        Show progress bars.

    Returns
    -------
    AtlasResult
    """
    from ..recordings import LOCAL_MODEL_ID, RECORDED_AB_CASSETTE
    from ..clients import OpenAICompatClient, ReplayClient
    from ..datasets import data_path

    live = OpenAICompatClient(base_url, LOCAL_MODEL_ID, max_concurrency=concurrency,
                              timeout=RECORDED_ATLAS_TIMEOUT_S, retries=1)
    seed = ReplayClient(data_path(RECORDED_AB_CASSETTE), model=LOCAL_MODEL_ID, mode="replay")
    target = cassette if cassette is not None else _atlas_cassette()
    client = ReplayClient(target, _SeededClient(seed, live), mode="auto")
    return atlas(recorded_atlas_requests(), client, checkpoint=checkpoint,
                 concurrency=concurrency, progress=progress, **_recorded_options())


def _turns_with_rounds(collected: list[pd.DataFrame], found: SearchResult, cells: Sequence[Cell],
                       pool: Sequence[Request]) -> pd.DataFrame:
    """Every turn once, in the order asked, with the round that asked it."""
    if not collected:
        raise InvalidParameterError("atlas: the search asked no turn")
    turns = pd.concat(collected, ignore_index=True).drop_duplicates(["cell", "request_id"],
                                                                     keep="last")
    asked_in: dict[tuple[str, str], int] = {}
    start = 0
    order = list(found.outcomes)  # insertion order is asking order
    for rnd in found.rounds:
        for c, r in order[start:start + rnd.turns]:
            asked_in[(cells[c].label, pool[r].id)] = rnd.round
        start += rnd.turns
    turns["atlas_round"] = [asked_in.get((c, r), -1) for c, r in
                            zip(turns["cell"], turns["request_id"])]
    return turns.reset_index(drop=True)


def _cell_table(turns: pd.DataFrame, found: SearchResult, cells: Sequence[Cell],
                rules: Sequence[str]) -> pd.DataFrame:
    index = {c.label: i for i, c in enumerate(cells)}
    finalist = set(found.finalists)
    rows = []
    summary = summarize_verdicts(verdicts_frame(turns, rules)).set_index(["cell", "rule"])
    for label in dict.fromkeys(turns["cell"]):
        i = index[label]
        for rule in rules:
            s = summary.loc[(label, rule)]
            rows.append({"cell": label, "format_id": cells[i].format_id,
                         "protocol_id": cells[i].protocol_id, "rule": rule, "n": int(s["n"]),
                         "n_errors": int(s["n_errors"]), "correct": int(s["correct"]),
                         "accuracy": s["accuracy"], "ci_low": s["ci_low"],
                         "ci_high": s["ci_high"],
                         "score": 100 * float(found.scores[i]) if rule == rules[0] else np.nan,
                         "eliminated_in": int(found.eliminated_in[i]),
                         "finalist": i in finalist})
    frame = pd.DataFrame(rows, columns=[c[0] for c in ATLAS_CELL_COLUMNS])
    return frame.astype({n: d for n, d, _, _ in ATLAS_CELL_COLUMNS})


def _path_frame(found: SearchResult, cells: Sequence[Cell]) -> pd.DataFrame:
    frame = pd.DataFrame([{"round": r.round, "n_cells": r.n_cells,
                           "requests_per_cell": r.requests_per_cell, "turns": r.turns,
                           "cumulative_turns": r.cumulative_turns,
                           "leader": cells[r.leader].label, "leader_score": 100 * r.leader_score,
                           "survivors": len(r.survivors)} for r in found.rounds],
                         columns=[c[0] for c in PATH_COLUMNS])
    return frame.astype({n: d for n, d, _, _ in PATH_COLUMNS})
