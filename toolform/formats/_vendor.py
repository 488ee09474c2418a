"""Vendor formats: the tool listings of model families' own prompt templates and of agent
frameworks.

Each follows the convention its vendor documents or ships in its chat template (the wrapper
markers, the shape of a tool entry, the wording that introduces the list); the answer format is
left to the protocol, whose instruction ``render`` appends. Shared pieces: the OpenAI function
entry of ``_common.function_entry`` (name, description, parameters, and ``returns`` when known),
:func:`_marked_json` (JSON that cannot contain the markers around it), the Python writer of
``_code`` for the Python-shaped listings, and the compact notation of ``_common`` for the
one-line ones.

Recursive and map types (see ``toolform.ir``): the listings that embed JSON Schema
(``named_types``: Hermes, Qwen, Granite, Mistral, Llama 3, Glaive, MCP, Responses, Gorilla,
ReAct, LangChain) write a recursive type once under ``$defs`` and a map as
``additionalProperties``/``patternProperties``; the others show a recursive type unrolled to
``RenderOptions.recursion_depth`` levels and a map with stand-in keys (``<key>``).
"""

from __future__ import annotations

import json
from typing import Any
from xml.sax.saxutils import escape

from ..ir import ParamIR, ToolIR, Toolset, TypeIR
from ._code import _notes, _py_escape, _py_literal, _PythonWriter
from ._common import (COMPACT, SCHEMA_KEYWORDS, camel_case, first_sentence, function_entry,
                      json_text, one_line, param_doc, prepare, python_identifier, split_domain,
                      unique_name, xml_safe)
from ._registry import RenderOptions, register_format

__all__ = ["command_r_tools", "dspy_signature", "glaive_tools", "gorilla_api", "granite_tools",
           "hermes_tools", "langchain_tools", "llama3_tools", "mcp_manifest", "mistral_tools",
           "openai_responses", "qwen_tools", "react_tools", "toolformer_inline",
           "watt_tool_tags", "xlam_tools"]

