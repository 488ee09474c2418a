"""The cyclic garbage collector paused for the length of one scan (:func:`collector_paused`).

A scan of a large toolset keeps tens of thousands of small cache entries (sentence splits, word
sets, per-sentence readings, TS111's terms) while the toolset itself holds some 150,000 objects
for 10,000 tools. Every 700 new container objects start a collection, and every few dozen of
those a full one walks every object the process holds: on the 10,000-tool benchmark that was
about 11% of the scan's CPU time (0.13 s of 1.14 s), a share that grows with the caller's heap.
A scan makes no reference cycles that outlive it (what it drops is freed by reference counting),
so nothing is left for the collector to find when it runs again after the scan.
"""
from __future__ import annotations

import contextlib
import gc
from typing import Iterator

__all__ = ["collector_paused"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic garbage collector inside the block, and enable it again after (also
    on an error) when it was enabled before.

    The switch is process-wide: objects another thread makes meanwhile wait for the end of
    the block to be collected. A caller that had disabled the collector finds it still
    disabled after the block.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
