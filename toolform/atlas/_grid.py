"""The atlas's grid: every format × protocol pair whose protocol can carry the requests' calls.

A protocol declares what a round trip through it may lose (``ProtocolSpec.cannot_carry``,
e.g. ``null_values``); a pair is in the grid only when no request's gold calls need anything
its protocol loses, and when a request wants several calls, only if the protocol supports
parallel calls. Every pair left out is listed with the losses that exclude it, so the grid's
shape is never a silent choice.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Iterable, Sequence

import pandas as pd
from jsonschema import Draft202012Validator

from ..errors import InvalidParameterError
from ..formats import format_ids, get_format
from ..ir import GoldCall, ParamIR, Request, Toolset, TypeIR
from ..protocols import get_protocol, protocol_ids
from ..runs import Cell

__all__ = ["GRID_COLUMNS", "LOSS_CHECKS", "carry_grid", "request_losses"]

#: Declared columns of :func:`carry_grid`'s frame: (name, dtype, unit, meaning).
GRID_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("cell", "string", "", "format_id/protocol_id"),
    ("format_id", "string", "", "schema format"),
    ("protocol_id", "string", "", "answer protocol"),
    ("carried", "boolean", "", "the protocol can carry every request's gold calls"),
    ("losses", "object", "", "the declared losses some request would hit (sorted tags)"),
    ("n_requests_lost", "int64", "requests", "requests whose gold calls the protocol cannot carry"),
)

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_XML_NAME = re.compile(r"^[A-Za-z_][\w.\-]*$")
_WORDISH = re.compile(r"^[\w.\-]+$")


def _leaves(value: Any) -> Iterable[Any]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _keys(value: Any) -> Iterable[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


@lru_cache(maxsize=4096)
def _validator(t: TypeIR) -> Draft202012Validator:
    return Draft202012Validator(t.to_json_schema())


def _typed(param: ParamIR | None) -> bool:
    return param is not None and param.type.kind != "any"


def _fits(value: Any, param: ParamIR | None) -> bool:
    return _typed(param) and _validator(param.type).is_valid(value)  # type: ignore[union-attr]


# Each check answers: does carrying this argument value (of this call, in this toolset) need
# what the tag says a protocol loses? Arguments: (gold call, argument name, value, toolset).
_ArgCheck = Callable[[GoldCall, str, Any, Toolset], bool]


def _param(call: GoldCall, name: str, toolset: Toolset) -> ParamIR | None:
    tool = toolset.get(call.name)
    if tool is None:
        return None
    return next((p for p in tool.params if p.name == name), None)


def _untyped(call: GoldCall, name: str, value: Any, toolset: Toolset) -> bool:
    # objects and arrays travel as JSON text and come back whole; scalars of no declared type
    # come back as text
    return not _typed(_param(call, name, toolset)) and not isinstance(value, (dict, list))


def _mistyped(call: GoldCall, name: str, value: Any, toolset: Toolset) -> bool:
    p = _param(call, name, toolset)
    return _typed(p) and not _fits(value, p)


def _undeclared(call: GoldCall, name: str, value: Any, toolset: Toolset) -> bool:
    return toolset.get(call.name) is not None and _param(call, name, toolset) is None


#: The check behind each ``cannot_carry`` tag. A tag without a check is an error (so a protocol
#: that declares a new loss gets a check here before the atlas uses it).
LOSS_CHECKS: dict[str, tuple[str, Callable[..., bool]]] = {
    # per argument value
    "untyped_values": ("argument", _untyped),
    "mistyped_values": ("argument", _mistyped),
    "undeclared_arguments": ("argument", _undeclared),
    "null_values": ("argument", lambda c, n, v, t: any(x is None for x in _leaves(v))),
    "empty_strings": ("argument", lambda c, n, v, t: v == ""),
    "xml_invalid_characters": ("argument", lambda c, n, v, t: any(
        isinstance(x, str) and _XML_INVALID.search(x) for x in [*_leaves(v), *_keys(v)])),
    "dotted_keys": ("argument", lambda c, n, v, t: "." in n or any("." in k for k in _keys(v))),
    # per argument name
    "names_with_colons": ("name", lambda name: ":" in name),
    "names_with_equals_or_pipes": ("name", lambda name: "=" in name or "|" in name),
    "names_with_pipes": ("name", lambda name: "|" in name),
    "names_with_spaces_or_equals": ("name", lambda name: "=" in name or any(
        ch.isspace() for ch in name)),
    "non_xml_names": ("name", lambda name: not _XML_NAME.match(name)),
    "non_identifier_names": ("tool_or_name", lambda name: not _WORDISH.match(name)),
    # per call
    "unknown_tools": ("call", lambda call, toolset: toolset.get(call.name) is None),
    "unknown_tools_without_arguments": ("call", lambda call, toolset: (
        toolset.get(call.name) is None and not call.accepted)),
}


def _value_lost(check: Callable[..., bool], call: GoldCall, name: str, values: Sequence[Any],
                toolset: Toolset) -> bool:
    """An argument is lost only when every value the gold call accepts would be."""
    return bool(values) and all(check(call, name, v, toolset) for v in values)


def request_losses(request: Request, protocol_id: str) -> tuple[str, ...]:
    """The declared losses of ``protocol_id`` that carrying ``request``'s gold calls would hit.

    Parameters
    ----------
    request : Request
        A labelled request; its gold calls are checked against its own toolset.
    protocol_id : str
        A registered protocol.

    Returns
    -------
    tuple of str
        Sorted ``cannot_carry`` tags (plus ``"parallel_calls"`` when the request wants several
        calls and the protocol carries one); empty when the protocol carries the request. An
        argument counts as lost only when every value the gold call accepts for it would be.

    Raises
    ------
    UnknownProtocolError
        For an id that is not registered.
    ValueError
        When the protocol declares a loss that has no check in :data:`LOSS_CHECKS`.
    """
    spec = get_protocol(protocol_id)
    found: set[str] = set()
    if len(request.gold) > 1 and not spec.supports_parallel:
        found.add("parallel_calls")
    for tag in spec.cannot_carry:
        if tag not in LOSS_CHECKS:
            raise InvalidParameterError(
                f"protocol {protocol_id!r} declares cannot_carry tag {tag!r}, which "
                f"the atlas has no check for; add one to LOSS_CHECKS")
        scope, check = LOSS_CHECKS[tag]
        for call in request.gold:
            if scope == "call":
                hit = check(call, request.toolset)
            elif scope == "argument":
                hit = any(_value_lost(check, call, name, values, request.toolset)
                          for name, values in call.accepted.items())
            else:
                names = list(call.accepted)
                if scope == "tool_or_name":
                    names.append(call.name)
                hit = any(check(name) for name in names)
            if hit:
                found.add(tag)
                break
    return tuple(sorted(found))


def carry_grid(requests: Sequence[Request], formats: Sequence[str] | None = None,
               protocols: Sequence[str] | None = None) -> pd.DataFrame:
    """Every format × protocol pair, and whether its protocol can carry the requests' calls.

    Parameters
    ----------
    requests : sequence of Request
        The requests the grid will be measured on.
    formats : sequence of str, optional
        Format ids (default: every registered format).
    protocols : sequence of str, optional
        Protocol ids (default: every registered protocol).

    Returns
    -------
    pandas.DataFrame
        One row per pair, formats outer and protocols inner, with the columns of
        :data:`GRID_COLUMNS`.

    Raises
    ------
    UnknownFormatError, UnknownProtocolError
        For ids that are not registered.
    ValueError
        When ``requests``, ``formats`` or ``protocols`` is empty.
    """
    formats = list(format_ids() if formats is None else formats)
    protocols = list(protocol_ids() if protocols is None else protocols)
    for name, given in (("requests", requests), ("formats", formats), ("protocols", protocols)):
        if not len(given):
            raise InvalidParameterError(f"carry_grid needs at least one of {name}; got none")
    for f in formats:
        get_format(f)
    per_protocol: dict[str, tuple[tuple[str, ...], int]] = {}
    for p in protocols:
        losses = [request_losses(r, p) for r in requests]
        tags = tuple(sorted({t for loss in losses for t in loss}))
        per_protocol[p] = (tags, sum(1 for loss in losses if loss))
    rows = [{"cell": Cell(f, p).label, "format_id": f, "protocol_id": p,
             "carried": per_protocol[p][1] == 0, "losses": list(per_protocol[p][0]),
             "n_requests_lost": per_protocol[p][1]} for f in formats for p in protocols]
    frame = pd.DataFrame(rows, columns=[c[0] for c in GRID_COLUMNS])
    return frame.astype({n: d for n, d, _, _ in GRID_COLUMNS if d != "object"})
