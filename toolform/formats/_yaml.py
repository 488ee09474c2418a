"""YAML formats: the JSON Schema content as block, flow, commented and anchored YAML.

``yaml_schema`` is written by PyYAML's safe dumper. The other formats are written by
:class:`YamlWriter`, a small emitter for JSON-like data (dicts, lists, strings, numbers,
booleans, null) that can put ``#`` comments above keys and anchor repeated values. It quotes
conservatively: a string stands plain only when it starts with a letter or ``_``, holds no
character YAML treats specially in block or flow context and cannot be read as a boolean or
null (``yes``, ``off``, ``null``...); every other string is double-quoted with escapes for
anything outside YAML's printable set. Floats always carry a ``.`` so YAML 1.1 readers see a
float. So ``yaml.safe_load`` of its output gives back the data exactly, and it is an order of
magnitude faster than PyYAML's pure-Python emitter.

Recursive and map types (see ``toolform.ir``): the JSON Schema formats here (``named_types``)
write a recursive type once under ``$defs`` and use it through ``$ref``, a map as
``additionalProperties``/``patternProperties``/``propertyNames``; ``yaml_minimal`` and the
OpenAPI document show a recursive type unrolled to ``RenderOptions.recursion_depth`` levels and
a map with stand-in keys.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import yaml

from ..errors import ParameterTypeError
from ..ir import Toolset
from ._common import function_entry, prepare, unique_name
from ._json import lift_descriptions, minimal_entry, openapi_document
from ._registry import RenderOptions, register_format

__all__ = ["YamlWriter", "openapi_yaml", "yaml_anchors", "yaml_documented", "yaml_flow",
           "yaml_minimal", "yaml_scalar", "yaml_schema"]


class _BlockDumper(yaml.SafeDumper):
    """A safe dumper that never writes anchors: a value shared by two tools is written twice."""

    def ignore_aliases(self, data: object) -> bool:
        return True


@register_format(
    name="JSON Schema as block YAML",
    family="yaml",
    default_protocol="json_object",
    description=("The tool definitions of the JSON Schema format (name, description, parameter "
                 "schema, return schema) written as block-style YAML, a common way to spend "
                 "fewer tokens on the same content."),
    language="yaml",
    core=True,
    named_types=True,
    returns="YAML text ending with a newline.",
)
def yaml_schema(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a block-style YAML list of tool definitions.

    Each item holds ``name``, ``description`` (when not empty), ``parameters`` (the JSON Schema
    of :meth:`ToolIR.input_schema`) and ``returns`` when known: exactly the ``function`` objects
    of ``json_schema_openai``, so ``yaml.safe_load`` of this block equals them. Keys keep their
    declaration order; no anchors or aliases are written.
    """
    entries = [function_entry(t) for t in prepare(toolset, options, named_types=True)]
    return yaml.dump(entries, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=100)


# -- a small, fast, safe YAML emitter ------------------------------------------------------------

# A string that may stand plain: a letter or "_" first, then only characters that are not YAML
# indicators in block or flow context (no , [ ] { } : # " \ and no tab).
_PLAIN = re.compile(r"[^\W\d][\w .()/+;!?'=%$~<>^@&*|-]*")
# Plain words a YAML 1.1 or 1.2 reader would take for a boolean or null.
_NOT_STRINGS = frozenset({"yes", "no", "true", "false", "on", "off", "null", "y", "n"})
# Characters a double-quoted scalar must escape: the quote, the backslash, and everything
# outside YAML's printable set or that YAML counts as a line break (NEL, LS, PS) or a BOM.
_ESCAPE = re.compile('["\\\\]|[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd'
                     '\U00010000-\U0010ffff]')
_NAMED = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\x00": "\\0"}
# Characters that may not appear raw in a comment (outside YAML's printable set).
_NOT_PRINTABLE = re.compile("[^\t\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ANCHOR_CHARS = re.compile(r"[^0-9A-Za-z_-]+")


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000
            else f"\\U{code:08x}")


