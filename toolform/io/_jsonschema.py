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
* ``allOf`` members are joined into one schema that accepts what every member accepts:
  ``properties`` and ``required`` are combined (a property in two members gets both schemas),
  type names are intersected (``integer`` lies within ``number``), enum values intersected,
  lower bounds raised and upper bounds lowered, two patterns both required. Members that no
  value can satisfy together (no common type or enum value, two constants, two formats) are
  a :class:`LoaderError`, as are two members with an ``anyOf`` each; otherwise annotations
  of the later member win. A member with ``additionalProperties: false`` beside members that
  add properties is read as one object with all of them, with the warning
  ``allof-closed-object`` (JSON Schema itself would reject any value for those properties).
* ``$ref`` must be local (``#/$defs/X``, ``#/definitions/X`` or any JSON pointer into the same
  schema). Keywords beside it override the referenced ones. Errors inside a referenced definition
  name the definition's path.
* **Recursion.** A ``$ref`` that leads back to a schema still being converted (one of its
  enclosing schemas: ``#/$defs/Node`` inside ``Node``, ``#/properties/filter`` inside
  ``filter``, ``#`` anywhere) makes that schema a *named* type and the ``$ref`` a ``ref`` node
  to it (see :mod:`toolform.ir`). The name is the last token of the pointer that is not a
  keyword or an index (``jsonValue``, ``filter``; ``Root`` for ``#``), made unique within the
  tool; the same definition used in two places is one named type. A root that refers to
  itself gives parameters whose ``ref`` nodes stand for the whole root type. ``nullable``
  beside a recursive ``$ref`` is kept; other type keywords there are a :class:`LoaderError`
  (the IR cannot narrow a recursive type in one place), as are a ``$ref`` loop that never
  reaches a schema (``A`` → ``B`` → ``A``) and a recursive ``$ref`` inside ``allOf``.
* ``enum`` makes an ``enum`` of JSON scalars; ``const`` an ``enum`` of one value. A ``null``
  among the values (or in ``type``) makes the enum nullable and is not kept among its values;
  an enum of ``null`` alone is the ``null`` kind. An empty ``enum`` (servers that fill the list
  at run time send ``[]``) is read as the schema without it, with the warning ``enum-empty``
  (JSON Schema itself accepts no value there).
* A tool's parameters are one object. A root ``anyOf``/``oneOf`` of objects (``oneOf:
  [{required: [a]}, {required: [b]}]`` beside the properties, or whole alternative objects) is
  read as one object with every alternative's properties, a property required only when every
  alternative requires it, a property in several alternatives typed by the union of its
  types; the warning ``params-union-merged`` says validation is then looser than the schema.
* With no ``type``: ``properties``, ``additionalProperties``, ``patternProperties`` or
  ``propertyNames`` make an ``object``, ``items`` or ``prefixItems`` an ``array``, anything else
  ``any``.
* ``items`` as a list (a tuple, draft 4) or ``prefixItems`` (2020-12): the array's ``items`` is the
  union of the positional schemas (one schema when they agree). ``items: {}`` or ``true`` means
  "elements of any type" (``items`` None).
* **Maps.** ``additionalProperties``: a boolean is kept; a schema (other than ``{}``) is the
  object's ``value_type``. ``patternProperties`` become ``pattern_types`` (each pattern must be
  a valid regular expression), ``propertyNames`` the ``key_type`` (a string schema; a plain
  ``{"type": "string"}`` says nothing and is dropped).
