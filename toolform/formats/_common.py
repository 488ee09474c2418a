"""Helpers shared by the format renderers: preparation, depth guard, names, escaping, wording.

Every renderer starts with :func:`prepare`, which checks nesting (raising ``RenderError`` before
any recursive writer runs) and applies the options once: with ``include_descriptions=False`` the
tools come back with every description and title emptied, with ``include_returns=False`` with no
return type. A renderer then shows whatever the prepared IR holds, so the options are honoured
in one place.
"""

from __future__ import annotations

import json
import keyword
import re
import unicodedata
from dataclasses import replace
from typing import Any, Iterable, Iterator

from ..errors import RenderError
from ..ir import ParamIR, ToolIR, Toolset, TypeIR, unrolled
from ._registry import RenderOptions

#: Composite levels (objects, arrays, unions) a type may nest whatever ``max_depth`` says. At
#: this ceiling the deepest writer (PyYAML's, for the YAML format) needs about 420 stack frames,
#: well inside Python's default recursion limit of 1000.
MAX_LEVELS = 64

#: Python spellings of the scalar kinds.
PYTHON_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool",
                  "null": "None", "any": "Any"}

#: TypeScript spellings of the scalar kinds (TypeScript has no integer type; ``integer`` is
#: said in the prose beside it).
TYPESCRIPT_SCALARS = {"string": "string", "integer": "number", "number": "number",
                      "boolean": "boolean", "null": "null", "any": "any"}

#: Words TypeScript reserves as identifiers (ECMAScript reserved words, strict-mode words and
#: TypeScript's own); a function with such a name gets a trailing underscore.
TYPESCRIPT_RESERVED = frozenset("""
    break case catch class const continue debugger default delete do else enum export extends
    false finally for function if import in instanceof new null return super switch this throw
    true try typeof var void while with implements interface let package private protected
    public static yield any boolean number string symbol type declare await async of
    arguments eval""".split())

# Characters XML 1.0 forbids anywhere in a document.
_XML_ILLEGAL = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


# -- preparation and the depth guard -------------------------------------------------------------

def check_depth(tools: Iterable[ToolIR], options: RenderOptions) -> None:
    """Raise ``RenderError`` when a tool nests objects past ``options.max_depth``.

    Object depth is counted as :meth:`ToolIR.depth` counts it (an object of scalars is 1). Any
    type nesting more than :data:`MAX_LEVELS` composite levels (objects, arrays and unions
    together) is refused too. The walk is iterative, so even a schema thousands of levels deep
    is refused without touching the recursion limit.

    Parameters
    ----------
    tools : iterable of ToolIR
        The tools about to be rendered (a :class:`Toolset` will do).
    options : RenderOptions
        ``max_depth`` is the object-depth cap.

    Raises
    ------
    RenderError
        Naming the tool, the JSON path of the first level past the cap, and the cap.
    """
    for tool in tools:
        roots: list[tuple[TypeIR, str]] = [(p.type, f"$.{p.name}") for p in tool.params]
        if tool.returns is not None:
            roots.append((tool.returns, "$(returns)"))
        stack = [(t, path, 0, 0) for t, path in reversed(roots)]
        while stack:
            t, path, objects, levels = stack.pop()
            if t.kind in ("object", "array", "union"):
                levels += 1
                if levels > MAX_LEVELS:
                    raise RenderError(f"tool {tool.name!r}: the type at {path} nests more than "
                                      f"{MAX_LEVELS} levels of objects, arrays and unions")
            if t.kind == "object":
                objects += 1
                if objects > options.max_depth:
                    raise RenderError(f"tool {tool.name!r}: the object at {path} is nested "
                                      f"{objects} deep, past max_depth={options.max_depth}")
                stack.extend((p.type, f"{path}.{p.name}", objects, levels)
                             for p in reversed(t.fields))
                if t.value_type is not None:
                    stack.append((t.value_type, f"{path}.*", objects, levels))
                stack.extend((v, f"{path}[/{pattern}/]", objects, levels)
                             for pattern, v in t.pattern_types)
            elif t.kind == "array" and t.items is not None:
                stack.append((t.items, f"{path}[]", objects, levels))
            elif t.kind == "union":
                stack.extend((o, f"{path}.anyOf[{i}]", objects, levels)
                             for i, o in reversed(list(enumerate(t.options))))