def yaml_scalar(value: Any) -> str:
    """A JSON scalar as YAML text that ``yaml.safe_load`` reads back as the same value.

    ``None`` → ``null``, booleans → ``true``/``false``, integers as they are, floats with a
    ``.`` (``1.0e+20``, ``.inf``, ``.nan``), strings plain when safe (see the module docstring)
    and double-quoted otherwise.

    Raises
    ------
    TypeError
        For a value that is not a JSON scalar.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        text = repr(value)
        if "e" in text and "." not in text:  # YAML 1.1 reads 1e+20 as a string
            mantissa, exponent = text.split("e")
            text = f"{mantissa}.0e{exponent}"
        return text
    if isinstance(value, str):
        if (_PLAIN.fullmatch(value) and not value.endswith(" ")
                and value.lower() not in _NOT_STRINGS):
            return value
        return _quoted(value)
    raise ParameterTypeError(f"not a JSON scalar: {value!r}")


def _quoted(value: str) -> str:
    return '"' + _ESCAPE.sub(_escape, value) + '"'


def _flow_scalar(value: Any) -> str:
    """:func:`yaml_scalar` inside ``[ ]`` or ``{ }``, where PyYAML ends a plain scalar at
    ``?`` (``[A?]`` does not parse): such a string is quoted."""
    if isinstance(value, str) and "?" in value:
        return _quoted(value)
    return yaml_scalar(value)


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow_scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _flow_scalar(value)


class YamlWriter:
    """Writes JSON-like data as YAML, optionally with comments and anchors.

    Mappings and sequences of collections are written in block style (indent 2), sequences of
    scalars and empty collections in flow style on one line (``required: [a, b]``).

    Parameters
    ----------
    comments : dict, optional
        Path (keys and list indices from the root) → text. The text is written as ``#`` lines
        above the key or ``-`` entry at that path, one per line of the text; characters YAML
        does not allow raw become U+FFFD.
    share : bool
        Write a dict or list that occurs more than once *as the same object* once, under an
        anchor named after the key first holding it (``&address``), and an alias (``*address``)
        wherever else it occurs.
    """

    def __init__(self, comments: dict[tuple[Any, ...], str] | None = None,
                 share: bool = False) -> None:
        self.comments = comments or {}
        self.share = share

    def dump(self, data: Any) -> str:
        """``data`` as YAML text ending with a newline.

        Raises
        ------
        TypeError
            When ``data`` holds something other than dicts, lists and JSON scalars.
        """
        self._lines: list[str] = []
        self._shared = self._repeated(data) if self.share else set()
        self._anchors: dict[int, str] = {}
        self._taken: set[str] = set()
        head, nested = self._head(data, "root")
        if nested:
            self._block(data, (), 0, "root")
        else:
            self._lines.append(head.lstrip())
        return "\n".join(self._lines) + "\n"

    @staticmethod
    def _repeated(data: Any) -> set[int]:
        """Ids of the dicts and lists met more than once in a walk of ``data``."""
        seen: set[int] = set()
        again: set[int] = set()
        stack = [data]
        while stack:
            value = stack.pop()
            if not isinstance(value, (dict, list)):
                continue
            if id(value) in seen:
                again.add(id(value))
                continue
            seen.add(id(value))
            stack.extend(value.values() if isinstance(value, dict) else value)
        return again

    def _head(self, value: Any, hint: str) -> tuple[str, bool]:
        """What follows ``key:`` or ``-`` on the same line, and whether a block follows."""
        prop = ""
        if id(value) in self._shared:
            if id(value) in self._anchors:
                return f" *{self._anchors[id(value)]}", False
            name = unique_name(_ANCHOR_CHARS.sub("_", hint).strip("_") or "ref", self._taken)
            self._anchors[id(value)] = name
            prop = f" &{name}"
        if isinstance(value, dict) and value:
            return prop, True
        if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
            return prop, True
        return f"{prop} {_flow(value)}", False

    def _comment(self, path: tuple[Any, ...], pad: str) -> None:
        if path in self.comments:
            self._lines.extend(f"{pad}# {_NOT_PRINTABLE.sub(chr(0xFFFD), line)}".rstrip()
                               for line in self.comments[path].splitlines() or [""])

    def _block(self, value: Any, path: tuple[Any, ...], indent: int, hint: str) -> None:
        pad = " " * indent
        if isinstance(value, dict):
            for key, sub in value.items():
                sub_path = (*path, key)
                self._comment(sub_path, pad)
                head, nested = self._head(sub, str(key))
                self._lines.append(f"{pad}{yaml_scalar(key)}:{head}")
                if nested:
                    self._block(sub, sub_path, indent + 2, str(key))
            return
        for i, sub in enumerate(value):
            sub_path = (*path, i)
            self._comment(sub_path, pad)
            head, nested = self._head(sub, hint)
            if not nested or head:
                self._lines.append(f"{pad}-{head}")
                if nested:
                    self._block(sub, sub_path, indent + 2, hint)
                continue
            start = len(self._lines)
            self._block(sub, sub_path, indent + 2, hint)
            first = self._lines[start]
            if first.lstrip().startswith("#"):  # a comment cannot share the "-" line
                self._lines.insert(start, f"{pad}-")
            else:
                self._lines[start] = f"{pad}- {first[indent + 2:]}"


# -- the formats ---------------------------------------------------------------------------------

@register_format(
    name="JSON Schema as flow YAML",
    family="yaml",
    default_protocol="json_object",
    description=("The tool definitions of the block YAML format with each tool written on one "
                 "line in YAML's flow style, {key: value, list: [a, b]}: YAML that looks like "
                 "JSON with fewer quotes."),
    language="yaml",
    compressed=True,
    named_types=True,
    returns="YAML text, one line per tool (``[]`` for an empty toolset), ending with a newline.",
)
def yaml_flow(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as a flow mapping on one line, in a block sequence.

    The data are those of ``yaml_schema`` (``yaml.safe_load`` of both gives the same list);
    each tool is one ``- {name: ..., parameters: {...}}`` line.
    """
    tools = prepare(toolset, options, named_types=True)
    lines = [f"- {_flow(function_entry(t))}" for t in tools]
    return "\n".join(lines or ["[]"]) + "\n"


