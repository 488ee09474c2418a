"""Record model replies to a cassette and replay them, so runs and notebooks are deterministic.

A cassette is JSON Lines, one recording per line::

    {"key": "<sha256>", "request": {"model", "messages", "params"}, "response": <Completion dict>,
     "recorded_at": "<UTC ISO 8601>"}

``params`` is ``{"max_tokens", "temperature", "tools", "extra_body"}`` exactly as the caller passed
them (None means "the inner client's default"), and ``key`` is the SHA-256 of the canonical JSON
of ``{"model", "messages", "params"}`` (see :func:`request_key`).

A cassette path is either a file or a folder:

* a path ending in ``.jsonl`` is one file, read and appended to;
* any other path is a folder: every ``*.jsonl`` in it is read (in name order) and new recordings
  go to ``<folder>/recorded.jsonl``. Folders let a team keep recordings from several sessions
  side by side.

When a key is recorded twice, the recording read last wins (file order, then line order).

Recordings are appended under the checkpoint's durability policy (:mod:`toolform.journal`):
each is written whole with one ``write`` and flushed to the operating system before
``complete`` returns, so a process kill (``kill -9``, a crashed kernel) loses **0** recordings
already made; the file is ``fsync``'d every :data:`~toolform.journal.FSYNC_EVERY` recordings or
:data:`~toolform.journal.FSYNC_INTERVAL_S` seconds and on :meth:`ReplayClient.close` (also
called when the client is garbage-collected or the interpreter exits), so a power loss or an
operating-system crash may lose at most the last 256 recordings or the last second of them,
which a later run asks again. A recording torn mid-write can only be the last line: it is
skipped on reading and moved to ``<cassette>.torn`` before the next append.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
import warnings
import weakref
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import _jsontext as jsontext
from ..errors import CassetteMissError, DatasetError, InvalidParameterError
from ..journal import JournalWriter
from ._base import ChatClient, Completion
from ._policy import RetryPolicy

__all__ = ["MODES", "ReplayClient", "cassette_client", "request_key"]

#: The modes a :class:`ReplayClient` runs in.
MODES = ("auto", "record", "replay")

#: Where a folder cassette appends new recordings.
FOLDER_APPEND_NAME = "recorded.jsonl"


def request_key(model: str, messages: list[dict[str, Any]], *, max_tokens: int | None = None,
                temperature: float | None = None, tools: list[dict[str, Any]] | None = None,
                extra_body: dict[str, Any] | None = None) -> str:
    """The cassette key of a request: SHA-256 of its canonical JSON.

    Canonical JSON is ``json.dumps(..., sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)`` of ``{"model", "messages", "params": {"max_tokens", "temperature",
    "tools", "extra_body"}}``, with any lone surrogate written as its JSON ``\\u`` escape
    (:mod:`toolform._jsontext`), encoded as UTF-8. Dict key order does not change the key; any
    change of a value does. Any text has a key (lone surrogates, PEP 383's escapes of invalid
    UTF-8, NUL, megabytes); text without lone surrogates keys exactly as plain ``json.dumps``
    does, so the keys of recordings made before the escape was added are unchanged.

    Parameters
    ----------
    model : str
        The model id the request goes to.
    messages : list of dict
        The chat messages.
    max_tokens, temperature, tools, extra_body
        As passed to :meth:`ChatClient.complete` (None stays None: "the client's default").

    Returns
    -------
    str
        64 lowercase hex digits.
    """
    text = _canonical(_request(model, messages, max_tokens, temperature, tools, extra_body))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _request(model: str, messages: list[dict[str, Any]], max_tokens: int | None,
             temperature: float | None, tools: list[dict[str, Any]] | None,
             extra_body: dict[str, Any] | None) -> dict[str, Any]:
    return {"model": model, "messages": messages,
            "params": {"max_tokens": max_tokens, "temperature": temperature, "tools": tools,
                       "extra_body": extra_body}}


def _canonical(value: Any) -> str:
    # lone surrogates (a server's "\ud800", undecodable bytes) are written as their \uXXXX
    # escapes, so any text is valid UTF-8 and reads back the same; other text is unchanged,
    # and so are the keys of every cassette recorded before
    return jsontext.dumps(value, sort_keys=True, separators=(",", ":"))


class ReplayClient:
    """A client that answers from recorded replies, and records new ones through another client.

    Parameters
    ----------
    cassette : str or path
        A ``.jsonl`` file, or a folder of them (see the module docstring). It need not exist yet.
    inner : ChatClient, optional
        The client that answers what is not recorded. Required in ``"record"`` and ``"auto"``.
    mode : {"auto", "record", "replay"}, default "auto"
        ``"replay"``: only recordings, a miss raises :class:`~toolform.errors.CassetteMissError`;
        ``"record"``: always ask ``inner`` and append the reply; ``"auto"``: replay what is
        recorded, ask ``inner`` and append otherwise.
    model : str, optional
        The model id used in keys. Defaults to ``inner.model``; required when there is no inner.
    pace_s : float, default 0.0
        Seconds each replayed reply waits before it is returned (recorded ones only; a live
        reply takes its own time). A paced replay can be watched, stopped and resumed like a
        live run; 0 replays at full speed.

    Raises
    ------
    ValueError
        On an unknown mode, a missing ``inner`` in ``"record"``/``"auto"`` mode, no model id, a
        ``model`` that differs from ``inner.model``, or a negative ``pace_s``.
    toolform.errors.DatasetError
        When a cassette line other than the last of its file is not a valid recording (the file
        and line number are named). A truncated last line, as a crash mid-write leaves, is
        skipped with a warning and set aside in ``<cassette>.torn`` before the next append.

    Notes
    -----
    A replayed :class:`Completion` carries the recorded ``latency_s``, so latency statistics of a
    replayed run are those of the recorded one. Sampling at ``temperature > 0`` is recorded once
    per key: replays return that one sample. Safe to call from many threads; appends happen one
    line at a time under a lock, by the durability policy of the module docstring (flushed per
    recording, ``fsync``'d by count and time and on :meth:`close`). Usable as a context manager.

    Examples
    --------
    >>> from toolform.clients import OpenAICompatClient
    >>> live = OpenAICompatClient("http://127.0.0.1:8080/v1", "qwen2.5-coder-0.5b-instruct")
    >>> client = ReplayClient("replies.jsonl", live)                       # doctest: +SKIP
    >>> offline = ReplayClient("replies.jsonl", mode="replay",
    ...                        model="qwen2.5-coder-0.5b-instruct")         # doctest: +SKIP
    """

    def __init__(self, cassette: str | os.PathLike[str], inner: ChatClient | None = None, *,
                 mode: str = "auto", model: str | None = None, pace_s: float = 0.0) -> None:
        if mode not in MODES:
            raise InvalidParameterError(f"mode must be one of {MODES}, got {mode!r}")
        if not pace_s >= 0:
            raise InvalidParameterError(f"pace_s must be zero or more seconds, got {pace_s!r}")
        if inner is None and mode != "replay":
            raise InvalidParameterError(f"mode {mode!r} needs an inner client to ask; pass inner=...")
        if inner is not None and model is not None and model != inner.model:
            raise InvalidParameterError(f"model {model!r} differs from the inner client's {inner.model!r}")
        resolved = model if model is not None else getattr(inner, "model", None)
        if not resolved:
            raise InvalidParameterError("a replay-only client needs model=... to compute request keys")
        self.model: str = resolved
        self.inner = inner
        self.mode = mode
        self.pace_s = float(pace_s)
        path = Path(cassette)
        self.cassette = path
        self._append_path = path if path.suffix == ".jsonl" else path / FOLDER_APPEND_NAME
        self._lock = threading.Lock()
        self._records: dict[str, Completion] = {}
        self._writer: JournalWriter | None = None  # opened at the first recording
        self._load()

    def __repr__(self) -> str:
        return f"ReplayClient({str(self.cassette)!r}, mode={self.mode!r}, model={self.model!r})"

    def __len__(self) -> int:
        """Number of distinct recorded keys."""
        return len(self._records)

    def __contains__(self, key: object) -> bool:
        return key in self._records

    def close(self) -> None:
        """``fsync`` and close the cassette file recordings go to (idempotent; a later
        recording opens it again)."""
        with self._lock:
            writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()

    def __enter__(self) -> ReplayClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def describe(self) -> dict[str, Any]:
        """Run metadata: the inner client's description plus ``cassette``, ``mode`` and size.

        Returns
        -------
        dict
            ``client`` (``"ReplayClient"``), ``model``, ``cassette``, ``mode``, ``recordings``
            and, when there is an inner client, ``inner`` (its ``describe()``).
        """
        out: dict[str, Any] = {"client": "ReplayClient", "model": self.model,
                               "cassette": str(self.cassette), "mode": self.mode,
                               "recordings": len(self._records)}
        if self.inner is not None:
            out["inner"] = self.inner.describe()
        return out

    def key(self, messages: list[dict[str, Any]], *, max_tokens: int | None = None,
            temperature: float | None = None, tools: list[dict[str, Any]] | None = None,
            extra_body: dict[str, Any] | None = None) -> str:
        """This client's key for a request: :func:`request_key` with this client's model.

        Parameters
        ----------
        messages, max_tokens, temperature, tools, extra_body
            As for :meth:`complete`.

        Returns
        -------
        str
            64 lowercase hex digits.
        """
        return request_key(self.model, messages, max_tokens=max_tokens, temperature=temperature,
                           tools=tools, extra_body=extra_body)

    def complete(self, messages: list[dict[str, Any]], *, max_tokens: int | None = None,
                 temperature: float | None = None, tools: list[dict[str, Any]] | None = None,
                 extra_body: dict[str, Any] | None = None) -> Completion:
        """Answer from the cassette, or ask the inner client and record its reply.

        Parameters are those of :meth:`ChatClient.complete`; None values are recorded as None
        and passed on as None, so the inner client applies its own defaults.

        Returns
        -------
        Completion

        Raises
        ------
        toolform.errors.CassetteMissError
            In ``"replay"`` mode, when the request was never recorded (names key and cassette).
        toolform.errors.ClientError
            When the inner client fails.
        """
        request = _request(self.model, messages, max_tokens, temperature, tools, extra_body)
        text = _canonical(request)
        key = hashlib.sha256(text.encode("utf-8")).hexdigest()
        if self.mode != "record":
            with self._lock:
                found = self._records.get(key)
            if found is not None:
                if self.pace_s:
                    time.sleep(self.pace_s)
                return found
            if self.mode == "replay":
                raise CassetteMissError(key, str(self.cassette))
        assert self.inner is not None  # guaranteed by __init__ for record and auto
        completion = self.inner.complete(messages, max_tokens=max_tokens, temperature=temperature,
                                         tools=tools, extra_body=extra_body)
        line = {"key": key, "request": request, "response": completion.to_dict(),
                "recorded_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        self._append(key, line, completion)
        return completion

    # -- cassette I/O ---------------------------------------------------------------------------
    def _files(self) -> list[Path]:
        if self.cassette.suffix == ".jsonl":
            return [self.cassette] if self.cassette.is_file() else []
        if self.cassette.is_dir():
            return sorted(self.cassette.glob("*.jsonl"))
        return []

    def _load(self) -> None:
        for path in self._files():
            raw = path.read_bytes()
            lines = raw.decode("utf-8", errors="replace").split("\n")
            # With no final newline, the text after the last one is a record cut short mid-write.
            partial = len(lines) if not raw.endswith(b"\n") else None
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                    self._records[data["key"]] = Completion.from_dict(data["response"])
                except (ValueError, KeyError, TypeError) as exc:
                    if number == partial:
                        warnings.warn(f"cassette {path}: skipping truncated last line {number} "
                                      f"({exc})", RuntimeWarning, stacklevel=3)
                        continue
                    raise DatasetError(f"cassette {path}, line {number}: not a recording "
                                       f"({type(exc).__name__}: {exc})") from exc

    def _append(self, key: str, line: dict[str, Any], completion: Completion) -> None:
        data = _canonical(line).encode("utf-8")
        with self._lock:
            if self._writer is None:  # sets aside a torn last line (kept in <path>.torn)
                self._writer = JournalWriter(self._append_path)
                weakref.finalize(self, self._writer.close)  # fsync at collection or exit
            self._writer.append_line(data)
            self._records[key] = completion


def cassette_client(cassette: str | os.PathLike[str], model: str, *,
                    base_url: str | None = None, api_key: str | None = None,
                    max_concurrency: int = 4, pace_s: float = 0.0, timeout: float | None = None,
                    retries: int | None = None,
                    retry_policy: RetryPolicy | None = None) -> ReplayClient:
    """A client over a cassette: replay only, or recording what a live server answers.

    Parameters
    ----------
    cassette : path
        The cassette file (``.jsonl``) or folder.
    model : str
        The model id (part of every reply's key).
    base_url : str, optional
        An OpenAI-compatible endpoint. With it, replies already in the cassette are replayed and
        the others asked of the server and appended (``mode="auto"``); without it, the cassette is
        replayed offline and a missing reply raises ``CassetteMissError``.
    api_key : str, optional
        Key for the server, if it needs one.
    max_concurrency : int, default 4
        Requests in flight at once against the server.
    pace_s : float, default 0.0
        Seconds each replayed reply waits (see :class:`ReplayClient`).
    timeout, retries, retry_policy : optional
        The live server's per-attempt timeout in seconds, retries after the first attempt, and
        retry policy (see :class:`~toolform.clients.OpenAICompatClient`); unused offline.

    Returns
    -------
    ReplayClient
    """
    if base_url is None:
        return ReplayClient(cassette, model=model, mode="replay", pace_s=pace_s)
    from ._openai_compat import OpenAICompatClient

    live = OpenAICompatClient(base_url, model, api_key=api_key, max_concurrency=max_concurrency,
                              timeout=timeout, retries=retries, retry_policy=retry_policy)
    return ReplayClient(cassette, inner=live, mode="auto", pace_s=pace_s)