def _strip_type(t: TypeIR) -> TypeIR:
    t = t.map_children(_strip_type)
    if t.fields:
        t = replace(t, fields=tuple(replace(f, description="", title="") for f in t.fields))
    return t


def _strip_param(p: ParamIR) -> ParamIR:
    return replace(p, description="", title="", type=_strip_type(p.type))


def key_label(t: TypeIR, other: bool = False) -> str:
    """The stand-in field name for the keys of a map: ``<key>``, ``<other key>`` (beside
    declared fields) or ``<key matching the pattern ^x_>``, ``<key: "a"|"b">`` for a typed key
    (``t`` is the map's ``key_type``, or None)."""
    word = "other key" if other else "key"
    if t is None:
        return f"<{word}>"
    if t.kind == "enum":
        return f"<{word}: {'|'.join(json_text(v) for v in t.values)}>"
    phrases = constraint_phrases(t)
    return f"<{word} {', '.join(phrases)}>" if phrases else f"<{word}>"


def _stand_in_keys(t: TypeIR) -> TypeIR:
    """``t`` with every map written as an object whose extra fields stand for its keys."""
    t = t.map_children(_stand_in_keys)
    if not t.is_map:
        return t
    extra = [ParamIR(key_label(TypeIR("string", pattern=pattern)), value, required=False)
             for pattern, value in t.pattern_types]
    if t.value_type is not None or t.key_type is not None:
        extra.append(ParamIR(key_label(t.key_type, other=bool(t.fields or t.pattern_types)),
                             t.value_type or TypeIR("any"), required=False))
    return replace(t, fields=t.fields + tuple(extra), value_type=None, key_type=None,
                   pattern_types=(), additional=False if t.additional is False else None)


def _free_keys(t: TypeIR) -> TypeIR:
    """``t`` with every map written as a free-form object (keys and values of any type)."""
    t = t.map_children(_free_keys)
    if not t.is_map:
        return t
    return replace(t, value_type=None, key_type=None, pattern_types=(), additional=True)


def plain_type(t: TypeIR, recursion_depth: int = 2, stand_in_keys: bool = True) -> TypeIR:
    """``t`` in the kinds every format can write: each recursive type unrolled to
    ``recursion_depth`` levels (its innermost references become ``any``, see
    :func:`toolform.ir.unrolled`), each map an object with one stand-in field per kind of key
    (``<key>``, ``<key matching the pattern P>``, :func:`key_label`) whose type is the values'
    type; with ``stand_in_keys=False`` (for grammars, which must not force a literal
    ``<key>``) a free-form object instead. A type with neither is returned as is."""
    if not any(node.name or node.kind == "ref" or node.is_map for node in t.walk()):
        return t
    flat = unrolled(t, recursion_depth)
    return _stand_in_keys(flat) if stand_in_keys else _free_keys(flat)


def plain_toolset(toolset: Toolset, recursion_depth: int = 2,
                  stand_in_keys: bool = True) -> Toolset:
    """``toolset`` with :func:`plain_type` applied to every parameter and return type: what
    a format without ``named_types`` shows."""
    return replace(toolset, tools=tuple(_plain_tool(t, recursion_depth, stand_in_keys)
                                        for t in toolset))


def _plain_tool(tool: ToolIR, recursion_depth: int, stand_in_keys: bool = True) -> ToolIR:
    """``tool`` with :func:`plain_type` applied throughout (``tool`` itself if that changes
    nothing)."""
    params = tuple(p if (t := plain_type(p.type, recursion_depth, stand_in_keys)) is p.type
                   else replace(p, type=t) for p in tool.params)
    returns = None if tool.returns is None else plain_type(tool.returns, recursion_depth,
                                                           stand_in_keys)
    if returns is tool.returns and all(a is b for a, b in zip(params, tool.params)):
        return tool
    return replace(tool, params=params, returns=returns)


