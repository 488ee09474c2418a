"""Config formats: tools written in configuration languages (TOML, INI, HCL, CUE, Dhall,
Jsonnet, Nix, KDL, EDN, S-expressions, Starlark).

Every writer here walks the IR the same way (tool → parameters → nested fields, array items
and union options) and differs in spelling: how a value is written (:class:`Spelling`, one
table per language), how a key is quoted, and what shape a parameter takes (a table, a
block, a node, a form, a function call). Whatever a language cannot say in its own syntax
goes to a comment in the same words everywhere (``at least 1 item``, ``default "c"``).

Names. Keys are written verbatim, quoted where the language needs quotes (``"x-y|z" = ...``
in TOML, ``"page-id": ...`` in Jsonnet). Where a name must be an identifier (a CUE
definition, a Starlark rule, a Dhall label outside backticks' ASCII range) it is rewritten
(:func:`~toolform.formats._common.ascii_identifier`, :func:`python_identifier`) and the true
name is written beside it in a comment or a string.

Recursive and map types (see ``toolform.ir``): all of them show a recursive type unrolled to
``RenderOptions.recursion_depth`` levels (default 2; the innermost references become ``any``)
and a map as an object with one stand-in key per kind of key (``<key>``,
``<key matching the pattern P>``) holding the values' type (``_common.plain_type``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Sequence

from ..ir import ParamIR, Toolset, TypeIR
from ._common import (ascii_identifier, comment_lines, constraint_notes, constraint_phrases,
                      json_text, one_line, option_labels, prepare, python_identifier,
                      type_label, unique_name, value_list)
from ._registry import RenderOptions, register_format

__all__ = ["Spelling", "cue", "dhall", "edn", "hcl", "ini", "jsonnet", "kdl", "nix_expr",
           "sexpr", "starlark", "toml"]

#: IR constraint attribute → the snake_case key the config formats write it under.
_CONSTRAINT_KEYS = (("minimum", "minimum"), ("exclusive_minimum", "exclusive_minimum"),
                   ("maximum", "maximum"), ("exclusive_maximum", "exclusive_maximum"),
                   ("min_length", "min_length"), ("max_length", "max_length"),
                   ("min_items", "min_items"), ("max_items", "max_items"),
                   ("pattern", "pattern"), ("format", "format"))


class _Unwritable(ValueError):
    """A value the language has no literal for (``null`` in TOML); the caller falls back."""


def _plain_number(value: int | float) -> str:
    """A number without an exponent (``1e-05`` → ``0.00001``), floats always with a ``.``,
    for languages whose float literals need one (Nix, HCL)."""
    if isinstance(value, bool) or not isinstance(value, float):
        return str(value)
    if value != value or value in (float("inf"), float("-inf")):
        raise _Unwritable(f"{value!r} has no literal")
    text = format(Decimal(repr(value)), "f")
    return text if "." in text else text + ".0"


@dataclass(frozen=True)
class Spelling:
    """How one language writes JSON values.

    Parameters
    ----------
    null, true, false : str
        The literals (``null=""`` when the language has none: writing null raises
        :class:`_Unwritable`).
    string : callable
        Writes a string literal.
    key : callable
        Writes a map key (from the key string).
    number : callable
        Writes a number.
    open_list, list_sep, close_list, open_map, map_sep, close_map, pair : str
        Brackets and separators; ``pair`` joins a key and a value (``"{k} = {v}"``).
    list_item : callable, optional
        Wraps a list item (Nix puts negative numbers in parentheses).
    """

    null: str
    true: str
    false: str
    string: Callable[[str], str]
    key: Callable[[str], str]
    number: Callable[[Any], str] = json_text
    open_list: str = "["
    list_sep: str = ", "
    close_list: str = "]"
    open_map: str = "{"
    map_sep: str = ", "
    close_map: str = "}"
    pair: str = "{k}: {v}"
    list_item: Callable[[str], str] | None = None

    def __call__(self, value: Any) -> str:
        """``value`` (a JSON value) in this language.

        Raises
        ------
        _Unwritable
            When the language has no literal for a part of it.
        """
        if value is None:
            if not self.null:
                raise _Unwritable("null has no literal")
            return self.null
        if isinstance(value, bool):
            return self.true if value else self.false
        if isinstance(value, (int, float)):
            return self.number(value)
        if isinstance(value, str):
            return self.string(value)
        if isinstance(value, list):
            items = [self(v) for v in value]
            if self.list_item is not None:
                items = [self.list_item(i) for i in items]
            return self.open_list + self.list_sep.join(items) + self.close_list
        if isinstance(value, dict):
            pairs = [self.pair.format(k=self.key(str(k)), v=self(v)) for k, v in value.items()]
            return (self.open_map + self.map_sep.join(pairs) + self.close_map) if pairs else (
                self.open_map.strip() + self.close_map.strip())
        raise _Unwritable(f"{type(value).__name__} is not a JSON value")


def _escaped(text: str, table: dict[str, str], unicode: Callable[[int], str],
             extra: str = "") -> str:
    """``text`` with the characters of ``table`` replaced, other C0 controls, DEL and the
    code points in ``extra`` spelled with ``unicode``."""
    out = []
    for ch in text:
        if ch in table:
            out.append(table[ch])
        elif ch < " " or ch == "\x7f" or ch in extra or "\ud800" <= ch <= "\udfff":
            out.append(unicode(ord(ch)))
        else:
            out.append(ch)
    return "".join(out)


_C_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _c_string(text: str) -> str:
    """A double-quoted string with JSON-style escapes (TOML, CUE, Starlark, EDN...)."""
    return '"' + _escaped(text, {**_C_ESCAPES, "\b": "\\b", "\f": "\\f"},
                          lambda c: f"\\u{c:04x}", "\u2028\u2029") + '"'


def _describe(p: ParamIR | None, t: TypeIR, *, required: bool = False, default: bool = False,
              constraints: bool = True, extra: Sequence[str] = ()) -> list[str]:
    """Comment lines for a field: its description, then one sentence of what the syntax did
    not say (required, null, enum values, constraints, default)."""
    out = comment_lines(p.description) if p is not None and p.description else []
    phrases = []
    if required and p is not None:
        phrases.append("required" if p.required else "optional")
    phrases += list(extra) + (constraint_notes(t) if constraints else [])
    if default and p is not None and p.has_default:
        phrases.append(f"default {json_text(p.default)}")
    if phrases:
        text = ", ".join(phrases)
        out += comment_lines(text[:1].upper() + text[1:] + ".")
    return out


def _children(t: TypeIR) -> list[tuple[str, TypeIR, ParamIR | None]]:
    """``(role, type, field)`` below ``t``: its fields, its items, its union options."""
    if t.kind == "object":
        return [("field", f.type, f) for f in t.fields]
    if t.kind == "array" and t.items is not None:
        return [("items", t.items, None)]
    if t.kind == "union":
        return [("option", o, None) for o in t.options]
    return []


# -- TOML ----------------------------------------------------------------------------------------

_TOML_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _toml_key(key: str) -> str:
    return key if _TOML_BARE.fullmatch(key) else _c_string(key)


def _toml_number(value: Any) -> str:
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return repr(value) if isinstance(value, float) else str(value)


_TOML = Spelling(null="", true="true", false="false", string=_c_string, key=_toml_key,
                number=_toml_number, open_map="{ ", close_map=" }", pair="{k} = {v}")


def _toml_text(text: str) -> str:
    """A string value: a basic string, or a multi-line one when the text has line breaks."""
    if "\n" not in text:
        return _c_string(text)
    body = _escaped(text, {"\\": "\\\\", '"': '\\"', "\r": "\\r", "\t": "\t"},
                    lambda c: f"\\u{c:04x}", "\u2028\u2029")
    return '"""\n' + body + '"""'


def _toml_entry(lines: list[str], key: str, value: Any) -> None:
    """``key = value``, or ``key_json = "..."`` when TOML has no literal for it (null)."""
    try:
        lines.append(f"{key} = {_TOML(value)}")
    except _Unwritable:
        lines.append(f"{key}_json = {_c_string(json_text(value))}")


def _toml_table(lines: list[str], header: str, t: TypeIR, p: ParamIR | None,
                array: bool = False) -> None:
    lines += ["", f"[[{header}]]" if array else f"[{header}]"]
    lines.append(f'type = "{"enum" if t.kind == "enum" else t.kind}"')
    if p is not None:
        lines.append(f"required = {'true' if p.required else 'false'}")
        if p.description:
            lines.append(f"description = {_toml_text(p.description)}")
    if t.kind == "enum":
        _toml_entry(lines, "values", list(t.values))
    for attr, key in _CONSTRAINT_KEYS:
        if getattr(t, attr) is not None:
            _toml_entry(lines, key, getattr(t, attr))
    if t.nullable:
        lines.append("nullable = true")
    if t.kind == "object" and t.additional is not None:
        lines.append(f"additional_properties = {'true' if t.additional else 'false'}")
    if p is not None and p.has_default:
        _toml_entry(lines, "default", p.default)
    for role, child, field in _children(t):
        if role == "field":
            _toml_table(lines, f"{header}.fields.{_toml_key(field.name)}", child, field)
        elif role == "items":
            _toml_table(lines, f"{header}.items", child, None)
        else:
            _toml_table(lines, f"{header}.options", child, None, array=True)


@register_format(
    name="TOML array of tool tables",
    family="config",
    default_protocol="toml_call",
    description=("Each tool as a [[tool]] entry of a TOML array of tables, with one "
                 "[tool.params.NAME] sub-table per parameter holding its type, required flag, "
                 "description, enum values, constraints and default; nested fields, items "
                 "and union options as deeper sub-tables."),
    language="toml",
    returns="The TOML document.",
)
def toml(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a TOML document.

    Shape::

        [[tool]]
        name = "create_order"
        description = "Place an order."

        [tool.params.customer_id]
        type = "string"
        required = true

        [tool.params.lines]
        type = "array"
        required = true
        min_items = 1

        [tool.params.lines.items]
        type = "object"

        [tool.params.lines.items.fields.sku]
        type = "string"
        required = true

        [tool.params.speed]
        type = "enum"
        required = false
        values = ["standard", "express"]
        default = "standard"

        [tool.returns]
        type = "number"

    ``type`` is the IR kind; constraints use snake_case keys (``min_length``,
    ``exclusive_minimum``...); union options are ``[[....options]]`` tables. A value TOML
    cannot hold (``null``, a list containing null) is written as JSON text under the key
    with ``_json`` after it (``default_json = "null"``). Keys that are not bare keys are
    quoted.
    """
    lines: list[str] = []
    for tool in prepare(toolset, options):
        if lines:
            lines.append("")
        lines += ["[[tool]]", f"name = {_c_string(tool.name)}"]
        if tool.description:
            lines.append(f"description = {_toml_text(tool.description)}")
        for p in tool.params:
            _toml_table(lines, f"tool.params.{_toml_key(p.name)}", p.type, p)
        if tool.returns is not None:
            _toml_table(lines, "tool.returns", tool.returns, None)
    return "\n".join(lines) + "\n"


