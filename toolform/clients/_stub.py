"""Stand-ins for a model, for tests and teaching: an in-process :class:`StubClient`, and a
:class:`StubServer` on 127.0.0.1 that speaks the OpenAI ``/v1/chat/completions`` and the
Anthropic ``/v1/messages`` APIs over real HTTP, so the real SDKs and ToolForm's retry policy are
exercised end to end.

Both answer with a *responder*: a fixed reply text, or a function of the request's messages and
tools that returns the reply text, or a dict ``{"content": str | None, "tool_calls": [...]}`` in
the OpenAI shape (the server turns it into Anthropic ``tool_use`` blocks on ``/v1/messages``).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Union

from ..errors import InvalidParameterError, ModelServerError, ParameterTypeError
from ._base import Completion

__all__ = ["StubClient", "StubReply", "StubServer"]

#: A reply text, or a function of ``(messages, tools)`` giving a text or an OpenAI-shape message.
Responder = Union[str, Callable[[list, Any], Any]]


def _answer(responder: Responder, messages: list, tools: Any) -> dict[str, Any]:
    """The responder's reply as ``{"content": ..., "tool_calls": ...}``."""
    out = responder(messages, tools) if callable(responder) else responder
    if isinstance(out, str):
        return {"content": out, "tool_calls": None}
    if isinstance(out, dict):
        return {"content": out.get("content"), "tool_calls": out.get("tool_calls") or None}
    raise ParameterTypeError(f"a stub responder returns a str or a message dict, got {type(out).__name__}")


class StubClient:
    """A model that is a function: answers in-process, with no server (tests and teaching).

    Parameters
    ----------
    responder : str or callable, default "OK"
        The reply text, or ``responder(messages, tools)`` returning the reply text or a dict
        ``{"content": ..., "tool_calls": [...]}`` (OpenAI shape; see the module docstring).
    model : str, default "stub-model"
        The model id it reports (part of cassette keys when wrapped in a ``ReplayClient``).
    fail_when : callable, optional
        ``fail_when(messages) -> bool``; when true the call raises
        :class:`~toolform.errors.ModelServerError` of kind ``"injected"`` (url
        ``stub://<model>``, 1 attempt), as a live server that failed after its retries would.
    latency_s : float, default 0.0
        Seconds each call sleeps (and reports as ``latency_s``).

    Examples
    --------
    >>> client = StubClient("<tool_call>{\\"name\\": \\"f\\", \\"arguments\\": {}}</tool_call>")
    >>> client.complete([{"role": "user", "content": "hi"}]).text[:11]
    '<tool_call>'
    """

    def __init__(self, responder: Responder = "OK", *, model: str = "stub-model",
                 fail_when: Callable[[list], bool] | None = None, latency_s: float = 0.0) -> None:
        if not latency_s >= 0:
            raise InvalidParameterError(f"latency_s must be zero or more seconds, got {latency_s!r}")
        self.responder = responder
        self.model = model
        self.fail_when = fail_when
        self.latency_s = float(latency_s)
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"StubClient(model={self.model!r})"

    def describe(self) -> dict[str, Any]:
        """Run metadata: ``client`` (``"StubClient"``) and ``model``."""
        return {"client": "StubClient", "model": self.model}

    def complete(self, messages: list[dict[str, Any]], *, max_tokens: int | None = None,
                 temperature: float | None = None, tools: list[dict[str, Any]] | None = None,
                 extra_body: dict[str, Any] | None = None) -> Completion:
        """Answer with the responder (parameters as :meth:`ChatClient.complete`).

        Raises
        ------
        toolform.errors.ModelServerError
            When ``fail_when(messages)`` is true (kind ``"injected"``).
        """
        with self._lock:
            self.requests.append({"messages": messages, "tools": tools, "max_tokens": max_tokens,
                                  "temperature": temperature, "extra_body": extra_body})
        if self.latency_s:
            time.sleep(self.latency_s)
        if self.fail_when is not None and self.fail_when(messages):
            raise ModelServerError(url=f"stub://{self.model}", model=self.model, attempts=1,
                                   kind="injected", detail="fail_when chose this request")
        message = _answer(self.responder, messages, tools)
        return Completion(text=message["content"] or "", tool_calls=message["tool_calls"],
                          prompt_tokens=None, completion_tokens=None, latency_s=self.latency_s,
                          model=self.model,
                          finish_reason="tool_calls" if message["tool_calls"] else "stop")


@dataclass
class StubReply:
    """One scripted HTTP reply of a :class:`StubServer`, sent instead of the responder's.

    Parameters
    ----------
    status : int, default 200
    body : bytes, str, dict or None
        Raw bytes are sent as they are (invalid UTF-8, a torn JSON document...); a str is sent
        as UTF-8 (``surrogatepass``, so lone surrogates go out as such bytes); a dict as JSON.
        None: the responder's normal reply.
    headers : dict
        Extra headers (``Retry-After``, ``x-should-retry``...).
    delay_s : float, default 0.0
        Seconds to wait before answering (longer than the client's timeout: a timeout).
    """

    status: int = 200
    body: bytes | str | dict | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


