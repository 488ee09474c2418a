"""Repeats: every request asked k times, and what the repeats say (pass@k, pass^k, flips).

An experiment given ``repeats=k`` hands the runner ``expand_repeats(requests, k)``: each request
k times, repeat ``i`` under the id ``<id>#repeat<i>``. The runner keys checkpoints by request id,
so the k repeats of a turn are k checkpointed turns (a resumed run asks only the missing ones),
and every cell sees the same repeat ids, so paired comparisons still pair repeat with repeat.
``split_repeats`` turns the ids back into ``request_id`` and a ``repeat`` column, and
``repeat_summary`` gives, per request, pass@k and pass^k, and per cell the flip rate and the
spread of accuracy across repeats (:func:`toolform.stats.repeat_requests`,
:func:`toolform.stats.repeat_cells`).

**What a repeat is: a sample.** Each repeat is asked with the sampling the user gives
(:class:`Sampling`: temperature, ``top_p``, any other body field) and its own seed, ``seed + i``
for repeat ``i``, sent as the request body's ``seed`` (``extra_body``; OpenAI, vLLM and
llama.cpp's server read it). The seed is part of the cassette key
(:func:`toolform.clients.request_key` hashes ``extra_body``), so the k repeats of a prompt are k
different keys: a live run asks the server k times, and a cassette replays each repeat's own
reply, exactly. At temperature 0 a deterministic server gives the same reply whatever the seed,
so the flip rate is 0 by construction and measures only the server's own nondeterminism (batch
effects, a provider's sampling); :func:`repeat_summary` says so in its ``sampling`` column
rather than report a flip rate of 0 as a finding. A request without a repeat mark (``repeats=1``)
sends no seed unless :class:`Sampling` names one, so single-ask runs keep their keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

import pandas as pd

from .errors import InvalidParameterError
from .ir import Request

__all__ = ["NOT_SAMPLED", "REPEAT_MARK", "Sampling", "expand_repeats", "repeat_index", "repeat_summary", "split_repeats"]

#: What separates a request's id from its repeat index in an expanded id.
REPEAT_MARK = "#repeat"

_REPEAT_ID = re.compile(rf"^(?P<base>.*){re.escape(REPEAT_MARK)}(?P<index>\d+)$")

#: The per-cell note of :func:`repeat_summary` when the repeats were not sampled.
NOT_SAMPLED = ("temperature 0: repeats differ only in their seed, so a deterministic server "
               "repeats its reply and the flip rate is 0 by construction")


@dataclass(frozen=True)
class Sampling:
    """How every turn of a run samples, and the seed of each repeat.

    Parameters
    ----------
    temperature : float, default 0.0
        Sampling temperature (the ``temperature`` of ``complete``).
    top_p : float, optional
        Nucleus sampling mass, a proportion in (0, 1]; sent in the body when given.
    seed : int, optional
        Base seed: repeat ``i`` of a request is asked with ``seed + i`` (0 + i when None). A
        request that is not a repeat is asked with ``seed`` when given, with no seed otherwise.
    extra : mapping, optional
        Other body fields sent with every turn (``top_k``, ``min_p``...; ``extra_body``).

    Raises
    ------
    ValueError
        When ``temperature`` is negative, ``top_p`` is outside (0, 1], ``seed`` is not an
        integer, or ``extra`` names ``seed`` or ``top_p`` (give them as parameters).

    Examples
    --------
    >>> Sampling(temperature=0.7, seed=100).turn_options(2)
    (0.7, {'seed': 102})
    >>> Sampling().turn_options(None)
    (0.0, None)
    """

    temperature: float = 0.0
    top_p: float | None = None
    seed: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.temperature, (int, float)) or self.temperature < 0:
            raise InvalidParameterError(f"Sampling: temperature must be >= 0, got {self.temperature!r}")
        if self.top_p is not None and not 0 < self.top_p <= 1:
            raise InvalidParameterError(f"Sampling: top_p must be in (0, 1], got {self.top_p!r}")
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(self.seed, int)):
            raise InvalidParameterError(f"Sampling: seed must be an integer, got {self.seed!r}")
        clash = sorted({"seed", "top_p"} & set(self.extra))
        if clash:
            raise InvalidParameterError(f"Sampling: give {clash} as parameters, not in extra")

    @property
    def sampled(self) -> bool:
        """Whether repeats are samples of a distribution (temperature above 0)."""
        return self.temperature > 0

    def turn_options(self, repeat: int | None) -> tuple[float, dict[str, Any] | None]:
        """``(temperature, extra_body)`` of a turn; ``repeat`` is its repeat index or None.

        ``extra_body`` is None when there is nothing to send (the key of a plain turn is then
        the one it always had).
        """
        body: dict[str, Any] = dict(self.extra)
        if self.top_p is not None:
            body["top_p"] = self.top_p
        if repeat is not None:
            body["seed"] = (self.seed or 0) + repeat
        elif self.seed is not None:
            body["seed"] = self.seed
        return float(self.temperature), (body or None)

    def describe(self) -> dict[str, Any]:
        """Run metadata: ``temperature``, ``top_p``, ``seed``, ``extra``."""
        return {"temperature": self.temperature, "top_p": self.top_p, "seed": self.seed,
                "extra": dict(self.extra)}


def repeat_index(request_id: str) -> int | None:
    """The repeat index an expanded id carries (``<id>#repeat<i>`` → ``i``), else None."""
    found = _REPEAT_ID.match(request_id)
    return int(found["index"]) if found else None


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


def repeat_summary(turns: pd.DataFrame, *, rule: str = "main", k: int | None = None,
                   sampling: Sampling | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
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
    sampling : Sampling, optional
        How the run sampled (default: the runner's, temperature 0).

    Returns
    -------
    (per_request, per_cell) : tuple of pandas.DataFrame
        :func:`toolform.stats.repeat_requests` (``n_repeats``, ``n_correct``, ``pass_at_k``,
        ``pass_hat_k`` as proportions, ``flipped``) and :func:`toolform.stats.repeat_cells`
        (``accuracy``, ``accuracy_sd``, ``accuracy_variance``, ``flip_rate``, ``pass_at_k``,
        ``pass_hat_k``, in percent and points), plus ``sampling``: the temperature the
        repeats were asked at and, at temperature 0, that the flip rate is 0 by construction on
        a deterministic server (:data:`NOT_SAMPLED`).

    Raises
    ------
    ValueError
        When the frame lacks ``request_id`` or the verdict column.
    """
    from .stats import repeat_cells, repeat_requests

    sampling = sampling if sampling is not None else Sampling()
    split = split_repeats(turns)
    per_cell = repeat_cells(split, rule=rule, k=k)
    per_cell["sampling"] = pd.Series(
        f"temperature {sampling.temperature:g}, seed per repeat" if sampling.sampled else NOT_SAMPLED,
        index=per_cell.index, dtype="string")
    return repeat_requests(split, rule=rule, k=k), per_cell

