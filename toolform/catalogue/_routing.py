"""The routing lab — a SIMULATION, not a measurement: no model is asked anything.

Tools and requests are vectors. Tools are grouped into domains: each domain has a centre, and a
tool is its domain's centre plus a spread of its own (``distinctiveness``: the larger, the less
alike the tools of one domain). A request is its target tool's vector plus noise
(``vagueness``: the larger, the further a request sits from the tool it means). Near-duplicate
tools are copies of another tool moved by a hair.

A router shows the chooser some of the tools:

* ``"all"`` — every tool;
* ``"exact"`` — the ``k`` tools nearest the request as a retriever sees it (the request plus
  the retriever's own noise, ``retriever_noise``: a retriever reads requests less well than the
  model does);
* ``"grouped"`` — the ``groups`` domains nearest the request first, then the ``k`` nearest
  tools inside them.

The chooser (standing in for the model) reads the tools it is shown and takes the one most like
the request after adding Gaussian noise whose standard deviation grows with the number it reads,
``0.01 + 0.012 * ln(n)`` (:func:`chooser_noise`): reading more tools makes it less sure. The
tokens a turn reads are the shown tools times a per-tool size taken from the study's cost table
(evidence ``cost``: mean tool-block tokens of a format over its 8 tools); latency is a stated
assumption (``call_overhead_s`` plus tokens at ``prefill_tokens_per_s``).

:meth:`RoutingLab.run` averages over simulated requests; :meth:`RoutingLab.per_request` lists
them, and :meth:`RoutingLab.trace` follows one step by step (:class:`RoutingTrace`: the right
tool, the shortlist with its scores and ranks, the pick, and the points of its picture).

Four missions (:data:`MISSIONS`) pose a routing problem each, with the settings to choose and a
check of success; every frame this module returns has ``simulation = True``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from ..errors import InvalidParameterError, NotFoundError
from ..evidence import load_evidence

__all__ = [
    "LAB_COLUMNS",
    "MISSIONS",
    "Mission",
    "MissionResult",
    "REQUEST_COLUMNS",
    "ROUTINGS",
    "RoutingLab",
    "RoutingTrace",
    "TRACE_COLUMNS",
    "TRACE_POINT_COLUMNS",
    "chooser_noise",
    "mission_grid",
    "run_mission",
    "tokens_per_tool",
]

#: How the lab routes requests to the chooser.
ROUTINGS = ("all", "exact", "grouped")

#: Declared columns of :meth:`RoutingLab.run`: (name, dtype, unit, meaning).
LAB_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("simulation", "bool", "", "always True: these figures come from the routing lab"),
    ("n_tools", "int64", "tools", "tools in the simulated catalogue (after any merge)"),
    ("n_domains", "int64", "domains", "domains the tools are grouped into"),
    ("routing", "string", "", "all, exact or grouped"),
    ("k", "int64", "tools", "tools shown by the router (n_tools for all)"),
    ("groups", "int64", "domains", "domains searched first (grouped routing)"),
    ("distinctiveness", "float64", "", "spread of tools inside a domain"),
    ("vagueness", "float64", "", "noise between a request and its tool"),
    ("near_duplicates", "int64", "tools", "near-duplicate tools in the catalogue"),
    ("merged", "bool", "", "near duplicates were merged into their originals"),
    ("n_requests", "int64", "requests", "simulated requests"),
    ("shown", "float64", "tools", "mean tools the chooser read"),
    ("chooser_noise", "float64", "", "noise standard deviation at the mean tools read"),
    ("recall", "float64", "percent", "the target tool was among those shown"),
    ("choice_accuracy", "float64", "percent", "right choice when the target was shown"),
    ("success", "float64", "percent", "the chooser took the target tool"),
    ("tokens", "float64", "tokens", "mean tool tokens read per request"),
    ("latency_s", "float64", "seconds", "mean simulated latency per request"),
)


#: Declared columns of :meth:`RoutingLab.per_request`: (name, dtype, unit, meaning).
REQUEST_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("simulation", "bool", "", "always True: these rows come from the routing lab"),
    ("request", "int64", "", "the request's position in the run"),
    ("target", "int64", "", "the right tool (the one the request means)"),
    ("target_domain", "int64", "", "the right tool's domain"),
    ("target_rank", "Int64", "", "the right tool's rank in the router's order (1 = first); "
                                 "missing for all routing or an unsearched domain"),
    ("in_shortlist", "bool", "", "the right tool was shown"),
    ("shown", "int64", "tools", "tools the chooser read"),
    ("pick", "int64", "", "the tool the chooser took"),
    ("pick_domain", "int64", "", "the picked tool's domain"),
    ("correct", "bool", "", "the pick is the right tool"),
)

#: Declared columns of :meth:`RoutingTrace.frame`: (name, dtype, unit, meaning).
TRACE_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("simulation", "bool", "", "always True: these rows come from the routing lab"),
    ("tool", "int64", "", "a tool shown to the chooser"),
    ("domain", "int64", "", "its domain"),
    ("router_rank", "Int64", "", "its rank in the router's order (1 = first); missing for all"),
    ("router_score", "float64", "cosine", "the router's score: similarity to its noisier "
                                          "reading of the request; NaN for all"),
    ("similarity", "float64", "cosine", "similarity to the request as the chooser reads it"),
    ("chooser_score", "float64", "cosine", "similarity plus the chooser's noise"),
    ("chooser_rank", "int64", "", "rank by chooser_score among the tools shown (1 = the pick)"),
    ("right_tool", "bool", "", "the tool the request means"),
    ("picked", "bool", "", "the tool the chooser took"),
)

#: Declared columns of :meth:`RoutingTrace.points`: (name, dtype, unit, meaning).
TRACE_POINT_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("mark", "string", "", "tool, request, shortlist, right tool or pick"),
    ("tool", "int64", "", "the tool (for the request: the right tool)"),
    ("domain", "int64", "", "the tool's domain"),
    ("near_duplicate", "bool", "", "the tool is a near-duplicate copy"),
    ("x", "float64", "", "first principal component of the catalogue"),
    ("y", "float64", "", "second principal component of the catalogue"),
)


def chooser_noise(n_read: float | np.ndarray) -> float | np.ndarray:
    """The chooser's noise when it reads ``n_read`` tools: ``0.01 + 0.012 * ln(n_read)``.

    Parameters
    ----------
    n_read : float or array
        Tools read (at least 1).

    Returns
    -------
    float or numpy.ndarray
        A standard deviation on the cosine-similarity scale.
    """
    return 0.01 + 0.012 * np.log(n_read)


def tokens_per_tool(format_id: str = "json_schema_openai") -> float:
    """Mean tokens one tool takes in ``format_id``, from the study's cost table.

    Parameters
    ----------
    format_id : str, default "json_schema_openai"
        A core format (the ``cost`` table holds the eight).

    Returns
    -------
    float
        The table's mean tool-block tokens divided by its catalogue size (its ``n_tools``
        condition).

    Raises
    ------
    ValueError
        When the format is not in the cost table.
    """
    table = load_evidence("cost")
    for row in table.rows:
        if row["format_id"] == format_id:
            return row["schema_tokens"] / table.conditions["n_tools"]
    raise InvalidParameterError(
        f"format must be one of {[r['format_id'] for r in table.rows]} (evidence "
        f"table cost), got {format_id!r}")


# How far a near duplicate sits from its original, relative to a tool's own spread.
_TWIN_GAP = 0.02


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def _typed(rows: list[dict[str, Any]], columns: Sequence[tuple[str, str, str, str]]
           ) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=[c[0] for c in columns])
    return frame.astype({c[0]: c[1] for c in columns})


@dataclass(frozen=True)
class _Simulation:
    """One simulated batch of requests: every array the run, the per-request frame and the
    trace read (tools are positions in ``keep``; ``target`` and ``choice`` are tool ids)."""

    k: int                            # tools the router keeps (n for all)
    keep: np.ndarray                  # (n,) tool ids left in the catalogue
    target: np.ndarray                # (requests,) the right tool's id
    position: np.ndarray              # (requests,) the right tool's position in keep
    request: np.ndarray               # (requests, dim) unit request vectors
    shown: np.ndarray                 # (requests, n) bool
    router_scores: np.ndarray | None  # (requests, n), -inf outside searched domains
    searched: np.ndarray | None       # (requests, groups) domain ids
    sims: np.ndarray                  # (requests, n) request-tool cosine similarity
    noisy: np.ndarray                 # (requests, n) what the chooser compares
    n_read: np.ndarray                # (requests,) tools shown
    choice: np.ndarray                # (requests,) the picked tool's id
    hit: np.ndarray                   # (requests,) the right tool was shown
    right: np.ndarray                 # (requests,) the pick is the right tool


def _router_rank(sim: _Simulation, i: int) -> int | None:
    """The right tool's rank (1 = first) in the router's order for request ``i``.

    None for ``all`` routing (no router) or when its domain was not searched.
    """
    if sim.router_scores is None:
        return None
    scores = sim.router_scores[i]
    j = sim.position[i]
    if not np.isfinite(scores[j]):
        return None
    order = np.argsort(-scores, kind="stable")
    return int(np.flatnonzero(order == j)[0]) + 1


@dataclass(frozen=True)
class RoutingTrace:
    """One simulated request followed through the router and the chooser (a SIMULATION).

    Made by :meth:`RoutingLab.trace`. Tools are numbered as in the lab (``0 …
    n_tools + near_duplicates - 1``); domains ``0 … n_domains - 1``.

    Attributes
    ----------
    request : int
        The request's position in the run (``0 … n_requests - 1``).
    n_requests : int
        Requests in the run it belongs to.
    n_tools : int
        Tools in the catalogue (after any merge).
    target, target_domain : int
        The right tool (the one the request means) and its domain.
    routing : str
        ``all``, ``exact`` or ``grouped``.
    k : int
        Tools the router keeps (``n_tools`` for ``all``).
    groups : int
        Domains ``grouped`` routing searches.
    merged : bool
        Near duplicates were merged into their originals.
    domains_searched : tuple of int
        The domains ``grouped`` routing searched, nearest first (empty otherwise).
    shortlist : tuple of int
        The tools shown, in the router's order (in the chooser's order for ``all``).
    target_rank : int or None
        The right tool's rank in the router's order over every tool it could see (1 = first;
        on the shortlist when ``<= k``); None for ``all`` or when its domain was not searched.
    in_shortlist : bool
        The right tool was shown.
    pick, pick_domain : int
        The tool the chooser took and its domain.
    correct : bool
        The pick is the right tool.
    chooser_noise : float
        Standard deviation of the chooser's noise for this many tools (:func:`chooser_noise`).
    tokens : float
        Tool tokens read, in tokens (tools shown × :func:`tokens_per_tool`).
    latency_s : float
        Simulated latency, in seconds.
    table, picture : pandas.DataFrame
        What :meth:`frame` and :meth:`points` return copies of.
    """

    request: int
    n_requests: int
    n_tools: int
    target: int
    target_domain: int
    routing: str
    k: int
    groups: int
    merged: bool
    domains_searched: tuple[int, ...]
    shortlist: tuple[int, ...]
    target_rank: int | None
    in_shortlist: bool
    pick: int
    pick_domain: int
    correct: bool
    chooser_noise: float
    tokens: float
    latency_s: float
    table: pd.DataFrame = field(repr=False)
    picture: pd.DataFrame = field(repr=False)

    @property
    def simulation(self) -> bool:
        """Always True: a trace comes from the routing lab, not from a model."""
        return True

    def frame(self) -> pd.DataFrame:
        """The tools shown, one row each (a SIMULATION).

        Returns
        -------
        pandas.DataFrame
            ``len(shortlist)`` rows, columns :data:`TRACE_COLUMNS`, in the router's order (in
            the chooser's order for ``all``); the row with ``chooser_rank`` 1 is the pick.
        """
        return self.table.copy()

    def points(self) -> pd.DataFrame:
        """The picture's data: every tool on the catalogue's plane, then the highlights.

        Returns
        -------
        pandas.DataFrame
            Columns :data:`TRACE_POINT_COLUMNS`, long form: one ``mark="tool"`` row per tool
            of the catalogue, one ``request`` row (the request projected on the same plane;
            its ``tool`` is the right tool), and a ``shortlist``, ``right tool`` or ``pick``
            row per highlighted tool (a tool may carry several). ``x`` and ``y`` are the first
            two principal components of the unit tool vectors (unitless).
        """
        return self.picture.copy()

    def steps(self) -> pd.DataFrame:
        """What happened, in words, one row per step (a SIMULATION).

        Returns
        -------
        pandas.DataFrame
            Columns ``step`` and ``what_happened``; steps ``request``, ``router``,
            ``shortlist``, ``right tool shown``, ``pick`` and ``outcome``.
        """
        if self.routing == "all":
            router = f"no router: all {self.n_tools} tools are shown"
        elif self.routing == "exact":
            router = (f"the retriever scores all {self.n_tools} tools against its own, noisier "
                      f"reading of the request and keeps the top {self.k}")
        else:
            router = (f"the router searches the {len(self.domains_searched)} domains nearest "
                      f"its reading of the request ({', '.join(map(str, self.domains_searched))}"
                      f") and keeps the top {self.k} tools in them")
        listed = ", ".join(map(str, self.shortlist[:12]))
        if len(self.shortlist) > 12:
            listed += f" … ({len(self.shortlist)} tools)"
        if self.routing == "all":
            shown = "yes (every tool is shown)"
        elif self.in_shortlist:
            shown = f"yes, at router rank {self.target_rank}"
        elif self.target_rank is None:
            shown = f"no: its domain {self.target_domain} was not searched"
        else:
            shown = f"no: the router ranked it {self.target_rank}, outside the top {self.k}"
        rows = [
            ("request", f"request {self.request} of {self.n_requests} means tool {self.target} "
                        f"(domain {self.target_domain})"),
            ("router", router),
            ("shortlist", listed),
            ("right tool shown", shown),
            ("pick", f"the chooser reads {len(self.shortlist)} "
                     f"tool{'s' if len(self.shortlist) > 1 else ''} with noise "
                     f"{self.chooser_noise:.3f} and takes tool {self.pick} (domain "
                     f"{self.pick_domain})"),
            ("outcome", "right tool" if self.correct else
             ("wrong tool" if self.in_shortlist else "wrong tool: the right one was not shown")),
        ]
        return pd.DataFrame(rows, columns=["step", "what_happened"])

    def __repr__(self) -> str:
        return (f"RoutingTrace(simulation, request={self.request}, routing={self.routing!r}, "
                f"k={self.k}, target={self.target}, in_shortlist={self.in_shortlist}, "
                f"pick={self.pick}, correct={self.correct})")


class RoutingLab:
    """A simulated catalogue and its requests (a SIMULATION: see the module docstring).

    Parameters
    ----------
    n_tools : int, default 300
        Distinct tools (near duplicates come on top).
    n_domains : int, default 12
        Domains the tools are spread over, round robin.
    distinctiveness : float, default 0.5
        Spread of a tool around its domain's centre, relative to the spread of the centres (0:
        every tool of a domain is the same; larger: tools of a domain differ more).
    vagueness : float, default 0.2
        Noise between a request and its target tool, on the same scale.
    near_duplicates : int, default 0
        Tools copied (moved by a hair) into the catalogue as near duplicates; their requests
        target the copy.
    retriever_noise : float, default 1.0
        Extra noise in the request as the retriever reads it, on the same scale (a retriever
        matches words; the model reads intent).
    dim : int, default 32
        Vector dimension.
    format_id : str, default "json_schema_openai"
        Sets the tokens per tool (:func:`tokens_per_tool`).
    call_overhead_s : float, default 0.5
        Assumed fixed latency of one model call, in seconds.
    prefill_tokens_per_s : float, default 2000.0
        Assumed reading speed of the model, in tokens per second.
    seed : int, default 0
        Seeds the catalogue; requests are seeded in :meth:`run`.

    Raises
    ------
    ValueError
        On a non-positive size, a negative setting, or more near duplicates than tools.
    """

    def __init__(self, n_tools: int = 300, n_domains: int = 12, *, distinctiveness: float = 0.5,
                 vagueness: float = 0.2, near_duplicates: int = 0, retriever_noise: float = 1.0,
                 dim: int = 32, format_id: str = "json_schema_openai",
                 call_overhead_s: float = 0.5, prefill_tokens_per_s: float = 2000.0,
                 seed: int = 0) -> None:
        for name, value in (("n_tools", n_tools), ("n_domains", n_domains), ("dim", dim)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidParameterError(f"{name} must be a positive integer, got {value!r}")
        for name, value in (("distinctiveness", distinctiveness), ("vagueness", vagueness),
                            ("retriever_noise", retriever_noise),
                            ("call_overhead_s", call_overhead_s)):
            if value < 0:
                raise InvalidParameterError(f"{name} must be >= 0, got {value!r}")
        if not 0 <= near_duplicates <= n_tools:
            raise InvalidParameterError(f"near_duplicates must be in [0, n_tools={n_tools}], got "
                                        f"{near_duplicates!r}")
        if prefill_tokens_per_s <= 0:
            raise InvalidParameterError(
                f"prefill_tokens_per_s must be > 0, got {prefill_tokens_per_s!r}")
        self.n_domains = min(n_domains, n_tools)
        self.distinctiveness = float(distinctiveness)
        self.vagueness = float(vagueness)
        self.near_duplicates = near_duplicates
        self.retriever_noise = float(retriever_noise)
        self.tokens_per_tool = tokens_per_tool(format_id)
        self.call_overhead_s = float(call_overhead_s)
        self.prefill_tokens_per_s = float(prefill_tokens_per_s)
        rng = np.random.default_rng(seed)
        # Centres, spreads and noises are all standard normal, so the settings are ratios of
        # like-sized parts; vectors are made unit length only when compared.
        centres = rng.standard_normal((self.n_domains, dim))
        domain = np.arange(n_tools) % self.n_domains
        raw = centres[domain] + self.distinctiveness * rng.standard_normal((n_tools, dim))
        originals = rng.choice(n_tools, size=near_duplicates, replace=False)
        twins = raw[originals] + _TWIN_GAP * rng.standard_normal((near_duplicates, dim))
        #: Tool vectors before normalising, shape (n_tools + near_duplicates, dim).
        self.raw = np.vstack([raw, twins])
        #: Tool vectors, unit length.
        self.vectors = _unit(self.raw)
        #: Each tool's domain index.
        self.domain = np.concatenate([domain, domain[originals]])
        #: For each tool, the tool it duplicates (its own index for an original).
        self.original = np.concatenate([np.arange(n_tools), originals])

    def __repr__(self) -> str:
        return (f"RoutingLab(simulation, {len(self.vectors)} tools, {self.n_domains} domains, "
                f"distinctiveness={self.distinctiveness}, vagueness={self.vagueness}, "
                f"near_duplicates={self.near_duplicates})")

    def _simulate(self, routing: str, k: int, groups: int, n_requests: int,
                  merge_duplicates: bool, seed: int) -> _Simulation:
        """Draw ``n_requests`` requests and route them (shared by run, per_request and trace)."""
        if routing not in ROUTINGS:
            raise InvalidParameterError(f"routing must be one of {ROUTINGS}, got {routing!r}")
        for name, value in (("k", k), ("groups", groups), ("n_requests", n_requests)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InvalidParameterError(f"{name} must be a positive integer, got {value!r}")
        rng = np.random.default_rng(seed)
        dim = self.vectors.shape[1]
        target = rng.integers(0, len(self.vectors), size=n_requests)
        raw = self.raw[target] + self.vagueness * rng.standard_normal((n_requests, dim))
        request = _unit(raw)
        seen_by_router = _unit(raw + self.retriever_noise * rng.standard_normal((n_requests, dim)))
        if merge_duplicates:
            keep = np.flatnonzero(self.original == np.arange(len(self.vectors)))
            target = self.original[target]
        else:
            keep = np.arange(len(self.vectors))
        vectors, domain = self.vectors[keep], self.domain[keep]
        n = len(keep)
        k = n if routing == "all" else min(k, n)
        shown, router_scores, searched = self._route(seen_by_router, vectors, domain, routing, k,
                                                     groups)
        # The chooser: similarity to the request plus noise that grows with the tools read.
        sims = request @ vectors.T
        n_read = shown.sum(axis=1)
        noisy = sims + chooser_noise(n_read)[:, None] * rng.standard_normal(sims.shape)
        choice = keep[np.argmax(np.where(shown, noisy, -np.inf), axis=1)]
        position = np.searchsorted(keep, target)
        hit = shown[np.arange(n_requests), position]
        return _Simulation(k=k, keep=keep, target=target, position=position, request=request,
                           shown=shown, router_scores=router_scores, searched=searched,
                           sims=sims, noisy=noisy, n_read=n_read, choice=choice, hit=hit,
                           right=choice == target)

    def run(self, *, routing: str = "exact", k: int = 8, groups: int = 2,
            n_requests: int = 500, merge_duplicates: bool = False, seed: int = 1) -> pd.DataFrame:
        """Simulate ``n_requests`` requests routed one way (a SIMULATION).

        Parameters
        ----------
        routing : {"all", "exact", "grouped"}, default "exact"
        k : int, default 8
            Tools shown by ``exact`` and ``grouped`` routing (ignored for ``all``).
        groups : int, default 2
            Domains searched by ``grouped`` routing.
        n_requests : int, default 500
            Requests, each for a tool drawn uniformly from the catalogue.
        merge_duplicates : bool, default False
            Fix the catalogue: merge each near duplicate into its original, so a request for
            either is served by the one tool left.
        seed : int, default 1
            Seeds the requests and the noise.

        Returns
        -------
        pandas.DataFrame
            One row, columns :data:`LAB_COLUMNS` (``simulation`` True): the means over the
            requests of :meth:`per_request`.

        Raises
        ------
        ValueError
            On an unknown routing or a non-positive ``k``, ``groups`` or ``n_requests``.
        """
        sim = self._simulate(routing, k, groups, n_requests, merge_duplicates, seed)
        hit, right = sim.hit, sim.right
        tokens = sim.n_read * self.tokens_per_tool
        row = {
            "simulation": True, "n_tools": len(sim.keep), "n_domains": self.n_domains,
            "routing": routing, "k": sim.k, "groups": groups,
            "distinctiveness": self.distinctiveness, "vagueness": self.vagueness,
            "near_duplicates": self.near_duplicates, "merged": merge_duplicates,
            "n_requests": n_requests, "shown": float(sim.n_read.mean()),
            "chooser_noise": float(chooser_noise(sim.n_read.mean())),
            "recall": 100 * float(hit.mean()),
            "choice_accuracy": 100 * float(right[hit].mean()) if hit.any() else math.nan,
            "success": 100 * float(right.mean()), "tokens": float(tokens.mean()),
            "latency_s": float(np.mean(self.call_overhead_s
                                       + tokens / self.prefill_tokens_per_s)),
        }
        return _typed([row], LAB_COLUMNS)

    def per_request(self, *, routing: str = "exact", k: int = 8, groups: int = 2,
                    n_requests: int = 500, merge_duplicates: bool = False, seed: int = 1
                    ) -> pd.DataFrame:
        """Each simulated request of :meth:`run`, one row each (a SIMULATION).

        Parameters
        ----------
        routing, k, groups, n_requests, merge_duplicates, seed
            As :meth:`run`; the same settings give the same requests, so the means of this
            frame's ``in_shortlist`` and ``correct`` are :meth:`run`'s ``recall`` and
            ``success`` (as proportions).

        Returns
        -------
        pandas.DataFrame
            ``n_requests`` rows, columns :data:`REQUEST_COLUMNS`, in request order.

        Raises
        ------
        ValueError
            As :meth:`run`.
        """
        sim = self._simulate(routing, k, groups, n_requests, merge_duplicates, seed)
        ranks = [_router_rank(sim, i) for i in range(n_requests)]
        rows = [{
            "simulation": True, "request": i, "target": int(sim.target[i]),
            "target_domain": int(self.domain[sim.target[i]]),
            "target_rank": pd.NA if ranks[i] is None else ranks[i],
            "in_shortlist": bool(sim.hit[i]), "shown": int(sim.n_read[i]),
            "pick": int(sim.choice[i]), "pick_domain": int(self.domain[sim.choice[i]]),
            "correct": bool(sim.right[i]),
        } for i in range(n_requests)]
        return _typed(rows, REQUEST_COLUMNS)

    def trace(self, request: int = 0, *, routing: str = "exact", k: int = 8, groups: int = 2,
              n_requests: int = 500, merge_duplicates: bool = False, seed: int = 1
              ) -> RoutingTrace:
        """What happened to one simulated request, step by step (a SIMULATION).

        The request is number ``request`` of the :meth:`run` with the same settings (same
        target, same noise, same pick), so a trace can be read beside the run's averages.

        Parameters
        ----------
        request : int, default 0
            The request's position in the run, in ``[0, n_requests)``.
        routing, k, groups, n_requests, merge_duplicates, seed
            As :meth:`run`.

        Returns
        -------
        RoutingTrace
            The request's right tool, the router's shortlist with its scores and ranks,
            whether the right tool was on it, the chooser's pick and whether it was right;
            :meth:`RoutingTrace.frame` (the tools shown), :meth:`RoutingTrace.steps` (the
            steps in words) and :meth:`RoutingTrace.points` (the picture's data, for
            :func:`toolform.charts.routing_trace_chart`).

        Raises
        ------
        ValueError
            As :meth:`run`, or when ``request`` is outside ``[0, n_requests)``.
        """
        sim = self._simulate(routing, k, groups, n_requests, merge_duplicates, seed)
        if (isinstance(request, bool) or not isinstance(request, (int, np.integer))
                or not 0 <= request < n_requests):
            raise InvalidParameterError(
                f"request must be an integer in [0, n_requests={n_requests}), got "
                f"{request!r}")
        i = int(request)
        keep = sim.keep
        shown = np.flatnonzero(sim.shown[i])
        scores = sim.router_scores[i] if sim.router_scores is not None else None
        if scores is not None:
            shown = shown[np.argsort(-scores[shown], kind="stable")]
            router_rank = np.empty(len(keep), dtype=np.int64)
            router_rank[np.argsort(-scores, kind="stable")] = np.arange(1, len(keep) + 1)
        chooser_order = shown[np.argsort(-sim.noisy[i, shown], kind="stable")]
        chooser_rank = {int(j): r for r, j in enumerate(chooser_order, start=1)}
        target, pick = int(sim.target[i]), int(sim.choice[i])
        rows = [{
            "simulation": True, "tool": int(keep[j]), "domain": int(self.domain[keep[j]]),
            "router_rank": pd.NA if scores is None else int(router_rank[j]),
            "router_score": math.nan if scores is None else float(scores[j]),
            "similarity": float(sim.sims[i, j]), "chooser_score": float(sim.noisy[i, j]),
            "chooser_rank": chooser_rank[int(j)], "right_tool": int(keep[j]) == target,
            "picked": int(keep[j]) == pick,
        } for j in (shown if scores is not None else chooser_order)]
        table = _typed(rows, TRACE_COLUMNS)
        n_read = int(sim.n_read[i])
        tokens = n_read * self.tokens_per_tool
        return RoutingTrace(
            request=i, n_requests=n_requests, n_tools=len(keep), target=target,
            target_domain=int(self.domain[target]), routing=routing, k=sim.k, groups=groups,
            merged=merge_duplicates,
            domains_searched=tuple(int(d) for d in sim.searched[i]) if sim.searched is not None
            else (),
            shortlist=tuple(int(t) for t in table["tool"]),
            target_rank=_router_rank(sim, i), in_shortlist=bool(sim.hit[i]), pick=pick,
            pick_domain=int(self.domain[pick]), correct=bool(sim.right[i]),
            chooser_noise=float(chooser_noise(n_read)), tokens=float(tokens),
            latency_s=self.call_overhead_s + tokens / self.prefill_tokens_per_s,
            table=table, picture=self._picture(sim, i),
        )

    def _picture(self, sim: _Simulation, i: int) -> pd.DataFrame:
        """The tidy points of :meth:`RoutingTrace.points` for request ``i``."""
        vectors = self.vectors[sim.keep]
        centre = vectors.mean(axis=0)
        # The plane of the catalogue's first two principal components; the request is
        # projected onto the same plane.
        _, _, axes = np.linalg.svd(vectors - centre, full_matrices=False)
        xy = (vectors - centre) @ axes[:2].T
        request_xy = (sim.request[i] - centre) @ axes[:2].T
        ids = sim.keep
        position = {int(t): j for j, t in enumerate(ids)}
        rows = [{"mark": "tool", "tool": int(t), "domain": int(self.domain[t]),
                 "near_duplicate": bool(self.original[t] != t), "x": float(xy[j, 0]),
                 "y": float(xy[j, 1])} for j, t in enumerate(ids)]
        rows.append({"mark": "request", "tool": int(sim.target[i]),
                     "domain": int(self.domain[sim.target[i]]), "near_duplicate": False,
                     "x": float(request_xy[0]), "y": float(request_xy[1])})
        highlights = [("shortlist", int(ids[j])) for j in np.flatnonzero(sim.shown[i])]
        highlights += [("right tool", int(sim.target[i])), ("pick", int(sim.choice[i]))]
        for mark, t in highlights:
            j = position[t]
            rows.append({**rows[j], "mark": mark})
        return _typed(rows, TRACE_POINT_COLUMNS)

    def _route(self, query: np.ndarray, vectors: np.ndarray, domain: np.ndarray, routing: str,
               k: int, groups: int
               ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
        """The tools each request is shown, and how the router got there.

        Returns the mask (requests × tools), the router's scores (requests × tools; cosine
        similarity of its reading of the request and each tool, ``-inf`` outside the searched
        domains; None for ``all``) and the domains searched (requests × groups; ``grouped``
        only, else None).
        """
        n_requests, n = len(query), len(vectors)
        if routing == "all":
            return np.ones((n_requests, n), dtype=bool), None, None
        scores = query @ vectors.T
        searched = None
        if routing == "grouped":
            present = np.unique(domain)
            centres = _unit(np.stack([vectors[domain == d].mean(axis=0) for d in present]))
            nearest = np.argsort(-(query @ centres.T), axis=1)[:, :min(groups, len(present))]
            searched = present[nearest]
            allowed = (domain[None, None, :] == searched[:, :, None]).any(axis=1)
            scores = np.where(allowed, scores, -np.inf)
        # Only the set of the k best matters here (ties between continuous scores do not
        # happen; -inf ties are masked below), so a partition is enough.
        top = np.argpartition(-scores, k - 1, axis=1)[:, :k] if k < n else np.arange(n)[None, :]
        mask = np.zeros((n_requests, n), dtype=bool)
        np.put_along_axis(mask, top, True, axis=1)
        return mask & np.isfinite(scores), scores, searched

    def sweep(self, ks: Sequence[int] = (1, 2, 4, 8, 16, 32, 64), *, routing: str = "exact",
              **run_options: Any) -> pd.DataFrame:
        """:meth:`run` at each ``k`` (a SIMULATION), one row per ``k``, plus one ``all`` row."""
        frames = [self.run(routing=routing, k=k, **run_options) for k in ks]
        frames.append(self.run(routing="all", **run_options))
        return pd.concat(frames, ignore_index=True)


@dataclass(frozen=True)
class Mission:
    """One routing-lab mission: a simulated catalogue, what to choose, and the goal.

    Attributes
    ----------
    id : str
    title : str
    brief : str
        The problem and what the player may change.
    lab : mapping
        :class:`RoutingLab` settings of the catalogue.
    choices : tuple of str
        :meth:`RoutingLab.run` options the player sets.
    min_success : float
        Success needed, in percent of simulated requests.
    max_tokens : float or None
        Most tool tokens a request may read on average.
    max_latency_s : float or None
        Most simulated seconds a request may take on average.
    """

    id: str
    title: str
    brief: str
    lab: Mapping[str, Any]
    choices: tuple[str, ...]
    min_success: float
    max_tokens: float | None = None
    max_latency_s: float | None = None


#: The four missions, by id. Goals are the lab's own targets, not study results.
MISSIONS: dict[str, Mission] = {m.id: m for m in (
    Mission("shortlist_300", "A shortlist for 300 tools",
            "300 tools in 12 domains. Shown whole, the chooser drowns; shown one, the retriever's "
            "first guess is too often wrong. Pick a routing and k so that the right tool is "
            "chosen often enough.",
            {"n_tools": 300}, ("routing", "k", "groups"), min_success=85.0),
    Mission("vague_k", "k under vague requests",
            "The same 300 tools, but requests are vague: they sit far from the tool they mean. "
            "A small k misses the tool; a large k confuses the chooser. Find a k that works.",
            {"n_tools": 300, "vagueness": 0.6}, ("routing", "k", "groups"), min_success=75.0),
    Mission("near_duplicates", "Near duplicates",
            "60 of the 300 tools have a near-duplicate twin, and requests ask for either. No k "
            "tells twins apart: fix the catalogue.",
            {"n_tools": 300, "near_duplicates": 60},
            ("routing", "k", "groups", "merge_duplicates"), min_success=85.0),
    Mission("tripled_budget", "A tripled catalogue on a budget",
            "The catalogue triples to 900 tools in the same 12 domains, and each request may "
            "read at most 6,000 tool tokens and take at most 3.5 simulated seconds. Keep "
            "success up.",
            {"n_tools": 900}, ("routing", "k", "groups"), min_success=85.0,
            max_tokens=6000.0, max_latency_s=3.5),
)}


@dataclass(frozen=True)
class MissionResult:
    """A mission played once (a SIMULATION).

    Attributes
    ----------
    mission : Mission
    result : pandas.DataFrame
        :meth:`RoutingLab.run`'s row.
    checks : dict of str to bool
        Each goal and whether it was met (``success``, and ``tokens`` / ``latency`` when the
        mission has a budget).
    passed : bool
        Every check was met.
    """

    mission: Mission
    result: pd.DataFrame
    checks: dict[str, bool]

    @property
    def passed(self) -> bool:
        """True when every check was met."""
        return all(self.checks.values())

    def __repr__(self) -> str:
        row = self.result.iloc[0]
        return (f"MissionResult({self.mission.id!r}, simulation, success={row['success']:.1f}%, "
                f"passed={self.passed})")


def _mission(mission_id: str) -> Mission:
    """The mission with this id; raises ``NotFoundError`` listing the missions."""
    try:
        return MISSIONS[mission_id]
    except (KeyError, TypeError):
        raise NotFoundError(f"unknown mission {mission_id!r}; missions: {', '.join(MISSIONS)}",
                            key=mission_id) from None


def run_mission(mission_id: str, *, n_requests: int = 500, seed: int = 1,
                **choices: Any) -> MissionResult:
    """Play one mission with the given choices (a SIMULATION).

    Parameters
    ----------
    mission_id : str
        A key of :data:`MISSIONS`.
    n_requests, seed
        As :meth:`RoutingLab.run`.
    **choices
        The mission's ``choices`` (``routing``, ``k``, ``groups``, ``merge_duplicates``).

    Returns
    -------
    MissionResult

    Raises
    ------
    NotFoundError
        For an unknown mission (a ``KeyError`` too; the message lists the missions).
    ValueError
        For a choice the mission does not offer.
    """
    mission = _mission(mission_id)
    extra = sorted(set(choices) - set(mission.choices))
    if extra:
        raise InvalidParameterError(
            f"mission {mission_id!r} lets you choose {list(mission.choices)}, not "
            f"{extra}")
    row = RoutingLab(**mission.lab).run(n_requests=n_requests, seed=seed, **choices)
    first = row.iloc[0]
    checks = {"success": bool(first["success"] >= mission.min_success)}
    if mission.max_tokens is not None:
        checks["tokens"] = bool(first["tokens"] <= mission.max_tokens)
    if mission.max_latency_s is not None:
        checks["latency"] = bool(first["latency_s"] <= mission.max_latency_s)
    return MissionResult(mission, row, checks)


def mission_grid(mission_id: str, *, ks: Sequence[int] = (1, 2, 4, 8, 16, 32),
                 routings: Sequence[str] = ("exact", "grouped"), groups: Sequence[int] = (2,),
                 n_requests: int = 500, seed: int = 1) -> pd.DataFrame:
    """Every combination of routing, k and groups (and merging, when offered), played once.

    Parameters
    ----------
    mission_id : str
    ks, routings, groups : sequences
        The choices to try (``"all"`` may be among ``routings``).
    n_requests, seed
        As :meth:`RoutingLab.run`.

    Returns
    -------
    pandas.DataFrame
        :data:`LAB_COLUMNS` plus ``mission`` and ``passed``, one row per combination (a
        SIMULATION).
    """
    mission = _mission(mission_id)
    merges = (False, True) if "merge_duplicates" in mission.choices else (False,)
    frames = []
    for routing in routings:
        for k in (ks if routing != "all" else ks[:1]):
            for g in (groups if routing == "grouped" else groups[:1]):
                for merge in merges:
                    extra = {"merge_duplicates": merge} if len(merges) > 1 else {}
                    played = run_mission(mission_id, routing=routing, k=k, groups=g,
                                         n_requests=n_requests, seed=seed, **extra)
                    frames.append(played.result.assign(mission=mission_id,
                                                       passed=played.passed))
    return pd.concat(frames, ignore_index=True)
