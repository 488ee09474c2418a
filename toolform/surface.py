"""The study's fitted accuracy surface, for extrapolation only.

The study fitted, per format, strict-call accuracy as a function of model size, tool count and
complexity tier (evidence tables ``surface_fits`` and ``surface_tier_complexity``). Its chosen
form decays in a power of the tool count::

    accuracy = sigmoid(a + b * ln(params_b) - gamma * n_tools ** q - delta * complexity(tier))

The fit says how accuracy moves with size and count better than where it sits: its held-out R²
on families it never saw is 0.219 (``surface_fits`` conditions). The advisor therefore never
chooses with it; it shows the prediction beside a recommendation when the model's size is known
and inside the sizes the fit saw.
"""

from __future__ import annotations

import functools
import math
from types import MappingProxyType
from typing import Mapping

from .errors import InvalidParameterError
from .evidence import load_evidence

__all__ = ["SURFACE_FORM", "open_params_range", "predict_surface", "surface_heldout_r2"]

#: The functional form this module evaluates; ``surface_fits`` must name the same one.
SURFACE_FORM = "power_decay_in_tools"
_PARAMETERS = ("a", "b", "gamma", "delta", "q")


@functools.lru_cache(maxsize=1)
def _fits() -> tuple[Mapping[str, Mapping[str, float]], Mapping[int, float]]:
    table = load_evidence("surface_fits")
    if table.conditions.get("form") != SURFACE_FORM:
        from .errors import EvidenceError

        raise EvidenceError(f"evidence table surface_fits holds the form "
                            f"{table.conditions.get('form')!r}; this module evaluates "
                            f"{SURFACE_FORM!r}")
    fits: dict[str, dict[str, float]] = {}
    for r in table.rows:
        fits.setdefault(r["format_id"], {})[r["parameter"]] = float(r["value"])
    complete = {f: MappingProxyType(p) for f, p in fits.items() if set(_PARAMETERS) <= set(p)}
    complexity = {r["tier"]: float(r["complexity"])
                  for r in load_evidence("surface_tier_complexity").rows}
    return MappingProxyType(complete), MappingProxyType(complexity)


def surface_heldout_r2() -> float:
    """The fit's held-out R² on unseen families (``surface_fits`` conditions)."""
    return float(load_evidence("surface_fits").conditions["heldout_r2"])


@functools.lru_cache(maxsize=1)
def open_params_range() -> tuple[float, float]:
    """The smallest and largest open checkpoint of the main grid, in billions of parameters
    (evidence table ``checkpoint_accuracy``): the sizes the surface was fitted on."""
    sizes = [r["params_b"] for r in load_evidence("checkpoint_accuracy").rows
             if r["params_b"] is not None]
    return min(sizes), max(sizes)


def predict_surface(format_id: str, *, params_b: float, n_tools: int, tier: int) -> float | None:
    """The surface's predicted strict-call accuracy, in percent, or None without a fit.

    Parameters
    ----------
    format_id : str
    params_b : float
        Model size in billions of parameters (> 0).
    n_tools : int
        Tools in the catalogue (>= 1).
    tier : int
        Complexity tier, 1 to 5.

    Returns
    -------
    float or None
        Percent in (0, 100); None when the format has no converged fit or the tier no
        complexity value.

    Raises
    ------
    ValueError
        When ``params_b`` is not positive or ``n_tools`` is below 1.
    """
    if not params_b > 0 or n_tools < 1:
        raise InvalidParameterError(f"params_b must be > 0 and n_tools >= 1, got {params_b!r} and "
                                    f"{n_tools!r}")
    fits, complexity = _fits()
    fit = fits.get(format_id)
    if fit is None or tier not in complexity:
        return None
    z = (fit["a"] + fit["b"] * math.log(params_b) - fit["gamma"] * n_tools ** fit["q"]
         - fit["delta"] * complexity[tier])
    return 100.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))
