"""JSON formats: JSON Schema in several vendors' shapes, JSON dialects, and stripped variants.

The full-content formats share one data shape, the flat function object of
:func:`~toolform.formats._common.function_entry` (``name``, ``description``, ``parameters``,
``returns``), and differ in how they write it: OpenAI's wrapper, Anthropic's keys, standalone
draft 2020-12 documents, OpenAPI 3.1, minified JSON, JSON Lines, JSON5, Hjson, JSONC, or one
dotted path per field. ``json_minimal``, ``json_names_params`` and ``names_only`` are the lossy
rungs of the study's schema-component ladder.

JSON5 and JSONC move every description out of the data into a ``//`` comment on the line(s)
above the value it described (:func:`lift_descriptions` says where); ``yaml_documented`` does
the same with ``#`` comments.

Recursive and map types (see ``toolform.ir``): every format here that writes JSON Schema
(``named_types``) writes a recursive type once, under ``$defs`` at the root of the schema it
belongs to, and uses it through ``{"$ref": "#/$defs/<name>"}``; a map is
``additionalProperties`` with a schema, ``patternProperties`` and ``propertyNames``. The
skeletons (``json_minimal``, ``json_names_params``), ``json_schema_draft2020``,
``json_dotted_paths`` and the OpenAPI document (whose ``$ref`` would resolve against the
document, not the schema) show a recursive type unrolled to ``RenderOptions.recursion_depth``
levels and a map with stand-in keys (``<key>``, ``<key matching the pattern P>``).
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable
from urllib.parse import quote

from ..errors import MissingDependencyError
from ..ir import ToolIR, Toolset, TypeIR
from ._common import camel_case, function_entry, prepare, summary_line, unique_name
from ._registry import RenderOptions, register_format
from ._tabular import field_rows, type_details, type_words

__all__ = [
    "hjson", "json5", "json_compact", "json_dotted_paths", "json_minimal", "json_names_params",
    "json_schema_anthropic", "json_schema_draft2020", "json_schema_flat", "json_schema_openai",
    "jsonc", "jsonl", "lift_descriptions", "minimal_entry", "names_only", "openapi_document",
    "openapi_json",
]


@register_format(
    name="JSON Schema in OpenAI's function shape",
    family="json",
    default_protocol="json_object",
    description=("A JSON list of {\"type\": \"function\", \"function\": {...}} entries whose "
                 "parameters are full JSON Schema, as sent to OpenAI-compatible APIs; the "
                 "reference every other format is compared with."),
    language="json",
    core=True,
    named_types=True,
    returns="A JSON array, one element per tool.",
)
def json_schema_openai(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as OpenAI tool definitions, pretty-printed JSON (indent 2).

    Each tool is ``{"type": "function", "function": {"name", "description", "parameters"}}``
    with ``parameters`` from :meth:`ToolIR.input_schema` (descriptions, constraints, enums,
    defaults and nested ``required`` lists kept). A known return type is added as a
    ``"returns"`` JSON Schema beside ``parameters``.
    """
    entries = [{"type": "function", "function": function_entry(t)}
               for t in prepare(toolset, options, named_types=True)]
    return json.dumps(entries, indent=2, ensure_ascii=False)


def _skeleton(t: TypeIR) -> Any:
    """A type as the skeleton's compact notation (see :func:`json_minimal`)."""
    if t.kind == "enum":
        out: Any = {"enum": list(t.values)}
    elif t.kind == "array":
        out = {"items": _skeleton(t.items) if t.items is not None else "any"}
    elif t.kind == "object" and t.fields:
        out = {"properties": {p.name: _skeleton(p.type) for p in t.fields}}
        required = [p.name for p in t.fields if p.required]
        if required:
            out["required"] = required
    elif t.kind == "union":
        out = [_skeleton(o) for o in t.options]
    else:
        out = t.kind
    if t.nullable:
        out = [*out, "null"] if isinstance(out, list) else [out, "null"]
    return out


