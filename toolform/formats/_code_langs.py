"""Code formats beyond the two core ones: tools as signatures in twenty-one languages, five more
Python dialects and three more TypeScript shapes (30 formats, all in the study's ``code`` family).

One walker serves every language. :class:`_Planner` turns each tool into a :class:`_Plan`: the
function's identifier, its arguments (required first, each group in declaration order) with
their types, defaults and notes, the return type, and the named types the signature needs
(:class:`_Struct` for objects with fields, :class:`_Enum` for string enums, :class:`_Union` for
unions where the language has tagged unions). What differs between languages is data: a
:class:`_Lang` table per language (scalar spellings, how arrays, maps, optional and nullable
types are written, whether enums and unions get named types, string literals, reserved words
and how names are spelled). A short emitter per language then lays the plan out in that
language's idiom: Go structs with ``json`` tags and ``// Name ...`` doc comments, Rust structs
with serde attributes and ``///`` docs, Java records and enums inside an interface, Haskell
curried signatures with per-argument Haddock comments, PostgreSQL ``CREATE FUNCTION`` with
``COMMENT ON``, Bash functions with a usage header, and so on. The Python dialects reuse the
walker of ``python_stub`` (``_PythonWriter``, with the object emitter swapped), the TypeScript
shapes the one of ``typescript``.

Names. A tool, argument or field name that is a valid identifier of the language is written as
is (except where the idiom imposes a case: Go's exported functions and struct fields are
PascalCase, enum members follow each language's convention). Otherwise, in this order of
preference:

1. the language's own quoting keeps it verbatim: Zig ``@"page-id"``, Julia ``var"page-id"``,
   R backticks, Scala backticks, SQL double quotes, Elixir quoted atoms, Lua ``["page-id"]``
   fields, TypeScript quoted keys; keywords get the language's keyword escape (Rust ``r#type``,
   C# ``@class``, Kotlin and Swift backticks);
2. else the name is sanitised (characters that cannot be in an identifier become ``_``, accents
   are dropped where the language is ASCII-only, a leading digit gets a ``_`` before it, a
   reserved word a ``_`` after it, clashes ``_2``...) and the true name is written next to it
   where serialisation code would put it: a Go ``json:"page-id"`` tag, ``#[serde(rename)]``,
   ``@JsonProperty``, ``@SerialName``, Swift ``CodingKeys``, ``[JsonPropertyName]``, OCaml
   ``[@key]``/``[@name]``, pydantic ``alias``, dataclass ``metadata``, argparse ``dest``;
3. else in the doc comment: ``Tool name: math.factorial`` for a function, ``page_id (name
   "page-id")`` in the argument's entry.

So every tool and parameter name, nested ones included, appears verbatim in every block (as a
string literal of the language where it sits in one). Prose goes through one cleaning step:
line breaks of any kind split it into comment lines, other control characters and lone
surrogates are spelled as ``\\xNN``/``\\uNNNN``, and each comment syntax escapes its own
terminator (``*/`` as ``*\\/`` and ``/*`` as ``/\\*`` in block comments; in OCaml comments,
where the lexer reads string literals, ``"`` is written ``''``). Enums of strings become the
language's enum (or literal union); other enums the base type with "one of ..." in the notes.
Defaults and constraints are always in the docs; defaults are in the signature too where the
language has default arguments and the value is a scalar of the parameter's type.

Recursive and map types (see ``toolform.ir``): all of them show a recursive type unrolled to
``RenderOptions.recursion_depth`` levels (default 2; the innermost references become ``any``)
and a map as an object with one stand-in key per kind of key (``<key>``,
``<key matching the pattern P>``) holding the values' type (``_common.plain_type``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable, Mapping

from ..ir import ParamIR, ToolIR, Toolset, TypeIR
from ._code import (_jsdoc, _notes, _py_comment, _py_escape, _py_literal,
                    _PythonWriter, _ts_key, _TypeScriptWriter)
from ._common import (camel_case, constraint_notes, json_text, one_line, prepare,
                      python_identifier, type_label, typescript_identifier, unique_name,
                      value_list)
from ._registry import RenderOptions, register_format

__all__ = [
    "bash_function", "c_header", "cpp_signature", "csharp_signature", "elixir_signature",
    "go_signature", "haskell_curried", "java_signature", "julia_signature", "kotlin_signature",
    "lua_signature", "matlab_signature", "ocaml_signature", "php_signature", "python_argparse",
    "python_dataclass", "python_protocol", "python_pydantic", "python_signature_only",
    "python_stub_numpy", "r_signature", "ruby_signature", "rust_signature", "scala_signature",
    "sql_udf", "swift_signature", "typescript_compact", "typescript_dts",
    "typescript_interface_arg", "zig_signature",
]


# -- prose ---------------------------------------------------------------------------------------

# Characters some language or tool takes for a line break (C# and JavaScript count NEL and
# U+2028/U+2029, editors and Python's splitlines VT and FF): all of them split a comment line.
_BREAK = re.compile("\r\n?|[\x0b\x0c\x85\u2028\u2029]")
_INVISIBLE = re.compile("[\x00-\x08\x0e-\x1f\x7f\ud800-\udfff]")


def _visible(text: str) -> str:
    """``text`` with control characters and lone surrogates spelled out (``\\x07``)."""
    return _INVISIBLE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) <= 0xFF
                          else f"\\u{ord(m.group()):04x}", text)


def _lines(text: str) -> list[str]:
    """Prose as comment lines: split at any line break, spelled visibly, blank ends trimmed."""
    lines = [_visible(line).rstrip() for line in _BREAK.sub("\n", text).split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _flat(text: str) -> str:
    """Prose on one visible line."""
    return _visible(one_line(text))


def _block(text: str) -> str:
    """``text`` safe inside ``/* */`` (also in languages whose block comments nest)."""
    return text.replace("*/", "*\\/").replace("/*", "/\\*")


def _java_comment(text: str) -> str:
    """Block-safe text whose ``\\u`` cannot be read as a Java Unicode escape.

    Java translates ``\\uXXXX`` before it finds comments; a backslash is such an escape only
    after an even run of backslashes, so an odd run before ``u`` gets one more.
    """
    text = re.sub(r"(\\+)(?=u)", lambda m: m.group(1) + "\\" * (len(m.group(1)) % 2),
                  text)
    return _block(text)


def _ocaml_comment(text: str) -> str:
    """``text`` safe inside an OCaml comment, whose lexer also reads strings and nesting."""
    text = text.replace('"', "''").replace("(*", "( *").replace("*)", "* )")
    return re.sub(r"\{([a-z_]*)\|", r"{ \1|", text)


def _xml_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _xml_verbatim(text: str) -> str:
    """``text`` in XML so that it reads unchanged: as is, or in a CDATA section."""
    if not any(ch in text for ch in "&<>"):
        return text
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _sentences(*parts: str) -> str:
    """Parts joined as sentences (each ending in a full stop), empty ones skipped."""
    out = []
    for part in parts:
        part = part.strip()
        if part:
            out.append(part if part.endswith((".", "!", "?")) else part + ".")
    return " ".join(out)


def _shape(t: TypeIR) -> str:
    """A compact, language-neutral picture of a type: ``{street: string, zip?: string}``,
    ``string[]``, ``"a" | "b"``, ``string | integer | null`` (keys JSON-quoted when needed)."""
    if t.kind == "object" and t.fields:
        parts = [f"{f.name if _ASCII_NAME.match(f.name) else json_text(f.name)}"
                 f"{'' if f.required else '?'}: {_shape(f.type)}" for f in t.fields]
        text = "{" + ", ".join(parts) + "}"
    elif t.kind == "array":
        inner = _shape(t.items) if t.items is not None else "any"
        text = f"({inner})[]" if " " in inner and not inner.startswith("{") else f"{inner}[]"
    elif t.kind == "enum":
        text = " | ".join(json_text(v) for v in t.values) or "never"
    elif t.kind == "union":
        text = " | ".join(_shape(o) for o in t.options) or "any"
    else:
        text = t.kind
    return f"{text} | null" if t.nullable and t.kind != "null" else text


# -- string literals -----------------------------------------------------------------------------

def _string_writer(quote: str, escapes: Mapping[str, str], control: Callable[[int], str],
                   close: str | None = None) -> Callable[[str], str]:
    """A writer of string literals: ``escapes`` first, then other control characters through
    ``control``; lone surrogates (which no UTF-8 source can hold) become U+FFFD."""

    def write(text: str) -> str:
        out = []
        for ch in text:
            if ch in escapes:
                out.append(escapes[ch])
            elif "\ud800" <= ch <= "\udfff":
                out.append("\ufffd")
            elif ch < " " or ch in "\x7f\x85\u2028\u2029":
                out.append(control(ord(ch)))
            else:
                out.append(ch)
        return quote + "".join(out) + (quote if close is None else close)

    return write


_C_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _braced(code: int) -> str:
    return f"\\u{{{code:x}}}"


def _u4(code: int) -> str:
    return f"\\u{code:04x}"


def _octal(code: int) -> str:
    # fixed width, so a following digit cannot join it; Java and C read it inside strings only
    return f"\\{code:03o}" if code < 0x100 else f"\\u{code:04x}"


_GO_STR = _string_writer('"', _C_ESCAPES, _u4)
_BRACED_STR = _string_writer('"', _C_ESCAPES, _braced)  # Rust, Swift, Lua, Zig, R
_JAVA_STR = _string_writer('"', _C_ESCAPES, _octal)  # Java, C, C++
_CSHARP_STR = _string_writer('"', _C_ESCAPES, _u4)
_KOTLIN_STR = _string_writer('"', {**_C_ESCAPES, "$": "\\$"}, _u4)
_HASKELL_STR = _string_writer('"', _C_ESCAPES, lambda c: f"\\{c}\\&")
_OCAML_STR = _string_writer('"', _C_ESCAPES,
                            lambda c: f"\\x{c:02x}" if c < 0x100 else f"\\u{{{c:x}}}")
_ELIXIR_STR = _string_writer('"', {**_C_ESCAPES, "#": "\\#"}, _braced)
_JULIA_STR = _string_writer('"', {**_C_ESCAPES, "$": "\\$"}, _u4)
_RUBY_STR = _string_writer('"', {**_C_ESCAPES, "#": "\\#"}, _u4)
_PHP_STR = _string_writer("'", {"\\": "\\\\", "'": "\\'"}, chr)
_SQL_STR = _string_writer("'", {"'": "''", "\x00": ""}, chr)
_BASH_STR = _string_writer("'", {"'": "'\\''", "\x00": ""}, chr)
_MATLAB_STR = _string_writer('"', {'"': '""'}, lambda c: f'" + char({c}) + "')


def _number(value: int | float, as_float: bool) -> str:
    """A JSON number as a literal most languages read (``2.0`` for a float, never ``1e5``)."""
    text = json_text(value)
    if as_float and re.fullmatch(r"-?\d+", text):
        text += ".0"
    if "e" in text and "." not in text:
        text = text.replace("e", ".0e", 1)
    return text


def _literal_writer(string: Callable[[str], str], true: str, false: str,
                    null: str) -> Callable[[Any, str], str]:
    """A writer of scalar literals: ``(value, kind) -> text`` (kind decides float spelling)."""

    def write(value: Any, kind: str) -> str:
        if value is None:
            return null
        if isinstance(value, bool):
            return true if value else false
        if isinstance(value, (int, float)):
            return _number(value, kind == "number")
        return string(str(value))

    return write


# -- names ---------------------------------------------------------------------------------------

_ASCII_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@lru_cache(maxsize=4096)
def _words(text: str) -> tuple[str, ...]:
    """The alphanumeric runs of ``text``, accents dropped, other letters kept."""
    text = "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(ch))
    return tuple(w for w in re.split(r"[\W_]+", text) if w)


@dataclass(frozen=True)
class _Names:
    """How one language spells one kind of name (functions, arguments, fields, enum members).

    A valid, unreserved name is kept. A reserved one gets ``keyword`` when the language has
    such an escape (``r#type``, ``@class``), any other name ``verbatim`` when the language can
    quote names (``@"page-id"``; it may return None for a name it cannot quote). Failing
    those, the name is re-cased (``case``: ``keep``, ``pascal`` ``PageId``, ``upper``
    ``PAGE_ID``, ``camel`` ``pageId``, ``snake`` ``page_id``) and sanitised. With ``force``
    the case always applies (Go's exported names, enum members built from values). ``valid``
    overrides the identifier test (default: ASCII ``[A-Za-z_][A-Za-z0-9_]*``, or Python's
    Unicode rule when ``ascii`` is False); ``seed`` holds names a scope already uses.
    """

    reserved: frozenset[str] = frozenset()
    ascii: bool = True
    case: str = "keep"
    force: bool = False
    keyword: Callable[[str], str] | None = None
    verbatim: Callable[[str], str | None] | None = None
    valid: Callable[[str], bool] | None = None
    seed: frozenset[str] = frozenset()

    def is_valid(self, name: str) -> bool:
        if self.valid is not None:
            return self.valid(name)
        return bool(_ASCII_NAME.match(name)) if self.ascii else name.isidentifier()

    def cased(self, name: str) -> str:
        words = _words(name)
        if self.case == "pascal":
            return "".join(w[0].upper() + w[1:] for w in words)
        if self.case == "upper":
            return "_".join(w.upper() for w in words)
        if self.case == "camel":
            text = "".join(w[0].upper() + w[1:] for w in words)
            return text[:1].lower() + text[1:]
        if self.case == "snake":
            return "_".join(w.lower() for w in words)
        return name

    def sanitise(self, name: str) -> str:
        if self.ascii:
            name = "".join(ch for ch in unicodedata.normalize("NFKD", name)
                           if not unicodedata.combining(ch))
            out = "".join(ch if _ASCII_NAME.match("a" + ch) else "_" for ch in name)
        else:
            out = "".join(ch if ("a" + ch).isidentifier() else "_" for ch in name)
        out = out if out.strip("_") else "v" + out  # nothing usable left: "v_"
        for prefix in ("_", "x", "x_"):  # a leading digit, or a language wanting a letter
            if self.is_valid(out):
                break
            out = prefix + out.lstrip("_") if prefix != "_" else "_" + out
        return out + "_" if out in self.reserved else out

    def spell(self, name: str, taken: set[str]) -> tuple[str, bool]:
        """The identifier for ``name`` (recorded in ``taken``) and whether it keeps the name."""
        if not self.force and name not in taken:
            if self.is_valid(name) and name not in self.reserved:
                taken.add(name)
                return name, True
            if self.is_valid(name) and self.keyword is not None:
                taken.add(name)
                return self.keyword(name), True
            quoted = self.verbatim(name) if self.verbatim is not None else None
            if quoted is not None:
                taken.add(name)
                return quoted, True
        cased = self.cased(name) or name
        if self.is_valid(cased) and cased in self.reserved and self.keyword is not None \
                and cased not in taken:
            taken.add(cased)
            return self.keyword(cased), cased == name
        out = cased if self.is_valid(cased) and cased not in self.reserved \
            else self.sanitise(cased)
        out = unique_name(out, taken)
        return out, out == name


def _reserved(words: str) -> frozenset[str]:
    return frozenset(words.split())


# -- the plan of a tool --------------------------------------------------------------------------

@dataclass
class _Enum:
    """A named string enum: its type name and (member identifier, value) pairs."""

    name: str
    members: list[tuple[str, str]]


@dataclass
class _Union:
    """A named tagged union: its type name and (variant identifier, type) pairs."""

    name: str
    options: list[tuple[str, str]]


@dataclass
class _Arg:
    """One argument of a function, or one field of a struct, as a language writes it."""

    name: str  # the true name
    ident: str  # the identifier written
    same: bool  # the identifier keeps the true name
    type: str  # the type, made optional the language's way when not required
    required: bool
    default: str | None  # the default as a literal of the language, when it can be written
    notes: str  # description, constraints, default, what the type could not say
    param: ParamIR


@dataclass
class _Struct:
    """A named type for an object with fields."""

    name: str
    fields: list[_Arg]


@dataclass
class _Plan:
    """One tool as a language writes it: identifier, arguments, return type, named types."""

    tool: ToolIR
    ident: str
    same: bool
    args: list[_Arg]
    returns: str | None
    decls: list[_Struct | _Enum | _Union] = field(default_factory=list)


@dataclass(frozen=True)
class _Type:
    text: str
    nullable: bool = False  # the text already admits null
    enum: _Enum | None = None


def _identity(text: str) -> str:
    return text


@dataclass(frozen=True)
class _Lang:
    """The type mapping of one language, as data (see the module docstring).

    ``enum`` is ``named`` (a type per string enum), ``literal`` (a union of literal types) or
    ``base`` (the values' scalar type, the values in the notes). ``union`` is ``named`` (a
    tagged-union type), ``inline`` (``join`` of the options) or ``none`` (the ``any`` type,
    the options in the notes). ``objects`` is ``named`` (a struct type) or ``described``
    (``map``, the object's shape in the notes, for languages that only document types).
    ``type_ref`` writes a use of a named type (Elixir's ``name()``).
    """

    scalars: Mapping[str, str]
    literal: Callable[[Any, str], str]
    function: _Names
    param: _Names
    field: _Names
    member: _Names = _Names(case="pascal", force=True)
    variant: _Names = _Names(case="pascal", force=True)
    array: Callable[[str], str] = "{}[]".format
    map: str = "object"
    unknown: str | None = None  # the return type of a tool that declares none
    optional: Callable[[str], str] = _identity
    nullable: Callable[[str], str] | None = None  # None: no nullable types (said in the notes)
    marks_optional: bool = False  # the emitter shows optional arguments itself
    enum: str = "named"
    union: str = "none"
    join: Callable[[list[str]], str] = " | ".join
    enum_literal: Callable[[Any, str], str] | None = None  # enum values, when not ``literal``
    objects: str = "named"
    type_ref: Callable[[str], str] = _identity
    type_case: str = "pascal"
    types_taken: frozenset[str] = frozenset()
    member_ref: Callable[[str, str], str] = "{}.{}".format
    member_prefix: bool = False  # enum members start with their type's name (Go, Haskell)
    defaults: bool = False  # the emitter writes defaults in the signature

    @property
    def null(self) -> str:
        """The language's null literal."""
        return self.literal(None, "null")


class _Planner:
    """The shared walker: tools to :class:`_Plan` objects for one language table."""

    def __init__(self, lang: _Lang) -> None:
        self.lang = lang
        self.names = set(lang.types_taken)  # function identifiers and type names together

    def plan(self, tool: ToolIR) -> _Plan:
        ident, same = self.lang.function.spell(tool.name, self.names)
        owner = list(_words(tool.name)) or ["tool"]
        decls: list[_Struct | _Enum | _Union] = []
        args = self.args(tool.params, owner, decls, self.lang.param)
        returns = None
        if tool.returns is not None:
            returns = self.type(tool.returns, [*owner, "result"], decls, []).text
        elif self.lang.unknown is not None:
            returns = self.lang.unknown
        return _Plan(tool, ident, same, args, returns, decls)

    def type_name(self, owner: list[str]) -> str:
        if self.lang.type_case == "snake":
            name = "_".join(w.lower() for part in owner for w in _words(part)) or "type"
        else:
            name = camel_case(*(w for part in owner for w in _words(part)))
        return unique_name(name, self.names)

    def args(self, params: tuple[ParamIR, ...], owner: list[str], decls: list,
             names: _Names) -> list[_Arg]:
        lang, taken, out = self.lang, set(names.seed), []
        for p in sorted(params, key=lambda p: not p.required):  # stable: required first
            ident, same = names.spell(p.name, taken)
            notes: list[str] = []
            typ = self.type(p.type, [*owner, p.name], decls, notes)
            text, default = typ.text, self.default(p, typ)
            # an optional argument whose default the signature shows keeps its plain type
            if not p.required and not typ.nullable and default in (None, lang.null):
                text = lang.optional(text)
                if text == typ.text and not lang.marks_optional:
                    notes.insert(0, "optional")
            note = _flat(_notes(p, notes, json_text))
            out.append(_Arg(p.name, ident, same, text, p.required, default, note, p))
        return out

    def default(self, p: ParamIR, typ: _Type) -> str | None:
        if not self.lang.defaults or not p.has_default:
            return None
        value, t = p.default, p.type
        if value is None:
            return self.lang.null if typ.nullable or not p.required else None
        if typ.enum is not None:
            members = {v: m for m, v in typ.enum.members}
            return self.lang.member_ref(typ.enum.name, members[value]) \
                if value in members else None
        kind = t.enum_base() if t.kind == "enum" else t.kind
        if t.kind == "enum" and value not in t.values:
            return None
        fits = {bool: kind == "boolean", str: kind == "string",
                int: kind in ("integer", "number"), float: kind == "number"}
        if fits.get(type(value), False):
            return self.lang.literal(value, kind)
        return None

    def type(self, t: TypeIR, owner: list[str], decls: list, notes: list[str],
             where: str = "") -> _Type:
        lang, enum = self.lang, None
        if t.kind == "enum":
            strings = bool(t.values) and all(isinstance(v, str) for v in t.values)
            if lang.enum == "named" and strings:
                enum = self.enum(t, owner, decls)
                text = lang.type_ref(enum.name)
            elif lang.enum == "literal" and t.values:
                write = lang.enum_literal or lang.literal
                text = lang.join([write(v, t.enum_base()) for v in t.values])
            else:
                text = lang.scalars[t.enum_base()]
                notes.append(where + (f"one of {value_list(t.values)}" if t.values
                                      else "no value is allowed"))
        elif t.kind == "array":
            inner = (self.type(t.items, [*owner, "item"], decls, notes, where + "each item ")
                     .text if t.items is not None else lang.scalars["any"])
            text = lang.array(inner)
        elif t.kind == "object" and t.fields and lang.objects == "described":
            text = lang.map
            notes.append(f"{where}an object {_shape(t)}")
        elif t.kind == "object" and t.fields:
            text = lang.type_ref(self.struct(t, owner, decls))
        elif t.kind == "object":
            text = lang.map
        elif t.kind == "union" and t.options and lang.union == "named":
            text = lang.type_ref(self.union(t, owner, decls))
        elif t.kind == "union" and t.options and lang.union == "inline":
            text = lang.join([self.type(o, [*owner, f"option{i}"], decls, notes,
                                        f"{where}as {type_label(o)}: ").text
                              for i, o in enumerate(t.options, 1)])
        elif t.kind == "union":
            text = lang.scalars["any"]
            if t.options:
                notes.append(f"{where}one of {_shape(replace(t, nullable=False))}")
        else:
            text = lang.scalars[t.kind]
        if t.nullable and t.kind != "null":
            if lang.nullable is None:
                notes.append(where + "may be null")
                return _Type(text, False, enum)
            return _Type(lang.nullable(text), True, enum)
        return _Type(text, False, enum)

    def struct(self, t: TypeIR, owner: list[str], decls: list) -> str:
        name = self.type_name(owner)
        decls.append(_Struct(name, self.args(t.fields, owner, decls, self.lang.field)))
        return name

    def enum(self, t: TypeIR, owner: list[str], decls: list) -> _Enum:
        name, taken = self.type_name(owner), set()
        members = []
        member = self.lang.member
        for value in t.values:
            if member.force and member.case in ("pascal", "camel", "snake") \
                    and value.upper() == value:
                value_words = value.lower()  # REQUEST_CHANGES: RequestChanges, not REQUESTCHANGES
            else:
                value_words = value
            source = f"{name}_{value_words}" if self.lang.member_prefix else value_words
            ident, _ = member.spell(source, taken)
            members.append((ident, value))
        enum = _Enum(name, members)
        decls.append(enum)
        return enum

    def union(self, t: TypeIR, owner: list[str], decls: list) -> str:
        name, taken, options = self.type_name(owner), set(), []
        for i, o in enumerate(t.options, 1):
            text = self.type(o, [*owner, f"option{i}"], decls, []).text
            kind = o.enum_base() if o.kind == "enum" else o.kind
            source = f"{name}_{kind}" if self.lang.member_prefix else kind
            options.append((self.lang.variant.spell(source, taken)[0], text))
        decls.append(_Union(name, options))
        return name


def _plans(toolset: Toolset, options: RenderOptions, lang: _Lang) -> list[_Plan]:
    planner = _Planner(lang)
    return [planner.plan(t) for t in prepare(toolset, options)]


# -- shared pieces of the emitters ---------------------------------------------------------------

def _label(arg: _Arg, form: str = "{}") -> str:
    """The identifier (written through ``form``), with the true name beside it when they
    differ: ``page_id (name "page-id")``."""
    ident = form.format(arg.ident)
    return ident if arg.same else f"{ident} (name {_flat(json_text(arg.name))})"


def _entries(args: list[_Arg], form: str = "{}") -> list[tuple[str, str]]:
    """(label, notes) for each argument worth a doc entry (with notes, or renamed)."""
    return [(_label(a, form), a.notes) for a in args if a.notes or not a.same]


def _head(plan: _Plan) -> list[str]:
    """The description lines, then ``Tool name: ...`` when the identifier had to change."""
    lines = _lines(plan.tool.description)
    if not plan.same:
        lines += ([""] if lines else []) + [f"Tool name: {_flat(plan.tool.name)}"]
    return lines


def _comment(lines: list[str], prefix: str, indent: str = "") -> list[str]:
    """Line comments (``prefix`` plus a space before non-empty lines)."""
    return [f"{indent}{prefix} {line}".rstrip() if line else f"{indent}{prefix}"
            for line in lines]


def _star_block(lines: list[str], indent: str = "",
                escape: Callable[[str], str] = _block) -> list[str]:
    """A ``/** ... */`` block (one line when the text is one line)."""
    lines = [escape(line) for line in lines]
    if len(lines) == 1:
        return [f"{indent}/** {lines[0]} */"]
    return [f"{indent}/**", *(f"{indent} * {line}".rstrip() for line in lines), f"{indent} */"]


def _sections(*groups: list[str]) -> list[str]:
    """Line groups joined by one blank line, empty groups skipped."""
    out: list[str] = []
    for group in groups:
        if group:
            out += ([""] if out else []) + group
    return out


def _emit(plans: list[_Plan], emitters: Mapping[type, Callable[[Any], str]],
          tool: Callable[[_Plan], str]) -> list[str]:
    """For each plan, its named types then its function, as separate chunks."""
    out = []
    for plan in plans:
        out += [emitters[type(d)](d) for d in plan.decls]
        out.append(tool(plan))
    return out


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line else "" for line in text.split("\n"))


def _decl(type_text: str, name: str) -> str:
    """A C-style declaration, the pointer star against the name (``const char *city``)."""
    return f"{type_text}{name}" if type_text.endswith("*") else f"{type_text} {name}"


# -- Go ------------------------------------------------------------------------------------------

_GO_KEYWORDS = _reserved("""break case chan const continue default defer else fallthrough for
    func go goto if import interface map package range return select struct switch type var""")


def _go_pointer(text: str) -> str:
    # slices, maps and interfaces already have a nil value
    return text if text.startswith(("[]", "map[", "*")) or text == "any" else "*" + text


_GO = _Lang(
    scalars={"string": "string", "integer": "int", "number": "float64", "boolean": "bool",
             "null": "any", "any": "any"},
    literal=_literal_writer(_GO_STR, "true", "false", "nil"),
    function=_Names(case="pascal", force=True, ascii=False, reserved=_GO_KEYWORDS),
    param=_Names(ascii=False, reserved=_GO_KEYWORDS),
    field=_Names(case="pascal", force=True, ascii=False),
    member=_Names(case="pascal", force=True, ascii=False),
    array="[]{}".format, map="map[string]any", unknown="any",
    optional=_go_pointer, nullable=_go_pointer, member_prefix=True,
    types_taken=frozenset({"Error", "String"}),
)


def _go_tag(arg: _Arg) -> str:
    value = f"json:{_GO_STR(arg.name + ('' if arg.required else ',omitempty'))}"
    return f"`{value}`" if "`" not in value and "\n" not in value else _GO_STR(value)


def _go_struct(s: _Struct) -> str:
    lines = [f"type {s.name} struct {{"]
    for a in s.fields:
        lines += _comment(_lines(a.notes), "//", "\t")
        lines.append(f"\t{a.ident} {a.type} {_go_tag(a)}")
    return "\n".join([*lines, "}"])


def _go_enum(e: _Enum) -> str:
    consts = [f"\t{m} {e.name} = {_GO_STR(v)}" for m, v in e.members]
    return "\n".join([f"// {e.name} is one of the constants below.", f"type {e.name} string",
                      "", "const (", *consts, ")"])


def _go_tool(plan: _Plan) -> str:
    about = [f"{plan.ident} is the tool {_flat(json_text(plan.tool.name))}."]
    entries = [f"  - {label}: {notes}" if notes else f"  - {label}"
               for label, notes in _entries(plan.args)]
    doc = _sections(about, _lines(plan.tool.description),
                    ["Parameters:", *entries] if entries else [])
    params = ", ".join(f"{a.ident} {a.type}" for a in plan.args)
    return "\n".join([*_comment(doc, "//"),
                      f"func {plan.ident}({params}) ({plan.returns}, error)"])


@register_format(
    name="Go exported func declarations",
    family="code",
    default_protocol="json_object",
    description=("Tools as exported Go functions without bodies, each returning (T, error) "
                 "under a `// Name ...` doc comment; objects become structs with json tags, "
                 "string enums typed constants, optional arguments pointers."),
    language="go",
    returns="Go source.",
)
def go_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a Go file of function declarations.

    ``package tools``, then per tool its types and ``func Name(arg T, opt *T) (Ret, error)``
    (a body-less declaration, which Go's grammar allows). Functions are exported, so their
    names are PascalCase and the doc comment opens with ``// Name is the tool "name".``, then
    the description and a ``Parameters:`` list (notes, constraints, defaults). Objects with
    fields become structs whose exported fields carry ``json:"true-name"`` tags
    (``,omitempty`` when optional), string enums a named string type with one constant per
    value, unions ``any`` (the options in the notes), optional and nullable scalars pointers.
    """
    chunks = _emit(_plans(toolset, options, _GO),
                   {_Struct: _go_struct, _Enum: _go_enum}, _go_tool)
    return "\n\n".join(["package tools", *chunks]) + "\n"


# -- Rust ----------------------------------------------------------------------------------------

_RUST_KEYWORDS = _reserved("""as break const continue crate else enum extern false fn for if impl
    in let loop match mod move mut pub ref return self Self static struct super trait true type
    unsafe use where while async await dyn abstract become box do final macro override priv
    typeof unsized virtual yield try gen""")
_RUST_NO_RAW = frozenset({"crate", "self", "Self", "super"})


def _rust_raw(name: str) -> str:
    return name + "_" if name in _RUST_NO_RAW else "r#" + name


_RUST_NAMES = _Names(ascii=False, reserved=_RUST_KEYWORDS, keyword=_rust_raw)
_RUST = _Lang(
    scalars={"string": "String", "integer": "i64", "number": "f64", "boolean": "bool",
             "null": "()", "any": "serde_json::Value"},
    literal=_literal_writer(_BRACED_STR, "true", "false", "None"),
    function=_RUST_NAMES, param=_RUST_NAMES, field=_RUST_NAMES,
    member=_Names(case="pascal", force=True, ascii=False, reserved=_reserved("Self")),
    array="Vec<{}>".format, map="serde_json::Map<String, serde_json::Value>",
    unknown="serde_json::Value", optional="Option<{}>".format, nullable="Option<{}>".format,
    union="named", types_taken=frozenset({"Option", "Result", "String", "Vec", "Value"}),
)
_RUST_DERIVE = "#[derive(Debug, Clone, Serialize, Deserialize)]"


def _rust_struct(s: _Struct) -> str:
    lines = [_RUST_DERIVE, f"pub struct {s.name} {{"]
    for a in s.fields:
        lines += _comment(_lines(a.notes), "///", "    ")
        if not a.same:
            lines.append(f"    #[serde(rename = {_BRACED_STR(a.name)})]")
        if not a.required:
            lines.append('    #[serde(skip_serializing_if = "Option::is_none")]')
        lines.append(f"    pub {a.ident}: {a.type},")
    return "\n".join([*lines, "}"])


def _rust_enum(e: _Enum) -> str:
    lines = [_RUST_DERIVE, f"pub enum {e.name} {{"]
    for m, v in e.members:
        if m != v:
            lines.append(f"    #[serde(rename = {_BRACED_STR(v)})]")
        lines.append(f"    {m},")
    return "\n".join([*lines, "}"])


def _rust_union(u: _Union) -> str:
    return "\n".join([_RUST_DERIVE, "#[serde(untagged)]", f"pub enum {u.name} {{",
                      *(f"    {v}({t})," for v, t in u.options), "}"])


def _rust_tool(plan: _Plan) -> str:
    entries = [f"* {label} - {notes}".rstrip(" -")
               for label, notes in _entries(plan.args, "`{}`")]
    doc = _sections(_head(plan), ["# Arguments", "", *entries] if entries else [])
    params = ", ".join(f"{a.ident}: {a.type}" for a in plan.args)
    return "\n".join([*_comment(doc, "///"),
                      f"pub fn {plan.ident}({params}) -> {plan.returns};"])


@register_format(
    name="Rust pub fn prototypes with serde types",
    family="code",
    default_protocol="json_object",
    description=("Tools as `pub fn` declarations with `///` rustdoc (an `# Arguments` list); "
                 "objects become serde structs, string enums serde enums with renamed "
                 "variants, unions untagged enums, optional arguments `Option<T>`."),
    language="rust",
    returns="Rust source.",
)
def rust_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Rust declarations with serde types.

    Per tool: its types, then ``pub fn name(arg: T, opt: Option<T>) -> Ret;`` under a
    ``///`` comment (description, ``Tool name:`` when the name had to change, an
    ``# Arguments`` list with notes, constraints and defaults). Objects with fields become
    ``#[derive(Serialize, Deserialize)] pub struct`` with ``///`` field docs and
    ``#[serde(rename = "...")]`` where a field name is not a Rust identifier; string enums
    become enums whose variants are renamed to the JSON values; unions ``#[serde(untagged)]``
    enums; keywords raw identifiers (``r#type``); an unknown return type
    ``serde_json::Value``.
    """
    chunks = _emit(_plans(toolset, options, _RUST),
                   {_Struct: _rust_struct, _Enum: _rust_enum, _Union: _rust_union}, _rust_tool)
    return "\n\n".join(["use serde::{Deserialize, Serialize};", *chunks]) + "\n"


# -- Java ----------------------------------------------------------------------------------------

_JAVA_KEYWORDS = _reserved("""abstract assert boolean break byte case catch char class const
    continue default do double else enum extends final finally float for goto if implements
    import instanceof int interface long native new package private protected public return
    short static strictfp super switch synchronized this throw throws transient try void
    volatile while true false null var record yield _""")
_JAVA_BOXED = {"long": "Long", "double": "Double", "boolean": "Boolean"}


def _java_box(text: str) -> str:
    return _JAVA_BOXED.get(text, text)


_JAVA = _Lang(
    scalars={"string": "String", "integer": "long", "number": "double", "boolean": "boolean",
             "null": "Void", "any": "Object"},
    literal=_literal_writer(_JAVA_STR, "true", "false", "null"),
    function=_Names(ascii=False, reserved=_JAVA_KEYWORDS),
    param=_Names(ascii=False, reserved=_JAVA_KEYWORDS),
    field=_Names(ascii=False, reserved=_JAVA_KEYWORDS),
    member=_Names(case="upper", force=True, ascii=False, reserved=_JAVA_KEYWORDS),
    array=lambda t: f"List<{_java_box(t)}>", map="Map<String, Object>", unknown="Object",
    optional=lambda t: f"Optional<{_java_box(t)}>",
    nullable=lambda t: f"Optional<{_java_box(t)}>",
    types_taken=frozenset({"List", "Map", "Object", "Optional", "String", "Tools"}),
)


def _java_property(a: _Arg) -> str:
    note = "" if a.same else f"@JsonProperty({_JAVA_STR(a.name)}) "
    return f"{note}{a.type} {a.ident}"


def _java_tags(entries: list[tuple[str, str]], tag: str = "@param") -> list[str]:
    return [f"{tag} {label} {notes}".rstrip() for label, notes in entries]


def _java_struct(s: _Struct) -> str:
    doc = _star_block(_java_tags(_entries(s.fields)), "    ", escape=_java_comment) \
        if _entries(s.fields) else []
    fields = [f"            {_java_property(a)}" for a in s.fields]
    return "\n".join([*doc, f"    record {s.name}(", ",\n".join(fields) + ") {", "    }"])


def _java_enum(e: _Enum) -> str:
    members = [f"        @JsonProperty({_JAVA_STR(v)}) {m}" for m, v in e.members]
    return "\n".join([f"    enum {e.name} {{", ",\n".join(members), "    }"])


def _java_tool(plan: _Plan) -> str:
    doc = _sections(_head(plan), _java_tags(_entries(plan.args)))
    params = ", ".join(_java_property(a) for a in plan.args)
    block = _star_block(doc, "    ", escape=_java_comment) if doc else []
    return "\n".join([*block, f"    {plan.returns} {plan.ident}({params});"])


@register_format(
    name="Java interface with Javadoc'd methods",
    family="code",
    default_protocol="json_object",
    description=("All tools as methods of one Java interface, each with a Javadoc block "
                 "(@param tags); objects become nested records, string enums nested enums "
                 "with @JsonProperty values, optional arguments Optional<T>."),
    language="java",
    returns="Java source.",
)
def java_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as one Java interface.

    ``public interface Tools { ... }`` holds, per tool, its nested types then the abstract
    method ``Ret name(T arg, Optional<T> opt);`` under a Javadoc block (description,
    ``Tool name:`` when the name had to change, one ``@param`` per argument with notes,
    constraints and defaults). Objects with fields become nested ``record`` types (Javadoc
    ``@param`` per component), string enums nested ``enum`` types whose constants carry
    ``@JsonProperty("value")``, unions ``Object`` (the options in the notes). A name that is
    not a Java identifier is sanitised and annotated ``@JsonProperty("true-name")``.
    """
    chunks = _emit(_plans(toolset, options, _JAVA),
                   {_Struct: _java_struct, _Enum: _java_enum}, _java_tool)
    head = ["import com.fasterxml.jackson.annotation.JsonProperty;", "import java.util.List;",
            "import java.util.Map;", "import java.util.Optional;"]
    return "\n".join(head) + "\n\npublic interface Tools {\n\n" + "\n\n".join(chunks) \
        + ("\n" if chunks else "") + "}\n"


# -- Kotlin --------------------------------------------------------------------------------------

_KOTLIN_KEYWORDS = _reserved("""as break class continue do else false for fun if in interface is
    null object package return super this throw true try typealias typeof val var when while""")
_KOTLIN_NAMES = _Names(ascii=False, reserved=_KOTLIN_KEYWORDS, keyword="`{}`".format)


def _kotlin_nullable(text: str) -> str:
    return text if text.endswith("?") else text + "?"


_KOTLIN = _Lang(
    scalars={"string": "String", "integer": "Long", "number": "Double", "boolean": "Boolean",
             "null": "Nothing?", "any": "Any?"},
    literal=_literal_writer(_KOTLIN_STR, "true", "false", "null"),
    function=_KOTLIN_NAMES, param=_KOTLIN_NAMES, field=_KOTLIN_NAMES,
    member=_Names(case="upper", force=True, ascii=False, reserved=_KOTLIN_KEYWORDS),
    array="List<{}>".format, map="Map<String, Any?>", unknown="Any?",
    optional=_kotlin_nullable, nullable=_kotlin_nullable, marks_optional=True, defaults=True,
    types_taken=frozenset({"Any", "List", "Map", "String", "Tools"}),
)


def _kotlin_param(a: _Arg, prefix: str = "") -> str:
    note = "" if a.same else f"@SerialName({_KOTLIN_STR(a.name)}) "
    default = a.default if a.default is not None else (None if a.required else "null")
    return f"{note}{prefix}{a.ident}: {a.type}" + (f" = {default}" if default else "")


def _kotlin_struct(s: _Struct) -> str:
    lines = ["@Serializable", f"data class {s.name}("]
    for a in s.fields:
        lines += _star_block([a.notes], "    ") if a.notes else []
        lines.append(f"    {_kotlin_param(a, 'val ')},")
    return "\n".join([*lines, ")"])


def _kotlin_enum(e: _Enum) -> str:
    members = [f"    @SerialName({_KOTLIN_STR(v)}) {m}," for m, v in e.members]
    return "\n".join(["@Serializable", f"enum class {e.name} {{", *members, "}"])


def _kotlin_tool(plan: _Plan) -> str:
    doc = _sections(_head(plan), _java_tags(_entries(plan.args)))
    params = ", ".join(_kotlin_param(a) for a in plan.args)
    block = _star_block(doc, "    ") if doc else []
    return "\n".join([*block, f"    fun {plan.ident}({params}): {plan.returns}"])


@register_format(
    name="Kotlin interface with KDoc'd funs",
    family="code",
    default_protocol="json_object",
    description=("All tools as `fun` declarations of one Kotlin interface with KDoc; objects "
                 "become @Serializable data classes, string enums enum classes with "
                 "@SerialName values, optional arguments nullable types with defaults."),
    language="kotlin",
    returns="Kotlin source.",
)
def kotlin_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Kotlin declarations with kotlinx.serialization types.

    Top-level types, then ``interface Tools`` with one ``fun name(arg: T, opt: T? = null):
    Ret`` per tool under a KDoc block (description, ``Tool name:`` when the name had to
    change, ``@param`` lines). Optional arguments are nullable with their default (or
    ``null``); objects with fields become ``@Serializable data class`` types with a KDoc line
    per property; string enums ``enum class`` with ``@SerialName("value")`` constants; unions
    ``Any?`` (options in the notes). Keywords are backticked; other names that are not
    identifiers are sanitised and annotated ``@SerialName("true-name")``.
    """
    plans = _plans(toolset, options, _KOTLIN)
    types = [{_Struct: _kotlin_struct, _Enum: _kotlin_enum}[type(d)](d)
             for p in plans for d in p.decls]
    tools = "\n\n".join(_kotlin_tool(p) for p in plans)
    head = ("import kotlinx.serialization.SerialName\n"
            "import kotlinx.serialization.Serializable")
    body = f"interface Tools {{\n{tools}\n}}" if tools else "interface Tools"
    return "\n\n".join([head, *types, body]) + "\n"


# -- Swift ---------------------------------------------------------------------------------------

_SWIFT_KEYWORDS = _reserved("""associatedtype class deinit enum extension fileprivate func import
    init inout internal let open operator private precedencegroup protocol public rethrows
    static struct subscript typealias var break case catch continue default defer do else
    fallthrough for guard if in repeat return throw switch where while Any as await false is
    nil self Self super throws true try Type Protocol""")
_SWIFT_NAMES = _Names(ascii=False, reserved=_SWIFT_KEYWORDS, keyword="`{}`".format)


def _swift_optional(text: str) -> str:
    return text if text.endswith("?") else text + "?"


_SWIFT = _Lang(
    scalars={"string": "String", "integer": "Int", "number": "Double", "boolean": "Bool",
             "null": "Never?", "any": "Any"},
    literal=_literal_writer(_BRACED_STR, "true", "false", "nil"),
    function=_SWIFT_NAMES, param=_SWIFT_NAMES, field=_SWIFT_NAMES,
    member=_Names(case="camel", force=True, ascii=False, reserved=_SWIFT_KEYWORDS,
                  keyword="`{}`".format),
    variant=_Names(case="camel", force=True, reserved=_SWIFT_KEYWORDS, keyword="`{}`".format),
    array="[{}]".format, map="[String: Any]", unknown="Any",
    optional=_swift_optional, nullable=_swift_optional, union="named",
    types_taken=frozenset({"Any", "Codable", "String", "Tools"}),
)


def _swift_struct(s: _Struct) -> str:
    lines = [f"struct {s.name}: Codable {{"]
    for a in s.fields:
        lines += _comment(_lines(a.notes), "///", "    ")
        lines.append(f"    var {a.ident}: {a.type}")
    if not all(a.same for a in s.fields):  # the JSON keys Swift cannot spell
        cases = [f"        case {a.ident}" + ("" if a.same else f" = {_BRACED_STR(a.name)}")
                 for a in s.fields]
        lines += ["", "    enum CodingKeys: String, CodingKey {", *cases, "    }"]
    return "\n".join([*lines, "}"])


def _swift_enum(e: _Enum) -> str:
    cases = [f"    case {m}" + ("" if m.strip("`") == v else f" = {_BRACED_STR(v)}")
             for m, v in e.members]
    return "\n".join([f"enum {e.name}: String, Codable {{", *cases, "}"])


def _swift_union(u: _Union) -> str:
    cases = [f"    case {v}({t})" for v, t in u.options]
    return "\n".join([f"enum {u.name}: Codable {{", *cases, "}"])


def _swift_tool(plan: _Plan) -> str:
    entries = [f"  - {label}: {notes}".rstrip(": ") for label, notes in _entries(plan.args)]
    doc = _sections(_head(plan), ["- Parameters:", *entries] if entries else [])
    params = ", ".join(f"{a.ident}: {a.type}" for a in plan.args)
    return "\n".join([*_comment(doc, "///", "    "),
                      f"    func {plan.ident}({params}) -> {plan.returns}"])


@register_format(
    name="Swift protocol with labelled funcs",
    family="code",
    default_protocol="json_object",
    description=("All tools as `func` requirements of one Swift protocol, with labelled "
                 "arguments and `///` docs (a `- Parameters:` list); objects become Codable "
                 "structs, string enums String-backed enums, optional arguments `T?`."),
    language="swift",
    returns="Swift source.",
)
def swift_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Swift declarations.

    Top-level types, then ``protocol Tools`` with one ``func name(arg: T, opt: T?) -> Ret``
    per tool (argument labels are the parameter names) under a ``///`` comment
    (description, ``Tool name:`` when the name had to change, a ``- Parameters:`` list with
    notes, constraints and defaults; protocol requirements cannot declare defaults). Objects
    with fields become ``Codable`` structs (with ``CodingKeys`` when a key is not a Swift
    identifier), string enums ``String``-backed enums (raw value written when it differs from
    the case name), unions enums with associated values; keywords are backticked.
    """
    plans = _plans(toolset, options, _SWIFT)
    emitters = {_Struct: _swift_struct, _Enum: _swift_enum, _Union: _swift_union}
    types = [emitters[type(d)](d) for p in plans for d in p.decls]
    tools = "\n\n".join(_swift_tool(p) for p in plans)
    return "\n\n".join(["import Foundation", *types,
                        f"protocol Tools {{\n{tools}\n}}" if tools else "protocol Tools {}"]) \
        + "\n"


# -- C# ------------------------------------------------------------------------------------------

_CSHARP_KEYWORDS = _reserved("""abstract as base bool break byte case catch char checked class
    const continue decimal default delegate do double else enum event explicit extern false
    finally fixed float for foreach goto if implicit in int interface internal is lock long
    namespace new null object operator out override params private protected public readonly
    ref return sbyte sealed short sizeof stackalloc static string struct switch this throw
    true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while""")
_CSHARP_NAMES = _Names(ascii=False, reserved=_CSHARP_KEYWORDS, keyword="@{}".format)


def _csharp_nullable(text: str) -> str:
    return text if text.endswith("?") else text + "?"


_CSHARP = _Lang(
    scalars={"string": "string", "integer": "long", "number": "double", "boolean": "bool",
             "null": "object?", "any": "object"},
    literal=_literal_writer(_CSHARP_STR, "true", "false", "null"),
    function=_CSHARP_NAMES, param=_CSHARP_NAMES, field=_CSHARP_NAMES,
    member=_Names(case="pascal", force=True, ascii=False),
    array="List<{}>".format, map="Dictionary<string, object>", unknown="object",
    optional=_csharp_nullable, nullable=_csharp_nullable, marks_optional=True, defaults=True,
    types_taken=frozenset({"Dictionary", "ITools", "List", "String"}),
)


def _csharp_param(a: _Arg, target: str = "") -> str:
    note = "" if a.same else f"[{target}JsonPropertyName({_CSHARP_STR(a.name)})] "
    default = a.default if a.default is not None else (None if a.required else "null")
    return f"{note}{a.type} {a.ident}" + (f" = {default}" if default else "")


def _csharp_params(args: list[_Arg], indent: str) -> list[str]:
    out = []
    for a in args:
        if a.notes or not a.same:
            name = "" if a.same else f"Name {_xml_verbatim(_flat(json_text(a.name)))}. "
            out.append(f'{indent}/// <param name="{a.ident.lstrip("@")}">{name}'
                       f"{_xml_text(a.notes)}</param>".replace(". </param>", ".</param>"))
    return out


def _csharp_struct(s: _Struct) -> str:
    fields = [f"    {_csharp_param(a, 'property: ')}" for a in s.fields]
    return "\n".join([*_csharp_params(s.fields, ""), f"public record {s.name}(",
                      ",\n".join(fields) + ");"])


def _csharp_enum(e: _Enum) -> str:
    members = [f"    [JsonStringEnumMemberName({_CSHARP_STR(v)})] {m}," for m, v in e.members]
    return "\n".join([f"public enum {e.name}", "{", *members, "}"])


def _csharp_tool(plan: _Plan) -> str:
    lines = [_xml_text(line) for line in _lines(plan.tool.description)]
    if not plan.same:
        lines.append(f"Tool name: {_xml_verbatim(_flat(plan.tool.name))}")
    doc = (["    /// <summary>", *_comment(lines, "///", "    "), "    /// </summary>"]
           if lines else [])
    params = ", ".join(_csharp_param(a) for a in plan.args)
    return "\n".join([*doc, *_csharp_params(plan.args, "    "),
                      f"    {plan.returns} {plan.ident}({params});"])


@register_format(
    name="C# interface with XML doc comments",
    family="code",
    default_protocol="json_object",
    description=("All tools as methods of one C# interface documented with XML doc comments "
                 "(<summary>, <param>); objects become records, string enums enums with "
                 "JSON member names, optional arguments nullable with defaults."),
    language="csharp",
    returns="C# source.",
)
def csharp_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as C# declarations.

    Top-level types, then ``public interface ITools`` with one ``Ret name(T arg, T? opt =
    null, long lim = 10);`` per tool, documented by ``/// <summary>`` (description,
    ``Tool name:`` when the name had to change) and ``/// <param name="...">`` (notes,
    constraints, defaults; XML-escaped). Objects with fields become positional ``record``
    types, string enums ``enum`` types with ``[JsonStringEnumMemberName("value")]``, unions
    ``object`` (the options in the notes). Keywords get ``@``; other names that are not
    identifiers are sanitised and given ``[JsonPropertyName("true-name")]``.
    """
    plans = _plans(toolset, options, _CSHARP)
    types = [{_Struct: _csharp_struct, _Enum: _csharp_enum}[type(d)](d)
             for p in plans for d in p.decls]
    tools = "\n\n".join(_csharp_tool(p) for p in plans)
    head = "using System.Collections.Generic;\nusing System.Text.Json.Serialization;"
    return "\n\n".join([head, *types, "public interface ITools\n{\n" + tools
                        + ("\n" if tools else "") + "}"]) + "\n"


# -- C -------------------------------------------------------------------------------------------

_C_KEYWORDS = _reserved("""auto break case char const continue default do double else enum
    extern float for goto if inline int long register restrict return short signed sizeof
    static struct switch typedef union unsigned void volatile while _Bool _Complex _Imaginary
    bool true false alignas alignof static_assert thread_local nullptr typeof constexpr NULL
    size_t""")


def _c_array(text: str) -> str:
    return f"{text}const *" if text.endswith("*") else f"const {text} *"


_C = _Lang(
    scalars={"string": "const char *", "integer": "int64_t", "number": "double",
             "boolean": "bool", "null": "const void *", "any": "const void *"},
    literal=_literal_writer(_JAVA_STR, "true", "false", "NULL"),
    function=_Names(reserved=_C_KEYWORDS), param=_Names(reserved=_C_KEYWORDS),
    field=_Names(reserved=_C_KEYWORDS),
    array=_c_array, map="const void *", unknown="void *", enum="base", objects="named",
)


def _c_struct(s: _Struct) -> str:
    lines = ["typedef struct {"]
    for a in s.fields:
        note = _sentences(f"Name {json_text(a.name)}" if not a.same else "", a.notes)
        lines.append(f"    {_decl(a.type, a.ident)};" + (f" /**< {_block(note)} */" if note
                                                          else ""))
    return "\n".join([*lines, f"}} {s.name};"])


def _c_tool(plan: _Plan) -> str:
    doc = _sections(_head(plan), _java_tags(_entries(plan.args)))
    params = ", ".join(_decl(a.type, a.ident) for a in plan.args) or "void"
    return "\n".join([*(_star_block(doc) if doc else []),
                      f"{_decl(plan.returns or '', plan.ident)}({params});"])


@register_format(
    name="C prototypes in a header",
    family="code",
    default_protocol="json_object",
    description=("Tools as plain C prototypes with Doxygen block comments; objects become "
                 "typedef'd structs, while enums, optional arguments and unions, which C "
                 "cannot type, are stated in the comments."),
    language="c",
    lossy=True,
    returns="C source.",
)
def c_header(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a C header of function prototypes.

    Per tool: typedef'd structs for its objects (a ``/**< ... */`` note per member), then
    ``Ret name(const char *city, int64_t n, const Item *items);`` under a ``/** ... */``
    block (description, ``Tool name:`` when the name had to change, ``@param`` lines). C has
    no optional arguments, string enums or unions, so the notes say "Optional.", "One of
    ...", "One of the types ..."; strings are ``const char *``, arrays ``const T *``, free
    objects and unknown values ``const void *`` (an unknown return ``void *``). This is the
    study's lower bound on type expressiveness, flagged lossy.
    """
    chunks = _emit(_plans(toolset, options, _C), {_Struct: _c_struct}, _c_tool)
    head = "#include <stdbool.h>\n#include <stdint.h>"
    return "\n\n".join([head, *chunks]) + "\n"


# -- C++ -----------------------------------------------------------------------------------------

_CPP_KEYWORDS = _C_KEYWORDS | _reserved("""and and_eq asm bitand bitor catch char8_t char16_t
    char32_t class co_await co_return co_yield compl concept const_cast consteval constinit
    decltype delete dynamic_cast explicit export friend mutable namespace new noexcept not
    not_eq operator or or_eq private protected public reinterpret_cast requires static_cast
    template this throw try typeid typename using virtual wchar_t xor xor_eq std""")
_CPP_NAMES = _Names(reserved=_CPP_KEYWORDS)


def _cpp_optional(text: str) -> str:
    return text if text.startswith("std::optional<") else f"std::optional<{text}>"


_CPP = _Lang(
    scalars={"string": "std::string", "integer": "std::int64_t", "number": "double",
             "boolean": "bool", "null": "std::nullptr_t", "any": "nlohmann::json"},
    literal=_literal_writer(_JAVA_STR, "true", "false", "std::nullopt"),
    function=_CPP_NAMES, param=_CPP_NAMES, field=_CPP_NAMES,
    member=_Names(reserved=_CPP_KEYWORDS, force=True, case="snake"),
    array="std::vector<{}>".format, map="std::map<std::string, nlohmann::json>",
    unknown="nlohmann::json", optional=_cpp_optional, nullable=_cpp_optional,
    marks_optional=True,
    union="inline", join=lambda ts: f"std::variant<{', '.join(ts)}>", defaults=True,
    member_ref="{}::{}".format,
)


def _cpp_struct(s: _Struct) -> str:
    lines = [f"struct {s.name} {{"]
    for a in s.fields:
        note = _sentences(f"Name {json_text(a.name)}" if not a.same else "", a.notes)
        lines.append(f"    {a.type} {a.ident};" + (f"  /**< {_block(note)} */" if note else ""))
    return "\n".join([*lines, "};"])


def _cpp_enum(e: _Enum) -> str:
    members = [f"    {m}," + ("" if m == v else f"  /**< {_block(_flat(json_text(v)))} */")
               for m, v in e.members]
    return "\n".join([f"enum class {e.name} {{", *members, "};"])


def _cpp_tool(plan: _Plan) -> str:
    doc = _sections(_head(plan), _java_tags(_entries(plan.args)))
    params = []
    for a in plan.args:
        default = a.default if a.default is not None else (None if a.required else
                                                           "std::nullopt")
        params.append(f"{a.type} {a.ident}" + (f" = {default}" if default else ""))
    return "\n".join([*(_star_block(doc) if doc else []),
                      f"{plan.returns} {plan.ident}({', '.join(params)});"])


_CPP_HEADERS = (("std::int64_t", "cstdint"), ("std::map", "map"), ("std::optional", "optional"),
                ("std::string", "string"), ("std::variant", "variant"),
                ("std::vector", "vector"))


@register_format(
    name="C++ prototypes over std types",
    family="code",
    default_protocol="json_object",
    description=("Tools as C++ prototypes with Doxygen comments, using std::optional for "
                 "optional arguments, std::variant for unions, std::vector for arrays, enum "
                 "class for string enums and structs for objects."),
    language="cpp",
    returns="C++ source.",
)
def cpp_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as C++ declarations.

    The ``#include`` lines the types need, then per tool its ``enum class`` and ``struct``
    types (a ``/**< ... */`` note per member) and ``Ret name(const-free args);`` under a
    ``/** ... */`` block (description, ``Tool name:`` when the name had to change,
    ``@param`` lines). Optional arguments are ``std::optional<T> x = std::nullopt`` (or
    ``T x = default``), unions ``std::variant<...>``, free objects and unknown values
    ``nlohmann::json``. An enum member whose JSON value is not an identifier carries the
    value in a comment.
    """
    chunks = _emit(_plans(toolset, options, _CPP), {_Struct: _cpp_struct, _Enum: _cpp_enum},
                   _cpp_tool)
    body = "\n\n".join(chunks)
    head = [f"#include <{h}>" for token, h in _CPP_HEADERS if token in body]
    if "nlohmann::" in body:
        head += ["", "#include <nlohmann/json.hpp>"]
    return "\n\n".join(part for part in ("\n".join(head), body) if part) + "\n"


# -- Haskell -------------------------------------------------------------------------------------

_HASKELL_KEYWORDS = _reserved("""case class data default deriving do else foreign if import in
    infix infixl infixr instance let module newtype of then type where forall mdo rec proc _""")


def _lower_start(name: str) -> bool:
    """A variable-like name: an identifier starting with a lower-case letter or ``_``."""
    return name.isidentifier() and (name[0] == "_" or name[0].islower())


def _haskell_apply(head: str) -> Callable[[str], str]:
    return lambda t: f"{head} ({t})" if " " in t and not t.startswith("[") else f"{head} {t}"


_HASKELL_NAMES = _Names(case="snake", reserved=_HASKELL_KEYWORDS, valid=_lower_start)
_HASKELL = _Lang(
    scalars={"string": "Text", "integer": "Int", "number": "Double", "boolean": "Bool",
             "null": "()", "any": "Value"},
    literal=_literal_writer(_HASKELL_STR, "True", "False", "Nothing"),
    function=_HASKELL_NAMES, param=_Names(valid=bool), field=_HASKELL_NAMES,
    member=_Names(case="pascal", force=True, ascii=False),
    array="[{}]".format, map="Object", unknown="Value",
    optional=_haskell_apply("Maybe"), nullable=_haskell_apply("Maybe"),
    union="named", member_prefix=True,
    types_taken=frozenset({"Bool", "Double", "Int", "IO", "Maybe", "Object", "Text", "Value"}),
)


def _haskell_data(name: str, alternatives: list[tuple[str, str]]) -> str:
    """``data Name = A  -- ^ note | B ...`` one alternative per line."""
    lines = [f"data {name}"]
    for i, (alt, note) in enumerate(alternatives):
        lines.append(f"  {'=' if i == 0 else '|'} {alt}" + (f"  -- ^ {note}" if note else ""))
    return "\n".join(lines)


def _haskell_struct(s: _Struct) -> str:
    lines = [f"data {s.name} = {s.name}"]
    for i, a in enumerate(s.fields):
        note = ": ".join(part for part in (_label(a) if not a.same else "", a.notes) if part)
        lines.append(f"  {'{' if i == 0 else ','} {a.ident} :: {a.type}"
                     + (f"  -- ^ {note}" if note else ""))
    return "\n".join([*lines, "  }"])


def _haskell_tool(plan: _Plan) -> str:
    doc = _head(plan)
    lines = [f"-- | {doc[0]}" if doc else None, *(_comment(doc[1:], "--")), plan.ident]
    types = [*((a.type, f"{_flat(a.name)}: {a.notes}".rstrip(": ")) for a in plan.args),
             (_haskell_apply("IO")(plan.returns or "Value"), "")]
    for i, (text, note) in enumerate(types):
        lines.append(f"  {'::' if i == 0 else '->'} {text}" + (f"  -- ^ {note}" if note else ""))
    return "\n".join(line for line in lines if line is not None)


@register_format(
    name="Haskell curried type signatures",
    family="code",
    default_protocol="json_object",
    description=("Tools as curried Haskell type signatures, `name :: A -> B -> IO R`, one "
                 "argument per line with its name only in a Haddock `-- ^` comment; objects "
                 "become records, enums and unions data types, optional arguments `Maybe`."),
    language="haskell",
    lossy=True,
    returns="Haskell source.",
)
def haskell_curried(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a Haskell module of type signatures.

    Per tool: its data types, then ``name :: A -> Maybe B -> IO Ret`` written one argument
    per line, each followed by ``-- ^ true-name: notes`` (the interface has no keyword slots,
    so the names live only in these comments; flagged lossy). Objects with fields become
    record types (``DuplicateRecordFields`` is on), string enums data types whose
    constructors carry the JSON value in a ``-- ^`` comment, unions data types with one
    constructor per option, optional and nullable arguments ``Maybe``, free objects
    ``Object`` and unknown values Aeson's ``Value``.
    """
    emitters = {
        _Struct: _haskell_struct,
        _Enum: lambda e: _haskell_data(e.name, [(m, _flat(json_text(v))) for m, v in e.members]),
        _Union: lambda u: _haskell_data(u.name, [(f"{v} {t}" if " " not in t or t.startswith(
            "[") else f"{v} ({t})", "") for v, t in u.options]),
    }
    chunks = _emit(_plans(toolset, options, _HASKELL), emitters, _haskell_tool)
    head = ("{-# LANGUAGE DuplicateRecordFields #-}\n\nmodule Tools where\n\n"
            "import Data.Aeson (Object, Value)\nimport Data.Text (Text)")
    return "\n\n".join([head, *chunks]) + "\n"


# -- OCaml ---------------------------------------------------------------------------------------

_OCAML_KEYWORDS = _reserved("""and as assert asr begin class constraint do done downto else end
    exception external false for fun function functor if in include inherit initializer land
    lazy let lor lsl lsr lxor match method mod module mutable new nonrec object of open or
    private rec sig struct then to true try type val virtual when while with""")
_OCAML_NAMES = _Names(case="snake", reserved=_OCAML_KEYWORDS,
                      valid=lambda n: bool(re.fullmatch(r"[a-z_][A-Za-z0-9_']*", n)))


def _ocaml_option(text: str) -> str:
    return f"({text}) option" if "->" in text else f"{text} option"


_OCAML = _Lang(
    scalars={"string": "string", "integer": "int", "number": "float", "boolean": "bool",
             "null": "unit", "any": "Yojson.Safe.t"},
    literal=_literal_writer(_OCAML_STR, "true", "false", "None"),
    function=_OCAML_NAMES, param=_OCAML_NAMES, field=_OCAML_NAMES,
    array="{} list".format, map="(string * Yojson.Safe.t) list", unknown="Yojson.Safe.t",
    nullable=_ocaml_option, marks_optional=True, union="named", type_case="snake",
    types_taken=frozenset({"array", "bool", "bytes", "char", "exn", "float", "int", "list",
                           "option", "result", "string", "t", "unit"}),
)


def _ocaml_key(a: _Arg) -> str:
    return "" if a.same else f" [@key {_OCAML_STR(a.name)}]"


def _ocaml_struct(s: _Struct) -> str:
    lines = [f"type {s.name} = {{"]
    for a in s.fields:
        note = f"  (** {_ocaml_comment(a.notes)} *)" if a.notes else ""
        kind = a.type if a.required or a.type.endswith(" option") else _ocaml_option(a.type)
        lines.append(f"  {a.ident} : {kind}{_ocaml_key(a)};{note}")
    return "\n".join([*lines, "}"])


def _ocaml_variants(name: str, cases: list[str]) -> str:
    return "\n".join([f"type {name} =", *(f"  {'[' if i == 0 else '|'} {c}"
                                          for i, c in enumerate(cases)), "  ]"])


def _ocaml_tool(plan: _Plan) -> str:
    entries = [f"@param {a.ident} {a.notes}".rstrip() for a in plan.args if a.notes]
    doc = [_ocaml_comment(line) for line in _sections(_head(plan), entries)]
    block = []
    if doc:
        block = [f"(** {doc[0]}", *(f"    {line}".rstrip() for line in doc[1:])]
        block[-1] += " *)"
    arrows = []
    for a in plan.args:
        kind = f"({a.type}{_ocaml_key(a)})" if not a.same else a.type
        arrows.append(f"{'' if a.required else '?'}{a.ident}:{kind}")
    if any(not a.required for a in plan.args) or not plan.args:
        arrows.append("unit")  # an optional argument needs a positional one after it
    line = f"val {plan.ident} : {' -> '.join([*arrows, plan.returns or ''])}"
    if _ocaml_comment(plan.tool.name) != plan.tool.name and not plan.same:
        line += f"\n  [@@tool_name {_OCAML_STR(plan.tool.name)}]"
    return "\n".join([*block, line])


@register_format(
    name="OCaml interface of labelled vals",
    family="code",
    default_protocol="json_object",
    description=("Tools as `val` declarations of an OCaml interface with labelled arguments "
                 "(`name:type`, optional ones `?name:type`) and odoc comments; objects "
                 "become records, enums and unions polymorphic variants."),
    language="ocaml",
    returns="OCaml interface source (parses with tree-sitter's ``ocaml_interface`` grammar).",
)
def ocaml_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as an OCaml interface (``.mli``).

    Per tool: its types, then ``val name : city:string -> ?limit:int -> unit -> ret`` under
    an odoc comment (description, ``Tool name:`` when the name had to change, ``@param``
    lines). Labels keep the argument names; optional arguments are ``?label:``, followed by
    the ``unit`` argument OCaml needs after them. Objects with fields become records,
    string enums polymorphic variants with ``[@name "value"]``, unions polymorphic variants
    with one payload per option, nullable types ``t option``; a renamed label or field carries
    ``[@key "true-name"]``. Comment text is made lexically safe (OCaml reads strings inside
    comments): ``"`` is written ``''``, ``(*`` and ``*)`` are split; a tool name that this
    would change is also given as ``[@@tool_name "..."]``.
    """
    emitters = {
        _Struct: _ocaml_struct,
        _Enum: lambda e: _ocaml_variants(e.name, [f"`{m} [@name {_OCAML_STR(v)}]"
                                                  for m, v in e.members]),
        _Union: lambda u: _ocaml_variants(u.name, [f"`{v} of {t}" for v, t in u.options]),
    }
    return "\n\n".join(_emit(_plans(toolset, options, _OCAML), emitters, _ocaml_tool)) + "\n"


# -- Scala ---------------------------------------------------------------------------------------

_SCALA_KEYWORDS = _reserved("""abstract case catch class def do else enum export extends false
    final finally for forSome given if implicit import lazy macro match new null object
    override package private protected return sealed super then this throw trait true try
    type val var while with yield _""")


def _scala_backticks(name: str) -> str | None:
    return None if "`" in name or any(ch < " " for ch in name) else f"`{name}`"


_SCALA_NAMES = _Names(ascii=False, reserved=_SCALA_KEYWORDS, keyword="`{}`".format,
                      verbatim=_scala_backticks)


def _scala_option(text: str) -> str:
    return text if text.startswith("Option[") else f"Option[{text}]"


_SCALA = _Lang(
    scalars={"string": "String", "integer": "Long", "number": "Double", "boolean": "Boolean",
             "null": "Null", "any": "Any"},
    literal=_literal_writer(_GO_STR, "true", "false", "None"),
    function=_SCALA_NAMES, param=_SCALA_NAMES, field=_SCALA_NAMES,
    member=_Names(case="pascal", force=True, ascii=False),
    array="List[{}]".format, map="Map[String, Any]", unknown="Any",
    optional=_scala_option, nullable=_scala_option, marks_optional=True, union="inline",
    defaults=True,
    types_taken=frozenset({"Any", "List", "Map", "Option", "String", "Tools"}),
)


def _scala_param(a: _Arg) -> str:
    default = a.default if a.default is not None else (None if a.required else "None")
    return f"{a.ident}: {a.type}" + (f" = {default}" if default else "")


def _scala_doc(lines: list[str], indent: str) -> list[str]:
    """A Scaladoc block (continuation lines start with two spaces and a star)."""
    lines = [_block(line) for line in lines]
    if len(lines) == 1:
        return [f"{indent}/** {lines[0]} */"]
    return [f"{indent}/** {lines[0]}", *(f"{indent}  * {line}".rstrip() for line in lines[1:]),
            f"{indent}  */"]


def _scala_struct(s: _Struct) -> str:
    doc = _java_tags(_entries(s.fields))
    fields = [f"    {_scala_param(a)}," for a in s.fields]
    return "\n".join([*(_scala_doc(doc, "") if doc else []), f"case class {s.name}(", *fields,
                      ")"])


def _scala_enum(e: _Enum) -> str:
    cases = [f"  case {m} extends {e.name}({_GO_STR(v)})" for m, v in e.members]
    return "\n".join([f"enum {e.name}(val value: String) {{", *cases, "}"])


def _scala_tool(plan: _Plan) -> str:
    doc = _sections(_head(plan), _java_tags(_entries(plan.args)))
    params = ", ".join(_scala_param(a) for a in plan.args)
    return "\n".join([*(_scala_doc(doc, "  ") if doc else []),
                      f"  def {plan.ident}({params}): {plan.returns}"])


@register_format(
    name="Scala 3 trait of defs",
    family="code",
    default_protocol="json_object",
    description=("All tools as abstract `def` methods of one Scala 3 trait with Scaladoc; "
                 "optional arguments `Option[T] = None` or their default, objects case "
                 "classes, string enums value-carrying enums, unions `A | B`."),
    language="scala",
    returns="Scala source.",
)
def scala_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Scala 3 declarations.

    Top-level types, then ``trait Tools`` with one ``def name(arg: T, opt: Option[T] = None,
    lim: Long = 10): Ret`` per tool under a Scaladoc block (description, ``Tool name:`` when
    the name had to change, ``@param`` lines). Objects with fields become ``case class``
    types, string enums ``enum X(val value: String)`` whose cases carry the JSON value,
    unions Scala 3 union types ``A | B``. A name that is a keyword or not an identifier is
    written in backticks, so it stays itself.
    """
    plans = _plans(toolset, options, _SCALA)
    types = [{_Struct: _scala_struct, _Enum: _scala_enum}[type(d)](d)
             for p in plans for d in p.decls]
    tools = "\n\n".join(_scala_tool(p) for p in plans)
    return "\n\n".join([*types, f"trait Tools {{\n{tools}\n}}" if tools else "trait Tools"]) \
        + "\n"


# -- Elixir --------------------------------------------------------------------------------------

_ELIXIR_KEYWORDS = _reserved("true false nil when and or not in fn do end catch rescue after else")
_ELIXIR_NAMES = _Names(case="snake", reserved=_ELIXIR_KEYWORDS,
                       valid=lambda n: bool(re.fullmatch(r"[a-z_][A-Za-z0-9_]*", n)))


def _elixir_atom(name: str) -> str:
    return f":{name}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_@]*[?!]?", name) \
        else ":" + _ELIXIR_STR(name)


def _elixir_key(name: str) -> str:
    """A keyword-list key: ``limit:`` or ``"page-id":``."""
    return f"{name}:" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_@]*[?!]?", name) \
        else _ELIXIR_STR(name) + ":"


def _elixir_literal(value: Any, kind: str) -> str:
    """Enum values as typespec literals: strings as atoms, other scalars as themselves."""
    if isinstance(value, str):
        return _elixir_atom(value)
    return _literal_writer(_ELIXIR_STR, "true", "false", "nil")(value, kind)


_ELIXIR = _Lang(
    scalars={"string": "String.t()", "integer": "integer()", "number": "number()",
             "boolean": "boolean()", "null": "nil", "any": "any()"},
    literal=_elixir_literal, enum="literal",
    function=_ELIXIR_NAMES, param=replace(_ELIXIR_NAMES, seed=frozenset({"opts"})),
    field=_Names(valid=bool),
    array="[{}]".format, map="map()", unknown="term()", marks_optional=True,
    nullable="{} | nil".format, union="inline", type_case="snake", type_ref="{}()".format,
    types_taken=frozenset({"t"}),
)


def _elixir_doc(lines: list[str], attribute: str = "@doc") -> list[str]:
    """A ``@doc`` heredoc; backslashes, interpolation and a closing delimiter are escaped."""
    body = [line.replace("\\", "\\\\").replace("#{", "\\#{").replace('"""', '\\"""')
            for line in lines]
    return [f'  {attribute} """', *(f"  {line}".rstrip() for line in body), '  """']


def _elixir_struct(s: _Struct) -> str:
    entries = [f"{'required' if a.required else 'optional'}({_elixir_atom(a.name)}) => {a.type}"
               for a in s.fields]
    notes = [f"* `{_elixir_atom(a.name)}` - {a.notes}" for a in s.fields if a.notes]
    doc = _elixir_doc(notes, "@typedoc") if notes else []
    return "\n".join([*doc, f"  @type {s.name} :: %{{", ",\n".join(
        f"          {e}" for e in entries), "        }"])


def _elixir_tool(plan: _Plan) -> str:
    required = [a for a in plan.args if a.required]
    optional = [a for a in plan.args if not a.required]
    params = [f"* `{_label(a)}` - {a.notes}".rstrip(" -") for a in required
              if a.notes or not a.same]
    opts = [f"* `{_elixir_atom(a.name)}` - {a.notes}".rstrip(" -") for a in optional]
    doc = _sections(_head(plan), ["## Parameters", "", *(f"  {e}" for e in params)]
                    if params else [], ["## Options", "", *(f"  {e}" for e in opts)]
                    if opts else [])
    spec = [f"{a.ident} :: {a.type}" for a in required]
    heads = [a.ident for a in required]
    if optional:
        opts_name = unique_name("opts", {a.ident for a in required})
        keys = ", ".join(f"{_elixir_key(a.name)} {a.type}" for a in optional)
        spec.append(f"{opts_name} :: [{keys}]")
        heads.append(f"{opts_name} \\\\ []")
    return "\n".join([*(_elixir_doc(doc) if doc else []),
                      f"  @spec {plan.ident}({', '.join(spec)}) :: {plan.returns}",
                      f"  def {plan.ident}({', '.join(heads)})"])


@register_format(
    name="Elixir module of specs and heads",
    family="code",
    default_protocol="json_object",
    description=("Tools as Elixir function heads with `@spec` typespecs and `@doc` heredocs "
                 "in one module; required arguments are positional, optional ones a typed "
                 "`opts` keyword list; objects become map types, enums atom unions."),
    language="elixir",
    lossy=True,
    returns="Elixir source.",
)
def elixir_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as an Elixir module of specs and function heads.

    ``defmodule Tools do ... end`` holds, per tool, its ``@type`` definitions, an ``@doc``
    heredoc (description, ``Tool name:`` when the name had to change, ``## Parameters`` and
    ``## Options`` lists), ``@spec name(city :: String.t(), opts :: [limit: integer()]) ::
    term()`` and the body-less head ``def name(city, opts \\\\ [])``. Objects with fields
    become map types with ``required(:key)``/``optional(:key)``, string enums unions of atoms
    (``:"°C"`` quoted where needed), unions ``a | b``, nullable types ``t | nil``. Keys and
    atoms keep the true names; argument variables that cannot are sanitised and listed.
    """
    chunks = _emit(_plans(toolset, options, _ELIXIR), {_Struct: _elixir_struct}, _elixir_tool)
    return "defmodule Tools do\n" + "\n\n".join(chunks) + ("\n" if chunks else "") + "end\n"


# -- Julia ---------------------------------------------------------------------------------------

_JULIA_KEYWORDS = _reserved("""baremodule begin break catch const continue do else elseif end
    export false finally for function global if import let local macro module quote return
    struct true try using while abstract mutable primitive outer public where in isa""")


def _julia_var(name: str) -> str:
    # var"..." is raw: only a quote, and backslashes right before one, need escaping
    body = re.sub(r'(\\*)"', lambda m: m.group(1) * 2 + '\\"', name)
    body = re.sub(r"(\\+)$", lambda m: m.group(1) * 2, body)
    return 'var"' + re.sub("[\ud800-\udfff]", "\ufffd", body) + '"'


def _julia_union(types: list[str]) -> str:
    return f"Union{{{', '.join(types)}}}"


def _julia_nothing(text: str) -> str:
    if text == "Nothing":
        return text
    if text.startswith("Union{"):
        return text if text.endswith(", Nothing}") else text[:-1] + ", Nothing}"
    return f"Union{{{text}, Nothing}}"


_JULIA_NAMES = _Names(ascii=False, reserved=_JULIA_KEYWORDS, keyword=_julia_var,
                      verbatim=_julia_var)
_JULIA = _Lang(
    scalars={"string": "String", "integer": "Int", "number": "Float64", "boolean": "Bool",
             "null": "Nothing", "any": "Any"},
    literal=_literal_writer(_JULIA_STR, "true", "false", "nothing"),
    function=_JULIA_NAMES, field=_JULIA_NAMES,
    # an argument called ``nothing`` would hide the default value ``nothing``
    param=replace(_JULIA_NAMES, seed=frozenset({"nothing"})),
    array="Vector{{{}}}".format, map="Dict{String, Any}", optional=_julia_nothing,
    nullable=_julia_nothing, marks_optional=True, enum="base", union="inline",
    join=_julia_union, defaults=True,
    types_taken=frozenset({"Any", "Dict", "Nothing", "String", "Union", "Vector"}),
)


def _julia_text(line: str) -> str:
    """A line for a ``raw\"\"\"`` docstring, where only a quote that would start a closing
    delimiter needs escaping (by an odd run of backslashes, the raw-string rule)."""
    return re.sub(r'(\\*)"(?="")', lambda m: m.group(1) * 2 + '\\"', line)


def _julia_struct(s: _Struct) -> str:
    lines = [f"Base.@kwdef struct {s.name}"]
    for a in s.fields:
        lines += _comment(_lines(a.notes), "#", "    ")
        default = a.default if a.default is not None else (None if a.required else "nothing")
        lines.append(f"    {a.ident}::{a.type}" + (f" = {default}" if default else ""))
    return "\n".join([*lines, "end"])


def _julia_tool(plan: _Plan) -> str:
    positional = [a for a in plan.args if a.required]
    keywords = [a for a in plan.args if not a.required]
    shown = ", ".join(a.ident for a in positional) + ("; " if keywords else "") + ", ".join(
        f"{a.ident}={a.default if a.default is not None else 'nothing'}" for a in keywords)
    entries = [f"- `{a.ident}::{a.type}`: {a.notes}".rstrip(": ") + (
        "" if a.same else f" (name {json_text(a.name)})") for a in plan.args]
    doc = _sections([f"    {plan.ident}({shown})"], _head(plan),
                    ["# Arguments", *entries] if entries else [])
    params = ", ".join(f"{a.ident}::{a.type}" for a in positional)
    if keywords:
        params += "; " + ", ".join(
            f"{a.ident}::{a.type}={a.default if a.default is not None else 'nothing'}"
            for a in keywords)
    returns = f"::{plan.returns}" if plan.returns else ""
    return "\n".join(['@doc raw"""', *(_julia_text(line) for line in doc), '"""',
                      f"function {plan.ident}({params}){returns} end"])


@register_format(
    name="Julia methods with keyword arguments",
    family="code",
    default_protocol="json_object",
    description=("Tools as empty Julia methods with typed arguments: required ones "
                 "positional, optional ones keywords after the semicolon with their "
                 "defaults; docstrings with an # Arguments list, objects @kwdef structs."),
    language="julia",
    returns="Julia source.",
)
def julia_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Julia method definitions with docstrings.

    Per tool: ``Base.@kwdef struct`` types for its objects (a ``#`` note above each field),
    then a raw docstring (``@doc raw\"\"\"``, so that backslashes and ``$`` in the prose stay
    as they are: the call shape indented, the description, ``Tool name:`` when the name had to
    change, an ``# Arguments`` list) and ``function name(a::T; opt::Union{T,
    Nothing}=nothing, lim::Int=10)::Ret end``. Unions are ``Union{A, B}``; enums, which
    Julia has only as integer-backed ``@enum``, are their values' type with the values in the
    notes. Names that are not identifiers are written ``var"page-id"``, so they stay
    themselves.
    """
    chunks = _emit(_plans(toolset, options, _JULIA), {_Struct: _julia_struct}, _julia_tool)
    return "\n\n".join(chunks) + "\n"


# -- Ruby ----------------------------------------------------------------------------------------

_RUBY_KEYWORDS = _reserved("""__ENCODING__ __LINE__ __FILE__ BEGIN END alias and begin break case
    class def defined do else elsif end ensure false for if in module next nil not or redo
    rescue retry return self super then true undef unless until when while yield""")
_RUBY_NAMES = _Names(case="snake", ascii=False, reserved=_RUBY_KEYWORDS, valid=_lower_start)


def _rbs_optional(text: str) -> str:
    return f"({text})?" if " " in text and not text.startswith(("Array[", "Hash[")) \
        else f"{text}?"


_RUBY = _Lang(
    scalars={"string": "String", "integer": "Integer", "number": "Float", "boolean": "bool",
             "null": "nil", "any": "untyped"},
    literal=_literal_writer(_RUBY_STR, "true", "false", "nil"),
    function=_RUBY_NAMES, param=_RUBY_NAMES, field=_Names(valid=bool),
    array="Array[{}]".format, map="Hash[String, untyped]", unknown="untyped",
    nullable=_rbs_optional, marks_optional=True, enum="literal", union="inline",
    type_case="snake", defaults=True,
)


def _rbs_key(name: str) -> str:
    return f"{name}:" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else \
        _RUBY_STR(name) + ":"


def _ruby_struct(s: _Struct) -> str:
    keys = ", ".join(f"{'' if a.required else '?'}{_rbs_key(a.name)} {a.type}" for a in s.fields)
    notes = [f"#   {_flat(a.name)}: {a.notes}" for a in s.fields if a.notes]
    return "\n".join(["# @rbs!", f"#   type {s.name} = {{ {keys} }}", *notes])


def _ruby_tool(plan: _Plan) -> str:
    doc = _sections(_head(plan), [f"@param {label} {notes}".rstrip()
                                  for label, notes in _entries(plan.args)])
    rbs = ", ".join(f"{'' if a.required else '?'}{a.ident}: {a.type}" for a in plan.args)
    params = ", ".join(f"{a.ident}:" if a.required else
                       f"{a.ident}: {a.default if a.default is not None else 'nil'}"
                       for a in plan.args)
    return "\n".join([*_comment(doc, "#"), f"#: ({rbs}) -> {plan.returns}",
                      f"def {plan.ident}({params}); end" if params else
                      f"def {plan.ident}; end"])


@register_format(
    name="Ruby keyword-argument defs with RBS comments",
    family="code",
    default_protocol="json_object",
    description=("Tools as empty Ruby methods with keyword arguments, each under YARD-style "
                 "comments and an rbs-inline `#:` type line; objects become RBS record type "
                 "aliases, enums unions of literal types."),
    language="ruby",
    lossy=True,
    returns="Ruby source.",
)
def ruby_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Ruby methods with RBS type comments.

    Per tool: ``# @rbs!`` blocks declaring record types for its objects (``type name = {
    key: T, ?opt: T }``), then the description, ``Tool name:`` when the name had to change,
    ``@param`` lines, the method type ``#: (city: String, ?limit: Integer) -> untyped`` and
    ``def name(city:, limit: 10); end``. Enums are unions of literal types (``"c" | "f"``),
    unions ``A | B``, nullable types ``T?``. Types live only in comments, so the format is
    flagged lossy.
    """
    chunks = _emit(_plans(toolset, options, _RUBY), {_Struct: _ruby_struct}, _ruby_tool)
    return "\n\n".join(chunks) + "\n"


# -- PHP -----------------------------------------------------------------------------------------

_PHP_TYPE_WORDS = frozenset({"Array", "Bool", "Callable", "Enum", "False", "Float", "Int",
                             "Iterable", "List", "Mixed", "Never", "Null", "Object", "Parent",
                             "Self", "Static", "String", "Tools", "True", "Void"})


def _php_nullable(text: str) -> str:
    if text in ("mixed", "null") or text.startswith("?") or text.endswith("|null"):
        return text
    return f"{text}|null" if "|" in text else f"?{text}"


def _php_native(text: str) -> str:
    """The type PHP itself can declare for a PHPDoc type (generic arrays become ``array``)."""
    previous = None
    while previous != text:
        previous, text = text, re.sub(r"(?:list|array)<[^<>]*>", "array", text)
    return text


_PHP_NAMES = _Names(ascii=False, reserved=frozenset({"this"}))
_PHP = _Lang(
    scalars={"string": "string", "integer": "int", "number": "float", "boolean": "bool",
             "null": "null", "any": "mixed"},
    literal=_literal_writer(_PHP_STR, "true", "false", "null"),
    function=_Names(ascii=False), param=_PHP_NAMES, field=_PHP_NAMES,
    member=_Names(case="pascal", force=True, ascii=False, reserved=frozenset({"Class"})),
    array="list<{}>".format, map="array<string, mixed>", unknown="mixed",
    optional=_php_nullable, nullable=_php_nullable, marks_optional=True, union="inline",
    join="|".join,
    defaults=True, member_ref="{}::{}".format, types_taken=_PHP_TYPE_WORDS,
)


def _php_param(a: _Arg, prefix: str = "") -> str:
    default = a.default if a.default is not None else (None if a.required else "null")
    return f"{prefix}{_php_native(a.type)} ${a.ident}" + (f" = {default}" if default else "")


def _php_tags(args: list[_Arg]) -> list[str]:
    return [f"@param {a.type} ${_label(a)} {a.notes}".rstrip() for a in args]


def _php_struct(s: _Struct) -> str:
    params = [f"        {_php_param(a, 'public ')}," for a in s.fields]
    return "\n".join([f"final class {s.name}", "{", *_star_block(_php_tags(s.fields), "    "),
                      "    public function __construct(", *params, "    ) {", "    }", "}"])


def _php_enum(e: _Enum) -> str:
    cases = [f"    case {m} = {_PHP_STR(v)};" for m, v in e.members]
    return "\n".join([f"enum {e.name}: string", "{", *cases, "}"])


def _php_tool(plan: _Plan) -> str:
    doc = _sections(_head(plan), [*_php_tags(plan.args), f"@return {plan.returns}"])
    params = ", ".join(_php_param(a) for a in plan.args)
    return "\n".join([*_star_block(doc, "    "), f"    public function {plan.ident}({params}):"
                                                 f" {_php_native(plan.returns or 'mixed')};"])


@register_format(
    name="PHP 8 interface with PHPDoc types",
    family="code",
    default_protocol="json_object",
    description=("All tools as methods of one PHP interface with PHPDoc blocks whose @param "
                 "tags carry the full types (list<T>, unions); objects become classes with "
                 "promoted constructor properties, string enums backed enums."),
    language="php",
    returns="PHP source.",
)
def php_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as PHP 8.1 declarations.

    ``<?php``, top-level types, then ``interface Tools`` with one ``public function
    name(string $city, ?int $limit = null): mixed;`` per tool under a PHPDoc block
    (description, ``Tool name:`` when the name had to change, ``@param`` with the full PHPDoc
    type such as ``list<string>``, ``@return``). Objects with fields become ``final class``
    types with promoted constructor properties, string enums backed enums (``case Celsius =
    'celsius';``), unions ``A|B``, nullable types ``?T``. A parameter name that is not a PHP
    variable name is sanitised and its true name given in the ``@param`` line.
    """
    plans = _plans(toolset, options, _PHP)
    types = [{_Struct: _php_struct, _Enum: _php_enum}[type(d)](d)
             for p in plans for d in p.decls]
    tools = "\n\n".join(_php_tool(p) for p in plans)
    return "\n\n".join(["<?php", *types, "interface Tools\n{\n" + tools
                        + ("\n" if tools else "") + "}"]) + "\n"


# -- Lua -----------------------------------------------------------------------------------------

_LUA_KEYWORDS = _reserved("""and break do else elseif end false for function goto if in local
    nil not or repeat return then true until while""")


def _lua_field(name: str) -> str:
    return f"[{_BRACED_STR(name)}]"


def _lua_wrap(text: str) -> str:
    return f"({text})" if "|" in text else text


_LUA_NAMES = _Names(reserved=_LUA_KEYWORDS)
_LUA = _Lang(
    scalars={"string": "string", "integer": "integer", "number": "number",
             "boolean": "boolean", "null": "nil", "any": "any"},
    literal=_literal_writer(_BRACED_STR, "true", "false", "nil"),
    function=_LUA_NAMES, param=_LUA_NAMES,
    field=_Names(reserved=_LUA_KEYWORDS, keyword=_lua_field, verbatim=_lua_field),
    array=lambda t: f"{_lua_wrap(t)}[]", map="table<string, any>", unknown="any",
    nullable=lambda t: t if t.endswith("?") else f"{_lua_wrap(t)}?", marks_optional=True,
    union="inline", join="|".join,
)


def _lua_struct(s: _Struct) -> str:
    lines = [f"---@class {s.name}"]
    lines += [f"---@field {a.ident}{'' if a.required else '?'} {a.type} {a.notes}".rstrip()
              for a in s.fields]
    return "\n".join(lines)


def _lua_tool(plan: _Plan) -> str:
    params = [f"---@param {a.ident}{'' if a.required else '?'} {a.type} "
              f"{_sentences('' if a.same else f'Name {json_text(a.name)}', a.notes)}".rstrip()
              for a in plan.args]
    returns = [f"---@return {plan.returns}"] if plan.returns else []
    return "\n".join([*_comment(_head(plan), "---"), *params, *returns,
                      f"function {plan.ident}({', '.join(a.ident for a in plan.args)}) end"])


@register_format(
    name="Lua functions with LuaLS annotations",
    family="code",
    default_protocol="json_object",
    description=("Tools as empty Lua functions whose types live in `---@param`/`---@return` "
                 "annotations; objects become `---@class` tables with `---@field` lines, "
                 "string enums `---@alias` unions of literals."),
    language="lua",
    lossy=True,
    returns="Lua source.",
)
def lua_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Lua functions with LuaLS/LDoc annotations.

    Per tool: ``---@alias`` lines for its string enums (``"c"|"f"``), ``---@class`` blocks
    for its objects (``---@field key? type note``, keys that are not names written
    ``["page-id"]``), then the description, ``Tool name:`` when the name had to change, one
    ``---@param name? type note`` per argument, ``---@return`` and ``function name(a, b)
    end``. Lua itself is untyped, so everything about types lives in the annotations
    (flagged lossy).
    """
    emitters = {_Struct: _lua_struct, _Enum: lambda e: f"---@alias {e.name} "
                + "|".join(_BRACED_STR(v) for _, v in e.members)}
    return "\n\n".join(_emit(_plans(toolset, options, _LUA), emitters, _lua_tool)) + "\n"


# -- Zig -----------------------------------------------------------------------------------------

_ZIG_KEYWORDS = _reserved("""addrspace align allowzero and anyframe anytype asm async await break
    callconv catch comptime const continue defer else enum errdefer error export extern fn for
    if inline linksection noalias noinline nosuspend opaque or orelse packed pub resume return
    struct suspend switch test threadlocal try union unreachable usingnamespace var volatile
    while bool void type anyerror anyopaque noreturn true false null undefined comptime_int
    comptime_float f16 f32 f64 f80 f128 isize usize c_char c_short c_ushort c_int c_uint
    c_long c_ulong c_longlong c_ulonglong c_longdouble std""")
_ZIG_PRIMITIVE = re.compile(r"[iu][0-9]+\Z")


def _zig_quoted(name: str) -> str:
    return "@" + _BRACED_STR(name)


_ZIG_NAMES = _Names(reserved=_ZIG_KEYWORDS, keyword=_zig_quoted, verbatim=_zig_quoted,
                    valid=lambda n: bool(_ASCII_NAME.match(n)) and not _ZIG_PRIMITIVE.match(n)
                    and n != "_")


def _zig_optional(text: str) -> str:
    return text if text.startswith("?") else "?" + text


_ZIG = _Lang(
    scalars={"string": "[]const u8", "integer": "i64", "number": "f64", "boolean": "bool",
             "null": "@TypeOf(null)", "any": "std.json.Value"},
    literal=_literal_writer(_BRACED_STR, "true", "false", "null"),
    function=_ZIG_NAMES, param=_ZIG_NAMES, field=_ZIG_NAMES, member=_ZIG_NAMES,
    variant=_ZIG_NAMES, array="[]const {}".format, map="std.json.ObjectMap",
    unknown="std.json.Value", optional=_zig_optional, nullable=_zig_optional,
    marks_optional=True, union="named",
    defaults=True, member_ref=lambda _, member: "." + member,
)


def _zig_struct(s: _Struct) -> str:
    lines = [f"pub const {s.name} = struct {{"]
    for a in s.fields:
        lines += _comment(_lines(a.notes), "///", "    ")
        default = a.default if a.default is not None else (None if a.required else "null")
        lines.append(f"    {a.ident}: {a.type}" + (f" = {default}" if default else "") + ",")
    return "\n".join([*lines, "};"])


def _zig_tool(plan: _Plan) -> str:
    entries = [f"- `{label}`: {notes}".rstrip(": ") for label, notes in _entries(plan.args)]
    doc = _sections(_head(plan), entries)
    # Zig has no default arguments: an optional argument is an optional type
    params = ", ".join(f"{a.ident}: {a.type if a.required else _zig_optional(a.type)}"
                       for a in plan.args)
    return "\n".join([*_comment(doc, "///"), f"pub fn {plan.ident}({params}) !{plan.returns};"])


@register_format(
    name="Zig pub fn prototypes",
    family="code",
    default_protocol="json_object",
    description=("Tools as Zig `pub fn` prototypes returning error unions, with `///` docs; "
                 "optional arguments `?T`, objects structs with field defaults, string enums "
                 "enums whose tags are the values, unions tagged `union(enum)`."),
    language="zig",
    returns="Zig source.",
)
def zig_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Zig declarations.

    ``const std = @import("std");``, then per tool its types and ``pub fn name(city: []const
    u8, limit: ?i64) !Ret;`` (a prototype, which Zig's grammar accepts) under ``///`` lines
    (description, ``Tool name:`` when needed, one line per argument with notes). Objects
    with fields become ``struct`` types whose optional fields default to ``null`` (or their
    default), string enums ``enum`` types whose tags are the JSON values, unions
    ``union(enum)``. Any name that is not a plain identifier, a keyword or a primitive type
    name is written ``@"..."``, so every name stays itself.
    """
    emitters = {
        _Struct: _zig_struct,
        _Enum: lambda e: f"pub const {e.name} = enum {{ {', '.join(m for m, _ in e.members)} }};",
        _Union: lambda u: "\n".join([f"pub const {u.name} = union(enum) {{",
                                     *(f"    {v}: {t}," for v, t in u.options), "};"]),
    }
    chunks = _emit(_plans(toolset, options, _ZIG), emitters, _zig_tool)
    return "\n\n".join(['const std = @import("std");', *chunks]) + "\n"


# -- R -------------------------------------------------------------------------------------------

_R_KEYWORDS = _reserved("""if else repeat while function for next break TRUE FALSE NULL Inf NaN
    NA NA_integer_ NA_real_ NA_character_ NA_complex_ in""")
_R_SYNTACTIC = re.compile(r"(?:[A-Za-z]|\.(?![0-9]))[A-Za-z0-9._]*\Z")


def _r_backticks(name: str) -> str:
    body = re.sub("[\ud800-\udfff]", "\ufffd", name).replace("\\", "\\\\").replace("`", "\\`")
    return f"`{body}`"


def _r_literal(value: Any, kind: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and kind == "integer":
        return f"{value}L"
    return _literal_writer(_BRACED_STR, "TRUE", "FALSE", "NULL")(value, kind)


_R_NAMES = _Names(reserved=_R_KEYWORDS, keyword=_r_backticks, verbatim=_r_backticks,
                  valid=lambda n: bool(_R_SYNTACTIC.match(n)))
_R = _Lang(
    scalars={"string": "character", "integer": "integer", "number": "numeric",
             "boolean": "logical", "null": "NULL", "any": "any"},
    literal=_r_literal, function=_R_NAMES, param=_R_NAMES, field=_R_NAMES,
    array="list of {}".format, map="list", unknown="any", marks_optional=True, enum="base",
    objects="described", defaults=True,
)


def _r_tool(plan: _Plan) -> str:
    params = [f"@param {a.ident} ({a.type}{'' if a.required else ', optional'}) {a.notes}"
              .rstrip() for a in plan.args]
    returns = [f"@return {_shape(plan.tool.returns)}"] if plan.tool.returns is not None else []
    doc = _sections(_head(plan), params, returns)
    args = ", ".join(a.ident if a.required else
                     f"{a.ident} = {a.default if a.default is not None else 'NULL'}"
                     for a in plan.args)
    return "\n".join([*_comment(doc, "#'"), f"{plan.ident} <- function({args}) NULL"])


@register_format(
    name="R functions with roxygen2 blocks",
    family="code",
    default_protocol="json_object",
    description=("Tools as R functions with an empty body under roxygen2 `#'` blocks; "
                 "every type, enum and object shape is stated in the @param lines, optional "
                 "arguments default to NULL or their default."),
    language="r",
    lossy=True,
    returns="R source.",
)
def r_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as R functions with roxygen2 documentation.

    Per tool: a roxygen block (description, ``Tool name:`` when needed, one ``@param name
    (type[, optional]) notes`` per argument, ``@return``) and ``name <- function(city, limit
    = 10L, flag = NULL) NULL``. R is untyped: types, enum values and object shapes (``an
    object {street: string, zip?: string}``) are stated in the ``@param`` lines (flagged
    lossy). Non-syntactic names are written in backticks, so every name stays itself.
    """
    return "\n\n".join(_r_tool(p) for p in _plans(toolset, options, _R)) + "\n"


# -- MATLAB --------------------------------------------------------------------------------------

_MATLAB_KEYWORDS = _reserved("""break case catch classdef continue else elseif end for function
    global if otherwise parfor persistent return spmd switch try while""")
_MATLAB_NAMES = _Names(case="snake", reserved=_MATLAB_KEYWORDS,
                       valid=lambda n: bool(re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", n)))


def _matlab_array(text: str) -> str:
    return text.replace("(1,1)", "(1,:)") if text.startswith("(1,1)") else "(1,:) cell"


_MATLAB = _Lang(
    scalars={"string": "(1,1) string", "integer": "(1,1) int64", "number": "(1,1) double",
             "boolean": "(1,1) logical", "null": "", "any": ""},
    literal=_literal_writer(_MATLAB_STR, "true", "false", "[]"),
    function=_MATLAB_NAMES, param=replace(_MATLAB_NAMES, seed=frozenset({"opts", "result"})),
    field=_MATLAB_NAMES, array=_matlab_array, map="(1,1) struct", marks_optional=True,
    enum="base", objects="described", defaults=True,
)
_MATLAB_BOUNDS = (("minimum", "mustBeGreaterThanOrEqual"), ("exclusive_minimum",
                  "mustBeGreaterThan"), ("maximum", "mustBeLessThanOrEqual"),
                  ("exclusive_maximum", "mustBeLessThan"))


def _matlab_validators(a: _Arg, ref: str) -> str:
    t, checks = a.param.type, []
    if t.kind == "enum" and t.values and all(isinstance(v, str) for v in t.values):
        checks.append(f"mustBeMember({ref}, [{', '.join(_MATLAB_STR(v) for v in t.values)}])")
    if t.kind == "integer":
        checks += [f"{check}({ref}, {_number(getattr(t, attr), False)})"
                   for attr, check in _MATLAB_BOUNDS if getattr(t, attr) is not None]
    return f" {{{', '.join(checks)}}}" if checks else ""


def _matlab_tool(plan: _Plan) -> str:
    required = [a for a in plan.args if a.required]
    optional = [a for a in plan.args if not a.required]
    opts = unique_name("opts", {a.ident for a in plan.args})
    inputs = [a.ident for a in required] + ([opts] if optional else [])
    about = _head(plan)
    entries = [f"{'' if a.required else opts + '.'}{_label(a)}: {a.notes}".rstrip(": ")
               for a in plan.args if a.notes or not a.same]
    if plan.tool.returns is not None:
        entries.append(f"result: {_shape(plan.tool.returns)}")
    # the H1 line (upper-case name, first line of the description), then indented help text
    help_lines = [f"%{plan.ident.upper()} {about[0] if about else ''}".rstrip()]
    help_lines += [f"%   {line}" if line else "%" for line in [*about[1:], *entries]]
    body = []
    for a in plan.args:
        ref = a.ident if a.required else f"{opts}.{a.ident}"
        default = "" if a.required or a.default is None else f" = {a.default}"
        body.append(f"    {ref} {a.type}{_matlab_validators(a, ref)}".rstrip() + default)
    block = ["arguments", *body, "end"] if body else []
    return "\n".join([f"function result = {plan.ident}({', '.join(inputs)})", *help_lines,
                      *block, "end"])


@register_format(
    name="MATLAB functions with arguments blocks",
    family="code",
    default_protocol="json_object",
    description=("Tools as MATLAB `function result = name(args)` files with help text and an "
                 "`arguments` validation block: sizes and classes, mustBeMember for enums, "
                 "bounds validators, optional arguments as name-value `opts.x` defaults."),
    language="matlab",
    lossy=True,
    returns="MATLAB source.",
)
def matlab_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as MATLAB functions with argument validation.

    Per tool: ``function result = name(city, opts)``, its help text (``%NAME description``,
    then one ``%   arg: notes`` line per documented argument, and the result's shape), an
    ``arguments`` block (``city (1,1) string``, ``unit (1,1) string {mustBeMember(unit,
    ["c", "f"])}``, integer bounds as ``mustBeGreaterThanOrEqual``..., optional arguments
    as name-value ``opts.limit (1,1) int64 = 10``) and ``end``. Objects are ``struct`` with
    their fields described in the help text, unions unvalidated (flagged lossy). Names that
    are not MATLAB identifiers are sanitised and their true names given in the help text.
    """
    return "\n\n".join(_matlab_tool(p) for p in _plans(toolset, options, _MATLAB)) + "\n"


# -- SQL -----------------------------------------------------------------------------------------

# PostgreSQL's reserved key words (and those reserved except as function or type names).
_SQL_RESERVED = _reserved("""all analyse analyze and any array as asc asymmetric authorization
    binary both case cast check collate collation column concurrently constraint create cross
    current_catalog current_date current_role current_schema current_time current_timestamp
    current_user default deferrable desc distinct do else end except false fetch for foreign
    freeze from full grant group having ilike in initially inner intersect into is isnull join
    lateral leading left like limit localtime localtimestamp natural not notnull null offset on
    only or order outer overlaps placing primary references returning right select
    session_user similar some symmetric system_user table tablesample then to trailing true
    union unique user using variadic verbose when where window with""")


def _sql_quoted(name: str) -> str:
    return '"' + re.sub("[\ud800-\udfff]", "\ufffd", name).replace("\x00", "").replace(
        '"', '""') + '"'


_SQL_NAMES = _Names(reserved=_SQL_RESERVED, keyword=_sql_quoted, verbatim=_sql_quoted,
                    valid=lambda n: bool(re.fullmatch(r"[a-z_][a-z0-9_]*", n)))
_SQL = _Lang(
    scalars={"string": "TEXT", "integer": "BIGINT", "number": "DOUBLE PRECISION",
             "boolean": "BOOLEAN", "null": "JSONB", "any": "JSONB"},
    literal=_literal_writer(_SQL_STR, "TRUE", "FALSE", "NULL"),
    function=_SQL_NAMES, param=_SQL_NAMES, field=_SQL_NAMES, member=_Names(valid=bool),
    array="{}[]".format, map="JSONB", unknown="JSONB", marks_optional=True,
    type_case="snake", defaults=True, member_ref=lambda _, member: _SQL_STR(member),
    types_taken=_SQL_RESERVED,
)


def _sql_struct(s: _Struct) -> str:
    columns = ", ".join(f"{a.ident} {a.type}" for a in s.fields)
    comments = [f"COMMENT ON COLUMN {s.name}.{a.ident} IS {_SQL_STR(a.notes)};"
                for a in s.fields if a.notes]
    return "\n".join([f"CREATE TYPE {s.name} AS ({columns});", *comments])


def _sql_tool(plan: _Plan) -> str:
    params = [f"{a.ident} {a.type}" + ("" if a.required else
                                       f" DEFAULT {a.default if a.default else 'NULL'}")
              for a in plan.args]
    head = f"CREATE FUNCTION {plan.ident}("
    signature = head + ", ".join(params) + ")"
    if len(signature) > 100:
        signature = head + "\n" + ",\n".join(f"    {p}" for p in params) + "\n)"
    lines = [signature, f"RETURNS {plan.returns}", "LANGUAGE sql",
             f"AS $$ SELECT NULL::{plan.returns} $$;"]
    entries = [f"{_flat(a.name)}: {a.notes}" for a in plan.args if a.notes]
    text = "\n".join(_sections(_lines(plan.tool.description), entries))
    if text:  # the name alone identifies the function, as tool names are unique
        lines.append(f"COMMENT ON FUNCTION {plan.ident} IS {_SQL_STR(text)};")
    return "\n".join(lines)


@register_format(
    name="PostgreSQL CREATE FUNCTION statements",
    family="code",
    default_protocol="sql_call",
    description=("Tools as PostgreSQL `CREATE FUNCTION` statements (arguments with types and "
                 "DEFAULTs) with the prose in `COMMENT ON` statements; objects become "
                 "composite types, string enums `CREATE TYPE ... AS ENUM`."),
    language="sql",
    returns="SQL statements (PostgreSQL dialect).",
)
def sql_udf(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as PostgreSQL DDL.

    Per tool: ``CREATE TYPE ... AS ENUM (...)`` for its string enums, ``CREATE TYPE ... AS
    (...)`` composite types for its objects (field notes as ``COMMENT ON COLUMN``), then
    ``CREATE FUNCTION name(city TEXT, "limit" BIGINT DEFAULT 10) RETURNS JSONB LANGUAGE sql
    AS $$ SELECT NULL::JSONB $$;`` (a stub body; the tool runs elsewhere) and ``COMMENT ON
    FUNCTION name IS '...'`` (PostgreSQL 10+) with the description and the argument notes.
    Names that are not lower-case identifiers, or are reserved words, are double-quoted, so
    every name stays itself and can be used as is in a ``SELECT name(arg => ...)`` call.
    Unions, free objects and unknown values are ``JSONB``.
    """
    emitters = {_Struct: _sql_struct, _Enum: lambda e: f"CREATE TYPE {e.name} AS ENUM ("
                + ", ".join(_SQL_STR(v) for _, v in e.members) + ");"}
    return "\n\n".join(_emit(_plans(toolset, options, _SQL), emitters, _sql_tool)) + "\n"


# -- Bash ----------------------------------------------------------------------------------------

_BASH_RESERVED = _reserved("""if then else elif fi case esac for select while until do done in
    function time coproc""")


def _bash_literal(value: Any, kind: str) -> str:
    if value is None or isinstance(value, (bool, int, float)):
        return json_text(value)
    return _BASH_STR(str(value))


def _bash_choice(value: Any, kind: str) -> str:
    """An enum value in a usage line: bare when plain, else as JSON."""
    if isinstance(value, str) and re.fullmatch(r"[\w.:/+@-]+", value):
        return value
    return json_text(value)


_BASH = _Lang(
    scalars={"string": "string", "integer": "integer", "number": "number",
             "boolean": "true|false", "null": "null", "any": "json"},
    literal=_bash_literal,
    function=_Names(reserved=_BASH_RESERVED,
                    valid=lambda n: bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.:-]*", n))),
    param=_Names(), field=_Names(valid=bool),
    array=lambda t: f"({t})[]" if "|" in t else f"{t}[]", map="json-object",
    marks_optional=True, enum="literal", enum_literal=_bash_choice, join="|".join,
    objects="described", defaults=True,
)


def _bash_tool(plan: _Plan) -> str:
    usage = [f"--{a.name} <{a.type}>" if a.required else f"[--{a.name} <{a.type}>]"
             for a in plan.args]
    width = max((len(a.name) for a in plan.args), default=0) + 2
    options_ = [f"  --{a.name.ljust(width)} {a.notes}".rstrip() for a in plan.args if a.notes]
    about = _lines(plan.tool.description)
    outputs = [f"Outputs: {_shape(plan.tool.returns)}"] if plan.tool.returns is not None else []
    doc = _sections([_flat(plan.tool.name) + (f": {about[0]}" if about else ""), *about[1:]],
                    [_flat(" ".join([f"Usage: {plan.ident}", *usage])), *options_], outputs)
    body = []
    for a in plan.args:
        value = a.default if a.default is not None else (
            _BASH_STR(json_text(a.param.default)) if a.param.has_default else '""')
        body.append(f"  local {a.ident}={value}" + ("" if a.same else f"  # --{_flat(a.name)}"))
    return "\n".join([*_comment(doc, "#"), f"{plan.ident}() {{", *(body or ["  :"]), "}"])


@register_format(
    name="Bash functions with usage headers",
    family="code",
    default_protocol="cli_call",
    description=("Tools as shell functions under a comment header with a `Usage:` line of "
                 "`--option <type>` flags and per-option notes; the body only declares "
                 "`local` variables with their defaults. Every value is a string."),
    language="bash",
    lossy=True,
    returns="Bash source.",
)
def bash_function(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Bash function stubs.

    Per tool: a comment header (``# name: description``, a ``Usage: name --city <string>
    [--unit <c|f>]`` line whose options are the true parameter names, one line of notes per
    option, then ``Outputs:`` with the shape of what the tool returns, as the Google shell
    style guide has it) and ``name() { local city=""; local unit='c'; }`` (one ``local`` per
    argument, set to its default). The shell has only strings, so types are labels in the
    usage line (``<integer>``, ``<json-object>``, enum values joined by ``|``) and object
    shapes are in
    the notes (flagged lossy). A tool name Bash cannot use as a function name is sanitised;
    the header always starts with the true name.
    """
    return "\n\n".join(_bash_tool(p) for p in _plans(toolset, options, _BASH)) + "\n"


# -- Python dialects -----------------------------------------------------------------------------
# They share python_stub's walker (``_PythonWriter.annotation``) and its argument rules, so
# that a name, a type or a default reads the same in every Python format.

_PY_LINE = 100  # a signature longer than this is written one argument per line


@dataclass
class _PyArg:
    param: ParamIR
    ident: str
    annotation: str
    text: str  # ``name: annotation = default`` as in the signature


def _py_args(writer: _PythonWriter, params: tuple[ParamIR, ...], owner: str, out: list[str],
             taken: frozenset[str] = frozenset()) -> list[_PyArg]:
    """Arguments as python_stub writes them: required first, optional ones with a default."""
    names, args = set(taken), []
    for p in sorted(params, key=lambda p: not p.required):
        ident = unique_name(python_identifier(p.name), names)
        ann = writer.annotation(p.type, [owner, p.name], out)
        if p.required:
            text = f"{ident}: {ann}"
        elif p.has_default:
            text = f"{ident}: {ann} = {_py_literal(p.default)}"
        else:
            none = "" if ann.endswith("| None") or ann == "None" else " | None"
            text = f"{ident}: {ann}{none} = None"
        args.append(_PyArg(p, ident, ann, text))
    return args


def _py_returns(writer: _PythonWriter, tool: ToolIR, owner: str, out: list[str]) -> str:
    if tool.returns is not None:
        return writer.annotation(tool.returns, [owner, "result"], out)
    writer.imports.add("Any")
    return "Any"


def _py_names(tool: ToolIR, ident: str, args: list[_PyArg]) -> str:
    """``Tool name: ...`` and ``Argument names: x_y is "x-y".`` lines, when names changed."""
    lines = [f"Tool name: {tool.name}"] if ident != tool.name else []
    renamed = [f"{a.ident} is {json_text(a.param.name)}" for a in args
               if a.ident != a.param.name]
    if renamed:
        lines.append(f"Argument names: {'; '.join(renamed)}.")
    return "\n".join(lines)


def _py_docstring(sections: list[str], indent: str) -> str:
    """A docstring body at ``indent`` (``...`` when there is nothing to say)."""
    doc = _py_escape("\n\n".join(s for s in sections if s))
    if "\n" in doc:
        doc = "\n".join(f"{indent}{line}" if line else "" for line in doc.split("\n"))
        return f'{indent}"""{doc.lstrip()}\n{indent}"""'
    if doc:  # a closing quote of the text would merge with the docstring's own
        return f'{indent}"""{doc[:-1]}\\""""' if doc.endswith('"') else f'{indent}"""{doc}"""'
    return f"{indent}..."


def _py_def(ident: str, args: list[str], returns: str, indent: str = "") -> str:
    line = f"{indent}def {ident}({', '.join(args)}) -> {returns}:"
    if len(line) <= _PY_LINE:
        return line
    return "\n".join([f"{indent}def {ident}(", *(f"{indent}    {a}," for a in args),
                      f"{indent}) -> {returns}:"])


def _py_module(writer: _PythonWriter, blocks: list[str], extra: list[str] = ()) -> str:
    head = list(extra)
    if writer.imports:
        head.append(f"from typing import {', '.join(sorted(writer.imports))}")
    return "\n\n\n".join(["\n".join(head), *blocks] if head else blocks) + "\n"


@register_format(
    name="Python stubs, NumPy docstring dialect",
    family="code",
    default_protocol="python_call",
    description=("The Python stubs of `python_stub` with NumPy-style docstrings instead of "
                 "Google-style ones: `Parameters` and `Returns` sections under dashed "
                 "underlines, one `name : type` entry per argument."),
    language="python",
    returns="Python source.",
)
def python_stub_numpy(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as typed Python stubs with NumPy-style docstrings.

    The signatures, ``TypedDict`` classes and ``Literal`` types are those of
    ``python_stub``; the docstring holds the description, the name mapping when a name had to
    change, a ``Parameters`` section (``name : type`` or ``name : type, optional``, then the
    notes indented) and a ``Returns`` section. Every block passes ``ast.parse``.
    """
    writer, blocks = _PythonWriter(), []
    for tool in prepare(toolset, options):
        ident = unique_name(python_identifier(tool.name), writer.taken)
        classes: list[str] = []
        args = _py_args(writer, tool.params, ident, classes)
        returns = _py_returns(writer, tool, ident, classes)
        entries = []
        for a in args:
            entries.append(f"{a.ident} : {a.annotation}{'' if a.param.required else ', optional'}")
            note = _notes(a.param, [], _py_literal)
            entries += [f"    {note}"] if note else []
        sections = [tool.description.strip(), _py_names(tool, ident, args),
                    "\n".join(["Parameters", "----------", *entries]) if entries else "",
                    f"Returns\n-------\n{returns}" if tool.returns is not None else ""]
        body = _py_docstring(sections, "    ")
        blocks.append("\n\n\n".join([*classes, _py_def(ident, [a.text for a in args], returns)
                                     + "\n" + body]))
    return _py_module(writer, blocks)


class _OneLineWriter(_PythonWriter):
    """python_stub's walker, writing each ``TypedDict`` on one line in the functional form."""

    def typed_dict(self, t: TypeIR, owner: list[str], out: list[str]) -> str:
        name = unique_name(camel_case(*owner), self.taken)
        self.imports.add("TypedDict")
        items = []
        for f in t.fields:
            ann = self.annotation(f.type, [*owner, f.name], out)
            if not f.required:
                self.imports.add("NotRequired")
                ann = f"NotRequired[{ann}]"
            items.append(f"{_py_literal(f.name)}: {ann}")
        out.append(f"{name} = TypedDict({json_text(name)}, {{{', '.join(items)}}})")
        return name


@register_format(
    name="Bare Python def lines",
    family="code",
    default_protocol="python_call",
    description=("One typed Python `def` line per tool with no docstring and no prose: the "
                 "types, optional arguments with defaults, one-line TypedDicts and Literal "
                 "enums, nothing else. The Python arm of the descriptions-off comparison."),
    language="python",
    lossy=True,
    compressed=True,
    returns="Python source.",
    options_doc="Return types are shown only when the options ask for them.",
)
def python_signature_only(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as bare Python signatures.

    One ``def name(arg: T, opt: T | None = None) -> Ret: ...`` line per tool, preceded by the
    one-line functional ``TypedDict`` definitions its objects need. Descriptions and
    constraints are dropped whatever the options say (flagged lossy and compressed); types,
    optionality, defaults, enum values and nesting stay. A tool or argument whose name had to
    change gets a trailing comment with the true names.
    """
    writer, lines = _OneLineWriter(), []
    for tool in prepare(toolset, replace(options, include_descriptions=False)):
        ident = unique_name(python_identifier(tool.name), writer.taken)
        classes: list[str] = []
        args = _py_args(writer, tool.params, ident, classes)
        returns = _py_returns(writer, tool, ident, classes)
        names = _py_names(tool, ident, args).replace("\n", "; ")
        comment = f"  # {_py_comment(names)}" if names else ""
        lines += [*classes, f"def {ident}({', '.join(a.text for a in args)}) -> {returns}: ..."
                  + comment]
    head = [f"from typing import {', '.join(sorted(writer.imports))}", ""] \
        if writer.imports else []
    return "\n".join(head + lines) + "\n"


def _google_sections(tool: ToolIR, ident: str, args: list[_PyArg], returns: str) -> list[str]:
    """The docstring sections python_stub writes: description, names, Args, Returns."""
    entries = [(a.ident, _notes(a.param, [], _py_literal)) for a in args]
    entries = [f"    {ident_}: {note}" for ident_, note in entries if note]
    return [tool.description.strip(), _py_names(tool, ident, args),
            "\n".join(["Args:", *entries]) if entries else "",
            f"Returns:\n    {returns}" if tool.returns is not None else ""]


@register_format(
    name="One Python Protocol class of methods",
    family="code",
    default_protocol="python_call",
    description=("All tools as typed methods of one `class Tools(Protocol)` with Google-style "
                 "docstrings, so the whole toolset sits in a single named scope; objects "
                 "become TypedDicts, enums Literal types."),
    language="python",
    returns="Python source.",
)
def python_protocol(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as one ``typing.Protocol`` class.

    The ``TypedDict`` classes of every tool come first, then ``class Tools(Protocol):`` with
    one method per tool, ``def name(self, arg: T, opt: T | None = None) -> Ret:``, whose
    docstring is the one ``python_stub`` writes (description, name mapping, ``Args:``,
    ``Returns:``). An argument named ``self`` is renamed (and listed). Every block passes
    ``ast.parse``.
    """
    writer = _PythonWriter()
    writer.imports.add("Protocol")
    writer.taken.add("Tools")
    classes: list[str] = []
    methods = []
    for tool in prepare(toolset, options):
        ident = unique_name(python_identifier(tool.name), writer.taken)
        args = _py_args(writer, tool.params, ident, classes, frozenset({"self"}))
        returns = _py_returns(writer, tool, ident, classes)
        body = _py_docstring(_google_sections(tool, ident, args, returns), "        ")
        methods.append(_py_def(ident, ["self", *(a.text for a in args)], returns, "    ")
                       + "\n" + body)
    protocol = "class Tools(Protocol):\n" + ("\n\n".join(methods) if methods else "    ...")
    return _py_module(writer, [*classes, protocol])


class _PydanticWriter(_PythonWriter):
    """python_stub's walker, writing objects as pydantic models."""

    def __init__(self) -> None:
        super().__init__()
        self.taken |= {"BaseModel", "ConfigDict", "Field"}
        self.pydantic = {"BaseModel"}

    def annotation(self, t: TypeIR, owner: list[str], out: list[str]) -> str:
        if t.kind == "enum" and not t.values:  # pydantic has no schema for Never
            self.imports.add("Any")
            return "Any | None" if t.nullable else "Any"
        return super().annotation(t, owner, out)

    def typed_dict(self, t: TypeIR, owner: list[str], out: list[str]) -> str:
        name = unique_name(camel_case(*owner), self.taken)
        out.append(self.model(name, t.fields, owner, out, [], t.additional is False, None))
        return name

    def model(self, name: str, fields: tuple[ParamIR, ...], owner: list[str], out: list[str],
              sections: list[str], forbid: bool, title: str | None) -> str:
        """A ``BaseModel`` subclass (the models it uses are appended to ``out`` first)."""
        idents: set[str] = {"model_config"}
        rows = [self.field(f, owner, out, idents) for f in fields]
        config = [f"title={_py_literal(title)}"] if title is not None else []
        if forbid:
            config.append('extra="forbid"')
        body = [_py_docstring(sections, "    ")] if any(sections) else []
        if config:
            self.pydantic.add("ConfigDict")
            body.append(f"    model_config = ConfigDict({', '.join(config)})")
        return "\n".join([f"class {name}(BaseModel):", *(body + rows or ["    pass"])])

    def field(self, f: ParamIR, owner: list[str], out: list[str], idents: set[str]) -> str:
        ident = python_identifier(f.name)
        if ident.startswith("_"):  # pydantic keeps underscore names as private attributes
            ident = "field" + ident
        ident = unique_name(ident, idents)
        ann = self.annotation(f.type, [*owner, f.name], out)
        args = []
        if not f.required:
            args.append(_py_literal(f.default) if f.has_default else "None")
            if not f.has_default and not (ann.endswith("| None") or ann == "None"):
                ann += " | None"
        keywords = [f"alias={_py_literal(f.name)}"] if ident != f.name else []
        keywords += self.constraints(f.type)
        # constraints of array items and union options have no keyword: they join the prose
        inner = constraint_notes(f.type)[len(self.constraints(f.type, phrases=True)):]
        if f.type.kind == "enum" and not f.type.values:
            inner.append("no value is allowed")
        text = _sentences(one_line(f.description), ", ".join(inner))
        if text:
            keywords.append(f"description={_py_literal(text)}")
        if not keywords:
            return f"    {ident}: {ann}" + (f" = {args[0]}" if args else "")
        self.pydantic.add("Field")
        return f"    {ident}: {ann} = Field({', '.join(args + keywords)})"

    @staticmethod
    def constraints(t: TypeIR, phrases: bool = False) -> list[Any]:
        """``Field`` keywords for the constraints of ``t`` itself (or, with ``phrases``, one
        placeholder per constraint that :func:`constraint_notes` words at its start)."""
        pairs = [("minimum", "ge"), ("exclusive_minimum", "gt"), ("maximum", "le"),
                 ("exclusive_maximum", "lt"), ("min_length", "min_length"),
                 ("max_length", "max_length"), ("min_items", "min_length"),
                 ("max_items", "max_length"), ("pattern", "pattern")]
        out: list[Any] = [f"{key}={_py_literal(getattr(t, attr))}" for attr, key in pairs
                          if getattr(t, attr) is not None]
        if t.format is not None:
            out.append(f"json_schema_extra={{{_py_literal('format')}: {_py_literal(t.format)}}}")
        if phrases and t.kind == "object" and t.additional is False:
            out.append("no other keys")
        return out


@register_format(
    name="Pydantic v2 models, one per tool",
    family="code",
    default_protocol="json_object",
    description=("One pydantic v2 `BaseModel` per tool, titled with the tool's name, whose "
                 "fields carry `Field(...)` descriptions, aliases and validation constraints; "
                 "nested objects become their own models, enums Literal types."),
    language="python",
    returns="Python source.",
)
def python_pydantic(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as pydantic v2 models.

    Per tool: the models of its objects, then ``class ToolName(BaseModel)`` with the
    description (and ``Returns:``) as docstring, ``model_config = ConfigDict(title="name")``
    and one field per parameter in declaration order: ``city: str``, or ``limit: int =
    Field(10, ge=1, le=100, description="...")``, optional fields defaulting to ``None``.
    Constraints map to ``ge``/``gt``/``le``/``lt``/``min_length``/``max_length``/``pattern``
    (``format`` to ``json_schema_extra``), objects without extra keys to ``extra="forbid"``;
    a name that is not an attribute name gets ``alias="true-name"``. The module imports and
    its models build under pydantic 2.
    """
    writer, blocks = _PydanticWriter(), []
    for tool in prepare(toolset, options):
        name = unique_name(camel_case(python_identifier(tool.name)), writer.taken)
        models: list[str] = []
        returns = ([f"Returns:\n    {writer.annotation(tool.returns, [name, 'result'], models)}"]
                   if tool.returns is not None else [])
        sections = [tool.description.strip(), *returns]
        models.append(writer.model(name, tool.params, [name], models, sections, False,
                                   tool.name))
        blocks.append("\n\n\n".join(models))
    head = [f"from pydantic import {', '.join(sorted(writer.pydantic))}"]
    return _py_module(writer, blocks, head)


class _DataclassWriter(_PythonWriter):
    """python_stub's walker, writing objects as dataclasses."""

    def __init__(self) -> None:
        super().__init__()
        self.taken |= {"dataclass", "field"}
        self.dataclasses = {"dataclass"}

    def typed_dict(self, t: TypeIR, owner: list[str], out: list[str]) -> str:
        name = unique_name(camel_case(*owner), self.taken)
        out.append(self.dataclass(name, t.fields, owner, out, []))
        return name

    def dataclass(self, name: str, fields: tuple[ParamIR, ...], owner: list[str],
                  out: list[str], sections: list[str]) -> str:
        """A ``@dataclass`` (the classes it uses are appended to ``out`` first)."""
        idents: set[str] = {"field"}  # a field called ``field`` would hide the function
        ordered = sorted(fields, key=lambda f: not f.required)  # defaults must come last
        rows = [self.field(f, owner, out, idents) for f in ordered]
        body = [_py_docstring(sections, "    ")] if any(sections) else []
        return "\n".join(["@dataclass", f"class {name}:", *(body + rows or ["    pass"])])

    def field(self, f: ParamIR, owner: list[str], out: list[str], idents: set[str]) -> str:
        ident = unique_name(python_identifier(f.name), idents)
        ann = self.annotation(f.type, [*owner, f.name], out)
        parts = []
        if not f.required and f.has_default and isinstance(f.default, (list, dict)):
            parts.append(f"default_factory=lambda: {_py_literal(f.default)}")
        elif not f.required:
            parts.append(f"default={_py_literal(f.default) if f.has_default else 'None'}")
            if not f.has_default and not (ann.endswith("| None") or ann == "None"):
                ann += " | None"
        if ident != f.name:
            parts.append(f"metadata={{{_py_literal('name')}: {_py_literal(f.name)}}}")
        if len(parts) == 1 and parts[0].startswith("default="):
            value = parts[0].removeprefix("default=")
        elif parts:
            self.dataclasses.add("field")
            value = f"field({', '.join(parts)})"
        else:
            value = ""
        note = _notes(f, [], _py_literal)
        return (f"    {ident}: {ann}" + (f" = {value}" if value else "")
                + (f"  # {_py_comment(note)}" if note else ""))


@register_format(
    name="Dataclass argument bundles",
    family="code",
    default_protocol="json_object",
    description=("Each tool as a `@dataclass` bundling its arguments (notes as comments, "
                 "true names in field metadata) plus a typed function taking that bundle; "
                 "nested objects become dataclasses, enums Literal types."),
    language="python",
    returns="Python source.",
)
def python_dataclass(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as dataclasses and functions (standard library only).

    Per tool: the dataclasses of its objects, ``@dataclass class ToolNameArgs`` with one
    field per parameter (required ones first, as dataclasses demand; optional ones with
    their default, ``None`` or a ``default_factory``; notes as trailing comments; a name
    that is not an identifier kept in ``field(metadata={"name": "true-name"})``), then
    ``def tool_name(args: ToolNameArgs) -> Ret:`` with the description, the tool name when it
    had to change, and ``Returns:`` in its docstring. The module imports and its dataclasses
    build.
    """
    writer, blocks = _DataclassWriter(), []
    for tool in prepare(toolset, options):
        ident = unique_name(python_identifier(tool.name), writer.taken)
        classes: list[str] = []
        params = []
        if tool.params:
            args_name = unique_name(camel_case(ident, "args"), writer.taken)
            classes.append(writer.dataclass(args_name, tool.params, [ident], classes, []))
            params.append(f"args: {args_name}")
        returns = _py_returns(writer, tool, ident, classes)
        sections = [tool.description.strip(),
                    f"Tool name: {tool.name}" if ident != tool.name else "",
                    f"Returns:\n    {returns}" if tool.returns is not None else ""]
        blocks.append("\n\n\n".join([*classes, _py_def(ident, params, returns) + "\n"
                                     + _py_docstring(sections, "    ")]))
    head = [f"from dataclasses import {', '.join(sorted(writer.dataclasses))}"]
    return _py_module(writer, blocks, head)


def _help(text: str) -> str:
    """argparse help text: ``%`` doubled, since argparse %-formats every help string."""
    return _flat(text).replace("%", "%%")


def _argparse_kind(t: TypeIR) -> tuple[list[str], str]:
    """``add_argument`` keywords for a type, and a note for what they cannot say."""
    scalar = {"integer": "int", "number": "float"}
    if t.kind in scalar:
        return [f"type={scalar[t.kind]}"], ""
    if t.kind == "string":
        return [], ""
    if t.kind == "boolean":
        return ["action=argparse.BooleanOptionalAction"], ""
    if t.kind == "enum" and t.values:
        base = t.enum_base()
        kind = [f"type={scalar[base]}"] if base in scalar and all(
            not isinstance(v, bool) for v in t.values) else []
        if base == "boolean" or not all(isinstance(v, (str, int, float)) for v in t.values):
            kind = ["type=json.loads"]
        return kind + [f"choices=[{', '.join(_py_literal(v) for v in t.values)}]"], ""
    if t.kind == "array" and t.items is not None and t.items.kind in ("string", "integer",
                                                                        "number", "enum"):
        inner, note = _argparse_kind(t.items)
        return [*inner, f'nargs={_py_literal("+" if (t.min_items or 0) >= 1 else "*")}'], note
    if t.kind == "union":
        return [], f"one of {_shape(replace(t, nullable=False))}"
    fields = "; ".join(f"{path}: {_flat(text)}" for path, text in _field_notes(t, ""))
    return ["type=json.loads"], f"JSON {_shape(t)}" + (f". Fields: {fields}" if fields else "")


def _field_notes(t: TypeIR, prefix: str) -> list[tuple[str, str]]:
    """``(dotted.path, description)`` of every described field inside a JSON value's type, so
    the help keeps the prose that a flat ``--flag`` cannot carry."""
    if t.kind == "array" and t.items is not None:
        return _field_notes(t.items, f"{prefix}[]")
    if t.kind == "union":
        return [note for o in t.options for note in _field_notes(o, prefix)]
    notes = []
    for f in t.fields if t.kind == "object" else ():
        path = f"{prefix}.{f.name}" if prefix else f.name
        if f.description:
            notes.append((path, f.description.rstrip(". ")))
        notes.extend(_field_notes(f.type, path))
    return notes


@register_format(
    name="argparse subcommand definitions",
    family="code",
    default_protocol="cli_call",
    description=("Each tool as the argparse code that defines it as a subcommand: one "
                 "`add_argument` per parameter with its type, choices, nargs, default, "
                 "required flag and help; objects and arrays of objects are JSON values "
                 "whose shape the help states."),
    language="python",
    novel=True,
    returns="Python source.",
)
def python_argparse(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as the argparse code of a command line with one subcommand per tool.

    ``parser = argparse.ArgumentParser(prog="tools")`` and ``tools =
    parser.add_subparsers(dest="tool", required=True)``, then per tool ``cmd =
    tools.add_parser("true-name", help=...)`` and one ``cmd.add_argument("--true-name", ...)``
    per parameter: ``type=int``/``float``, ``choices=[...]`` for enums, ``nargs`` for arrays
    of scalars, ``action=argparse.BooleanOptionalAction`` for booleans, ``type=json.loads``
    (shape in the help) for objects and other JSON values, ``required=True``, ``default=``,
    ``dest="true-name"`` when argparse would derive another name, and the notes as ``help``
    (``%`` doubled). The return type is the subcommand's ``epilog``. The module imports and
    its parser builds.
    """
    blocks = ['parser = argparse.ArgumentParser(prog="tools")\n'
              'tools = parser.add_subparsers(dest="tool", required=True)']
    for tool in prepare(toolset, options):
        head = [_py_literal(tool.name)]
        if tool.description:
            head.append(f"help={_py_literal(_help(tool.description))}")
        if tool.returns is not None:
            epilog = f"Returns {_shape(tool.returns)}."
            epilog = epilog.replace("%", "%%") if "%(prog)" in epilog else epilog
            head.append(f"epilog={_py_literal(epilog)}")
        if any(p.name in ("h", "help") for p in tool.params):
            head.append('conflict_handler="resolve"')  # the parameter wins over --help
        lines = [f"cmd = tools.add_parser({', '.join(head)})"]
        for p in tool.params:
            kind, extra = _argparse_kind(p.type)
            keywords = [*kind]
            if p.name.replace("-", "_") != p.name or p.name.startswith("-"):
                keywords.append(f"dest={_py_literal(p.name)}")
            if p.required:
                keywords.append("required=True")
            if p.has_default:
                keywords.append(f"default={_py_literal(p.default)}")
            note = _notes(p, [extra] if extra else [], _py_literal)
            if p.type.nullable and p.type.kind != "null":
                note = _sentences(note, "May be null")
            if note:
                keywords.append(f"help={_py_literal(_help(note))}")
            lines.append(f"cmd.add_argument({', '.join([_py_literal('--' + p.name), *keywords])})")
        blocks.append("\n".join(lines))
    return "\n\n".join(["import argparse\nimport json", *blocks]) + "\n"


# -- TypeScript shapes ---------------------------------------------------------------------------

def _ts_doc(tool: ToolIR, ident: str, returns: str | None = None) -> list[str]:
    doc = _lines(tool.description)
    if ident != tool.name:
        doc += ([""] if doc else []) + [f"Tool name: {_flat(tool.name)}"]
    if returns is not None and tool.returns is not None:
        doc += ([""] if doc else []) + [f"@returns {returns}"]
    return doc


@register_format(
    name="TypeScript ambient namespace",
    family="code",
    default_protocol="json_object",
    description=("All tools inside one `declare namespace tools { ... }` block, as functions "
                 "taking one params object whose properties carry JSDoc lines; nested objects "
                 "become interfaces in the namespace, enums unions of literals."),
    language="typescript",
    returns="TypeScript source.",
)
def typescript_dts(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as one ambient TypeScript namespace.

    ``declare namespace tools { ... }`` holds, per tool, the interfaces of its objects and
    ``function name(params: { city: string; limit?: number }): Ret;`` under a JSDoc block
    (description, ``Tool name:`` when the name had to change, ``@returns``); each property
    of the params object has its own JSDoc line (notes, constraints, defaults, ``integer``).
    Types follow ``typescript``: enums are unions of literal types, free objects
    ``Record<string, any>``, an unknown return ``unknown``, keys that are not identifiers are
    quoted.
    """
    writer, chunks = _TypeScriptWriter(), []
    for tool in prepare(toolset, options):
        ident = unique_name(typescript_identifier(tool.name), writer.taken)
        interfaces: list[str] = []
        members = writer.members(tool.params, [ident], interfaces, comments=True)
        returns = (writer.type(tool.returns, [ident, "result"], interfaces)
                   if tool.returns is not None else "unknown")
        doc = _ts_doc(tool, ident, returns)
        params = "\n".join(["params: {", *members, "}"]) if tool.params else ""
        function = f"function {ident}({params}): {returns};"
        chunks += [*interfaces, (_jsdoc(doc) + "\n" if doc else "") + function]
    body = _indent("\n\n".join(chunks), "  ")
    return "declare namespace tools {\n" + (body + "\n" if chunks else "") + "}\n"


@register_format(
    name="TypeScript args-interface declarations",
    family="code",
    default_protocol="json_object",
    description=("Every tool takes one typed args object declared as its own interface "
                 "(`interface GetWeatherArgs`), with a JSDoc line per property, so the "
                 "signature has the shape of the JSON call."),
    language="typescript",
    returns="TypeScript source.",
)
def typescript_interface_arg(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as argument interfaces plus one-argument declarations.

    Per tool: the interfaces of its nested objects, ``interface ToolNameArgs { ... }`` with
    a JSDoc line per property (notes, constraints, defaults, ``integer``), and ``declare
    function name(args: ToolNameArgs): Ret;`` under a JSDoc block (description, ``Tool
    name:`` when the name had to change, ``@returns``). A tool without parameters is
    declared ``name(): Ret``. Types follow ``typescript``.
    """
    writer, chunks = _TypeScriptWriter(), []
    for tool in prepare(toolset, options):
        ident = unique_name(typescript_identifier(tool.name), writer.taken)
        interfaces: list[str] = []
        params = ""
        if tool.params:
            members = writer.members(tool.params, [ident], interfaces, comments=True)
            args_name = unique_name(camel_case(ident, "args"), writer.taken)
            interfaces.append("\n".join([f"interface {args_name} {{", *members, "}"]))
            params = f"args: {args_name}"
        returns = (writer.type(tool.returns, [ident, "result"], interfaces)
                   if tool.returns is not None else "unknown")
        doc = _ts_doc(tool, ident, returns)
        chunks += [*interfaces, (_jsdoc(doc) + "\n" if doc else "")
                   + f"declare function {ident}({params}): {returns};"]
    return "\n\n".join(chunks) + "\n"


class _InlineTypeScriptWriter(_TypeScriptWriter):
    """typescript's walker, writing objects inline (``{ a: string; b?: number }``)."""

    def interface(self, t: TypeIR, owner: list[str], out: list[str]) -> str:
        return self.inline(t.fields, owner, out)

    def inline(self, fields: tuple[ParamIR, ...], owner: list[str], out: list[str]) -> str:
        members = [f"{_ts_key(f.name)}{'' if f.required else '?'}: "
                   f"{self.type(f.type, [*owner, f.name], out)}" for f in fields]
        return "{ " + "; ".join(members) + " }" if members else "{}"


@register_format(
    name="One-line TypeScript declarations",
    family="code",
    default_protocol="json_object",
    description=("One `declare function` line per tool with every type written inline and "
                 "no comments or interfaces: the cheapest TypeScript that still carries full "
                 "types, optionality, enums and nesting."),
    language="typescript",
    lossy=True,
    compressed=True,
    returns="TypeScript source.",
    options_doc="Return types are shown only when the options ask for them.",
)
def typescript_compact(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as one TypeScript declaration line per tool.

    ``declare function name(params: { city: string; unit?: "c" | "f"; where: { lat:
    number; lon: number } }): Ret;``: nested objects inline, enums unions of literals,
    optional properties ``?``. Descriptions, constraints and defaults are dropped whatever
    the options say (flagged lossy and compressed). A tool whose name had to change gets a
    trailing ``// true-name`` comment.
    """
    writer, lines = _InlineTypeScriptWriter(), []
    for tool in prepare(toolset, replace(options, include_descriptions=False)):
        ident = unique_name(typescript_identifier(tool.name), writer.taken)
        unused: list[str] = []  # this writer declares no interfaces
        params = f"params: {writer.inline(tool.params, [ident], unused)}" if tool.params else ""
        returns = (writer.type(tool.returns, [ident, "result"], unused)
                   if tool.returns is not None else "unknown")
        comment = f" // {_flat(tool.name)}" if ident != tool.name else ""
        lines.append(f"declare function {ident}({params}): {returns};{comment}")
    return "\n".join(lines) + "\n"