class StubServer:
    """A tiny OpenAI- and Anthropic-compatible HTTP server on 127.0.0.1, for tests and teaching.

    ``POST {base_url}/chat/completions`` answers as OpenAI's Chat Completions API and
    ``POST {anthropic_url}/v1/messages`` as Anthropic's Messages API, each from ``responder``;
    ``GET /v1/models`` lists the one model. Replies queued with :meth:`script` are sent first, in
    order, one per request (faults: error statuses, ``Retry-After``, malformed bodies, stalls).
    Every request body is kept in :attr:`requests` (parsed JSON) with its path in
    :attr:`paths`. Use as a context manager, or call :meth:`stop`.

    Parameters
    ----------
    responder : str or callable, default "OK"
        As for :class:`StubClient`.
    model : str, default "stub-model"
    delay_s : float, default 0.0
        Seconds every normal reply waits (a model's latency).

    Examples
    --------
    >>> from toolform.clients import OpenAICompatClient
    >>> with StubServer("hello") as server:
    ...     OpenAICompatClient(server.base_url, server.model).complete(
    ...         [{"role": "user", "content": "hi"}]).text
    'hello'
    """

    def __init__(self, responder: Responder = "OK", *, model: str = "stub-model",
                 delay_s: float = 0.0) -> None:
        self.responder = responder
        self.model = model
        self.delay_s = delay_s
        self.requests: list[Any] = []
        self.paths: list[str] = []
        self._script: deque[StubReply] = deque()
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.httpd.daemon_threads = True
        port = self.httpd.server_address[1]
        #: Root of the server, for the Anthropic SDK (which adds ``/v1/messages``).
        self.anthropic_url = f"http://127.0.0.1:{port}"
        #: The OpenAI-compatible API root.
        self.base_url = f"{self.anthropic_url}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,),
                                        daemon=True)
        self._thread.start()

    def __enter__(self) -> StubServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def script(self, *replies: StubReply) -> None:
        """Queue replies to send, in order, before the responder answers again."""
        with self._lock:
            self._script.extend(replies)

    def stop(self) -> None:
        """Shut the server down and close its socket."""
        self.httpd.shutdown()
        self.httpd.server_close()

    # -- the APIs ---------------------------------------------------------------------------
    def _next(self, path: str, raw: bytes) -> StubReply:
        try:
            body: Any = json.loads(raw.decode("utf-8", "surrogateescape"))
        except ValueError:
            body = raw
        with self._lock:
            self.requests.append(body)
            self.paths.append(path)
            scripted = self._script.popleft() if self._script else None
        if scripted is not None and scripted.body is not None:
            return scripted
        reply = StubReply(delay_s=self.delay_s) if scripted is None else scripted
        if not isinstance(body, dict):
            return StubReply(400, {"error": {"message": "the body is not a JSON object"}})
        messages, tools = body.get("messages") or [], body.get("tools")
        message = _answer(self.responder, messages, tools)
        reply.body = (_anthropic_body(message, self.model, body) if path.endswith("/messages")
                      else _openai_body(message, self.model, messages))
        return reply


def _openai_body(message: dict[str, Any], model: str, messages: list) -> dict[str, Any]:
    calls = message["tool_calls"]
    prompt = sum(len(str(m.get("content") or "")) for m in messages if isinstance(m, dict))
    return {"id": "chatcmpl-stub", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "finish_reason": "tool_calls" if calls else "stop",
                         "message": {"role": "assistant", "content": message["content"],
                                     **({"tool_calls": calls} if calls else {})}}],
            "usage": {"prompt_tokens": prompt // 4 + 1,
                      "completion_tokens": len(message["content"] or "") // 4 + 1,
                      "total_tokens": 0}}


def _anthropic_body(message: dict[str, Any], model: str, request: dict) -> dict[str, Any]:
    blocks: list[dict[str, Any]] = []
    if message["content"]:
        blocks.append({"type": "text", "text": message["content"]})
    for number, call in enumerate(message["tool_calls"] or []):
        function = call.get("function", {})
        blocks.append({"type": "tool_use", "id": call.get("id") or f"toolu_{number}",
                       "name": function.get("name"),
                       "input": json.loads(function.get("arguments") or "{}")})
    return {"id": "msg_stub", "type": "message", "role": "assistant", "model": model,
            "content": blocks, "stop_sequence": None,
            "stop_reason": "tool_use" if message["tool_calls"] else "end_turn",
            "usage": {"input_tokens": len(json.dumps(request.get("messages"))) // 4 + 1,
                      "output_tokens": len(message["content"] or "") // 4 + 1}}


def _handler(server: StubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as real servers and the SDKs' pools expect
        # TCP_NODELAY: headers and body are two writes, and with Nagle the body would wait for
        # the client's delayed ACK (40 ms on Linux) on every reply
        disable_nagle_algorithm = True

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            self._send(StubReply(200, {"object": "list", "data": [
                {"id": server.model, "object": "model", "created": 0, "owned_by": "stub"}]}))

        def do_POST(self) -> None:  # noqa: N802
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self._send(server._next(self.path, raw))

        def _send(self, reply: StubReply) -> None:
            body = reply.body
            if isinstance(body, dict):
                data = json.dumps(body).encode()  # ASCII escapes, as servers send
            elif isinstance(body, str):
                data = body.encode("utf-8", "surrogatepass")
            else:
                data = body or b""
            try:
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout)

    return Handler
