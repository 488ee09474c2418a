"""When a catalogue is too large to show in one prompt: the thresholds, kept in one place.

``toolform.advisor`` and ``toolform.catalogue`` both decide between showing every tool at once
(``one_shot``), showing only the tools a retriever ranks highest (``retrieve``), and showing names
first then the chosen tools' schemas (``two_stage``). They import these constants and
:func:`catalogue_strategy` so the two never disagree.

Why these values: in the study's tool-count sweep accuracy holds to 64 tools and collapses at 128
(evidence table ``tool_count``); names-first two-stage disclosure starts to beat one shot at 64
tools and loses to it at 4 and 16 (``disclosure``); retrieving the best few of a 128-tool panel
more than doubles accuracy (``retrieval_baseline``).
"""

from __future__ import annotations

from .errors import InvalidParameterError

__all__ = [
    "RETRIEVE_MIN_TOOLS",
    "STRATEGIES",
    "TWO_STAGE_CONTEXT_SHARE",
    "TWO_STAGE_MIN_TOOLS",
    "catalogue_strategy",
]

#: From this many tools on, show names first and the chosen schemas second.
TWO_STAGE_MIN_TOOLS = 64
#: From this many tools on (and below ``TWO_STAGE_MIN_TOOLS``), retrieve the best few tools.
RETRIEVE_MIN_TOOLS = 32
#: A tool block larger than this share of the context window (a proportion) also means two-stage.
TWO_STAGE_CONTEXT_SHARE = 0.5
#: The strategies, from the simplest.
STRATEGIES = ("one_shot", "retrieve", "two_stage")


def catalogue_strategy(n_tools: int, *, block_tokens: int | None = None,
                       context_tokens: int | None = None) -> str:
    """How to show a catalogue of ``n_tools`` tools.

    Parameters
    ----------
    n_tools : int
        Tools in the catalogue (at least 1).
    block_tokens : int, optional
        Tokens of the whole tool block in the chosen format.
    context_tokens : int, optional
        The model's context window, in tokens. The block-size test applies only when both
        ``block_tokens`` and ``context_tokens`` are given.

    Returns
    -------
    str
        ``"two_stage"`` at ``TWO_STAGE_MIN_TOOLS`` tools or more, or when the block takes more
        than ``TWO_STAGE_CONTEXT_SHARE`` of the context window; ``"retrieve"`` from
        ``RETRIEVE_MIN_TOOLS`` up to ``TWO_STAGE_MIN_TOOLS - 1``; ``"one_shot"`` below.

    Raises
    ------
    ValueError
        When ``n_tools`` is below 1, or a token count is not positive.
    """
    if isinstance(n_tools, bool) or not isinstance(n_tools, int) or n_tools < 1:
        raise InvalidParameterError(f"n_tools must be an integer >= 1, got {n_tools!r}")
    for name, value in (("block_tokens", block_tokens), ("context_tokens", context_tokens)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise InvalidParameterError(f"{name} must be a positive integer or None, got {value!r}")
    too_big = (block_tokens is not None and context_tokens is not None
               and block_tokens > TWO_STAGE_CONTEXT_SHARE * context_tokens)
    if n_tools >= TWO_STAGE_MIN_TOOLS or too_big:
        return "two_stage"
    if n_tools >= RETRIEVE_MIN_TOOLS:
        return "retrieve"
    return "one_shot"
