"""Code formats: tools as Python stubs and as TypeScript declarations.

Names that the language cannot spell (``math.factorial``, ``API-post-page``, ``class``) are
handled the same way in both: a function or argument gets a valid identifier from
:func:`python_identifier` / :func:`typescript_identifier`, and the true name is written next to
it (``Tool name: math.factorial``, ``Argument names: class_ is "class"``) so that a call can use
it. Keys of nested objects keep their true names (quoted where needed), since they are the keys
the call's JSON will carry.

Recursive and map types (see ``toolform.ir``): both show a recursive type unrolled to
``RenderOptions.recursion_depth`` levels (default 2; the innermost references become ``any``)
and a map as an object with one stand-in key per kind of key (``<key>``,
``<key matching the pattern P>``) holding the values' type (``_common.plain_type``).
"""

from __future__ import annotations

import re
from typing import Any

from ..ir import ParamIR, ToolIR, Toolset, TypeIR
from ._common import (PYTHON_SCALARS, TYPESCRIPT_SCALARS, camel_case, constraint_notes,
                      is_typescript_name, json_text, one_line, prepare, python_identifier,
                      typescript_identifier, unique_name)
from ._registry import RenderOptions, register_format

__all__ = ["python_stub", "typescript"]

_LINE = 100  # a Python signature longer than this is written one argument per line
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")


def _notes(p: ParamIR, extra: list[str], literal: Any) -> str:
    """One parameter's notes: description, constraint notes, default (``Defaults to 10.``)."""
    parts = [one_line(p.description)] if p.description else []
    notes = extra + constraint_notes(p.type)
    if notes:
        text = ", ".join(notes)
        parts.append(text[0].upper() + text[1:])
    if p.has_default:
        parts.append(f"Defaults to {literal(p.default)}")
    return " ".join(part if part.endswith((".", "!", "?")) else part + "." for part in parts)


# -- Python --------------------------------------------------------------------------------------

def _py_literal(value: Any) -> str:
    """A JSON value as a Python literal (strings in double quotes, ``True``, ``None``)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_py_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (f"{_py_literal(k)}: {_py_literal(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    # JSON's escapes for strings and its spelling of numbers are valid Python.
    return json_text(value)


def _py_escape(text: str) -> str:
    """``text`` made safe inside a triple-quoted docstring (the string's value is unchanged)."""
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}" if ord(m.group()) > 0xFF
                        else f"\\x{ord(m.group()):02x}", text)


