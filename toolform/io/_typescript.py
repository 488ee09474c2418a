"""TypeScript declarations as tools, read with tree-sitter's TypeScript grammar.

:func:`from_typescript` takes the text of a ``.ts``/``.d.ts`` file (or its path) and returns one
tool per function declaration:

- ``declare function name(...): R;``, ``function name(...) {...}`` and their ``export`` forms;
- inside a ``namespace``, ``type name = (_: {...}) => R;`` (the way some vendors show tools).

A function whose only parameter is an inline object type, or is called ``params``, ``args``,
``input`` or ``_``, takes its tool parameters from that object (the one-object convention of
function calling); otherwise each TypeScript parameter is a tool parameter.

Types: ``string``/``number``/``boolean``/``null`` map to their kinds, ``bigint`` to integer,
``any``/``unknown`` to any, ``object`` and ``Record<string, T>`` or an index signature to a
free-form object, ``Date`` to a date-time string; ``T[]``, ``Array<T>`` and
``ReadonlyArray<T>`` to arrays, a tuple ``[A, B]`` to an array of exactly two items; object
literals, ``interface`` (with ``extends``) and ``type`` aliases to objects; ``A & B`` of objects
to one object; a union of literals to an enum, other unions to unions, ``| null`` or
``| undefined`` to nullable; ``?`` makes a parameter or property optional. A return type
(``Promise<T>`` unwrapped) other than ``void``/``unknown``/``any`` becomes ``ToolIR.returns``.

JSDoc: the text before the first tag is the description of the function or property;
``@param name desc`` (also ``{type} name - desc``, ``[name=default]``, ``params.name``) describes
a parameter. Since TypeScript's ``number`` cannot say "integer", the tags of
typescript-json-schema are read too: ``@integer`` or ``@type integer``, ``@minimum``,
``@maximum``, ``@exclusiveMinimum``, ``@exclusiveMaximum``, ``@minLength``, ``@maxLength``,
``@minItems``, ``@maxItems``, ``@pattern``, ``@format`` and ``@default`` (JSON).

Anything else (a syntax error, an unknown type name, a recursive interface, a generic, a method
in an object type, an overloaded function) is a :class:`~toolform.errors.LoaderError` naming
the file, the function and the path to the parameter (``$.order.items[].sku``), with the line.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..errors import LoaderError, MissingDependencyError
from ..ir import NO_DEFAULT, ParamIR, ToolIR, Toolset, TypeIR

__all__ = ["from_typescript"]

_PREDEFINED = {"string": TypeIR("string"), "number": TypeIR("number"),
               "boolean": TypeIR("boolean"), "any": TypeIR("any"), "unknown": TypeIR("any"),
               "null": TypeIR("null"), "undefined": TypeIR("null"), "bigint": TypeIR("integer"),
               "object": TypeIR("object", additional=True)}
_NAMED = {"Date": TypeIR("string", format="date-time"), "bigint": TypeIR("integer"),
          "Object": TypeIR("object", additional=True)}
_NO_RETURN = {"void", "unknown", "any", "never", "undefined"}
_ONE_OBJECT_NAMES = {"params", "args", "input", "_"}
_NUMERIC_TAGS = {"minimum": "minimum", "maximum": "maximum",
                 "exclusiveminimum": "exclusive_minimum", "exclusivemaximum": "exclusive_maximum",
                 "minlength": "min_length", "maxlength": "max_length",
                 "minitems": "min_items", "maxitems": "max_items"}
_SINGLE_QUOTED = re.compile(r'\\(.)|"')
_TAG = re.compile(r"^@(\S+)\s*(.*)$", re.S)
_PARAM = re.compile(r"^(?:\{[^}]*\}\s*)?(\[[^\]]+\]|\S+)\s*(?:-\s*)?(.*)$", re.S)


@dataclass
class _Doc:
    """A parsed JSDoc comment."""

    text: str = ""
    params: dict[str, str] = field(default_factory=dict)
    param_defaults: dict[str, Any] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)


def _requote(m: re.Match[str]) -> str:
    if m.group(1) is None:
        return '\\"'
    return "'" if m.group(1) == "'" else m.group(0)


def _fold(text: str) -> str:
    paragraphs = [" ".join(p.split()) for p in text.split("\n\n")]
    return "\n\n".join(p for p in paragraphs if p)


def _parse_jsdoc(comment: str) -> _Doc:
    body = comment[3:-2] if comment.startswith("/**") and comment.endswith("*/") else ""
    lines = [re.sub(r"^\s*\*? ?", "", line) for line in body.splitlines()]
    chunks: list[str] = [""]
    for line in lines:
        if line.lstrip().startswith("@"):
            chunks.append(line.strip())
        else:
            chunks[-1] += "\n" + line
    doc = _Doc(text=_fold(chunks[0]))
    for chunk in chunks[1:]:
        m = _TAG.match(chunk)
        if m is None:
            continue
        tag, rest = m.group(1).lower(), m.group(2).strip()
        if tag in ("param", "arg", "argument", "property", "prop"):
            pm = _PARAM.match(rest)
            if pm is None:
                continue
            name, desc = pm.group(1), _fold(pm.group(2))
            if name.startswith("["):
                name, _, default = name[1:-1].partition("=")
                if default:
                    doc.param_defaults[name.strip()] = default.strip()
            doc.params[name.strip()] = desc
        else:
            doc.tags[tag] = " ".join(rest.split())
    return doc


def _parser() -> Any:
    try:
        from tree_sitter_language_pack import get_parser
    except ImportError as exc:
        raise MissingDependencyError("tree-sitter-language-pack",
                                     purpose="reading TypeScript declarations") from exc
    return get_parser("typescript")


class _Reader:
    """Reads one TypeScript source; errors name the file, the function and the path."""

    def __init__(self, source: bytes, file: str) -> None:
        self.source = source
        self.file = file
        self.tool: str | None = None
        self.aliases: dict[str, Any] = {}   # name -> interface_declaration / type_alias node
        self.resolving: list[str] = []

    # -- helpers -------------------------------------------------------------------------------
    def text(self, node: Any) -> str:
        return self.source[node.start_byte:node.end_byte].decode("utf-8")

    def error(self, message: str, node: Any, path: str = "$") -> LoaderError:
        line, column = node.start_point
        return LoaderError(f"{message} (line {line + 1}, column {column + 1})", file=self.file,
                           tool=self.tool, path=path)

    def doc_before(self, node: Any) -> _Doc:
        prev = node.prev_sibling
        while prev is not None and prev.type in (";", ","):
            prev = prev.prev_sibling
        if prev is not None and prev.type == "comment" and self.text(prev).startswith("/**"):
            gap = self.source[prev.end_byte:node.start_byte].decode("utf-8")
            if gap.strip(" \t\r\n;,") == "":
                return _parse_jsdoc(self.text(prev))
        return _Doc()

    # -- declarations --------------------------------------------------------------------------
    def collect(self, root: Any) -> list[tuple[Any, Any, _Doc]]:
        """Index interfaces and aliases; return (name node, signature node, doc) per function."""
        found: list[tuple[Any, Any, _Doc]] = []
        self._walk(root, found, in_namespace=False, doc_node=None)
        return found

    def _walk(self, node: Any, found: list, in_namespace: bool, doc_node: Any) -> None:
        for child in node.named_children:
            anchor = doc_node or child
            kind = child.type
            if kind in ("export_statement", "ambient_declaration", "expression_statement"):
                self._walk(child, found, in_namespace, anchor)
            elif kind in ("internal_module", "module"):
                body = child.child_by_field_name("body")
                if body is not None:
                    self._walk(body, found, True, None)
            elif kind in ("interface_declaration", "type_alias_declaration"):
                name = child.child_by_field_name("name")
                if child.child_by_field_name("type_parameters") is not None:
                    self.aliases[self.text(name)] = None  # generic: an error when used
                else:
                    self.aliases[self.text(name)] = child
                value = child.child_by_field_name("value")
                if in_namespace and kind == "type_alias_declaration" and value is not None \
                        and value.type == "function_type":
                    found.append((name, value, self.doc_before(anchor)))
            elif kind in ("function_signature", "function_declaration"):
                found.append((child.child_by_field_name("name"), child, self.doc_before(anchor)))

    def tool_of(self, name_node: Any, signature: Any, doc: _Doc) -> ToolIR:
        self.tool = self.text(name_node)
        if signature.child_by_field_name("type_parameters") is not None:
            raise self.error("generic functions cannot be tools", signature)
        formal = signature.child_by_field_name("parameters")
        args = [c for c in formal.named_children if c.type != "comment"]
        for arg in args:
            if arg.type not in ("required_parameter", "optional_parameter"):
                raise self.error(f"unsupported parameter {self.text(arg)!r}", arg)
            pattern = arg.child_by_field_name("pattern")
            if pattern.type == "rest_pattern":
                raise self.error("rest parameters cannot be tool parameters", arg,
                                 f"$.{self.text(pattern).lstrip('.')}")
        params: tuple[ParamIR, ...]
        if len(args) == 1 and self._one_object(args[0]):
            arg_name = self.text(args[0].child_by_field_name("pattern"))
            object_type = self.type_of(self._annotation(args[0]), "$")
            prefix = f"{arg_name}."
            params = tuple(replace(p, description=p.description or doc.params.get(prefix + p.name,
                                                                                  ""))
                           for p in object_type.fields)
        else:
            params = tuple(self._param(arg, doc) for arg in args)
        returns = None
        ret = signature.child_by_field_name("return_type")
        if ret is not None:
            ret_type = ret.named_children[0] if ret.type == "type_annotation" else ret
            if ret_type.type == "generic_type" and self._generic_name(ret_type) == "Promise":
                ret_type = self._type_args(ret_type, 1, "$.return")[0]
            if self.text(ret_type) not in _NO_RETURN:
                returns = self.type_of(ret_type, "$.return")
        return ToolIR(self.tool, doc.text, params, returns=returns)

    def _annotation(self, arg: Any) -> Any:
        ann = arg.child_by_field_name("type")
        return ann.named_children[0] if ann is not None else None

    def _one_object(self, arg: Any) -> bool:
        ann = self._annotation(arg)
        if ann is None:
            return False
        name = self.text(arg.child_by_field_name("pattern"))
        return ann.type == "object_type" or (name in _ONE_OBJECT_NAMES and
                                             self.type_of(ann, "$").kind == "object")

    def _param(self, arg: Any, doc: _Doc) -> ParamIR:
        name = self.text(arg.child_by_field_name("pattern"))
        path = f"$.{name}"
        ann = self._annotation(arg)
        t = self.type_of(ann, path) if ann is not None else TypeIR("any")
        default: Any = NO_DEFAULT
        value = arg.child_by_field_name("value")
        if value is not None:
            default = self._json(self.text(value), value, path)
        elif name in doc.param_defaults:
            default = self._json(doc.param_defaults[name], arg, path)
        required = arg.type == "required_parameter" and value is None
        return ParamIR(name, t, doc.params.get(name, ""), required=required, default=default)

    def _json(self, text: str, node: Any, path: str,
              message: str = "the default {!r} is not a JSON value") -> Any:
        try:
            return json.loads(text)
        except ValueError:
            raise self.error(message.format(text), node, path) from None

    # -- types ---------------------------------------------------------------------------------
    def type_of(self, node: Any, path: str) -> TypeIR:
        kind = node.type
        if kind in ("parenthesized_type", "readonly_type"):
            return self.type_of(node.named_children[0], path)
        if kind == "predefined_type":
            word = self.text(node)
            if word not in _PREDEFINED:
                raise self.error(f"the type {word!r} cannot be a parameter type", node, path)
            return _PREDEFINED[word]
        if kind == "literal_type":
            return self._literal(node, path)
        if kind == "union_type":
            return self._union(node, path)
        if kind == "array_type":
            return TypeIR("array", items=self._items(self.type_of(node.named_children[0],
                                                                    f"{path}[]")))
        if kind == "tuple_type":
            items = [self.type_of(c, f"{path}[]") for c in node.named_children]
            unique = list(dict.fromkeys(items))
            item = unique[0] if len(unique) == 1 else TypeIR("union", options=tuple(unique))
            return TypeIR("array", items=item, min_items=len(items), max_items=len(items))
        if kind == "object_type":
            return self._object(node, path)
        if kind == "intersection_type":
            parts = [self.type_of(c, path) for c in node.named_children]
            if any(p.kind != "object" for p in parts):
                raise self.error("only object types can be intersected", node, path)
            fields: dict[str, ParamIR] = {}
            for part in parts:
                fields.update({f.name: f for f in part.fields})
            return TypeIR("object", fields=tuple(fields.values()),
                          additional=True if any(p.additional for p in parts) else None)
        if kind == "generic_type":
            return self._generic(node, path)
        if kind == "type_identifier":
            return self._named(node, path)
        raise self.error(f"unsupported type {self.text(node)!r}", node, path)

    @staticmethod
    def _items(t: TypeIR) -> TypeIR | None:
        return None if t.kind == "any" else t

    def _literal(self, node: Any, path: str) -> TypeIR:
        text = self.text(node)
        if text in ("null", "undefined"):
            return TypeIR("null")
        value = self._literal_value(node, path)
        return TypeIR("enum", values=(value,))

    def _literal_value(self, node: Any, path: str) -> Any:
        inner = node.named_children[0] if node.named_children else node
        text = self.text(inner)
        if inner.type == "string":
            return self._string(inner, path)
        if inner.type in ("true", "false"):
            return inner.type == "true"
        if inner.type in ("number", "unary_expression"):
            number = float(text)
            return int(number) if number.is_integer() and "." not in text else number
        raise self.error(f"unsupported literal {text!r}", node, path)

    def _string(self, node: Any, path: str) -> str:
        """A JS string literal's value (escapes decoded as JSON does)."""
        raw = self.text(node)
        inner = raw[1:-1]
        if raw.startswith("'"):  # re-quote for JSON: an escaped ' loses its \, a bare " gets one
            inner = _SINGLE_QUOTED.sub(_requote, inner)
        try:
            return json.loads(f'"{inner}"')
        except ValueError:
            raise self.error(f"unsupported string literal {raw}", node, path) from None

    def _union(self, node: Any, path: str) -> TypeIR:
        members: list[Any] = []
        stack = [node]
        while stack:  # flatten a | b | c, which the grammar nests
            current = stack.pop()
            if current.type == "union_type":
                stack.extend(reversed(current.named_children))
            else:
                members.append(current)
        values: list[Any] = []
        options: list[TypeIR] = []
        enum_at: int | None = None  # literals gather into one enum where the first one stood
        nullable = False
        for member in members:
            t = self.type_of(member, path)
            if t.kind == "null":
                nullable = True
            elif t.kind == "enum" and not t.nullable:
                enum_at = len(options) if enum_at is None else enum_at
                # compare with types: True == 1 in Python, not in TypeScript
                values.extend(v for v in t.values
                              if not any(v == w and type(v) is type(w) for w in values))
            else:
                options.append(t)
        if enum_at is not None:
            options.insert(enum_at, TypeIR("enum", values=tuple(values)))
        if not options:
            return TypeIR("null")
        if len(options) == 1:
            return replace(options[0], nullable=options[0].nullable or nullable)
        return TypeIR("union", options=tuple(options), nullable=nullable)

    def _object(self, node: Any, path: str) -> TypeIR:
        fields: list[ParamIR] = []
        additional: bool | None = None
        for member in node.named_children:
            if member.type == "comment":
                continue
            if member.type == "index_signature":
                additional = True
                continue
            if member.type != "property_signature":
                raise self.error(f"unsupported member {self.text(member)!r}", member, path)
            fields.append(self._property(member, path))
        names = [f.name for f in fields]
        duplicate = next((n for n in names if names.count(n) > 1), None)
        if duplicate is not None:
            raise self.error(f"duplicate property {duplicate!r}", node, f"{path}.{duplicate}")
        return TypeIR("object", fields=tuple(fields), additional=additional)

    def _property(self, member: Any, path: str) -> ParamIR:
        name_node = member.child_by_field_name("name")
        name = self.text(name_node)
        if name_node.type == "string":
            name = self._string(name_node, path)
        sub = f"{path}.{name}"
        ann = member.child_by_field_name("type")
        t = self.type_of(ann.named_children[0], sub) if ann is not None else TypeIR("any")
        doc = self.doc_before(member)
        t, default = self._apply_tags(t, doc, member, sub)
        optional = any(c.type == "?" for c in member.children)
        return ParamIR(name, t, doc.text, required=not optional, default=default)

    def _apply_tags(self, t: TypeIR, doc: _Doc, node: Any, path: str) -> tuple[TypeIR, Any]:
        changes: dict[str, Any] = {}
        for tag, key in _NUMERIC_TAGS.items():
            if tag in doc.tags:
                value = self._json(doc.tags[tag], node, path, f"@{tag} needs a number, got {{!r}}")
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise self.error(f"@{tag} needs a number, got {doc.tags[tag]!r}", node, path)
                changes[key] = value
        for tag in ("pattern", "format"):
            if tag in doc.tags:
                changes[tag] = doc.tags[tag]
        if ("integer" in doc.tags or doc.tags.get("type") == "integer"
                or doc.tags.get("astype") == "integer") and t.kind == "number":
            changes["kind"] = "integer"
        default = self._json(doc.tags["default"], node, path) if "default" in doc.tags \
            else NO_DEFAULT
        return (replace(t, **changes) if changes else t), default

    def _generic_name(self, node: Any) -> str:
        return self.text(node.child_by_field_name("name") or node.named_children[0])

    def _type_args(self, node: Any, count: int, path: str) -> list[Any]:
        holder = next((c for c in node.named_children if c.type == "type_arguments"), None)
        args = [] if holder is None else list(holder.named_children)
        if len(args) != count:
            raise self.error(f"{self._generic_name(node)} takes {count} type argument(s)",
                             node, path)
        return args

    def _generic(self, node: Any, path: str) -> TypeIR:
        name = self._generic_name(node)
        if name in ("Array", "ReadonlyArray", "Set"):
            item = self._type_args(node, 1, path)[0]
            return TypeIR("array", items=self._items(self.type_of(item, f"{path}[]")))
        if name == "Record":
            key, _ = self._type_args(node, 2, path)
            if self.text(key) != "string":
                raise self.error("Record keys must be string", node, path)
            return TypeIR("object", additional=True)
        if name == "Partial":
            inner = self.type_of(self._type_args(node, 1, path)[0], path)
            if inner.kind != "object":
                raise self.error("Partial<T> needs an object type", node, path)
            return replace(inner, fields=tuple(replace(f, required=False) for f in inner.fields))
        raise self.error(f"unsupported generic type {name}<...>", node, path)

    def _named(self, node: Any, path: str) -> TypeIR:
        name = self.text(node)
        if name in _NAMED:
            return _NAMED[name]
        if name not in self.aliases:
            raise self.error(f"unknown type {name!r}", node, path)
        decl = self.aliases[name]
        if decl is None:
            raise self.error(f"generic type {name!r} needs type arguments, which tools cannot "
                             f"take", node, path)
        if name in self.resolving:
            raise self.error(f"type {name!r} refers to itself; the IR holds trees only", node,
                             path)
        self.resolving.append(name)
        try:
            if decl.type == "type_alias_declaration":
                return self.type_of(decl.child_by_field_name("value"), path)
            return self._interface(decl, path)
        finally:
            self.resolving.pop()

    def _interface(self, decl: Any, path: str) -> TypeIR:
        fields: dict[str, ParamIR] = {}
        additional: bool | None = None
        for clause in decl.named_children:
            if clause.type == "extends_type_clause":
                for base in clause.named_children:
                    inherited = self.type_of(base, path)
                    if inherited.kind != "object":
                        raise self.error("an interface can only extend object types", base, path)
                    fields.update({f.name: f for f in inherited.fields})
                    additional = additional or inherited.additional
        own = self._object(decl.child_by_field_name("body"), path)
        fields.update({f.name: f for f in own.fields})
        return TypeIR("object", fields=tuple(fields.values()),
                      additional=own.additional or additional)

    def first_syntax_error(self, node: Any) -> Any | None:
        if node.type == "ERROR" or node.is_missing:
            return node
        if not node.has_error:
            return None
        for child in node.children:
            found = self.first_syntax_error(child)
            if found is not None:
                return found
        return node


