"""A client for any OpenAI-compatible chat server: the ``openai`` SDK sends, ToolForm's retry
policy retries (:mod:`toolform.clients._policy` says which part is whose), and the reply is read
from the server's own bytes, so any text it sends arrives intact."""

from __future__ import annotations

import functools
import importlib
import threading
import time
from typing import Any

import openai

from .. import _jsontext as jsontext
from ..errors import InvalidParameterError
from ._base import Completion
from ._policy import (MalformedReply, RetryPolicy, call_with_retries, excerpt, read_json_body,
                      resolve_policy)

__all__ = ["OpenAICompatClient", "completion_from_body", "post_escaped"]


class OpenAICompatClient:
    """Chat with a model behind any OpenAI-compatible ``/v1/chat/completions`` endpoint.

    Works with OpenAI itself, vLLM, llama.cpp's server, Ollama, LM Studio and similar. Safe to
    call from many threads: at most ``max_concurrency`` requests are in flight at once (waits
    between retries hold no slot).

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
    timeout : float, optional
        Per-attempt timeout in seconds; sets ``retry_policy.timeout_s`` (60 s by default).
    retries : int, optional
        Retries after the first attempt; sets ``retry_policy.retries`` (4 by default).
    backoff : float, optional
        First back-off wait in seconds; sets ``retry_policy.backoff_s`` (0.5 s by default,
        doubling per retry up to 8 s).
    retry_policy : RetryPolicy, optional
        Which failures are retried, how often and after what wait
        (:data:`~toolform.clients.DEFAULT_RETRY_POLICY` when None); ``timeout`` and
        ``retries``, when given, replace its fields.
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
        When ``max_concurrency`` is below 1, ``enable_thinking`` is not a bool or None, or
        ``timeout``/``retries``/``backoff`` are out of range (see :class:`RetryPolicy`).

    Notes
    -----
    The reply is read from the body's bytes, not through the SDK's models: text that is not
    UTF-8 is kept with ``surrogateescape`` (see :func:`~toolform.clients.read_json_body`), a lone
    surrogate, NUL or a reply of many megabytes arrive as sent, and a body that is not a chat
    completion is retried and then raised as :class:`~toolform.errors.ModelServerError`, never a
    bare ``JSONDecodeError``.

    Examples
    --------
    >>> client = OpenAICompatClient("http://127.0.0.1:8080/v1", "qwen2.5-coder-0.5b-instruct",
    ...                             timeout=30, retries=2)
    >>> reply = client.complete([{"role": "user", "content": "Say hi"}])  # doctest: +SKIP
    >>> reply.text, reply.completion_tokens  # doctest: +SKIP
    ('Hi!', 3)
    """

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *,
                 temperature: float = 0.0, max_tokens: int = 512, timeout: float | None = None,
                 retries: int | None = None, backoff: float | None = None,
                 retry_policy: RetryPolicy | None = None, extra_body: dict[str, Any] | None = None,
                 max_concurrency: int = 4, enable_thinking: bool | None = None) -> None:
        if max_concurrency < 1:
            raise InvalidParameterError(f"max_concurrency must be >= 1, got {max_concurrency!r}")
        if enable_thinking is not None and not isinstance(enable_thinking, bool):
            raise InvalidParameterError(f"enable_thinking must be True, False or None, got "
                             f"{enable_thinking!r}")
        self.base_url = base_url
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.policy = resolve_policy(retry_policy, timeout=timeout, retries=retries,
                                     backoff=backoff)
        self.extra_body = dict(extra_body or {})
        self.enable_thinking = enable_thinking
        self.max_concurrency = max_concurrency
        self._slots = threading.BoundedSemaphore(max_concurrency)
        self._sdk = openai.OpenAI(base_url=base_url, api_key=api_key or "EMPTY",
                                  timeout=self.policy.timeout_s, max_retries=0)

    def __repr__(self) -> str:
        return f"OpenAICompatClient({self.base_url!r}, {self.model!r})"

    def describe(self) -> dict[str, Any]:
        """Run metadata: client kind, model, server, default sampling settings, retry policy.

        Returns
        -------
        dict
            ``client``, ``model``, ``base_url``, ``temperature``, ``max_tokens``, ``extra_body``,
            ``enable_thinking``, ``timeout_s``, ``retries``, ``max_concurrency`` and
            ``retry_policy`` (:meth:`RetryPolicy.to_dict`).
        """
        return {"client": "OpenAICompatClient", "model": self.model, "base_url": self.base_url,
                "temperature": self.temperature, "max_tokens": self.max_tokens,
                "extra_body": dict(self.extra_body), "enable_thinking": self.enable_thinking,
                "timeout_s": self.policy.timeout_s, "retries": self.policy.retries,
                "max_concurrency": self.max_concurrency, "retry_policy": self.policy.to_dict()}

    def complete(self, messages: list[dict[str, Any]], *, max_tokens: int | None = None,
                 temperature: float | None = None, tools: list[dict[str, Any]] | None = None,
                 extra_body: dict[str, Any] | None = None) -> Completion:
        """Send one chat request, retrying failures as the client's policy says.

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
            ``latency_s`` is the time of the successful attempt alone, in seconds.

        Raises
        ------
        toolform.errors.ModelServerError
            At once on a status the policy does not retry; after the last retry otherwise. It
            names the URL, the model, the attempts made and the last error.
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

        # the body is encoded once, by us, for every attempt: the SDK's typed ``create`` would
        # walk the messages against its TypedDicts on each call (about 0.9 ms of CPU a turn,
        # more than the rest of a turn) and cannot encode a lone surrogate
        data = _request_bytes(params)

        def attempt() -> Completion:
            with self._slots:
                start = time.perf_counter()
                content = _post_bytes(self._sdk, "/chat/completions", data)
                latency = time.perf_counter() - start
            return completion_from_body(read_json_body(content), latency, self.model)

        return call_with_retries(attempt, self.policy, url=self.base_url, model=self.model,
                                 sdk=openai)


def _request_bytes(params: dict[str, Any]) -> bytes:
    """The JSON body of a request: ``params`` with its ``extra_body`` merged in, as UTF-8.

    The SDKs write ``ensure_ascii=False`` JSON as UTF-8, which fails on a lone surrogate (a
    request holding a reply or tool name that had one); here it is written as its ``\\uXXXX``
    escape (:func:`toolform._jsontext.dumps`), so any text can be sent and every other
    character goes out as the SDK would send it.
    """
    body = {k: v for k, v in params.items() if k != "extra_body"}
    body.update(params.get("extra_body") or {})
    return jsontext.dumps(body).encode("utf-8")


def post_escaped(sdk_client: Any, path: str, params: dict[str, Any]) -> bytes:
    """POST ``params`` (``extra_body`` merged in, :func:`_request_bytes`) through the SDK's own
    transport and return the reply's body.

    Status errors, timeouts and connection errors are the SDK's typed errors, as for a typed
    call.
    """
    return _post_bytes(sdk_client, path, _request_bytes(params))


def _post_bytes(sdk_client: Any, path: str, data: bytes) -> bytes:
    """POST an encoded JSON body with the SDK client's transport, headers and timeout."""
    raw = _raw_response_class(type(sdk_client).__module__.split(".")[0])
    options: Any = {"headers": {"Content-Type": "application/json"}}
    try:
        response = sdk_client.post(path, content=data, cast_to=raw, options=options)
    except TypeError:  # SDKs before `content=` (openai 2.0) took the bytes as `body`
        response = sdk_client.post(path, body=data, cast_to=raw, options=options)
    return response.content