def _py_comment(text: str) -> str:
    """``text`` on one line with control characters spelled out, fit for a ``#`` comment."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], one_line(text))


class _PythonWriter:
    """Writes one toolset as Python; collects the ``typing`` names and class names it uses."""

    def __init__(self) -> None:
        self.imports: set[str] = set()
        # names of functions and classes together, so that none shadows another or a name
        # the annotations use
        self.taken = {"Any", "Literal", "Never", "NotRequired", "TypedDict", "list", "dict", "str",
                      "int", "float", "bool"}

    def annotation(self, t: TypeIR, owner: list[str], out: list[str]) -> str:
        """The annotation of ``t``; ``TypedDict`` classes it needs are appended to ``out``."""
        if t.kind == "enum" and not t.values:
            self.imports.add("Never")
            text = "Never"
        elif t.kind == "enum":
            self.imports.add("Literal")
            text = f"Literal[{', '.join(_py_literal(v) for v in t.values)}]"
        elif t.kind == "array" and t.items is not None:
            text = f"list[{self.annotation(t.items, [*owner, 'item'], out)}]"
        elif t.kind == "array":
            self.imports.add("Any")
            text = "list[Any]"
        elif t.kind == "object" and t.fields:
            text = self.typed_dict(t, owner, out)
        elif t.kind == "object":
            self.imports.add("Any")
            text = "dict[str, Any]"
        elif t.kind == "union":
            text = " | ".join(self.annotation(o, [*owner, f"option{i}"], out)
                              for i, o in enumerate(t.options, 1)) or "Any"
        else:
            text = PYTHON_SCALARS[t.kind]
            if t.kind == "any":
                self.imports.add("Any")
        return f"{text} | None" if t.nullable and t.kind != "null" else text

    def typed_dict(self, t: TypeIR, owner: list[str], out: list[str]) -> str:
        """Define a ``TypedDict`` for an object with fields (after the ones it uses); its name."""
        name = unique_name(camel_case(*owner), self.taken)
        self.imports.add("TypedDict")
        rows = []
        for f in t.fields:
            ann = self.annotation(f.type, [*owner, f.name], out)
            if not f.required:
                self.imports.add("NotRequired")
                ann = f"NotRequired[{ann}]"
            rows.append((f, ann, _notes(f, [], _py_literal)))
        if all(python_identifier(f.name) == f.name for f in t.fields):
            lines = [f"class {name}(TypedDict):"]
            lines += [f"    {f.name}: {ann}" + (f"  # {_py_comment(note)}" if note else "")
                      for f, ann, note in rows]
        else:  # a key Python cannot spell as an attribute: the functional form keeps it
            lines = [f"{name} = TypedDict({json_text(name)}, {{"]
            lines += [f"    {_py_literal(f.name)}: {ann},"
                      + (f"  # {_py_comment(note)}" if note else "") for f, ann, note in rows]
            lines.append("})")
        out.append("\n".join(lines))
        return name

    def tool(self, tool: ToolIR) -> str:
        """The classes and the ``def`` of one tool."""
        ident = unique_name(python_identifier(tool.name), self.taken)
        classes: list[str] = []
        ordered = sorted(tool.params, key=lambda p: not p.required)  # stable: required first
        args, renamed, arg_names = [], [], set()
        for p in ordered:
            arg = unique_name(python_identifier(p.name), arg_names)
            if arg != p.name:
                renamed.append(f"{arg} is {json_text(p.name)}")
            ann = self.annotation(p.type, [ident, p.name], classes)
            if p.required:
                args.append((p, arg, f"{arg}: {ann}"))
            elif p.has_default:
                args.append((p, arg, f"{arg}: {ann} = {_py_literal(p.default)}"))
            else:
                none = "" if ann.endswith("| None") or ann == "None" else " | None"
                args.append((p, arg, f"{arg}: {ann}{none} = None"))
        if tool.returns is not None:
            returns = self.annotation(tool.returns, [ident, "result"], classes)
        else:
            self.imports.add("Any")
            returns = "Any"
        signature = f"def {ident}({', '.join(a for _, _, a in args)}) -> {returns}:"
        if len(signature) > _LINE:
            signature = "\n".join([f"def {ident}(", *(f"    {a}," for _, _, a in args),
                                   f") -> {returns}:"])
        sections = []
        if tool.description:
            sections.append(tool.description.strip())
        names = []
        if ident != tool.name:
            names.append(f"Tool name: {tool.name}")
        if renamed:
            names.append(f"Argument names: {'; '.join(renamed)}.")
        if names:
            sections.append("\n".join(names))
        entries = [(arg, _notes(p, [], _py_literal)) for p, arg, _ in args]
        entries = [f"    {arg}: {note}" for arg, note in entries if note]
        if entries:
            sections.append("\n".join(["Args:", *entries]))
        if tool.returns is not None:
            sections.append(f"Returns:\n    {returns}")
        doc = _py_escape("\n\n".join(sections))
        if "\n" in doc:
            doc = "\n".join(f"    {line}" if line else "" for line in doc.split("\n"))
            body = f'    """{doc.lstrip()}\n    """'
        elif doc:
            # a closing quote of the text would merge with the docstring's own
            body = f'    """{doc[:-1]}\\""""' if doc.endswith('"') else f'    """{doc}"""'
        else:
            body = "    ..."
        return "\n\n\n".join([*classes, f"{signature}\n{body}"])


@register_format(
    name="Python stubs with Google docstrings",
    family="code",
    default_protocol="python_call",
    description=("Each tool as a typed Python def with an empty body and a Google-style "
                 "docstring (Args, Returns); nested objects become TypedDict classes, enums "
                 "Literal types, unions A | B, optional arguments get defaults."),
    language="python",
    core=True,
    returns="Python source: one ``from typing import`` line, then the tools.",
)
def python_stub(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a Python module of typed function stubs.

    Each tool is ``def name(arg: type, opt: type | None = None, lim: int = 10) -> Return:``
    (required arguments first, each group in declaration order) with a Google-style docstring:
    the description, then the name mapping when a name had to change, ``Args:`` (description,
    constraints in words, default) and ``Returns:``. Objects with fields become ``TypedDict``
    classes defined before the function (optional keys as ``NotRequired``, notes as trailing
    comments; the functional ``TypedDict("Name", {...})`` form when a key is not an
    identifier), enums ``Literal[...]``, arrays ``list[...]``, unions ``A | B``, and an
    unknown return type ``Any``. Every block passes ``ast.parse``.
    """
    writer = _PythonWriter()
    blocks = [writer.tool(t) for t in prepare(toolset, options)]
    head = [f"from typing import {', '.join(sorted(writer.imports))}"] if writer.imports else []
    return "\n\n\n".join(head + blocks) + "\n"


# -- TypeScript ----------------------------------------------------------------------------------

def _ts_literal(value: Any) -> str:
    """A JSON value as a TypeScript literal (line and paragraph separators escaped)."""
    return json_text(value).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _ts_key(name: str) -> str:
    return name if is_typescript_name(name) else _ts_literal(name)


def _ts_comment(text: str) -> str:
    """``text`` made safe inside a ``/** */`` comment."""
    return text.replace("*/", "*\\/")


def _integer_notes(t: TypeIR) -> list[str]:
    """Say "integer" where TypeScript's ``number`` hides it."""
    if t.kind == "integer" or (t.kind == "enum" and t.values and t.enum_base() == "integer"):
        return ["integer"]
    if t.kind == "array" and t.items is not None and t.items.kind == "integer":
        return ["each item an integer"]
    return []


