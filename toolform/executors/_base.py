"""What an executor hands back for one planned turn."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

__all__ = ["ERROR_KINDS", "Outcome", "error_fields", "failure", "recording"]

#: What ``error_kind`` of a failed turn can say: a model server's failure after its retries
#: (:class:`~toolform.errors.ModelServerError`'s ``kind``: ``status`` is an HTTP error status,
#: ``malformed_body`` a 2xx reply that is not a chat completion), a replay without the
#: recording, a batch output without the reply or with its error, a prompt that could not be
#: rendered, or any other exception a client raised.
ERROR_KINDS = ("status", "timeout", "connection", "malformed_body", "retry_after_too_long",
               "cassette_miss", "batch_missing", "batch_error", "render", "client")


@dataclass(frozen=True)
class Outcome:
    """The result of one planned turn.

    Attributes
    ----------
    turn : PlannedTurn
        The turn it answers.
    completion : Completion or None
        The reply; None when the request failed.
    error : str or None
        ``"<ExceptionType>: <message>"`` when the request failed, else None.
    error_kind : str or None
        One of :data:`ERROR_KINDS` when the request failed, else None.
    attempts : int or None
        Requests sent to the server for a failed turn (0: none was sent); None when unknown
        or the turn did not fail.
    """

    turn: Any
    completion: Any
    error: str | None = None
    error_kind: str | None = None
    attempts: int | None = None


def error_fields(exc: BaseException) -> dict[str, Any]:
    """``error``, ``error_kind`` and ``attempts`` of a request that raised ``exc``.

    Parameters
    ----------
    exc : Exception
        What the client raised.

    Returns
    -------
    dict
        ``error`` (``"<ExceptionType>: <message>"``), ``error_kind`` (one of
        :data:`ERROR_KINDS`) and ``attempts`` (the server requests made; None when the client
        does not say). Plain values, so the dict crosses a process boundary (Ray) as it is.
    """
    from ..errors import CassetteMissError, ModelServerError

    if isinstance(exc, ModelServerError):
        kind, attempts = exc.kind, exc.attempts
    elif isinstance(exc, CassetteMissError):
        kind, attempts = "cassette_miss", 0
    else:
        kind, attempts = "client", None
    return {"error": f"{type(exc).__name__}: {exc}", "error_kind": kind, "attempts": attempts}


def failure(turn: Any, exc: BaseException) -> Outcome:
    """The outcome of a turn whose request raised ``exc``."""
    return Outcome(turn, None, **error_fields(exc))


def recording(turn: Any, completion: Any) -> dict[str, Any]:
    """The cassette line of a turn's reply, keyed and shaped as ``ReplayClient`` records it."""
    from ..clients._replay import _request

    return {"key": turn.key,
            "request": _request(turn.cell.model, turn.messages, turn.max_tokens,
                                turn.temperature, turn.tools, turn.extra_body),
            "response": {**completion.to_dict(), "model": turn.cell.model},
            "recorded_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
