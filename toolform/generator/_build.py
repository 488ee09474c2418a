"""The seeded generator: the 93-tool toolset, its tasks, and nested decoy catalogues."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Iterable, Sequence

from ..errors import DatasetError, InvalidParameterError, ParameterTypeError
from ..ir import GoldCall, Request, ToolIR, Toolset
from ..tiers import tier_estimate
from ._decoys import extra_decoys
from ._domains import DOMAINS
from ._spec import STYLES, Effect, ToolSpec
from ._tasks import fill, phrasing_rng
from ._world import Executor, World

#: How many tools and domains the generated set has.
N_TOOLS = 93
N_DOMAINS = 24


@lru_cache(maxsize=1)
def tool_specs() -> tuple[ToolSpec, ...]:
    """Every generated tool's spec, domain by domain in the order the data was written."""
    specs = tuple(t for dom in DOMAINS for t in dom.tools)
    if len(specs) != N_TOOLS or len(DOMAINS) != N_DOMAINS:
        raise DatasetError(f"the generator's domain data (toolform/generator/_domains.py) holds "
                           f"{len(specs)} tools in {len(DOMAINS)} domains, expected {N_TOOLS} "
                           f"in {N_DOMAINS}")
    return specs


def _check_seed(seed: int) -> None:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ParameterTypeError(f"seed must be an int, got {type(seed).__name__}")


def _bind(pairs: Iterable[tuple[ToolIR, Effect]], world: World) -> dict[str, Executor]:
    return {tool.name: Executor(tool, effect, world) for tool, effect in pairs}


def generated_toolset(seed: int = 0) -> Toolset:
    """The generated toolset: 93 tools across 24 service domains, tiers 1 to 5.

    The seed sets the order of the tools (a seeded shuffle); the tools themselves are fixed
    data, so ``generated_toolset(s).to_json()`` is byte-identical for the same ``s``. Every tool
    has an :class:`~toolform.generator.Executor` over one shared in-memory
    :class:`~toolform.generator.World`.

    Parameters
    ----------
    seed : int, default 0
        Shuffle seed.

    Returns
    -------
    Toolset
        93 tools; ``executors`` maps each name to its executor; ``source`` names the seed.

    Raises
    ------
    TypeError
        When ``seed`` is not an int.
    """
    _check_seed(seed)
    specs = list(tool_specs())
    random.Random(seed).shuffle(specs)
    world = World()
    return Toolset(tuple(sp.tool for sp in specs),
                   executors=_bind(((sp.tool, sp.effect) for sp in specs), world),
                   source=f"toolform.generator.generated_toolset(seed={seed})")


def generated_tasks(seed: int = 0, *, samples: int = 1, tiers: Sequence[int] | None = None,
                    styles: Sequence[str] | None = None,
                    toolset: Toolset | None = None) -> list[Request]:
    """Requests with gold calls for the generated tools: every phrasing of every tool.

    Each tool has three phrasings (two clear, one vague); each phrasing is filled ``samples``
    times with values drawn from the value pools under a seed of its own.

    Parameters
    ----------
    seed : int, default 0
        Value-drawing seed (also the toolset's shuffle seed when ``toolset`` is not given).
    samples : int, default 1
        Requests per phrasing.
    tiers : sequence of int, optional
        Keep only tools of these tiers (1 to 5).
    styles : sequence of str, optional
        Keep only these phrasing styles (``"clear"``, ``"vague"``).
    toolset : Toolset, optional
        The toolset each request shows; by default ``generated_toolset(seed)``.

    Returns
    -------
    list of Request
        In tool order (as the data is written), then phrasing, then sample. ``id`` is
        ``gen_<tool>_<k>``; ``category`` is ``tier<N>_<style>``; ``gold`` holds one
        :class:`~toolform.ir.GoldCall` with one accepted value per argument.

    Raises
    ------
    ValueError
        When ``samples`` is below 1, or a tier or style is unknown.
    """
    _check_seed(seed)
    if samples < 1:
        raise InvalidParameterError(f"samples must be at least 1, got {samples}")
    bad_tiers = set(tiers or ()) - {1, 2, 3, 4, 5}
    bad_styles = set(styles or ()) - set(STYLES)
    if bad_tiers or bad_styles:
        raise InvalidParameterError(
            f"unknown tiers {sorted(bad_tiers)} or styles {sorted(bad_styles)}; "
            f"tiers are 1-5, styles are {STYLES}")
    shown = toolset if toolset is not None else generated_toolset(seed)
    source = f"toolform.generator seed={seed}"
    out: list[Request] = []
    for spec in tool_specs():
        tier = tier_estimate(spec.tool)
        if tiers is not None and tier not in tiers:
            continue
        k = 0
        for a, ask in enumerate(spec.asks):
            for sample in range(samples):
                if styles is None or ask.style in styles:
                    text, call = fill(spec, ask, phrasing_rng(seed, spec.tool.name, a, sample))
                    out.append(Request(id=f"gen_{spec.tool.name}_{k}", text=text, toolset=shown,
                                       gold=(GoldCall.from_call(call),),
                                       category=f"tier{tier}_{ask.style}", source=source))
                k += 1
    return out


