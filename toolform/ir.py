"""The canonical intermediate representation (IR) of tools and calls.

Every loader produces it, every format renders it, every protocol writes and reads calls against
it. All classes are frozen dataclasses; collections are tuples, so an IR value can be shared
freely. ``to_dict``/``from_dict`` give a lossless JSON round trip (the "IR JSON" export).

Shapes::

    Toolset ─ tools: tuple[ToolIR, ...] (ordered, unique names) + optional executors
    ToolIR  ─ name, description, params: tuple[ParamIR, ...], returns: TypeIR | None
    ParamIR ─ name, type: TypeIR, description, required, default
    TypeIR  ─ kind ∈ KINDS, with fields (object), items (array), values (enum), options (union)
              and constraints (minimum, maximum, lengths, pattern, format)
    ToolCall ─ name, arguments (a JSON object)

Two kinds of type need more than a tree of the kinds above.

**Maps.** An object whose undeclared keys carry values of one type (JSON Schema's
schema-valued ``additionalProperties``) has ``value_type``; keys matching a regular expression
(``patternProperties``) have ``pattern_types``, ``(pattern, type)`` pairs; a type every key must
have (``propertyNames``) is ``key_type``. ``TypeIR("object", value_type=S)`` is
``Record<string, S>``. :attr:`TypeIR.is_map` says whether an object has any of the three.

**Recursion.** A type defined in terms of itself (a JSON value, a filter whose ``and`` holds
filters, a tree) is a *named* type plus references to it: the node that defines the type has
``name`` set, and inside it a node of kind ``ref`` with ``ref`` equal to that name stands for the
whole named node, the way a ``$ref`` back to an enclosing schema does. A ``ref`` refers to the
nearest enclosing node of that name, so every IR value is still a finite tree (and still a
frozen, comparable value); ``ref`` nodes only occur inside their named node. A ``ref`` with
``nullable`` means "that type, or null". :func:`unfold` substitutes a named node for its
references once, :func:`unrolled` to a bounded depth (what the formats that cannot name types
show), :meth:`TypeIR.to_json_schema` writes each named type once under ``$defs``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cached_property
from operator import attrgetter
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from .errors import InvalidParameterError, LoaderWarning, NotFoundError

__all__ = [
    "GoldCall",
    "KINDS",
    "NO_DEFAULT",
    "ParamIR",
    "Request",
    "ToolCall",
    "ToolIR",
    "ToolUniverse",
    "Toolset",
    "TypeIR",
    "named_types",
    "unfold",
    "unrolled",
]

#: The kinds a ``TypeIR`` can have. ``any`` is a value with no declared type (BFCL ``any``, an
#: MCP property with no ``type``); ``ref`` stands for the enclosing named type it names (see
#: the module docstring).
KINDS = ("string", "integer", "number", "boolean", "null", "object", "array", "enum", "union",
         "any", "ref")


class _NoDefault:
    """Sentinel for "this parameter declares no default" (``None`` is a legal JSON default)."""

    _instance: _NoDefault | None = None

    def __new__(cls) -> _NoDefault:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NO_DEFAULT"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Any = _NoDefault()

_CONSTRAINTS = ("minimum", "maximum", "exclusive_minimum", "exclusive_maximum", "min_length",
                "max_length", "min_items", "max_items", "pattern", "format")


@dataclass(frozen=True)
class TypeIR:
    """A value's type.

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`.
    fields : tuple of ParamIR
        The properties of an ``object`` (empty for a free-form object).
    items : TypeIR or None
        The element type of an ``array`` (``None``: elements of any type).
    values : tuple
        The allowed JSON scalars of an ``enum``.
    options : tuple of TypeIR
        The alternatives of a ``union``.
    minimum, maximum, exclusive_minimum, exclusive_maximum : float or None
        Numeric bounds (integer and number kinds).
    min_length, max_length : int or None
        String length bounds, in characters.
    min_items, max_items : int or None
        Array length bounds.
    pattern : str or None
        A regular expression strings must match.
    format : str or None
        A JSON Schema ``format`` such as ``date-time`` or ``uri``.
    nullable : bool
        ``null`` is accepted besides the kind (JSON Schema ``type: [X, "null"]``).
    additional : bool or None
        For objects: whether keys beyond ``fields`` are allowed (``None``: not stated). True
        whenever ``value_type`` is set.
    value_type : TypeIR or None
        For objects (maps): the type of the value under every key that ``fields`` does not
        declare and no pattern of ``pattern_types`` matches (JSON Schema's schema-valued
        ``additionalProperties``).
    key_type : TypeIR or None
        For objects (maps): the type every key must have, a ``string`` with constraints or an
        ``enum`` of names (JSON Schema ``propertyNames``).
    pattern_types : tuple of (str, TypeIR)
        For objects (maps): the type of the value under keys matching each regular expression
        (JSON Schema ``patternProperties``), in declaration order.
    name : str
        A name for this type, which ``ref`` nodes inside it use to refer back to it ("" for an
        unnamed type; never set on a ``ref``).
    ref : str
        For ``ref`` nodes: the name of the enclosing named type it stands for.

    Raises
    ------
    ValueError
        For an unknown kind, a ``ref`` without a name to refer to, map attributes on a kind
        other than ``object``, or ``value_type`` with ``additional=False``.
    """

    kind: str
    fields: tuple[ParamIR, ...] = ()
    items: TypeIR | None = None
    values: tuple[Any, ...] = ()
    options: tuple[TypeIR, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    pattern: str | None = None
    format: str | None = None
    nullable: bool = False
    additional: bool | None = None
    value_type: TypeIR | None = None
    key_type: TypeIR | None = None
    pattern_types: tuple[tuple[str, TypeIR], ...] = ()
    name: str = ""
    ref: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidParameterError(f"TypeIR kind must be one of {KINDS}, got {self.kind!r}")
        if (self.kind == "ref") != bool(self.ref):
            raise InvalidParameterError(
                "a ref TypeIR needs the name it refers to, and only a ref has one")
        if self.kind == "ref" and self.name:
            raise InvalidParameterError("a ref TypeIR cannot itself be named")
        if self.value_type is not None or self.key_type is not None or self.pattern_types:
            if self.kind != "object":
                raise InvalidParameterError(
                    f"value_type, key_type and pattern_types belong to objects, "
                    f"not to a {self.kind}")
            if self.value_type is not None:
                if self.additional is False:
                    raise InvalidParameterError(
                        "value_type needs additional keys (additional=True)")
                object.__setattr__(self, "additional", True)

    # -- queries -------------------------------------------------------------------------------
    @property
    def constraints(self) -> dict[str, Any]:
        """The constraints that are set, by name (``{"minimum": 1}``)."""
        return {k: getattr(self, k) for k in _CONSTRAINTS if getattr(self, k) is not None}

    @property
    def is_map(self) -> bool:
        """True for an object that types its undeclared keys: ``value_type``, ``key_type`` or
        ``pattern_types`` is set."""
        return self.kind == "object" and (self.value_type is not None or self.key_type is not None
                                          or bool(self.pattern_types))

    def children(self) -> tuple[TypeIR, ...]:
        """The types directly inside this one: field types, items, options, map key and value
        types, in that order."""
        out = [f.type for f in self.fields]
        if self.items is not None:
            out.append(self.items)
        out += self.options
        out += [t for _, t in self.pattern_types]
        if self.key_type is not None:
            out.append(self.key_type)
        if self.value_type is not None:
            out.append(self.value_type)
        return tuple(out)

    def map_children(self, fn: Callable[[TypeIR], TypeIR]) -> TypeIR:
        """A copy with ``fn`` applied to every type directly inside this one (see
        :meth:`children`); ``self`` when it has none."""
        if not (self.fields or self.items is not None or self.options or self.pattern_types
                or self.key_type is not None or self.value_type is not None):
            return self
        return replace(
            self, fields=tuple(replace(f, type=fn(f.type)) for f in self.fields),
            items=None if self.items is None else fn(self.items),
            options=tuple(fn(o) for o in self.options),
            pattern_types=tuple((p, fn(t)) for p, t in self.pattern_types),
            key_type=None if self.key_type is None else fn(self.key_type),
            value_type=None if self.value_type is None else fn(self.value_type))

    def walk(self) -> Iterator[TypeIR]:
        """This type and every type inside it, depth first (``ref`` nodes are leaves)."""
        stack = [self]
        while stack:
            t = stack.pop()
            yield t
            stack.extend(reversed(t.children()))

    def depth(self) -> int:
        """Object nesting depth: 0 for scalars, 1 for an object of scalars, and so on. A ``ref``
        counts 0 (the named type it stands for is counted where it is defined)."""
        if self.kind == "object":
            inner = [p.type for p in self.fields] + [t for _, t in self.pattern_types]
            if self.value_type is not None:
                inner.append(self.value_type)
            return 1 + max((t.depth() for t in inner), default=0)
        if self.kind == "array" and self.items is not None:
            return self.items.depth()
        if self.kind == "union":
            return max((o.depth() for o in self.options), default=0)
        return 0

    def enum_base(self) -> str:
        """The scalar kind of an enum's values (``string``, ``integer``, ``number``, ``boolean``)."""
        # the kinds of the values' distinct types (an enum holds few): one call per type
        kinds = {_scalar_kind(v) for v in {type(v): v for v in self.values}.values()}
        if kinds <= {"integer"}:
            return "integer"
        if kinds <= {"integer", "number"}:
            return "number"
        if kinds == {"boolean"}:
            return "boolean"
        return "string"

    def or_null(self) -> TypeIR:
        """This type, also accepting ``null``. A named type keeps its meaning for the
        references inside it: it becomes the one option of a nullable union instead."""
        if self.nullable or self.kind in ("any", "null"):
            return self
        if self.name:
            return TypeIR("union", options=(self,), nullable=True)
        return replace(self, nullable=True)

    # -- JSON Schema ---------------------------------------------------------------------------
    def to_json_schema(self) -> dict[str, Any]:
        """This type as a JSON Schema (draft 2020-12 vocabulary) dict.

        A named type is written once under the root's ``$defs`` and referred to by
        ``{"$ref": "#/$defs/<name>"}`` wherever it (or a ``ref`` to it) occurs.

        Raises
        ------
        ValueError
            When a ``ref`` has no enclosing type of its name.
        """
        writer = _SchemaWriter()
        return writer.finish(writer.type(self))

    # -- IR JSON -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Lossless plain-dict form (IR JSON); only non-default attributes are written."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.fields:
            out["fields"] = [p.to_dict() for p in self.fields]
        if self.items is not None:
            out["items"] = self.items.to_dict()
        if self.values:
            out["values"] = list(self.values)
        if self.options:
            out["options"] = [o.to_dict() for o in self.options]
        out.update(self.constraints)
        if self.nullable:
            out["nullable"] = True
        if self.additional is not None:
            out["additional"] = self.additional
        if self.value_type is not None:
            out["value_type"] = self.value_type.to_dict()
        if self.key_type is not None:
            out["key_type"] = self.key_type.to_dict()
        if self.pattern_types:
            out["pattern_types"] = [{"pattern": p, "type": t.to_dict()}
                                    for p, t in self.pattern_types]
        if self.name:
            out["name"] = self.name
        if self.ref:
            out["ref"] = self.ref
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TypeIR:
        """Inverse of :meth:`to_dict`."""
        kwargs: dict[str, Any] = {k: data[k] for k in _CONSTRAINTS if data.get(k) is not None}
        for key in ("value_type", "key_type"):
            if data.get(key) is not None:
                kwargs[key] = cls.from_dict(data[key])
        return cls(
            kind=data["kind"],
            fields=tuple(ParamIR.from_dict(p) for p in data.get("fields", ())),
            items=cls.from_dict(data["items"]) if data.get("items") is not None else None,
            values=tuple(data.get("values", ())),
            options=tuple(cls.from_dict(o) for o in data.get("options", ())),
            nullable=bool(data.get("nullable", False)),
            additional=data.get("additional"),
            pattern_types=tuple((e["pattern"], cls.from_dict(e["type"]))
                                for e in data.get("pattern_types", ())),
            name=data.get("name", ""),
            ref=data.get("ref", ""),
            **kwargs,
        )


_SCHEMA_KEYWORDS = (("minimum", "minimum"), ("maximum", "maximum"),
                    ("exclusive_minimum", "exclusiveMinimum"),
                    ("exclusive_maximum", "exclusiveMaximum"),
                    ("min_length", "minLength"), ("max_length", "maxLength"),
                    ("min_items", "minItems"), ("max_items", "maxItems"),
                    ("pattern", "pattern"), ("format", "format"))
#: A type's constraint attributes in :data:`_SCHEMA_KEYWORDS` order, read at once.
_constraint_values = attrgetter(*(name for name, _ in _SCHEMA_KEYWORDS))


class _SchemaWriter:
    """Writes types as one JSON Schema document, collecting named types under ``$defs``."""

    def __init__(self) -> None:
        self.defs: dict[str, Any] = {}
        self._written: list[tuple[TypeIR, str]] = []  # closed named types already in $defs
        self._scope: list[tuple[str, str]] = []  # (name, $defs key) of the enclosing named types

    def finish(self, schema: dict[str, Any]) -> dict[str, Any]:
        """``schema`` with the collected ``$defs`` added at its end (none: unchanged)."""
        return {**schema, "$defs": self.defs} if self.defs else schema

    def param(self, p: ParamIR) -> dict[str, Any]:
        out = self.type(p.type)
        if p.title:
            out = {"title": p.title, **out}
        if p.description:
            out["description"] = p.description  # ``type`` gives a fresh dict, never one
        if p.has_default:
            out["default"] = p.default
        return out

    def _pointer(self, key: str) -> dict[str, Any]:
        return {"$ref": "#/$defs/" + key.replace("~", "~0").replace("/", "~1")}

    def _define(self, t: TypeIR) -> str:
        closed = not _free_refs(t)
        if closed:
            for seen, key in self._written:
                if seen == t:
                    return key
        key, n = t.name, 1
        while key in self.defs:
            n += 1
            key = f"{t.name}_{n}"
        self.defs[key] = None  # reserved while the body is written
        self._scope.append((t.name, key))
        try:
            self.defs[key] = self.type(replace(t, name=""))
        finally:
            self._scope.pop()
        if closed:
            self._written.append((t, key))
        return key

    def type(self, t: TypeIR) -> dict[str, Any]:
        out: dict[str, Any]
        if t.name:
            return self._pointer(self._define(t))
        if t.kind == "ref":
            key = next((k for n, k in reversed(self._scope) if n == t.ref), None)
            if key is None:
                raise InvalidParameterError(f"a ref to {t.ref!r} outside any type of that name")
            out = self._pointer(key)
            return {"anyOf": [out, {"type": "null"}]} if t.nullable else out
        if t.kind == "any":
            out = {}
        elif t.kind == "enum":
            out = {"type": t.enum_base(), "enum": list(t.values)}
        elif t.kind == "union":
            out = {"anyOf": [self.type(o) for o in t.options]}
        elif t.kind == "object":
            out = {"type": "object"}
            if t.fields:
                out["properties"] = {p.name: self.param(p) for p in t.fields}
                req = [p.name for p in t.fields if p.required]
                if req:
                    out["required"] = req
            if t.pattern_types:
                out["patternProperties"] = {p: self.type(v) for p, v in t.pattern_types}
            if t.key_type is not None:
                out["propertyNames"] = self.type(t.key_type)
            if t.value_type is not None:
                out["additionalProperties"] = self.type(t.value_type)
            elif t.additional is not None:
                out["additionalProperties"] = t.additional
        elif t.kind == "array":
            out = {"type": "array"}
            if t.items is not None:
                out["items"] = self.type(t.items)
        else:
            out = {"type": t.kind}
        if t.nullable:
            if "enum" in out and None not in out["enum"]:
                out["enum"].append(None)  # else the enum itself would reject null
            if "type" in out:
                out["type"] = [out["type"], "null"]
            else:
                out = {"anyOf": [out, {"type": "null"}]} if out else out
        constraints = _constraint_values(t)
        if constraints.count(None) < len(constraints):  # most types hold no constraint
            for (_, key), value in zip(_SCHEMA_KEYWORDS, constraints):
                if value is not None:
                    out[key] = value
        return out


def _free_refs(t: TypeIR) -> set[str]:
    """Names that ``ref`` nodes inside ``t`` use without an enclosing named type in ``t``."""
    free: set[str] = set()

    def visit(node: TypeIR, bound: frozenset[str]) -> None:
        if node.kind == "ref":
            if node.ref not in bound:
                free.add(node.ref)
            return
        inner = bound | {node.name} if node.name else bound
        for c in node.children():
            visit(c, inner)

    visit(t, frozenset())
    return free


def unfold(t: TypeIR) -> TypeIR:
    """The body of the named type ``t`` with every reference to it replaced by ``t`` itself:
    the same type, with its recursion entered once (``t`` unnamed: ``t``)."""
    if not t.name:
        return t
    return _substitute(replace(t, name=""), t.name, t)


def _substitute(t: TypeIR, name: str, value: TypeIR) -> TypeIR:
    if t.kind == "ref":
        if t.ref != name:
            return t
        return value.or_null() if t.nullable else value
    if t.name == name:  # an inner type of the same name hides the outer one
        return t
    return t.map_children(lambda c: _substitute(c, name, value))


def unrolled(t: TypeIR, depth: int = 2) -> TypeIR:
    """``t`` with every named type written out in place and its recursion cut off.

    Each named type is shown ``depth`` times along any path: its references are replaced by
    its definition ``depth - 1`` times, then by ``any``. The result has no names and no
    ``ref`` nodes (a type without them is returned as is).

    Parameters
    ----------
    t : TypeIR
    depth : int, default 2
        Levels of each recursive type to show (at least 1).

    Raises
    ------
    ValueError
        When a ``ref`` has no enclosing type of its name, or ``depth`` is below 1.
    """
    if depth < 1:
        raise InvalidParameterError(f"depth must be at least 1, got {depth}")
    if not any(node.name or node.kind == "ref" for node in t.walk()):
        return t
    return _unroll(t, {}, depth)


def _unroll(t: TypeIR, env: dict[str, tuple[TypeIR, int]], depth: int) -> TypeIR:
    if t.kind == "ref":
        if t.ref not in env:
            raise InvalidParameterError(f"a ref to {t.ref!r} outside any type of that name")
        named, left = env[t.ref]
        if left <= 1:
            return TypeIR("any")
        out = _unroll_named(named, left - 1, env, depth)
        return out.or_null() if t.nullable else out
    if t.name:
        return _unroll_named(t, depth, env, depth)
    return t.map_children(lambda c: _unroll(c, env, depth))


def _unroll_named(t: TypeIR, left: int, env: dict[str, tuple[TypeIR, int]],
                  depth: int) -> TypeIR:
    inner = {**env, t.name: (t, left)}
    return replace(t, name="").map_children(lambda c: _unroll(c, inner, depth))


def named_types(types: Iterable[TypeIR]) -> dict[str, TypeIR]:
    """Every named type inside ``types``, by name, in order of first appearance (the first of
    two that share a name is kept)."""
    out: dict[str, TypeIR] = {}
    for root in types:
        for t in root.walk():
            if t.name and t.name not in out:
                out[t.name] = t
    return out


def _scalar_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if value is None:
        return "null"
    return "string"


@dataclass(frozen=True)
class ParamIR:
    """One parameter of a tool, or one field of an object type.

    Parameters
    ----------
    name : str
        The parameter's name as the tool declares it.
    type : TypeIR
        Its type.
    description : str
        Prose about it ("" when the source gives none).
    required : bool
        Whether a call must give it.
    default : Any
        Its declared default, or :data:`NO_DEFAULT`.
    title : str
        A JSON Schema ``title`` when the source gives one.
    """

    name: str
    type: TypeIR
    description: str = ""
    required: bool = True
    default: Any = NO_DEFAULT
    title: str = ""

    @property
    def has_default(self) -> bool:
        """True when a default is declared (even ``None``)."""
        return self.default is not NO_DEFAULT

    def to_json_schema(self) -> dict[str, Any]:
        """This parameter's property schema: its type plus description, title and default
        (named types under ``$defs``, as :meth:`TypeIR.to_json_schema` writes them)."""
        writer = _SchemaWriter()
        return writer.finish(writer.param(self))

    def to_dict(self) -> dict[str, Any]:
        """Lossless plain-dict form (IR JSON)."""
        out: dict[str, Any] = {"name": self.name, "type": self.type.to_dict()}
        if self.description:
            out["description"] = self.description
        out["required"] = self.required
        if self.has_default:
            out["default"] = self.default
        if self.title:
            out["title"] = self.title
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ParamIR:
        """Inverse of :meth:`to_dict`."""
        return cls(
            name=data["name"],
            type=TypeIR.from_dict(data["type"]),
            description=data.get("description", ""),
            required=bool(data.get("required", True)),
            default=data["default"] if "default" in data else NO_DEFAULT,
            title=data.get("title", ""),
        )


@dataclass(frozen=True)
class ToolIR:
    """One tool: a name, prose, parameters and an optional return type.

    Parameters
    ----------
    name : str
        The name a call must use. May contain dots and dashes (``math.factorial``).
    description : str
        Prose about the tool ("" when none).
    params : tuple of ParamIR
        Top-level parameters, in declaration order.
    returns : TypeIR or None
        What the tool returns (MCP ``outputSchema``), when known.
    title : str
        A display title when the source gives one (MCP ``title``).
    """

    name: str
    description: str = ""
    params: tuple[ParamIR, ...] = ()
    returns: TypeIR | None = None
    title: str = ""

    def param(self, name: str) -> ParamIR | None:
        """The top-level parameter called ``name``, or None."""
        return self._params_by_name.get(name)

    @cached_property
    def _params_by_name(self) -> dict[str, ParamIR]:
        # parsers and graders look parameters up for every argument of every reply
        return {p.name: p for p in reversed(self.params)}

    @property
    def input_type(self) -> TypeIR:
        """The parameters as one object type (what JSON Schema calls the input schema)."""
        return TypeIR("object", fields=self.params)

    def input_schema(self) -> dict[str, Any]:
        """The parameters as a JSON Schema object (``{"type": "object", "properties": ...}``).

        This is the schema calls are validated against (``toolform.grading``): it says all the
        IR holds, maps (``additionalProperties`` as a schema, ``patternProperties``,
        ``propertyNames``) and recursive types (each named type once under ``$defs``, used
        through ``$ref``) included.
        """
        writer = _SchemaWriter()
        schema = writer.type(self.input_type)
        schema.setdefault("properties", {})
        return writer.finish(schema)

    def output_schema(self) -> dict[str, Any] | None:
        """The return type as a JSON Schema (MCP's ``outputSchema``), or None when unknown."""
        return None if self.returns is None else self.returns.to_json_schema()

    def named_types(self) -> dict[str, TypeIR]:
        """The named (recursive) types used by the parameters and the return type, by name;
        see :func:`named_types`."""
        roots = [p.type for p in self.params]
        if self.returns is not None:
            roots.append(self.returns)
        return named_types(roots)

    def depth(self) -> int:
        """Nesting depth of the parameters (0 when every parameter is a scalar or scalar array)."""
        return max((p.type.depth() for p in self.params), default=0)

    def to_dict(self) -> dict[str, Any]:
        """Lossless plain-dict form (IR JSON)."""
        out: dict[str, Any] = {"name": self.name, "description": self.description,
                               "params": [p.to_dict() for p in self.params]}
        if self.returns is not None:
            out["returns"] = self.returns.to_dict()
        if self.title:
            out["title"] = self.title
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToolIR:
        """Inverse of :meth:`to_dict`."""
        return cls(
            name=data["name"],
            description=data.get("description", ""),
            params=tuple(ParamIR.from_dict(p) for p in data.get("params", ())),
            returns=TypeIR.from_dict(data["returns"]) if data.get("returns") else None,
            title=data.get("title", ""),
        )


@dataclass(frozen=True)
class ToolCall:
    """One call: a tool name and its arguments (a JSON object).

    Equality compares the name and the arguments as JSON values.
    """

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """``{"name": ..., "arguments": {...}}``."""
        return {"name": self.name, "arguments": dict(self.arguments)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToolCall:
        """Inverse of :meth:`to_dict`."""
        return cls(name=data["name"], arguments=dict(data.get("arguments") or {}))

    def __hash__(self) -> int:
        return hash((self.name, json.dumps(self.arguments, sort_keys=True, default=str)))


@dataclass(frozen=True)
class Toolset:
    """An ordered collection of tools with unique names, and optional executors.

    Parameters
    ----------
    tools : tuple of ToolIR
        The tools, in the order a format shows them.
    executors : mapping of str to callable
        Optional Python callables by tool name (``f(**arguments) -> result``). Not part of the
        JSON form and not compared by ``==``.
    source : str
        Where the toolset came from (a file path or a label); not compared by ``==``.
    warnings : tuple of LoaderWarning
        What the loader noticed but did not refuse (a ``required`` key no property declares,
        a default of the wrong type, a name some provider's API rejects...), each naming the
        file, the tool and the JSON path; empty for a toolset built in Python. Not part of
        the JSON form and not compared by ``==``.

    Raises
    ------
    ValueError
        When two tools share a name.
    """

    tools: tuple[ToolIR, ...] = ()
    executors: Mapping[str, Callable[..., Any]] = field(default_factory=dict, compare=False)
    source: str = field(default="", compare=False)
    warnings: tuple[LoaderWarning, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tools", tuple(self.tools))
        object.__setattr__(self, "warnings", tuple(self.warnings))
        seen: set[str] = set()
        for tool in self.tools:
            if tool.name in seen:
                raise InvalidParameterError(
                    f"duplicate tool name {tool.name!r} in toolset {self.source!r}")
            seen.add(tool.name)

    def __iter__(self) -> Iterator[ToolIR]:
        return iter(self.tools)

    def __len__(self) -> int:
        return len(self.tools)

    def __getitem__(self, key: int | str) -> ToolIR:
        if isinstance(key, str):
            tool = self.get(key)
            if tool is None:
                raise NotFoundError(f"no tool named {key!r} in toolset {self.source!r}",
                                    key=key)
            return tool
        return self.tools[key]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._tools_by_name

    @property
    def names(self) -> list[str]:
        """Tool names in order."""
        return list(self._names)

    @cached_property
    def _names(self) -> tuple[str, ...]:
        # the readers of every reply ask for the names (tools and their names are frozen)
        return tuple(t.name for t in self.tools)

    def get(self, name: str) -> ToolIR | None:
        """The tool called ``name``, or None."""
        return self._tools_by_name.get(name)

    @cached_property
    def _tools_by_name(self) -> dict[str, ToolIR]:
        # reversed: with duplicate names (a malformed toolset), the first one wins, as before
        return {t.name: t for t in reversed(self.tools)}

    def subset(self, names: Sequence[str]) -> Toolset:
        """A new toolset of the named tools, in the order given. Unknown names raise
        ``NotFoundError`` (a ``KeyError``)."""
        return replace(self, tools=tuple(self[n] for n in names),
                       executors={n: f for n, f in self.executors.items() if n in names},
                       warnings=tuple(w for w in self.warnings
                                      if w.tool is None or w.tool in names))

    def tier_estimate(self) -> int:
        """The complexity tier (1 to 5) of the hardest tool; see :func:`toolform.tiers.tier_estimate`."""
        from .tiers import tier_estimate

        return tier_estimate(self)

    def to_dict(self) -> dict[str, Any]:
        """IR JSON: ``{"toolform_ir": 1, "tools": [...]}``."""
        return {"toolform_ir": 1, "tools": [t.to_dict() for t in self.tools]}

    def to_json(self, indent: int | None = 2) -> str:
        """IR JSON as text (UTF-8 safe, keys in declaration order)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "") -> Toolset:
        """Inverse of :meth:`to_dict`."""
        return cls(tools=tuple(ToolIR.from_dict(t) for t in data["tools"]), source=source)

    @classmethod
    def from_json(cls, text: str, source: str = "") -> Toolset:
        """Inverse of :meth:`to_json`."""
        return cls.from_dict(json.loads(text), source=source)


@dataclass(frozen=True)
class GoldCall:
    """The call a request expects, with every acceptable value per argument.

    Parameters
    ----------
    name : str
        The expected tool.
    accepted : mapping of str to tuple
        For each expected argument, the values that count as right (BFCL's possible answers keep
        several; a hand-written gold call has one each).
    may_omit : tuple of str
        Arguments that may also be left out (BFCL writes this as ``""`` among the values).
    """

    name: str
    accepted: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    may_omit: tuple[str, ...] = ()

    @classmethod
    def from_call(cls, call: ToolCall) -> GoldCall:
        """A gold call that accepts exactly ``call``'s values."""
        return cls(name=call.name, accepted={k: (v,) for k, v in call.arguments.items()})

    def first_call(self) -> ToolCall:
        """A concrete call: the first acceptable value of each argument; omittable ones with no
        acceptable value are left out."""
        return ToolCall(self.name, {k: vs[0] for k, vs in self.accepted.items() if vs})

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "accepted": {arg: [values]}, "may_omit": [...]}``."""
        out: dict[str, Any] = {"name": self.name,
                               "accepted": {k: list(v) for k, v in self.accepted.items()}}
        if self.may_omit:
            out["may_omit"] = list(self.may_omit)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GoldCall:
        """Inverse of :meth:`to_dict`."""
        return cls(name=data["name"],
                   accepted={k: tuple(v) for k, v in (data.get("accepted") or {}).items()},
                   may_omit=tuple(data.get("may_omit", ())))


@dataclass(frozen=True)
class Request:
    """One labelled request: what the user says, the tools on offer and the gold calls.

    Parameters
    ----------
    id : str
        Unique within its dataset (e.g. ``"simple_python_12"``).
    text : str
        The user's request.
    toolset : Toolset
        The tools shown for this request.
    gold : tuple of GoldCall
        The expected calls (several for parallel requests; empty when no tool should be called).
    category : str
        The dataset category (``"simple_python"``, ``"multiple"``...).
    source : str
        Where the request comes from (dataset name and version).
    system : str
        A system message the source puts before the request (BFCL's live categories), shown
        ahead of the tool prompt; "" for none.
    """

    id: str
    text: str
    toolset: Toolset
    gold: tuple[GoldCall, ...] = ()
    category: str = ""
    source: str = ""
    system: str = ""

    def to_dict(self) -> dict[str, Any]:
        """One dataset JSONL line (see ``datasets/README.md``)."""
        out = {"id": self.id, "category": self.category, "source": self.source,
               "request": self.text, "tools": self.toolset.to_dict(),
               "gold": [g.to_dict() for g in self.gold]}
        if self.system:
            out["system"] = self.system
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], toolset: Toolset | None = None) -> Request:
        """Inverse of :meth:`to_dict`; ``toolset`` replaces ``data["tools"]`` when a dataset
        shares one toolset file across its lines."""
        return cls(id=data["id"], text=data["request"],
                   toolset=toolset if toolset is not None else
                   Toolset.from_dict(data["tools"], source=data["id"]),
                   gold=tuple(GoldCall.from_dict(g) for g in data.get("gold", ())),
                   category=data.get("category", ""), source=data.get("source", ""),
                   system=data.get("system", ""))


class ToolUniverse(Toolset):
    """The study's name for a toolset: the tools shown to a model in one context.

    A :class:`Toolset` built the way the study's code builds one, ``ToolUniverse(tools=[...],
    universe_id="weather")``; ``universe_id`` is kept as the toolset's ``source``. Everything
    that takes a Toolset takes it.

    Parameters
    ----------
    tools : sequence of ToolIR
    universe_id : str, default "universe"
        A label for the collection.
    executors : mapping of str to callable, optional
    source : str, optional
        Overrides ``universe_id`` as the label (used when a copy is made).

    Raises
    ------
    ValueError
        When two tools share a name.
    """

    def __init__(self, tools: Sequence[ToolIR] = (), universe_id: str = "universe", *,
                 executors: Mapping[str, Callable[..., Any]] | None = None,
                 source: str | None = None) -> None:
        super().__init__(tools=tuple(tools), executors=dict(executors or {}),
                         source=universe_id if source is None else source)

    @property
    def universe_id(self) -> str:
        """The collection's label (the toolset's ``source``)."""
        return self.source
