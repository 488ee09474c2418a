"""The atlas as an experiment: the adaptive format × protocol search in the experiments' shape.

``toolform.atlas.atlas`` searches a grid for a model's best cells within a turn budget; this
entry point calls it with the experiments' keywords and defaults (``cells`` for the grid's
pairs, ``concurrency``, one ``max_tokens`` default, ``on_turn`` once per turn) and returns an
:class:`AtlasExperimentResult`, which keeps the search's own result beside ``turns`` and
``cells``.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any, Sequence

import pandas as pd

from ..atlas import AtlasResult
from ..atlas import atlas as search_grid
from ..repeats import Sampling
from ._result import (DEFAULT_CONCURRENCY, DEFAULT_MAX_TOKENS, ExperimentResult, OnTurn,
                      as_cells, check_call, once_per_turn)

__all__ = ["AtlasExperimentResult", "atlas"]


@dataclass(frozen=True)
class AtlasExperimentResult(ExperimentResult):
    """What :func:`atlas` returns (an :class:`~toolform.experiments.ExperimentResult`).

    Attributes
    ----------
    turns : pandas.DataFrame
        Every turn asked (``toolform.runs.TURN_COLUMNS`` plus ``atlas_round``).
    cells : pandas.DataFrame
        One row per explored cell and rule (``toolform.atlas.ATLAS_CELL_COLUMNS``).
    model : str
        The model measured.
    search : toolform.atlas.AtlasResult
        The search's full result: its path, grid, contrasts, best cell and budget.
    """

    search: AtlasResult

    def table(self) -> pd.DataFrame:
        """The finalists under the search rule, best first, with intervals
        (``AtlasResult.finalists``)."""
        return self.search.finalists()

    def chart(self) -> Any:
        """Altair heatmap of accuracy over the explored cells (``toolform.atlas.charts``)."""
        from ..atlas.charts import atlas_heatmap

        return atlas_heatmap(self.cells, rule=self.search.rule)


def atlas(requests: Any, client: Any, *, cells: Sequence[Any] | None = None,
          checkpoint: str | os.PathLike[str] | None = None, on_turn: OnTurn | None = None,
          max_tokens: int = DEFAULT_MAX_TOKENS, concurrency: int = DEFAULT_CONCURRENCY,
          progress: bool = False, stop: threading.Event | None = None, repeats: int = 1,
          seed: int = 0, budget_turns: int, rules: Sequence[str] = ("main",),
          formats: Sequence[str] | None = None, protocols: Sequence[str] | None = None,
          n_requests: int | None = None, search: str = "elimination", eta: float = 3.0,
          finalists: int = 4, sampling: Sampling | None = None,
          price: Any = "frontier_api", executor: Any = None) -> AtlasExperimentResult:
    """Search a model's format × protocol grid for its best cells within ``budget_turns``.

    Parameters
    ----------
    requests : Dataset, sequence of Dataset, or sequence of Request
        The request pool; ``n_requests`` are drawn by a seeded shuffle.
    client : ChatClient
        The model.
    cells : sequence of Cell, str or (str, str), optional
        The cells to search (as :func:`~toolform.experiments.ab_test` takes them; a format
        alone takes its default protocol). Default: every pair of ``formats`` × ``protocols``
        that can carry the requests' calls.
    checkpoint, on_turn, max_tokens, concurrency, progress, stop, repeats, seed, sampling, price,
    executor
        As in :func:`~toolform.experiments.ab_test`; ``on_turn`` sees each turn once although
        the search runs the runner once per round on one checkpoint.
    budget_turns : int
        Most turns to ask.
    rules, formats, protocols, n_requests, search, eta, finalists
        Passed to :func:`toolform.atlas.atlas`.

    Returns
    -------
    AtlasExperimentResult

    Raises
    ------
    InvalidParameterError
        As :func:`toolform.atlas.atlas` does, and when the client comes before the requests.
    """
    check_call(requests, client, "atlas", max_tokens=max_tokens,
               concurrency=concurrency, repeats=repeats)
    pairs = None
    if cells is not None:
        pairs = [(c.format_id, c.resolved("").protocol_id) for c in as_cells(cells)]
    found = search_grid(requests, client, formats=formats, protocols=protocols, pairs=pairs,
                        rules=rules, budget_turns=budget_turns, n_requests=n_requests,
                        seed=seed, checkpoint=checkpoint, search=search, eta=eta,
                        finalists=finalists, concurrency=concurrency,
                        max_tokens=max_tokens, progress=progress, stop=stop, repeats=repeats,
                        on_turn=once_per_turn(on_turn, ("model", "cell", "request_id")),
                        sampling=sampling, price=price, executor=executor)
    return AtlasExperimentResult(turns=found.turns, cells=found.cells, model=found.model,
                                 search=found)
