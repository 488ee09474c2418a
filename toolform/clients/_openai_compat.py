"""A client for any OpenAI-compatible chat server, on the ``openai`` SDK, with its own retries."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import openai

from ..errors import ClientError
from ._base import Completion

__all__ = ["OpenAICompatClient"]

# 4xx statuses worth another try: a request timeout and a rate limit (every 5xx is retried too).
# Any other 4xx is the caller's mistake and fails at once.
_RETRY_STATUS = frozenset({408, 429})
# Longest wait between two tries, in seconds, whatever the backoff and Retry-After say.
_MAX_DELAY_S = 60.0


class OpenAICompatClient:
    """Chat with a model behind any OpenAI-compatible ``/v1/chat/completions`` endpoint.

    Works with OpenAI itself, vLLM, llama.cpp's server, Ollama, LM Studio and similar. Safe to
    call from many threads: at most ``max_concurrency`` requests are in flight at once.

    Parameters
    ----------
    base_url : str
        The server's API root, e.g. ``"http://127.0.0.1:8080/v1"``.
    model : str
        The model id sent with every request.
    api_key : str, optional
        Bearer token; servers that need none get ``"EMPTY"``.
    temperature : float, default 0.0
        Default sampling temperature.
    max_tokens : int, default 512
        Default reply cap, in tokens.
    timeout : float, default 60.0
        Per-request timeout, in seconds.
    retries : int, default 4
        Extra tries after the first on a 408, 429 or 5xx status, a timeout or a connection
        error (so at most ``retries + 1`` requests). Other 4xx statuses fail at once.
    backoff : float, default 1.0
        Base delay in seconds: before try ``k`` (k = 1, 2, ...) the client waits a random time in
        ``[0.5, 1.5) * backoff * 2**(k-1)`` (capped at 60 s), or the server's ``Retry-After`` when
        that is longer.
    extra_body : dict, optional
        JSON fields merged into every request body (a call's own ``extra_body`` wins key by key).
    max_concurrency : int, default 4
        Most requests in flight at once across all threads.
    enable_thinking : bool, optional
        The chat template's thinking switch (Qwen 3 and Qwen 3.5 templates think by default;
        the study turned thinking off). When set, every request carries
        ``chat_template_kwargs: {"enable_thinking": ...}``, which vLLM and llama.cpp's server
        pass to the template; servers without chat templates ignore it. None sends nothing.

    Raises
    ------
    ValueError
        When ``retries`` is negative, ``max_concurrency`` below 1, or ``timeout``/``backoff``
        not positive.

    Examples
    --------
    >>> client = OpenAICompatClient("http://127.0.0.1:8080/v1", "qwen2.5-coder-0.5b-instruct")
    >>> reply = client.complete([{"role": "user", "content": "Say hi"}])  # doctest: +SKIP
    >>> reply.text, reply.completion_tokens  # doctest: +SKIP
    ('Hi!', 3)
    """

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *,
                 temperature: float = 0.0, max_tokens: int = 512, timeout: float = 60.0,
                 retries: int = 4, backoff: float = 1.0, extra_body: dict[str, Any] | None = None,
                 max_concurrency: int = 4, enable_thinking: bool | None = None) -> None:
        if retries < 0:
            raise ValueError(f"retries must be >= 0, got {retries!r}")
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be >= 1, got {max_concurrency!r}")
        if timeout <= 0 or backoff <= 0:
            raise ValueError(f"timeout and backoff must be > 0, got {timeout!r} and {backoff!r}")
        if enable_thinking is not None and not isinstance(enable_thinking, bool):
            raise ValueError(f"enable_thinking must be True, False or None, got "
                             f"{enable_thinking!r}")
        self.base_url = base_url
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.extra_body = dict(extra_body or {})
        self.enable_thinking = enable_thinking
        self.max_concurrency = max_concurrency
        self._slots = threading.BoundedSemaphore(max_concurrency)
        self._sdk = openai.OpenAI(base_url=base_url, api_key=api_key or "EMPTY", timeout=timeout,
                                  max_retries=0)

    def __repr__(self) -> str:
        return f"OpenAICompatClient({self.base_url!r}, {self.model!r})"

    def describe(self) -> dict[str, Any]:
        """Run metadata: client kind, model, server and default sampling settings.

        Returns
        -------
        dict
            ``client``, ``model``, ``base_url``, ``temperature``, ``max_tokens``, ``extra_body``,
            ``enable_thinking``, ``timeout_s``, ``retries``, ``max_concurrency``.
        """
        return {"client": "OpenAICompatClient", "model": self.model, "base_url": self.base_url,
                "temperature": self.temperature, "max_tokens": self.max_tokens,
                "extra_body": dict(self.extra_body), "enable_thinking": self.enable_thinking,
                "timeout_s": self.timeout, "retries": self.retries,
                "max_concurrency": self.max_concurrency}

    def complete(self, messages: list[dict[str, Any]], *, max_tokens: int | None = None,
                 temperature: float | None = None, tools: list[dict[str, Any]] | None = None,
                 extra_body: dict[str, Any] | None = None) -> Completion:
        """Send one chat request, retrying transient failures.

        Parameters
        ----------
        messages : list of dict
            OpenAI chat messages.
        max_tokens : int, optional
            Reply cap in tokens (None: the client's default).
        temperature : float, optional
            Sampling temperature (None: the client's default).
        tools : list of dict, optional
            Native tool definitions in the OpenAI ``tools`` shape.
        extra_body : dict, optional
            Extra request-body fields, merged over the client's ``extra_body``.

        Returns
        -------
        Completion
            ``latency_s`` is the time of the successful request alone, in seconds.

        Raises
        ------
        toolform.errors.ClientError
            At once on a non-retryable 4xx status; after the last retry otherwise. ``status`` is
            the last HTTP status, or None for timeouts and connection errors.
        """
        params: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": self.max_tokens if max_tokens is None else max_tokens,
            "temperature": self.temperature if temperature is None else temperature,
        }
        if tools:
            params["tools"] = tools
        body = {**self.extra_body, **(extra_body or {})}
        if self.enable_thinking is not None:
            # the switch joins any chat-template arguments given; a call's own setting wins
            body["chat_template_kwargs"] = {"enable_thinking": self.enable_thinking,
                                            **body.get("chat_template_kwargs", {})}
        if body:
            params["extra_body"] = body

        attempt = 0
        while True:
            try:
                with self._slots:
                    start = time.perf_counter()
                    response = self._sdk.chat.completions.create(**params)
                    latency = time.perf_counter() - start
                return self._completion(response, latency)
            except openai.APIStatusError as exc:
                status = exc.status_code
                if not (status in _RETRY_STATUS or status >= 500) or attempt >= self.retries:
                    raise self._failure(exc, status, attempt) from exc
                retry_after = _retry_after_s(exc.response)
            except (openai.APITimeoutError, openai.APIConnectionError) as exc:
                # APITimeoutError is a subclass of APIConnectionError; both have no status.
                if attempt >= self.retries:
                    raise self._failure(exc, None, attempt) from exc
                retry_after = None
            attempt += 1
            delay = self.backoff * 2 ** (attempt - 1) * random.uniform(0.5, 1.5)
            time.sleep(min(_MAX_DELAY_S, max(delay, retry_after or 0.0)))

    def _failure(self, exc: Exception, status: int | None, attempt: int) -> ClientError:
        what = f"HTTP {status}" if status is not None else type(exc).__name__
        return ClientError(f"{self.base_url} (model {self.model!r}) failed with {what} after "
                           f"{attempt + 1} request(s): {exc}", status=status)

    def _completion(self, response: Any, latency: float) -> Completion:
        if not getattr(response, "choices", None):
            raise ClientError(f"{self.base_url} (model {self.model!r}) sent a reply with no "
                              f"choices: {response!r:.300}")
        choice = response.choices[0]
        message = choice.message
        calls = None
        if getattr(message, "tool_calls", None):
            calls = [call.model_dump(exclude_none=True) for call in message.tool_calls]
        usage = getattr(response, "usage", None)
        return Completion(
            text=message.content or "",
            tool_calls=calls,
            prompt_tokens=getattr(usage, "prompt_tokens", None),
            completion_tokens=getattr(usage, "completion_tokens", None),
            latency_s=latency,
            model=self.model,
            finish_reason=choice.finish_reason,
        )


def _retry_after_s(response: Any) -> float | None:
    """The ``Retry-After`` header in seconds, when the server sent one as a number."""
    value = getattr(response, "headers", {}).get("retry-after") if response is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
