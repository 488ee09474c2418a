"""Re-nesting: flat arguments moved into the absent object parameter that declares them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..ir import ParamIR, TypeIR
from ._values import coerce_text

__all__ = ["Move", "renest"]

@dataclass(frozen=True)
class Move:
    """One re-nesting step: ``keys`` moved from the top level into the object at ``path``."""

    path: str
    keys: tuple[str, ...]


def _object_fields(t: TypeIR) -> tuple[ParamIR, ...]:
    return t.fields if t.kind == "object" else ()


def _absorbs(t: TypeIR, key: str) -> bool:
    """Whether ``key`` is a field of object type ``t`` or of an object nested in it."""
    fields = _object_fields(t)
    return any(f.name == key or _absorbs(f.type, key) for f in fields)


def renest(arguments: Mapping[str, Any], fields: Sequence[ParamIR], *, coerce: bool = False
           ) -> tuple[dict[str, Any], list[Move]]:
    """Move flat arguments into the absent object parameter that declares them.

    When an object-typed parameter ``P`` is absent and the call gives, at this level, a key
    that is not a parameter here but is a field of ``P`` (or of an object nested in ``P``),
    the key moves into ``P``; absent object parameters are tried in declaration order and the
    first that declares a key takes it. Present object values are repaired the same way, one
    level down.

    Parameters
    ----------
    arguments : mapping
        The call's arguments at this level.
    fields : sequence of ParamIR
        The parameters (or object fields) declared at this level.
    coerce : bool
        Type moved text values by their field's schema (:func:`coerce_text`), for protocols
        whose values arrive as text.

    Returns
    -------
    arguments : dict
        The repaired arguments (a new dict; ``arguments`` is not changed).
    moves : list of Move
        What moved where (empty when nothing changed).
    """
    return _renest(arguments, fields, coerce, "", False)


def _renest(arguments: Mapping[str, Any], fields: Sequence[ParamIR], coerce: bool,
            prefix: str, placed: bool) -> tuple[dict[str, Any], list[Move]]:
    out = dict(arguments)
    moves: list[Move] = []
    declared = {f.name for f in fields}
    for f in fields:
        value = out.get(f.name)
        if isinstance(value, dict) and _object_fields(f.type):
            out[f.name], inner = _renest(value, f.type.fields, coerce, f"{prefix}{f.name}.",
                                         False)
            moves.extend(inner)
    stray = [k for k in out if k not in declared]
    for f in fields:
        if not stray:
            break
        if f.name in out or not _object_fields(f.type):
            continue
        take = [k for k in stray if _absorbs(f.type, k)]
        if not take:
            continue
        moved = {k: out.pop(k) for k in take}
        moves.append(Move(f"{prefix}{f.name}", tuple(take)))
        out[f.name], inner = _renest(moved, f.type.fields, coerce, f"{prefix}{f.name}.", True)
        moves.extend(inner)
        stray = [k for k in stray if k not in take]
    if placed and coerce:
        by_name = {f.name: f for f in fields}
        for key, value in out.items():
            if isinstance(value, str) and key in by_name:
                out[key] = coerce_text(value, by_name[key].type)
    return out, moves
