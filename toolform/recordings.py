"""The committed recordings of the local model, and the seeded draw of requests they were made on.

The notebooks, the tests and the verdict-identity check replay these cassettes offline
(``datasets/cassettes/``). A cassette keys each reply by the model, the prompt and the sampling
parameters, so a replay asks for the same draw (:func:`select_requests`) at the same completion
budget as the recording. The eight-cell A/B's recording is described here because the A/B
(``toolform.experiments``) and the atlas (``toolform.atlas``, which seeds its own recording from
it) both read it; each other experiment keeps its recording's constants beside it.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from .ir import Request

__all__ = ["LOCAL_MODEL_ID", "RECORDED_AB_CASSETTE", "RECORDED_AB_DATASETS",
           "RECORDED_AB_MAX_TOKENS", "select_requests"]

#: The model the committed eight-cell cassette was recorded against (``datasets/cassettes/``).
LOCAL_MODEL_ID = "qwen2.5-coder-0.5b-instruct"
#: The committed cassette, relative to the packaged datasets folder.
RECORDED_AB_CASSETTE = "cassettes/ab8_qwen2.5-coder-0.5b-instruct.jsonl"
#: The datasets the committed cassette drew its requests from.
RECORDED_AB_DATASETS = ("bfcl/simple_python", "bfcl/multiple")
#: Completion budget the committed cassette was recorded with, in tokens (part of each key).
RECORDED_AB_MAX_TOKENS = 160


def select_requests(requests: Any, n: int, seed: int = 0) -> list[Request]:
    """``n`` requests drawn without replacement by a seeded shuffle (the same for a seed).

    ``requests`` is a sequence of ``Request``, a ``Dataset`` or a sequence of ``Dataset``.
    Asking for more than there are returns them all (shuffled).
    """
    pool = list(_as_requests(requests))
    random.Random(seed).shuffle(pool)
    return pool[:n]


def _as_requests(source: Any) -> Iterable[Request]:
    if hasattr(source, "requests"):
        return source.requests
    items = list(source)
    if items and hasattr(items[0], "requests"):
        return [r for dataset in items for r in dataset.requests]
    return items
