"""What a request costs: a price vector per million tokens, and the cost of one request.

The study priced its cost table under two vectors (evidence table ``cost_prices``, from the
paper's ``tab_cost``): ``frontier_api`` (1 per million input tokens, 0.1 per million cached
input tokens, 5 per million output tokens; the tool block is cached) and ``self_hosted``
(0.2, 0.2 and 2: an output token costs ten input tokens). They are relative prices, labelled
in US dollars by the study; pass a :class:`Price` with your provider's numbers for real money.

>>> cost_of(1000, 100, price="frontier_api")
0.0015
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from .errors import InvalidParameterError, ParameterTypeError

__all__ = ["PRICES", "Price", "cost_of", "get_price"]


@dataclass(frozen=True)
class Price:
    """Prices per million tokens.

    Attributes
    ----------
    input_per_m : float
        Per million prompt tokens that are not cached.
    cached_input_per_m : float
        Per million cached prompt tokens.
    output_per_m : float
        Per million completion tokens.
    name : str
        A label (``frontier_api``, ``self_hosted`` or ``custom``).
    schema_cached : bool
        Whether the tool block counts as cached input when priced (the study's
        ``frontier_api`` vector caches it; ``self_hosted`` does not).

    Raises
    ------
    ValueError
        When a price is negative or not finite.
    """

    input_per_m: float
    cached_input_per_m: float
    output_per_m: float
    name: str = "custom"
    schema_cached: bool = False

    def __post_init__(self) -> None:
        for field_name in ("input_per_m", "cached_input_per_m", "output_per_m"):
            value = getattr(self, field_name)
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not math.isfinite(value) or value < 0):
                raise InvalidParameterError(f"Price.{field_name} must be a finite number >= 0, "
                                            f"got {value!r}")

    def to_dict(self) -> dict[str, float | str | bool]:
        """The fields as a JSON-ready dict."""
        return {"name": self.name, "input_per_m": self.input_per_m,
                "cached_input_per_m": self.cached_input_per_m, "output_per_m": self.output_per_m,
                "schema_cached": self.schema_cached}


@functools.lru_cache(maxsize=1)
def _study_prices() -> Mapping[str, Price]:
    from .evidence import load_evidence

    return MappingProxyType({
        r["setting"]: Price(r["input_usd_per_m"], r["cached_input_usd_per_m"],
                            r["output_usd_per_m"], name=r["setting"],
                            schema_cached=bool(r["schema_cached"]))
        for r in load_evidence("cost_prices").rows})


class _Prices(Mapping[str, Price]):
    """The study's price vectors by name, read from evidence table ``cost_prices`` on first use."""

    def __getitem__(self, name: str) -> Price:
        return _study_prices()[name]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(_study_prices())

    def __len__(self) -> int:
        return len(_study_prices())

    def __repr__(self) -> str:
        return f"PRICES({dict(_study_prices())!r})"


#: The study's two price vectors, ``frontier_api`` and ``self_hosted`` (evidence table
#: ``cost_prices``, from ``paper:tab_cost``), by name.
PRICES: Mapping[str, Price] = _Prices()


def get_price(price: Price | str) -> Price:
    """A :class:`Price` itself, or the study's vector of that name.

    Raises
    ------
    ValueError
        When ``price`` is a name the study did not use (the message lists the names).
    TypeError
        When ``price`` is neither a ``Price`` nor a string.
    """
    if isinstance(price, Price):
        return price
    if not isinstance(price, str):
        raise ParameterTypeError(f"price must be a Price or one of {', '.join(PRICES)}, "
                                 f"got {type(price).__name__}")
    if price not in PRICES:
        raise InvalidParameterError(
            f"price must be a Price or one of {', '.join(PRICES)}, got {price!r}")
    return PRICES[price]


def cost_of(prompt_tokens: int, completion_tokens: int, *, cached_tokens: int = 0,
            price: Price | str = "frontier_api") -> float:
    """The cost of one request, in the units of ``price`` per token.

    ``(fresh prompt x input + cached x cached input + completion x output) / 1e6``, where the
    cached tokens are at most the prompt tokens and the rest of the prompt is fresh.

    Parameters
    ----------
    prompt_tokens, completion_tokens : int
        Tokens of the request and of the reply (negative counts are read as 0).
    cached_tokens : int, default 0
        Prompt tokens served from a cache.
    price : Price or str, default "frontier_api"

    Returns
    -------
    float
        The cost (US dollars under the study's labels).

    Raises
    ------
    ValueError, TypeError
        As :func:`get_price`.
    """
    p = get_price(price)
    prompt = max(0, int(prompt_tokens))
    cached = max(0, min(int(cached_tokens), prompt))
    completion = max(0, int(completion_tokens))
    return ((prompt - cached) * p.input_per_m + cached * p.cached_input_per_m
            + completion * p.output_per_m) / 1e6
