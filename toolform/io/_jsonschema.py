"""JSON Schema → IR, plus the JSON-path and error helpers every loader shares.

Every loader walks its input with a JSON path in hand (``$.tools[3].inputSchema.properties.q``)
and a :class:`Where` that knows the file and the tool, so any error it raises is a
:class:`~toolform.errors.LoaderError` naming all three.

How JSON Schema maps onto the IR (:mod:`toolform.ir`):

* ``$schema``, ``$id``, ``$comment``, ``examples`` and any keyword not listed here are ignored.
* ``type`` is a name or a list of names. ``"null"`` in a list makes the type nullable; two or more
  other names make a ``union``. A name outside the dialect's table is an error.
* ``anyOf``/``oneOf`` make a ``union``; a ``{"type": "null"}`` alternative makes it nullable
  (``anyOf: [X, {"type": "null"}]`` is X, nullable). Keywords beside ``anyOf`` apply to every
  alternative. Nested unions are flattened, and an alternative of kind ``any`` makes the whole
  type ``any``.
* ``allOf`` parts are merged into one schema (``properties`` and ``required`` are combined;
  where parts disagree on another keyword, the later part wins).
* ``$ref`` must be local (``#/$defs/X``, ``#/definitions/X`` or any JSON pointer into the same
  schema). Keywords beside it override the referenced ones. Errors inside a referenced definition
  name the definition's path. A ``$ref`` met again while it is being expanded is a cycle: the IR
  is a tree, so a recursive schema is a :class:`LoaderError` at the ``$ref`` that closes it.
* ``enum`` makes an ``enum`` of JSON scalars; ``const`` an ``enum`` of one value. A ``null``
  among the values (or in ``type``) makes the enum nullable and is not kept among its values;
  an enum of ``null`` alone is the ``null`` kind.
* With no ``type``: ``properties`` or ``additionalProperties`` make an ``object``, ``items`` or
  ``prefixItems`` an ``array``, anything else ``any``.
* ``items`` as a list (a tuple, draft 4) or ``prefixItems`` (2020-12): the array's ``items`` is the
  union of the positional schemas (one schema when they agree). ``items: {}`` or ``true`` means
  "elements of any type" (``items`` None).
* ``additionalProperties``: a boolean is kept; a schema means ``True``.
* ``required`` naming a property that ``properties`` does not declare adds a required field of
  kind ``any`` after the declared ones: that is what JSON Schema means (the key must be there,
  with any value), and real documents rely on it (BFCL's ``waste_calculation.calculate`` lists
  an object's keys only in ``required`` and its description). Duplicate names count once.
* Constraints are kept where they apply: lengths, ``pattern`` and ``format`` on strings; bounds
  and ``format`` on numbers; ``minItems``/``maxItems`` on arrays; all of them on ``any``.
  A draft-4 boolean ``exclusiveMinimum: true`` turns ``minimum`` into an exclusive bound.
  OpenAPI's ``nullable: true`` is honoured.
* ``description``, ``title`` and ``default`` of a property go to its :class:`ParamIR`.

Limits: a schema nested deeper than :data:`MAX_DEPTH` levels, or expanding (through ``$ref``) to
more than :data:`MAX_NODES` schemas, is a :class:`LoaderError`, so no input can hang a loader or
exhaust the interpreter's stack.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, replace
from typing import Any, Mapping
from urllib.parse import unquote

from ..errors import LoaderError
from ..ir import NO_DEFAULT, ParamIR, TypeIR

__all__ = [
    "BFCL_TYPES",
    "JSON_TYPES",
    "MAX_DEPTH",
    "MAX_NODES",
    "SchemaReader",
    "Where",
    "check_count",
    "check_number",
    "child",
    "describe",
    "json_schema_to_params",
    "json_schema_to_type",
]

#: Deepest schema (or default value) nesting a loader accepts, in levels.
MAX_DEPTH = 64
#: Most schema nodes one tool's schema may expand to (``$ref`` fan-out can multiply them).
MAX_NODES = 100_000

#: JSON Schema type names and their IR kinds.
JSON_TYPES: Mapping[str, str] = {
    t: t for t in ("string", "integer", "number", "boolean", "null", "object", "array")}
#: BFCL type names (Python, Java and JavaScript categories) and their IR kinds. The one ``""``
#: in BFCL v4's data is read as ``any``.
BFCL_TYPES: Mapping[str, str] = {
    **JSON_TYPES,
    "dict": "object", "HashMap": "object",
    "float": "number", "double": "number",
    "long": "integer",
    "tuple": "array", "Array": "array", "ArrayList": "array",
    "String": "string", "char": "string",
    "Boolean": "boolean",
    "any": "any", "": "any",
}

_INDEX = re.compile(r"0|[1-9][0-9]*\Z")
_SCALARS = (str, int, float, bool, type(None))


def child(path: str, key: str | int) -> str:
    """The JSON path of ``key`` under ``path``: ``$.a``, ``$[3]`` or ``$["a b"]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if key.isascii() and key.replace("$", "_").isidentifier():  # [A-Za-z_$][A-Za-z0-9_$]*
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def describe(value: Any) -> str:
    """A short phrase naming a JSON value for an error message (never a full dump)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return "a very large integer" if value.bit_length() > 64 else f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {json.dumps(text, ensure_ascii=False)}"
    if isinstance(value, dict):
        keys = [k if isinstance(k, str) else f"<{type(k).__name__}>" for k in list(value)[:8]]
        more = ", ..." if len(value) > 8 else ""
        if not keys:
            return "an empty object"
        return f"an object with keys [{', '.join(map(repr, keys))}{more}]"
    if isinstance(value, (list, tuple)):
        return f"an array of {len(value)} items"
    return f"a Python {type(value).__name__}"


@dataclass(frozen=True)
class Where:
    """The file and tool being read; raises :class:`LoaderError` naming them and a JSON path.

    Parameters
    ----------
    file : str
        The file path or label (``"<object>"``).
    tool : str or None
        The tool's name, ``"#i"`` for the i-th tool before its name is known, or None outside any
        tool.
    """

    file: str
    tool: str | None = None

    def error(self, message: str, path: str | None) -> LoaderError:
        """A :class:`LoaderError` at ``path`` (to be raised by the caller)."""
        return LoaderError(message, file=self.file, tool=self.tool, path=path)

    def want_dict(self, value: Any, path: str, what: str) -> dict:
        """``value`` if it is a JSON object, else raise naming ``what`` should have been."""
        if not isinstance(value, dict):
            raise self.error(f"{what} must be a JSON object, got {describe(value)}", path)
        return value

    def want_list(self, value: Any, path: str, what: str) -> list | tuple:
        """``value`` if it is a JSON array, else raise."""
        if not isinstance(value, (list, tuple)):
            raise self.error(f"{what} must be a JSON array, got {describe(value)}", path)
        return value

    def opt_str(self, obj: Mapping[str, Any], key: str, path: str) -> str:
        """``obj[key]`` if it is a string, ``""`` when absent; anything else raises."""
        value = obj.get(key, "")
        if not isinstance(value, str):
            raise self.error(f"'{key}' must be a string, got {describe(value)}", child(path, key))
        return value

    def check_json(self, value: Any, path: str, depth: int = 0) -> Any:
        """``value`` if it is plain JSON data (str keys, no sets or objects), nested at most
        :data:`MAX_DEPTH` levels; else raise."""
        if depth > MAX_DEPTH:
            raise self.error(f"value nested deeper than {MAX_DEPTH} levels", path)
        if isinstance(value, float) and not math.isfinite(value):
            raise self.error(f"{value!r} is not a JSON number", path)
        if isinstance(value, _SCALARS):
            return value
        if isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                self.check_json(item, child(path, i), depth + 1)
            return value
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise self.error(f"object keys must be strings, got {describe(key)}", path)
                self.check_json(item, child(path, key), depth + 1)
            return value
        raise self.error(f"{describe(value)} is not a JSON value", path)


def check_number(where: Where, value: Any, path: str) -> int | float:
    """``value`` if it is a finite JSON number (not a boolean), else raise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and not math.isfinite(value)):
        raise where.error(f"expected a finite number, got {describe(value)}", path)
    return value