@lru_cache(maxsize=16)
def _decoy_pool(seed: int) -> tuple[tuple[ToolIR, Effect], ...]:
    generated = [(sp.tool, sp.effect) for sp in tool_specs()]
    extras = list(extra_decoys())
    rng = random.Random(f"decoys/{seed}")
    rng.shuffle(generated)
    rng.shuffle(extras)
    return tuple(generated + extras)


def max_catalogue_size() -> int:
    """The largest catalogue :func:`decoy_catalogue` can build (generated plus extra tools)."""
    return N_TOOLS + len(extra_decoys())


def decoy_catalogue(n_tools: int, seed: int = 0,
                    target: str | Sequence[str] | None = None) -> Toolset:
    """A catalogue of ``n_tools`` tools: the target tool(s) plus the first seeded decoys.

    The decoy pool is one seeded order: the 93 generated tools shuffled, then the extra decoy
    tools shuffled. A catalogue takes the target(s) and the first ``n_tools - len(targets)``
    pool tools that are not targets, in pool order, so for one seed and target the catalogues of
    a sweep (1, 2, 4 … 256) are nested: each holds every tool of the smaller ones, and a sweep
    compares like with like. The target sits at a seeded position.

    Parameters
    ----------
    n_tools : int
        Catalogue size, from ``len(targets)`` (at least 1) to :func:`max_catalogue_size`.
    seed : int, default 0
        Pool seed.
    target : str or sequence of str, optional
        Generated tool name(s) that must be in the catalogue (a request's gold tool).

    Returns
    -------
    Toolset
        ``n_tools`` tools with executors.

    Raises
    ------
    ValueError
        When ``n_tools`` is out of range or a target is not a generated tool.
    """
    _check_seed(seed)
    targets = [target] if isinstance(target, str) else list(target or ())
    known = {sp.tool.name: sp for sp in tool_specs()}
    unknown = [t for t in targets if t not in known]
    if unknown:
        raise InvalidParameterError(f"targets {unknown} are not generated tools")
    limit = max_catalogue_size()
    if not max(1, len(targets)) <= n_tools <= limit:
        raise InvalidParameterError(f"n_tools must be between {max(1, len(targets))} and {limit}, "
                                    f"got {n_tools}")
    pool = [pair for pair in _decoy_pool(seed) if pair[0].name not in targets]
    chosen = pool[:n_tools - len(targets)]
    rng = random.Random(f"place/{seed}/{n_tools}/{','.join(targets)}")
    for name in targets:
        chosen.insert(rng.randrange(len(chosen) + 1), (known[name].tool, known[name].effect))
    world = World()
    return Toolset(tuple(tool for tool, _ in chosen), executors=_bind(chosen, world),
                   source=f"toolform.generator.decoy_catalogue(n_tools={n_tools}, "
                          f"seed={seed}, target={targets})")
