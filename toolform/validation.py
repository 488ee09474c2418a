"""Parameter constraints as data, checked in one place.

A function states what each parameter accepts as a list of constraints and checks them at its
entry point; the error names the parameter, what is allowed and what was given::

    check_parameters({"alpha": [Interval(float, 0, 1, closed="neither")],
                      "rule": [Options(RULES)]}, alpha=alpha, rule=rule)

A value passes when it meets **any** constraint of its list (``[None, Interval(int, 1, None)]``
is "None or a positive int"). A value that meets none raises :class:`InvalidParameterError`, or
:class:`ParameterTypeError` when no constraint accepts even its type; both are ``ValueError``s
(the second also a ``TypeError``), so callers that already catch those keep working.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any, Iterable, Mapping, Sequence

from .errors import InvalidParameterError, ParameterTypeError

__all__ = ["InstanceOf", "Interval", "Options", "check_parameter", "check_parameters"]


@dataclass(frozen=True)
class Interval:
    """A number of ``kind`` between ``low`` and ``high`` (None: unbounded on that side).

    Parameters
    ----------
    kind : type
        ``int`` (booleans excluded) or ``float`` (any real number, ints included).
    low, high : float or None
        The bounds.
    closed : {"both", "left", "right", "neither"}
        Which bounds belong to the interval.
    """

    kind: type
    low: float | None
    high: float | None
    closed: str = "both"

    def type_ok(self, value: Any) -> bool:
        if isinstance(value, bool) or not isinstance(value, Real):
            return False
        return isinstance(value, Integral) if self.kind is int else True

    def accepts(self, value: Any) -> bool:
        if not self.type_ok(value) or (isinstance(value, float) and math.isnan(value)):
            return False
        left = self.closed in ("both", "left")
        right = self.closed in ("both", "right")
        if self.low is not None and (value < self.low or (value == self.low and not left)):
            return False
        return not (self.high is not None and (value > self.high or
                                                (value == self.high and not right)))

    def __str__(self) -> str:
        what = "an int" if self.kind is int else "a number"
        left = self.closed in ("both", "left")
        right = self.closed in ("both", "right")
        if self.low is None and self.high is None:
            return what
        if self.high is None:
            return f"{what} {'at least' if left else 'more than'} {self.low:g}"
        if self.low is None:
            return f"{what} {'at most' if right else 'less than'} {self.high:g}"
        return f"{what} in {'[' if left else '('}{self.low:g}, {self.high:g}{']' if right else ')'}"


@dataclass(frozen=True)
class Options:
    """One of a fixed set of values (compared with ``==``)."""

    values: tuple[Any, ...]

    def __init__(self, values: Iterable[Any]) -> None:
        object.__setattr__(self, "values", tuple(values))

    def type_ok(self, value: Any) -> bool:
        return any(type(value) is type(v) for v in self.values)

    def accepts(self, value: Any) -> bool:
        try:
            return value in self.values
        except TypeError:  # an unhashable value against a set-like container
            return False

    def __str__(self) -> str:
        return "one of " + ", ".join(repr(v) for v in self.values)


@dataclass(frozen=True)
class InstanceOf:
    """An instance of any of ``types``."""

    types: tuple[type, ...]

    def __init__(self, *types: type) -> None:
        object.__setattr__(self, "types", types)

    def type_ok(self, value: Any) -> bool:
        return isinstance(value, self.types)

    accepts = type_ok

    def __str__(self) -> str:
        return "an instance of " + " or ".join(t.__name__ for t in self.types)


Constraint = Interval | Options | InstanceOf | None


def _allowed(constraints: Sequence[Constraint]) -> str:
    return " or ".join("None" if c is None else str(c) for c in constraints)


def check_parameter(name: str, value: Any, constraints: Sequence[Constraint], *,
                    where: str = "") -> Any:
    """Return ``value`` when it meets one of ``constraints``; raise naming all three otherwise.

    Parameters
    ----------
    name : str
        The parameter's name, as the caller spells it.
    value : object
        The value given.
    constraints : sequence of Interval, Options, InstanceOf or None
        What is allowed; ``None`` allows ``None``.
    where : str
        The function's name, put in front of the message.

    Returns
    -------
    object
        ``value``, unchanged.

    Raises
    ------
    ParameterTypeError
        When no constraint accepts the value's type.
    InvalidParameterError
        When the type fits but the value does not (out of range, not an option).

    Examples
    --------
    >>> check_parameter("n", 3, [Interval(int, 1, None)])
    3
    """
    if any(value is None if c is None else c.accepts(value) for c in constraints):
        return value
    allowed = _allowed(constraints)
    prefix = f"{where}: " if where else ""
    message = f"{prefix}{name} must be {allowed}; got {value!r}"
    typed = any(c is not None and c.type_ok(value) for c in constraints)
    error = InvalidParameterError if typed else ParameterTypeError
    raise error(message, parameter=name, allowed=allowed, value=value)


def check_parameters(constraints: Mapping[str, Sequence[Constraint]], *, where: str = "",
                     **values: Any) -> None:
    """Check several parameters against their constraints (see :func:`check_parameter`).

    Parameters
    ----------
    constraints : mapping of str to sequence of constraints
        Parameter name → what it allows.
    where : str
        The function's name, for the message.
    **values
        The values given, by parameter name; each must have an entry in ``constraints``.

    Raises
    ------
    InvalidParameterError, ParameterTypeError
        For the first parameter that meets none of its constraints.
    KeyError
        When a value has no constraints (a mistake in the calling code).
    """
    for name, value in values.items():
        check_parameter(name, value, constraints[name], where=where)
