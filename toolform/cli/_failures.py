"""What the run commands (``ab-test``, ``bfcl-arm``) do about failed turns: never hide them.

* Before a replay, the draw is checked against the cassette: a turn the cassette does not hold
  would be a failed turn, so the run is refused (exit 2) unless ``--allow-misses``.
* After a run, failed turns are counted on stderr by kind (``error_kind``) with the attempts
  made, and the first error.
* With ``--strict``, any failed turn makes the exit status 1 (the tables are still written).
"""

from __future__ import annotations

from typing import Any, Callable

import typer

__all__ = ["EXIT_FAILED_TURNS", "EXIT_USAGE", "CassetteProbe", "fail", "refuse_misses",
           "report_failures"]

#: Exit status of a run with failed turns under ``--strict``.
EXIT_FAILED_TURNS = 1
#: Exit status for a usage error: an unknown dataset, a draw the cassette does not hold...
EXIT_USAGE = 2


def fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    """Print ``error: message`` on stderr; return the Exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


class CassetteProbe:
    """A stand-in client that says, for each request, whether a replay client holds its reply.

    It answers a recorded request with an empty reply and raises ``CassetteMissError`` for any
    other, without pacing; running the real plan through it finds the misses with the runner's
    own prompts, hence the replay's own keys.

    Parameters
    ----------
    replay : ReplayClient
        The replay-only client the run will use.
    """

    def __init__(self, replay: Any) -> None:
        self._replay = replay
        self.model = replay.model

    def complete(self, messages: list[dict[str, Any]], *, max_tokens: int | None = None,
                 temperature: float | None = None, tools: list[dict[str, Any]] | None = None,
                 extra_body: dict[str, Any] | None = None) -> Any:
        """An empty completion when the cassette holds the request, else the miss."""
        from ..clients import Completion
        from ..errors import CassetteMissError

        key = self._replay.key(messages, max_tokens=max_tokens, temperature=temperature,
                               tools=tools, extra_body=extra_body)
        if key not in self._replay:
            raise CassetteMissError(key, str(self._replay.cassette))
        return Completion("", None, None, None, 0.0, self.model, "stop")

    def describe(self) -> dict[str, Any]:
        return {"client": "CassetteProbe", "model": self.model}


def refuse_misses(plan: Callable[[Any], Any], replay: Any, what: str) -> None:
    """Run ``plan`` through a :class:`CassetteProbe`; refuse (exit 2) when any turn would miss.

    Parameters
    ----------
    plan : callable
        ``plan(client)`` runs the command's draw (no checkpoint, no progress bar) and returns
        the turn frame.
    replay : ReplayClient
        The replay-only client.
    what : str
        How to name the draw in the message, e.g. ``"the draw (seed 1, n=50)"``.

    Raises
    ------
    typer.Exit
        With :data:`EXIT_USAGE` when the cassette lacks a turn.
    """
    turns = plan(CassetteProbe(replay))
    missing = int(turns["error"].fillna("").str.startswith("CassetteMissError").sum())
    if missing:
        raise fail(f"{missing} of {len(turns)} turns of {what} are not in the cassette "
                   f"{replay.cassette}; replaying would report them as failed turns. Run the "
                   "draw the cassette was recorded with, record the rest with --base-url, or "
                   "pass --allow-misses to run anyway.")


def report_failures(turns: Any, *, strict: bool) -> int:
    """Count the failed turns on stderr by kind, with attempts and the first error; exit 1
    under ``strict``.

    The message reads e.g. ``3 of 40 turns failed and are left out of the accuracies
    (timeout: 2 turns, 10 attempts; status: 1 turn, 1 attempt); the first: ...``. Rows of a
    checkpoint older than the ``error_kind`` column count under ``unknown``.

    Parameters
    ----------
    turns : pandas.DataFrame
        The run's turns (``toolform.runs.TURN_COLUMNS``).
    strict : bool
        Make any failed turn a non-zero exit.

    Returns
    -------
    int
        The number of failed turns.

    Raises
    ------
    typer.Exit
        With :data:`EXIT_FAILED_TURNS` when ``strict`` and a turn failed.
    """
    failed = turns[turns["error"].notna()]
    if not len(failed):
        return 0
    message = (f"{len(failed)} of {len(turns)} turns failed and are left out of the accuracies "
               f"({_by_kind(failed)}); the first: {failed['error'].iloc[0]}")
    if strict:
        raise fail(message, EXIT_FAILED_TURNS)
    typer.echo(f"warning: {message}", err=True)
    return len(failed)


def _by_kind(failed: Any) -> str:
    """``"timeout: 2 turns, 10 attempts; status: 1 turn, 1 attempt"``, most turns first."""
    kinds = failed["error_kind"].astype("object").fillna("unknown")
    parts = []
    for kind, count in kinds.value_counts().items():
        part = f"{kind}: {count} turn{'s' if count != 1 else ''}"
        sent = failed.loc[kinds == kind, "attempts"].dropna()
        if len(sent):
            total = int(sent.sum())
            part += f", {total} attempt{'s' if total != 1 else ''}"
        parts.append(part)
    return "; ".join(parts)
