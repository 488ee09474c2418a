"""The local executor: a thread pool in this process (today's runner, the default)."""

from __future__ import annotations

import queue
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Iterator, Mapping, Sequence

from ._base import Outcome, failure

__all__ = ["LocalExecutor"]


class LocalExecutor:
    """Run turns on a thread pool, ``max_concurrency`` requests in flight.

    Turns are submitted as slots free up (never the whole plan at once), so a plan of a
    hundred thousand turns holds only ``max_concurrency`` requests in memory.

    Parameters
    ----------
    max_concurrency : int, default 4
        Requests in flight at once.
    """

    name = "local"

    def __init__(self, max_concurrency: int = 4) -> None:
        self.max_concurrency = max(1, int(max_concurrency))

    def __repr__(self) -> str:
        return f"LocalExecutor(max_concurrency={self.max_concurrency})"

    def execute(self, turns: Sequence[Any], clients: Mapping[str, Any], *,
                stop: Any = None) -> Iterator[Outcome]:
        """Yield each turn's outcome as it finishes (see :class:`toolform.executors.Executor`)."""
        # each future hands itself to this queue when done: one put and one get a turn, where
        # ``wait(FIRST_COMPLETED)`` set up and took down a waiter on every future in flight
        finished: queue.SimpleQueue[Future[Outcome]] = queue.SimpleQueue()
        in_flight = 0
        todo = iter(turns)
        with ThreadPoolExecutor(max_workers=self.max_concurrency) as pool:
            while True:
                while in_flight < self.max_concurrency and not (stop and stop.is_set()):
                    turn = next(todo, None)
                    if turn is None:
                        break
                    pool.submit(_ask, turn, clients[turn.cell.model]).add_done_callback(
                        finished.put)
                    in_flight += 1
                if not in_flight:
                    return
                outcome = finished.get().result()
                in_flight -= 1
                yield outcome


def _ask(turn: Any, client: Any) -> Outcome:
    try:
        extra = {"extra_body": turn.extra_body} if turn.extra_body is not None else {}
        completion = client.complete(turn.messages, max_tokens=turn.max_tokens,
                                     temperature=turn.temperature, tools=turn.tools, **extra)
    except Exception as exc:  # noqa: BLE001 - a server failure becomes a row, never a lost turn
        return failure(turn, exc)
    return Outcome(turn, completion)
