"""Executors: what sends a plan's requests and hands each reply back to the runner.

An executor takes the turns of a :class:`toolform.plan.Plan` still to run and yields an
:class:`Outcome` per turn, in any order, as replies arrive; the runner grades each one and
writes it to the checkpoint before taking the next, so whatever the executor, the same plan and
replies give the same verdict rows.

* :class:`LocalExecutor` (``"local"``, the default): a thread pool in this process, calling the
  run's clients;
* :class:`RayExecutor` (``"ray"``, extra ``toolform[ray]``): Ray actors, one per endpoint, over a
  list of base URLs per model, with a bound on requests in flight;
* :class:`BatchExecutor` (``"batch"``): the replies of an OpenAI Batch output file
  (:func:`write_batch_input` writes the input file; ``vllm run-batch`` reads the same format).
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Protocol, Sequence, runtime_checkable

from ..errors import InvalidParameterError
from ._base import ERROR_KINDS, Outcome
from ._batch import (BatchExecutor, import_batch_output, read_batch_output,
                     write_batch_input)
from ._local import LocalExecutor
from ._ray import RayExecutor

__all__ = ["BatchExecutor", "ERROR_KINDS", "Executor", "LocalExecutor", "Outcome", "RayExecutor",
           "get_executor", "import_batch_output", "read_batch_output", "write_batch_input"]


@runtime_checkable
class Executor(Protocol):
    """Anything that runs planned turns and yields their outcomes as they finish."""

    name: str

    def execute(self, turns: Sequence[Any], clients: Mapping[str, Any], *,
                stop: Any = None) -> Iterator[Outcome]:
        """Yield one :class:`Outcome` per turn (any order); stop starting turns once ``stop``
        (a ``threading.Event``) is set."""
        ...


def get_executor(executor: Executor | str | None, *, max_concurrency: int = 4) -> Executor:
    """An executor itself, or ``"local"`` (also None) at ``max_concurrency``.

    Raises
    ------
    ValueError
        For another name: ``"ray"`` and ``"batch"`` need their settings, so pass a
        :class:`RayExecutor` or :class:`BatchExecutor`.
    """
    if executor is None or executor == "local":
        return LocalExecutor(max_concurrency)
    if isinstance(executor, str):
        raise InvalidParameterError(f"executor {executor!r}: pass 'local', or a RayExecutor(...) or "
                         "BatchExecutor(...) with its settings")
    return executor
