"""What an executor hands back for one planned turn."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

__all__ = ["Outcome", "failure", "recording"]


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
    """

    turn: Any
    completion: Any
    error: str | None = None


def failure(turn: Any, exc: BaseException) -> Outcome:
    """The outcome of a turn whose request raised ``exc``."""
    return Outcome(turn, None, f"{type(exc).__name__}: {exc}")


def recording(turn: Any, completion: Any) -> dict[str, Any]:
    """The cassette line of a turn's reply, keyed and shaped as ``ReplayClient`` records it."""
    from ..clients._replay import _request

    return {"key": turn.key,
            "request": _request(turn.cell.model, turn.messages, turn.max_tokens,
                                turn.temperature, turn.tools, turn.extra_body),
            "response": {**completion.to_dict(), "model": turn.cell.model},
            "recorded_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
