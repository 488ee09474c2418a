"""What every model client returns, and the one method every client has."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Mapping, Protocol, runtime_checkable

__all__ = ["ChatClient", "Completion"]


@dataclass(frozen=True)
class Completion:
    """One model reply to one chat request.

    Parameters
    ----------
    text : str
        The reply's text ("" when the model answered only with native tool calls).
    tool_calls : list of dict or None
        Native tool calls as the server sent them, in the OpenAI shape
        ``{"id": ..., "type": "function", "function": {"name": ..., "arguments": "<JSON text>"}}``;
        the arguments stay text because reading them is a protocol's job. None when there were none.
    prompt_tokens : int or None
        Prompt size in tokens as the server counted it (None when the server gave no usage).
    completion_tokens : int or None
        Reply size in tokens as the server counted it.
    latency_s : float
        Wall-clock time of the request in seconds (for a replayed reply: the recorded time).
    model : str
        The model id the request was sent to.
    finish_reason : str or None
        The server's stop reason (``"stop"``, ``"length"``, ``"tool_calls"``...).
    """

    text: str
    tool_calls: list[dict[str, Any]] | None
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_s: float
    model: str
    finish_reason: str | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict with one key per field."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Completion:
        """Inverse of :meth:`to_dict`.

        Raises
        ------
        KeyError
            When ``text``, ``latency_s`` or ``model`` is missing.
        """
        return cls(
            text=data["text"],
            tool_calls=data.get("tool_calls"),
            prompt_tokens=data.get("prompt_tokens"),
            completion_tokens=data.get("completion_tokens"),
            latency_s=float(data["latency_s"]),
            model=data["model"],
            finish_reason=data.get("finish_reason"),
        )


@runtime_checkable
class ChatClient(Protocol):
    """Anything that answers chat requests: a live server, a cassette, a simulation.

    Runs call :meth:`complete` from a thread pool, so an implementation must be safe to call from
    several threads at once.
    """

    model: str

    def complete(self, messages: list[dict[str, Any]], *, max_tokens: int | None = None,
                 temperature: float | None = None, tools: list[dict[str, Any]] | None = None,
                 extra_body: dict[str, Any] | None = None) -> Completion:
        """Send one chat request and return the reply.

        Parameters
        ----------
        messages : list of dict
            OpenAI chat messages (``{"role": ..., "content": ...}``).
        max_tokens : int, optional
            Reply length cap in tokens; None means the client's default (512 unless configured).
        temperature : float, optional
            Sampling temperature; None means the client's default (0.0 unless configured).
        tools : list of dict, optional
            Native tool definitions (OpenAI ``tools`` shape), for the native-calling protocol.
        extra_body : dict, optional
            Extra JSON fields merged into the request body (server-specific switches such as
            ``{"chat_template_kwargs": {"enable_thinking": False}}``).

        Returns
        -------
        Completion

        Raises
        ------
        toolform.errors.ClientError
            When the server failed after every retry.
        """
        ...

    def describe(self) -> dict[str, Any]:
        """What a run records about this client: at least ``model`` and the server or source."""
        ...
