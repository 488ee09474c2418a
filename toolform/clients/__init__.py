"""Model clients: a live OpenAI-compatible server, Anthropic's Messages API, recorded replies
(cassettes), and stubs for tests and teaching.

Every client follows :class:`ChatClient`: ``complete(messages, ...) -> Completion`` and
``describe() -> dict``, and is safe to call from a thread pool. The live clients retry as their
:class:`RetryPolicy` says (by default: timeouts, connection errors, HTTP 408/409/429/5xx and
malformed bodies, at most 4 retries, waits 0.5, 1, 2, 4 s less up to 25 % jitter, or the
server's ``Retry-After`` up to 120 s) and then raise
:class:`~toolform.errors.ModelServerError`, which names the URL, model, attempts and error.
"""

from __future__ import annotations

from ._anthropic import AnthropicClient
from ._base import ChatClient, Completion
from ._openai_compat import OpenAICompatClient
from ._policy import DEFAULT_RETRY_POLICY, RetryPolicy, read_json_body
from ._replay import MODES, ReplayClient, cassette_client, request_key
from ._stub import StubClient, StubReply, StubServer

__all__ = [
    "AnthropicClient",
    "ChatClient",
    "Completion",
    "DEFAULT_RETRY_POLICY",
    "MODES",
    "OpenAICompatClient",
    "ReplayClient",
    "RetryPolicy",
    "StubClient",
    "StubReply",
    "StubServer",
    "cassette_client",
    "read_json_body",
    "request_key",
]