# -- INI -----------------------------------------------------------------------------------------

def _paths(t: TypeIR, path: str) -> list[tuple[str, ParamIR | None]]:
    """``(path, field)`` for every field below ``t``: ``.name`` for a field, ``[]`` for
    array items, ``#2`` for the second union option (``lines[].sku``)."""
    out: list[tuple[str, ParamIR | None]] = []
    for i, (role, child, field) in enumerate(_children(t), 1):
        if role == "field" and field is not None:
            out += [(f"{path}.{field.name}", field), *_paths(child, f"{path}.{field.name}")]
        else:
            out += _paths(child, f"{path}[]" if role == "items" else f"{path}#{i}")
    return out


_INI_BAD_KEY = re.compile(r"[=:\n\r]|^[\s\[;#]|\s$")


def _words(t: TypeIR) -> str:
    """A type in a few words: ``integer``, ``array of object``, ``string | null``."""
    if t.kind == "array":
        text = "array of " + (_words(t.items) if t.items is not None else "any")
        return text + " | null" if t.nullable else text
    return type_label(t)


def _value_phrases(t: TypeIR, lead: str) -> list[str]:
    """The allowed values of an enum, of an array's items (``items one of ...``) and of
    union options (``option 2 one of ...``)."""
    if t.kind == "enum":
        return [f"{lead}one of {value_list(t.values)}" if t.values else f"{lead}no value allowed"]
    if t.kind == "array" and t.items is not None:
        return _value_phrases(t.items, f"{lead}items ")
    if t.kind == "union":
        return [phrase for i, o in enumerate(t.options, 1)
                for phrase in _value_phrases(o, f"{lead}option {i} ")]
    return []


def _ini_value(p: ParamIR | None, t: TypeIR) -> str:
    parts = [_words(t)]
    if p is not None:
        parts.append("required" if p.required else "optional")
    parts += _value_phrases(t, "")
    parts += constraint_phrases(t)
    if p is not None and p.has_default:
        parts.append(f"default {json_text(p.default)}")
    return ", ".join(parts)


