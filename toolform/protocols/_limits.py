"""The limits every parser honours, in one place."""

from __future__ import annotations

__all__ = ["MAX_DEPTH", "MAX_REPLY_CHARS"]

#: Replies longer than this many characters are not parsed at all (an issue says so).
MAX_REPLY_CHARS = 1_000_000

#: Deepest bracket / element nesting a parser accepts in one value.
MAX_DEPTH = 100
