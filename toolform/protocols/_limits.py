"""The limits every parser honours, in one place.

Model text is hostile input: each limit keeps a reader's work linear and small, and a reply
past one is refused with a ``ParseError`` saying which (never cut short: a shorter reply would
be one the model never wrote).
"""

from __future__ import annotations

from ..errors import ParseError

__all__ = ["Budget", "MAX_ARGUMENTS", "MAX_CALLS", "MAX_CANDIDATES", "MAX_DEPTH",
           "MAX_DOCUMENT_CHARS", "MAX_DOCUMENT_NODES", "MAX_REPLY_CHARS", "MAX_TAGS", "check_arguments", "check_calls"]

#: Replies longer than this many characters are not parsed at all (an issue says so).
MAX_REPLY_CHARS = 1_000_000

#: Deepest bracket / element nesting a parser accepts in one value.
MAX_DEPTH = 100

#: Most calls one reply may hold under one protocol.
MAX_CALLS = 256

#: Most arguments one call may hold.
MAX_ARGUMENTS = 256

#: Most opening tags of one kind (``<tool_call>``, ``<invoke``, ...) a reader looks at.
MAX_TAGS = 1_024

#: Most candidates (lines, heads, rows that might be calls) one reader looks at in a reply.
MAX_CANDIDATES = 4_096

#: Longest YAML or TOML document a reader hands to its (pure-Python) parser, in characters.
MAX_DOCUMENT_CHARS = 20_000

#: Most YAML nodes (scalars, mappings, sequences) a reader builds from one reply: PyYAML builds
#: each in Python (20-50 µs a node), so 8,000 characters of one-word lines cost 0.1 s.
MAX_DOCUMENT_NODES = 1_024


def check_calls(count: int) -> None:
    """Raise ``ParseError`` once a reader has read more than :data:`MAX_CALLS` calls."""
    if count > MAX_CALLS:
        raise ParseError(f"the reply holds more than {MAX_CALLS:,} calls; not read")


def check_arguments(count: int, name: str) -> None:
    """Raise ``ParseError`` once a call has more than :data:`MAX_ARGUMENTS` arguments."""
    if count > MAX_ARGUMENTS:
        raise ParseError(f"the call to {name[:60]!r} holds more than {MAX_ARGUMENTS:,} "
                         "arguments; not read")


class Budget:
    """Counts the candidates one reader looks at, and refuses the text past ``limit``
    (:data:`MAX_CANDIDATES` unless given; ``ParseError`` naming ``what``)."""

    def __init__(self, what: str, limit: int = MAX_CANDIDATES) -> None:
        self.what = what
        self.limit = limit
        self.count = 0

    def step(self) -> None:
        """Count one candidate."""
        self.count += 1
        if self.count > self.limit:
            raise ParseError(f"the reply holds more than {self.limit:,} {self.what}; "
                             "not read")
