"""Repeats: every request asked k times, and what the repeats say (pass@k, pass^k, flips).

An experiment given ``repeats=k`` hands the runner ``expand_repeats(requests, k)``: each request
k times, repeat ``i`` under the id ``<id>#repeat<i>``. The runner keys checkpoints by request id,
so the k repeats of a turn are k checkpointed turns (a resumed run asks only the missing ones),
and every cell sees the same repeat ids, so paired comparisons still pair repeat with repeat.
``split_repeats`` turns the ids back into ``request_id`` and a ``repeat`` column, and
``repeat_summary`` gives, per request, pass@k and pass^k, and per cell the flip rate and the
spread of accuracy across repeats (:func:`toolform.stats.repeat_requests`,
:func:`toolform.stats.repeat_cells`).

The repeats are asked with the runner's sampling (temperature 0 today), so they measure how
far one prompt's verdict moves between identical asks of that server. A cassette keys a reply
by its prompt and sampling parameters, not by the request id: replaying a cassette gives every
repeat of one prompt the same recorded reply (flip rate 0) unless the repeats were asked with
parameters that differ between them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

import pandas as pd

from .errors import InvalidParameterError
from .ir import Request

__all__ = ["REPEAT_MARK", "expand_repeats", "repeat_summary", "split_repeats"]

#: What separates a request's id from its repeat index in an expanded id.
REPEAT_MARK = "#repeat"

_REPEAT_ID = re.compile(rf"^(?P<base>.*){re.escape(REPEAT_MARK)}(?P<index>\d+)$")


def expand_repeats(requests: Sequence[Request], repeats: int) -> list[Request]:
    """Each request ``repeats`` times, repeat ``i`` with the id ``<id>#repeat<i>``.

    Parameters
    ----------
    requests : sequence of Request
        The requests as drawn (draw first, then expand, so the repeats are of the same requests).
    repeats : int
        Times each request is asked; 1 returns the requests unchanged (ids included).

    Returns
    -------
    list of Request
        Request-major: every repeat of the first request, then of the second...

    Raises
    ------
    ValueError
        When ``repeats`` is below 1, or an id already carries a repeat mark.
    """
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise InvalidParameterError(f"repeats must be an integer of at least 1, got {repeats!r}")
    requests = list(requests)
    if repeats == 1:
        return requests
    marked = [r.id for r in requests if _REPEAT_ID.match(r.id)]
    if marked:
        raise InvalidParameterError(f"expand_repeats: request ids already carry a repeat mark "
                         f"({REPEAT_MARK}): {marked[:3]}")
    return [replace(r, id=f"{r.id}{REPEAT_MARK}{i}") for r in requests for i in range(repeats)]


def split_repeats(turns: pd.DataFrame) -> pd.DataFrame:
    """A turn frame with expanded ids read back: ``request_id`` the request's own, plus ``repeat``.

    Parameters
    ----------
    turns : pandas.DataFrame
        Any frame with ``request_id`` (turns of a run given ``expand_repeats``' requests).
        A row whose id has no repeat mark is repeat 0.

    Returns
    -------
    pandas.DataFrame
        A copy with ``request_id`` stripped of the mark and an int64 ``repeat`` column.

    Raises
    ------
    ValueError
        When the frame has no ``request_id`` column.
    """
    if "request_id" not in turns.columns:
        raise InvalidParameterError("split_repeats: the frame has no 'request_id' column")
    found = turns["request_id"].astype(str).str.extract(_REPEAT_ID)
    out = turns.copy()
    plain = found["base"].isna()
    out["request_id"] = found["base"].where(~plain, turns["request_id"].astype(str)).astype("string")
    out["repeat"] = found["index"].where(~plain, "0").astype("int64")
    return out


def repeat_summary(turns: pd.DataFrame, *, rule: str = "main", k: int | None = None
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per request and per cell: what the repeats of a run say.

    Parameters
    ----------
    turns : pandas.DataFrame
        Turns of a run given ``expand_repeats``' requests (``toolform.runs.TURN_COLUMNS``);
        turns with a server error are left out.
    rule : str
        Which verdict (``correct_<rule>``).
    k : int, optional
        Tries for pass@k and pass^k (default: each request's number of graded repeats).

    Returns
    -------
    (per_request, per_cell) : tuple of pandas.DataFrame
        :func:`toolform.stats.repeat_requests` (``n_repeats``, ``n_correct``, ``pass_at_k``,
        ``pass_hat_k`` as proportions, ``flipped``) and :func:`toolform.stats.repeat_cells`
        (``accuracy``, ``accuracy_sd``, ``accuracy_variance``, ``flip_rate``, ``pass_at_k``,
        ``pass_hat_k``, in percent and points).

    Raises
    ------
    ValueError
        When the frame lacks ``request_id`` or the verdict column.
    """
    from .stats import repeat_cells, repeat_requests

    split = split_repeats(turns)
    return repeat_requests(split, rule=rule, k=k), repeat_cells(split, rule=rule, k=k)

