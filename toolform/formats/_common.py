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
from dataclasses import replace
from typing import Any, Iterable

from ..errors import RenderError
from ..ir import ParamIR, ToolIR, Toolset, TypeIR
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
            elif t.kind == "array" and t.items is not None:
                stack.append((t.items, f"{path}[]", objects, levels))
            elif t.kind == "union":
                stack.extend((o, f"{path}.anyOf[{i}]", objects, levels)
                             for i, o in reversed(list(enumerate(t.options))))


def _strip_type(t: TypeIR) -> TypeIR:
    return replace(t, fields=tuple(_strip_param(p) for p in t.fields),
                   items=_strip_type(t.items) if t.items is not None else None,
                   options=tuple(_strip_type(o) for o in t.options))


def _strip_param(p: ParamIR) -> ParamIR:
    return replace(p, description="", title="", type=_strip_type(p.type))


def prepare(toolset: Toolset, options: RenderOptions) -> list[ToolIR]:
    """The tools to render, with the options applied and the depth checked.

    Parameters
    ----------
    toolset : Toolset
        The tools to render.
    options : RenderOptions
        ``include_descriptions=False`` empties every tool and parameter description and title;
        ``include_returns=False`` drops every return type.

    Returns
    -------
    list of ToolIR
        In the toolset's order.

    Raises
    ------
    RenderError
        From :func:`check_depth`.
    """
    tools = list(toolset)
    if not options.include_returns:
        tools = [replace(t, returns=None) for t in tools]
    check_depth(tools, options)  # before the recursive stripping below
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