def _marked_json(value: Any, markers: tuple[str, ...], indent: int | None = None) -> str:
    """``value`` as JSON in which none of ``markers`` (the tags or control tokens around it)
    can appear: inside a string, the first character of a marker is written as a ``\\u``
    escape, which JSON reads back as the same character. Everything else is left as the
    vendor's template writes it (non-ASCII and ``<``, ``&`` unescaped)."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    for marker in markers:
        text = text.replace(marker, f"\\u{ord(marker[0]):04x}{marker[1:]}")
    return text


def _chat_entries(tools: list[ToolIR]) -> list[dict[str, Any]]:
    """Chat-completions tool objects: ``{"type": "function", "function": {...}}``."""
    return [{"type": "function", "function": function_entry(t)} for t in tools]


def _shape_flags(default_protocol: str, **extra: Any) -> dict[str, Any]:
    """Registration flags every format here shares (family, the study's default protocol)."""
    return {"family": "vendor", "default_protocol": default_protocol, **extra}


# -- tag-wrapped JSON (Hermes, Qwen, Granite) and control tokens (Mistral) ----------------------

@register_format(
    name="Hermes function signatures in <tools> tags",
    description=("NousResearch Hermes' function-calling system prompt: the model is told it "
                 "gets function signatures inside <tools></tools> XML tags, then one "
                 "OpenAI-style function JSON per line inside the tags."),
    **_shape_flags("tool_call_tags"),
    named_types=True,
    returns="The preamble and the ``<tools>`` element.",
)
def hermes_tools(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as the Hermes system prompt's tool section.

    Shape::

        You are a function calling AI model. You are provided with function signatures
        within <tools></tools> XML tags. You may call one or more functions to assist with
        the user query. Don't make assumptions about what values to plug into functions.
        Here are the available tools:
        <tools>
        {"type": "function", "function": {"name": ..., "parameters": {...}, "return": {...}}}
        </tools>

    One chat-completions tool object per line; a known return type goes in ``"return"``, the
    key Hermes 3's template reads. A ``<tools>`` or ``</tools>`` inside a description is
    written with ``\\u003c``, so the tags stay balanced whatever the text says.
    """
    entries = _chat_entries(prepare(toolset, options, named_types=True))
    for entry in entries:
        if "returns" in entry["function"]:
            entry["function"]["return"] = entry["function"].pop("returns")
    lines = [_marked_json(e, ("<tools>", "</tools>")) for e in entries]
    return "\n".join(["You are a function calling AI model. You are provided with function "
                      "signatures within <tools></tools> XML tags. You may call one or more "
                      "functions to assist with the user query. Don't make assumptions about "
                      "what values to plug into functions. Here are the available tools:",
                      "<tools>", *lines, "</tools>"])


@register_format(
    name="Qwen # Tools section",
    description=("The tool section of Qwen's chat template: a '# Tools' heading, a sentence "
                 "saying that function signatures are given within <tools></tools> XML tags, "
                 "and one OpenAI-style tool JSON per line inside the tags."),
    **_shape_flags("tool_call_tags"),
    named_types=True,
    returns="The section.",
)
def qwen_tools(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as the ``# Tools`` section of Qwen's chat template.

    Shape::

        # Tools

        You may call one or more functions to assist with the user query.

        You are provided with function signatures within <tools></tools> XML tags:
        <tools>
        {"type": "function", "function": {"name": ..., "description": ..., "parameters": {...}}}
        </tools>

    One chat-completions tool object per line (a known return type as ``"returns"``); the
    tags are kept out of the JSON as in :func:`hermes_tools`.
    """
    lines = [_marked_json(e, ("<tools>", "</tools>"))
             for e in _chat_entries(prepare(toolset, options, named_types=True))]
    return "\n".join(["# Tools", "", "You may call one or more functions to assist with the user "
                      "query.", "", "You are provided with function signatures within "
                      "<tools></tools> XML tags:", "<tools>", *lines, "</tools>"])


@register_format(
    name="Granite tool-marker JSON list",
    description=("IBM Granite's convention: the <|tool|> control marker followed by a JSON "
                 "array of function objects (name, description, parameters), indented by "
                 "four spaces."),
    **_shape_flags("tool_call_tags"),
    named_types=True,
    returns="The marker and the array.",
)
def granite_tools(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a Granite ``<|tool|>`` block.

    Shape: ``<|tool|>`` on its own line, then a JSON array (indent 4) of function objects
    ``{"name", "description", "parameters", "returns"}`` (``returns`` when known). A
    ``<|tool|>`` inside a string is written with ``\\u003c``, so the marker appears once.
    """
    functions = [function_entry(t) for t in prepare(toolset, options, named_types=True)]
    return "<|tool|>\n" + _marked_json(functions, ("<|tool|>",), indent=4)


@register_format(
    name="Mistral available-tools control tokens",
    description=("Mistral's control-token listing: the OpenAI-style tool array as one line of "
                 "JSON between [AVAILABLE_TOOLS] and [/AVAILABLE_TOOLS], as the v3 tokenizer "
                 "writes it."),
    **_shape_flags("json_array"),
    named_types=True,
    returns="One line.",
)
def mistral_tools(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset between Mistral's ``[AVAILABLE_TOOLS]`` control tokens.

    Shape: ``[AVAILABLE_TOOLS] [{"type": "function", "function": {...}}, ...][/AVAILABLE_TOOLS]``
    on one line (a known return type as ``"returns"``). A ``[`` opening either control token
    inside a string is written ``\\u005b``, so neither token can appear inside the JSON.
    """
    text = _marked_json(_chat_entries(prepare(toolset, options, named_types=True)),
                        ("[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]"))
    return f"[AVAILABLE_TOOLS] {text}[/AVAILABLE_TOOLS]"


# -- plain JSON listings --------------------------------------------------------------------------

@register_format(
    name="Llama 3 JSON function list",
    description=("The Llama 3.1/3.2 tool-calling prompt: 'Here is a list of functions in JSON "
                 "format that you can invoke.' followed by the OpenAI-style tool list, "
                 "pretty-printed with an indent of four."),
    **_shape_flags("json_object"),
    named_types=True,
    returns="The sentence and the JSON.",
)
def llama3_tools(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Llama 3's JSON function list.

    Shape: the sentence ``Here is a list of functions in JSON format that you can invoke.``,
    a blank line, then a JSON array (indent 4) of chat-completions tool objects (a known
    return type as ``"returns"``), as Meta's template writes them with ``tojson(indent=4)``.
    """
    entries = _chat_entries(prepare(toolset, options, named_types=True))
    return ("Here is a list of functions in JSON format that you can invoke.\n\n"
            + json.dumps(entries, ensure_ascii=False, indent=4))


@register_format(
    name="Glaive function block",
    description=("The Glaive function-calling datasets' system prompt: 'You are a helpful "
                 "assistant with access to the following functions. Use them if required -' "
                 "then each function's JSON object, indented by four, one after another."),
    **_shape_flags("json_object"),
    named_types=True,
    returns="The sentence and the objects.",
)
def glaive_tools(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Glaive's system prompt.

    Shape: ``You are a helpful assistant with access to the following functions. Use them
    if required -`` then, for each tool, its function object ``{"name", "description",
    "parameters", "returns"}`` as JSON indented by four, the objects following one another
    (not in an array) as in the datasets.
    """
    objects = [json.dumps(function_entry(t), ensure_ascii=False, indent=4)
               for t in prepare(toolset, options, named_types=True)]
    return "\n".join(["You are a helpful assistant with access to the following functions. "
                      "Use them if required -", *objects])


def _mcp_entry(tool: ToolIR) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": tool.name}
    if tool.title:
        entry["title"] = tool.title
    entry["description"] = tool.description
    entry["inputSchema"] = tool.input_schema()
    if tool.returns is not None:
        entry["outputSchema"] = tool.returns.to_json_schema()
    return entry


@register_format(
    name="MCP tools/list result",
    description=("The result of an MCP tools/list request as a server sends it: "
                 "{\"tools\": [...]} with each tool's name, title, description, inputSchema "
                 "and outputSchema, pretty-printed JSON."),
    language="json",
    **_shape_flags("json_object"),
    named_types=True,
    returns="A JSON object.",
)
def mcp_manifest(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as an MCP ``tools/list`` result.

    Shape: ``{"tools": [{"name", "title", "description", "inputSchema", "outputSchema"}]}``
    (indent 2); ``title`` only when the tool has one, ``outputSchema`` (the return type's
    JSON Schema) only when it is known. ``toolform.io.from_mcp`` loads it back to the same
    toolset.
    """
    tools = [_mcp_entry(t) for t in prepare(toolset, options, named_types=True)]
    return json.dumps({"tools": tools}, ensure_ascii=False, indent=2)


@register_format(
    name="OpenAI Responses API tools",
    description=("The tools array of an OpenAI Responses API request: flat function objects "
                 "{type, name, description, parameters, strict} without the 'function' "
                 "wrapper of Chat Completions, pretty-printed JSON."),
    language="json",
    **_shape_flags("json_object"),
    named_types=True,
    returns="A JSON array.",
)
def openai_responses(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Responses API function tools.

    Shape: ``[{"type": "function", "name", "description", "parameters", "strict": false}]``
    (indent 2), ``parameters`` the full JSON Schema; a known return type is added as
    ``"returns"`` (the API has no field for it). ``strict`` is false, so the schema is shown
    as declared (strict mode would rewrite optional parameters as required nullable ones).
    ``toolform.io.from_responses`` loads it back.
    """
    entries = []
    for tool in prepare(toolset, options, named_types=True):
        entry: dict[str, Any] = {"type": "function", "name": tool.name,
                                 "description": tool.description,
                                 "parameters": tool.input_schema(), "strict": False}
        if tool.returns is not None:
            entry["returns"] = tool.returns.to_json_schema()
        entries.append(entry)
    return json.dumps(entries, ensure_ascii=False, indent=2)


_XLAM_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool",
                 "null": "None", "any": "Any", "object": "dict"}


def _xlam_type(t: TypeIR) -> str:
    """The Python-style type string of the xLAM data: ``str``, ``List[int]``, ``Union[str,
    int]``, ``Optional[int]``."""
    if t.kind == "enum":
        text = _XLAM_SCALARS[t.enum_base()]
    elif t.kind == "array":
        text = f"List[{_xlam_type(t.items) if t.items is not None else 'Any'}]"
    elif t.kind == "union":
        text = f"Union[{', '.join(_xlam_type(o) for o in t.options)}]" if t.options else "Any"
    else:
        text = _XLAM_SCALARS[t.kind]
    return f"Optional[{text}]" if t.nullable and t.kind != "null" else text


def _xlam_details(t: TypeIR) -> dict[str, Any]:
    """What the type string cannot say: enum values, constraints, fields, items, options."""
    out: dict[str, Any] = {}
    if t.kind == "enum":
        out["enum"] = list(t.values)
    out.update({key: getattr(t, attr) for attr, key in SCHEMA_KEYWORDS
                if getattr(t, attr) is not None})
    if t.kind == "object" and t.fields:
        out["properties"] = {f.name: _xlam_param(f) for f in t.fields}
    if t.kind == "object" and t.additional is not None:
        out["additionalProperties"] = t.additional
    if t.kind == "array" and t.items is not None:
        items = {"type": _xlam_type(t.items), **_xlam_details(t.items)}
        if len(items) > 1 or t.items.kind in ("object", "array", "union", "enum"):
            out["items"] = items
    if t.kind == "union" and any(_xlam_details(o) for o in t.options):
        out["anyOf"] = [{"type": _xlam_type(o), **_xlam_details(o)} for o in t.options]
    return out


def _xlam_param(p: ParamIR) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if p.description:
        out["description"] = p.description
    out["type"] = _xlam_type(p.type) + ("" if p.required else ", optional")
    if p.has_default:
        out["default"] = p.default
    out.update(_xlam_details(p.type))
    return out


@register_format(
    name="xLAM available-tools block",
    description=("Salesforce xLAM's prompt section: a JSON list between [BEGIN OF AVAILABLE "
                 "TOOLS] and [END OF AVAILABLE TOOLS], each tool with a parameters dict of "
                 "Python-style types ('str', 'List[int]', 'int, optional'), descriptions and "
                 "defaults, as in the APIGen data."),
    **_shape_flags("json_array"),
    returns="The section.",
)
def xlam_tools(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as xLAM's available-tools section.

    Shape::

        [BEGIN OF AVAILABLE TOOLS]
        [{"name": "get_weather", "description": "...", "parameters": {"city": {"description":
          "...", "type": "str"}, "unit": {"type": "str, optional", "default": "c", "enum":
          ["c", "f"]}}}]
        [END OF AVAILABLE TOOLS]

    (the JSON on one line). Each parameter has ``description``, ``type`` (Python-style,
    ``", optional"`` appended for an optional one), ``default``, and what the type string
    cannot say with JSON Schema's keywords: ``enum``, the constraints, ``properties`` (the
    fields of an object, each in the same shape), ``items`` and ``anyOf`` (structured list
    items and union options). A known return type is added as ``"returns"`` in the same
    shape.
    """
    tools = []
    for tool in prepare(toolset, options):
        entry: dict[str, Any] = {"name": tool.name, "description": tool.description,
                                 "parameters": {p.name: _xlam_param(p) for p in tool.params}}
        if tool.returns is not None:
            entry["returns"] = {"type": _xlam_type(tool.returns), **_xlam_details(tool.returns)}
        tools.append(entry)
    return "\n".join(["[BEGIN OF AVAILABLE TOOLS]", json.dumps(tools, ensure_ascii=False),
                      "[END OF AVAILABLE TOOLS]"])


def _api_call(tool: ToolIR) -> str:
    """``name(city=<string>, unit="c")``: required arguments with their type, optional ones
    with their default (``None`` when they have none)."""
    args = [f"{p.name}=<{COMPACT.type(p.type)}>" if p.required
            else f"{p.name}={json_text(p.default) if p.has_default else 'None'}"
            for p in tool.params]
    return f"{tool.name}({', '.join(args)})"


@register_format(
    name="Gorilla API records",
    description=("Gorilla's APIBench record shape, one JSON record per line: domain, "
                 "api_name, an api_call template, api_arguments (the JSON Schema), "
                 "functionality and description; an API catalogue rather than signatures."),
    language="jsonl",
    **_shape_flags("python_call"),
    named_types=True,
    returns="JSON Lines.",
)
def gorilla_api(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as a Gorilla-style API record, one JSON object per line.

    Record: ``{"domain", "api_name", "api_call", "api_arguments", "functionality",
    "description", "returns"}``. ``domain`` is the first word of the name
    (``_common.split_domain``); ``api_call`` a call template, required arguments as
    ``<type>`` and optional ones with their default; ``api_arguments`` the full JSON Schema of
    the parameters; ``functionality`` the description's first sentence; ``returns`` the
    return type's JSON Schema, when known. Empty fields are left out.
    """
    lines = []
    for tool in prepare(toolset, options, named_types=True):
        record: dict[str, Any] = {"domain": split_domain(tool.name)[0], "api_name": tool.name,
                                  "api_call": _api_call(tool),
                                  "api_arguments": tool.input_schema()}
        if tool.description:
            record["functionality"] = first_sentence(tool.description)
            record["description"] = tool.description
        if tool.returns is not None:
            record["returns"] = tool.returns.to_json_schema()
        lines.append(json.dumps(record, ensure_ascii=False))
    return "\n".join(lines)


# -- one line per tool (ReAct, LangChain, watt-tool, Toolformer) --------------------------------

def _describe(tool: ToolIR) -> str:
    return one_line(tool.description)


@register_format(
    name="ReAct agent tool lines",
    description=("The classic ReAct agent prompt: 'You have access to the following tools:' "
                 "then one line per tool, 'name: description, args: {JSON Schema}', and the "
                 "list of valid tool names."),
    **_shape_flags("react"),
    named_types=True,
    returns="The listing.",
)
def react_tools(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a ReAct prompt's tool list.

    Shape::

        You have access to the following tools:

        get_weather: Current weather for a city., args: {"type": "object", "properties": ...}
        add: Add two integers., args: {...}, returns: {"type": "integer"}

        Valid tool names: get_weather, add

    ``args`` is the full JSON Schema of the parameters on one line (so required parameters
    are listed), ``returns`` the return type's JSON Schema when known; descriptions are put
    on one line, and a tool with none is written ``name, args: ...``.
    """
    tools = prepare(toolset, options, named_types=True)
    lines = []
    for tool in tools:
        head = f"{tool.name}: {_describe(tool)}" if tool.description else tool.name
        line = f"{head}, args: {json_text(tool.input_schema())}"
        if tool.returns is not None:
            line += f", returns: {json_text(tool.returns.to_json_schema())}"
        lines.append(line)
    return "\n".join(["You have access to the following tools:", "", *lines, "",
                      "Valid tool names: " + ", ".join(t.name for t in tools)])


@register_format(
    name="LangChain text description with args",
    description=("LangChain's render_text_description_and_args: one line per tool, 'name - "
                 "description, args: {...}', the args written as a Python dict literal of "
                 "the parameters' JSON Schema."),
    **_shape_flags("react"),
    named_types=True,
    returns="One line per tool.",
)
def langchain_tools(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as LangChain's ``render_text_description_and_args`` does.

    Shape: ``get_weather - Current weather for a city., args: {'type': 'object',
    'properties': {'city': {'type': 'string'}}, 'required': ['city']}`` per line. The args
    are the Python ``repr`` of the parameters' JSON Schema, as LangChain prints ``tool.args``;
    the whole input schema rather than its properties alone, so required parameters are not
    lost. A known return type follows as ``, returns: {...}`` in the same spelling; a tool
    with no description is written ``name, args: ...``.
    """
    lines = []
    for tool in prepare(toolset, options, named_types=True):
        head = f"{tool.name} - {_describe(tool)}" if tool.description else tool.name
        line = f"{head}, args: {tool.input_schema()!r}"
        if tool.returns is not None:
            line += f", returns: {tool.returns.to_json_schema()!r}"
        lines.append(line)
    return "\n".join(lines)


def _signature_line(tool: ToolIR) -> str:
    """The compact signature, then the descriptions of the tool and its parameters."""
    docs = " ".join(filter(None, [_describe(tool), *(f"{p.name}: {param_doc(p)}"
                                                     for p in tool.params if param_doc(p))]))
    signature = COMPACT.signature(tool)
    return f"{signature} — {docs}" if docs else signature


@register_format(
    name="Compact tool tags",
    description=("A compact listing as small tool-tuned models use it: one <tool> line per "
                 "tool inside a <tools> block, each a typed signature followed by the "
                 "descriptions; no JSON."),
    language="xml",
    **_shape_flags("python_call", compressed=True),
    returns="The ``<tools>`` element.",
)
def watt_tool_tags(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as one-line ``<tool>`` tags inside ``<tools>``.

    Shape::

        <tools>
        <tool>get_weather(city: string, unit?: "c"|"f") -&gt; integer — Weather. city: A city.</tool>
        </tools>

    Each line is the compact signature (``_common.CompactNotation``: nested fields inline,
    ``?`` for optional keys, constraints, defaults, return type) and the descriptions of the
    tool and of each parameter with its nested fields. The text is XML-escaped, so the block
    is a well-formed XML document.
    """
    lines = [f"<tool>{escape(xml_safe(_signature_line(t)))}</tool>"
             for t in prepare(toolset, options)]
    return "\n".join(["<tools>", *lines, "</tools>"])


@register_format(
    name="Toolformer inline APIs",
    description=("Toolformer's framing: APIs are called inline in the text as "
                 "[name(arguments)] and replaced by their result; each API is shown with that "
                 "bracketed call, typed, and a short description of it and its arguments."),
    **_shape_flags("bracket_call"),
    returns="The introduction and one entry per tool, separated by blank lines.",
)
def toolformer_inline(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Toolformer-style inline APIs.

    Shape::

        You can call an API anywhere in your text by writing [API(arguments)]; the call is
        replaced by its result. The APIs:

        [get_weather(city: string, unit?: "c"|"f" = "c")] -> integer
          Current weather for a city.
          city: City name.

    The bracketed call is the compact signature; below it, the description and one
    ``name: description`` line per described parameter (nested fields' descriptions
    included).
    """
    entries = ["You can call an API anywhere in your text by writing [API(arguments)]; the "
               "call is replaced by its result. The APIs:"]
    for tool in prepare(toolset, options):
        call = f"[{tool.name}({', '.join(COMPACT.field(p) for p in tool.params)})]"
        if tool.returns is not None:
            call += f" -> {COMPACT.type(tool.returns)}"
        lines = [call] + ([f"  {_describe(tool)}"] if tool.description else [])
        lines += [f"  {p.name}: {param_doc(p)}" for p in tool.params if param_doc(p)]
        entries.append("\n".join(lines))
    return "\n\n".join(entries)


# -- Python-shaped listings (Command R, DSPy) ---------------------------------------------------

def _docstring(text: str, indent: str) -> str:
    """A triple-quoted docstring holding ``text`` (escaped), closing quotes on their own line."""
    lines = _py_escape(text).split("\n")
    body = [lines[0], *(f"{indent}{line}" if line else "" for line in lines[1:])]
    return f'{indent}"""' + "\n".join(body) + f'\n{indent}"""'


def _arguments(tool: ToolIR) -> list[tuple[ParamIR, str]]:
    """Each parameter with its Python name (required ones first, each group in order)."""
    taken: set[str] = set()
    ordered = sorted(tool.params, key=lambda p: not p.required)
    return [(p, unique_name(python_identifier(p.name), taken)) for p in ordered]


def _command_r_tool(tool: ToolIR) -> str:
    writer = _PythonWriter()
    ident = unique_name(python_identifier(tool.name), writer.taken)
    classes: list[str] = []
    args, docs = [], []
    for p, arg in _arguments(tool):
        ann = writer.annotation(p.type, [ident, p.name], classes)
        if p.required:
            args.append(f"{arg}: {ann}")
        elif p.has_default:
            args.append(f"{arg}: {ann} = {_py_literal(p.default)}")
        else:
            args.append(f"{arg}: {ann}{'' if ann.endswith('None') else ' | None'} = None")
        rename = f"Its name in a call is `{p.name}`." if arg != p.name else ""
        note = " ".join(filter(None, [_notes(p, [], _py_literal), rename]))
        docs.append(f"    {arg} ({ann}): {one_line(note)}" if note else f"    {arg} ({ann})")
    returns = "Any"
    if tool.returns is not None:
        returns = writer.annotation(tool.returns, [ident, "result"], classes)
    else:
        writer.imports.add("Any")
    sections = [tool.description.strip()] if tool.description else []
    if ident != tool.name:
        sections.append(f"Tool name: {tool.name}")
    if docs:
        sections.append("\n".join(["Args:", *docs]))
    head = [f"from typing import {', '.join(sorted(writer.imports))}"] if writer.imports else []
    code = [f"def {ident}({', '.join(args)}) -> {returns}:",
            _docstring("\n\n".join(sections), "    "), "    pass"]
    return "```python\n" + "\n\n\n".join([*head, *classes, "\n".join(code)]) + "\n```"


@register_format(
    name="Command R Python tool definitions",
    description=("Cohere Command R's tool section: '## Available Tools' and each tool as a "
                 "typed Python function in its own python code fence, with a docstring giving "
                 "the description and an Args list of 'name (type): description' lines."),
    language="markdown",
    **_shape_flags("json_array"),
    returns="The section (Markdown with Python fences).",
)
def command_r_tools(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as Command R's ``## Available Tools`` section.

    Shape::

        ## Available Tools
        Here is a list of tools that you have available to you:

        ```python
        from typing import Literal


        def get_weather(city: str, unit: Literal["c", "f"] = "c") -> int:
            \"\"\"Current weather for a city.

            Args:
                city (str): City name.
                unit (Literal["c", "f"]): Unit. Defaults to "c".
            \"\"\"
            pass
        ```

    Each fence is a valid Python module: the ``typing`` imports it needs, ``TypedDict``
    classes for nested objects (from the ``python_stub`` writer), and the function (required
    arguments first). A name Python cannot spell gets a valid identifier, with the true name
    in the docstring (``Tool name: math.factorial``; ``Its name in a call is `class`.``).
    """
    fences = [_command_r_tool(t) for t in prepare(toolset, options)]
    return "\n\n".join(["## Available Tools\nHere is a list of tools that you have available "
                        "to you:", *fences])


def _dspy_field(kind: str, p: ParamIR | None, arg: str, ann: str, alias: str | None) -> str:
    kwargs = []
    if p is not None:
        note = _notes(p, [] if p.required else ["optional"], _py_literal)
        if note:
            kwargs.append(f"desc={_py_literal(one_line(note))}")
        if not p.required:
            kwargs.append(f"default={_py_literal(p.default) if p.has_default else 'None'}")
    if alias is not None:
        kwargs.append(f"alias={_py_literal(alias)}")
    return f"    {arg}: {ann} = dspy.{kind}({', '.join(kwargs)})"


def _dspy_class(tool: ToolIR, writer: _PythonWriter) -> str:
    name = unique_name(camel_case(tool.name), writer.taken)
    classes: list[str] = []
    fields = []
    arguments = _arguments(tool)
    for p, arg in arguments:
        ann = writer.annotation(p.type, [name, p.name], classes)
        if not p.required and not p.has_default and not ann.endswith("None"):
            ann += " | None"
        fields.append(_dspy_field("InputField", p, arg, ann,
                                  p.name if arg != p.name else None))
    if tool.returns is not None:
        out = unique_name("result", {arg for _, arg in arguments})
        ann = writer.annotation(tool.returns, [name, "result"], classes)
        fields.append(_dspy_field("OutputField", None, out, ann, None))
    doc = "\n\n".join(filter(None, [tool.description.strip(), f"Tool name: {tool.name}"]))
    body = [f"class {name}(dspy.Signature):", _docstring(doc, "    ")]
    if fields:
        body += ["", *fields]
    return "\n\n\n".join([*classes, "\n".join(body)])


@register_format(
    name="DSPy signatures",
    description=("Each tool as a DSPy Signature class: the description and the tool's name "
                 "in the docstring, one typed dspy.InputField per parameter with its "
                 "description, constraints and default, and a dspy.OutputField for the result."),
    language="python",
    **_shape_flags("key_value_call"),
    returns="Python source: the imports, then the classes.",
)
def dspy_signature(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a Python module of DSPy signature classes.

    Per tool::

        class GetWeather(dspy.Signature):
            \"\"\"Current weather for a city.

            Tool name: get_weather
            \"\"\"

            city: str = dspy.InputField(desc="City name.")
            unit: Literal["c", "f"] = dspy.InputField(desc="Optional.", default="c")
            result: int = dspy.OutputField()

    The class is the tool name in CamelCase; the true name is in the docstring. Types come
    from the ``python_stub`` writer (``Literal``, ``list[...]``, ``TypedDict`` classes for
    nested objects, defined before the class). An optional input has a ``default`` (``None``
    when it declares none); a name Python cannot spell as an attribute gets a valid one and
    ``alias="true-name"``. The output field is there only when the return type is known. The
    module passes ``ast.parse``.
    """
    writer = _PythonWriter()
    writer.taken.add("dspy")
    classes = [_dspy_class(t, writer) for t in prepare(toolset, options)]
    head = ["import dspy"]
    if writer.imports:
        head.append(f"from typing import {', '.join(sorted(writer.imports))}")
    return "\n\n\n".join(["\n".join(head), *classes]) + "\n"