def prepare(toolset: Toolset, options: RenderOptions, *, named_types: bool = False,
            stand_in_keys: bool = True) -> list[ToolIR]:
    """The tools to render, with the options applied and the depth checked.

    Parameters
    ----------
    toolset : Toolset
        The tools to render.
    options : RenderOptions
        ``include_descriptions=False`` empties every tool and parameter description and title;
        ``include_returns=False`` drops every return type; ``recursion_depth`` is how far a
        recursive type is unrolled.
    named_types : bool, default False
        True for a format that writes each recursive type once under its name and every map
        in its own syntax (the JSON Schema formats, through ``$defs``/``$ref`` and
        ``additionalProperties``/``patternProperties``); False gives every other format tools
        in the plain kinds of :func:`plain_type`.
    stand_in_keys : bool, default True
        With ``named_types=False``: maps as objects with stand-in keys (True) or as free-form
        objects (False, for the grammars).

    Returns
    -------
    list of ToolIR
        In the toolset's order.

    Raises
    ------
    RenderError
        From :func:`check_depth` (run on the tools as given and again as unrolled).
    """
    tools = list(toolset)
    if not options.include_returns:
        tools = [replace(t, returns=None) for t in tools]
    check_depth(tools, options)  # before the recursive rewriting below
    if not named_types:
        plain = [_plain_tool(t, options.recursion_depth, stand_in_keys) for t in tools]
        if any(a is not b for a, b in zip(plain, tools)):
            check_depth(plain, options)
        tools = plain
    if not options.include_descriptions:
        tools = [replace(t, description="", title="",
                         params=tuple(_strip_param(p) for p in t.params),
                         returns=_strip_type(t.returns) if t.returns is not None else None)
                 for t in tools]
    return tools


# -- values and type labels ----------------------------------------------------------------------

def json_text(value: Any) -> str:
    """A JSON value as compact JSON text, non-ASCII kept as is (``"c"``, ``10``, ``[1, 2]``)."""
    return json.dumps(value, ensure_ascii=False)


def value_list(values: Iterable[Any]) -> str:
    """Values as JSON text joined by commas (``"c", "f"``)."""
    return ", ".join(json_text(v) for v in values)


def type_label(t: TypeIR) -> str:
    """A short JSON-Schema-style label: ``string``, ``integer``, ``array``, ``string | null``.

    An enum is labelled by its values' kind, a union by its options joined with ``|``.
    """
    if t.kind == "enum":
        label = t.enum_base()
    elif t.kind == "union":
        label = " | ".join(type_label(o) for o in t.options) or "any"
    else:
        label = t.kind
    return f"{label} | null" if t.nullable else label


def constraint_phrases(t: TypeIR) -> list[str]:
    """The constraints of ``t`` as short English phrases, in a fixed order.

    Examples: ``at least 1``, ``less than 10``, ``at most 20 characters``, ``at least 1 item``,
    ``matching the pattern ^a+$``, ``in date-time format``, ``no other keys``.
    """
    out = []
    for attr, word, unit in (("minimum", "at least", ""), ("exclusive_minimum", "greater than", ""),
                             ("maximum", "at most", ""), ("exclusive_maximum", "less than", ""),
                             ("min_length", "at least", "character"),
                             ("max_length", "at most", "character"),
                             ("min_items", "at least", "item"), ("max_items", "at most", "item")):
        value = getattr(t, attr)
        if value is None:
            continue
        noun = f" {unit}{'' if value == 1 else 's'}" if unit else ""
        out.append(f"{word} {json_text(value)}{noun}")
    if t.pattern is not None:
        out.append(f"matching the pattern {t.pattern}")
    if t.format is not None:
        out.append(f"in {t.format} format")
    if t.kind == "object" and t.additional is False:
        out.append("no other keys")
    return out


# -- text ----------------------------------------------------------------------------------------

