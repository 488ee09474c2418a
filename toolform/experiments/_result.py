"""What every experiment shares: the call shape's defaults, the cells it accepts, its result type.

Every experiment is called the same way::

    result = experiment(requests, client, *, cells=..., checkpoint=None, on_turn=None,
                        max_tokens=DEFAULT_MAX_TOKENS, concurrency=DEFAULT_CONCURRENCY,
                        progress=False, stop=None, repeats=1, seed=0, ...)

and returns an :class:`ExperimentResult`: ``.turns`` (one row per turn, tidy), ``.cells`` (one row
per cell and whatever the experiment summarises by, tidy), ``.table()`` (the display table) and
``.chart()`` (an Altair chart of ``.cells``). Accuracies and rates are in percent, differences
between two of them in percentage points (the unit string ``"percentage points"`` in every
declared column list), money in US dollars; a summary's counts are ``n`` (graded turns) and
``n_errors`` (turns lost to a server error), its intervals ``ci_low``/``ci_high`` (Wilson 95%).

``on_turn`` is called with each finished turn's row (a dict of the experiment's turn columns)
from the thread that called the experiment, once per turn of ``.turns``: turns a checkpoint
already held (or a cassette replayed) are reported too, first, so a front end that counts
``on_turn`` calls counts the whole result.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import pandas as pd

from ..errors import InvalidParameterError
from ..runs import DEFAULT_CONCURRENCY, DEFAULT_MAX_TOKENS, Cell
from ..validation import Interval, check_parameters

__all__ = ["DEFAULT_CONCURRENCY", "DEFAULT_MAX_TOKENS", "ExperimentResult", "OnTurn", "as_cells"]

#: The progress callback: called with each finished turn's row.
OnTurn = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class ExperimentResult(ABC):
    """What an experiment returns: its turns, its cell summary, a display table and a chart.

    Attributes
    ----------
    turns : pandas.DataFrame
        One row per turn with the experiment's declared turn columns (for the experiments on
        the runner, ``toolform.runs.TURN_COLUMNS`` and what the experiment adds).
    cells : pandas.DataFrame
        The summary: one row per cell and what the experiment breaks it down by (rule, BFCL
        category, catalogue size...), with declared columns; accuracies in percent.
    model : str
        The model measured ("" when no model was asked).
    """

    turns: pd.DataFrame
    cells: pd.DataFrame
    model: str

    def table(self) -> pd.DataFrame:
        """The display table (the cell summary unless an experiment lays it out otherwise).

        Returns
        -------
        pandas.DataFrame
            A copy; changing it leaves the result as it was.
        """
        return self.cells.copy()

    @abstractmethod
    def chart(self) -> Any:
        """An Altair chart of :attr:`cells` (``toolform.charts``)."""


def as_cells(cells: Iterable[Cell | str | tuple[str, str | None]], *,
             parameter: str = "cells") -> list[Cell]:
    """Cells from what a caller may write: ``Cell``, ``"format_id"``, ``"format_id/protocol_id"``
    or ``(format_id, protocol_id)``; a format alone takes its default protocol.

    Raises
    ------
    InvalidParameterError
        When ``cells`` is a single string or empty, or an item is none of these.
    """
    if isinstance(cells, (str, Cell)):
        raise InvalidParameterError(f"{parameter} must be a sequence of cells, got one: "
                                    f"{cells!r}; write [{cells!r}]")
    out = []
    for item in cells:
        if isinstance(item, Cell):
            out.append(item)
        elif isinstance(item, str):
            format_id, _, protocol_id = item.partition("/")
            out.append(Cell(format_id, protocol_id or None))
        elif isinstance(item, tuple) and len(item) == 2:
            out.append(Cell(item[0], item[1]))
        else:
            raise InvalidParameterError(
                f"{parameter}: {item!r} is not a Cell, 'format_id[/protocol_id]' or "
                f"(format_id, protocol_id)")
    if not out:
        raise InvalidParameterError(f"{parameter} is empty; give at least one cell")
    return out


#: What the shared run options accept (``toolform.validation``).
_RUN_OPTIONS = {"max_tokens": [Interval(int, 1, None)], "concurrency": [Interval(int, 1, None)],
                "repeats": [Interval(int, 1, None)]}


def check_call(requests: Any, client: Any, experiment: str, **options: Any) -> None:
    """Refuse the old order ``(client, requests)`` with a clear error rather than a wrong run,
    and shared run options out of range (``max_tokens``, ``concurrency``, ``repeats``: each
    an int of at least 1).

    Raises
    ------
    InvalidParameterError
        When ``requests`` looks like a client (it has ``complete``), or an option is below 1.
    ParameterTypeError
        When an option is not an int.
    """
    if hasattr(requests, "complete") and not hasattr(client, "complete"):
        raise InvalidParameterError(
            f"{experiment}(requests, client, ...): the requests come first and the client "
            f"second (got a {type(requests).__name__} as requests)")
    check_parameters(_RUN_OPTIONS, where=experiment, **options)


def once_per_turn(on_turn: OnTurn | None, key: Sequence[str],
                  extra: Callable[[dict[str, Any]], dict[str, Any]] | None = None
                  ) -> OnTurn | None:
    """``on_turn`` called at most once per turn key (the columns ``key`` of the row), with
    ``extra(row)``'s columns added; None when ``on_turn`` is None.

    The runner reports each turn of one call once; an experiment that calls it several times
    on one checkpoint (the atlas's rounds) would report a turn again without this.
    """
    if on_turn is None:
        return None
    seen: set[tuple[Any, ...]] = set()
    lock = threading.Lock()

    def report(row: dict[str, Any]) -> None:
        full = {**row, **extra(row)} if extra is not None else row
        mark = tuple(str(full.get(k)) for k in key)
        with lock:
            if mark in seen:
                return
            seen.add(mark)
        on_turn(full)

    return report


def typed_frame(rows: list[dict[str, Any]], columns: Sequence[tuple[str, str, str, str]]
                ) -> pd.DataFrame:
    """``rows`` as a DataFrame with the declared ``columns`` (name, dtype, unit, meaning), in
    their order and dtypes (``object`` columns left as they are)."""
    frame = pd.DataFrame(rows, columns=[c[0] for c in columns])
    for name, dtype, _, _ in columns:
        if dtype != "object":
            frame[name] = frame[name].astype(dtype)
    return frame
