"""The Ray executor: a plan's requests spread over many endpoints by Ray actors.

Each endpoint (one base URL of one model) gets one Ray actor holding an
``OpenAICompatClient``; an actor answers up to ``per_endpoint`` requests at once (a threaded
actor, it needs no CPU of its own). The driver, this process, sends each turn to the endpoint
of its model with the fewest requests in flight, keeps at most ``max_in_flight`` requests
outstanding in all (backpressure: a plan of any size holds only that many in memory), and
yields each reply as it arrives, so the runner writes it to the same checkpoint (and cassette)
as a local run. Ray is imported only when a run starts; without it the error gives the install
line. ``ray.init`` is called when no Ray runtime is up (``address=`` joins a cluster).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping, Sequence

from ..errors import InvalidParameterError
from ._base import Outcome, error_fields, failure

__all__ = ["RayExecutor"]


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        from ..errors import MissingDependencyError

        raise MissingDependencyError("ray", extra="ray", purpose="the ray executor") from None
    return ray


def _openai_client(base_url: str, model: str, **options: Any) -> Any:
    from ..clients import OpenAICompatClient

    return OpenAICompatClient(base_url, model, **options)


class _Endpoint:
    """The body of one endpoint's actor: a client, asked from the actor's threads."""

    def __init__(self, factory: Callable[..., Any], base_url: str, model: str,
                 options: dict[str, Any]) -> None:
        self.base_url = base_url
        self.client = factory(base_url, model, **options)

    def complete(self, messages: list[dict[str, Any]], max_tokens: int, temperature: float,
                 tools: list[dict[str, Any]] | None,
                 extra_body: dict[str, Any] | None = None) -> dict[str, Any]:
        extra = {"extra_body": extra_body} if extra_body is not None else {}
        try:
            reply = self.client.complete(messages, max_tokens=max_tokens,
                                         temperature=temperature, tools=tools, **extra)
        except Exception as exc:  # noqa: BLE001 - a server failure becomes a row
            return error_fields(exc)
        return {"completion": reply.to_dict()}


class RayExecutor:
    """Run turns as Ray actor calls over a list of base URLs per model.

    Parameters
    ----------
    endpoints : mapping of str to sequence of str
        For each model id, the base URLs of the servers that serve it
        (``{"qwen": ["http://gpu1:8000/v1", "http://gpu2:8000/v1"]}``). A model of the plan
        without endpoints gives a ``ValueError`` before anything is sent.
    per_endpoint : int, default 4
        Requests in flight at once on one endpoint.
    max_in_flight : int, optional
        Requests outstanding in all (default: ``per_endpoint`` × endpoints).
    client_options : dict, optional
        Keyword arguments of each endpoint's ``OpenAICompatClient`` (``timeout``,
        ``retries``, ``api_key``...).
    client_factory : callable, optional
        ``factory(base_url, model, **client_options)`` returning a ``ChatClient``, built inside
        each actor (default: ``OpenAICompatClient``). It must pickle (a module-level function).
    address : str, optional
        A Ray cluster to join (``"auto"``, ``"ray://head:10001"``); None starts a local one
        when none is running.
    init_options : dict, optional
        Extra keyword arguments of ``ray.init`` (``num_cpus=2``...).

    Raises
    ------
    toolform.errors.MissingDependencyError
        When a run starts and Ray is not installed (``pip install "toolform[ray]"``).
    """

    name = "ray"

    def __init__(self, endpoints: Mapping[str, Sequence[str]], *, per_endpoint: int = 4,
                 max_in_flight: int | None = None, client_options: dict[str, Any] | None = None,
                 client_factory: Callable[..., Any] | None = None, address: str | None = None,
                 init_options: dict[str, Any] | None = None) -> None:
        self.endpoints = {model: list(urls) for model, urls in endpoints.items()}
        if not all(self.endpoints.values()):
            raise InvalidParameterError(f"every model needs at least one base URL, got {self.endpoints}")
        self.per_endpoint = max(1, int(per_endpoint))
        n_endpoints = sum(len(urls) for urls in self.endpoints.values())
        self.max_in_flight = max_in_flight or self.per_endpoint * n_endpoints
        self.client_options = dict(client_options or {})
        self.client_factory = client_factory or _openai_client
        self.address = address
        self.init_options = dict(init_options or {})

    def __repr__(self) -> str:
        return f"RayExecutor({self.endpoints!r}, per_endpoint={self.per_endpoint})"

    def execute(self, turns: Sequence[Any], clients: Mapping[str, Any], *,
                stop: Any = None) -> Iterator[Outcome]:
        """Yield each turn's outcome as it arrives (``clients`` is not used: each actor
        builds its own from ``endpoints``)."""
        from ..clients import Completion

        missing = sorted({t.cell.model for t in turns} - set(self.endpoints))
        if missing:
            raise InvalidParameterError(f"RayExecutor has no endpoints for model(s) {missing}; "
                             f"it has {sorted(self.endpoints)}")
        if not turns:
            return
        ray = _import_ray()
        if not ray.is_initialized():
            ray.init(address=self.address, include_dashboard=False, log_to_driver=False,
                     **self.init_options)
        actor = ray.remote(num_cpus=0, max_concurrency=self.per_endpoint)(_Endpoint)
        options = {**self.client_options, "max_concurrency": self.per_endpoint} \
            if self.client_factory is _openai_client else self.client_options
        actors = {model: [actor.remote(self.client_factory, url, model, options) for url in urls]
                  for model, urls in self.endpoints.items()}
        load = {id(a): 0 for group in actors.values() for a in group}
        waiting: dict[Any, tuple[Any, Any]] = {}  # object ref -> (turn, actor)
        todo = iter(turns)
        try:
            while True:
                while len(waiting) < self.max_in_flight and not (stop and stop.is_set()):
                    turn = next(todo, None)
                    if turn is None:
                        break
                    target = min(actors[turn.cell.model], key=lambda a: load[id(a)])
                    load[id(target)] += 1
                    ref = target.complete.remote(turn.messages, turn.max_tokens,
                                                 turn.temperature, turn.tools, turn.extra_body)
                    waiting[ref] = (turn, target)
                if not waiting:
                    return
                ready, _ = ray.wait(list(waiting), num_returns=1)
                for ref in ready:
                    turn, target = waiting.pop(ref)
                    load[id(target)] -= 1
                    try:
                        result = ray.get(ref)
                    except Exception as exc:  # noqa: BLE001 - a dead actor becomes an error row
                        yield failure(turn, exc)
                        continue
                    if "error" in result:
                        yield Outcome(turn, None, **result)
                    else:
                        yield Outcome(turn, Completion.from_dict(result["completion"]))
        finally:
            for group in actors.values():
                for a in group:
                    ray.kill(a)