def one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines included) made one space, trimmed."""
    return " ".join(text.split())


def sentence(text: str) -> str:
    """``text`` on one line, ending with a full stop unless it already ends a sentence."""
    text = one_line(text)
    if text and text[-1] not in ".!?:;":
        text += "."
    return text


def xml_safe(text: str) -> str:
    """``text`` with characters XML 1.0 forbids (most C0 controls, lone surrogates) made U+FFFD."""
    return _XML_ILLEGAL.sub("\ufffd", text)


def markdown_cell(text: str) -> str:
    """``text`` fit for one GFM table cell: on one line, pipes escaped as ``\\|``.

    A backslash standing right before a pipe is escaped too, so that the pipe stays escaped
    whichever way a reader counts backslashes.
    """
    return one_line(text).replace("\\|", "\\\\|").replace("|", "\\|")


# -- names ---------------------------------------------------------------------------------------

def python_identifier(name: str) -> str:
    """A valid Python identifier for ``name``: itself when it already is one.

    Otherwise characters that cannot be in an identifier become ``_``, a leading digit gets a
    ``_`` before it, and a keyword gets a ``_`` after it (``math.factorial`` → ``math_factorial``,
    ``class`` → ``class_``). Soft keywords such as ``type`` and ``match`` are valid and kept.
    """
    if name.isidentifier() and not keyword.iskeyword(name):
        return name
    out = "".join(ch if ("a" + ch).isidentifier() else "_" for ch in name) or "_"
    if not out.isidentifier():
        out = "_" + out
    if keyword.iskeyword(out):
        out += "_"
    return out


def typescript_identifier(name: str) -> str:
    """A valid TypeScript binding name for ``name``: itself when it already is one.

    The same rewriting as :func:`python_identifier`, with ``$`` allowed and TypeScript's
    reserved words (:data:`TYPESCRIPT_RESERVED`) suffixed with ``_``.
    """
    if is_typescript_name(name) and name not in TYPESCRIPT_RESERVED:
        return name
    out = "".join(ch if is_typescript_name("a" + ch) else "_" for ch in name) or "_"
    if not is_typescript_name(out):
        out = "_" + out
    if out in TYPESCRIPT_RESERVED:
        out += "_"
    return out


def is_typescript_name(name: str) -> bool:
    """True when ``name`` can stand unquoted as a TypeScript property name or identifier."""
    return name.replace("$", "_").isidentifier()


def unique_name(name: str, taken: set[str]) -> str:
    """``name``, else ``name_2``, ``name_3``... the first not in ``taken``; added to ``taken``."""
    out, n = name, 1
    while out in taken:
        n += 1
        out = f"{name}_{n}"
    taken.add(out)
    return out


def camel_case(*parts: str) -> str:
    """Parts joined in CamelCase, word characters only (``camel_case("search", "filter")`` →
    ``SearchFilter``); ``Type`` when nothing usable is left."""
    words = [w for part in parts for w in re.split(r"[\W_]+", part) if w]
    out = "".join(w[0].upper() + w[1:] for w in words)
    if not out or not out.isidentifier() or keyword.iskeyword(out):
        out = "Type" + out
    return out


# -- JSON Schema entries (shared by the JSON and YAML formats) -----------------------------------

def function_entry(tool: ToolIR) -> dict[str, Any]:
    """One tool as an OpenAI-style function object: name, description, parameters, returns.

    ``description`` is left out when empty; ``returns`` (the return type as JSON Schema, not part
    of OpenAI's shape) is added when the tool has one.
    """
    entry: dict[str, Any] = {"name": tool.name}
    if tool.description:
        entry["description"] = tool.description
    entry["parameters"] = tool.input_schema()
    if tool.returns is not None:
        entry["returns"] = tool.returns.to_json_schema()
    return entry


def constraint_notes(t: TypeIR) -> list[str]:
    """:func:`constraint_phrases` of ``t`` plus those of its scalar items and union options.

    For a language whose type syntax cannot carry constraints (Python, TypeScript): ``at least
    1 item``, ``each item at most 20 characters``, ``as integer: at least 0``. Object fields
    are left to the fields' own notes.
    """
    out = constraint_phrases(t)
    if t.kind == "array" and t.items is not None and t.items.kind != "object":
        inner = constraint_notes(t.items)
        if inner:
            out.append("each item " + ", ".join(inner))
    if t.kind == "union":
        for option in t.options:
            inner = constraint_notes(option) if option.kind != "object" else []
            if inner:
                out.append(f"as {type_label(option)}: " + ", ".join(inner))
    return out


# -- the compact notation (prose, novel and vendor formats) --------------------------------------

#: IR constraint attribute -> the JSON Schema keyword the compact notation spells it with.
SCHEMA_KEYWORDS = (("minimum", "minimum"), ("exclusive_minimum", "exclusiveMinimum"),
                   ("maximum", "maximum"), ("exclusive_maximum", "exclusiveMaximum"),
                   ("min_length", "minLength"), ("max_length", "maxLength"),
                   ("min_items", "minItems"), ("max_items", "maxItems"),
                   ("pattern", "pattern"), ("format", "format"))


class CompactNotation:
    """The one-line type notation several formats share.

    Spellings (each piece is a method, so that a format can respell it):

    - a scalar kind as itself: ``string``, ``integer``, ``number``, ``boolean``, ``null``,
      ``any``; a free-form object ``object``;
    - an enum as its JSON values joined by ``|``: ``"c"|"f"`` (``never`` for no values);
    - an array ``list[T]`` (``list[any]`` for unknown items);
    - an object with fields ``{name: T, opt?: T = default}``; ``?`` marks an optional key and
      ``= value`` a default, in JSON;
    - a union ``A | B``; a nullable type ``T | null``;
    - constraints after the type, with JSON Schema's keywords and JSON values:
      ``integer(minimum=1, maximum=100)``, ``string(pattern="^a+$")``,
      ``{k: string}(additionalProperties=false)``.

    Names are written verbatim, whatever characters they hold.
    """

    optional_mark = "?"

    def kind(self, kind: str) -> str:
        """A scalar kind, or ``object`` for a free-form object."""
        return kind

    def enum(self, values: tuple[Any, ...]) -> str:
        """The allowed values of an enum."""
        return "|".join(json_text(v) for v in values) or "never"

    def array(self, items: str) -> str:
        """An array of ``items``."""
        return f"list[{items}]"

    def record(self, fields: list[str]) -> str:
        """An object with the given (already written) fields."""
        return "{" + ", ".join(fields) + "}"

    def union(self, options: list[str]) -> str:
        """One of the given (already written) options."""
        return " | ".join(options) or self.kind("any")

    def nullable(self, text: str) -> str:
        """``text`` that may also be null."""
        return f"{text} | null"

    def constrained(self, text: str, pairs: list[tuple[str, Any]]) -> str:
        """``text`` with constraints (JSON Schema keyword, value) after it."""
        return f"{text}({', '.join(f'{k}={json_text(v)}' for k, v in pairs)})"

    def type(self, t: TypeIR) -> str:
        """``t`` in the notation, nested types inline."""
        if t.kind == "enum":
            text = self.enum(t.values)
        elif t.kind == "array":
            text = self.array(self.type(t.items) if t.items is not None else self.kind("any"))
        elif t.kind == "object" and t.fields:
            text = self.record([self.field(f) for f in t.fields])
        elif t.kind == "union":
            text = self.union([self.type(o) for o in t.options])
        else:
            text = self.kind(t.kind)
        pairs = [(key, getattr(t, attr)) for attr, key in SCHEMA_KEYWORDS
                 if getattr(t, attr) is not None]
        if t.kind == "object" and t.additional is not None:
            pairs.append(("additionalProperties", t.additional))
        if pairs:
            text = self.constrained(text, pairs)
        return self.nullable(text) if t.nullable and t.kind != "null" else text

    def field(self, p: ParamIR) -> str:
        """A parameter or field: ``name: T``, ``name?: T``, ``name?: T = default``."""
        text = f"{p.name}{'' if p.required else self.optional_mark}: {self.type(p.type)}"
        return f"{text} = {json_text(p.default)}" if p.has_default else text

    def signature(self, tool: ToolIR) -> str:
        """``name(a: T, b?: T = d) -> R`` (``-> R`` only when the return type is known)."""
        text = f"{tool.name}({', '.join(self.field(p) for p in tool.params)})"
        return f"{text} -> {self.type(tool.returns)}" if tool.returns is not None else text


#: The plain compact notation.
COMPACT = CompactNotation()


def walk_fields(t: TypeIR, path: str, depth: int = 1) -> Iterator[tuple[str, ParamIR, int]]:
    """``(path, field, depth)`` for every field nested in ``t``, depth first.

    Paths extend ``path`` with ``.name`` for a field, ``[]`` for the items of an array and
    ``#2`` for the second option of a union: ``lines[].sku``, ``where.area.centre#2.lat``.
    ``depth`` counts objects from ``t``'s fields (given as ``depth``) down.
    """
    if t.kind == "object":
        for f in t.fields:
            inner = f"{path}.{f.name}"
            yield inner, f, depth
            yield from walk_fields(f.type, inner, depth + 1)
    elif t.kind == "array" and t.items is not None:
        yield from walk_fields(t.items, f"{path}[]", depth)
    elif t.kind == "union":
        for i, o in enumerate(t.options, 1):
            yield from walk_fields(o, f"{path}#{i}", depth)


def walk_params(params: Iterable[ParamIR]) -> Iterator[tuple[str, ParamIR, int]]:
    """``(path, parameter, depth)`` for every parameter (depth 0, its name as path) and every
    field nested in one (paths and depths as in :func:`walk_fields`), depth first."""
    for p in params:
        yield p.name, p, 0
        yield from walk_fields(p.type, p.name)


def nested_docs(t: TypeIR, path: str) -> list[str]:
    """``path.field: Description.`` for every described field nested in ``t``."""
    return [f"{inner}: {sentence(f.description)}" for inner, f, _ in walk_fields(t, path)
            if f.description]


def param_doc(p: ParamIR) -> str:
    """A parameter's description followed by those of its nested fields, on one line."""
    parts = [sentence(p.description)] if p.description else []
    return " ".join(parts + nested_docs(p.type, p.name))


def compact_line(p: ParamIR, notation: CompactNotation = COMPACT) -> str:
    """One parameter as ``name?: T = default — Description. name.field: Description.``"""
    doc = param_doc(p)
    return f"{notation.field(p)} — {doc}" if doc else notation.field(p)


def returns_line(tool: ToolIR, notation: CompactNotation = COMPACT,
                 prefix: str = "-> ") -> str | None:
    """``-> T`` (``prefix`` then the type, then the descriptions of the result's fields as
    ``result.field: ...``), or None when the return type is unknown."""
    if tool.returns is None:
        return None
    doc = " ".join(nested_docs(tool.returns, "result"))
    return f"{prefix}{notation.type(tool.returns)}" + (f" — {doc}" if doc else "")


def compact_block(tool: ToolIR, notation: CompactNotation = COMPACT,
                  indent: str = "  ") -> list[str]:
    """One tool in the compact schema shared by the novel formats, as lines::

        get_weather
          // Current weather for a city.
          city: string — City name.
          unit?: "c"|"f" = "c" — Unit.
          -> integer

    The name, then the description after ``//``, one :func:`compact_line` per parameter and
    the :func:`returns_line`; lines below the name start with ``indent``.
    """
    lines = [tool.name]
    if tool.description:
        lines.append(f"{indent}// {one_line(tool.description)}")
    lines += [indent + compact_line(p, notation) for p in tool.params]
    ret = returns_line(tool, notation)
    if ret is not None:
        lines.append(indent + ret)
    return lines


def first_sentence(text: str, limit: int = 120) -> str:
    """The first sentence of ``text`` on one line, cut at ``limit`` characters with ``…``."""
    text = one_line(text)
    match = re.match(r"(.+?[.!?])(?:\s|$)", text)
    if match:
        text = match.group(1)
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


# -- domains (tools grouped by the first word of their names) -----------------------------------

_NAME_BREAK = re.compile(r"[._/:\s-]|(?<=[a-z0-9])(?=[A-Z])")


def split_domain(name: str) -> tuple[str, str]:
    """``(domain, rest)`` of a tool name: the part before its first separator (``.``, ``/``,
    ``:``, ``_``, ``-``, whitespace) or lower-to-upper camelCase boundary, and what follows
    that separator. ``math.factorial`` → ``("math", "factorial")``, ``getUser`` → ``("get",
    "User")``, ``query`` → ``("query", "")``."""
    match = _NAME_BREAK.search(name)
    if match is None or match.start() == 0:
        return name, ""
    return name[:match.start()], name[match.end():]


def group_domains(tools: Iterable[ToolIR]) -> list[tuple[str, list[ToolIR]]]:
    """The tools grouped by :func:`split_domain`'s domain, domains in order of first appearance,
    tools in their given order."""
    groups: dict[str, list[ToolIR]] = {}
    for tool in tools:
        groups.setdefault(split_domain(tool.name)[0], []).append(tool)
    return list(groups.items())


# -- example values (the formats that show calls instead of schemas) ----------------------------

_FORMAT_EXAMPLES = {"date": ("2024-05-01", "2024-06-15"),
                    "date-time": ("2024-05-01T09:30:00Z", "2024-06-15T18:00:00Z"),
                    "time": ("09:30:00", "18:00:00"),
                    "email": ("ada@example.com", "bob@example.org"),
                    "uri": ("https://example.com", "https://example.org/page"),
                    "url": ("https://example.com", "https://example.org/page"),
                    "uuid": ("123e4567-e89b-12d3-a456-426614174000",
                             "9b2f0c1e-5d4a-4e8b-b7a1-0c3d2e1f4a5b")}


def _example_number(t: TypeIR, variant: int, start: float) -> float:
    """``start`` times ``variant + 1``, or the lower bound plus ``variant``; kept in bounds."""
    value = start + variant * start
    low = t.minimum if t.minimum is not None else t.exclusive_minimum
    if low is not None:
        value = low + variant + (1 if t.exclusive_minimum is not None and t.minimum is None else 0)
    high = t.maximum if t.maximum is not None else t.exclusive_maximum
    if high is not None and value >= high:
        value = high if t.maximum is not None else high - 1
    return value


def example_value(t: TypeIR, name: str, variant: int = 0) -> Any:
    """A plausible JSON value of type ``t`` for a parameter called ``name``.

    ``variant`` ``v`` picks enum value and union option number ``v`` (modulo their count);
    variant 0 gives an object only its required fields, any other variant every field.
    Numbers respect their bounds, strings their length bounds and known formats (``date``,
    ``email``...), arrays their item counts; patterns are not followed.
    """
    if t.kind == "enum":
        return t.values[variant % len(t.values)] if t.values else None
    if t.kind == "union" and t.options:
        return example_value(t.options[variant % len(t.options)], name, variant)
    if t.kind == "string":
        if t.format in _FORMAT_EXAMPLES:
            return _FORMAT_EXAMPLES[t.format][variant % 2]
        words = " ".join(re.split(r"[\W_]+", name)).strip().lower() or "text"
        text = f"{('example', 'another')[variant % 2]} {words}"
        if t.min_length is not None and len(text) < t.min_length:
            text += "x" * (t.min_length - len(text))
        return text[:t.max_length] if t.max_length is not None else text
    if t.kind == "integer":
        return int(_example_number(t, variant, 3))
    if t.kind == "number":
        return _example_number(t, variant, 2.5)
    if t.kind == "boolean":
        return variant % 2 == 0
    if t.kind == "array":
        count = max(t.min_items or 1, 1)
        if t.max_items is not None:
            count = min(count, t.max_items)
        item = TypeIR("any") if t.items is None else t.items
        return [example_value(item, name, variant) for _ in range(count)]
    if t.kind == "object":
        if not t.fields:
            return {"key": "value"}
        return {f.name: example_value(f.type, f.name, variant) for f in t.fields
                if f.required or variant}
    if t.kind == "null":
        return None
    return ("some value", 42)[variant % 2]


def example_variants(tool: ToolIR) -> int:
    """How many full examples (variants 1, 2, ...) show every enum value and union option of
    ``tool``'s parameters: the largest number of values or options any one type has (at
    least 1). Variant ``v`` picks choice ``v`` modulo the count, so variants 1 to this
    number go through every residue of every smaller count too."""
    most, stack = 1, [p.type for p in tool.params]
    while stack:
        t = stack.pop()
        most = max(most, len(t.values), len(t.options))
        stack += [f.type for f in t.fields] + list(t.options)
        if t.items is not None:
            stack.append(t.items)
    return most


def example_arguments(tool: ToolIR, variant: int = 0) -> dict[str, Any]:
    """Arguments for an example call of ``tool``: the required parameters only for
    ``variant`` 0, every parameter for ``variant`` 1 (values from :func:`example_value`)."""
    return {p.name: example_value(p.type, p.name, variant) for p in tool.params
            if p.required or variant}


def summary_line(text: str, limit: int = 160) -> str:
    """The first non-empty line of ``text``, its whitespace collapsed, as a one-line summary.

    A line longer than ``limit`` characters is cut at the last space before the limit (or at
    the limit when there is none) and ends with ``…``. Used where a format shows one line per
    tool (a tool index, a menu of names with descriptions, an OpenAPI ``summary``).
    """
    line = next((one_line(ln) for ln in text.splitlines() if ln.strip()), "")
    if len(line) <= limit:
        return line
    cut = line.rfind(" ", 0, limit)
    return line[:cut if cut > 0 else limit - 1].rstrip() + "…"


# -- names and comments for languages with ASCII identifiers (config, IDL, grammar formats) -----

_CONTROL_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f\u2028\u2029\ud800-\udfff]")