@register_format(
    name="YAML skeleton (names and types only)",
    family="yaml",
    default_protocol="json_object",
    description=("The names-and-types skeleton of the JSON skeleton format written as block "
                 "YAML: tool names, parameter names, types, enum values, nesting and required "
                 "lists, with all prose, constraints and defaults left out."),
    language="yaml",
    supports_constraints=False,
    lossy=True,
    compressed=True,
    returns="YAML text ending with a newline.",
    options_doc="Only ``include_returns`` and ``max_depth`` matter.",
)
def yaml_minimal(toolset: Toolset, options: RenderOptions) -> str:
    """Render the skeleton of ``json_minimal`` as block YAML.

    ``yaml.safe_load`` of the block equals ``json.loads`` of ``json_minimal`` for the same
    toolset and options: the same notation (a type is a kind name, ``{enum: [...]}``,
    ``{items: ...}``, ``{properties: ..., required: [...]}`` or a list of alternatives).
    """
    return YamlWriter().dump([minimal_entry(t) for t in prepare(toolset, options)])


@register_format(
    name="Block YAML with prose in comments",
    family="yaml",
    default_protocol="json_object",
    description=("The tool definitions as block YAML holding structure only, every "
                 "description moved into # comment lines over the tool or key it documents, "
                 "as in annotated Kubernetes or Ansible files."),
    language="yaml",
    named_types=True,
    returns="YAML text ending with a newline.",
)
def yaml_documented(toolset: Toolset, options: RenderOptions) -> str:
    """Render the tool definitions as block YAML with descriptions in ``#`` comments.

    The data are ``yaml_schema``'s without the descriptions
    (:func:`~toolform.formats._json.lift_descriptions`): a tool's description is written as
    ``#`` lines above its ``- name:`` entry, a property's above its key, one comment line per
    line of the description.
    """
    tools = prepare(toolset, options, named_types=True)
    data, comments = lift_descriptions([function_entry(t) for t in tools])
    return YamlWriter(comments).dump(data)


#: Sub-schemas shorter than this (as compact JSON, in characters) are written out each time in
#: ``yaml_anchors``: an anchor and its aliases would cost about as much as they save.
MIN_SHARED_CHARS = 40


def _intern(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of ``entries`` in which equal schemas of :data:`MIN_SHARED_CHARS` or more are one
    object (the first met), so that :class:`YamlWriter` anchors them."""
    canonical: dict[str, dict[str, Any]] = {}

    def schema(s: dict[str, Any]) -> dict[str, Any]:
        out = dict(s)
        for key in ("properties", "patternProperties", "$defs"):
            if key in s:
                out[key] = {name: schema(sub) for name, sub in s[key].items()}
        for key in ("items", "additionalProperties", "propertyNames"):
            if isinstance(s.get(key), dict):
                out[key] = schema(s[key])
        if "anyOf" in s:
            out["anyOf"] = [schema(sub) for sub in s["anyOf"]]
        key = json.dumps(out, sort_keys=True, ensure_ascii=False)
        return canonical.setdefault(key, out) if len(key) >= MIN_SHARED_CHARS else out

    return [{k: schema(v) if k in ("parameters", "returns") else v for k, v in entry.items()}
            for entry in entries]


@register_format(
    name="YAML with anchors for repeated schemas",
    family="yaml",
    default_protocol="json_object",
    description=("Block YAML of the tool definitions in which a sub-schema met again is not "
                 "repeated: the first copy carries an anchor (&owner) and later ones are "
                 "aliases (*owner), so shared structure costs tokens once."),
    language="yaml",
    novel=True,
    compressed=True,
    named_types=True,
    returns="YAML text ending with a newline.",
)
def yaml_anchors(toolset: Toolset, options: RenderOptions) -> str:
    """Render the tool definitions as block YAML, repeated sub-schemas as anchors and aliases.

    Every schema (a tool's parameter object, a property, array items, a union option, a return
    type) equal to one written earlier, and at least :data:`MIN_SHARED_CHARS` characters long
    as compact JSON, is written as an alias of the first, which gets an anchor named after the
    key holding it. ``yaml.safe_load`` resolves the aliases, giving exactly ``yaml_schema``'s
    data.
    """
    entries = _intern([function_entry(t) for t in prepare(toolset, options, named_types=True)])
    return YamlWriter(share=True).dump(entries)


@register_format(
    name="OpenAPI 3.1 document (YAML)",
    family="yaml",
    default_protocol="json_object",
    description=("The OpenAPI 3.1 description of the toolset (a POST operation per tool, "
                 "operationId, summary, JSON request body) written as block YAML, the way most "
                 "REST services publish theirs."),
    language="yaml",
    returns="YAML text ending with a newline.",
)
def openapi_yaml(toolset: Toolset, options: RenderOptions) -> str:
    """Render :func:`~toolform.formats._json.openapi_document` of the toolset as block YAML.

    ``yaml.safe_load`` of the block equals ``json.loads`` of ``openapi_json``.
    """
    return YamlWriter().dump(openapi_document(prepare(toolset, options)))
