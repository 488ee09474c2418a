"""Token counts for rendered tool blocks.

Two counts are kept apart, because they answer different questions: ``estimate_tokens`` is
characters / 4 (the study's cheap estimate, always available) and ``tiktoken_tokens`` is the exact
``cl100k_base`` count when the ``tiktoken`` package and its encoding file are available offline
(``None`` otherwise, never a guess).
"""

from __future__ import annotations

import functools
import math
from typing import Any

__all__ = ["estimate_tokens", "tiktoken_tokens"]


def estimate_tokens(text: str) -> int:
    """Estimated tokens: ``ceil(len(text) / 4)`` characters per token (0 for empty text)."""
    return math.ceil(len(text) / 4)


@functools.lru_cache(maxsize=1)
def _encoding() -> Any | None:
    try:
        import tiktoken
    except ImportError:
        return None
    try:
        return tiktoken.get_encoding("cl100k_base")
    except Exception:  # the encoding file is fetched on first use; offline that fails
        return None


def tiktoken_tokens(text: str) -> int | None:
    """Exact ``cl100k_base`` token count, or None when tiktoken or its encoding is unavailable."""
    enc = _encoding()
    return None if enc is None else len(enc.encode(text, disallowed_special=()))