def _read_source(source: str | os.PathLike[str]) -> tuple[str, str]:
    """The text and a file label: a path is read, any other string is the source itself."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and source.endswith(".ts")):
        path = Path(source)
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise LoaderError(f"cannot read the file: {exc}", file=str(path)) from None
    if not isinstance(source, str):
        raise LoaderError(f"from_typescript needs TypeScript text or a path, got "
                          f"{type(source).__name__}", file="<object>")
    return source, "<string>"


def from_typescript(source: str | os.PathLike[str]) -> Toolset:
    """Load TypeScript function declarations as tools.

    Parameters
    ----------
    source : str or path-like
        TypeScript source text, or the path of a ``.ts``/``.d.ts`` file (a path-like object,
        or a one-line string ending in ``.ts``).

    Returns
    -------
    Toolset
        One tool per function, in source order; ``source`` is the file path or ``"<string>"``.

    Raises
    ------
    LoaderError
        Naming the file, the function and the parameter path (and the line), for a syntax
        error, an unsupported or unknown type, a recursive type, an overloaded or duplicate
        function, an unreadable file, or a source that declares no function at all.
    MissingDependencyError
        When ``tree-sitter-language-pack`` is not installed.
    """
    text, label = _read_source(source)
    data = text.encode("utf-8")
    tree = _parser().parse(data)
    reader = _Reader(data, label)
    broken = reader.first_syntax_error(tree.root_node)
    if broken is not None:
        snippet = reader.text(broken)[:40]
        raise reader.error(f"TypeScript syntax error near {snippet!r}", broken)
    tools: list[ToolIR] = []
    seen: set[str] = set()
    for name_node, signature, doc in reader.collect(tree.root_node):
        name = reader.text(name_node)
        if name in seen:
            reader.tool = name
            raise reader.error(f"function {name!r} is declared twice (overloads cannot be "
                               f"tools)", name_node)
        seen.add(name)
        tools.append(reader.tool_of(name_node, signature, doc))
    if not tools:
        raise LoaderError("no function declarations found (expected `declare function f(...)`, "
                          "`function f(...) {...}`, or `type f = (_: {...}) => R` in a "
                          "namespace)", file=label)
    return Toolset(tuple(tools), source=label)
