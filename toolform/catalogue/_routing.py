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

Four missions (:data:`MISSIONS`) pose a routing problem each, with the settings to choose and a
check of success; every frame this module returns has ``simulation = True``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from ..evidence import load_evidence

__all__ = [
    "LAB_COLUMNS",
    "MISSIONS",
    "Mission",
    "MissionResult",
    "ROUTINGS",
    "RoutingLab",
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
    raise ValueError(f"format must be one of {[r['format_id'] for r in table.rows]} (evidence "
                     f"table cost), got {format_id!r}")


# How far a near duplicate sits from its original, relative to a tool's own spread.
_TWIN_GAP = 0.02


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


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
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        for name, value in (("distinctiveness", distinctiveness), ("vagueness", vagueness),
                            ("retriever_noise", retriever_noise),
                            ("call_overhead_s", call_overhead_s)):
            if value < 0:
                raise ValueError(f"{name} must be >= 0, got {value!r}")
        if not 0 <= near_duplicates <= n_tools:
            raise ValueError(f"near_duplicates must be in [0, n_tools={n_tools}], got "
                             f"{near_duplicates!r}")
        if prefill_tokens_per_s <= 0:
            raise ValueError(f"prefill_tokens_per_s must be > 0, got {prefill_tokens_per_s!r}")
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
            One row, columns :data:`LAB_COLUMNS` (``simulation`` True).

        Raises
        ------
        ValueError
            On an unknown routing or a non-positive ``k``, ``groups`` or ``n_requests``.
        """
        if routing not in ROUTINGS:
            raise ValueError(f"routing must be one of {ROUTINGS}, got {routing!r}")
        for name, value in (("k", k), ("groups", groups), ("n_requests", n_requests)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
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
        shown = self._route(seen_by_router, vectors, domain, routing, min(k, n), groups)
        # The chooser: similarity to the request plus noise that grows with the tools read.
        sims = request @ vectors.T
        n_read = shown.sum(axis=1)
        noisy = sims + chooser_noise(n_read)[:, None] * rng.standard_normal(sims.shape)
        choice = keep[np.argmax(np.where(shown, noisy, -np.inf), axis=1)]
        position = np.searchsorted(keep, target)
        hit = shown[np.arange(n_requests), position]
        right = choice == target
        tokens = n_read * self.tokens_per_tool
        row = {
            "simulation": True, "n_tools": n, "n_domains": self.n_domains, "routing": routing,
            "k": n if routing == "all" else min(k, n), "groups": groups,
            "distinctiveness": self.distinctiveness, "vagueness": self.vagueness,
            "near_duplicates": self.near_duplicates, "merged": merge_duplicates,
            "n_requests": n_requests, "shown": float(n_read.mean()),
            "chooser_noise": float(chooser_noise(n_read.mean())),
            "recall": 100 * float(hit.mean()),
            "choice_accuracy": 100 * float(right[hit].mean()) if hit.any() else math.nan,
            "success": 100 * float(right.mean()), "tokens": float(tokens.mean()),
            "latency_s": float(np.mean(self.call_overhead_s
                                       + tokens / self.prefill_tokens_per_s)),
        }
        frame = pd.DataFrame([row], columns=[c[0] for c in LAB_COLUMNS])
        return frame.astype({c[0]: c[1] for c in LAB_COLUMNS})

    def _route(self, query: np.ndarray, vectors: np.ndarray, domain: np.ndarray, routing: str,
               k: int, groups: int) -> np.ndarray:
        """A boolean mask (requests × tools) of the tools each request is shown."""
        n_requests, n = len(query), len(vectors)
        if routing == "all":
            return np.ones((n_requests, n), dtype=bool)
        scores = query @ vectors.T
        if routing == "grouped":
            present = np.unique(domain)
            centres = _unit(np.stack([vectors[domain == d].mean(axis=0) for d in present]))
            nearest = np.argsort(-(query @ centres.T), axis=1)[:, :min(groups, len(present))]
            allowed = (domain[None, None, :] == present[nearest][:, :, None]).any(axis=1)
            scores = np.where(allowed, scores, -np.inf)
        top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
        mask = np.zeros((n_requests, n), dtype=bool)
        np.put_along_axis(mask, top, True, axis=1)
        return mask & np.isfinite(scores)

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
    KeyError
        For an unknown mission.
    ValueError
        For a choice the mission does not offer.
    """
    if mission_id not in MISSIONS:
        raise KeyError(f"unknown mission {mission_id!r}; missions: {', '.join(MISSIONS)}")
    mission = MISSIONS[mission_id]
    extra = sorted(set(choices) - set(mission.choices))
    if extra:
        raise ValueError(f"mission {mission_id!r} lets you choose {list(mission.choices)}, not "
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
    if mission_id not in MISSIONS:
        raise KeyError(f"unknown mission {mission_id!r}; missions: {', '.join(MISSIONS)}")
    mission = MISSIONS[mission_id]
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