def _jsdoc(lines: list[str], indent: str = "") -> str:
    lines = [_ts_comment(line) for text in lines for line in text.split("\n")]
    if len(lines) == 1:
        return f"{indent}/** {lines[0]} */"
    body = [f"{indent} *{' ' + line if line else ''}" for line in lines]
    return "\n".join([f"{indent}/**", *body, f"{indent} */"])


class _TypeScriptWriter:
    """Writes one toolset as TypeScript declarations; tracks the names it has used."""

    def __init__(self) -> None:
        # names of functions and interfaces together, and the global types the output uses
        self.taken = {"Array", "Boolean", "Date", "Error", "Function", "Map", "Number", "Object",
                      "Promise", "Record", "Set", "String", "Symbol"}

    def type(self, t: TypeIR, owner: list[str], out: list[str]) -> str:
        """The TypeScript type of ``t``; interfaces it needs are appended to ``out``."""
        if t.kind == "enum":
            text = " | ".join(_ts_literal(v) for v in t.values) or "never"
        elif t.kind == "array":
            inner = self.type(t.items, [*owner, "item"], out) if t.items is not None else "any"
            text = f"({inner})[]" if " " in inner else f"{inner}[]"
        elif t.kind == "object" and t.fields:
            text = self.interface(t, owner, out)
        elif t.kind == "object":
            text = "Record<string, any>"
        elif t.kind == "union":
            text = " | ".join(self.type(o, [*owner, f"option{i}"], out)
                              for i, o in enumerate(t.options, 1)) or "any"
        else:
            text = TYPESCRIPT_SCALARS[t.kind]
        return f"{text} | null" if t.nullable and t.kind != "null" else text

    def members(self, fields: tuple[ParamIR, ...], owner: list[str], out: list[str],
                comments: bool) -> list[str]:
        lines = []
        for f in fields:
            text = self.type(f.type, [*owner, f.name], out)
            note = _notes(f, _integer_notes(f.type), _ts_literal)
            if comments and note:
                lines.append(_jsdoc([one_line(note)], "  "))
            lines.append(f"  {_ts_key(f.name)}{'' if f.required else '?'}: {text};")
        return lines

    def interface(self, t: TypeIR, owner: list[str], out: list[str]) -> str:
        """Declare an interface for an object with fields (after the ones it uses); its name."""
        name = unique_name(camel_case(*owner), self.taken)
        body = self.members(t.fields, owner, out, comments=True)
        out.append("\n".join([f"interface {name} {{", *body, "}"]))
        return name

    def tool(self, tool: ToolIR) -> str:
        """The interfaces and the ``declare function`` of one tool."""
        ident = unique_name(typescript_identifier(tool.name), self.taken)
        interfaces: list[str] = []
        members = self.members(tool.params, [ident], interfaces, comments=False)
        returns = (self.type(tool.returns, [ident, "result"], interfaces)
                   if tool.returns is not None else "unknown")
        doc = [tool.description.strip()] if tool.description else []
        if ident != tool.name:
            doc += ["", f"Tool name: {tool.name}"] if doc else [f"Tool name: {tool.name}"]
        tags = []
        for p in tool.params:
            note = _notes(p, _integer_notes(p.type), _ts_literal)
            target = (f"params.{p.name}" if is_typescript_name(p.name)
                      else f"params[{_ts_literal(p.name)}]")
            if note:
                tags.append(f"@param {target} - {one_line(note)}")
        if tool.returns is not None:
            tags.append(f"@returns {returns}")
        if tags:
            doc += ["", *tags] if doc else tags
        params = "\n".join(["params: {", *members, "}"]) if tool.params else ""
        declaration = f"declare function {ident}({params}): {returns};"
        block = [*interfaces, (_jsdoc(doc) + "\n" if doc else "") + declaration]
        return "\n\n".join(block)


@register_format(
    name="TypeScript declarations with JSDoc",
    family="code",
    default_protocol="json_object",
    description=("Each tool as a TypeScript `declare function` taking one params object, "
                 "documented with JSDoc (@param, @returns); nested objects become named "
                 "interfaces, enums unions of literals, optional parameters are marked `?`."),
    language="typescript",
    core=True,
    returns="TypeScript source.",
)
def typescript(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as TypeScript ambient function declarations.

    Each tool is ``declare function name(params: {a: string; b?: number}): Return;`` preceded
    by a JSDoc block (description, ``Tool name:`` when the name had to change, a
    ``@param params.a - ...`` for each parameter with a description, constraints, a default or
    an ``integer`` that ``number`` hides; ``@returns``). Objects with fields become ``interface``
    declarations placed before the function with a JSDoc line per property; enums become unions
    of literal types, arrays ``T[]``, a free-form object ``Record<string, any>``, an unknown
    return type ``unknown``. Keys that are not identifiers are quoted. Every block parses
    without an error node under tree-sitter's TypeScript grammar.
    """
    writer = _TypeScriptWriter()
    return "\n\n".join(writer.tool(t) for t in prepare(toolset, options)) + "\n"