@register_format(
    name="JSON skeleton (names and types only)",
    family="json",
    default_protocol="json_object",
    description=("Compact JSON holding only tool names, parameter names, their types, enum "
                 "values, nesting and which parameters are required; every piece of prose, "
                 "every constraint and every default is left out."),
    language="json",
    supports_constraints=False,
    lossy=True,
    compressed=True,
    core=True,
    returns="A JSON array with one tool per line.",
    options_doc="Only ``include_returns`` and ``max_depth`` matter.",
)
def json_minimal(toolset: Toolset, options: RenderOptions) -> str:
    """Render a names-and-types skeleton of the toolset as compact JSON, one tool per line.

    Each tool is ``{"name", "parameters": {name: type}, "required": [...], "returns": type}``
    (``required`` left out when empty, ``returns`` when unknown). A type is written as:

    - a string for a scalar kind (``"string"``, ``"integer"``, ``"any"``...) or a free-form
      ``"object"``;
    - ``{"enum": [values]}`` for an enum;
    - ``{"items": type}`` for an array;
    - ``{"properties": {name: type}, "required": [...]}`` for an object with fields;
    - a list of types for a union (a nullable type adds ``"null"`` to it).

    Descriptions, constraints and defaults are never shown, whatever the options say (the
    format is lossy by design); return types follow ``options.include_returns``.
    """
    lines = [json.dumps(minimal_entry(tool), ensure_ascii=False, separators=(",", ":"))
             for tool in prepare(toolset, options)]
    return "[\n" + ",\n".join(lines) + "\n]"


def minimal_entry(tool: ToolIR) -> dict[str, Any]:
    """One tool as the skeleton of :func:`json_minimal` (also written as YAML by
    ``yaml_minimal``): ``{"name", "parameters": {name: type}, "required", "returns"}``."""
    entry: dict[str, Any] = {"name": tool.name,
                             "parameters": {p.name: _skeleton(p.type) for p in tool.params}}
    required = [p.name for p in tool.params if p.required]
    if required:
        entry["required"] = required
    if tool.returns is not None:
        entry["returns"] = _skeleton(tool.returns)
    return entry


# -- JSON Schema in other shapes -----------------------------------------------------------------

