"""IDL formats: tools as interface definitions (Protocol Buffers, GraphQL, Thrift, Avro, WIT,
Smithy, Cap'n Proto, FlatBuffers).

All eight share one walk, :class:`TypeNamer`: every composite type a language has to declare
(objects with fields, enums whose values it can spell, unions; Smithy's lists too) gets a
unique type name built from the tool's name and the path to it (``create_order`` →
``address`` → ``CreateOrderAddress``; ``lines[]`` → ``CreateOrderLinesItem``; the second
option of a union → ``...Object``), and the declarations come out inner types first. Each
language then spells scalars, lists, optionality and names from its own tables, and says in
comments (or doc strings) what its type system cannot: constraints, defaults it cannot write,
``null``, enum values that are not identifiers.

Names. Every IDL here spells identifiers in ASCII. A tool, parameter or enum value whose name
is not one is rewritten by :func:`~toolform.formats._common.ascii_identifier` (``page-id`` →
``page_id``, ``class`` → ``class_`` where the language reserves it; WIT and Cap'n Proto
respell every name in their own case), and its true name stays visible where the language
has a place for it: ``json_name`` in Protocol Buffers, ``@jsonName`` in Smithy,
``$Json.name`` in Cap'n Proto, a ``(json_name = ...)`` annotation in Thrift and an attribute in
FlatBuffers, ``"json_name"`` in Avro, a ``@jsonName`` directive in GraphQL, and a doc comment
elsewhere. A call always uses the true names.

Recursive and map types (see ``toolform.ir``): all of them show a recursive type unrolled to
``RenderOptions.recursion_depth`` levels (default 2; the innermost references become ``any``)
and a map as an object with one stand-in key per kind of key (``<key>``,
``<key matching the pattern P>``) holding the values' type (``_common.plain_type``).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..ir import ParamIR, ToolIR, Toolset, TypeIR
from ._common import (ascii_identifier, ascii_words, comment_lines, constraint_notes, json_text,
                      option_labels, prepare, unique_name, value_list)
from ._registry import RenderOptions, register_format

__all__ = ["NamedType", "TypeNamer", "avro_schema", "capnproto_idl", "flatbuffers_idl",
           "graphql_sdl", "kebab_name", "lower_camel_name", "pascal_name", "protobuf",
           "smithy_idl", "thrift_idl", "wit_idl"]


# -- names ---------------------------------------------------------------------------------------

def pascal_name(parts: Sequence[str]) -> str:
    """PascalCase ASCII type name of a path (``["create_order", "address"]`` →
    ``CreateOrderAddress``); ``Type`` when no letter or digit is left, a ``T`` before a digit."""
    out = "".join(w[:1].upper() + w[1:] for part in parts for w in ascii_words(part)) or "Type"
    return "T" + out if out[0].isdigit() else out


def lower_camel_name(parts: Sequence[str]) -> str:
    """camelCase ASCII name (``page-id`` → ``pageId``, ``API-post-page`` → ``apiPostPage``);
    ``x`` when nothing is left, an ``n`` before a leading digit."""
    words = [w for part in parts for w in ascii_words(part)]
    if not words:
        return "x"
    out = words[0].lower() + "".join(w[:1].upper() + w[1:].lower() for w in words[1:])
    return "n" + out if out[0].isdigit() else out


def kebab_name(parts: Sequence[str]) -> str:
    """kebab-case ASCII name as WIT spells identifiers (``create_order`` → ``create-order``).

    Every word starts with a letter: a word of digits joins the word before it (``level-0`` →
    ``level0``) or, first, gets an ``n`` before it; ``x`` when nothing is left.
    """
    words: list[str] = []
    for w in (w.lower() for part in parts for w in ascii_words(part)):
        if w[0].isdigit():
            if words:
                words[-1] += w
            else:
                words.append("n" + w)
        else:
            words.append(w)
    return "-".join(words) or "x"


def _upper_snake(name: str) -> str:
    """UPPER_SNAKE_CASE ASCII name starting with a letter (``°C`` → ``C``, ``3d`` → ``V_3D``)."""
    out = "_".join(w.upper() for w in ascii_words(name)) or "VALUE"
    return "V_" + out if out[0].isdigit() else out


# -- the shared walk -----------------------------------------------------------------------------

@dataclass(frozen=True)
class NamedType:
    """A composite type a language declares under its own name.

    Attributes
    ----------
    name : str
        The unique type name.
    type : TypeIR
        The object, enum, union (or array) it declares.
    path : str
        Where it sits: the tool's name and the parameter path (``create_order.lines[]``).
    """

    name: str
    type: TypeIR
    path: str


def _children(t: TypeIR) -> Iterator[tuple[TypeIR, str, str]]:
    """``(child type, name part, path suffix)`` for the types directly inside ``t``."""
    if t.kind == "object":
        for f in t.fields:
            yield f.type, f.name, f".{f.name}"
    elif t.kind == "array" and t.items is not None:
        yield t.items, "item", "[]"
    elif t.kind == "union":
        for i, (o, label) in enumerate(zip(t.options, option_labels(t)), 1):
            yield o, label, f"#{i}"


class TypeNamer:
    """Gives the types a language must declare unique names, inner types first.

    Parameters
    ----------
    style : callable
        Makes a name from path parts (:func:`pascal_name`, :func:`kebab_name`).
    declares : callable
        ``declares(t)`` is True for the types the language declares by name.
    taken : iterable of str
        Names already in use (the language's own words, tool names...).
    suffix : callable, optional
        ``suffix(t)`` is a last name part for ``t`` (GraphQL's ``Input``), or ``""``.
    unique : callable
        ``unique(name, taken)`` makes a name unique and adds it to ``taken``
        (:func:`~toolform.formats._common.unique_name` by default).

    Notes
    -----
    A type object met twice (the same ``TypeIR`` instance under two parameters) is named and
    declared once. Recursion follows the type tree, whose depth :func:`prepare` has capped.
    """

    def __init__(self, style: Callable[[Sequence[str]], str], declares: Callable[[TypeIR], bool],
                 taken: Iterable[str] = (),
                 suffix: Callable[[TypeIR], str] | None = None,
                 unique: Callable[[str, set[str]], str] = unique_name) -> None:
        self._style = style
        self._declares = declares
        self._suffix = suffix
        self._unique = unique
        self.taken = set(taken)
        self._names: dict[int, str] = {}
        self.declared: list[NamedType] = []

    def add(self, t: TypeIR, parts: Sequence[str], path: str) -> None:
        """Name ``t`` and every declared type inside it (inner ones first)."""
        if id(t) in self._names:
            return
        for child, part, suffix in _children(t):
            self.add(child, [*parts, part], path + suffix)
        if self._declares(t) and id(t) not in self._names:
            extra = self._suffix(t) if self._suffix is not None else ""
            name = self._unique(self._style([*parts, extra] if extra else parts), self.taken)
            self._names[id(t)] = name
            self.declared.append(NamedType(name, t, path))

    def add_tool(self, tool: ToolIR, *, inline_result: bool = False) -> None:
        """Name the declared types of every parameter of ``tool`` and of its return type.

        With ``inline_result`` a result that is an object with fields is not named itself
        (the language writes its fields in a response type of its own); its fields' types are.
        """
        for p in tool.params:
            self.add(p.type, [tool.name, p.name], f"{tool.name}.{p.name}")
        r = tool.returns
        if r is not None and inline_result and _inline(r):
            for f in r.fields:
                self.add(f.type, [tool.name, "Result", f.name], f"{tool.name}(result).{f.name}")
        elif r is not None:
            self.add(r, [tool.name, "Result"], f"{tool.name}(result)")

    def __contains__(self, t: TypeIR) -> bool:
        return id(t) in self._names

    def __getitem__(self, t: TypeIR) -> str:
        return self._names[id(t)]

    def take(self) -> list[NamedType]:
        """The declarations named since the last call, in order (inner types first)."""
        out, self.declared = self.declared, []
        return out


def _inline(t: TypeIR) -> bool:
    """A result written as the fields of a response type (an object with fields)."""
    return t.kind == "object" and bool(t.fields)


def _string_enum(t: TypeIR) -> bool:
    """An enum of strings only (the enums every IDL here can declare)."""
    return t.kind == "enum" and bool(t.values) and all(isinstance(v, str) for v in t.values)


def _fallback_notes(t: TypeIR, named: TypeNamer | None, lead: str = "") -> list[str]:
    """Phrases for what a type's spelling leaves out: values of enums the language could not
    declare (``one of 1, 2``), through arrays (``items one of ...``) and union options."""
    if t.kind == "enum" and (named is None or t not in named):
        return [f"{lead}one of {value_list(t.values)}" if t.values else f"{lead}no value allowed"]
    if t.kind == "array" and t.items is not None:
        return _fallback_notes(t.items, named, f"{lead}items ")
    if t.kind == "union" and (named is None or t not in named):
        return [f"{lead}one of: " + " or ".join(_label(o) for o in t.options)]
    return []


def _label(t: TypeIR) -> str:
    if t.kind == "enum":
        return "one of " + value_list(t.values)
    if t.kind == "array":
        return "array of " + (_label(t.items) if t.items is not None else "any")
    return t.kind


def _notes(p: ParamIR | None, t: TypeIR, *, required: bool = False, nullable: bool = True,
          default: bool = True, constraints: bool = True, extra: Sequence[str] = ()
          ) -> list[str]:
    """The comment lines for one field: its description, then one sentence of phrases.

    Parameters
    ----------
    p : ParamIR or None
        The field (None for a return type or a union option).
    t : TypeIR
        Its type.
    required : bool
        Say ``required`` / ``optional`` (for languages whose syntax cannot).
    nullable : bool
        Say ``may be null`` when ``t`` is nullable.
    default : bool
        Say the default (for languages that could not write it).
    constraints : bool
        Say the constraints (False where the language wrote them).
    extra : sequence of str
        More phrases (enum values the type could not spell...).

    Returns
    -------
    list of str
        Lines without comment markers.
    """
    out = comment_lines(p.description) if p is not None and p.description else []
    phrases = []
    if required and p is not None:
        phrases.append("required" if p.required else "optional")
    if nullable and t.nullable:
        phrases.append("may be null")
    phrases += list(extra) + (constraint_notes(t) if constraints else [])
    if default and p is not None and p.has_default:
        phrases.append(f"default {json_text(p.default)}")
    if phrases:
        text = ", ".join(phrases)
        out += comment_lines(text[:1].upper() + text[1:] + ".")
    return out


def _tool_doc(tool: ToolIR, ident: str) -> list[str]:
    """A tool's description lines, then its true name when the identifier differs."""
    lines = comment_lines(tool.description)
    if ident != tool.name:
        lines.append(f"Tool name: {json_text(tool.name)}.")
    return lines


def _comment(lines: Iterable[str], marker: str, indent: str) -> list[str]:
    """Comment lines (text made safe by :func:`comment_lines`) after ``indent`` and ``marker``."""
    return [f"{indent}{marker} {c}" for line in lines for c in comment_lines(line)]


# -- Protocol Buffers ----------------------------------------------------------------------------

_PB_VALUE = "google.protobuf.Value"
_PROTO_SCALARS = {"string": "string", "integer": "int64", "number": "double", "boolean": "bool",
                  "any": _PB_VALUE, "null": "google.protobuf.NullValue"}


def _proto_declares(t: TypeIR) -> bool:
    return (t.kind == "object" and bool(t.fields)) or _string_enum(t) or (
        t.kind == "union" and bool(t.options))


def _proto_type(t: TypeIR, named: TypeNamer) -> tuple[str, bool]:
    """``(type, repeated)`` of a field of type ``t``."""
    if t.kind == "array":
        if t.items is None:
            return _PB_VALUE, True
        if t.items.kind == "array":
            return "google.protobuf.ListValue", True  # protobuf has no list of lists
        return _proto_type(t.items, named)[0], True
    if t in named:
        return named[t], False
    if t.kind == "object":
        return "google.protobuf.Struct", False
    if t.kind == "enum":
        return _PROTO_SCALARS[t.enum_base()], False
    if t.kind == "union":
        return _PB_VALUE, False
    return _PROTO_SCALARS[t.kind], False


def _proto_fields(fields: Sequence[ParamIR], named: TypeNamer, indent: str) -> list[str]:
    lines: list[str] = []
    taken: set[str] = set()
    for number, p in enumerate(fields, 1):
        ident = unique_name(ascii_identifier(p.name), taken)
        ptype, repeated = _proto_type(p.type, named)
        label = "repeated " if repeated else ("" if p.required else "optional ")
        option = f" [json_name = {json_text(p.name)}]" if ident != p.name else ""
        extra = _fallback_notes(p.type, named)
        if p.type.kind == "array" and p.type.items is not None and p.type.items.kind == "array":
            extra.append(f"each item an {_label(p.type.items)}")
        lines += _comment(_notes(p, p.type, required=repeated, extra=extra), "//", indent)
        lines.append(f"{indent}{label}{ptype} {ident} = {number}{option};")
    return lines


def _proto_declaration(n: NamedType, named: TypeNamer) -> list[str]:
    t = n.type
    if t.kind == "enum":
        prefix = _upper_snake(n.name)
        lines = [f"// Values of {n.path}.", f"enum {n.name} {{",
                 f"  {prefix}_UNSPECIFIED = 0;"]
        taken = {f"{prefix}_UNSPECIFIED"}
        for i, v in enumerate(t.values, 1):
            ident = unique_name(f"{prefix}_{_upper_snake(v)}", taken)
            lines.append(f"  {ident} = {i}; // {json_text(v)}")
        return lines + ["}"]
    if t.kind == "union":
        lines = [f"// {n.path}: exactly one of these.", f"message {n.name} {{", "  oneof value {"]
        for number, (o, label) in enumerate(zip(t.options, option_labels(t)), 1):
            otype, repeated = _proto_type(o, named)
            if repeated:  # a oneof member cannot be repeated
                otype = "google.protobuf.ListValue"
            lines += _comment(_notes(None, o, extra=_fallback_notes(o, named)), "//", "    ")
            lines.append(f"    {otype} {label} = {number};")
        return lines + ["  }", "}"]
    return [f"// {n.path}", f"message {n.name} {{", *_proto_fields(t.fields, named, "  "), "}"]


@register_format(
    name="Protocol Buffers service",
    family="idl",
    default_protocol="json_object",
    description=("A proto3 file: one rpc per tool in a Tools service, a request message per "
                 "tool whose numbered fields are the arguments (optional ones marked "
                 "optional), nested messages, enums and oneofs for the structure, comments for "
                 "descriptions and constraints."),
    language="protobuf",
    returns="The ``.proto`` text.",
)
def protobuf(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a proto3 service definition.

    Shape::

        syntax = "proto3";
        package toolform.tools;
        service Tools {
          // Place an order.
          rpc create_order(CreateOrderRequest) returns (CreateOrderResponse);
        }
        message CreateOrderRequest {
          // The customer.
          string customer_id = 1;
          // Required, at least 1 item.
          repeated CreateOrderLinesItem lines = 2;
          optional CreateOrderSpeed speed = 3;
        }
        enum CreateOrderSpeed {
          CREATE_ORDER_SPEED_UNSPECIFIED = 0;
          CREATE_ORDER_SPEED_STANDARD = 1; // "standard"
        }

    A required scalar or message field has no label, an optional one ``optional``; a
    repeated field says required/optional in its comment. Integers are ``int64``, numbers
    ``double``; free-form objects ``google.protobuf.Struct``, values of any type
    ``google.protobuf.Value``, lists of lists ``google.protobuf.ListValue``. A union is a
    message with a ``oneof``; string enums are enums whose value comments give the JSON
    value; other enums stay scalars with their values in the comment. Field names that are
    not identifiers carry ``[json_name = "..."]``; an unknown return type is
    ``google.protobuf.Value``.
    """
    tools = prepare(toolset, options)
    named = TypeNamer(pascal_name, _proto_declares, taken={"Tools"})
    service = ["// Each rpc is a tool; its request message holds the call's arguments.",
               "service Tools {"]
    body: list[str] = []
    rpc_taken: set[str] = set()
    for tool in tools:
        ident = unique_name(ascii_identifier(tool.name), rpc_taken)
        request = unique_name(pascal_name([tool.name, "Request"]), named.taken)
        response = _PB_VALUE
        if tool.returns is not None:
            response = unique_name(pascal_name([tool.name, "Response"]), named.taken)
        named.add_tool(tool, inline_result=True)
        service += _comment(_tool_doc(tool, ident), "//", "  ")
        service.append(f"  rpc {ident}({request}) returns ({response});")
        body += ["", f"// Arguments of {tool.name}.", f"message {request} {{",
                 *_proto_fields(tool.params, named, "  "), "}"]
        if tool.returns is not None:
            r = tool.returns
            fields = r.fields if _inline(r) else (ParamIR("result", r),)
            body += ["", f"// What {tool.name} returns.", f"message {response} {{",
                     *_proto_fields(fields, named, "  "), "}"]
        for n in named.take():
            body += ["", *_proto_declaration(n, named)]
    service.append("}")
    head = ["syntax = \"proto3\";", "", "package toolform.tools;"]
    if any("google.protobuf." in line for line in service + body):
        head += ["", "import \"google/protobuf/struct.proto\";"]
    return "\n".join(head + [""] + service + body) + "\n"


# -- GraphQL SDL ---------------------------------------------------------------------------------

_GRAPHQL_NAME = re.compile(r"[_A-Za-z][_0-9A-Za-z]*")
_GRAPHQL_SCALARS = {"string": "String", "integer": "Int", "number": "Float", "boolean": "Boolean",
                    "any": "JSON", "null": "JSON"}
_GRAPHQL_BAD_SOURCE = re.compile("[^\t\n\r\u0020-\U0010ffff]|[\ud800-\udfff]")


def _graphql_name(name: str) -> str:
    out = ascii_identifier(name)
    return "_" + out if out.startswith("__") else out


def _graphql_enum_ok(t: TypeIR) -> bool:
    return _string_enum(t) and all(
        _GRAPHQL_NAME.fullmatch(v) and v not in ("true", "false", "null") and
        not v.startswith("__") for v in t.values) and len(set(t.values)) == len(t.values)


def _graphql_description(text: str, indent: str) -> list[str]:
    """A description as a block string (a one-line one as a quoted string); text a block
    string cannot hold (control characters) is written as an escaped string."""
    if not text:
        return []
    if _GRAPHQL_BAD_SOURCE.search(text) or text != text.strip():
        return [indent + json.dumps(text, ensure_ascii=True)]
    if "\n" not in text and '"' not in text and "\\" not in text:
        return [f'{indent}"{text}"']
    body = text.replace('"""', '\\"""')
    return [f'{indent}"""', *(f"{indent}{line}" if line else "" for line in body.split("\n")),
            f'{indent}"""']


class _GraphQLWriter:
    """Writes one toolset as SDL: input types for arguments, output types for results."""

    def __init__(self) -> None:
        taken = {"Query", "Mutation", "JSON", "String", "Int", "Float", "Boolean", "ID"}
        self.inputs = TypeNamer(pascal_name, self._declares, taken,
                                suffix=lambda t: "" if t.kind == "enum" else "Input")
        self.outputs = TypeNamer(pascal_name, self._declares)
        self.outputs.taken = self.inputs.taken  # one name space for both
        self.uses_json = False
        self.uses_name = False

    @staticmethod
    def _declares(t: TypeIR) -> bool:
        return (t.kind == "object" and bool(t.fields)) or _graphql_enum_ok(t) or (
            t.kind == "union" and bool(t.options))

    def type(self, t: TypeIR, named: TypeNamer) -> str:
        """The GraphQL type of ``t`` without the outer ``!``."""
        if t.kind == "array":
            if t.items is None:
                self.uses_json = True
                return "[JSON]"
            inner = self.type(t.items, named)
            return f"[{inner}]" if t.items.nullable or t.items.kind in ("null", "any") else (
                f"[{inner}!]")
        if t in named:
            return named[t]
        if t.kind == "enum":
            return _GRAPHQL_SCALARS[t.enum_base()]
        scalar = "JSON" if t.kind in ("object", "union") else _GRAPHQL_SCALARS[t.kind]
        self.uses_json = self.uses_json or scalar == "JSON"
        return scalar

    def field(self, p: ParamIR, named: TypeNamer, indent: str, *, argument: bool) -> list[str]:
        ident = _graphql_name(p.name)
        gtype = self.type(p.type, named)
        nonnull = p.required and not p.type.nullable and p.type.kind not in ("null", "any")
        default = self.literal(p.default, p.type, named) if argument and p.has_default else None
        extra = _fallback_notes(p.type, named)
        if p.type.kind == "null":
            extra.append("always null")
        doc = " ".join(_notes(p, p.type, nullable=not p.required, default=default is None,
                             extra=extra))
        if p.required and not nonnull:
            doc = (doc + " " if doc else "") + "Required (may be null)."
        line = f"{indent}{ident}: {gtype}{'!' if nonnull else ''}"
        if default is not None:
            line += f" = {default}"
        if ident != p.name:
            self.uses_name = True
            line += f" @jsonName(name: {json_text(p.name)})"
        return _graphql_description(doc, indent) + [line]

    def literal(self, value: Any, t: TypeIR, named: TypeNamer) -> str | None:
        """``value`` as a GraphQL literal of type ``t``, or None when it cannot be written."""
        if value is None:
            return "null"
        if t.kind == "enum" and t in named:
            return value if value in t.values else None
        kind = t.enum_base() if t.kind == "enum" else t.kind
        if kind == "string" and isinstance(value, str):
            return json_text(value)
        if kind == "boolean" and isinstance(value, bool):
            return json_text(value)
        if kind == "integer" and isinstance(value, int) and not isinstance(value, bool):
            return json_text(value)
        if kind == "number" and isinstance(value, (int, float)) and not isinstance(value, bool):
            return json_text(value)
        if t.kind == "array" and isinstance(value, list) and t.items is not None:
            items = [self.literal(v, t.items, named) for v in value]
            return None if None in items else "[" + ", ".join(items) + "]"  # type: ignore[arg-type]
        return None

    def declaration(self, n: NamedType, named: TypeNamer, *, output: bool) -> list[str]:
        t = n.type
        if t.kind == "enum":
            return [*_graphql_description(f"Values of {n.path}.", ""), f"enum {n.name} {{",
                    *(f"  {v}" for v in t.values), "}"]
        keyword = "type" if output else "input"
        if t.kind == "union":
            head = f"{n.path}: " + ("exactly one field is set." if output else
                                    "give exactly one field.")
            lines = [*_graphql_description(head, ""),
                     f"{keyword} {n.name}{'' if output else ' @oneOf'} {{"]
            for o, label in zip(t.options, option_labels(t)):
                doc = " ".join(_notes(None, o, extra=_fallback_notes(o, named)))
                lines += _graphql_description(doc, "  ")
                lines.append(f"  {label}: {self.type(o, named)}")
            return lines + ["}"]
        lines = [*_graphql_description(n.path, ""), f"{keyword} {n.name} {{"]
        for f in t.fields:
            lines += self.field(f, named, "  ", argument=not output)
        return lines + ["}"]


@register_format(
    name="GraphQL SDL with one mutation per tool",
    family="idl",
    default_protocol="graphql_call",
    description=("A GraphQL schema in which every tool is a field of the Mutation type: "
                 "typed arguments with ! for required ones and defaults after =, input types "
                 "for nested objects, real enums, @oneOf inputs for unions, and descriptions "
                 "as GraphQL strings."),
    language="graphql",
    returns="The SDL text.",
)
def graphql_sdl(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a GraphQL SDL document.

    Shape::

        type Query {
          "The tool names, in order."
          tools: [String!]!
        }
        type Mutation {
          "Place an order."
          create_order(
            "The customer."
            customer_id: String!
            lines: [CreateOrderLinesItemInput!]!
            speed: CreateOrderSpeed = standard
          ): CreateOrderResult
        }
        input CreateOrderLinesItemInput { sku: String! quantity: Int! }
        enum CreateOrderSpeed { standard express }

    A required argument or field is non-null (``!``) unless it may be null. Integers are
    ``Int``, numbers ``Float``; values of any type, free-form objects and an unknown return
    type are the custom scalar ``JSON``. Arguments' nested objects are input types,
    results' are output types; a union is an ``@oneOf`` input (or an output type with one
    field per option). Enums whose values are GraphQL names are enums, others stay scalars
    with their values in the description, as do constraints and defaults GraphQL cannot
    write. A name that is not a GraphQL name is rewritten and carries
    ``@jsonName(name: "...")`` with the true one. A ``Query`` type listing the tool names
    makes the schema valid.
    """
    tools = prepare(toolset, options)
    w = _GraphQLWriter()
    mutation = ["type Mutation {"]
    types: list[str] = []
    taken: set[str] = set()
    for tool in tools:
        ident = unique_name(_graphql_name(tool.name), taken)
        for p in tool.params:
            w.inputs.add(p.type, [tool.name, p.name], f"{tool.name}.{p.name}")
        if tool.returns is not None:
            w.outputs.add(tool.returns, [tool.name, "Result"], f"{tool.name}(result)")
        mutation += _graphql_description("\n".join(comment_lines(tool.description)), "  ")
        head = f"  {ident}"
        if tool.params:
            mutation.append(head + "(")
            for p in tool.params:
                mutation += w.field(p, w.inputs, "    ", argument=True)
            head = "  )"
        result = w.type(tool.returns, w.outputs) if tool.returns is not None else "JSON"
        w.uses_json = w.uses_json or tool.returns is None
        line = f"{head}: {result}"
        if ident != tool.name:
            w.uses_name = True
            line += f" @jsonName(name: {json_text(tool.name)})"
        mutation.append(line)
        for n in w.inputs.take():
            types += [""] + w.declaration(n, w.inputs, output=False)
        for n in w.outputs.take():
            types += [""] + w.declaration(n, w.outputs, output=True)
    mutation.append("}")
    head_lines = []
    if w.uses_name:
        head_lines += ['"The name a call must use, where the schema had to respell it."',
                       "directive @jsonName(name: String!) on FIELD_DEFINITION | "
                       "ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION", ""]
    if w.uses_json:
        head_lines += ['"Any JSON value."', "scalar JSON", ""]
    head_lines += ["type Query {", '  "The tool names, in order."', "  tools: [String!]!", "}",
                   ""]
    if not tools:
        return "\n".join(head_lines).rstrip() + "\n"
    return "\n".join(head_lines + mutation + types) + "\n"


# -- Thrift --------------------------------------------------------------------------------------

#: Words Thrift (and thriftpy2, from the languages it generates for) refuse as identifiers.
_THRIFT_RESERVED = frozenset("""
    namespace include cpp_include void bool byte i8 i16 i32 i64 double string binary map list
    set oneway typedef struct union exception extends throws service enum const required
    optional BEGIN END __CLASS__ __DIR__ __FILE__ __FUNCTION__ __LINE__ __METHOD__
    __NAMESPACE__ abstract alias and args as assert begin break case catch class clone continue
    declare def default del delete do dynamic elif else elseif elsif end enddeclare endfor
    endforeach endif endswitch endwhile ensure except exec finally float for foreach from
    function global goto if implements import in inline instanceof interface is lambda module
    native new next nil not or pass print private protected public raise redo register rescue
    retry return self sizeof static super switch synchronized then this throw transient try
    undef unless unsigned until use var virtual volatile when while with xor yield true false
    """.split())
_THRIFT_SCALARS = {"string": "string", "integer": "i64", "number": "double", "boolean": "bool",
                   "any": "JSON", "null": "JSON"}


def _thrift_declares(t: TypeIR) -> bool:
    return _proto_declares(t)


def _thrift_ident(name: str) -> str:
    return ascii_identifier(name, _THRIFT_RESERVED)


class _ThriftWriter:
    def __init__(self) -> None:
        self.named = TypeNamer(pascal_name, _thrift_declares,
                               taken={"Tools", "JSON"} | _THRIFT_RESERVED)

    def type(self, t: TypeIR) -> str:
        if t.kind == "array":
            return f"list<{self.type(t.items) if t.items is not None else 'JSON'}>"
        if t in self.named:
            return self.named[t]
        if t.kind == "object":
            return "map<string, JSON>"
        if t.kind == "enum":
            return _THRIFT_SCALARS[t.enum_base()]
        if t.kind == "union":
            return "JSON"
        return _THRIFT_SCALARS[t.kind]

    def const(self, value: Any, t: TypeIR) -> str | None:
        """``value`` as a Thrift constant of type ``t``, or None when it cannot be one."""
        if t in self.named and t.kind == "enum":
            idents = self._enum_idents(t)
            return f"{self.named[t]}.{idents[value]}" if isinstance(value, str) and (
                value in idents) else None
        kind = t.enum_base() if t.kind == "enum" else t.kind
        if (kind == "string" and isinstance(value, str)) or (
                kind == "boolean" and isinstance(value, bool)) or (
                kind in ("integer", "number") and isinstance(value, (int, float))
                and not isinstance(value, bool) and (kind == "number" or isinstance(value, int))):
            return json_text(value)
        if t.kind == "array" and t.items is not None and isinstance(value, list):
            items = [self.const(v, t.items) for v in value]
            return None if None in items else "[" + ", ".join(items) + "]"  # type: ignore[arg-type]
        return None

    @staticmethod
    def _enum_idents(t: TypeIR) -> dict[Any, str]:
        taken: set[str] = set()
        return {v: unique_name(_thrift_ident(v), taken) for v in t.values}

    def fields(self, fields: Sequence[ParamIR], indent: str, sep: str) -> list[str]:
        lines: list[str] = []
        taken: set[str] = set()
        for number, p in enumerate(fields, 1):
            ident = unique_name(_thrift_ident(p.name), taken)
            default = self.const(p.default, p.type) if p.has_default else None
            lines += _comment(_notes(p, p.type, default=default is None,
                                    extra=_fallback_notes(p.type, self.named)), "//", indent)
            line = (f"{indent}{number}: {'required' if p.required else 'optional'} "
                    f"{self.type(p.type)} {ident}")
            if default is not None:
                line += f" = {default}"
            if ident != p.name:
                line += f" (json_name = {json_text(p.name)})"
            lines.append(line + sep)
        if lines and sep == ",":
            lines[-1] = lines[-1][:-1]
        return lines

    def declaration(self, n: NamedType) -> list[str]:
        t = n.type
        if t.kind == "enum":
            lines = [f"// Values of {n.path} (a call sends the quoted value).",
                     f"enum {n.name} {{"]
            lines += [f"  {ident} = {i}, // {json_text(v)}"
                      for i, (v, ident) in enumerate(self._enum_idents(t).items(), 1)]
            return lines + ["}"]
        if t.kind == "union":
            lines = [f"// {n.path}: exactly one of these.", f"union {n.name} {{"]
            for number, (o, label) in enumerate(zip(t.options, option_labels(t)), 1):
                lines += _comment(_notes(None, o, extra=_fallback_notes(o, self.named)), "//",
                                  "  ")
                lines.append(f"  {number}: {self.type(o)} {_thrift_ident(label + '_value')},")
            return lines + ["}"]
        return [f"// {n.path}", f"struct {n.name} {{", *self.fields(t.fields, "  ", ","), "}"]


@register_format(
    name="Apache Thrift service",
    family="idl",
    default_protocol="json_object",
    description=("A Thrift IDL file: structs, enums and unions for the nested types, and a "
                 "Tools service with one method per tool whose numbered arguments are each "
                 "marked required or optional, with defaults written as constants."),
    language="thrift",
    returns="The ``.thrift`` text.",
)
def thrift_idl(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a Thrift IDL file.

    Shape::

        namespace py toolform.tools
        typedef string JSON  // only when a type is free-form
        enum CreateOrderSpeed {
          standard = 1, // "standard"
        }
        struct CreateOrderLinesItem {
          1: required string sku,
          2: required i64 quantity
        }
        service Tools {
          // Place an order.
          CreateOrderResult create_order(
            1: required string customer_id,
            2: optional CreateOrderSpeed speed = CreateOrderSpeed.standard
          )
        }

    Integers are ``i64``, numbers ``double``, free-form objects ``map<string, JSON>``; ``JSON``
    (a typedef of ``string``) stands for a value of any type and an unknown return type.
    Enum values are named after the JSON values (the comment gives the value a call sends).
    Descriptions and what Thrift cannot say (constraints, null, defaults that are not
    constants) are ``//`` comments. Names that are not Thrift identifiers or are reserved
    are rewritten and annotated ``(json_name = "...")``; a tool's true name is in its comment.
    """
    tools = prepare(toolset, options)
    w = _ThriftWriter()
    service = ["// Each method is a tool; its arguments are the call's arguments.",
               "service Tools {"]
    types: list[str] = []
    taken: set[str] = set()
    for i, tool in enumerate(tools):
        ident = unique_name(_thrift_ident(tool.name), taken)
        w.named.add_tool(tool)
        for n in w.named.take():
            types += ["", *w.declaration(n)]
        result = w.type(tool.returns) if tool.returns is not None else "JSON"
        service += _comment(_tool_doc(tool, ident), "//", "  ")
        sep = "," if i < len(tools) - 1 else ""
        if tool.params:
            service += [f"  {result} {ident}(", *w.fields(tool.params, "    ", ","), f"  ){sep}"]
        else:
            service.append(f"  {result} {ident}(){sep}")
    service.append("}")
    head = ["namespace py toolform.tools"]
    if any(re.search(r"\bJSON\b", line.split("//")[0]) for line in service + types):
        head += ["", "// A value of any JSON type.", "typedef string JSON"]
    return "\n".join(head + types + [""] + service) + "\n"


# -- Avro ----------------------------------------------------------------------------------------

_AVRO_SCALARS = {"string": "string", "integer": "long", "number": "double", "boolean": "boolean",
                 "null": "null"}
_AVRO_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_AVRO_JSON = {"type": "string", "logicalType": "json"}
_AVRO_CONSTRAINTS = (("minimum", "minimum"), ("maximum", "maximum"),
                     ("exclusive_minimum", "exclusiveMinimum"),
                     ("exclusive_maximum", "exclusiveMaximum"), ("min_length", "minLength"),
                     ("max_length", "maxLength"), ("min_items", "minItems"),
                     ("max_items", "maxItems"), ("pattern", "pattern"), ("format", "format"))


def _avro_enum_ok(t: TypeIR) -> bool:
    return _string_enum(t) and all(_AVRO_NAME.fullmatch(v) for v in t.values) and (
        len(set(t.values)) == len(t.values))


class _AvroWriter:
    """Builds Avro schemas as Python data; a named type is defined where first used."""

    def __init__(self) -> None:
        self.named = TypeNamer(pascal_name, self._declares)
        self.defined: set[str] = set()

    @staticmethod
    def _declares(t: TypeIR) -> bool:
        return (t.kind == "object" and bool(t.fields)) or _avro_enum_ok(t)

    def _key(self, t: TypeIR) -> str:
        """What Avro tells a union branch of type ``t`` apart by (its name or its type)."""
        if t in self.named:
            return "name:" + self.named[t]
        if t.kind in ("array", "any"):
            return {"array": "array", "any": "string"}[t.kind]
        if t.kind == "object":
            return "map"
        return _AVRO_SCALARS[t.enum_base() if t.kind == "enum" else t.kind]

    def schema(self, t: TypeIR) -> Any:
        """The Avro schema of ``t``: a union list when ``t`` is a union or may be null.

        Avro allows one branch per unnamed type in a union; a union that would repeat one
        (two arrays, two strings...) is written as JSON text with its options under
        ``"anyOf"``.
        """
        if t.kind != "union":
            base = self._base(t)
            return [base, "null"] if t.nullable and t.kind not in ("null", "any") else base
        options = list(_flat_options(t))
        keys = [self._key(o) for o in options if o.kind != "null"]
        if len(set(keys)) < len(keys):
            return dict(_AVRO_JSON, anyOf=[_label(o) for o in t.options])
        branches = [self._base(o) for o in options if o.kind != "null"]
        if t.nullable or any(o.nullable or o.kind == "null" for o in options):
            branches.append("null")
        return branches

    def _base(self, t: TypeIR) -> Any:
        if t in self.named:
            name = self.named[t]
            if name in self.defined:
                return name
            self.defined.add(name)
            if t.kind == "enum":
                return {"type": "enum", "name": name, "symbols": list(t.values)}
            return {"type": "record", "name": name, "fields": self.fields(t.fields),
                    **({"additionalProperties": False} if t.additional is False else {})}
        if t.kind == "array":
            out: Any = {"type": "array", "items": self.schema(t.items)
                        if t.items is not None else dict(_AVRO_JSON)}
        elif t.kind == "object":
            out = {"type": "map", "values": dict(_AVRO_JSON)}
        elif t.kind == "any":
            out = dict(_AVRO_JSON)
        elif t.kind == "enum":
            out = {"type": _AVRO_SCALARS[t.enum_base()], "enum": list(t.values)}
        else:
            out = _AVRO_SCALARS[t.kind]
        extra = {key: getattr(t, attr) for attr, key in _AVRO_CONSTRAINTS
                 if getattr(t, attr) is not None}
        if extra:
            out = {"type": out} if isinstance(out, str) else out
            out.update(extra)
        return out

    def fields(self, params: Sequence[ParamIR]) -> list[dict[str, Any]]:
        """Avro fields for ``params`` (see :func:`avro_schema` for optional fields)."""
        out = []
        taken: set[str] = set()
        for p in params:
            ident = unique_name(ascii_identifier(p.name), taken)
            field: dict[str, Any] = {"name": ident}
            if ident != p.name:
                field["json_name"] = p.name
            if p.description:
                field["doc"] = p.description
            schema = self.schema(p.type)
            branches = list(schema) if isinstance(schema, list) else [schema]
            absent_is_null = not p.required and not p.has_default
            if (absent_is_null or (p.has_default and p.default is None)) and (
                    "null" not in branches and p.type.kind != "any"):
                branches.append("null")
            if absent_is_null or p.has_default:
                default = None if absent_is_null else p.default
                # Avro reads a default as a value of the union's first branch
                if "null" in branches and (default is None) != (branches[0] == "null"):
                    branches.remove("null")
                    branches = ["null", *branches] if default is None else [*branches, "null"]
            field["type"] = branches if len(branches) > 1 else branches[0]
            if absent_is_null or p.has_default:
                first = branches[0] if isinstance(branches[0], str) else branches[0].get("type")
                if first == "double" and isinstance(default, int) and not isinstance(
                        default, bool):
                    default = float(default)  # Avro readers want a double's default as one
                key = "default" if _avro_fits(default, branches[0]) else "json_default"
                field[key] = default
            if not p.required:
                field["optional"] = True
            out.append(field)
        return out


def _flat_options(t: TypeIR) -> Iterator[TypeIR]:
    """The options of a union, those of nested unions in its place (Avro unions are flat)."""
    for o in t.options:
        if o.kind == "union":
            yield from _flat_options(o)
        else:
            yield o


def _avro_fits(value: Any, schema: Any) -> bool:
    """Whether ``value`` can stand as a default of a field whose first branch is ``schema``
    (a loose check of Avro's JSON encoding; a named type given by name accepts objects and
    strings)."""
    kind = schema if isinstance(schema, str) else schema.get("type")
    if isinstance(schema, dict) and schema.get("logicalType") == "json":
        return False
    checks = {"null": value is None, "string": isinstance(value, str),
              "boolean": isinstance(value, bool),
              "long": isinstance(value, int) and not isinstance(value, bool),
              "double": isinstance(value, (int, float)) and not isinstance(value, bool),
              "array": isinstance(value, list), "map": isinstance(value, dict),
              "record": isinstance(value, dict),
              "enum": isinstance(schema, dict) and value in schema.get("symbols", ())}
    return checks.get(kind, isinstance(value, (dict, str)))


@register_format(
    name="Avro records, one per tool",
    family="idl",
    default_protocol="json_object",
    description=("A JSON array of Avro record schemas, one per tool, whose fields are the "
                 "arguments: named records and enums for nested types, unions with null for "
                 "optional fields, Avro defaults, docs, and JSON Schema's constraint keywords "
                 "as extra attributes."),
    language="json",
    returns="The JSON text (indent 2).",
)
def avro_schema(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Avro schemas: a JSON list of records, one per tool.

    Each tool is ``{"type": "record", "name", "namespace": "toolform.tools", "doc",
    "fields"}``; a field is ``{"name", "doc", "type", "default"}``. An optional field
    without a default is the union ``["null", T]`` with default ``null`` and
    ``"optional": true``; a default that is not null comes first (``[T, "null"]`` or plain
    ``T``), as Avro requires. Integers are ``long``, numbers ``double``; objects are named
    records, string enums whose values are Avro names are enums (other enums keep their
    type and list the values under ``"enum"``); a value of any type is a string with
    ``"logicalType": "json"`` and a free-form object a map of those. Constraints are extra
    attributes with JSON Schema's keywords (``"minimum"``, ``"minLength"``...). Names that
    are not Avro names are rewritten, the true one kept as ``"json_name"``; a known return
    type is the record's ``"returns"`` attribute (an Avro schema).
    """
    w = _AvroWriter()
    records = []
    for tool in prepare(toolset, options):
        ident = unique_name(ascii_identifier(tool.name), w.named.taken)
        w.defined.add(ident)
        w.named.add_tool(tool)
        record: dict[str, Any] = {"type": "record", "name": ident, "namespace": "toolform.tools"}
        if ident != tool.name:
            record["json_name"] = tool.name
        if tool.description:
            record["doc"] = tool.description
        record["fields"] = w.fields(tool.params)
        if tool.returns is not None:
            record["returns"] = w.schema(tool.returns)
        records.append(record)
    return json.dumps(records, indent=2, ensure_ascii=False)


# -- WIT -----------------------------------------------------------------------------------------

#: WIT keywords; an identifier spelled like one is written with a leading ``%``.
_WIT_KEYWORDS = frozenset("""
    as async bool borrow char constructor enum error-context export f32 f64 flags float32
    float64 func future import include interface list option own package record resource
    result s16 s32 s64 s8 static stream string tuple type u16 u32 u64 u8 union use variant
    with world
    """.split())
_WIT_SCALARS = {"string": "string", "integer": "s64", "number": "f64", "boolean": "bool",
                "any": "json", "null": "json"}


def _wit_ident(parts: Sequence[str]) -> str:
    name = kebab_name(parts)
    return "%" + name if name in _WIT_KEYWORDS else name


def _wit_unique(name: str, taken: set[str]) -> str:
    """``name``, else ``name-v2``, ``name-v3``... (WIT words cannot start with a digit)."""
    out, n = name, 1
    while out.lstrip("%") in taken:
        n += 1
        out = f"{name.lstrip('%')}-v{n}"
    taken.add(out.lstrip("%"))
    return out


class _WitWriter:
    def __init__(self) -> None:
        self.named = TypeNamer(_wit_ident, self._declares, taken={"json", "tools"},
                               unique=_wit_unique)

    @staticmethod
    def _declares(t: TypeIR) -> bool:
        return _proto_declares(t)

    def type(self, t: TypeIR) -> str:
        if t.kind == "array":
            inner = self.type(t.items) if t.items is not None else "json"
        elif t in self.named:
            inner = self.named[t]
        elif t.kind == "enum":
            inner = _WIT_SCALARS[t.enum_base()]
        elif t.kind in ("object", "union"):
            inner = "json"
        else:
            inner = _WIT_SCALARS[t.kind]
        if t.kind == "array":
            inner = f"list<{inner}>"
        return f"option<{inner}>" if t.nullable and t.kind not in ("null", "any") else inner

    def field_doc(self, p: ParamIR, ident: str) -> list[str]:
        extra = _fallback_notes(p.type, self.named)
        if p.type.nullable and not p.required:
            extra.insert(0, "optional")
        lines = _notes(p, p.type, nullable=False, extra=extra)
        if p.type.nullable and p.required:
            lines.append("Required, may be null.")
        if ident.lstrip("%") != p.name:
            lines.insert(0, f"JSON name: {json_text(p.name)}.")
        return lines

    def param_type(self, p: ParamIR) -> str:
        text = self.type(p.type)
        if not p.required and not (p.type.nullable and p.type.kind not in ("null", "any")):
            text = f"option<{text}>"
        return text

    def declaration(self, n: NamedType) -> list[str]:
        t = n.type
        if t.kind == "enum":
            lines = [f"  /// Values of {n.path}.", f"  enum {n.name} {{"]
            taken: set[str] = set()
            for v in t.values:
                ident = _wit_unique(_wit_ident([v]), taken)
                if ident.lstrip("%") != v:
                    lines.append(f"    /// {json_text(v)}")
                lines.append(f"    {ident},")
            return lines + ["  }"]
        if t.kind == "union":
            lines = [f"  /// {n.path}: one of these.", f"  variant {n.name} {{"]
            for o, label in zip(t.options, option_labels(t)):
                lines += _comment(_notes(None, o, nullable=False,
                                        extra=_fallback_notes(o, self.named)), "///", "    ")
                lines.append(f"    {_wit_ident([label])}({self.type(o)}),")
            return lines + ["  }"]
        lines = [f"  /// {n.path}", f"  record {n.name} {{"]
        taken = set()
        for f in t.fields:
            ident = _wit_unique(_wit_ident([f.name]), taken)
            lines += _comment(self.field_doc(f, ident), "///", "    ")
            lines.append(f"    {ident}: {self.param_type(f)},")
        return lines + ["  }"]


@register_format(
    name="WebAssembly component interface (WIT)",
    family="idl",
    default_protocol="json_object",
    description=("A WIT package with one interface: a func per tool whose parameters are the "
                 "arguments, records, enums and variants for nested types, option<T> for "
                 "optional and nullable values, list<T> for arrays, and /// doc comments "
                 "giving descriptions, constraints and the JSON names."),
    language="wit",
    returns="The ``.wit`` text.",
)
def wit_idl(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a WIT interface.

    Shape::

        package toolform:tools;

        interface tools {
          record create-order-lines-item {
            /// JSON name: "sku".  (only when the WIT name differs)
            sku: string,
            quantity: s64,
          }
          /// Place an order.
          /// Tool name: "create_order".
          /// - customer_id: The customer.
          create-order: func(customer-id: string, lines: list<create-order-lines-item>,
                             speed: option<create-order-speed>) -> create-order-result;
        }

    WIT spells every identifier in kebab-case (``customer_id`` → ``customer-id``; a keyword
    gets a ``%``), so each respelled name's JSON name is in a doc comment: a field's above
    it, a parameter's in the func's comment (``- customer_id: ...``), a tool's as ``Tool
    name``, an enum case's above it. Integers are ``s64``, numbers ``f64``; ``json`` (an alias
    of ``string``) stands for a value of any type, free-form objects and an unknown return
    type. Optional and nullable values are ``option<T>``; constraints and defaults are in the
    doc comments.
    """
    tools = prepare(toolset, options)
    w = _WitWriter()
    body: list[str] = []
    for tool in tools:
        ident = _wit_unique(_wit_ident([tool.name]), w.named.taken)
        w.named.add_tool(tool)
        for n in w.named.take():
            body += [*w.declaration(n), ""]
        doc = comment_lines(tool.description)
        if ident.lstrip("%") != tool.name:
            doc.append(f"Tool name: {json_text(tool.name)}.")
        params = []
        taken: set[str] = set()
        for p in tool.params:
            pident = _wit_unique(_wit_ident([p.name]), taken)
            pdoc = w.field_doc(p, pident)
            if pident.lstrip("%") != p.name or pdoc:
                named_doc = [line for line in pdoc if not line.startswith("JSON name:")]
                text = " ".join(named_doc)
                doc.append(f"- {p.name}: {text}" if text else f"- {p.name}")
            params.append(f"{pident}: {w.param_type(p)}")
        result = f" -> {w.type(tool.returns)}" if tool.returns is not None else " -> json"
        body += _comment(doc, "///", "  ")
        body += [f"  {ident}: func({', '.join(params)}){result};", ""]
    head = ["package toolform:tools;", "", "interface tools {"]
    if any(re.search(r"(?<![\w%-])json(?![\w-])", line) for line in body
           if not line.lstrip().startswith("///")):
        head += ["  /// A value of any JSON type, as JSON text.", "  type json = string;", ""]
    while body and not body[-1]:
        body.pop()
    return "\n".join(head + body + ["}"]) + "\n"


# -- Smithy --------------------------------------------------------------------------------------

_SMITHY_SCALARS = {"string": "String", "integer": "Long", "number": "Double",
                   "boolean": "Boolean", "any": "Document", "null": "Document"}
_SMITHY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _smithy_declares(t: TypeIR) -> bool:
    return (t.kind == "object" and bool(t.fields)) or t.kind == "array" or (
        t.kind == "union" and bool(t.options)) or (
        t.kind == "enum" and bool(t.values) and (
            _string_enum(t) or all(isinstance(v, int) and not isinstance(v, bool)
                                   for v in t.values)) and len(set(t.values)) == len(t.values))


def _smithy_ident(name: str) -> str:
    """An identifier as Smithy spells them: a letter after any leading underscores."""
    out = ascii_identifier(name)
    return out if re.match("_*[A-Za-z]", out) else "n" + out


class _SmithyWriter:
    def __init__(self) -> None:
        prelude = {"String", "Long", "Double", "Boolean", "Document", "Tools", "Unit", "Integer"}
        self.named = TypeNamer(pascal_name, _smithy_declares, taken=prelude)

    def target(self, t: TypeIR) -> str:
        if t in self.named:
            return self.named[t]
        if t.kind == "enum":
            return _SMITHY_SCALARS[t.enum_base()]
        if t.kind in ("object", "union"):
            return "Document"
        return _SMITHY_SCALARS[t.kind]

    @staticmethod
    def traits(t: TypeIR) -> tuple[list[str], list[str]]:
        """``(traits, phrases left for the doc)`` for the constraints of ``t``."""
        traits, left = [], []
        low, high = t.minimum, t.maximum
        if low is not None or high is not None:
            args = ", ".join(f"{k}: {json_text(v)}" for k, v in (("min", low), ("max", high))
                             if v is not None)
            traits.append(f"@range({args})")
        lengths = (t.min_length, t.max_length) if t.kind != "array" else (t.min_items,
                                                                          t.max_items)
        if any(v is not None for v in lengths):
            args = ", ".join(f"{k}: {v}" for k, v in zip(("min", "max"), lengths)
                             if v is not None)
            traits.append(f"@length({args})")
        if t.pattern is not None:
            traits.append(f"@pattern({json_text(t.pattern)})")
        for attr, word in (("exclusive_minimum", "greater than"),
                           ("exclusive_maximum", "less than")):
            if getattr(t, attr) is not None:
                left.append(f"{word} {json_text(getattr(t, attr))}")
        if t.format is not None:
            left.append(f"in {t.format} format")
        if t.kind == "object" and t.additional is False:
            left.append("no other keys")
        return traits, left

    def default(self, p: ParamIR) -> str | None:
        """A Smithy default for ``p``'s default, or None when Smithy cannot write it."""
        v, t = p.default, p.type
        if t.kind == "enum" and v not in t.values:
            return None
        kind = t.enum_base() if t.kind == "enum" else t.kind
        if (kind == "string" and isinstance(v, str)) or (
                kind == "boolean" and isinstance(v, bool)) or (
                kind in ("integer", "number") and isinstance(v, (int, float))
                and not isinstance(v, bool) and (kind == "number" or isinstance(v, int))):
            return json_text(v)
        if t.kind == "array" and v == []:
            return "[]"
        return None

    def members(self, fields: Sequence[ParamIR], indent: str) -> list[str]:
        lines: list[str] = []
        taken: set[str] = set()
        for p in fields:
            ident = unique_name(_smithy_ident(p.name), taken)
            traits, left = self.traits(p.type)
            default = self.default(p) if p.has_default else None
            doc = _notes(p, p.type, default=default is None, constraints=False,
                        extra=_fallback_notes(p.type, self.named) + left)
            if lines:
                lines.append("")
            lines += _comment(doc, "///", indent)
            if p.required:
                lines.append(f"{indent}@required")
            if ident != p.name:
                lines.append(f"{indent}@jsonName({json_text(p.name)})")
            lines += [indent + tr for tr in traits]
            line = f"{indent}{ident}: {self.target(p.type)}"
            lines.append(line + (f" = {default}" if default is not None else ""))
        return lines

    def declaration(self, n: NamedType) -> list[str]:
        t = n.type
        if t.kind == "enum":
            keyword = "enum" if _string_enum(t) else "intEnum"
            lines = [f"/// Values of {n.path}.", f"{keyword} {n.name} {{"]
            taken: set[str] = set()
            for v in t.values:
                ident = unique_name(_upper_snake(v) if isinstance(v, str)
                                    else f"V{v}".replace("-", "MINUS"), taken)
                lines.append(f"    {ident} = {json_text(v)}")
            return lines + ["}"]
        if t.kind == "array":
            body = ["    member: Document"]
            if t.items is not None:
                traits, left = self.traits(t.items)
                doc = _notes(None, t.items, constraints=False,
                            extra=_fallback_notes(t.items, self.named) + left)
                body = [*_comment(doc, "///", "    "), *("    " + tr for tr in traits),
                        f"    member: {self.target(t.items)}"]
            return [f"/// Items of {n.path}.", f"list {n.name} {{", *body, "}"]
        if t.kind == "union":
            lines = [f"/// {n.path}: exactly one of these.", f"union {n.name} {{"]
            for o, label in zip(t.options, option_labels(t)):
                lines += _comment(_notes(None, o, extra=_fallback_notes(o, self.named)), "///",
                                  "    ")
                lines.append(f"    {label}: {self.target(o)}")
            return lines + ["}"]
        return [f"/// {n.path}", f"structure {n.name} {{", *self.members(t.fields, "    "), "}"]


@register_format(
    name="Smithy 2.0 service model",
    family="idl",
    default_protocol="json_object",
    description=("A Smithy 2.0 model: a Tools service whose operations are the tools, each "
                 "with an inline input structure whose members carry @required, @range, "
                 "@length, @pattern and defaults as traits, and /// documentation; nested "
                 "shapes as structures, lists, enums and unions."),
    language="smithy",
    returns="The ``.smithy`` text.",
)
def smithy_idl(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a Smithy 2.0 model.

    Shape::

        $version: "2"
        namespace toolform.tools

        service Tools {
            version: "1"
            operations: [create_order]
        }

        /// Place an order.
        operation create_order {
            input := {
                /// The customer.
                @required
                customer_id: String

                @length(min: 1)
                @required
                lines: CreateOrderLines

                speed: CreateOrderSpeed = "standard"
            }
            output: CreateOrderResult
        }

        list CreateOrderLines { member: CreateOrderLinesItem }
        enum CreateOrderSpeed { STANDARD = "standard" EXPRESS = "express" }

    Integers are ``Long``, numbers ``Double``; values of any type and free-form objects
    ``Document``. Enums of strings are ``enum`` shapes whose members' values are the JSON
    values, enums of integers ``intEnum``. Constraints Smithy has traits for are traits;
    exclusive bounds, formats and defaults Smithy cannot write go to the documentation.
    A member name that is not an identifier is rewritten and gets ``@jsonName``; a tool's
    true name is in its documentation. A tool with an unknown return type has no output.
    """
    tools = prepare(toolset, options)
    w = _SmithyWriter()
    ops: list[str] = []
    body: list[str] = []
    for tool in tools:
        ident = unique_name(_smithy_ident(tool.name), w.named.taken)
        ops.append(ident)
        w.named.add_tool(tool)
        declared = w.named.take()
        body += ["", *_comment(_tool_doc(tool, ident), "///", ""), f"operation {ident} {{"]
        members = w.members(tool.params, "        ")
        body += ["    input := {", *members, "    }"] if members else ["    input := {}"]
        if tool.returns is not None:
            r = tool.returns
            if r in w.named and r.kind == "object":
                body.append(f"    output: {w.named[r]}")
            else:
                body += ["    output := {", *w.members((ParamIR("result", r),), "        "),
                         "    }"]
        body.append("}")
        for n in declared:
            body += ["", *w.declaration(n)]
    head = ['$version: "2"', "", "namespace toolform.tools", "", "service Tools {",
            '    version: "1"']
    head += ["    operations: [", *(f"        {op}" for op in ops), "    ]"] if ops else []
    return "\n".join(head + ["}"] + body) + "\n"


# -- Cap'n Proto ---------------------------------------------------------------------------------

#: Words Cap'n Proto's grammar uses; a name spelled like one gets ``Value`` after it.
_CAPNP_KEYWORDS = frozenset("""
    using import struct enum interface union group annotation const extends in of on as with
    from fixed true false void inf nan
    """.split())
_CAPNP_SCALARS = {"string": "Text", "integer": "Int64", "number": "Float64", "boolean": "Bool",
                  "any": "Json.Value", "null": "Json.Value"}


def _capnp_field(name: str) -> str:
    out = lower_camel_name([name])
    return out + "Value" if out in _CAPNP_KEYWORDS else out


def _capnp_string(text: str) -> str:
    """A Cap'n Proto text literal (C-style escapes; everything else as UTF-8)."""
    out = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + re.sub("[\x00-\x1f\x7f]", lambda m: f"\\x{ord(m.group()):02x}", out) + '"'


class _CapnpWriter:
    def __init__(self) -> None:
        self.named = TypeNamer(pascal_name, _proto_declares, taken={"Tools", "Json"})

    def type(self, t: TypeIR) -> str:
        if t.kind == "array":
            return f"List({self.type(t.items) if t.items is not None else 'Json.Value'})"
        if t in self.named:
            return self.named[t]
        if t.kind == "enum":
            return _CAPNP_SCALARS[t.enum_base()]
        if t.kind in ("object", "union"):
            return "Json.Value"
        return _CAPNP_SCALARS[t.kind]

    def default(self, p: ParamIR) -> str | None:
        v, t = p.default, p.type
        if t in self.named and t.kind == "enum":
            return self.enumerants(t).get(v) if isinstance(v, str) else None
        kind = t.enum_base() if t.kind == "enum" else t.kind
        if kind == "string" and isinstance(v, str):
            return _capnp_string(v)
        if kind == "boolean" and isinstance(v, bool):
            return json_text(v)
        if kind in ("integer", "number") and isinstance(v, (int, float)) and not isinstance(
                v, bool) and (kind == "number" or isinstance(v, int)):
            return json_text(float(v) if kind == "number" else v)
        return None

    @staticmethod
    def enumerants(t: TypeIR) -> dict[Any, str]:
        taken: set[str] = set()
        return {v: unique_name(_capnp_field(v), taken) for v in t.values}

    def field(self, p: ParamIR, ident: str, ordinal: str) -> tuple[str, list[str]]:
        """``(declaration without separator, comment lines)`` of one field or parameter.

        A parameter (no ordinal) never has both a default and an annotation: parsers of the
        language disagree on their order there, so the default goes to the comment.
        """
        default = self.default(p) if p.has_default else None
        if not ordinal and ident != p.name:
            default = None
        text = f"{ident}{ordinal} :{self.type(p.type)}"
        if default is not None:
            text += f" = {default}"
        if ident != p.name:
            text += f" $Json.name({_capnp_string(p.name)})"
        doc = _notes(p, p.type, required=True, default=default is None,
                    extra=_fallback_notes(p.type, self.named))
        return text, doc

    def declaration(self, n: NamedType) -> list[str]:
        t = n.type
        if t.kind == "enum":
            lines = [f"enum {n.name} {{", f"  # Values of {n.path}."]
            for i, (v, ident) in enumerate(self.enumerants(t).items()):
                extra = f" $Json.name({_capnp_string(v)})" if ident != v else ""
                lines.append(f"  {ident} @{i}{extra};")
            return lines + ["}"]
        if t.kind == "union":
            lines = [f"struct {n.name} {{", f"  # {n.path}: exactly one of these.", "  union {"]
            for i, (o, label) in enumerate(zip(t.options, option_labels(t))):
                lines += _comment(_notes(None, o, extra=_fallback_notes(o, self.named)), "#",
                                  "    ")
                lines.append(f"    {_capnp_field(label)} @{i} :{self.type(o)};")
            return lines + ["  }", "}"]
        lines = [f"struct {n.name} {{", f"  # {n.path}"]
        taken: set[str] = set()
        for i, f in enumerate(t.fields):
            text, doc = self.field(f, unique_name(_capnp_field(f.name), taken), f" @{i}")
            lines += [f"  {text};", *_comment(doc, "#", "    ")]
        return lines + ["}"]


@register_format(
    name="Cap'n Proto interface schema",
    family="idl",
    default_protocol="json_object",
    description=("A Cap'n Proto schema: a Tools interface with one numbered method per tool "
                 "and its parameters inline, structs with numbered fields, enums and unions "
                 "for nested types, $Json.name annotations for the JSON names and # comments "
                 "for descriptions, required or optional, and constraints."),
    language="capnp",
    returns="The ``.capnp`` text.",
)
def capnproto_idl(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a Cap'n Proto schema file.

    Shape::

        @0xb5c3...;  # a file id derived from the tool names
        using Json = import "/capnp/compat/json.capnp";

        interface Tools {
          # Place an order.
          createOrder @0 (
            customerId :Text $Json.name("customer_id"),
              # The customer.
              # Required.
            speed :CreateOrderSpeed = standard
              # Optional.
          ) -> CreateOrderResult $Json.name("create_order");
        }

        struct CreateOrderLinesItem {
          # create_order.lines[]
          sku @0 :Text;
            # Required.
        }

    Cap'n Proto wants camelCase names, so every respelled name carries
    ``$Json.name("...")`` (the annotation of Cap'n Proto's own JSON codec) with the true one.
    Integers are ``Int64``, numbers ``Float64``; values of any type, free-form objects and
    an unknown return type are ``Json.Value``. A union is a struct holding an unnamed union.
    Cap'n Proto has no optional fields: a comment under each field says required or
    optional, with its constraints and any default not written after ``=``.
    """
    tools = prepare(toolset, options)
    w = _CapnpWriter()
    methods: list[str] = []
    types: list[str] = []
    taken: set[str] = set()
    for i, tool in enumerate(tools):
        ident = unique_name(_capnp_field(tool.name), taken)
        w.named.add_tool(tool)
        for n in w.named.take():
            types += ["", *w.declaration(n)]
        methods += _comment(comment_lines(tool.description), "#", "  ")
        r = tool.returns
        if r is not None and r in w.named and r.kind == "object":
            result = w.named[r]
        else:
            result = f"(result :{w.type(r) if r is not None else 'Json.Value'})"
        tail = f" -> {result}" + (f" $Json.name({_capnp_string(tool.name)})"
                                  if ident != tool.name else "") + ";"
        if not tool.params:
            methods.append(f"  {ident} @{i} (){tail}")
            continue
        methods.append(f"  {ident} @{i} (")
        ptaken: set[str] = set()
        for j, p in enumerate(tool.params):
            text, doc = w.field(p, unique_name(_capnp_field(p.name), ptaken), "")
            sep = "," if j < len(tool.params) - 1 else ""
            methods += [f"    {text}{sep}", *_comment(doc, "#", "      ")]
        methods.append(f"  ){tail}")
    digest = hashlib.sha256("\n".join(t.name for t in tools).encode()).hexdigest()
    file_id = int(digest[:16], 16) | (1 << 63)
    head = [f"@0x{file_id:016x};", "", 'using Json = import "/capnp/compat/json.capnp";', "",
            "interface Tools {"]
    return "\n".join(head + methods + ["}"] + types) + "\n"


# -- FlatBuffers ---------------------------------------------------------------------------------

#: Words of the FlatBuffers schema language; a name spelled like one gets a ``_`` after it.
_FLATBUFFERS_KEYWORDS = frozenset("""
    table struct enum union namespace root_type include attribute rpc_service file_identifier
    file_extension bool byte ubyte short ushort int uint float long ulong double int8 uint8
    int16 uint16 int32 uint32 int64 uint64 float32 float64 string true false null
    """.split())
_FBS_SCALARS = {"integer": "long", "number": "double", "boolean": "bool"}
_FBS_ANY = "[ubyte] (flexbuffer)"


class _FlatBuffersWriter:
    def __init__(self) -> None:
        self.named = TypeNamer(pascal_name, _proto_declares, taken={"Tools", "JsonValue"})
        self.wrappers: list[list[str]] = []

    def type(self, t: TypeIR, parts: Sequence[str]) -> tuple[str, bool]:
        """``(type, is_scalar)``; ``[ubyte]`` with the flexbuffer attribute stands for any
        JSON value (the attribute is added by the caller)."""
        if t.kind == "array":
            if t.items is None or t.items.kind in ("any", "null") or (
                    t.items.kind == "object" and t.items not in self.named):
                return "[JsonValue]", False
            if t.items.kind == "array":  # no vectors of vectors: wrap the inner one
                name = unique_name(pascal_name([*parts, "List"]), self.named.taken)
                inner, _ = self.type(t.items, [*parts, "item"])
                self.wrappers.append([f"table {name} {{", f"  values: {inner};", "}"])
                return f"[{name}]", False
            return f"[{self.type(t.items, [*parts, 'item'])[0]}]", False
        if t in self.named:
            return self.named[t], t.kind == "enum"
        if t.kind == "string" or (t.kind == "enum" and t.enum_base() == "string"):
            return "string", False
        if t.kind == "enum":
            return _FBS_SCALARS[t.enum_base()], True
        if t.kind in ("any", "null", "object", "union"):
            return "JsonValue", False
        return _FBS_SCALARS[t.kind], True

    def fields(self, fields: Sequence[ParamIR], parts: Sequence[str]) -> list[str]:
        lines: list[str] = []
        taken: set[str] = set()
        for p in fields:
            ident = unique_name(ascii_identifier(p.name, _FLATBUFFERS_KEYWORDS), taken)
            ftype, scalar = self.type(p.type, [*parts, p.name])
            attrs = []
            default = None
            if scalar:
                default = self.default(p)
                if default is None and not p.required:
                    default = "null"  # an optional scalar: absent unless given
            elif p.required and not (p.type in self.named and p.type.kind == "union"):
                attrs.append("required")
            if ident != p.name:
                attrs.append(f"json_name: {json_text(p.name)}")
            doc = _notes(p, p.type, required=scalar or not p.required,
                        default=default in (None, "null"),
                        extra=_fallback_notes(p.type, self.named))
            lines += _comment(doc, "///", "  ")
            line = f"  {ident}: {ftype}"
            if default is not None:
                line += f" = {default}"
            if attrs:
                line += f" ({', '.join(attrs)})"
            lines.append(line + ";")
        return lines

    def default(self, p: ParamIR) -> str | None:
        if not p.has_default:
            return None
        v, t = p.default, p.type
        if t in self.named and t.kind == "enum":
            return self.enumerants(t).get(v) if isinstance(v, str) else None
        kind = t.enum_base() if t.kind == "enum" else t.kind
        if kind == "boolean" and isinstance(v, bool):
            return json_text(v)
        if kind in ("integer", "number") and isinstance(v, (int, float)) and not isinstance(
                v, bool) and (kind == "number" or isinstance(v, int)):
            return json_text(float(v) if kind == "number" else v)
        return None

    @staticmethod
    def enumerants(t: TypeIR) -> dict[Any, str]:
        taken: set[str] = set()
        return {v: unique_name(ascii_identifier(v, _FLATBUFFERS_KEYWORDS), taken)
                for v in t.values}

    def declaration(self, n: NamedType) -> list[str]:
        t = n.type
        if t.kind == "enum":
            base = "ubyte" if len(t.values) <= 256 else "ushort"
            lines = [f"/// Values of {n.path} (a call sends the quoted value).",
                     f"enum {n.name} : {base} {{"]
            items = list(self.enumerants(t).items())
            for i, (v, ident) in enumerate(items):
                lines.append(f"  {ident}{',' if i < len(items) - 1 else ''} // {json_text(v)}")
            return lines + ["}"]
        if t.kind == "union":
            # union members must be tables: each option is a table holding one value
            members, tables = [], []
            for o, label in zip(t.options, option_labels(t)):
                if o in self.named and o.kind == "object":
                    members.append(self.named[o])
                    continue
                name = unique_name(pascal_name([n.name, label]), self.named.taken)
                otype, _ = self.type(o, [n.name, label])
                doc = _notes(None, o, extra=_fallback_notes(o, self.named))
                tables += [*_comment(doc, "///", ""), f"table {name} {{",
                           f"  value: {otype};", "}", ""]
                members.append(name)
            return [*tables, f"/// {n.path}: exactly one of these.",
                    f"union {n.name} {{ {', '.join(members)} }}"]
        return [f"/// {n.path}", f"table {n.name} {{",
                *self.fields(t.fields, [n.path]), "}"]


@register_format(
    name="FlatBuffers tables and rpc_service",
    family="idl",
    default_protocol="json_object",
    description=("A FlatBuffers schema: one request table per tool whose fields are the "
                 "arguments, tables, enums and unions for nested types, (required) on "
                 "required non-scalar fields, scalar defaults, and an rpc_service naming the "
                 "tools."),
    language="flatbuffers",
    returns="The ``.fbs`` text.",
)
def flatbuffers_idl(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a FlatBuffers schema (``.fbs``).

    Shape::

        namespace toolform.tools;
        attribute "json_name";

        enum CreateOrderSpeed : ubyte {
          standard, // "standard"
          express // "express"
        }

        /// Place an order.
        table CreateOrderRequest {
          customer_id: string (required);
          lines: [CreateOrderLinesItem] (required);
          /// Optional.
          speed: CreateOrderSpeed = standard;
        }

        rpc_service Tools {
          create_order(CreateOrderRequest): CreateOrderResponse;
        }

    Strings, vectors and tables that are required carry ``(required)``; scalars cannot, so
    their comment says required or optional, and an optional scalar without a default is
    ``= null``. Integers are ``long``, numbers ``double``. FlatBuffers has no free-form
    values: ``JsonValue``, a table with one ``(flexbuffer)`` field, stands for values of any
    type, free-form objects and unknown return types. Union members are tables, so a union's
    scalar options are wrapped in one-field tables. Names that are not identifiers are
    rewritten and carry the ``json_name`` attribute.
    """
    tools = prepare(toolset, options)
    w = _FlatBuffersWriter()
    body: list[str] = []
    rpc = ["/// Each method is a tool; its request table holds the call's arguments.",
           "rpc_service Tools {"]
    taken: set[str] = set()
    for tool in tools:
        ident = unique_name(ascii_identifier(tool.name, _FLATBUFFERS_KEYWORDS), taken)
        request = unique_name(pascal_name([tool.name, "Request"]), w.named.taken)
        response = "JsonValue"
        if tool.returns is not None:
            response = unique_name(pascal_name([tool.name, "Response"]), w.named.taken)
        w.named.add_tool(tool, inline_result=True)
        for n in w.named.take():
            body += [*w.declaration(n), ""]
        fields = w.fields(tool.params, [tool.name])
        r = tool.returns
        returns = [] if r is None else w.fields(
            r.fields if _inline(r) else (ParamIR("result", r),), [tool.name, "Result"])
        for wrapper in w.wrappers:
            body += [*wrapper, ""]
        w.wrappers = []
        attr = f" (json_name: {json_text(tool.name)})" if ident != tool.name else ""
        body += [*_comment(_tool_doc(tool, ident), "///", ""), f"table {request}{attr} {{",
                 *fields, "}", ""]
        if r is not None:
            body += [f"/// What {tool.name} returns.", f"table {response} {{", *returns, "}",
                     ""]
        rpc.append(f"  {ident}({request}): {response};")
    rpc.append("}")
    head = ["namespace toolform.tools;", "", 'attribute "json_name";', ""]
    if any(re.search(r"\bJsonValue\b", line) for line in body + rpc
           if not line.startswith("///")):
        head += ["/// A value of any JSON type.", "table JsonValue {", f"  json: {_FBS_ANY};",
                 "}", ""]
    return "\n".join(head + body + rpc) + "\n"
