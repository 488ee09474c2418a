"""The batch executor: a plan as an OpenAI Batch input file, its output file as replies.

The input file is JSON Lines, one request per line, the format of the OpenAI Batch API and of
``vllm run-batch``::

    {"custom_id": "<plan key>", "method": "POST", "url": "/v1/chat/completions",
     "body": {"model", "messages", "max_tokens", "temperature", ["tools"]}}

``custom_id`` is the turn's plan key (the cassette key), written once per distinct key. The
output file has one line per request::

    {"id", "custom_id", "response": {"status_code", "request_id", "body": <chat completion>},
     "error": null | {"code", "message"}}

:func:`import_batch_output` writes its replies into a cassette (so a ``ReplayClient`` replays
them offline), and :class:`BatchExecutor` hands them to the runner directly. A batch reply has
no latency of its own: ``latency_s`` is NaN.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from ._base import Outcome, recording

__all__ = ["BatchExecutor", "import_batch_output", "read_batch_output", "write_batch_input"]

#: The endpoint every line of a batch input file posts to.
CHAT_URL = "/v1/chat/completions"


def write_batch_input(plan: Sequence[Any], path: str | os.PathLike[str], *,
                      url: str = CHAT_URL) -> int:
    """Write the plan's requests as an OpenAI Batch input file.

    Parameters
    ----------
    plan : Plan or sequence of PlannedTurn
        Turns with a render error are left out; a key shared by several turns is written once.
    path : path
        The ``.jsonl`` file to write (replaced).
    url : str, default ``"/v1/chat/completions"``

    Returns
    -------
    int
        Requests written.
    """
    seen: set[str] = set()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        for turn in plan:
            if turn.render_error or turn.key in seen:
                continue
            seen.add(turn.key)
            out.write(json.dumps({"custom_id": turn.key, "method": "POST", "url": url,
                                  "body": turn.body()}, ensure_ascii=True) + "\n")
    return len(seen)


def read_batch_output(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The replies of a batch output file by ``custom_id``: a ``Completion``, or an error text.

    Raises
    ------
    toolform.errors.DatasetError
        When a line is not a batch output record (the file and line are named).
    """
    from ..clients import Completion
    from ..errors import DatasetError

    replies: dict[str, Any] = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                key = record["custom_id"]
                response = record.get("response") or {}
                status = response.get("status_code")
                if record.get("error") or status != 200:
                    why = record.get("error") or response.get("body")
                    replies[key] = f"BatchError: HTTP {status}: {json.dumps(why)[:500]}"
                    continue
                body = response["body"]
                choice = body["choices"][0]
                message = choice["message"]
                usage = body.get("usage") or {}
                replies[key] = Completion(
                    text=message.get("content") or "", tool_calls=message.get("tool_calls"),
                    prompt_tokens=usage.get("prompt_tokens"),
                    completion_tokens=usage.get("completion_tokens"), latency_s=math.nan,
                    model=body.get("model", ""), finish_reason=choice.get("finish_reason"))
            except (ValueError, KeyError, TypeError, IndexError) as exc:
                raise DatasetError(f"batch output {path}, line {number}: not a batch output "
                                   f"record ({type(exc).__name__}: {exc})") from exc
    return replies


def import_batch_output(output: str | os.PathLike[str], plan: Sequence[Any],
                        cassette: str | os.PathLike[str]) -> int:
    """Append a batch output file's replies to a cassette, keyed as the plan's turns.

    Each successful reply becomes one cassette recording of its turn's request (the key,
    model, messages and parameters of the plan), so
    ``ReplayClient(cassette, mode="replay", model=...)`` replays the run offline.

    Parameters
    ----------
    output : path
        The batch output file.
    plan : Plan or sequence of PlannedTurn
        The plan the batch input was written from.
    cassette : path
        The cassette file (``.jsonl``) to append to.

    Returns
    -------
    int
        Recordings appended (failed requests are not recorded).
    """
    from ..journal import JournalWriter

    replies = read_batch_output(output)
    written: set[str] = set()
    with JournalWriter(cassette) as writer:
        for turn in plan:
            reply = replies.get(turn.key)
            if turn.key in written or reply is None or isinstance(reply, str):
                continue
            written.add(turn.key)
            writer.append(recording(turn, reply))
    return len(written)


class BatchExecutor:
    """Hand the runner the replies of a batch output file, matched to turns by plan key.

    Parameters
    ----------
    output : path
        The output file of a batch run of this plan's input file
        (:func:`write_batch_input`).

    A turn with no line in the output gives an error row naming the file (run it again once
    the reply is there, or with another executor).
    """

    name = "batch"

    def __init__(self, output: str | os.PathLike[str]) -> None:
        self.output = Path(output)

    def __repr__(self) -> str:
        return f"BatchExecutor({str(self.output)!r})"

    def execute(self, turns: Sequence[Any], clients: Mapping[str, Any], *,
                stop: Any = None) -> Iterator[Outcome]:
        """Yield each turn's reply from the output file (``clients`` is not used)."""
        from ..clients import Completion

        replies = read_batch_output(self.output)
        for turn in turns:
            if stop is not None and stop.is_set():
                return
            reply = replies.get(turn.key)
            if reply is None:
                yield Outcome(turn, None, f"BatchMissing: no reply for key {turn.key} in "
                                          f"{self.output}", error_kind="batch_missing",
                              attempts=0)
            elif isinstance(reply, str):
                yield Outcome(turn, None, reply, error_kind="batch_error", attempts=1)
            else:
                yield Outcome(turn, Completion(**{**reply.to_dict(), "model": turn.cell.model}))
