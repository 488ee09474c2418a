"""Append-only JSON Lines journals (run checkpoints, cassettes): durability and torn lines.

**Durability policy.** Every record is written whole with one ``write`` and flushed to the
operating system before the writer returns, so the turn it records is counted only once it is in
the file: a process kill (``kill -9``, a crashed kernel of a notebook, Ctrl-C) loses **0**
finished records. The file is ``fsync``'d to the disk every :data:`FSYNC_EVERY` records or
:data:`FSYNC_INTERVAL_S` seconds, whichever comes first, and on close, so a power loss or an
operating-system crash may lose **at most the last 256 records or the last second** of them
(they are re-run on resume, never half-counted). An ``fsync`` per record costs milliseconds on a
busy disk, more than the rest of a turn.

**Torn lines.** A record cut short (a power loss mid-write, a file copied while written) can
only be the last line of a journal. :func:`set_aside_torn_tail` moves such a tail into a side
file next to the journal (``<name>.torn``, appended to, never overwritten) and cuts the journal
back to its last newline, so the next record starts on a line of its own and the torn record's
turn is run again. Nothing is deleted silently: the side file keeps the bytes and a warning
names both files.
"""

from __future__ import annotations

import json
import os
import threading
import time
import warnings
from pathlib import Path
from typing import Any

__all__ = ["FSYNC_EVERY", "FSYNC_INTERVAL_S", "JournalWriter", "set_aside_torn_tail",
           "torn_side_file"]

#: Records written between two ``fsync`` calls, at most.
FSYNC_EVERY = 256
#: Seconds between two ``fsync`` calls, at most (checked when a record is written).
FSYNC_INTERVAL_S = 1.0


def torn_side_file(path: str | os.PathLike[str]) -> Path:
    """Where a journal's torn tails are kept: ``<path>.torn`` beside it."""
    path = Path(path)
    return path.with_name(path.name + ".torn")


def set_aside_torn_tail(path: str | os.PathLike[str]) -> bytes:
    """Move an unfinished last line of ``path`` into its side file; return the bytes moved.

    A journal's records each end with a newline, so any bytes after the last newline are a
    record cut short. They are appended to :func:`torn_side_file` (with a newline) and the
    journal is truncated to its last newline. A missing or complete file is left alone.

    Parameters
    ----------
    path : path
        The journal (a checkpoint or a cassette file).

    Returns
    -------
    bytes
        The torn tail (empty when there was none).

    Warns
    -----
    RuntimeWarning
        Naming the journal, the byte count and the side file, when a tail was set aside.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return b""
    if size == 0:
        return b""
    with open(path, "rb+") as handle:
        handle.seek(size - 1)
        if handle.read(1) == b"\n":
            return b""
        # read back in blocks until the last newline
        keep, step = size, 1 << 16
        while keep > 0:
            start = max(0, keep - step)
            handle.seek(start)
            block = handle.read(keep - start)
            at = block.rfind(b"\n")
            if at >= 0:
                keep = start + at + 1
                break
            keep = start
        handle.seek(keep)
        tail = handle.read()
        side = torn_side_file(path)
        with open(side, "ab") as out:
            out.write(tail + b"\n")
            out.flush()
            os.fsync(out.fileno())
        handle.truncate(keep)
        handle.flush()
        os.fsync(handle.fileno())
    warnings.warn(f"{path}: its last line was torn mid-write; dropping its {len(tail)} bytes "
                  f"from the file, kept in {side}; that record's turn will be run again",
                  RuntimeWarning, stacklevel=2)
    return tail


class JournalWriter:
    """Appends JSON records to a journal under the module's durability policy.

    Safe to share between threads. Opening sets aside a torn last line first.

    Parameters
    ----------
    path : path
        The journal; its folder is created when missing.
    fsync_every : int, default :data:`FSYNC_EVERY`
        Records between two ``fsync`` calls, at most.
    fsync_interval_s : float, default :data:`FSYNC_INTERVAL_S`
        Seconds between two ``fsync`` calls, at most.
    """

    def __init__(self, path: str | os.PathLike[str], *, fsync_every: int = FSYNC_EVERY,
                 fsync_interval_s: float = FSYNC_INTERVAL_S) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        set_aside_torn_tail(self.path)
        self.fsync_every = fsync_every
        self.fsync_interval_s = fsync_interval_s
        self._lock = threading.Lock()
        self._handle = open(self.path, "ab")
        self._unsynced = 0
        self._synced_at = time.monotonic()

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as one line, flushed to the OS before returning."""
        # ASCII escapes keep any text lossless, lone surrogates included, as valid UTF-8
        self.append_line(json.dumps(record, ensure_ascii=True, sort_keys=True, default=str)
                         .encode("ascii"))

    def append_line(self, line: bytes) -> None:
        """Write one already-encoded record (no newline) as one line."""
        with self._lock:
            self._handle.write(line + b"\n")
            self._handle.flush()
            self._unsynced += 1
            now = time.monotonic()
            if (self._unsynced >= self.fsync_every
                    or now - self._synced_at >= self.fsync_interval_s):
                os.fsync(self._handle.fileno())
                self._unsynced, self._synced_at = 0, now

    def close(self) -> None:
        """``fsync`` what is left and close the file (idempotent)."""
        with self._lock:
            if self._handle.closed:
                return
            self._handle.flush()
            if self._unsynced:
                os.fsync(self._handle.fileno())
            self._handle.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