def ascii_words(name: str) -> list[str]:
    """The ASCII words of ``name``: accents dropped (``météo`` → ``meteo``), split at every
    character that is not a letter or digit and at lower-to-upper camelCase boundaries
    (``getUser_id`` → ``["get", "User", "id"]``)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", plain)


def ascii_identifier(name: str, reserved: frozenset[str] | set[str] = frozenset()) -> str:
    """``name`` as an ASCII identifier ``[A-Za-z_][A-Za-z0-9_]*``: itself when it already is one.

    Accents are dropped (``météo_prévision`` → ``meteo_prevision``), every other character
    that cannot stand in an identifier becomes ``_`` (``page-id`` → ``page_id``,
    ``a&b<c>`` → ``a_b_c_``), a leading digit gets a ``_`` before it and a word in
    ``reserved`` a ``_`` after it (``class`` → ``class_``).
    """
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    if len(plain) < len(name) and not re.search(r"[^\W\d_]", plain):
        plain = name  # nothing but non-Latin letters: keep one _ per character
    out = re.sub(r"[^A-Za-z0-9_]", "_", plain) or "_"
    if out[0].isdigit():
        out = "_" + out
    return out + "_" if out in reserved else out


def option_labels(t: TypeIR) -> list[str]:
    """One label per option of the union ``t``, for languages that name union members.

    A label is the option's kind (an enum's base kind: ``string``, ``integer``, ``object``,
    ``array``...); a kind that comes again gets ``2``, ``3``... (``object``, ``object2``).
    """
    taken: set[str] = set()
    out = []
    for option in t.options:
        kind = option.enum_base() if option.kind == "enum" else option.kind
        out.append(unique_name(kind, taken).replace("_", ""))
    return out


def comment_lines(text: str) -> list[str]:
    """``text`` as lines fit for line comments: one per line of ``text``, whitespace runs
    collapsed, blank lines dropped, control characters (and U+2028/U+2029, which some
    languages read as line ends) spelled as ``\\uXXXX``."""
    return [_CONTROL_CHARS.sub(lambda m: f"\\u{ord(m.group()):04x}", one_line(line))
            for line in text.splitlines() if line.strip()]