@register_format(
    name="JSON Schema as bare function objects",
    family="json",
    default_protocol="json_object",
    description=("The JSON Schema content of the OpenAI format without its "
                 "{\"type\": \"function\", \"function\": ...} wrapper: a JSON list of "
                 "{name, description, parameters} objects, so the wrapper's cost can be read "
                 "off by comparison."),
    language="json",
    named_types=True,
    returns="A JSON array, one element per tool.",
)
def json_schema_flat(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a pretty-printed JSON list of bare function objects (indent 2).

    Each element is exactly the ``function`` object of ``json_schema_openai``: ``name``,
    ``description`` (when not empty), ``parameters`` (full JSON Schema) and ``returns`` when
    the return type is known.
    """
    tools = prepare(toolset, options, named_types=True)
    return json.dumps([function_entry(t) for t in tools], indent=2,
                      ensure_ascii=False)


@register_format(
    name="JSON Schema in Anthropic's tool shape",
    family="json",
    default_protocol="json_object",
    description=("Tool definitions as the Anthropic Messages API takes them: a JSON list of "
                 "{name, description, input_schema} objects; the schema content is the OpenAI "
                 "format's, only the key names differ."),
    language="json",
    named_types=True,
    returns="A JSON array, one element per tool.",
)
def json_schema_anthropic(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Anthropic tool definitions, pretty-printed JSON (indent 2).

    Each tool is ``{"name", "description", "input_schema"}`` (description left out when
    empty). Anthropic's API has no field for what a tool returns; a known return type is
    written as ``"output_schema"``, the spelling MCP uses (``outputSchema``) in snake case.
    """
    entries = []
    for tool in prepare(toolset, options, named_types=True):
        entry: dict[str, Any] = {"name": tool.name}
        if tool.description:
            entry["description"] = tool.description
        entry["input_schema"] = tool.input_schema()
        if tool.returns is not None:
            entry["output_schema"] = tool.returns.to_json_schema()
        entries.append(entry)
    return json.dumps(entries, indent=2, ensure_ascii=False)


#: The meta-schema URI of JSON Schema draft 2020-12.
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

# Keys a parameter adds beside its type (ParamIR.to_json_schema); they stay beside a "$ref".
_ANNOTATIONS = ("title", "description", "default")


def _is_object_schema(schema: dict[str, Any]) -> bool:
    return schema.get("type") in ("object", ["object", "null"]) and bool(schema.get("properties"))


def _schema_children(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The subschemas of ``schema`` a JSON Schema writer nests: properties, items, anyOf."""
    out = list(schema.get("properties", {}).values())
    if isinstance(schema.get("items"), dict):
        out.append(schema["items"])
    out.extend(schema.get("anyOf", []))
    return out


def _object_key(schema: dict[str, Any]) -> str:
    """What two object schemas must share to be one ``$defs`` entry (annotations aside)."""
    return json.dumps({k: v for k, v in schema.items() if k not in _ANNOTATIONS}, sort_keys=True)


def draft2020_document(tool: ToolIR) -> dict[str, Any]:
    """One tool as a standalone JSON Schema draft 2020-12 document for its arguments.

    The document has ``$schema``, an ``$id`` (``urn:toolform:tool:`` and the percent-encoded
    tool name), the tool name as ``title``, its description, and the argument object's
    ``type``, ``properties`` and ``required``. Every object schema (with properties) that occurs
    twice or more in the tool is written once under ``$defs`` (named in CamelCase after the
    first field holding it) and referenced with ``{"$ref": "#/$defs/Name"}``, the field's own
    title, description and default kept beside the reference. A known return type is
    ``$defs/Result``, which a ``$comment`` points out.

    Parameters
    ----------
    tool : ToolIR
        The tool (already prepared for rendering).

    Returns
    -------
    dict
        The document, keys in the order listed above.
    """
    params = tool.input_schema()
    returns = tool.returns.to_json_schema() if tool.returns is not None else None
    counts: dict[str, int] = {}
    stack = [params] + ([returns] if returns is not None else [])
    while stack:
        schema = stack.pop()
        if _is_object_schema(schema):
            key = _object_key(schema)
            counts[key] = counts.get(key, 0) + 1
        stack.extend(_schema_children(schema))
    defs: dict[str, Any] = {}
    names: dict[str, str] = {}
    taken = {"Result"} if returns is not None else set()

    def rewrite(schema: dict[str, Any], hint: str, root: bool = False) -> dict[str, Any]:
        if not root and _is_object_schema(schema) and counts[_object_key(schema)] > 1:
            key = _object_key(schema)
            if key not in names:
                names[key] = unique_name(camel_case(hint), taken)
                defs[names[key]] = rewrite({k: v for k, v in schema.items()
                                            if k not in _ANNOTATIONS}, hint, root=True)
            return {"$ref": f"#/$defs/{names[key]}",
                    **{k: schema[k] for k in _ANNOTATIONS if k in schema}}
        out = dict(schema)
        if "properties" in schema:
            out["properties"] = {name: rewrite(sub, name)
                                 for name, sub in schema["properties"].items()}
        if isinstance(schema.get("items"), dict):
            out["items"] = rewrite(schema["items"], f"{hint} item")
        if "anyOf" in schema:
            out["anyOf"] = [rewrite(sub, f"{hint} option {i}")
                            for i, sub in enumerate(schema["anyOf"], 1)]
        return out

    body = rewrite(params, tool.name, root=True)
    doc: dict[str, Any] = {"$schema": DRAFT_2020_12,
                           "$id": "urn:toolform:tool:" + quote(tool.name, safe=""),
                           "title": tool.name}
    if tool.description:
        doc["description"] = tool.description
    doc.update(body)
    if returns is not None:
        doc["$comment"] = "$defs/Result is the schema of what the tool returns."
        result = rewrite(returns, "result")
        defs = {"Result": result, **defs}
    if defs:
        doc["$defs"] = defs
    return doc


@register_format(
    name="JSON Schema draft 2020-12 documents",
    family="json",
    default_protocol="json_object",
    description=("One standalone JSON Schema 2020-12 document per tool, as a standards "
                 "validator would take it: $schema, $id, the tool name as title, and $defs "
                 "with $ref for object schemas a tool repeats."),
    language="json",
    returns="A JSON array of schema documents.",
)
def json_schema_draft2020(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a JSON list of draft 2020-12 documents (indent 2).

    Each element is :func:`draft2020_document` of one tool; every one passes
    ``Draft202012Validator.check_schema``.
    """
    return json.dumps([draft2020_document(t) for t in prepare(toolset, options)], indent=2,
                      ensure_ascii=False)


@register_format(
    name="Minified JSON Schema (OpenAI shape)",
    family="json",
    default_protocol="json_object",
    description=("The OpenAI-shaped tool list with every optional space and line break taken "
                 "out: the same content, bytes for bytes, at the smallest JSON size."),
    language="json",
    compressed=True,
    named_types=True,
    returns="One line of JSON.",
)
def json_compact(toolset: Toolset, options: RenderOptions) -> str:
    """Render ``json_schema_openai``'s content as minified JSON on one line.

    ``json.loads`` of the result equals ``json.loads`` of ``json_schema_openai``; separators
    are ``,`` and ``:`` with no space, non-ASCII characters are kept as they are.
    """
    entries = [{"type": "function", "function": function_entry(t)}
               for t in prepare(toolset, options, named_types=True)]
    return json.dumps(entries, ensure_ascii=False, separators=(",", ":"))


# -- the lossy rungs of the ladder ---------------------------------------------------------------

@register_format(
    name="Tool names alone",
    family="json",
    default_protocol="json_object",
    description=("A JSON list of the tool names, one per line, and nothing else: no "
                 "parameters, types or prose. The bottom rung of the schema-component ladder."),
    language="json",
    novel=True,
    supports_nesting=False,
    supports_enum=False,
    supports_constraints=False,
    supports_optional=False,
    supports_returns=False,
    lossy=True,
    compressed=True,
    returns="A JSON array of strings (``[]`` for an empty toolset).",
    options_doc="Only ``max_depth`` matters (the depth is checked like every format's).",
)
def names_only(toolset: Toolset, options: RenderOptions) -> str:
    """Render the tool names as a JSON array, one name per line (indent 2).

    Everything but the names is dropped, whatever the options say. It is also the first
    stage of the ``names_then_schema`` variants.
    """
    return json.dumps([t.name for t in prepare(toolset, options)], indent=2, ensure_ascii=False)


@register_format(
    name="Tool and parameter names (JSON)",
    family="json",
    default_protocol="json_object",
    description=("Per tool, its name and the names of its top-level parameters as a JSON "
                 "list: which arguments exist, with no types, requiredness, structure or prose."),
    language="json",
    novel=True,
    supports_nesting=False,
    supports_enum=False,
    supports_constraints=False,
    supports_optional=False,
    supports_returns=False,
    lossy=True,
    compressed=True,
    returns="A JSON array with one tool per line.",
    options_doc="Only ``max_depth`` matters.",
)
def json_names_params(toolset: Toolset, options: RenderOptions) -> str:
    """Render ``{"name": tool, "params": [parameter names]}`` per tool, one tool per line.

    Nested fields, types, required flags, enum values, descriptions and return types are all
    dropped, whatever the options say.
    """
    lines = [json.dumps({"name": t.name, "params": [p.name for p in t.params]},
                        ensure_ascii=False) for t in prepare(toolset, options)]
    return "[\n" + ",\n".join(lines) + "\n]" if lines else "[]"


# -- JSON dialects -------------------------------------------------------------------------------

@register_format(
    name="JSON Lines tool list",
    family="json",
    default_protocol="json_object",
    description=("One complete JSON function object per line (name, description, "
                 "parameters, returns) with no enclosing array, the NDJSON layout of logs and "
                 "datasets."),
    language="jsonl",
    named_types=True,
    returns="One line per tool, each ending with a newline (empty text for an empty toolset).",
)
def jsonl(toolset: Toolset, options: RenderOptions) -> str:
    """Render one bare function object per line (JSON Lines).

    Each line is ``json.dumps`` of the object ``json_schema_flat`` lists (default separators,
    non-ASCII kept); every line parses on its own.
    """
    return "".join(json.dumps(function_entry(t), ensure_ascii=False) + "\n"
                   for t in prepare(toolset, options, named_types=True))


Path = tuple[Any, ...]


def lift_descriptions(entries: list[dict[str, Any]]
                      ) -> tuple[list[dict[str, Any]], dict[Path, str]]:
    """Take every description out of a list of function objects, noting where each was.

    Descriptions are lifted from the tool objects and from every schema inside ``parameters``
    and ``returns`` (property schemas, array items, ``anyOf`` options, map value and key
    schemas, ``$defs``); a property that happens to be *called* ``description`` is a name, not
    prose, and stays.

    Parameters
    ----------
    entries : list of dict
        Function objects as :func:`~toolform.formats._common.function_entry` makes them.

    Returns
    -------
    data : list of dict
        Copies of ``entries`` without the descriptions.
    comments : dict
        The path of each value that had a description (list indices and keys from the root
        of ``data``, e.g. ``(0, "parameters", "properties", "city")``) to that description.
    """
    comments: dict[Path, str] = {}

    def schema(s: dict[str, Any], path: Path) -> dict[str, Any]:
        out = {k: v for k, v in s.items() if k != "description"}
        if "description" in s:
            comments[path] = s["description"]
        for key in ("properties", "patternProperties", "$defs"):
            if key in s:
                out[key] = {name: schema(sub, (*path, key, name)) for name, sub in s[key].items()}
        for key in ("items", "additionalProperties", "propertyNames"):
            if isinstance(s.get(key), dict):
                out[key] = schema(s[key], (*path, key))
        if "anyOf" in s:
            out["anyOf"] = [schema(sub, (*path, "anyOf", i)) for i, sub in enumerate(s["anyOf"])]
        return out

    data = []
    for i, entry in enumerate(entries):
        out = {k: v for k, v in entry.items() if k != "description"}
        if "description" in entry:
            comments[(i,)] = entry["description"]
        for key in ("parameters", "returns"):
            if key in entry:
                out[key] = schema(entry[key], (i, key))
        data.append(out)
    return data, comments


def _json5_string(text: str) -> str:
    return "'" + _JSON5_ESCAPE.sub(_json5_escape, text) + "'"


_JSON5_ESCAPE = re.compile("[\\\\'\x00-\x1f\x7f\u2028\u2029\ud800-\udfff]")
_JSON5_NAMED = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b",
                "\f": "\\f", "\v": "\\v"}


def _json5_escape(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _JSON5_NAMED:
        return _JSON5_NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


# An ECMAScript IdentifierName (ASCII only, so every JSON5 reader agrees) may stand unquoted.
_JSON5_BARE_KEY = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def _json5_key(key: str) -> str:
    return key if _JSON5_BARE_KEY.fullmatch(key) else _json5_string(key)


def _json_key(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


def _commented(value: Any, comments: dict[Path, str], *, key: Callable[[str], str],
               scalar: Callable[[Any], str], trailing_comma: bool) -> str:
    """``value`` as indented JSON-like text with ``//`` comment lines from ``comments``.

    A comment goes on its own line(s) above the member or element whose path it is keyed by,
    one ``//`` line per line of the description. Lists of scalars are written on one line,
    objects and other lists one member per line (indent 2).
    """

    def write(v: Any, path: Path, pad: str) -> str:
        inner = pad + "  "
        if isinstance(v, dict) and v:
            members = [(k, (*path, k), key(k) + ": ") for k in v]
            values = list(v.values())
        elif isinstance(v, list) and any(isinstance(x, (dict, list)) for x in v):
            members = [(i, (*path, i), "") for i in range(len(v))]
            values = v
        elif isinstance(v, list):
            return "[" + ", ".join(scalar(x) for x in v) + "]"
        elif isinstance(v, dict):
            return "{}"
        else:
            return scalar(v)
        lines = ["{" if isinstance(v, dict) else "["]
        for n, ((_, sub_path, lead), sub) in enumerate(zip(members, values)):
            if sub_path in comments:
                lines.extend(f"{inner}// {ln}".rstrip()
                             for ln in comments[sub_path].splitlines() or [""])
            comma = "," if trailing_comma or n < len(values) - 1 else ""
            lines.append(inner + lead + write(sub, sub_path, inner) + comma)
        lines.append(pad + ("}" if isinstance(v, dict) else "]"))
        return "\n".join(lines)

    return write(value, (), "")


def _json5_scalar(value: Any) -> str:
    return _json5_string(value) if isinstance(value, str) else json.dumps(value)


@register_format(
    name="JSON5 with comment documentation",
    family="json",
    default_protocol="json_object",
    description=("The function objects written as JSON5: unquoted keys where allowed, "
                 "single-quoted strings, trailing commas, and each description moved into a "
                 "// comment over the key it documents."),
    language="json5",
    named_types=True,
    returns="JSON5 text.",
)
def json5(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as JSON5 with descriptions in ``//`` comments.

    The data are the function objects of ``json_schema_flat`` without their descriptions
    (:func:`lift_descriptions`); each description is written as ``//`` line(s) above the tool
    or property it belongs to. Keys that are ASCII identifiers stand bare, strings are
    single-quoted (line terminators, controls and lone surrogates escaped), every member ends
    with a comma. ``json5.loads`` of the block gives the data.
    """
    tools = prepare(toolset, options, named_types=True)
    data, comments = lift_descriptions([function_entry(t) for t in tools])
    return _commented(data, comments, key=_json5_key, scalar=_json5_scalar, trailing_comma=True)


@register_format(
    name="JSONC: strict JSON plus comment lines",
    family="json",
    default_protocol="json_object",
    description=("Strict JSON structure, as in VS Code settings files, with every description "
                 "taken out of the data and written as a // comment over its key: the prose "
                 "and the structure kept apart, neither removed."),
    language="jsonc",
    named_types=True,
    returns="JSONC text.",
)
def jsonc(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as JSON with ``//`` comment lines holding the descriptions.

    Like :func:`json5` but every key and string is strict JSON and there are no trailing
    commas: removing the comment lines leaves a document ``json.loads`` reads.
    """
    tools = prepare(toolset, options, named_types=True)
    data, comments = lift_descriptions([function_entry(t) for t in tools])
    return _commented(data, comments, key=_json_key,
                      scalar=lambda v: json.dumps(v, ensure_ascii=False), trailing_comma=False)


@register_format(
    name="Hjson (human JSON)",
    family="json",
    default_protocol="json_object",
    description=("The function objects written as Hjson: no quotes around keys or plain "
                 "strings, no commas, multi-line prose in ''' blocks; a JSON superset that "
                 "reads like an indented outline."),
    language="hjson",
    named_types=True,
    returns="Hjson text.",
    raises=(("MissingDependencyError", "When the ``hjson`` package is not installed."),),
)
def hjson(toolset: Toolset, options: RenderOptions) -> str:
    """Render the function objects of ``json_schema_flat`` as Hjson.

    Written by the reference ``hjson`` package's encoder (``hjson.dumps``, non-ASCII kept), so
    ``hjson.loads`` of the block equals the data.
    """
    try:
        import hjson as hjson_lib
    except ImportError:
        raise MissingDependencyError("hjson", purpose="the hjson format") from None
    tools = prepare(toolset, options, named_types=True)
    return hjson_lib.dumps([function_entry(t) for t in tools],
                           ensure_ascii=False)


@register_format(
    name="Dotted field paths (JSON)",
    family="json",
    default_protocol="json_object",
    description=("One flat JSON object with a key per field of every tool, the nesting spelt "
                 "in the key (tool.param.field, items as [], union options as #n) and the "
                 "type, a ! for required, details and prose in the value."),
    language="json",
    novel=True,
    compressed=True,
    returns="A JSON object (``{}`` for an empty toolset).",
)
def json_dotted_paths(toolset: Toolset, options: RenderOptions) -> str:
    """Render every tool and field as one ``"path": "description"`` member of a JSON object.

    A tool's own member is ``"tool": "tool"`` (``"tool returning <type>"`` when the return
    type is known), then ``" # "`` and its description. Every parameter and nested field
    follows as ``"tool.path": "<type>[!] [<details>] # <description>"``: the type in words
    (``array of object``, ``string or null``), ``!`` when required, enum values, constraints
    and the default in brackets. Paths extend the tool name with ``.name`` per field (a name
    with ``.``, brackets, ``#``, parentheses, quotes, ``:`` or whitespace is written
    ``["name"]``), ``[]`` for array items and ``#n`` for the n-th union option; the fields of
    what the tool returns are under ``tool.(result)``. One member per line.
    """
    members: list[tuple[str, str]] = []
    for tool in prepare(toolset, options):
        kind = "tool" if tool.returns is None else f"tool returning {type_words(tool.returns)}"
        members.append((tool.name, _with_note(kind, tool.description)))
        for path, p in field_rows(tool):
            details = type_details(p)
            text = type_words(p.type) + ("!" if p.required else "")
            if details:
                text += f" [{'; '.join(details)}]"
            members.append((tool.name + path, _with_note(text, p.description)))
    if not members:
        return "{}"
    return "{\n" + ",\n".join(f"  {json.dumps(k, ensure_ascii=False)}: "
                              f"{json.dumps(v, ensure_ascii=False)}" for k, v in members) + "\n}"


def _with_note(text: str, description: str) -> str:
    return f"{text} # {' '.join(description.split())}" if description.strip() else text


# -- OpenAPI -------------------------------------------------------------------------------------

def openapi_document(tools: list[ToolIR]) -> dict[str, Any]:
    """The tools as an OpenAPI 3.1 document, one ``POST`` operation per tool.

    Each tool is the operation at ``/<percent-encoded name>`` with ``operationId`` the exact
    tool name, ``summary`` the first line of its description (and ``description`` the whole
    text when it says more), a required JSON ``requestBody`` whose schema is the tool's
    argument schema, and a ``200`` response whose JSON schema is the return type when known.
    OpenAPI 3.1 schemas are JSON Schema 2020-12, so the schemas are those of the other JSON
    formats unchanged.

    Parameters
    ----------
    tools : list of ToolIR
        The tools (already prepared for rendering), in order.

    Returns
    -------
    dict
        The document (``openapi``, ``info``, ``paths``), valid for ``openapi-spec-validator``.
    """
    paths: dict[str, Any] = {}
    for tool in tools:
        op: dict[str, Any] = {"operationId": tool.name}
        summary = summary_line(tool.description)
        if summary:
            op["summary"] = summary
        if tool.description.strip() and tool.description.strip() != summary:
            op["description"] = tool.description
        op["requestBody"] = {"required": True,
                             "content": {"application/json": {"schema": tool.input_schema()}}}
        if tool.returns is not None:
            response = {"description": "What the tool returns.",
                        "content": {"application/json": {"schema":
                                                          tool.returns.to_json_schema()}}}
        else:
            response = {"description": "The tool's result (its shape is not declared)."}
        op["responses"] = {"200": response}
        paths["/" + quote(tool.name, safe="")] = {"post": op}
    return {"openapi": "3.1.0", "info": {"title": "Tools", "version": "1.0.0"}, "paths": paths}


@register_format(
    name="OpenAPI 3.1 document (JSON)",
    family="json",
    default_protocol="json_object",
    description=("The toolset as an OpenAPI 3.1 description of a REST service, in JSON: one "
                 "POST operation per tool with its name as operationId, a summary, and the "
                 "argument schema as the JSON request body."),
    language="json",
    returns="The OpenAPI document as JSON.",
)
def openapi_json(toolset: Toolset, options: RenderOptions) -> str:
    """Render :func:`openapi_document` of the toolset as pretty-printed JSON (indent 2).
    """
    return json.dumps(openapi_document(prepare(toolset, options)), indent=2, ensure_ascii=False)
