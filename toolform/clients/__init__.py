"""Model clients: a live OpenAI-compatible server, and recorded replies (cassettes).

Every client follows :class:`ChatClient`: ``complete(messages, ...) -> Completion`` and
``describe() -> dict``, and is safe to call from a thread pool.
"""

from __future__ import annotations

from ._base import ChatClient, Completion
from ._openai_compat import OpenAICompatClient
from ._replay import MODES, ReplayClient, cassette_client, request_key

__all__ = [
    "ChatClient",
    "Completion",
    "MODES",
    "OpenAICompatClient",
    "ReplayClient",
    "cassette_client",
    "request_key",
]