* ``required`` naming a property that ``properties`` does not declare adds a required field of
  kind ``any`` after the declared ones: that is what JSON Schema means (the key must be there,
  with any value), and real documents rely on it (BFCL's ``waste_calculation.calculate`` lists
  an object's keys only in ``required`` and its description). It is reported as the warning
  ``required-not-declared``. Duplicate names count once; an empty property name is a
  :class:`LoaderError`.
* ``oneOf`` is read as ``anyOf``; two alternatives that plainly accept the same values (two
  equal schemas, ``integer`` beside ``number``, an untyped one) give the warning
  ``oneof-overlap``, since JSON Schema's ``oneOf`` rejects the values both accept.
* Constraints are kept where they apply: lengths, ``pattern`` and ``format`` on strings; bounds
  and ``format`` on numbers; ``minItems``/``maxItems`` on arrays; all of them on ``any``.
  A draft-4 boolean ``exclusiveMinimum: true`` turns ``minimum`` into an exclusive bound.
  OpenAPI's ``nullable: true`` is honoured. A ``pattern`` that is not an ECMA-262 regular
  expression (as jsonschema-rs, the validator grading uses, reads it) and bounds no value can
  meet (``minimum`` above ``maximum``, ``minLength`` above ``maxLength``...) are a
  :class:`LoaderError`.
* ``description``, ``title`` and ``default`` of a property go to its :class:`ParamIR`; a default
  that is not a value of the property's type gives the warning ``default-wrong-type``.

Limits: a schema nested deeper than :data:`MAX_DEPTH` levels, or expanding (through ``$ref``) to
more than :data:`MAX_NODES` schemas, is a :class:`LoaderError`, so no input can hang a loader or
exhaust the interpreter's stack.
"""

from __future__ import annotations

import functools
import json
import math
import re
import warnings
from dataclasses import dataclass, field, replace
from typing import Any, Mapping
from urllib.parse import unquote

from ..errors import LoaderError, LoaderWarning
from ..ir import NO_DEFAULT, ParamIR, TypeIR, unfold

__all__ = [
    "BFCL_TYPES",
    "JSON_TYPES",
    "MAX_DEPTH",
    "MAX_NODES",
    "SchemaReader",
    "Where",
    "TYPE_KEYWORDS",
    "check_count",
    "check_number",
    "check_pattern",
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
    """The file and tool being read; raises :class:`LoaderError` naming them and a JSON path,
    and collects :class:`LoaderWarning` s.

    Parameters
    ----------
    file : str
        The file path or label (``"<object>"``).
    tool : str or None
        The tool's name, ``"#i"`` for the i-th tool before its name is known, or None outside any
        tool.
    sink : list or None
        Where :meth:`warn` puts its warnings (the loaders hand the list to
        ``Toolset.warnings``); None issues them through :func:`warnings.warn`.
    """

    file: str
    tool: str | None = None
    sink: list[LoaderWarning] | None = field(default=None, compare=False, repr=False)

    def error(self, message: str, path: str | None) -> LoaderError:
        """A :class:`LoaderError` at ``path`` (to be raised by the caller)."""
        return LoaderError(message, file=self.file, tool=self.tool, path=path)

    def warn(self, code: str, message: str, path: str | None) -> None:
        """Report a :class:`LoaderWarning` named ``code`` at ``path``."""
        found = LoaderWarning(code, message, file=self.file, tool=self.tool, path=path)
        if self.sink is None:
            warnings.warn(found, stacklevel=3)
        else:
            self.sink.append(found)

    def for_tool(self, tool: str | None) -> Where:
        """The same file and sink, naming ``tool``."""
        return Where(self.file, tool, self.sink)

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


@functools.lru_cache(maxsize=4096)
def _regex_problem(pattern: str) -> str | None:
    """Why ``pattern`` is not an ECMA-262 regular expression (JSON Schema's dialect, as
    jsonschema-rs, the validator grading uses, reads it), or None when it is one."""
    import jsonschema_rs

    try:
        jsonschema_rs.validator_for({"pattern": pattern})
    except (jsonschema_rs.ValidationError, ValueError) as exc:
        return str(exc).splitlines()[0]
    return None


def check_pattern(where: Where, value: Any, path: str) -> str:
    """``value`` if it is a string holding a valid regular expression, else raise."""
    _check_string(where, value, path)
    if _regex_problem(value) is not None:
        raise where.error(f"{json.dumps(value, ensure_ascii=False)} is not a valid regular "
                          "expression (ECMA-262, as JSON Schema reads patterns)", path)
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
    "pattern": ("pattern", check_pattern),
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
_PLAIN_STRING = TypeIR("string")

#: Keywords that change what a schema accepts; any other keyword beside a ``$ref`` is an
#: annotation (description, title, default, examples...) or one the loader ignores.
TYPE_KEYWORDS = frozenset(("type", "enum", "const", "anyOf", "oneOf", "allOf", "properties",
                           "required", "additionalProperties", "patternProperties",
                           "propertyNames", "items", "prefixItems", "nullable", *_CONSTRAINTS))
# Pointer tokens that name a place in a schema rather than a type; skipped when a recursive
# type is named after the pointer of the $ref that closes it.
_STRUCTURAL = frozenset(("properties", "items", "prefixItems", "anyOf", "oneOf", "allOf",
                         "$defs", "definitions", "additionalProperties", "patternProperties",
                         "propertyNames", "not", "if", "then", "else", "components", "schemas"))


def _merge(base: dict, extra: dict) -> dict:
    """``extra`` over ``base``, combining ``properties`` and ``required``."""
    out = {**base, **extra}
    for key, join in (("properties", lambda a, b: {**a, **b}), ("required", lambda a, b: [*a, *b])):
        a, b = base.get(key), extra.get(key)
        kind = dict if key == "properties" else (list, tuple)
        if isinstance(a, kind) and isinstance(b, kind):
            out[key] = join(a, b)
    return out


def _json_equal(a: Any, b: Any) -> bool:
    """Equality of JSON values (``True`` is not ``1``)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _type_names(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


@dataclass
class _Open:
    """A schema being converted: its path, whether it is exactly the schema at that path
    (a ``$ref`` back to it then means this very type), and the name it gets once a ``$ref``
    refers back to it."""

    path: str
    pure: bool
    name: str = ""


class SchemaReader:
    """Converts one JSON Schema document (a tool's input or output schema) to IR.

    Parameters
    ----------
    root : object
        The whole schema; local ``$ref`` pointers resolve against it.
    root_path : str
        Its JSON path in the file (``$.tools[3].inputSchema``).
    where : Where
        File and tool, for errors and warnings.
    types : mapping of str to str
        Type names accepted in ``type`` and the IR kind of each (:data:`JSON_TYPES` or
        :data:`BFCL_TYPES`).
    names : dict of str to TypeIR, optional
        The named (recursive) types already read for this tool, shared by the readers of its
        input and output schemas so that one name means one type within a tool.
    """

    def __init__(self, root: Any, root_path: str, where: Where,
                 types: Mapping[str, str] = JSON_TYPES,
                 names: dict[str, TypeIR] | None = None) -> None:
        self.root = root
        self.root_path = root_path
        self.where = where
        self.types = types
        self._active: list[str] = []  # $refs being expanded, outermost first
        self._open: list[_Open] = []  # schemas being converted, outermost first
        self._names = {} if names is None else names
        self._nodes = 0

    # -- entry points --------------------------------------------------------------------------
    def read_type(self) -> TypeIR:
        """The root schema as a :class:`TypeIR`."""
        return self._node(self.root, self.root_path, 0)[0]

    def read_params(self) -> tuple[ParamIR, ...]:
        """The root schema, which must describe an object, as a tool's parameters.

        An empty schema (``{}`` or ``true``) gives no parameters. When the root refers to
        itself (``$ref: "#"``), the parameters are its fields with those references standing
        for the whole (named) root type.
        """
        found = self.read_type()
        if found.kind == "object":
            return unfold(found).fields
        if found.kind == "any":
            return ()
        if found.kind == "union" and all(o.kind == "object" and not o.name
                                         for o in found.options):
            # real servers send `oneOf: [{required: [a]}, {required: [b]}]` beside their
            # properties, or a union of whole objects: a tool's parameters are one object
            self.where.warn(
                "params-union-merged",
                f"the parameters schema is a union of {len(found.options)} objects (anyOf/oneOf); "
                "read as one object with the properties of all of them, each required only where "
                "every alternative requires it, so validation accepts calls that fit no single "
                "alternative", self.root_path)
            return _merged_fields(found.options)
        raise self.where.error(f"a parameters schema must describe an object, got a {found.kind} "
                               "schema", self.root_path)

    # -- expansion of $ref and allOf -----------------------------------------------------------
    def _node(self, schema: Any, path: str, depth: int,
              pure: bool = True) -> tuple[TypeIR, dict, str]:
        """Convert one schema; also return it expanded (for annotations) and its path.

        ``pure`` is False when ``schema`` is the schema at ``path`` with keywords from
        elsewhere merged in (an ``anyOf`` alternative with its siblings).
        """
        if depth > MAX_DEPTH:
            raise self.where.error(f"schema nested deeper than {MAX_DEPTH} levels", path)
        self._nodes += 1
        if self._nodes > MAX_NODES:
            raise self.where.error(f"schema expands to more than {MAX_NODES} schemas", path)
        pushed_before = len(self._active)
        try:
            expanded, path, pure, closes = self._expand(schema, path, 0, pure, [])
            if closes is not None:
                return closes, expanded, path
            entry = _Open(path, pure)
            self._open.append(entry)
            try:
                found = self._convert(expanded, path, depth)
            finally:
                self._open.pop()
            if entry.name:
                found = self._named(entry.name, found)
            return found, expanded, path
        finally:
            del self._active[pushed_before:]

    def _expand(self, schema: Any, path: str, depth: int, pure: bool,
                chain: list[str]) -> tuple[dict, str, bool, TypeIR | None]:
        """Follow ``$ref`` and merge ``allOf`` until a plain schema object remains.

        Returns the schema, its path, whether it is exactly the schema at that path, and a
        ``ref`` type when a ``$ref`` led back to a schema still being converted (a recursive
        type). ``chain`` holds the refs followed for this one schema: one met twice never
        reaches a schema.
        """
        while True:
            depth += 1
            if depth > MAX_DEPTH:
                raise self.where.error(f"$ref/allOf chain longer than {MAX_DEPTH} steps", path)
            if schema is True:
                return {}, path, pure, None
            schema = self.where.want_dict(schema, path, "a schema")
            if "$ref" in schema:
                ref_path = child(path, "$ref")
                ref = schema["$ref"]
                if not isinstance(ref, str):
                    raise self.where.error(f"$ref must be a string, got {describe(ref)}", ref_path)
                if ref in chain:
                    loop = " -> ".join([*chain[chain.index(ref):], ref])
                    raise self.where.error(f"$ref cycle ({loop}) that never reaches a schema",
                                           ref_path)
                extras = {k: v for k, v in schema.items() if k != "$ref"}
                target, target_path = self._resolve(ref, ref_path)
                if target is True:
                    target = {}
                target = self.where.want_dict(target, target_path, f"the target of $ref {ref!r}")
                back = next((o for o in reversed(self._open) if o.pure and o.path == target_path),
                            None)
                if back is not None:
                    return (_merge(target, extras), target_path, pure,
                            self._ref_back(back, ref, extras, ref_path))
                typed = TYPE_KEYWORDS.intersection(extras)
                if ref in self._active and typed:
                    raise self.where.error(
                        f"a recursive $ref with {', '.join(sorted(typed))} beside it: the IR "
                        "cannot narrow a recursive type in one place", ref_path)
                chain.append(ref)
                self._active.append(ref)
                schema = _merge(target, extras)
                path, pure = target_path, not typed
                continue
            if "allOf" in schema:
                parts_path = child(path, "allOf")
                merged: dict = {}
                parts = self.where.want_list(schema["allOf"], parts_path, "allOf")
                for i, part in enumerate(parts):
                    part_path = child(parts_path, i)
                    part, _, _, closes = self._expand(part, part_path, depth, True, chain)
                    if closes is not None:
                        raise self.where.error("a $ref back to an enclosing schema inside allOf "
                                               "is not supported", part_path)
                    merged = self._conjoin(merged, part, part_path)
                rest = {k: v for k, v in schema.items() if k != "allOf"}
                schema = self._conjoin(merged, rest, path)
            return schema, path, pure, None

    def _ref_back(self, back: _Open, ref: str, extras: dict, ref_path: str) -> TypeIR:
        """The ``ref`` node for a ``$ref`` that leads back to the open schema ``back``."""
        typed = TYPE_KEYWORDS.intersection(extras) - {"nullable"}
        if typed:
            raise self.where.error(f"a recursive $ref with {', '.join(sorted(typed))} beside it: "
                                   "the IR cannot narrow a recursive type in one place", ref_path)
        nullable = extras.get("nullable", False)
        if not isinstance(nullable, bool):
            raise self.where.error(f"nullable must be a boolean, got {describe(nullable)}",
                                   child(ref_path[:-len(".$ref")], "nullable"))
        if not back.name:
            back.name = self._fresh_name(ref)
        return TypeIR("ref", ref=back.name, nullable=nullable)

    def _fresh_name(self, ref: str) -> str:
        """A name for the type a recursive ``$ref`` refers to: the last token of its pointer
        that is not a schema keyword or an index (``#/$defs/jsonValue`` → ``jsonValue``,
        ``#/properties/filter/anyOf/1`` → ``filter``, ``#`` → ``Root``), made unique among
        the names in use."""
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in unquote(ref[1:]).split("/")[1:]]
        base = next((t for t in reversed(tokens) if t and t not in _STRUCTURAL
                     and not t.isdigit()), "Root")
        taken = {o.name for o in self._open} | set(self._names)
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        return name

    def _named(self, name: str, found: TypeIR) -> TypeIR:
        """``found`` as the type called ``name`` (its ``ref`` nodes named so already). A type
        equal to one already read for this tool under the same base name is that one."""
        if found.name:  # the schema is itself another named type: one type, one name
            found = _retarget(found, name, found.name)
        else:
            found = replace(found, name=name)
        base = re.sub(r"_\d+$", "", found.name)
        for other_name, other in self._names.items():
            if other_name != found.name and re.sub(r"_\d+$", "", other_name) == base \
                    and _rename(found, other_name) == other:
                return other
        if found.name in self._names and self._names[found.name] != found:
            taken = {o.name for o in self._open} | set(self._names)
            n = 2
            while f"{base}_{n}" in taken:
                n += 1
            found = _rename(found, f"{base}_{n}")
        self._names[found.name] = found
        return found

    def _conjoin(self, a: dict, b: dict, path: str) -> dict:
        """Two ``allOf`` members as one schema: what both accept.

        ``properties`` and ``required`` are combined (a property in both gets both schemas),
        type names intersected (``integer`` within ``number``), enum values intersected,
        lower bounds raised and upper bounds lowered, two patterns both required. Members
        that no value can satisfy together (no common type, no common enum value, two
        formats, two ``anyOf``) are a :class:`LoaderError` at ``path``; annotations of the
        later member win.
        """
        out = {**a, **b}
        for key in a.keys() & b.keys():
            x, y = a[key], b[key]
            if _json_equal(x, y):
                continue
            if key == "properties" and isinstance(x, dict) and isinstance(y, dict):
                out[key] = {**x, **y}
                for name in x.keys() & y.keys():
                    out[key][name] = {"allOf": [x[name], y[name]]}
            elif key == "required" and isinstance(x, (list, tuple)) \
                    and isinstance(y, (list, tuple)):
                out[key] = [*x, *(n for n in y if n not in x)]
            elif key == "type":
                out[key] = self._common_types(x, y, path)
            elif key == "enum" and isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
                common = [v for v in x if any(_json_equal(v, w) for w in y)]
                if not common:
                    raise self.where.error("allOf members allow no common enum value", path)
                out[key] = common
            elif key == "const":
                raise self.where.error(f"allOf members ask for two constants, {describe(x)} and "
                                       f"{describe(y)}", path)
            elif key in ("minimum", "minLength", "minItems") and _numbers(x, y):
                out[key] = max(x, y)
            elif key in ("maximum", "maxLength", "maxItems") and _numbers(x, y):
                out[key] = min(x, y)
            elif key == "exclusiveMinimum" and _numbers(x, y):
                out[key] = max(x, y)
            elif key == "exclusiveMaximum" and _numbers(x, y):
                out[key] = min(x, y)
            elif key == "pattern" and isinstance(x, str) and isinstance(y, str):
                out[key] = f"^(?=[\\s\\S]*?(?:{x}))(?=[\\s\\S]*?(?:{y}))"
            elif key == "format":
                raise self.where.error(f"allOf members ask for two formats, {describe(x)} and "
                                       f"{describe(y)}", path)
            elif key in ("items", "propertyNames"):
                out[key] = {"allOf": [x, y]}
            elif key == "additionalProperties":
                if x is False or y is False:
                    out[key] = False
                elif x is True or y is True:
                    out[key] = y if x is True else x
                else:
                    out[key] = {"allOf": [x, y]}
            elif key == "nullable" and isinstance(x, bool) and isinstance(y, bool):
                out[key] = x and y
            elif key in ("anyOf", "oneOf"):
                raise self.where.error(f"allOf members with an {key} each are not supported (the "
                                       "IR would need every combination of their alternatives)",
                                       path)
        if "anyOf" in a and "oneOf" in b or "oneOf" in a and "anyOf" in b:
            raise self.where.error("allOf members with an anyOf and a oneOf are not supported",
                                   path)
        for closed, other in ((a, b), (b, a)):
            props = other.get("properties")
            if closed.get("additionalProperties") is False and isinstance(props, dict):
                extra = [n for n in props if n not in (closed.get("properties") or {})]
                if extra:
                    self.where.warn(
                        "allof-closed-object",
                        f"an allOf member with additionalProperties: false does not see the "
                        f"properties of the others ({', '.join(map(repr, extra[:5]))}), so JSON "
                        "Schema would reject any value for them; read as one object that has "
                        "them", path)
        return out

    def _common_types(self, x: Any, y: Any, path: str) -> Any:
        """The type names both members allow (``integer`` is within ``number``)."""
        xs, ys = _type_names(x), _type_names(y)
        common = [t for t in xs if t in ys or (t == "integer" and "number" in ys)]
        common += [t for t in ys if t == "integer" and "number" in xs and t not in common]
        if not common:
            raise self.where.error(f"allOf members have no type in common ({describe(x)} and "
                                   f"{describe(y)}): no value satisfies both", path)
        return common[0] if len(common) == 1 else common

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
        if isinstance(schema.get("enum"), list) and not schema["enum"] and "const" not in schema:
            # servers that fill an enum at run time send it empty (`"enum": []`)
            self.where.warn("enum-empty", "enum lists no value, so JSON Schema accepts no value "
                            "here; read as the same schema without its enum", child(path, "enum"))
            schema = {k: v for k, v in schema.items() if k != "enum"}
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
            if any(k in schema for k in ("properties", "additionalProperties",
                                         "patternProperties", "propertyNames")):
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
        pure = not TYPE_KEYWORDS.intersection(rest)
        options = []
        for i, alt in enumerate(alts):
            if rest and isinstance(alt, dict):
                alt = _merge(rest, alt)
            options.append(self._node(alt, child(alts_path, i), depth + 1, pure)[0])
        if key == "oneOf":
            self._check_exclusive(options, alts_path)
        return _union(options, nullable)

    def _check_exclusive(self, options: list[TypeIR], path: str) -> None:
        """Warn (``oneof-overlap``) when two ``oneOf`` alternatives plainly accept the same
        values: JSON Schema then rejects those values, the IR's union accepts them."""
        for i, a in enumerate(options):
            for j in range(i + 1, len(options)):
                b = options[j]
                kinds = {a.kind, b.kind}
                if a == b or "any" in kinds or kinds == {"integer", "number"}:
                    self.where.warn(
                        "oneof-overlap",
                        f"oneOf alternatives {i} ({_kind_phrase(a)}) and {j} ({_kind_phrase(b)}) "
                        "both accept some values, which JSON Schema's oneOf then rejects; read as "
                        "anyOf (a value must fit at least one alternative)", path)
                    return

    def _enum(self, schema: dict, path: str, nullable: bool) -> TypeIR:
        if "const" in schema:
            values, values_path = [schema["const"]], child(path, "const")
        else:
            values_path = child(path, "enum")
            values = self.where.want_list(schema["enum"], values_path, "enum")
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
            additional, value_type = self._additional(schema, path, depth)
            return TypeIR("object", fields=self._fields(schema, path, depth),
                          additional=additional, value_type=value_type,
                          key_type=self._key_type(schema, path, depth),
                          pattern_types=self._pattern_types(schema, path, depth),
                          nullable=nullable)
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
        self._check_bounds(out, path)
        return out

    def _check_bounds(self, found: dict[str, Any], path: str) -> None:
        """Raise when a lower bound is past its upper bound: no value could be given."""
        if len(found) < 2:
            return
        for low, high, unit in (("min_length", "max_length", "characters"),
                                ("min_items", "max_items", "items")):
            if found.get(low) is not None and found.get(high) is not None \
                    and found[low] > found[high]:
                raise self.where.error(f"{_KEYWORD[low]} {found[low]} is above {_KEYWORD[high]} "
                                       f"{found[high]}: no value has that many {unit}",
                                       child(path, _KEYWORD[high]))
        for low in ("minimum", "exclusive_minimum"):
            for high in ("maximum", "exclusive_maximum"):
                a, b = found.get(low), found.get(high)
                if a is None or b is None:
                    continue
                if a > b or (a == b and (low.startswith("exclusive") or
                                         high.startswith("exclusive"))):
                    raise self.where.error(f"{_KEYWORD[low]} {a} and {_KEYWORD[high]} {b} leave "
                                           "no number that satisfies both",
                                           child(path, _KEYWORD[high]))

    def _fields(self, schema: dict, path: str, depth: int) -> tuple[ParamIR, ...]:
        props_path = child(path, "properties")
        props = self.where.want_dict(schema.get("properties", {}), props_path, "properties")
        required = schema.get("required", ())
        required_path = child(path, "required")
        if "required" in schema:
            self.where.want_list(required, required_path, "required")
        names: list[str] = []
        for i, name in enumerate(required):
            if not isinstance(name, str):
                raise self.where.error(f"required entries must be strings, got {describe(name)}",
                                       child(required_path, i))
            if name not in names:
                names.append(name)
        fields = []
        for name, sub in props.items():
            if not isinstance(name, str):
                raise self.where.error(f"property names must be strings, got {describe(name)}",
                                       props_path)
            if not name:
                raise self.where.error("a property name must not be empty",
                                       child(props_path, name))
            fields.append(self._param(name, sub, child(props_path, name), name in names, depth))
        for i, name in enumerate(required):
            if name not in props and name in names:
                names.remove(name)  # once per name
                if not name:
                    raise self.where.error("a property name must not be empty",
                                           child(required_path, i))
                self.where.warn("required-not-declared",
                                f"required names {name!r}, which properties does not declare; "
                                "read as a required key of any type", child(required_path, i))
                fields.append(ParamIR(name, _ANY))
        return tuple(fields)

    def _param(self, name: str, schema: Any, path: str, required: bool, depth: int) -> ParamIR:
        if schema is False:
            raise self.where.error(f"property {name!r} has schema false: no value is allowed", path)
        kind, expanded, expanded_path = self._node(schema, path, depth + 1)
        default = NO_DEFAULT
        if "default" in expanded:
            default_path = child(expanded_path, "default")
            default = self.where.check_json(expanded["default"], default_path)
            if not _fits(default, kind):
                self.where.warn("default-wrong-type",
                                f"the default ({describe(default)}) is not a value of the "
                                f"parameter's type ({_kind_phrase(kind)}); kept as written",
                                default_path)
        return ParamIR(name=name, type=kind,
                       description=self.where.opt_str(expanded, "description", expanded_path),
                       required=required, default=default,
                       title=self.where.opt_str(expanded, "title", expanded_path))

    def _additional(self, schema: dict, path: str, depth: int) -> tuple[bool | None,
                                                                         TypeIR | None]:
        """``additional`` and ``value_type`` from ``additionalProperties``."""
        if "additionalProperties" not in schema:
            return None, None
        value = schema["additionalProperties"]
        if isinstance(value, bool):
            return value, None
        value_path = child(path, "additionalProperties")
        self.where.want_dict(value, value_path, "additionalProperties (a boolean or a schema)")
        found = self._node(value, value_path, depth + 1)[0]
        return True, None if found == _ANY else found

    def _pattern_types(self, schema: dict, path: str,
                       depth: int) -> tuple[tuple[str, TypeIR], ...]:
        if "patternProperties" not in schema:
            return ()
        patterns_path = child(path, "patternProperties")
        patterns = self.where.want_dict(schema["patternProperties"], patterns_path,
                                        "patternProperties")
        out = []
        for pattern, sub in patterns.items():
            sub_path = child(patterns_path, pattern)
            check_pattern(self.where, pattern, sub_path)
            if sub is False:
                raise self.where.error("a patternProperties schema of false (no such key "
                                       "allowed) is not supported", sub_path)
            out.append((pattern, self._node(sub, sub_path, depth + 1)[0]))
        return tuple(out)

    def _key_type(self, schema: dict, path: str, depth: int) -> TypeIR | None:
        if "propertyNames" not in schema:
            return None
        names_path = child(path, "propertyNames")
        found = self._node(schema["propertyNames"], names_path, depth + 1)[0]
        if found.kind == "any":  # keys are strings: keep what constrains strings
            found = TypeIR("string", **{attr: getattr(found, attr) for key in _APPLIES["string"]
                                        for attr in (_CONSTRAINTS[key][0],)
                                        if getattr(found, attr) is not None})
        if found == _PLAIN_STRING:  # every key is a string anyway
            return None
        if found.kind not in ("string", "enum") or found.nullable or (
                found.kind == "enum" and found.enum_base() != "string"):
            raise self.where.error(f"propertyNames must describe strings (object keys), got "
                                   f"{_kind_phrase(found)}", names_path)
        return found

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


_KEYWORD = {"min_length": "minLength", "max_length": "maxLength", "min_items": "minItems",
            "max_items": "maxItems", "minimum": "minimum", "maximum": "maximum",
            "exclusive_minimum": "exclusiveMinimum", "exclusive_maximum": "exclusiveMaximum"}


def _numbers(*values: Any) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _kind_phrase(t: TypeIR) -> str:
    if t.kind == "enum":
        return "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in t.values[:6])
    if t.kind == "union":
        return " or ".join(_kind_phrase(o) for o in t.options)
    if t.kind == "ref":
        return t.ref
    return t.kind + (" or null" if t.nullable else "")


def _fits(value: Any, t: TypeIR) -> bool:
    """Whether the JSON value ``value`` has the shape of ``t`` (kinds, enum values, fields
    and items; bounds and patterns are not checked)."""
    if t.kind in ("any", "ref"):
        return True
    if value is None:
        return t.nullable or t.kind == "null"
    if t.kind == "union":
        return any(_fits(value, o) for o in t.options)
    if t.kind == "enum":
        return any(_json_equal(value, v) for v in t.values)
    if t.kind == "string":
        return isinstance(value, str)
    if t.kind == "integer":
        return _numbers(value) and (isinstance(value, int) or value.is_integer())
    if t.kind == "number":
        return _numbers(value)
    if t.kind == "boolean":
        return isinstance(value, bool)
    if t.kind == "array":
        return isinstance(value, list) and (t.items is None or all(_fits(v, t.items)
                                                                   for v in value))
    if t.kind == "object":
        if not isinstance(value, dict):
            return False
        declared = {f.name: f.type for f in t.fields}
        return all(_fits(v, declared[k]) if k in declared else
                   t.value_type is None or _fits(v, t.value_type) for k, v in value.items())
    return False


def _retarget(t: TypeIR, old: str, new: str) -> TypeIR:
    """``t`` with its ``ref`` nodes to ``old`` pointing at ``new`` instead."""
    if t.kind == "ref":
        return replace(t, ref=new) if t.ref == old else t
    if t.name == old:
        return t
    return t.map_children(lambda c: _retarget(c, old, new))


def _rename(t: TypeIR, new: str) -> TypeIR:
    """The named type ``t`` called ``new``, with the references to it renamed too."""
    return replace(t, name=new).map_children(lambda c: _retarget(c, t.name, new))


def _merged_fields(objects: tuple[TypeIR, ...]) -> tuple[ParamIR, ...]:
    """The fields of alternative object types as one object's: in order of first appearance, a
    field's type the union of its types, required when every alternative requires it, and its
    description, title and default the first alternative's that gives one."""
    by_name: dict[str, list[ParamIR]] = {}
    for obj in objects:
        for f in obj.fields:
            by_name.setdefault(f.name, []).append(f)
    merged = []
    for name, found in by_name.items():
        first = found[0]
        merged.append(replace(
            first,
            type=_alternative_types([f.type for f in found]),
            required=len(found) == len(objects) and all(f.required for f in found),
            description=next((f.description for f in found if f.description), ""),
            title=next((f.title for f in found if f.title), ""),
            default=next((f.default for f in found if f.has_default), NO_DEFAULT)))
    return tuple(merged)


def _alternative_types(types: list[TypeIR]) -> TypeIR:
    """One field's types in several alternatives as one type: a discriminator's constants
    (``kind: "file"`` / ``kind: "folder"``) as one enum, other types as their union."""
    if all(t.kind == "enum" and t == TypeIR("enum", values=t.values, nullable=t.nullable)
           for t in types):
        # keyed with the value's type: True == 1 in a dict
        values = tuple({(type(v), v): v for t in types for v in t.values}.values())
        return TypeIR("enum", values=values, nullable=any(t.nullable for t in types))
    return _union(types, False)


def _union(options: list[TypeIR], nullable: bool) -> TypeIR:
    """One type from alternatives: nulls become ``nullable``, nested unions are flattened,
    duplicates dropped, ``any`` absorbs everything, and one alternative stands for itself.
    A named (recursive) alternative keeps its own ``nullable``, which its references share."""
    flat: list[TypeIR] = []
    for option in options:
        if option.kind == "any":
            return option
        if option.kind == "null":
            nullable = True
            continue
        if option.nullable:
            nullable = True
            if not option.name:
                option = replace(option, nullable=False)
        parts = option.options if option.kind == "union" and not option.name else (option,)
        for part in parts:
            if part not in flat:
                flat.append(part)
    if not flat:
        return TypeIR("null")
    if len(flat) == 1:
        return flat[0].or_null() if nullable else flat[0]
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
        an unknown type name, an unresolvable ``$ref`` or a ``$ref`` loop that never reaches a
        schema, an invalid pattern, bounds no value meets, nesting past :data:`MAX_DEPTH`.

    Warns
    -----
    LoaderWarning
        Through :func:`warnings.warn`, for what the loaders report on ``Toolset.warnings``
        (``required-not-declared``, ``default-wrong-type``, ``oneof-overlap``,
        ``allof-closed-object``).
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