@register_format(
    name="INI file, a section per tool",
    family="config",
    default_protocol="key_value_call",
    description=("One INI section per tool and one key per parameter, whose value says the "
                 "type, required or optional, enum values, constraints and default in words; "
                 "nested fields as dotted keys, descriptions as ; comments. Values are text, "
                 "so structure is flattened."),
    language="ini",
    lossy=True,
    returns="The INI text.",
)
def ini(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as INI text that ``configparser`` reads.

    Shape::

        [create_order]
        ; Place an order.
        customer_id = string, required
        ; Where to deliver.
        address = object, required
        address.street = string, required
        lines = array of object, required, at least 1 item
        lines[].sku = string, required
        speed = string, optional, one of "standard", "express", default "standard"
        (result) = object
        (result).order_id = string, required

    Nested fields are flattened to keys with paths (``.field``, ``[]`` for array items,
    ``#2`` for the second union option); the result's under ``(result)``. Keys are case
    sensitive. A name that cannot be an INI key (it holds ``=`` or ``:``, or starts with
    ``[``, ``;`` or ``#``) is rewritten with ``_`` and its true name given in a comment; a
    tool called ``DEFAULT`` becomes the section ``DEFAULT_`` (the name configparser keeps for
    itself). The format is lossy: every value is text, so types, enums and defaults are
    words, not typed data.
    """
    lines: list[str] = []
    sections: set[str] = set()
    for tool in prepare(toolset, options):
        section = one_line(tool.name).replace("]", ")") or "_"
        section = unique_name(section + "_" if section == "DEFAULT" else section, sections)
        if lines:
            lines.append("")
        lines.append(f"[{section}]")
        if section != tool.name:
            lines.append(f"; tool name: {json_text(tool.name)}")
        lines += [f"; {c}" for c in comment_lines(tool.description)]
        taken: set[str] = set()
        rows: list[tuple[str, ParamIR | None]] = []
        for p in tool.params:
            rows += [(p.name, p), *_paths(p.type, p.name)]
        if tool.returns is not None:
            rows += [("(result)", None), *_paths(tool.returns, "(result)")]
        for path, field in rows:
            key = path if not _INI_BAD_KEY.search(path) else ascii_identifier(path)
            key = unique_name(key, taken)
            if key != path:
                lines.append(f"; key {key} is {json_text(path)}")
            if field is not None:
                lines += [f"; {c}" for c in comment_lines(field.description)]
            t = field.type if field is not None else tool.returns
            lines.append(f"{key} = {_ini_value(field, t)}")  # type: ignore[arg-type]
    return "\n".join(lines) + "\n"


# -- HCL -----------------------------------------------------------------------------------------

_HCL_ESCAPES = {**_C_ESCAPES}
_HCL_WORDS = {"string": "string", "integer": "integer", "number": "number", "boolean": "bool",
              "null": "null", "any": "any", "object": "object", "enum": "string",
              "union": "union"}


def _hcl_literal_string(text: str) -> str:
    """A quoted HCL string for a block label (no template sequences there)."""
    return '"' + _escaped(text, _HCL_ESCAPES, lambda c: f"\\u{c:04x}", "\u2028\u2029") + '"'


def _hcl_string(text: str) -> str:
    """A quoted HCL string expression: ``${`` and ``%{`` doubled so they stay literal."""
    return _hcl_literal_string(text).replace("${", "$${").replace("%{", "%%{")


_HCL = Spelling(null="null", true="true", false="false", string=_hcl_string,
               key=_hcl_string, number=_plain_number, pair="{k} = {v}")


def _hcl_type(t: TypeIR) -> str:
    if t.kind == "array":
        return f"list({_hcl_type(t.items) if t.items is not None else 'any'})"
    if t.kind == "enum":
        return _HCL_WORDS[t.enum_base()]
    return _HCL_WORDS[t.kind]


def _hcl_attrs(lines: list[str], indent: str, pairs: list[tuple[str, str]]) -> None:
    width = max((len(k) for k, _ in pairs), default=0)
    lines += [f"{indent}{k.ljust(width)} = {v}" for k, v in pairs]


def _hcl_block(lines: list[str], indent: str, head: str, t: TypeIR, p: ParamIR | None) -> None:
    lines.append(f"{indent}{head} {{")
    inner = indent + "  "
    pairs = [("type", _hcl_type(t))]
    if p is not None:
        pairs.append(("required", "true" if p.required else "false"))
        if p.description:
            pairs.append(("description", _hcl_string(p.description)))
    if t.kind == "enum":
        pairs.append(("enum", _HCL(list(t.values))))
    for attr, key in _CONSTRAINT_KEYS:
        value = getattr(t, attr)
        if value is not None:
            pairs.append((key, _HCL(value)))
    if t.nullable:
        pairs.append(("nullable", "true"))
    if t.kind == "object" and t.additional is not None:
        pairs.append(("additional_properties", _HCL(t.additional)))
    if p is not None and p.has_default:
        pairs.append(("default", _HCL(p.default)))
    _hcl_attrs(lines, inner, pairs)
    for role, child, field in _children(t):
        if role == "field":
            _hcl_block(lines, inner, f"field {_hcl_literal_string(field.name)}", child, field)
        else:
            _hcl_block(lines, inner, "items" if role == "items" else "option", child, None)
    lines.append(f"{indent}}}")


@register_format(
    name="HCL blocks (Terraform style)",
    family="config",
    default_protocol="json_object",
    description=("Each tool as an HCL block `tool \"name\" { ... }` holding one `variable` "
                 "block per parameter with type, required, description, enum, constraint and "
                 "default attributes, and nested `field`, `items` and `option` blocks for "
                 "structure."),
    language="hcl",
    returns="The HCL text.",
)
def hcl(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as HCL (HashiCorp Configuration Language) blocks.

    Shape::

        tool "create_order" {
          description = "Place an order."

          variable "customer_id" {
            type     = string
            required = true
          }
          variable "lines" {
            type      = list(object)
            required  = true
            min_items = 1
            items {
              type = object
              field "sku" {
                type     = string
                required = true
              }
            }
          }
          variable "speed" {
            type     = string
            required = false
            enum     = ["standard", "express"]
            default  = "standard"
          }
          returns {
            type = number
          }
        }

    ``type`` is a Terraform-style type expression (``string``, ``integer``, ``number``,
    ``bool``, ``list(T)``, ``object``, ``union``, ``any``); values and defaults are HCL
    literals (``null``, lists, ``{ "k" = v }`` objects), and strings keep ``${`` literal.
    """
    lines: list[str] = []
    for tool in prepare(toolset, options):
        if lines:
            lines.append("")
        lines.append(f"tool {_hcl_literal_string(tool.name)} {{")
        if tool.description:
            lines += [f"  description = {_hcl_string(tool.description)}", ""]
        for p in tool.params:
            _hcl_block(lines, "  ", f"variable {_hcl_literal_string(p.name)}", p.type, p)
        if tool.returns is not None:
            _hcl_block(lines, "  ", "returns", tool.returns, None)
        if lines[-1] == "":
            lines.pop()
        lines.append("}")
    return "\n".join(lines) + "\n"


# -- CUE -----------------------------------------------------------------------------------------

_CUE_KEYWORDS = frozenset("package import for in if let true false null".split())


def _cue_label(name: str) -> str:
    """A field label: the name when it is a CUE identifier (and not a keyword, nor hidden by a
    leading ``_``), else a quoted string."""
    if (name.replace("$", "a").isidentifier() and name not in _CUE_KEYWORDS
            and not name.startswith("_")):
        return name
    return _c_string(name)


_CUE = Spelling(null="null", true="true", false="false", string=_c_string, key=_c_string)
_CUE_SCALARS = {"string": "string", "integer": "int", "number": "number", "boolean": "bool",
                "null": "null", "any": "_"}


class _CueWriter:
    """Writes CUE types; records which packages the constraints need."""

    def __init__(self) -> None:
        self.imports: set[str] = set()

    def bounds(self, t: TypeIR) -> list[str]:
        out = []
        for attr, op in (("minimum", ">="), ("exclusive_minimum", ">"), ("maximum", "<="),
                         ("exclusive_maximum", "<")):
            if getattr(t, attr) is not None:
                out.append(f"{op}{json_text(getattr(t, attr))}")
        for attr, call, pkg in (("min_length", "strings.MinRunes", "strings"),
                                ("max_length", "strings.MaxRunes", "strings"),
                                ("min_items", "list.MinItems", "list"),
                                ("max_items", "list.MaxItems", "list")):
            if getattr(t, attr) is not None:
                out.append(f"{call}({getattr(t, attr)})")
                self.imports.add(pkg)
        if t.pattern is not None:
            out.append(f"=~{_c_string(t.pattern)}")
        return out

    def type(self, t: TypeIR, indent: str) -> str:
        """``t`` as a CUE expression (multi-line for structs), without a default."""
        if t.kind == "enum":
            text = " | ".join(_CUE(v) for v in t.values) or "_|_"
        elif t.kind == "array":
            inner = self.type(t.items, indent) if t.items is not None else "_"
            text = f"[...{inner}]"
        elif t.kind == "object" and t.fields:
            text = self.struct(t.fields, indent, open_=t.additional is True)
        elif t.kind == "object":
            text = "{...}"
        elif t.kind == "union":
            text = " | ".join(self.type(o, indent) for o in t.options) or "_"
        else:
            text = _CUE_SCALARS[t.kind]
        bounds = self.bounds(t)
        if bounds:
            text = " & ".join([f"({text})" if " | " in text else text, *bounds])
        if t.nullable and t.kind not in ("null", "any"):
            text = f"{text} | null"
        return text

    def field_type(self, p: ParamIR, indent: str) -> str:
        text = self.type(p.type, indent)
        if p.has_default:
            try:
                default = _CUE(p.default)
            except _Unwritable:  # pragma: no cover - CUE writes every JSON value
                return text
            values = [_CUE(v) for v in p.type.values] if p.type.kind == "enum" else []
            if default in values:  # mark the enum member: *"standard" | "express"
                return " | ".join(("*" + v if v == default else v) for v in values)
            if default == "null" and text.endswith(" | null"):
                text = text[:-len(" | null")]
            return f"*{default} | {text}"
        return text

    def struct(self, fields: Sequence[ParamIR], indent: str, open_: bool = False) -> str:
        inner = indent + "\t"
        lines = ["{"]
        for f in fields:
            doc = _describe(f, f.type, constraints=False,
                            extra=[f"in {f.type.format} format"] if f.type.format else [])
            lines += [f"{inner}// {c}" for c in doc]
            mark = "!" if f.required else "?"
            lines.append(f"{inner}{_cue_label(f.name)}{mark}: {self.field_type(f, inner)}")
        if open_:
            lines.append(f"{inner}...")
        return "\n".join(lines + [f"{indent}}}"])


@register_format(
    name="CUE schema definitions",
    family="config",
    default_protocol="json_object",
    description=("Each tool as a CUE definition whose fields are the arguments: ! marks "
                 "required fields and ? optional ones, constraints are part of the type "
                 "(int & >=0 & <=100, =~\"regex\"), enums are disjunctions with * marking "
                 "the default, and descriptions are comments."),
    language="cue",
    returns="The CUE text.",
)
def cue(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a CUE file of definitions.

    Shape::

        package tools

        import "list"

        // create_order: Place an order.
        #create_order: {
        \t// The customer.
        \tcustomer_id!: string
        \tlines!: [...{
        \t\tsku!:      string
        \t\tquantity!: int & >=1
        \t}] & list.MinItems(1)
        \tspeed?: *"standard" | "express"
        }

        // What create_order returns.
        #create_order_result: {...}

    Types: ``string``, ``int``, ``number``, ``bool``, ``null``, ``_`` (any), ``[...T]``,
    structs (closed, as definitions are; ``...`` when the schema allows other keys),
    disjunctions for enums and unions, ``T | null`` for nullable types. Bounds are
    ``>=``/``>``/``<=``/``<``, lengths ``strings.MinRunes``/``MaxRunes``, item counts
    ``list.MinItems``/``MaxItems``, patterns ``=~``; formats go to the comment. A default is
    ``*value | T``. A tool whose name is not a CUE identifier gets a rewritten definition
    name and its true name in the comment above it; field labels that are not identifiers
    are quoted.
    """
    w = _CueWriter()
    body: list[str] = []
    taken: set[str] = set()
    for tool in prepare(toolset, options):
        ident = tool.name if tool.name.isidentifier() else python_identifier(tool.name)
        ident = unique_name(ident, taken)
        doc = comment_lines(tool.description)
        if ident != tool.name:
            doc.append(f"Tool name: {json_text(tool.name)}.")
        body += ["", *(f"// {c}" for c in doc), f"#{ident}: {w.struct(tool.params, '')}"]
        if tool.returns is not None:
            rident = unique_name(f"{ident}_result", taken)
            body += ["", f"// What {json_text(tool.name)} returns.",
                     f"#{rident}: {w.type(tool.returns, '')}"]
    head = ["package tools"]
    if w.imports:
        head += ["", *(f'import "{pkg}"' for pkg in sorted(w.imports))]
    return "\n".join(head + body) + "\n"


# -- Dhall ---------------------------------------------------------------------------------------

_DHALL_RESERVED = frozenset("""
    if then else let in using missing assert as Infinity NaN merge Some toMap forall with
    showConstructor Natural Integer Double Text List Optional None Bool True False Type Kind
    Sort Date Time TimeZone Bytes
    """.split())
_DHALL_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_DHALL_QUOTABLE = re.compile(r"[\x20-\x5f\x61-\x7e]+")
_DHALL_SCALARS = {"string": "Text", "integer": "Integer", "number": "Double",
                  "boolean": "Bool", "null": "Optional <>", "any": "JSON"}
_DHALL_JSON = "https://prelude.dhall-lang.org/v23.0.0/JSON/Type"


def _dhall_label(name: str) -> tuple[str, bool]:
    """``(label, true)``: the name as a Dhall label, ``true`` when it is the name itself
    (bare, or in backticks); otherwise a rewritten ASCII identifier."""
    if _DHALL_SIMPLE.fullmatch(name) and name not in _DHALL_RESERVED:
        return name, True
    if _DHALL_QUOTABLE.fullmatch(name):
        return f"`{name}`", True
    return ascii_identifier(name), False


class _DhallWriter:
    def __init__(self) -> None:
        self.uses_json = False

    def type(self, t: TypeIR, indent: str) -> list[str]:
        """``t`` as Dhall type lines (one line for simple types; records and unions break)."""
        if t.kind == "array":
            inner = self.type(t.items, indent + "  ") if t.items is not None else ["JSON"]
            self.uses_json = self.uses_json or t.items is None
            lines = self._apply("List", inner, indent)
        elif t.kind == "object" and t.fields:
            lines = self.record(t.fields, indent)
        elif t.kind == "enum":
            labels = [_dhall_label(v) for v in t.values] if all(
                isinstance(v, str) for v in t.values) else []
            if labels and all(ok for _, ok in labels) and len(set(t.values)) == len(t.values):
                lines = ["< " + " | ".join(lab for lab, _ in labels) + " >"]
            else:
                lines = [_DHALL_SCALARS[t.enum_base()]]
        elif t.kind == "union" and t.options:
            alts = [(label, self.type(o, indent + "    "))
                    for o, label in zip(t.options, option_labels(t))]
            if all(len(inner) == 1 for _, inner in alts):
                lines = ["< " + " | ".join(f"{label} : {inner[0]}" for label, inner in alts)
                         + " >"]
            else:
                lines = []
                for i, (label, inner) in enumerate(alts):
                    lines += [f"{'< ' if i == 0 else indent + '| '}{label} : {inner[0]}",
                              *inner[1:]]
                lines.append(f"{indent}>")
        else:
            kind = "object" if t.kind in ("object", "union") else t.kind
            lines = [_DHALL_SCALARS.get(kind, "JSON")]
            self.uses_json = self.uses_json or lines[0] == "JSON"
        if t.nullable and t.kind not in ("null", "any"):
            lines = self._apply("Optional", lines, indent)
        return lines

    @staticmethod
    def _apply(fn: str, inner: list[str], indent: str) -> list[str]:
        """``fn T``; a multi-line ``T`` is put on the lines after ``fn``."""
        if len(inner) == 1:
            text = inner[0]
            return [f"{fn} ({text})" if " " in text and not text.startswith(("{", "<")) else
                    f"{fn} {text}"]
        return [fn, f"{indent}  {inner[0]}", *(f"  {line}" for line in inner[1:])]

    def record(self, fields: Sequence[ParamIR], indent: str) -> list[str]:
        lines: list[str] = []
        taken: set[str] = set()
        for i, f in enumerate(fields):
            label, true = _dhall_label(f.name)
            label = unique_name(label, taken)
            t = self.type(f.type, indent + "    ")
            if not f.required and not (f.type.nullable and f.type.kind not in ("null", "any")):
                t = self._apply("Optional", t, indent + "  ")
            lead = "{ " if i == 0 else ", "
            if len(t) == 1:
                lines.append(f"{indent if i else ''}{lead}{label} : {t[0]}")
            else:
                lines += [f"{indent if i else ''}{lead}{label} :", f"{indent}    {t[0]}",
                          *t[1:]]
            extra = [] if true else [f"JSON name {json_text(f.name)}"]
            if f.required and f.type.nullable and f.type.kind not in ("null", "any"):
                extra.append("required, may be null")
            doc = _describe(f, f.type, default=True, extra=extra + self._enum_note(f.type))
            lines += [f"{indent}  -- {c}" for c in doc]
        if not lines:
            return ["{}"]
        return lines + [f"{indent}}}"]

    def _enum_note(self, t: TypeIR) -> list[str]:
        if t.kind == "enum" and self.type(t, "")[0] in ("Text", "Integer", "Double", "Bool"):
            return [f"one of {value_list(t.values)}" if t.values else "no value allowed"]
        return []


@register_format(
    name="Dhall record types per tool",
    family="config",
    default_protocol="json_object",
    description=("A Dhall record with one entry per tool holding the record type of its "
                 "arguments (Optional for optional ones, union types for enums and unions, "
                 "List for arrays) and its result type; descriptions, constraints and "
                 "defaults in -- comments."),
    language="dhall",
    returns="The Dhall text.",
)
def dhall(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as one Dhall expression.

    Shape::

        { create_order =
            -- Place an order.
            { arguments =
                { customer_id : Text
                  -- The customer.
                , lines : List { sku : Text, quantity : Integer }
                , speed : Optional < standard | express >
                  -- Delivery speed. Default "standard".
                }
            , result = Double
            }
        }

    Types: ``Text``, ``Integer``, ``Double``, ``Bool``, ``List T``, records, ``Optional T``
    for optional and nullable values, ``< a | b >`` for enums of strings that are labels,
    ``< string : Text | integer : Integer >`` for unions; ``JSON`` (the Prelude's JSON type,
    imported when used) for values of any type and free-form objects, ``Optional <>`` for
    ``null``. Constraints, defaults, the values of enums Dhall cannot spell and descriptions
    are ``--`` comments under each field. Names that are not labels go in backticks;
    names with characters backticks cannot hold are rewritten and their JSON name given in
    the comment.
    """
    w = _DhallWriter()
    lines: list[str] = []
    taken: set[str] = set()
    for i, tool in enumerate(prepare(toolset, options)):
        label, true = _dhall_label(tool.name)
        label = unique_name(label, taken)
        lines.append(f"{'{' if i == 0 else ','} {label} =")
        doc = comment_lines(tool.description)
        if not true:
            doc.append(f"Tool name: {json_text(tool.name)}.")
        lines += [f"    -- {c}" for c in doc]
        args = w.record(tool.params, "        ")
        lines += ["    { arguments =", f"        {args[0]}", *args[1:]]
        if tool.returns is not None:
            result = w.type(tool.returns, "        ")
            lines += ["    , result =", f"        {result[0]}", *result[1:]]
        lines.append("    }")
    lines.append("}" if lines else "{=}")
    if w.uses_json:
        lines = [f"let JSON = {_DHALL_JSON}", "", "in  " + lines[0], *lines[1:]]
    return "\n".join(lines) + "\n"


# -- Jsonnet -------------------------------------------------------------------------------------

_JSONNET_KEYWORDS = frozenset("""
    assert else error false for function if import importstr importbin in local null
    tailstrict then self super true
    """.split())
_JSONNET_ESCAPES = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r",
                    "\b": "\\b", "\f": "\\f"}


def _jsonnet_string(text: str) -> str:
    return "'" + _escaped(text, _JSONNET_ESCAPES, lambda c: f"\\u{c:04x}") + "'"


def _jsonnet_key(key: str) -> str:
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) and key not in _JSONNET_KEYWORDS:
        return key
    return _jsonnet_string(key)


_JSONNET = Spelling(null="null", true="true", false="false", string=_jsonnet_string,
                   key=_jsonnet_key)
_LINE = 96


def _jsonnet_value(value: Any, indent: str) -> str:
    """A JSON value in Jsonnet, on one line when it fits, else one member per line."""
    flat = _JSONNET(value)
    if len(indent) + len(flat) <= _LINE or not isinstance(value, (list, dict)) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, list):
        items = [f"{inner}{_jsonnet_value(v, inner)}," for v in value]
        return "[\n" + "\n".join(items) + f"\n{indent}]"
    items = [f"{inner}{_jsonnet_key(str(k))}: {_jsonnet_value(v, inner)},"
             for k, v in value.items()]
    return "{\n" + "\n".join(items) + f"\n{indent}}}"


_JSONNET_HELPER = """\
// tool() builds one OpenAI-style function object: name, description, parameters (a JSON
// Schema object of the given properties and required names) and, when known, returns.
local tool(name, description='', properties={}, required=[], returns=null) =
  { name: name }
  + (if description == '' then {} else { description: description })
  + { parameters: { type: 'object', properties: properties }
                  + (if required == [] then {} else { required: required }) }
  + (if returns == null then {} else { returns: returns });
"""


@register_format(
    name="Jsonnet program with a tool() helper",
    family="config",
    default_protocol="json_object",
    description=("A Jsonnet program: a local tool() function with default arguments builds "
                 "each OpenAI-style function object from the tool's name, description, "
                 "property schemas, required names and return schema; evaluating it gives "
                 "the JSON Schema tool list."),
    language="jsonnet",
    returns="The Jsonnet text.",
)
def jsonnet(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a Jsonnet program.

    Shape::

        local tool(name, description='', properties={}, required=[], returns=null) = ...;

        [
          tool(
            'create_order',
            'Place an order.',
            {
              customer_id: { type: 'string', description: 'The customer.' },
              speed: { type: 'string', enum: ['standard', 'express'], default: 'standard' },
            },
            required=['customer_id'],
            returns={ type: 'number' },
          ),
        ]

    The program evaluates to the list of ``{"name", "description", "parameters",
    "returns"}`` objects the JSON Schema formats show (each property schema is
    :meth:`ParamIR.to_json_schema`). Keys that are not Jsonnet identifiers, or are keywords,
    are quoted; strings are single-quoted.
    """
    calls = []
    for tool in prepare(toolset, options):
        args = [_jsonnet_string(tool.name)]
        if tool.description:
            args.append(_jsonnet_string(tool.description))
        props = {p.name: p.to_json_schema() for p in tool.params}
        if props:
            args.append(_jsonnet_value(props, "    "))
        required = [p.name for p in tool.params if p.required]
        if required:
            args.append("required=" + _jsonnet_value(required, "    "))
        if tool.returns is not None:
            args.append("returns=" + _jsonnet_value(tool.returns.to_json_schema(), "    "))
        if not tool.description and props:
            args[1] = "properties=" + args[1]
        calls.append("  tool(\n" + "".join(f"    {a},\n" for a in args) + "  ),")
    return _JSONNET_HELPER + "\n[\n" + "\n".join(calls) + ("\n" if calls else "") + "]\n"


# -- Nix -----------------------------------------------------------------------------------------

_NIX_KEYWORDS = frozenset("if then else assert with let in rec inherit or".split())
_NIX_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_'-]*")
_NIX_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _nix_string(text: str) -> str:
    """A Nix string: ``\\``, ``"`` and ``${`` escaped, line breaks as ``\\n``."""
    out = "".join(_NIX_ESCAPES.get(ch, ch) for ch in text)
    return '"' + out.replace("${", "\\${") + '"'


def _nix_key(key: str) -> str:
    return key if _NIX_IDENT.fullmatch(key) and key not in _NIX_KEYWORDS else _nix_string(key)


_NIX = Spelling(null="null", true="true", false="false", string=_nix_string, key=_nix_key,
               number=_plain_number, list_sep=" ", open_list="[ ", close_list=" ]",
               open_map="{ ", map_sep=" ", close_map=" }", pair="{k} = {v};",
               list_item=lambda item: f"({item})" if item.startswith("-") else item)


def _nix_arg(expr: str) -> str:
    """``expr`` as a function argument or list element (in parentheses if it applies one)."""
    return f"({expr})" if " " in expr and not expr.startswith(("[", "{", '"', "(")) else expr


class _NixWriter:
    def type(self, t: TypeIR, indent: str) -> str:
        """``t`` as a ``lib.types`` expression (with ``with lib;`` in scope)."""
        text = self._base(t, indent)
        checks = self._checks(t)
        if checks:
            text = f"types.addCheck {_nix_arg(text)} (x: {' && '.join(checks)})"
        if t.nullable and t.kind not in ("null", "any"):
            text = f"types.nullOr {_nix_arg(text)}"
        return text

    def _base(self, t: TypeIR, indent: str) -> str:
        if t.kind == "string":
            return (f"types.strMatching {_nix_string(t.pattern)}" if t.pattern is not None
                    else "types.str")
        if t.kind == "integer":
            return "types.int"
        if t.kind == "number":
            return "types.number"
        if t.kind == "boolean":
            return "types.bool"
        if t.kind == "null":
            return "types.enum [ null ]"
        if t.kind == "any":
            return "types.anything"
        if t.kind == "enum":
            return f"types.enum {_NIX(list(t.values))}"
        if t.kind == "array":
            inner = self.type(t.items, indent) if t.items is not None else "types.anything"
            return f"types.listOf {_nix_arg(inner)}"
        if t.kind == "union":
            options = " ".join(_nix_arg(self.type(o, indent)) for o in t.options)
            return f"types.oneOf [ {options} ]"
        if not t.fields:
            return "types.attrs"
        return f"types.submodule {{\n{indent}  options = {self.options(t.fields, indent + '  ')};\n{indent}}}"

    @staticmethod
    def _checks(t: TypeIR) -> list[str]:
        out = []
        measure = {"min_length": "stringLength x", "max_length": "stringLength x",
                   "min_items": "length x", "max_items": "length x"}
        for attr, op in (("minimum", ">="), ("exclusive_minimum", ">"), ("maximum", "<="),
                         ("exclusive_maximum", "<"), ("min_length", ">="),
                         ("max_length", "<="), ("min_items", ">="), ("max_items", "<=")):
            value = getattr(t, attr)
            if value is not None:
                out.append(f"{measure.get(attr, 'x')} {op} {_NIX(value)}")
        return out

    def options(self, fields: Sequence[ParamIR], indent: str) -> str:
        inner = indent + "  "
        lines = ["{"]
        for f in fields:
            t = f.type
            optional_null = not f.required and not f.has_default
            lines += [f"{inner}# {c}" for c in _describe(None, t, constraints=False, extra=(
                [f"in {t.format} format"] if t.format else []) + (
                ["optional: null when not given"] if optional_null else []))]
            type_text = self.type(t, inner + "  ")
            if optional_null and not (t.nullable and t.kind not in ("null", "any")):
                type_text = f"types.nullOr {_nix_arg(type_text)}"
            attrs = [f"type = {type_text};"]
            if f.has_default or optional_null:
                attrs.append(f"default = {_NIX(f.default if f.has_default else None)};")
            if f.description:
                attrs.append(f"description = {_nix_string(f.description)};")
            body = "\n".join(f"{inner}  {a}" for a in attrs)
            lines.append(f"{inner}{_nix_key(f.name)} = mkOption {{\n{body}\n{inner}}};")
        return "\n".join(lines + [f"{indent}}}"])


@register_format(
    name="Nix module options",
    family="config",
    default_protocol="json_object",
    description=("A Nix function of { lib, ... } returning one attribute set per tool whose "
                 "options are the arguments, declared NixOS-style with mkOption: lib.types for "
                 "types (enum, listOf, submodule, nullOr, oneOf, ints.between via addCheck), "
                 "default for optional ones, description strings."),
    language="nix",
    novel=True,
    returns="The Nix text.",
)
def nix_expr(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a Nix expression in the style of NixOS module options.

    Shape::

        { lib, ... }:
        with lib;
        {
          create_order = {
            description = "Place an order.";
            options = {
              customer_id = mkOption {
                type = types.str;
                description = "The customer.";
              };
              speed = mkOption {
                type = types.enum [ "standard" "express" ];
                default = "standard";
              };
            };
            returns = types.number;
          };
        }

    As in NixOS modules, an option without ``default`` is required; an optional parameter
    without a default gets ``types.nullOr`` and ``default = null`` (a comment says so).
    Types: ``types.str`` (``types.strMatching`` with a pattern), ``types.int``,
    ``types.number``, ``types.bool``, ``types.enum [...]``, ``types.listOf``,
    ``types.submodule`` for objects, ``types.attrs`` for free-form ones,
    ``types.anything``, ``types.oneOf`` for unions; bounds, lengths and item counts are
    ``types.addCheck`` predicates; formats go to a comment. Names that are not Nix
    identifiers are quoted attribute names.
    """
    w = _NixWriter()
    lines = ["{ lib, ... }:", "with lib;", "{"]
    for tool in prepare(toolset, options):
        lines.append(f"  {_nix_key(tool.name)} = {{")
        if tool.description:
            lines.append(f"    description = {_nix_string(tool.description)};")
        lines.append(f"    options = {w.options(tool.params, '    ')};")
        if tool.returns is not None:
            lines.append(f"    returns = {w.type(tool.returns, '    ')};")
        lines.append("  };")
    return "\n".join(lines + ["}"]) + "\n"


# -- KDL -----------------------------------------------------------------------------------------

_KDL_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r",
                "\b": "\\b", "\f": "\\f"}
# code points KDL 2 does not allow unescaped in a document
_KDL_DISALLOWED = "\u2028\u2029\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067" \
                  "\u2068\u2069\ufeff\x85"


def _kdl_string(text: str) -> str:
    return '"' + _escaped(text, _KDL_ESCAPES, lambda c: f"\\u{{{c:x}}}", _KDL_DISALLOWED) + '"'


def _kdl_number(value: Any) -> str:
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return "#nan" if value != value else ("#inf" if value > 0 else "#-inf")
    return json_text(value)


_KDL = Spelling(null="#null", true="#true", false="#false", string=_kdl_string,
               key=_kdl_string, number=_kdl_number)


def _kdl_scalar(value: Any) -> str | None:
    """A KDL value for a JSON scalar; None for lists and objects (KDL values are scalars)."""
    return None if isinstance(value, (list, dict)) else _KDL(value)


def _kdl_node(lines: list[str], indent: str, head: str, t: TypeIR, p: ParamIR | None) -> None:
    kind = "enum" if t.kind == "enum" else t.kind
    # a bare word that KDL 2 reads as a keyword (null) must be quoted
    props = [f"type={kind if kind != 'null' else _kdl_string(kind)}"]
    if p is not None:
        props.append(f"required={'#true' if p.required else '#false'}")
    for attr, key in _CONSTRAINT_KEYS:
        value = getattr(t, attr)
        if value is not None:
            props.append(f"{key.replace('_', '-')}={_KDL(value)}")
    if t.nullable:
        props.append("nullable=#true")
    if t.kind == "object" and t.additional is not None:
        props.append(f"additional-properties={_KDL(t.additional)}")
    if p is not None and p.has_default:
        scalar = _kdl_scalar(p.default)
        props.append(f"default={scalar}" if scalar is not None else
                     f"default-json={_kdl_string(json_text(p.default))}")
    if p is not None and p.description:
        props.append(f"description={_kdl_string(p.description)}")
    children: list[str] = []
    inner = indent + "  "
    if t.kind == "enum":
        values = [_kdl_scalar(v) or _kdl_string(json_text(v)) for v in t.values]
        children.append(f"{inner}values {' '.join(values)}".rstrip())
    for role, child, field in _children(t):
        node = f"field {_kdl_string(field.name)}" if role == "field" else role
        _kdl_node(children, inner, node, child, field)
    line = f"{indent}{head} {' '.join(props)}"
    lines += [line + " {", *children, f"{indent}}}"] if children else [line]


@register_format(
    name="KDL nodes",
    family="config",
    default_protocol="json_object",
    description=("KDL 2 document: a `tool \"name\"` node per tool with a `param \"x\"` child "
                 "node per parameter whose properties give type, required=#true/#false, "
                 "constraints, default and description; nested fields, items, options and "
                 "enum values as child nodes."),
    language="kdl",
    novel=True,
    compressed=True,
    returns="The KDL text.",
)
def kdl(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a KDL 2 document.

    Shape::

        tool "create_order" description="Place an order." {
          param "customer_id" type=string required=#true
          param "lines" type=array required=#true min-items=1 {
            items type=object {
              field "sku" type=string required=#true
            }
          }
          param "speed" type=enum required=#false default="standard" {
            values "standard" "express"
          }
          returns type=number
        }

    ``type`` is the IR kind (quoted when it is ``null``, which KDL 2 reads as a keyword);
    constraints are properties with kebab-case keys
    (``min-length=1``); a default that is a list or object is ``default-json="..."`` (KDL
    values are scalars). Names and strings are always quoted, so any name is kept as is.
    """
    lines: list[str] = []
    for tool in prepare(toolset, options):
        head = f"tool {_kdl_string(tool.name)}"
        if tool.description:
            head += f" description={_kdl_string(tool.description)}"
        children: list[str] = []
        for p in tool.params:
            _kdl_node(children, "  ", f"param {_kdl_string(p.name)}", p.type, p)
        if tool.returns is not None:
            _kdl_node(children, "  ", "returns", tool.returns, None)
        lines += [head + " {", *children, "}"] if children else [head]
    return "\n".join(lines) + "\n"


# -- EDN -----------------------------------------------------------------------------------------

_EDN_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _edn_string(text: str) -> str:
    return '"' + _escaped(text, _EDN_ESCAPES, lambda c: f"\\u{c:04x}", "\u2028\u2029") + '"'


_EDN = Spelling(null="nil", true="true", false="false", string=_edn_string, key=_edn_string,
               list_sep=" ", map_sep=", ", pair="{k} {v}")
_EDN_PREDICATES = {"string": "string?", "integer": "int?", "number": "number?",
                   "boolean": "boolean?", "null": "nil?", "any": "any?"}


def _edn_spec(t: TypeIR, indent: str) -> str:
    """``t`` as a clojure.spec-style form (written as EDN data)."""
    if t.kind == "enum":
        unique = list(dict.fromkeys(json_text(v) for v in t.values))
        text = "#{" + " ".join(_EDN(json.loads(v)) for v in unique) + "}"
    elif t.kind == "array":
        args = [_edn_spec(t.items, indent) if t.items is not None else "any?"]
        for attr, key in (("min_items", ":min-count"), ("max_items", ":max-count")):
            if getattr(t, attr) is not None:
                args.append(f"{key} {getattr(t, attr)}")
        text = f"(s/coll-of {' '.join(args)})"
    elif t.kind == "object" and t.fields:
        text = _edn_keys(t, indent)
    elif t.kind == "object":
        text = "map?"
    elif t.kind == "union":
        parts = [f":{label} {_edn_spec(o, indent)}" for o, label in zip(t.options,
                                                                          option_labels(t))]
        text = f"(s/or {' '.join(parts)})" if parts else "any?"
    else:
        text = _EDN_PREDICATES[t.kind]
    preds = []
    for attr, op in (("minimum", ">="), ("exclusive_minimum", ">"), ("maximum", "<="),
                     ("exclusive_maximum", "<"), ("min_length", "min-length"),
                     ("max_length", "max-length")):
        if getattr(t, attr) is not None:
            preds.append(f"({op} {_EDN(getattr(t, attr))})")
    if t.pattern is not None:
        preds.append(f"(re-matches {_edn_string(t.pattern)})")
    if t.format is not None:
        preds.append(f"(format {_edn_string(t.format)})")
    if preds:
        text = f"(s/and {text} {' '.join(preds)})"
    if t.nullable and t.kind not in ("null", "any"):
        text = f"(s/nilable {text})"
    return text


def _edn_field(p: ParamIR, indent: str) -> str:
    parts = [f":name {_edn_string(p.name)}", f":spec {_edn_spec(p.type, indent + '  ')}"]
    if p.has_default:
        parts.append(f":default {_EDN(p.default)}")
    if p.description:
        parts.append(f":doc {_edn_string(p.description)}")
    return "{" + f"\n{indent} ".join(parts) + "}"


def _edn_keys(t: TypeIR, indent: str) -> str:
    inner = indent + "  "
    groups = []
    for key, fields in ((":req", [f for f in t.fields if f.required]),
                        (":opt", [f for f in t.fields if not f.required])):
        if fields:
            items = f"\n{inner}      ".join(_edn_field(f, inner + "      ") for f in fields)
            groups.append(f"{key} [{items}]")
    if t.additional is False:
        groups.append(":closed true")
    return "(s/keys" + "".join(f"\n{inner}{g}" for g in groups) + ")"


@register_format(
    name="EDN with clojure.spec predicates",
    family="config",
    default_protocol="sexpr_call",
    description=("An EDN vector of tool maps with keyword keys (:tool, :doc, :args, :ret) "
                 "whose argument specs are clojure.spec-style forms: (s/keys :req [...] :opt "
                 "[...]), predicates such as string? and int?, sets for enums, s/coll-of, "
                 "s/or, s/nilable and s/and with bounds."),
    language="edn",
    returns="The EDN text.",
)
def edn(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as EDN data.

    Shape::

        [{:tool "create_order"
          :doc "Place an order."
          :args (s/keys
                  :req [{:name "customer_id"
                         :spec string?
                         :doc "The customer."}]
                  :opt [{:name "speed"
                         :spec #{"standard" "express"}
                         :default "standard"}])
          :ret number?}]

    Specs: ``string?``, ``int?``, ``number?``, ``boolean?``, ``nil?``, ``any?``, ``map?``
    (free-form object), ``#{...}`` for enums, ``(s/coll-of T :min-count n)`` for arrays,
    ``(s/keys :req [...] :opt [...])`` for objects (each field a map with ``:name``,
    ``:spec``, ``:default``, ``:doc``), ``(s/or :string ... :object ...)`` for unions,
    ``(s/nilable T)`` for nullable types and ``(s/and T (>= 0) (max-length 20) (re-matches
    "..."))`` for constraints. Names are strings, so any name is kept as is.
    """
    items = []
    for tool in prepare(toolset, options):
        parts = [f":tool {_edn_string(tool.name)}"]
        if tool.description:
            parts.append(f":doc {_edn_string(tool.description)}")
        parts.append(f":args {_edn_keys(tool.input_type, '  ')}")
        if tool.returns is not None:
            parts.append(f":ret {_edn_spec(tool.returns, '  ')}")
        items.append("{" + "\n  ".join(parts) + "}")
    return "[" + "\n ".join(items) + "]\n"


# -- S-expressions -------------------------------------------------------------------------------

_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_SEXPR_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _sexpr_string(text: str) -> str:
    return '"' + "".join(_SEXPR_ESCAPES.get(ch, ch) for ch in text) + '"'


#: Symbols Lisp readers give a meaning of their own (``nil`` is the empty list, ``t`` true).
_SEXPR_RESERVED = frozenset({"true", "false", "null", "nil", "t"})


def _sexpr_name(name: str) -> str:
    """A name as a symbol when it reads as one, else as a string."""
    return name if _SYMBOL.fullmatch(name) and name not in _SEXPR_RESERVED else (
        _sexpr_string(name))


def _sexpr_value(value: Any) -> tuple[str, str]:
    """``(keyword suffix, text)``: a scalar as an atom, a list or object as JSON text under
    ``-json``."""
    if isinstance(value, (list, dict)):
        return "-json", _sexpr_string(json_text(value))
    if value is None or isinstance(value, bool):
        return "", {None: "null", True: "true", False: "false"}[value]
    return "", json_text(value)


def _sexpr_type(t: TypeIR, indent: str) -> str:
    args: list[str] = []
    if t.kind == "enum":
        head = "enum"
        args = [_sexpr_value(v)[1] if not isinstance(v, (list, dict)) else
                _sexpr_string(json_text(v)) for v in t.values]
    elif t.kind == "array":
        head = "array"
        args = [_sexpr_type(t.items, indent) if t.items is not None else "any"]
    elif t.kind == "object" and t.fields:
        head = "object"
        args = [f"\n{indent}  " + _sexpr_param("field", f, indent + "  ") for f in t.fields]
    elif t.kind == "union":
        head = "union"
        args = [_sexpr_type(o, indent) for o in t.options]
    else:
        head = t.kind
    for attr, key in _CONSTRAINT_KEYS:
        value = getattr(t, attr)
        if value is not None:
            args.append(f":{key.replace('_', '-')} {_sexpr_value(value)[1]}")
    if t.kind == "object" and t.additional is not None:
        args.append(f":additional-properties {_sexpr_value(t.additional)[1]}")
    text = f"({head} {' '.join(args)})".replace(" \n", "\n") if args else head
    return f"(nullable {text})" if t.nullable and t.kind not in ("null", "any") else text


def _sexpr_param(head: str, p: ParamIR, indent: str) -> str:
    parts = [head, _sexpr_name(p.name), _sexpr_type(p.type, indent),
             ":required" if p.required else ":optional"]
    if p.has_default:
        suffix, text = _sexpr_value(p.default)
        parts.append(f":default{suffix} {text}")
    if p.description:
        parts.append(_sexpr_string(p.description))
    return "(" + " ".join(parts) + ")"


@register_format(
    name="Lisp deftool forms",
    family="config",
    default_protocol="sexpr_call",
    description=("Each tool as a Lisp-style (deftool name \"doc\" (param name type :required "
                 "\"doc\") ... (returns type)) form; types are symbols or forms such as "
                 "(enum ...), (array T), (object (field ...) ...), (union ...), with "
                 ":keyword constraints."),
    language="sexpr",
    returns="The S-expression text (one form per tool).",
)
def sexpr(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as S-expressions, one ``deftool`` form per tool.

    Shape::

        (deftool create_order
          "Place an order."
          (param customer_id string :required "The customer.")
          (param lines (array (object
            (field sku string :required)
            (field quantity (integer :minimum 1) :required)) :min-items 1) :required)
          (param speed (enum "standard" "express") :optional :default "standard")
          (returns number))

    Types are the IR kinds as symbols (``string``, ``integer``, ``number``, ``boolean``,
    ``null``, ``any``, ``object``) or forms: ``(enum v ...)``, ``(array T)``, ``(object
    (field ...) ...)``, ``(union T ...)``, ``(nullable T)``, with constraints as keyword
    arguments (``(string :min-length 1)``). Atoms ``true``, ``false`` and ``null`` are the
    JSON literals; a list or object default is JSON text after ``:default-json``. A name is
    a symbol when it reads as one (letters, digits, ``_``, ``.``, ``-``) and is not a word
    Lisp readers give a meaning of their own (``nil``, ``t``, ``true``...), else a string.
    """
    forms = []
    for tool in prepare(toolset, options):
        lines = [f"(deftool {_sexpr_name(tool.name)}"]
        if tool.description:
            lines.append(f"  {_sexpr_string(tool.description)}")
        lines += [f"  {_sexpr_param('param', p, '  ')}" for p in tool.params]
        if tool.returns is not None:
            lines.append(f"  (returns {_sexpr_type(tool.returns, '  ')})")
        forms.append("\n".join(lines) + ")")
    return "\n\n".join(forms) + "\n"


# -- Starlark ------------------------------------------------------------------------------------

_STARLARK = Spelling(null="None", true="True", false="False", string=_c_string, key=_c_string)
_STARLARK_ATTRS = {"string": "attr.string", "integer": "attr.int", "number": "attr.number",
                   "boolean": "attr.bool", "null": "attr.none", "any": "attr.any"}


def _starlark_call(fn: str, kwargs: list[tuple[str, str]], indent: str) -> str:
    flat = f"{fn}({', '.join(f'{k} = {v}' for k, v in kwargs)})"
    if len(indent) + len(flat) <= _LINE and "\n" not in flat:
        return flat
    inner = indent + "    "
    return (f"{fn}(\n" + "".join(f"{inner}{k} = {v},\n" for k, v in kwargs) + f"{indent})")


def _starlark_attr(t: TypeIR, p: ParamIR | None, indent: str) -> str:
    kwargs: list[tuple[str, str]] = []
    if p is not None and p.required:
        kwargs.append(("mandatory", "True"))
    if t.kind == "enum":
        fn = _STARLARK_ATTRS[t.enum_base()]
        kwargs.append(("values", _STARLARK(list(t.values))))
    elif t.kind == "array":
        item = t.items
        plain = item is not None and item.kind in ("string", "integer") and not (
            item.constraints or item.nullable)
        fn = {"string": "attr.string_list", "integer": "attr.int_list"}[item.kind] if (
            plain and item is not None) else "attr.list"
        if not plain:
            kwargs.append(("of", _starlark_attr(item, None, indent + "    ") if item is not None
                           else "attr.any()"))
    elif t.kind == "object" and t.fields:
        fn = "attr.struct"
        kwargs.append(("fields", _starlark_fields(t.fields, indent + "    ")))
    elif t.kind == "object":
        fn = "attr.dict"
    elif t.kind == "union":
        fn = "attr.one_of"
        options = [_starlark_attr(o, None, indent + "        ") for o in t.options]
        kwargs.append(("options", "[" + ", ".join(options) + "]"))
    else:
        fn = _STARLARK_ATTRS[t.kind]
    if t.kind == "array" and t.min_items == 1 and t.max_items is None:
        kwargs.append(("allow_empty", "False"))
        constraints = [(a, k) for a, k in _CONSTRAINT_KEYS if a != "min_items"]
    else:
        constraints = list(_CONSTRAINT_KEYS)
    kwargs += [(key, _STARLARK(getattr(t, attr))) for attr, key in constraints
               if getattr(t, attr) is not None]
    if t.nullable and t.kind not in ("null", "any"):
        kwargs.append(("nullable", "True"))
    if t.kind == "object" and t.additional is not None:
        kwargs.append(("additional_properties", _STARLARK(t.additional)))
    if p is not None and p.has_default:
        kwargs.append(("default", _STARLARK(p.default)))
    if p is not None and p.description:
        kwargs.append(("doc", _c_string(p.description)))
    return _starlark_call(fn, kwargs, indent)


def _starlark_fields(fields: Sequence[ParamIR], indent: str) -> str:
    if not fields:
        return "{}"
    inner = indent + "    "
    items = [f"{inner}{_c_string(f.name)}: {_starlark_attr(f.type, f, inner)},\n"
             for f in fields]
    return "{\n" + "".join(items) + f"{indent}}}"


@register_format(
    name="Starlark (Bazel-style) rules",
    family="config",
    default_protocol="python_call",
    description=("Each tool as a Bazel-style Starlark rule(): a dict of attrs keyed by the "
                 "parameter names, each an attr.string(), attr.int(), attr.bool(), "
                 "attr.string_list()... call with mandatory=True for required ones, values= "
                 "for enums, default= and doc=; nested objects as attr.struct(fields=...)."),
    language="starlark",
    returns="The Starlark text.",
)
def starlark(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Starlark rule definitions.

    Shape::

        # Place an order.
        create_order = rule(
            doc = "Place an order.",
            attrs = {
                "customer_id": attr.string(mandatory = True, doc = "The customer."),
                "lines": attr.list(
                    mandatory = True,
                    of = attr.struct(fields = {...}),
                    allow_empty = False,
                ),
                "speed": attr.string(values = ["standard", "express"], default = "standard"),
            },
            returns = attr.number(),
        )

    Bazel's own constructors where they fit (``attr.string``, ``attr.int``, ``attr.bool``,
    ``attr.string_list``, ``attr.int_list``, with ``mandatory``, ``values``, ``default``,
    ``doc``, ``allow_empty``), and the same style for the rest: ``attr.number``,
    ``attr.struct(fields = {...})``, ``attr.list(of = ...)``, ``attr.dict()`` (a
    free-form object), ``attr.one_of(options = [...])``, ``attr.any()``, ``attr.none()``;
    constraints are keyword arguments with snake_case names (``minimum``, ``max_length``),
    ``nullable = True`` marks nullable values. Attribute names are the true names (dict
    keys); a rule's name is the tool's name as a Python identifier, with the true name in a
    comment when it differs.
    """
    blocks = []
    taken: set[str] = set()
    for tool in prepare(toolset, options):
        ident = unique_name(python_identifier(tool.name), taken)
        lines = [f"# {c}" for c in comment_lines(tool.description)]
        if ident != tool.name:
            lines.append(f"# tool name: {json_text(tool.name)}")
        kwargs = []
        if tool.description:
            kwargs.append(("doc", _c_string(tool.description)))
        kwargs.append(("attrs", _starlark_fields(tool.params, "    ")))
        if tool.returns is not None:
            kwargs.append(("returns", _starlark_attr(tool.returns, None, "    ")))
        body = "".join(f"    {k} = {v},\n" for k, v in kwargs)
        lines.append(f"{ident} = rule(\n{body})")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