@functools.lru_cache(maxsize=None)
def _raw_response_class(sdk_package: str) -> type:
    """The raw response class of the HTTP library the SDK itself uses (httpx, or its fork
    httpx2): asking ``post`` for it returns the reply's bytes unparsed."""
    base = importlib.import_module(sdk_package + "._base_client")
    return (getattr(base, "httpx2", None) or base.httpx).Response


def completion_from_body(body: Any, latency_s: float, model: str) -> Completion:
    """Read a chat-completion body (the parsed JSON of ``/v1/chat/completions``).

    Parameters
    ----------
    body : object
        The parsed JSON.
    latency_s : float
        The request's time in seconds.
    model : str
        The model id the request went to.

    Returns
    -------
    Completion
        The first choice's text (a list of content parts is joined), its tool calls (as sent,
        without null fields), the usage counts when they are integers, the stop reason.

    Raises
    ------
    MalformedReply
        When the body is not a chat completion: not an object, no ``choices``, a choice with no
        ``message``, a ``content`` or ``tool_calls`` of the wrong type. A body holding an
        ``error`` object says so.
    """
    if not isinstance(body, dict):
        raise MalformedReply(f"the body is a JSON {type(body).__name__}, not a chat completion "
                             f"object: {excerpt(repr(body))}")
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        if "error" in body:
            raise MalformedReply(f"the body is an error, not a reply: {excerpt(repr(body['error']))}")
        raise MalformedReply(f"the body has no choices: {excerpt(repr(body))}")
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        raise MalformedReply(f"the first choice has no message object: {excerpt(repr(choice))}")
    calls = message.get("tool_calls")
    if calls is not None and not (isinstance(calls, list)
                                  and all(isinstance(c, dict) for c in calls)):
        raise MalformedReply(f"tool_calls is not a list of objects: {excerpt(repr(calls))}")
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    finish = choice.get("finish_reason")
    return Completion(
        text=_content_text(message.get("content")),
        tool_calls=[_without_nulls(call) for call in calls] if calls else None,
        prompt_tokens=_count(usage.get("prompt_tokens")),
        completion_tokens=_count(usage.get("completion_tokens")),
        latency_s=latency_s,
        model=model,
        finish_reason=finish if isinstance(finish, str) else None,
    )


def _content_text(content: Any) -> str:
    """A message's ``content``: a string, null, or a list of content parts with ``text``."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(part, dict) for part in content):
        return "".join(part["text"] for part in content if isinstance(part.get("text"), str))
    raise MalformedReply(f"the message content is a JSON {type(content).__name__}: "
                         f"{excerpt(repr(content))}")


def _without_nulls(call: dict[str, Any]) -> dict[str, Any]:
    """A tool call without its null members, and its ``function`` object without its own (as
    the SDK's ``model_dump(exclude_none=True)`` gave before)."""
    out = {k: v for k, v in call.items() if v is not None}
    if isinstance(out.get("function"), dict):
        out["function"] = {k: v for k, v in out["function"].items() if v is not None}
    return out


def _count(value: Any) -> int | None:
    """A token count: a non-negative integer, else None (some servers send null or text)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