def check_count(where: Where, value: Any, path: str) -> int:
    """``value`` as an int if it is a non-negative whole number (``3`` or ``3.0``), else raise."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise where.error(f"expected a non-negative integer, got {describe(value)}", path)
    return value


def _check_string(where: Where, value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise where.error(f"expected a string, got {describe(value)}", path)
    return value


# JSON Schema constraint keyword -> (TypeIR attribute, value check)
_CONSTRAINTS = {
    "minimum": ("minimum", check_number),
    "maximum": ("maximum", check_number),
    "exclusiveMinimum": ("exclusive_minimum", check_number),
    "exclusiveMaximum": ("exclusive_maximum", check_number),
    "minLength": ("min_length", check_count),
    "maxLength": ("max_length", check_count),
    "minItems": ("min_items", check_count),
    "maxItems": ("max_items", check_count),
    "pattern": ("pattern", _check_string),
    "format": ("format", _check_string),
}
_NUMERIC = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "format")
# which constraints each kind keeps
_APPLIES = {
    "string": ("minLength", "maxLength", "pattern", "format"),
    "integer": _NUMERIC,
    "number": _NUMERIC,
    "array": ("minItems", "maxItems"),
    "any": tuple(_CONSTRAINTS),
}
_ANY = TypeIR("any")


def _merge(base: dict, extra: dict) -> dict:
    """``extra`` over ``base``, combining ``properties`` and ``required``."""
    out = {**base, **extra}
    for key, join in (("properties", lambda a, b: {**a, **b}), ("required", lambda a, b: [*a, *b])):
        a, b = base.get(key), extra.get(key)
        kind = dict if key == "properties" else (list, tuple)
        if isinstance(a, kind) and isinstance(b, kind):
            out[key] = join(a, b)
    return out


class SchemaReader:
    """Converts one JSON Schema document (a tool's input or output schema) to IR.

    Parameters
    ----------
    root : object
        The whole schema; local ``$ref`` pointers resolve against it.
    root_path : str
        Its JSON path in the file (``$.tools[3].inputSchema``).
    where : Where
        File and tool, for errors.
    types : mapping of str to str
        Type names accepted in ``type`` and the IR kind of each (:data:`JSON_TYPES` or
        :data:`BFCL_TYPES`).
    """

    def __init__(self, root: Any, root_path: str, where: Where,
                 types: Mapping[str, str] = JSON_TYPES) -> None:
        self.root = root
        self.root_path = root_path
        self.where = where
        self.types = types
        self._active: list[str] = []  # $refs being expanded, outermost first
        self._nodes = 0

    # -- entry points --------------------------------------------------------------------------
    def read_type(self) -> TypeIR:
        """The root schema as a :class:`TypeIR`."""
        return self._node(self.root, self.root_path, 0)[0]

    def read_params(self) -> tuple[ParamIR, ...]:
        """The root schema, which must describe an object, as a tool's parameters.

        An empty schema (``{}`` or ``true``) gives no parameters.
        """
        found = self.read_type()
        if found.kind == "object":
            return found.fields
        if found.kind == "any":
            return ()
        raise self.where.error(f"a parameters schema must describe an object, got a {found.kind} "
                               "schema", self.root_path)

    # -- expansion of $ref and allOf -----------------------------------------------------------
    def _node(self, schema: Any, path: str, depth: int) -> tuple[TypeIR, dict, str]:
        """Convert one schema; also return it expanded (for annotations) and its path."""
        if depth > MAX_DEPTH:
            raise self.where.error(f"schema nested deeper than {MAX_DEPTH} levels", path)
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise self.where.error(f"schema expands to more than {MAX_NODES} schemas", path)
        expanded, path, pushed = self._expand(schema, path, 0)
        try:
            return self._convert(expanded, path, depth), expanded, path
        finally:
            del self._active[len(self._active) - pushed:]

    def _expand(self, schema: Any, path: str, depth: int) -> tuple[dict, str, int]:
        """Follow ``$ref`` and merge ``allOf`` until a plain schema object remains.

        Returns the schema, its path and how many refs were pushed on the active stack.
        """
        pushed = 0
        while True:
            depth += 1
            if depth > MAX_DEPTH:
                raise self.where.error(f"$ref/allOf chain longer than {MAX_DEPTH} steps", path)
            if schema is True:
                return {}, path, pushed
            schema = self.where.want_dict(schema, path, "a schema")
            if "$ref" in schema:
                ref_path = child(path, "$ref")
                ref = schema["$ref"]
                if not isinstance(ref, str):
                    raise self.where.error(f"$ref must be a string, got {describe(ref)}", ref_path)
                if ref in self._active:
                    loop = " -> ".join([*self._active[self._active.index(ref):], ref])
                    raise self.where.error(f"$ref cycle ({loop}): recursive schemas have no IR",
                                           ref_path)
                target, target_path = self._resolve(ref, ref_path)
                self._active.append(ref)
                pushed += 1
                if target is True:
                    target = {}
                target = self.where.want_dict(target, target_path, f"the target of $ref {ref!r}")
                schema = _merge(target, {k: v for k, v in schema.items() if k != "$ref"})
                path = target_path
                continue
            if "allOf" in schema:
                parts_path = child(path, "allOf")
                merged: dict = {}
                parts = self.where.want_list(schema["allOf"], parts_path, "allOf")
                for i, part in enumerate(parts):
                    part, _, n = self._expand(part, child(parts_path, i), depth)
                    pushed += n
                    merged = _merge(merged, part)
                schema = _merge(merged, {k: v for k, v in schema.items() if k != "allOf"})
            return schema, path, pushed

    def _resolve(self, ref: str, path: str) -> tuple[Any, str]:
        if not ref.startswith("#"):
            raise self.where.error(f"only local $ref ('#/...') is supported, got {ref!r}", path)
        pointer = unquote(ref[1:])
        if pointer and not pointer.startswith("/"):
            raise self.where.error(f"$ref anchors ({ref!r}) are not supported, only JSON pointers",
                                   path)
        node, node_path = self.root, self.root_path
        for token in pointer.split("/")[1:] if pointer else ():
            token = token.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and token in node:
                node, node_path = node[token], child(node_path, token)
            elif isinstance(node, (list, tuple)) and _INDEX.match(token) and int(token) < len(node):
                node, node_path = node[int(token)], child(node_path, int(token))
            else:
                raise self.where.error(f"$ref {ref!r} points at nothing in this schema", path)
        return node, node_path

    # -- conversion of one expanded schema ------------------------------------------------------
    def _convert(self, schema: dict, path: str, depth: int) -> TypeIR:
        nullable = schema.get("nullable", False)  # OpenAPI 3.0
        if not isinstance(nullable, bool):
            raise self.where.error(f"nullable must be a boolean, got {describe(nullable)}",
                                   child(path, "nullable"))
        if "anyOf" in schema and "oneOf" in schema:
            raise self.where.error("a schema with both anyOf and oneOf is not supported", path)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return self._alternatives(schema, key, path, depth, nullable)

        kinds: list[str] = []
        if "type" in schema:
            raw = schema["type"]
            if isinstance(raw, (list, tuple)):
                if not raw:
                    raise self.where.error("type must name at least one type", child(path, "type"))
                names = list(enumerate(raw))
            else:
                names = [(None, raw)]
            for index, name in names:
                kind = self._kind(name, path, index)
                if kind == "null":
                    nullable = True
                elif kind not in kinds:
                    kinds.append(kind)

        if "enum" in schema or "const" in schema:
            return self._enum(schema, path, nullable)
        if not kinds:
            if "type" in schema:  # only "null" was named
                return TypeIR("null")
            if "properties" in schema or "additionalProperties" in schema:
                kinds = ["object"]
            elif "items" in schema or "prefixItems" in schema:
                kinds = ["array"]
            else:
                kinds = ["any"]
        if len(kinds) == 1:
            return self._single(kinds[0], schema, path, depth, nullable)
        return _union([self._single(k, schema, path, depth, False) for k in kinds], nullable)

    def _kind(self, name: Any, path: str, index: int | None) -> str:
        """The IR kind of the type name at ``path.type`` (``path.type[index]`` in a list)."""
        kind = self.types.get(name) if isinstance(name, str) else None
        if kind is None:
            type_path = child(path, "type") if index is None else child(child(path, "type"), index)
            if not isinstance(name, str):
                raise self.where.error(f"a type name must be a string, got {describe(name)}",
                                       type_path)
            hint = " (a BFCL type: load with kind='bfcl')" if name in BFCL_TYPES else ""
            known = ", ".join(sorted(k for k in self.types if k))
            raise self.where.error(f"unknown type {name!r}; known types: {known}{hint}", type_path)
        return kind

    def _alternatives(self, schema: dict, key: str, path: str, depth: int,
                      nullable: bool) -> TypeIR:
        alts_path = child(path, key)
        alts = self.where.want_list(schema[key], alts_path, key)
        if not alts:
            raise self.where.error(f"{key} must list at least one schema", alts_path)
        # keywords beside anyOf hold for every alternative: A and (B or C) = (A and B) or (A and C)
        rest = {k: v for k, v in schema.items() if k != key and k != "nullable"}
        options = []
        for i, alt in enumerate(alts):
            if rest and isinstance(alt, dict):
                alt = _merge(rest, alt)
            options.append(self._node(alt, child(alts_path, i), depth + 1)[0])
        return _union(options, nullable)

    def _enum(self, schema: dict, path: str, nullable: bool) -> TypeIR:
        if "const" in schema:
            values, values_path = [schema["const"]], child(path, "const")
        else:
            values_path = child(path, "enum")
            values = self.where.want_list(schema["enum"], values_path, "enum")
            if not values:
                raise self.where.error("enum must list at least one value", values_path)
        for i, value in enumerate(values):
            value_path = values_path if "const" in schema else child(values_path, i)
            if not isinstance(value, _SCALARS):
                raise self.where.error(
                    f"enum values must be JSON scalars (string, number, boolean, null), "
                    f"got {describe(value)}", value_path)
            if isinstance(value, float):
                check_number(self.where, value, value_path)
        # null among the values is the IR's nullable flag (the export puts it back)
        kept = tuple(v for v in values if v is not None)
        if not kept:
            return TypeIR("null")
        return TypeIR("enum", values=kept, nullable=nullable or len(kept) < len(values))

    def _single(self, kind: str, schema: dict, path: str, depth: int, nullable: bool) -> TypeIR:
        constraints = self._constraints(kind, schema, path)
        if kind == "object":
            return TypeIR("object", fields=self._fields(schema, path, depth),
                          additional=self._additional(schema, path), nullable=nullable)
        if kind == "array":
            return TypeIR("array", items=self._items(schema, path, depth), nullable=nullable,
                          **constraints)
        if kind == "any":  # already accepts null
            return TypeIR("any", **constraints)
        return TypeIR(kind, nullable=nullable, **constraints)

    def _constraints(self, kind: str, schema: dict, path: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in _APPLIES.get(kind, ()):
            if key not in schema:
                continue
            attr, check = _CONSTRAINTS[key]
            value = schema[key]
            if key.startswith("exclusive") and isinstance(value, bool):
                # draft 4: a boolean that makes the plain bound exclusive
                plain = "minimum" if key == "exclusiveMinimum" else "maximum"
                if value and plain in out:
                    out[attr] = out.pop(plain)
                continue
            out[attr] = check(self.where, value, child(path, key))
        return out

    def _fields(self, schema: dict, path: str, depth: int) -> tuple[ParamIR, ...]:
        props_path = child(path, "properties")
        props = self.where.want_dict(schema.get("properties", {}), props_path, "properties")
        required = schema.get("required", ())
        if "required" in schema:
            self.where.want_list(required, child(path, "required"), "required")
        names: list[str] = []
        for i, name in enumerate(required):
            if not isinstance(name, str):
                raise self.where.error(f"required entries must be strings, got {describe(name)}",
                                       child(child(path, "required"), i))
            if name not in names:
                names.append(name)
        fields = []
        for name, sub in props.items():
            if not isinstance(name, str):
                raise self.where.error(f"property names must be strings, got {describe(name)}",
                                       props_path)
            fields.append(self._param(name, sub, child(props_path, name), name in names, depth))
        fields += [ParamIR(name, _ANY) for name in names if name not in props]
        return tuple(fields)

    def _param(self, name: str, schema: Any, path: str, required: bool, depth: int) -> ParamIR:
        if schema is False:
            raise self.where.error(f"property {name!r} has schema false: no value is allowed", path)
        kind, expanded, expanded_path = self._node(schema, path, depth + 1)
        default = NO_DEFAULT
        if "default" in expanded:
            default = self.where.check_json(expanded["default"], child(expanded_path, "default"))
        return ParamIR(name=name, type=kind,
                       description=self.where.opt_str(expanded, "description", expanded_path),
                       required=required, default=default,
                       title=self.where.opt_str(expanded, "title", expanded_path))

    def _additional(self, schema: dict, path: str) -> bool | None:
        if "additionalProperties" not in schema:
            return None
        value = schema["additionalProperties"]
        if isinstance(value, bool):
            return value
        self.where.want_dict(value, child(path, "additionalProperties"),
                             "additionalProperties (a boolean or a schema)")
        return True

    def _items(self, schema: dict, path: str, depth: int) -> TypeIR | None:
        parts: list[tuple[Any, str]] = []
        if "prefixItems" in schema:
            prefix_path = child(path, "prefixItems")
            prefix = self.where.want_list(schema["prefixItems"], prefix_path, "prefixItems")
            parts += [(s, child(prefix_path, i)) for i, s in enumerate(prefix)]
        if "items" in schema:
            items, items_path = schema["items"], child(path, "items")
            if isinstance(items, (list, tuple)):  # draft-4 tuple
                parts += [(s, child(items_path, i)) for i, s in enumerate(items)]
            elif items is not False:  # false: nothing beyond prefixItems
                parts.append((items, items_path))
        if not parts:
            return None
        found = _union([self._node(s, p, depth + 1)[0] for s, p in parts], False)
        return None if found == _ANY else found


def _union(options: list[TypeIR], nullable: bool) -> TypeIR:
    """One type from alternatives: nulls become ``nullable``, nested unions are flattened,
    duplicates dropped, ``any`` absorbs everything, and one alternative stands for itself."""
    flat: list[TypeIR] = []
    for option in options:
        if option.kind == "any":
            return option
        if option.kind == "null":
            nullable = True
            continue
        if option.nullable:
            nullable = True
            option = replace(option, nullable=False)
        for part in option.options if option.kind == "union" else (option,):
            if part not in flat:
                flat.append(part)
    if not flat:
        return TypeIR("null")
    if len(flat) == 1:
        return replace(flat[0], nullable=nullable)
    return TypeIR("union", options=tuple(flat), nullable=nullable)


def json_schema_to_type(schema: Any, *, file: str = "<object>", tool: str | None = None,
                        path: str = "$") -> TypeIR:
    """Convert a JSON Schema (draft 4 to 2020-12) to a :class:`~toolform.ir.TypeIR`.

    The mapping is described in this module's docstring.

    Parameters
    ----------
    schema : dict or bool
        The schema; local ``$ref`` pointers resolve against it.
    file, tool, path : str
        Where the schema comes from, for errors: the file (or label), the tool's name and the
        schema's JSON path in the file.

    Returns
    -------
    TypeIR

    Raises
    ------
    LoaderError
        On anything the IR cannot hold or that is not valid JSON Schema: a wrong-typed keyword,
        an unknown type name, an unresolvable or cyclic ``$ref``, nesting past :data:`MAX_DEPTH`.
    """
    return SchemaReader(schema, path, Where(file, tool)).read_type()


def json_schema_to_params(schema: Any, *, file: str = "<object>", tool: str | None = None,
                          path: str = "$") -> tuple[ParamIR, ...]:
    """Convert a tool's top-level object schema to its parameters.

    Optional parameters are those not listed in ``required``. ``{}`` gives no parameters.

    Parameters
    ----------
    schema : dict or bool
        An object schema (``{"type": "object", "properties": ..., "required": [...]}``).
    file, tool, path : str
        Where the schema comes from, for errors (see :func:`json_schema_to_type`).

    Returns
    -------
    tuple of ParamIR
        In ``properties`` order.

    Raises
    ------
    LoaderError
        As :func:`json_schema_to_type`, and when the schema does not describe an object.
    """
    return SchemaReader(schema, path, Where(file, tool)).read_params()
