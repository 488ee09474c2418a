"""A client for Anthropic's Messages API on the ``anthropic`` SDK (an optional extra), with
ToolForm's retry policy and the same lossless reading of the reply as the OpenAI-compatible one.

Runs hand every client OpenAI-shape chat messages and tools; this client translates them:
``system`` messages become the request's ``system`` text, the others its ``messages``, and
OpenAI function tools become Anthropic tools (``name``, ``description``, ``input_schema``). The
reply comes back in the OpenAI shape: text blocks joined into ``text``, each ``tool_use`` block
an OpenAI tool call whose ``arguments`` are the JSON text of its ``input``, so the ``native``
protocol and every in-prompt protocol read it as they read any other server's reply.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from .. import _jsontext as jsontext
from ..errors import InvalidParameterError, MissingDependencyError
from ._base import Completion
from ._openai_compat import _count, post_escaped
from ._policy import (MalformedReply, RetryPolicy, call_with_retries, excerpt, read_json_body,
                      resolve_policy)

__all__ = ["AnthropicClient", "anthropic_request", "completion_from_message"]

# Anthropic's stop reasons in the OpenAI vocabulary the other clients report.
_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length",
           "tool_use": "tool_calls"}


def _sdk() -> Any:
    try:
        import anthropic
    except ImportError as exc:
        raise MissingDependencyError("anthropic", "anthropic",
                                     "AnthropicClient (Anthropic's Messages API)") from exc
    return anthropic


class AnthropicClient:
    """Chat with a Claude model through Anthropic's Messages API (``POST /v1/messages``).

    Needs the ``anthropic`` package (``pip install "toolform[anthropic]"``), imported when the
    client is made. Safe to call from many threads: at most ``max_concurrency`` requests are in
    flight at once. Follows the same :class:`RetryPolicy` as the OpenAI-compatible client (by
    default 4 retries of timeouts, connection errors, 408/409/429/5xx and malformed bodies, after
    0.5, 1, 2, 4 s less up to 25 % jitter, or the server's ``Retry-After`` up to 120 s).

    Parameters
    ----------
    model : str
        The model id, e.g. ``"claude-sonnet-4-5"``.
    api_key : str, optional
        The API key; None lets the SDK read ``ANTHROPIC_API_KEY`` (a stub server needs none:
        pass any string).
    base_url : str, optional
        The API root without ``/v1`` (None: Anthropic's own, or ``ANTHROPIC_BASE_URL``).
    temperature : float, default 0.0
        Default sampling temperature, sent as the body's ``temperature`` field (the SDK's typed
        ``create`` no longer lists it, so it travels in ``extra_body``).
    send_temperature : bool, default True
        False sends no temperature at all, not even a call's own (for models that reject
        sampling parameters).
    max_tokens : int, default 512
        Default reply cap in tokens (the Messages API requires one).
    timeout, retries, backoff : float, int, float, optional
        Per-attempt timeout (s), retries after the first attempt, first back-off wait (s); each
        replaces the field of ``retry_policy`` when given.
    retry_policy : RetryPolicy, optional
        The retry policy (:data:`~toolform.clients.DEFAULT_RETRY_POLICY` when None).
    extra_body : dict, optional
        JSON fields merged into every request body (a call's own ``extra_body`` wins).
    max_concurrency : int, default 4
        Most requests in flight at once across all threads.

    Raises
    ------
    toolform.errors.MissingDependencyError
        When ``anthropic`` is not installed (the message gives the install line).
    ValueError
        When ``max_concurrency`` is below 1 or a policy value is out of range.

    Examples
    --------
    >>> client = AnthropicClient("claude-sonnet-4-5", retries=2)           # doctest: +SKIP
    >>> client.complete([{"role": "user", "content": "Say hi"}]).text      # doctest: +SKIP
    'Hi!'
    """

    def __init__(self, model: str, api_key: str | None = None, *, base_url: str | None = None,
                 temperature: float = 0.0, send_temperature: bool = True,
                 max_tokens: int = 512, timeout: float | None = None,
                 retries: int | None = None, backoff: float | None = None,
                 retry_policy: RetryPolicy | None = None, extra_body: dict[str, Any] | None = None,
                 max_concurrency: int = 4) -> None:
        anthropic = _sdk()
        if max_concurrency < 1:
            raise InvalidParameterError(f"max_concurrency must be >= 1, got {max_concurrency!r}")
        self.model = model
        self.temperature = temperature
        self.send_temperature = send_temperature
        self.max_tokens = max_tokens
        self.policy = resolve_policy(retry_policy, timeout=timeout, retries=retries,
                                     backoff=backoff)
        self.extra_body = dict(extra_body or {})
        self.max_concurrency = max_concurrency
        self._slots = threading.BoundedSemaphore(max_concurrency)
        self._anthropic = anthropic
        self._sdk = anthropic.Anthropic(api_key=api_key, base_url=base_url,
                                        timeout=self.policy.timeout_s, max_retries=0)
        self.base_url = str(self._sdk.base_url).rstrip("/")

    def __repr__(self) -> str:
        return f"AnthropicClient({self.model!r}, base_url={self.base_url!r})"

    def describe(self) -> dict[str, Any]:
        """Run metadata: ``client``, ``model``, ``base_url``, ``temperature``,
        ``send_temperature``, ``max_tokens``,
        ``extra_body``, ``timeout_s``, ``retries``, ``max_concurrency``, ``retry_policy``."""
        return {"client": "AnthropicClient", "model": self.model, "base_url": self.base_url,
                "temperature": self.temperature, "send_temperature": self.send_temperature,
                "max_tokens": self.max_tokens,
                "extra_body": dict(self.extra_body), "timeout_s": self.policy.timeout_s,
                "retries": self.policy.retries, "max_concurrency": self.max_concurrency,
                "retry_policy": self.policy.to_dict()}

    def complete(self, messages: list[dict[str, Any]], *, max_tokens: int | None = None,
                 temperature: float | None = None, tools: list[dict[str, Any]] | None = None,
                 extra_body: dict[str, Any] | None = None) -> Completion:
        """Send one Messages request, retrying failures as the client's policy says.

        Parameters are those of :meth:`ChatClient.complete` (OpenAI-shape messages and tools).

        Returns
        -------
        Completion
            ``finish_reason`` in the OpenAI vocabulary (``end_turn`` → ``"stop"``, ``tool_use``
            → ``"tool_calls"``, ``max_tokens`` → ``"length"``); ``prompt_tokens`` and
            ``completion_tokens`` are the reply's ``input_tokens`` and ``output_tokens``.

        Raises
        ------
        toolform.errors.ModelServerError
            At once on a status the policy does not retry, after the last retry otherwise
            (names the URL, model, attempts and last error).
        """
        params = anthropic_request(
            self.model, messages, tools=tools,
            max_tokens=self.max_tokens if max_tokens is None else max_tokens)
        body = {**self.extra_body, **(extra_body or {})}
        if self.send_temperature:
            body.setdefault("temperature", self.temperature if temperature is None else temperature)
        if body:
            params["extra_body"] = body

        def attempt() -> Completion:
            with self._slots:
                start = time.perf_counter()
                try:
                    content = self._sdk.messages.with_raw_response.create(**params).read()
                except UnicodeEncodeError:  # a lone surrogate the SDK's encoder cannot write
                    content = post_escaped(self._sdk, "/v1/messages", params)
                latency = time.perf_counter() - start
            return completion_from_message(read_json_body(content), latency, self.model)

        return call_with_retries(attempt, self.policy, url=self.base_url, model=self.model,
                                 sdk=self._anthropic)


def anthropic_request(model: str, messages: list[dict[str, Any]], *,
                      tools: list[dict[str, Any]] | None, max_tokens: int) -> dict[str, Any]:
    """The Messages API parameters for an OpenAI-shape chat request.

    Parameters
    ----------
    model : str
    messages : list of dict
        OpenAI chat messages; ``system`` ones are joined (blank line between) into ``system``.
    tools : list of dict, optional
        OpenAI function tools (``{"type": "function", "function": {name, description,
        parameters}}``), sent as Anthropic tools.
    max_tokens : int

    Returns
    -------
    dict
        ``model``, ``max_tokens``, ``messages`` and, when there are any,
        ``system`` and ``tools``.
    """
    system = [str(m.get("content") or "") for m in messages if m.get("role") == "system"]
    params: dict[str, Any] = {
        "model": model, "max_tokens": max_tokens,
        "messages": [{"role": m["role"], "content": m.get("content") or ""}
                     for m in messages if m.get("role") != "system"],
    }
    if system:
        params["system"] = "\n\n".join(system)
    if tools:
        params["tools"] = [_anthropic_tool(tool) for tool in tools]
    return params


def _anthropic_tool(tool: dict[str, Any]) -> dict[str, Any]:
    function = tool.get("function", tool)
    out = {"name": function["name"],
           "input_schema": function.get("parameters") or {"type": "object", "properties": {}}}
    if function.get("description"):
        out["description"] = function["description"]
    return out


def completion_from_message(body: Any, latency_s: float, model: str) -> Completion:
    """Read a Messages API reply body (parsed JSON) as an OpenAI-shape :class:`Completion`.

    Parameters
    ----------
    body : object
        The parsed JSON of the reply.
    latency_s : float
        The request's time in seconds.
    model : str
        The model id the request went to.

    Returns
    -------
    Completion
        Text blocks joined in order; ``tool_use`` blocks as OpenAI tool calls (``arguments`` the
        JSON text of ``input``, lone surrogates escaped); None when there were none.

    Raises
    ------
    MalformedReply
        When the body is not a message: not an object, ``content`` not a list of blocks, a
        ``tool_use`` block without a name or with a non-object input.
    """
    if not isinstance(body, dict):
        raise MalformedReply(f"the body is a JSON {type(body).__name__}, not a message: "
                             f"{excerpt(repr(body))}")
    blocks = body.get("content")
    if not isinstance(blocks, list) or not all(isinstance(b, dict) for b in blocks):
        if "error" in body:
            raise MalformedReply(f"the body is an error, not a reply: {excerpt(repr(body['error']))}")
        raise MalformedReply(f"the body has no list of content blocks: {excerpt(repr(body))}")
    texts, calls = [], []
    for block in blocks:
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif block.get("type") == "tool_use":
            if not isinstance(block.get("name"), str) or not isinstance(block.get("input"), dict):
                raise MalformedReply(f"a tool_use block without a name or an object input: "
                                     f"{excerpt(repr(block))}")
            calls.append({"id": str(block.get("id") or ""), "type": "function",
                          "function": {"name": block["name"],
                                       "arguments": jsontext.dumps(block["input"])}})
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    stop = body.get("stop_reason")
    return Completion(
        text="".join(texts), tool_calls=calls or None,
        prompt_tokens=_count(usage.get("input_tokens")),
        completion_tokens=_count(usage.get("output_tokens")),
        latency_s=latency_s, model=model,
        finish_reason=_FINISH.get(stop, stop) if isinstance(stop, str) else None)

