"""Token counts for rendered tool blocks.

Two counts are kept apart, because they answer different questions: ``estimate_tokens`` is
characters / 4 (the study's cheap estimate, always available) and ``tiktoken_tokens`` is the exact
``cl100k_base`` count when the ``tiktoken`` package and its encoding file are available offline
(``None`` otherwise, never a guess). ``count_tokens`` gives one or the other by name, and a Hugging
Face tokenizer's count when ``transformers`` is installed; it never silently falls back.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from .errors import InvalidParameterError

__all__ = ["count_tokens", "estimate_tokens", "tiktoken_tokens"]


def estimate_tokens(text: str) -> int:
    """Estimated tokens: ``ceil(len(text) / 4)`` characters per token (0 for empty text)."""
    return math.ceil(len(text) / 4)


@functools.lru_cache(maxsize=8)
def _encoding(name: str = "cl100k_base") -> Any | None:
    try:
        import tiktoken
    except ImportError:
        return None
    try:
        return tiktoken.get_encoding(name)
    except Exception:  # the encoding file is fetched on first use; offline that fails
        return None


def tiktoken_tokens(text: str) -> int | None:
    """Exact ``cl100k_base`` token count, or None when tiktoken or its encoding is unavailable."""
    enc = _encoding()
    return None if enc is None else len(enc.encode(text, disallowed_special=()))


@functools.lru_cache(maxsize=4)
def _hf_tokenizer(name: str) -> Any:
    try:
        from transformers import AutoTokenizer
    except ImportError:
        from .errors import MissingDependencyError

        raise MissingDependencyError("transformers", purpose=f"the {name!r} tokenizer") from None
    try:
        return AutoTokenizer.from_pretrained(name)
    except Exception as exc:  # no such id, no network, no files in the cache
        raise InvalidParameterError(f"the Hugging Face tokenizer {name!r} could not be loaded: "
                                    f"{exc}") from None


def count_tokens(text: str, tokenizer: str | None = None) -> int:
    """Tokens of ``text``: the study's estimate, or an exact count by a named tokenizer.

    Parameters
    ----------
    text : str
    tokenizer : str, optional
        None: :func:`estimate_tokens` (characters / 4). A ``tiktoken`` encoding name
        (``"cl100k_base"``, ``"o200k_base"``): that encoding's count. Anything else: a Hugging
        Face tokenizer id (``"Qwen/Qwen3-8B"``), counted without special tokens.

    Returns
    -------
    int
        Tokens.

    Raises
    ------
    ValueError
        When the named encoding or tokenizer cannot be loaded (offline, unknown id); the
        count is never replaced by a guess.
    MissingDependencyError
        When a Hugging Face id is named and ``transformers`` is not installed.
    """
    if tokenizer is None:
        return estimate_tokens(text)
    try:
        import tiktoken

        tiktoken_names = set(tiktoken.list_encoding_names())
    except ImportError:
        tiktoken_names = set()
    if tokenizer in tiktoken_names:
        enc = _encoding(tokenizer)
        if enc is None:
            raise InvalidParameterError(
                f"the tiktoken encoding {tokenizer!r} is not available (its file "
                "is downloaded on first use, and this machine could not)")
        return len(enc.encode(text, disallowed_special=()))
    return len(_hf_tokenizer(tokenizer).encode(text, add_special_tokens=False))
