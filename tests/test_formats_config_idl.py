"""Validity of the config, IDL, grammar and markup formats in their own languages (issue 3.4).

Every format is rendered over the tier fixtures (tiers 1 to 5 and the awkward toolset) and over
every real MCP capture, then read back: with the language's real parser where one exists
(tomllib, configparser, python-hcl2, ckdl, edn_format, sexpdata, jsonnet, ast and tree-sitter
for Starlark and Nix, proto-schema-parser, thriftpy2, fastavro, graphql-core, defusedxml, lxml,
xmlschema, tree-sitter for Smithy, Cap'n Proto, Markdown and Bash), otherwise with a grammar of
the notation written here (CUE, Dhall, WIT, FlatBuffers, typed lambda, symbolic) or checked
as the notation is defined (EBNF and GBNF converted to Lark and run on gold calls; regular
expressions compiled and matched). From what the reader gives back each test checks that every
tool and parameter appears under its true name, top-level required flags, and nested names.
"""

from __future__ import annotations

import ast
import configparser
import functools
import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any, Iterator

import pytest
from defusedxml import ElementTree as SafeET

from toolform.formats import get_format, render_block
from toolform.formats._idl import kebab_name
from toolform.ir import ParamIR, ToolCall, ToolIR, Toolset, TypeIR
from toolform.protocols import get_protocol

import toolsets

ROOT = Path(__file__).resolve().parents[1]
CASES = toolsets.CASES
load_case = toolsets.load_case


@functools.lru_cache(maxsize=None)
def rendered(fmt: str, case: str) -> str:
    return render_block(load_case(case), fmt)


def tree_sitter_errors(language: str, text: str) -> list[str]:
    """The ERROR and MISSING nodes tree-sitter finds in ``text`` (empty when it parses)."""
    from tree_sitter_language_pack import get_parser

    tree = get_parser(language).parse(text.encode())
    out, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            out.append(f"{node.type} at {node.start_point}: {node.text[:60]!r}")
        stack.extend(node.children)
    return out


# -- what the IR says should be there ------------------------------------------------------------

def nested_types(t: TypeIR) -> Iterator[ParamIR]:
    """Every field below ``t`` (through arrays and union options)."""
    if t.kind == "object":
        for f in t.fields:
            yield f
            yield from nested_types(f.type)
    elif t.kind == "array" and t.items is not None:
        yield from nested_types(t.items)
    elif t.kind == "union":
        for o in t.options:
            yield from nested_types(o)


def nested_names(tool: ToolIR) -> set[str]:
    return {f.name for p in tool.params for f in nested_types(p.type)}


def top(tool: ToolIR) -> dict[str, bool]:
    return {p.name: p.required for p in tool.params}


class Found:
    """What a reader got back: per tool (in order) its name and ``{param: required}``
    (``None`` where the notation does not say), and every field name it saw."""

    def __init__(self) -> None:
        self.tools: list[tuple[str, dict[str, bool | None]]] = []
        self.names: set[str] = set()

    def tool(self, name: str) -> dict[str, bool | None]:
        params: dict[str, bool | None] = {}
        self.tools.append((name, params))
        return params


def check(found: Found, toolset: Toolset, *, nested: bool = True) -> None:
    """Every tool in order under its true name, its parameters and required flags, nested
    field names."""
    assert [n for n, _ in found.tools] == toolset.names
    for (_, params), tool in zip(found.tools, toolset):
        assert set(params) == set(top(tool)), tool.name
        for name, required in params.items():
            if required is not None:
                assert required == tool.param(name).required, (tool.name, name)
        if nested:
            missing = nested_names(tool) - found.names
            assert not missing, (tool.name, missing)


#: Calls deeper than any unrolled example, for the grammars' recursive rules.
DEEP_CALLS = {"recursive": [
    ToolCall("search_records", {"filter": {"all_of": [{"all_of": [{"field": "a", "equals": "b"}]},
                                                      {"negate": {"negate": None}}]}}),
    ToolCall("set_value", {"key": "k", "value": {"a": [1, {"b": [[None, True]]}], "c": "d"}}),
]}


def gold_calls(toolset: Toolset, case: str = "") -> list[str]:
    """Calls of every tool written by the ``json_object`` protocol: with the required
    arguments only, with every argument, and two calls at once; the examples come from the
    plain form of the tools (recursion unrolled), so those that break the tools' own schema
    (an ``any`` where the unrolling stopped) are left out, and :data:`DEEP_CALLS` added."""
    import jsonschema
    from toolform.formats._common import example_arguments, plain_toolset

    writer = get_protocol("json_object").protocol
    shown = plain_toolset(toolset, stand_in_keys=False)

    def valid(call: ToolCall) -> bool:
        schema = toolset[call.name].input_schema()
        return jsonschema.Draft202012Validator(schema).is_valid(dict(call.arguments))

    out = []
    for tool in shown:
        for variant in (0, 1):
            call = ToolCall(tool.name, example_arguments(tool, variant))
            if valid(call):
                out.append(writer.write([call], toolset))
    if len(shown) >= 1:
        calls = [c for c in (ToolCall(t.name, example_arguments(t, 1)) for t in list(shown)[:2])
                 if valid(c)]
        if calls:
            out.append(writer.write(calls * (2 if len(calls) == 1 else 1), toolset))
    out += [writer.write([call], toolset) for call in DEEP_CALLS.get(case, ()) if valid(call)]
    return out


def test_format_facts_match_the_study() -> None:
    """Family, default protocol and flags of each format here equal the study's registry."""
    from toolform.evidence import load_evidence

    frame = load_evidence("formats").frame().set_index("format_id")
    flags = ["novel", "supports_nesting", "supports_enum", "supports_constraints",
             "supports_optional", "supports_returns", "lossy", "compressed", "core",
             "two_stage"]
    for fmt in ALL:
        spec, row = get_format(fmt), frame.loc[fmt]
        assert (spec.family, spec.default_protocol) == (row["family"], row["default_protocol"])
        assert {f: getattr(spec, f) for f in flags} == {f: bool(row[f]) for f in flags}, fmt


CONFIG = ["toml", "ini", "hcl", "cue", "dhall", "jsonnet", "nix_expr", "kdl", "edn", "sexpr",
          "starlark"]
IDL = ["protobuf", "graphql_sdl", "thrift_idl", "avro_schema", "wit_idl", "smithy_idl",
       "capnproto_idl", "flatbuffers_idl"]
GRAMMAR = ["ebnf_grammar", "gbnf_grammar", "regex_spec", "typed_lambda", "symbolic_compressed"]
MARKUP = ["xml_attributes", "xsd", "html_forms", "markdown_docs", "rest_endpoints",
          "curl_examples"]
ALL = CONFIG + IDL + GRAMMAR + MARKUP


@pytest.mark.parametrize("fmt", ALL)
def test_deterministic_and_descriptions_off(fmt: str) -> None:
    """Same input, same bytes; with descriptions off no description text is left."""
    from toolform.formats import RenderOptions

    ts = toolsets.tier3()
    assert render_block(ts, fmt) == render_block(toolsets.tier3(), fmt)
    bare = render_block(ts, fmt, RenderOptions(include_descriptions=False))
    assert "Place an order for delivery" not in bare and "Stock code" not in bare


@pytest.mark.parametrize("fmt", ALL)
def test_too_deep_is_refused(fmt: str) -> None:
    from toolform.errors import RenderError

    with pytest.raises(RenderError, match="deep"):
        render_block(toolsets.deep(), fmt)


# -- config --------------------------------------------------------------------------------------

def _toml_names(table: dict[str, Any], names: set[str]) -> None:
    for key, sub in table.get("fields", {}).items():
        names.add(key)
        _toml_names(sub, names)
    if "items" in table:
        _toml_names(table["items"], names)
    for option in table.get("options", []):
        _toml_names(option, names)


@pytest.mark.parametrize("case", CASES)
def test_toml(case: str) -> None:
    data = tomllib.loads(rendered("toml", case))
    found = Found()
    for tool in data.get("tool", []):
        params = found.tool(tool["name"])
        for key, table in tool.get("params", {}).items():
            params[key] = table["required"]
            _toml_names(table, found.names)
    check(found, load_case(case))
    if case == "tier2":
        speed = data["tool"][0]["params"]["precision"]
        assert (speed["minimum"], speed["maximum"], speed["default"]) == (0, 6, 2)
    if case == "tier5":
        assert data["tool"][0]["params"]["budget"]["default_json"] == "null"


def _ini_paths(t: TypeIR, path: str) -> Iterator[str]:
    if t.kind == "object":
        for f in t.fields:
            yield f"{path}.{f.name}"
            yield from _ini_paths(f.type, f"{path}.{f.name}")
    elif t.kind == "array" and t.items is not None:
        yield from _ini_paths(t.items, path + "[]")
    elif t.kind == "union":
        for i, o in enumerate(t.options, 1):
            yield from _ini_paths(o, f"{path}#{i}")


@pytest.mark.parametrize("case", CASES)
def test_ini(case: str) -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(rendered("ini", case))
    ts = toolsets.shown(load_case(case), "ini")
    assert parser.sections() == ts.names
    for tool in ts:
        section = parser[tool.name]
        expected = {p.name for p in tool.params} | {
            path for p in tool.params for path in _ini_paths(p.type, p.name)}
        if tool.returns is not None:
            expected |= {"(result)", *_ini_paths(tool.returns, "(result)")}
        assert set(section) == expected
        for p in tool.params:
            words = section[p.name].split(", ")
            assert words[1] == ("required" if p.required else "optional")
            if p.type.kind == "enum" and p.type.values:
                assert f"one of {', '.join(json.dumps(v, ensure_ascii=False) for v in p.type.values)}" in section[p.name]


def _hcl_text(raw: str) -> str:
    """A string as python-hcl2 returns it (quoted, escapes kept) decoded."""
    assert raw.startswith('"') and raw.endswith('"'), raw
    return json.loads(raw.replace("$${", "${").replace("%%{", "%{"))


def _hcl_blocks(body: dict[str, Any], kind: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for block in body.get(kind, []):
        for label, inner in block.items():
            yield _hcl_text(label), inner


def _hcl_names(body: dict[str, Any], names: set[str]) -> None:
    for label, inner in _hcl_blocks(body, "field"):
        names.add(label)
        _hcl_names(inner, names)
    for kind in ("items", "option"):
        for inner in body.get(kind, []):
            _hcl_names(inner, names)


@pytest.mark.parametrize("case", CASES)
def test_hcl(case: str) -> None:
    import hcl2

    data = hcl2.loads(rendered("hcl", case))
    found = Found()
    for name, body in _hcl_blocks(data, "tool"):
        params = found.tool(name)
        for pname, inner in _hcl_blocks(body, "variable"):
            params[pname] = inner["required"]
            _hcl_names(inner, found.names)
        if "description" in body:
            assert _hcl_text(body["description"]) == load_case(case)[name].description
    check(found, load_case(case))


@pytest.mark.parametrize("case", CASES)
def test_jsonnet_evaluates_to_the_json_schema_tools(case: str) -> None:
    import _jsonnet
    from toolform.formats._common import function_entry

    value = json.loads(_jsonnet.evaluate_snippet("tools.jsonnet", rendered("jsonnet", case)))
    assert value == [function_entry(t) for t in toolsets.shown(load_case(case), "jsonnet")]


def _nix_names(text: str) -> set[str]:
    from tree_sitter_language_pack import get_parser

    tree = get_parser("nix").parse(text.encode())
    out, stack = set(), [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "attrpath":
            for part in node.named_children:
                raw = part.text.decode()
                out.add(json.loads(raw.replace("\\$", "$")) if raw.startswith('"') else raw)
        stack.extend(node.children)
    return out


@pytest.mark.parametrize("case", CASES)
def test_nix(case: str) -> None:
    text = rendered("nix_expr", case)
    assert tree_sitter_errors("nix", text) == []
    names = _nix_names(text)
    for tool in load_case(case):
        assert tool.name in names
        assert set(top(tool)) | nested_names(tool) <= names
    # an option without a default is required (NixOS modules)
    block = re.search(r"customer_id = mkOption \{(.*?)\n      \};", rendered("nix_expr", "tier3"),
                      re.S)
    assert block and "default" not in block.group(1)


@pytest.mark.parametrize("case", CASES)
def test_kdl(case: str) -> None:
    import ckdl

    doc = ckdl.parse(rendered("kdl", case), version=2)
    found = Found()

    def walk(node: Any) -> None:
        for child in node.children:
            if child.name == "field":
                found.names.add(child.args[0])
            walk(child)

    for node in doc.nodes:
        assert node.name == "tool"
        params = found.tool(node.args[0])
        for child in node.children:
            if child.name == "param":
                params[child.args[0]] = child.properties["required"]
                walk(child)
    check(found, load_case(case))


@pytest.mark.parametrize("case", CASES)
def test_edn(case: str) -> None:
    import edn_format
    from edn_format import Keyword, Symbol

    data = edn_format.loads(rendered("edn", case))
    found = Found()

    def keys(spec: Any) -> list[tuple[dict, bool]]:
        assert spec[0] == Symbol("s/keys")
        args = dict(zip(spec[1::2], spec[2::2]))
        return [(f, True) for f in args.get(Keyword("req"), [])] + [
            (f, False) for f in args.get(Keyword("opt"), [])]

    def walk(spec: Any) -> None:
        if isinstance(spec, tuple) and spec and spec[0] == Symbol("s/keys"):
            for f, _ in keys(spec):
                found.names.add(f[Keyword("name")])
                walk(f[Keyword("spec")])
        elif isinstance(spec, tuple):
            for part in spec:
                walk(part)

    for tool in data:
        params = found.tool(tool[Keyword("tool")])
        for f, required in keys(tool[Keyword("args")]):
            params[f[Keyword("name")]] = required
            walk(f[Keyword("spec")])
    check(found, load_case(case))
    if case == "tier2":
        spec = data[0][Keyword("args")][2][1][Keyword("spec")]
        assert spec == frozenset({"celsius", "fahrenheit", "kelvin"})


@pytest.mark.parametrize("case", CASES)
def test_sexpr(case: str) -> None:
    import sexpdata
    from sexpdata import Symbol

    forms = sexpdata.parse(rendered("sexpr", case))
    found = Found()

    def name(atom: Any) -> str:
        return atom.value() if isinstance(atom, Symbol) else atom

    def walk(form: Any) -> None:
        if isinstance(form, list) and form and form[0] == Symbol("field"):
            found.names.add(name(form[1]))
        if isinstance(form, list):
            for part in form:
                walk(part)

    for form in forms:
        assert form[0] == Symbol("deftool")
        params = found.tool(name(form[1]))
        for part in form[2:]:
            if isinstance(part, list) and part[0] == Symbol("param"):
                params[name(part[1])] = Symbol(":required") in part
                walk(part[2])
    check(found, load_case(case))


@pytest.mark.parametrize("case", CASES)
def test_starlark(case: str) -> None:
    text = rendered("starlark", case)
    assert tree_sitter_errors("starlark", text) == []
    module = ast.parse(text)
    found = Found()
    comments = dict(re.findall(r'# tool name: (".*")\n(\S+) = rule\(', text))
    inverse = {ident: json.loads(true) for true, ident in comments.items()}

    def attrs(node: ast.Dict) -> Iterator[tuple[str, ast.Call]]:
        for key, value in zip(node.keys, node.values):
            assert isinstance(key, ast.Constant) and isinstance(value, ast.Call)
            yield key.value, value

    def walk(call: ast.Call) -> None:
        for kw in call.keywords:
            if kw.arg == "fields" and isinstance(kw.value, ast.Dict):
                for key, inner in attrs(kw.value):
                    found.names.add(key)
                    walk(inner)
            elif isinstance(kw.value, ast.Call):
                walk(kw.value)
            elif isinstance(kw.value, ast.List):
                for item in kw.value.elts:
                    if isinstance(item, ast.Call):
                        walk(item)

    for stmt in module.body:
        assert isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)
        ident = stmt.targets[0].id  # type: ignore[attr-defined]
        params = found.tool(inverse.get(ident, ident))
        kwargs = {kw.arg: kw.value for kw in stmt.value.keywords}
        for key, call in attrs(kwargs["attrs"]):  # type: ignore[arg-type]
            params[key] = any(kw.arg == "mandatory" and kw.value.value is True  # type: ignore
                              for kw in call.keywords)
            walk(call)
    check(found, load_case(case))


# -- IDL -----------------------------------------------------------------------------------------

def _tool_names_from_comments(text: str, marker: str) -> list[str]:
    """True tool names a comment gives (``Tool name: "..."``), in order."""
    return [json.loads(m) for m in re.findall(re.escape(marker) + r' Tool name: (".*")\.$',
                                              text, re.M)]


@pytest.mark.parametrize("case", CASES)
def test_protobuf(case: str) -> None:
    from proto_schema_parser import ast as pb
    from proto_schema_parser.parser import Parser

    text = rendered("protobuf", case)
    parsed = Parser().parse(text)
    assert parsed.syntax == "proto3"
    messages = {e.name: e for e in parsed.file_elements if isinstance(e, pb.Message)}
    service = next(e for e in parsed.file_elements if isinstance(e, pb.Service))
    methods = [e for e in service.elements if isinstance(e, pb.Method)]

    def true_name(field: Any) -> str:
        option = next((o.value for o in field.options if o.name == "json_name"), None)
        return json.loads(f'"{option}"') if option is not None else field.name

    found = Found()
    renamed = iter(_tool_names_from_comments(text, "  //"))
    for method, tool in zip(methods, load_case(case)):
        name = method.name if method.name == tool.name else next(renamed)
        params = found.tool(name)
        for f in messages[method.input_type.type].elements:
            if isinstance(f, pb.Field):
                repeated = f.cardinality == pb.FieldCardinality.REPEATED
                params[true_name(f)] = None if repeated else (
                    f.cardinality != pb.FieldCardinality.OPTIONAL)
    for message in messages.values():
        for f in message.elements:
            if isinstance(f, pb.Field):
                found.names.add(true_name(f))
    check(found, load_case(case))


@pytest.mark.parametrize("case", CASES)
def test_thrift(case: str, tmp_path: Path) -> None:
    import thriftpy2

    text = rendered("thrift_idl", case)
    path = tmp_path / "tools.thrift"
    path.write_text(text, encoding="utf-8")
    module = thriftpy2.load(str(path), module_name=f"tools_{abs(hash(case))}_thrift")
    service = module.Tools
    annotated = {m[0]: json.loads(m[1]) for m in re.findall(
        r"(\w+)(?: = [^(\n]*)? \(json_name = (\".*?(?<!\\)\")\)", text)}
    found = Found()
    renamed = iter(_tool_names_from_comments(text, "  //"))
    for method, tool in zip(service.thrift_services, load_case(case)):
        name = method if method == tool.name else next(renamed)
        params = found.tool(name)
        spec = getattr(service, f"{method}_args").thrift_spec
        for entry in spec.values():
            params[annotated.get(entry[1], entry[1])] = entry[-1]
    for struct in vars(module).values():
        spec = getattr(struct, "thrift_spec", None)
        if isinstance(spec, dict):
            found.names |= {annotated.get(e[1], e[1]) for e in spec.values()}
    check(found, load_case(case))


@pytest.mark.parametrize("case", CASES)
def test_avro(case: str) -> None:
    import fastavro

    records = json.loads(rendered("avro_schema", case))
    named: dict[str, Any] = {}
    fastavro.parse_schema(records, named_schemas=named)
    for record in records:
        if "returns" in record:
            fastavro.parse_schema(record["returns"], named_schemas=named)
    found = Found()

    def walk(schema: Any) -> None:
        if isinstance(schema, list):
            for s in schema:
                walk(s)
        elif isinstance(schema, dict):
            for f in schema.get("fields", []):
                found.names.add(f.get("json_name", f["name"]))
                walk(f["type"])
            for key in ("items", "values"):
                walk(schema.get(key))

    for record in records:
        assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", record["name"])
        params = found.tool(record.get("json_name", record["name"]))
        for f in record["fields"]:
            assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", f["name"])
            params[f.get("json_name", f["name"])] = not f.get("optional", False)
            walk(f["type"])
            if "default" in f and isinstance(f["type"], list):
                # Avro reads a union's default as a value of its first branch
                assert (f["default"] is None) == (f["type"][0] == "null"), f
    check(found, load_case(case))


@pytest.mark.parametrize("case", CASES)
def test_graphql(case: str) -> None:
    from graphql import (GraphQLInputObjectType, GraphQLNonNull, build_schema, parse,
                         validate_schema)

    text = rendered("graphql_sdl", case)
    schema = build_schema(text)
    assert validate_schema(schema) == []

    def true_name(node: Any, default: str) -> str:
        for d in node.directives or ():
            if d.name.value == "jsonName":
                return d.arguments[0].value.value
        return default

    found = Found()
    mutation = schema.mutation_type
    ts = load_case(case)
    if not ts.names:
        return
    for name, field in mutation.fields.items():
        params = found.tool(true_name(field.ast_node, name))
        for arg_name, arg in field.args.items():
            params[true_name(arg.ast_node, arg_name)] = isinstance(arg.type, GraphQLNonNull)
    for gtype in schema.type_map.values():
        if isinstance(gtype, GraphQLInputObjectType) or (
                hasattr(gtype, "fields") and gtype.name not in ("Query", "Mutation")
                and not gtype.name.startswith("__")):
            for fname, f in gtype.fields.items():
                found.names.add(true_name(f.ast_node, fname))
    # a required argument that may be null cannot be non-null (its description says so)
    for (_, params), tool in zip(found.tools, ts):
        for p in tool.params:
            if p.required and (p.type.nullable or p.type.kind in ("null", "any")):
                assert params[p.name] is False
                params[p.name] = None
    check(found, ts)
    assert parse(text)  # the document parses on its own as well


def _named_by_doc(text: str) -> dict[str, str]:
    """WIT identifiers to true names: ``/// JSON name: "x".`` above a field, ``/// - x:`` in
    a func's comment."""
    out = {}
    for true, ident in re.findall(r'/// JSON name: (".*")\.\n(?:\s*///.*\n)*\s*(%?[\w-]+):',
                                  text):
        out[ident.lstrip("%")] = json.loads(true)
    return out


WIT_GRAMMAR = r"""
start: "package" PKG ";" "interface" NAME "{" item* "}"
?item: typedef | record | enum | variant | func
typedef: "type" NAME "=" type ";"
record: "record" NAME "{" [field ("," field)* ","?] "}"
field: NAME ":" type
enum: "enum" NAME "{" NAME ("," NAME)* ","? "}"
variant: "variant" NAME "{" case ("," case)* ","? "}"
case: NAME ["(" type ")"]
func: NAME ":" "func" "(" [param ("," param)*] ")" ["->" type] ";"
param: NAME ":" type
type: NAME -> named
    | "list" "<" type ">" -> list
    | "option" "<" type ">" -> option
PKG: /[a-z][a-z0-9-]*:[a-z][a-z0-9-]*/
NAME: /%?[a-z][a-z0-9]*(-[a-z][a-z0-9]*)*/
COMMENT: /\/\/[^\n]*/
%import common.WS
%ignore WS
%ignore COMMENT
"""
WIT_KEYWORDS = {"list", "option", "func", "record", "enum", "variant", "type", "string",
                "interface", "package", "bool", "s64", "f64", "result", "use", "world"}


@pytest.mark.parametrize("case", CASES)
def test_wit(case: str) -> None:
    from lark import Lark, Token

    text = rendered("wit_idl", case)
    tree = Lark(WIT_GRAMMAR, parser="lalr").parse(text)
    # a declared name spelled like a keyword must carry the % escape
    for kind in ("record", "field", "enum", "variant", "case", "func", "param", "typedef"):
        for node in tree.find_data(kind):
            for token in node.children:
                if isinstance(token, Token) and token.type == "NAME":
                    assert token.startswith("%") or token not in WIT_KEYWORDS, token
    found = Found()
    ts = load_case(case)
    funcs = list(tree.find_data("func"))
    for func, tool in zip(funcs, ts):
        ident = func.children[0]
        block = text[:text.index(f"  {ident}: func(")].rsplit("\n\n", 1)[-1]
        named = re.search(r'Tool name: (".*")\.', block)
        params = found.tool(json.loads(named.group(1)) if named else ident.lstrip("%"))
        docs = re.findall(r"^  /// - (.+?)(?::|$)", block, re.M)
        for param in (c for c in func.children if getattr(c, "data", None) == "param"):
            pident = param.children[0].lstrip("%")
            true = next((d for d in docs if kebab_name([d]) == pident), pident)
            params[true] = None
            p = tool.param(true)
            assert p is not None, (tool.name, true)
            is_option = param.children[1].data == "option"
            assert is_option == (not p.required or (p.type.nullable and p.type.kind not in (
                "null", "any"))), (tool.name, true)
    assert len(funcs) == len(ts)
    by_doc = _named_by_doc(text)
    for record in tree.find_data("record"):
        for f in record.find_data("field"):
            ident = f.children[0].lstrip("%")
            found.names.add(by_doc.get(ident, ident))
    check(found, ts)


def ts_tree(language: str, text: str) -> Any:
    from tree_sitter_language_pack import get_parser

    return get_parser(language).parse(text.encode()).root_node


def ts_nodes(node: Any, kind: str) -> Iterator[Any]:
    """Every node of type ``kind`` below ``node``, in document order."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == kind:
            yield n
        stack.extend(reversed(n.children))


def ts_child(node: Any, kind: str) -> Any:
    return next((c for c in node.children if c.type == kind), None)


def doc_before(node: Any) -> str:
    """The comment lines right before ``node`` (its preceding sibling comments)."""
    lines, prev = [], node.prev_sibling
    while prev is not None and prev.type == "comment":
        lines.insert(0, prev.text.decode())
        prev = prev.prev_sibling
    return "\n".join(lines)


def _smithy_member(member: Any) -> tuple[str, bool]:
    traits = {}
    for trait in ts_nodes(member, "trait_statement"):
        body = ts_child(trait, "trait_body")
        traits[ts_child(trait, "shape_id").text.decode()] = (
            body.text.decode()[1:-1] if body is not None else None)
    name = ts_child(member, "field").text.decode()
    if "jsonName" in traits:
        name = json.loads(traits["jsonName"])
    return name, "required" in traits


@pytest.mark.parametrize("case", CASES)
def test_smithy(case: str) -> None:
    text = rendered("smithy_idl", case)
    assert tree_sitter_errors("smithy", text) == []
    assert text.startswith('$version: "2"\n')
    root = ts_tree("smithy", text)
    ts = load_case(case)
    found = Found()
    ops = list(ts_nodes(root, "operation_statement"))
    assert len(ops) == len(ts)
    for op in ops:
        named = re.search(r'Tool name: (".*")\.', doc_before(op.parent.parent))
        params = found.tool(json.loads(named.group(1)) if named else
                            ts_child(op, "identifier").text.decode())
        for member_list in ts_nodes(op, "inline_structure"):
            if member_list.prev_sibling.text == b"input":
                for member in ts_nodes(member_list, "shape_member"):
                    name, required = _smithy_member(member)
                    params[name] = required
    for struct in ts_nodes(root, "structure_statement"):
        found.names |= {_smithy_member(m)[0] for m in ts_nodes(struct, "shape_member")}
    check(found, ts)


def _capnp_text(node: Any) -> str:
    """A Cap'n Proto string literal's value (C-style escapes)."""
    raw = node.text.decode()[1:-1]
    return re.sub(r"\\(x[0-9a-fA-F]{2}|.)", lambda m: chr(int(m.group(1)[1:], 16))
                  if m.group(1).startswith("x") else m.group(1), raw)


def _capnp_alias(node: Any, default: str) -> str:
    """The ``$Json.name("...")`` given to ``node``, else ``default``."""
    for ann in (c for c in node.children if c.type == "annotation_identifier"):
        if ann.text == b"Json.name":
            args = ann.next_sibling
            while args.type != "annotation_array":
                args = args.next_sibling
            return _capnp_text(next(ts_nodes(args, "string")))
    return default


@pytest.mark.parametrize("case", CASES)
def test_capnproto(case: str) -> None:
    text = rendered("capnproto_idl", case)
    assert tree_sitter_errors("capnp", text) == []
    file_id = int(re.match(r"@0x([0-9a-f]{16});", text).group(1), 16)
    assert file_id >> 63 == 1  # Cap'n Proto file ids have the top bit set
    root = ts_tree("capnp", text)
    ts = load_case(case)
    found = Found()
    methods = list(ts_nodes(root, "method"))
    assert len(methods) == len(ts)
    for method in methods:
        ident = ts_child(method, "method_identifier").text.decode()
        params = found.tool(_capnp_alias(method, ident))
        for param in ts_nodes(method, "parameter"):
            name = ts_child(param, "param_identifier").text.decode()
            assert "_" not in name and name[0].islower()  # Cap'n Proto wants camelCase
            notes, nxt = [], param.next_sibling
            while nxt is not None and nxt.type in (",", "comment"):
                notes.append(nxt.text.decode())
                nxt = nxt.next_sibling
            if nxt is None:  # the last parameter's comments follow the list
                nxt = param.parent.next_sibling
                while nxt is not None and nxt.type == "comment":
                    notes.append(nxt.text.decode())
                    nxt = nxt.next_sibling
            said = next(n for n in notes if re.match(r"# (Required|Optional)", n))
            params[_capnp_alias(param, name)] = said.startswith("# Required")
    for field in ts_nodes(root, "field"):
        ident = next((c for c in field.children if c.type.endswith("identifier")), None)
        if ident is not None:
            found.names.add(_capnp_alias(field, ident.text.decode()))
    check(found, ts)


FBS_GRAMMAR = r"""
start: item*
?item: namespace | attribute | table | enum | union | service
namespace: "namespace" DOTTED ";"
attribute: "attribute" STRING ";"
table: "table" NAME metadata? "{" field* "}"
field: NAME ":" type ("=" value)? metadata? ";"
metadata: "(" meta ("," meta)* ")"
meta: NAME (":" value)?
type: NAME | "[" NAME "]"
value: NUMBER | NAME | STRING
enum: "enum" NAME ":" NAME "{" NAME ("," NAME)* "}"
union: "union" NAME "{" NAME ("," NAME)* "}"
service: "rpc_service" NAME "{" method* "}"
method: NAME "(" NAME ")" ":" NAME ";"
DOTTED: /[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*/
NAME: /[A-Za-z_][A-Za-z0-9_]*/
NUMBER: /-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/
STRING: /"(\\.|[^"\\\n])*"/
COMMENT: /\/\/[^\n]*/
%import common.WS
%ignore WS
%ignore COMMENT
"""


@pytest.mark.parametrize("case", CASES)
def test_flatbuffers(case: str) -> None:
    from lark import Lark

    text = rendered("flatbuffers_idl", case)
    tree = Lark(FBS_GRAMMAR, parser="earley").parse(text)
    tables = {t.children[0]: t for t in tree.find_data("table")}
    declared = set(tables) | {e.children[0] for e in tree.find_data("enum")} | {
        u.children[0] for u in tree.find_data("union")}
    builtin = {"string", "long", "double", "bool", "ubyte", "ushort"}
    for f in tree.find_data("field"):  # every type used is declared
        assert str(f.children[1].children[0]) in declared | builtin, f

    def true_name(node: Any) -> str:
        """The ``json_name`` attribute of a table or field (its own metadata only)."""
        for metadata in node.children:
            if getattr(metadata, "data", None) == "metadata":
                for meta in metadata.children:
                    if meta.children[0] == "json_name":
                        return json.loads(meta.children[1].children[0])
        return node.children[0]

    ts = load_case(case)
    found = Found()
    methods = list(tree.find_data("method"))
    assert len(methods) == len(ts)
    for method, tool in zip(methods, ts):
        request = tables[method.children[1]]
        params = found.tool(true_name(request) if true_name(request) != request.children[0]
                            else method.children[0])
        for f in request.find_data("field"):
            params[true_name(f)] = None
    for table in tables.values():
        found.names |= {true_name(f) for f in table.find_data("field")}
    check(found, ts)
    # required non-scalar fields carry (required)
    request = tables["CreateOrderRequest"] if case == "tier3" else None
    if request is not None:
        required = {f.children[0] for f in request.find_data("field")
                    if any(m.children[0] == "required" for m in f.find_data("meta"))}
        assert required == {"customer_id", "address", "lines"}


# -- grammars: EBNF and GBNF run on gold calls, regular expressions matched ----------------------

def _regex_char(ch: str) -> str:
    """One character as a regex piece that survives Lark's reading of ``/.../`` terminals
    (Lark decodes ``\\xNN`` escapes before the regex engine sees the pattern)."""
    if ch.isalnum() or ch in " _\"'":
        return ch
    if ch == "/":
        return "\\/"
    if ch == "\\":
        return "\\x5c\\x5c"
    if ch in ".^$*+?{}[]|()#&~,:<>=!%@`;-":
        return "\\" + ch
    if ord(ch) < 32 or ord(ch) == 127:
        return f"\\x{ord(ch):02x}"
    return ch


def _lark_literal(text: str) -> str:
    return "/" + "".join(_regex_char(c) for c in text) + "/"


def _gbnf_class(cls: str) -> str:
    """A GBNF character class as a Lark regex terminal (escapes decoded as llama.cpp does)."""
    body, negate = cls[1:-1], cls.startswith("[^")
    if negate:
        body = body[1:]
    out = []
    for m in re.finditer(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)|(.)", body,
                         re.S):
        if m.group(2) == "-" and out and m.end() < len(body):
            out.append("-")  # a range between the items on either side
        elif m.group(2) is not None:
            out.append(_regex_char(m.group(2)))
        else:
            esc = m.group(1)
            ch = {"n": "\n", "r": "\r", "t": "\t"}.get(
                esc, chr(int(esc[1:], 16)) if len(esc) > 1 else esc)
            out.append(_regex_char(ch))
    return "/[" + ("^" if negate else "") + "".join(out) + "]/"


GBNF_TOKEN = re.compile(r"""
    (?P<ws>\s+) | (?P<literal>"(?:\\.|[^"\\\n])*") | (?P<cls>\[(?:\\.|[^\]\\\n])*\])
  | (?P<name>[a-zA-Z0-9-]+) | (?P<op>[()|*+?])
""", re.X)
GBNF_ESCAPE = re.compile(r'\\(?:["\\nrt\[\]]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})')


def _gbnf_decode(literal: str) -> str:
    body = literal[1:-1]
    assert not re.search(r"[\x00-\x1f]", body), f"raw control character in {literal!r}"
    # every backslash starts one of the escapes llama.cpp reads
    assert GBNF_ESCAPE.sub("", body).count("\\") == 0, f"bad escape in {literal!r}"
    simple = {"n": "\n", "r": "\r", "t": "\t"}
    return re.sub(r"\\(x..|u....|U........|.)", lambda m: simple.get(
        m.group(1), chr(int(m.group(1)[1:], 16)) if len(m.group(1)) > 1 else m.group(1)), body)


def gbnf_to_lark(text: str) -> tuple[str, set[str], set[str]]:
    """A Lark grammar for a GBNF grammar, with the rules it defines and the rules it uses.

    Rules are one per line (comments after ``#``); literals are checked to be escaped as
    llama.cpp reads them."""
    rules, defined, used = [], set(), set()
    for line in text.splitlines():
        line = line.split("#", 1)[0] if not re.search(r'"[^"]*#', line) else line
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, body = line.split(" ::= ", 1)
        assert re.fullmatch(r"[a-zA-Z0-9-]+", name), name
        defined.add(name)
        parts, pos = [], 0
        while pos < len(body):
            m = GBNF_TOKEN.match(body, pos)
            assert m, f"cannot read {body[pos:pos + 30]!r}"
            pos = m.end()
            kind = m.lastgroup
            if kind == "literal":
                parts.append(_lark_literal(_gbnf_decode(m.group())))
            elif kind == "cls":
                parts.append(_gbnf_class(m.group()))
            elif kind == "name":
                used.add(m.group())
                parts.append("r_" + m.group().replace("-", "_").lower())
            elif kind == "op":
                parts.append(m.group())
        rules.append(f"r_{name.replace('-', '_').lower()}: {' '.join(parts)}")
    return "start: r_root\n" + "\n".join(rules), defined, used


@pytest.mark.parametrize("case", CASES)
def test_gbnf_loads_and_accepts_the_gold_calls(case: str) -> None:
    from lark import Lark

    ts = load_case(case)
    grammar, defined, used = gbnf_to_lark(rendered("gbnf_grammar", case))
    assert "root" in defined and used <= defined, used - defined
    parser = Lark(grammar, parser="earley", lexer="dynamic")
    for call in gold_calls(ts, case):
        parser.parse(call)
    # a call of an unknown tool is not in the language
    with pytest.raises(Exception):
        parser.parse('{"name": "no such tool", "arguments": {}}')


EBNF_TOKEN = re.compile(r"""
    (?P<ws>\s+) | (?P<comment>\(\*.*?\*\)) | (?P<terminal>'[^']*'|"[^"]*") | (?P<special>\?[^?]*\?)
  | (?P<name>[A-Za-z][A-Za-z0-9_]*) | (?P<op>[=;,|\[\]{}()])
""", re.X | re.S)
EBNF_SPECIAL = {'? any character except " and \\ and U+0000 to U+001F ?':
                "/[^" + _regex_char('"') + _regex_char("\\") + "\\x00-\\x1f]/"}


def ebnf_to_lark(text: str) -> tuple[str, set[str], set[str]]:
    """A Lark grammar for an ISO 14977 EBNF grammar, with the rules defined and used."""
    tokens, pos = [], 0
    while pos < len(text):
        m = EBNF_TOKEN.match(text, pos)
        assert m, f"cannot read {text[pos:pos + 30]!r}"
        pos = m.end()
        if m.lastgroup not in ("ws", "comment"):
            tokens.append((m.lastgroup, m.group()))
    rules, defined, used, i = [], set(), set(), 0
    while i < len(tokens):
        (kind, name), (_, eq) = tokens[i], tokens[i + 1]
        assert kind == "name" and eq == "=", tokens[i:i + 2]
        j = tokens.index(("op", ";"), i)
        parts = []
        for kind, value in tokens[i + 2:j]:
            if kind == "terminal":
                parts.append(_lark_literal(value[1:-1]) if value[1:-1] else "")
            elif kind == "special":
                parts.append(EBNF_SPECIAL[value])
            elif kind == "name":
                used.add(value)
                parts.append(f"r_{value.lower()}")
            else:
                parts.append({",": "", "[": "(", "]": ")?", "{": "(", "}": ")*"}.get(value, value))
        defined.add(name)
        rules.append(f"r_{name.lower()}: {' '.join(p for p in parts if p)}")
        i = j + 1
    return "start: r_calls\n" + "\n".join(rules), defined, used


@pytest.mark.parametrize("case", CASES)
def test_ebnf_defines_every_rule_and_accepts_the_gold_calls(case: str) -> None:
    from lark import Lark

    ts = load_case(case)
    grammar, defined, used = ebnf_to_lark(rendered("ebnf_grammar", case))
    assert "calls" in defined and used <= defined, used - defined
    parser = Lark(grammar, parser="earley", lexer="dynamic")
    for call in gold_calls(ts, case):
        parser.parse(call)


def test_ebnf_terminal_with_both_quotes_is_split() -> None:
    from toolform.formats._grammar import _iso_literal

    assert _iso_literal("""a'b"c""") == """'a' , "'" , 'b"c'"""


@pytest.mark.parametrize("case", CASES)
def test_regex_spec(case: str) -> None:
    from toolform.formats._common import example_arguments

    ts = load_case(case)
    text = rendered("regex_spec", case)
    patterns = dict(re.findall(r"^(.*) = /(\^.*\$)/$", text, re.M))
    assert list(patterns) == ts.names
    writer = get_protocol("json_object").protocol
    compiled = {name: re.compile(p) for name, p in patterns.items()}
    for tool in ts:
        for variant in (0, 1):
            call = writer.write([ToolCall(tool.name, example_arguments(tool, variant))], ts)
            assert compiled[tool.name].fullmatch(call), (tool.name, call)
            for other in ts:
                if other.name != tool.name:
                    assert not compiled[other.name].fullmatch(call)
        required = [p.name for p in tool.params if p.required]
        if required:
            args = example_arguments(tool, 1)
            del args[required[0]]
            call = writer.write([ToolCall(tool.name, args)], ts)
            assert not compiled[tool.name].fullmatch(call), "a required argument is missing"
        for p in tool.params:  # every top-level name is in the pattern
            assert re.escape(json.dumps(p.name, ensure_ascii=False))[:-1].replace(
                "\\ ", " ") in patterns[tool.name] or p.name in text


TYPED_LAMBDA_GRAMMAR = r"""
start: sig*
sig: name ":" factors "→" type
factors: "𝟙" | factor ("×" factor)*
factor: "(" field ")"
field: name OPT? ":" type ("=" json)?
OPT: "?"
name: IDENT | STRING
?type: sum
?sum: atom ("+" atom)*
?atom: KIND | "⊥" | "{…}" | json_scalar | "List" atom | record | refined | "(" type ")"
     | record "(closed)"
record: "{" field ("," field)* (", …")? "}"
refined: "{" "v" ":" type "|" cond ("∧" cond)* "}"
cond: "v" REL NUMBER | "|v|" REL NUMBER | "v" "~" STRING | "v" "∈" WORD
KIND: "Str" | "ℤ" | "ℝ" | "𝔹" | "𝟙" | "⊤"
REL: "≥" | "≤" | ">" | "<"
json: json_scalar | "[" [json ("," json)*] "]" | "{" [STRING ":" json ("," STRING ":" json)*] "}"
json_scalar: STRING | NUMBER | "true" | "false" | "null"
IDENT: /[A-Za-z_][A-Za-z0-9_]*/
WORD: /[A-Za-z0-9_.-]+/
STRING: /"(\\.|[^"\\])*"/
NUMBER: /-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/
COMMENT: /--[^\n]*/
%import common.WS
%ignore WS
%ignore COMMENT
"""


def _lambda_name(node: Any) -> str:
    token = node.children[0]
    return json.loads(token) if token.type == "STRING" else str(token)


@pytest.mark.parametrize("case", CASES)
def test_typed_lambda(case: str) -> None:
    from lark import Lark

    tree = Lark(TYPED_LAMBDA_GRAMMAR, parser="earley").parse(rendered("typed_lambda", case))
    found = Found()
    for sig in tree.find_data("sig"):
        params = found.tool(_lambda_name(sig.children[0]))
        factors = sig.children[1]
        for factor in factors.children:
            field = factor.children[0]
            params[_lambda_name(field.children[0])] = not any(
                getattr(c, "type", "") == "OPT" for c in field.children)
        for record in sig.find_data("record"):
            for field in record.children:
                if getattr(field, "data", None) == "field":
                    found.names.add(_lambda_name(field.children[0]))
    check(found, load_case(case))


SYMBOLIC_GRAMMAR = r"""
start: LEGEND _NL line*
line: tool _NL (DOC _NL)?
tool: name fields? (">" type)?
fields: REQ flist (OPT flist)? | OPT flist
REQ: "!"
OPT: "?"
flist: field ("," field)*
field: name ":" type ("=" value)?
type: base constraint* NULLABLE?
NULLABLE: "|z"
?base: KIND | enum | "[" type "]" | object | union
enum: "{" [value ("," value)*] "}"
object: "(" fields? ")"
union: "<" type ("|" type)+ ">"
constraint: "~" BOUNDS | PATTERN | "~@" WORD | "~closed"
name: BARE | STRING
value: BARE | STRING | NUMBER | "true" | "false" | "null" | JSONLIST | JSONOBJ
KIND: /[sinbzxo](?![A-Za-z0-9_.-])/
BARE: /[A-Za-z_][A-Za-z0-9_.\-]*/
BOUNDS: /[\[(](-?[0-9][0-9.eE+-]*)?,(-?[0-9][0-9.eE+-]*)?[\])]/
PATTERN: /~\/(\\.|[^\/\\\n])+\//
WORD: /[A-Za-z0-9_.-]+/
STRING: /"(\\.|[^"\\])*"/
NUMBER: /-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/
JSONLIST: /\[[^\n]*?\]/
JSONOBJ: /\{[^\n]*?\}/
LEGEND: /#[^\n]*/
DOC: /  [^\n]*/
_NL: /\n/
"""


def _symbol_name(node: Any) -> str:
    token = node.children[0]
    return json.loads(token) if token.type == "STRING" else str(token)


@pytest.mark.parametrize("case", CASES)
def test_symbolic(case: str) -> None:
    from lark import Lark

    tree = Lark(SYMBOLIC_GRAMMAR, parser="earley", lexer="dynamic").parse(
        rendered("symbolic_compressed", case))
    found = Found()
    for tool in tree.find_data("tool"):
        params = found.tool(_symbol_name(tool.children[0]))
        top_fields = next((c for c in tool.children if getattr(c, "data", "") == "fields"), None)
        if top_fields is not None:
            mark = None
            for child in top_fields.children:
                if getattr(child, "type", None) in ("REQ", "OPT"):
                    mark = child.type
                else:
                    for field in child.children:
                        params[_symbol_name(field.children[0])] = mark == "REQ"
        for obj in tool.find_data("object"):
            for field in obj.find_data("field"):
                found.names.add(_symbol_name(field.children[0]))
    check(found, load_case(case))


# -- CUE and Dhall: a grammar of the subset the formats write ------------------------------------

CUE_GRAMMAR = r"""
start: "package" IDENT import* decl*
import: "import" STRING
decl: DEF ":" expr
?expr: disj
?disj: conj ("|" conj)*
?conj: unary ("&" unary)*
?unary: "*" unary -> default
      | REL unary -> bound
      | "=~" STRING -> match
      | atom
?atom: STRING | NUMBER | "null" | "true" | "false" | IDENT | "_" | "_|_" | struct | list
     | open_list | call | "(" expr ")"
open_list: "[" "..." expr "]"
list: "[" [expr ("," expr)*] "]"
struct: "{" (member ","?)* "}"
?member: field | "..."
field: label MARK? ":" expr
label: IDENT | STRING
MARK: "!" | "?"
call: IDENT "." IDENT "(" NUMBER ")"
REL: ">=" | "<=" | ">" | "<"
DEF: /#[^\W\d]\w*/
IDENT: /[^\W\d][\w$]*/
STRING: /"(\\.|[^"\\\n])*"/
NUMBER: /-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/
COMMENT: /\/\/[^\n]*/
%import common.WS
%ignore WS
%ignore COMMENT
"""


def _label(node: Any) -> str:
    token = node.children[0]
    return json.loads(token) if token.type == "STRING" else str(token)


@pytest.mark.parametrize("case", CASES)
def test_cue(case: str) -> None:
    from lark import Lark

    text = rendered("cue", case)
    tree = Lark(CUE_GRAMMAR, parser="earley").parse(text)
    results = set(re.findall(r'^// What ".*" returns\.\n(#\S+):', text, re.M))
    renamed = dict((ident, json.loads(true)) for true, ident in re.findall(
        r'^// Tool name: (".*")\.\n(#\S+):', text, re.M))
    found = Found()
    for decl in tree.find_data("decl"):
        ident = str(decl.children[0])
        if ident in results:
            continue
        params = found.tool(renamed.get(ident, ident[1:]))
        body = decl.children[1]
        for f in body.children:
            if getattr(f, "data", None) == "field":
                params[_label(f.children[0])] = str(f.children[1]) == "!"
        found.names |= {_label(f.children[0]) for f in body.find_data("field")}
    check(found, load_case(case))
    if case == "tier2":
        assert "precision?: *2 | int & >=0 & <=6" in text


DHALL_GRAMMAR = r"""
start: ("let" "JSON" "=" URL "in")? expr
?expr: record_lit | record_type | union | app | NAME | "(" expr ")"
record_lit: "{" field_lit ("," field_lit)* "}" | "{=}"
field_lit: label "=" expr
record_type: "{" field_type ("," field_type)* "}" | "{}"
field_type: label ":" expr
union: "<" alt ("|" alt)* ">" | "<>"
alt: label (":" expr)?
app: FN expr
FN: "List" | "Optional"
label: LABEL | QUOTED
NAME: "Text" | "Integer" | "Double" | "Bool" | "JSON"
LABEL: /[A-Za-z_][A-Za-z0-9_\/-]*/
QUOTED: /`[\x20-\x5f\x61-\x7e]+`/
URL: /https:\/\/\S+/
COMMENT: /--[^\n]*/
%import common.WS
%ignore WS
%ignore COMMENT
"""


@pytest.mark.parametrize("case", CASES)
def test_dhall(case: str) -> None:
    from lark import Lark

    text = rendered("dhall", case)
    tree = Lark(DHALL_GRAMMAR, parser="earley").parse(text)
    tools = tree.children[-1]  # the expression after any let
    assert tools.data == "record_lit"
    renamed = iter(json.loads(t) for t in re.findall(r'-- Tool name: (".*")\.', text))
    json_names = {json.loads(n) for n in re.findall(r'JSON name (".*?(?<!\\)")', text)}
    ts = load_case(case)
    found = Found()
    for entry, tool in zip(tools.children, ts):
        label = str(entry.children[0].children[0]).strip("`")
        params = found.tool(label if label == tool.name else next(renamed))
        spec = entry.children[1]
        arguments = spec.children[0].children[1]
        for f in arguments.children if arguments.data == "record_type" else ():
            name = str(f.children[0].children[0]).strip("`")
            name = name if tool.param(name) is not None else next(
                n for n in json_names if tool.param(n) is not None and n not in params)
            params[name] = None
            p = tool.param(name)
            is_optional = getattr(f.children[1], "data", None) == "app" and str(
                f.children[1].children[0]) == "Optional"
            assert is_optional == (not p.required or (p.type.nullable and p.type.kind not in (
                "null", "any"))), (tool.name, name)
    for f in tree.find_data("field_type"):
        found.names.add(str(f.children[0].children[0]).strip("`"))
    found.names |= json_names
    check(found, ts)


# -- markup --------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_xml_attributes(case: str) -> None:
    root = SafeET.fromstring(rendered("xml_attributes", case))
    found = Found()
    for tool in root.findall("tool"):
        params = found.tool(tool.get("name"))
        for p in tool.findall("param"):
            params[p.get("name")] = json.loads(p.get("required"))
        for p in tool.iter("param"):
            found.names.add(p.get("name"))
    check(found, load_case(case))
    if case == "awkward":
        unites = root.find("tool[@name='météo_prévision']/param[@name='unités']")
        assert json.loads(unites.get("enum")) == ["°C", "°F", "a|b", 'q"uote']
        assert json.loads(unites.get("default")) == "°C"


def _json_kind(value: Any) -> str:
    return {bool: "boolean", int: "integer", float: "number", str: "string", dict: "object",
            list: "array", type(None): "null"}[type(value)]


def _xml_instance(value: Any, t: TypeIR, name: str) -> str:
    """An XML instance of a JSON value of type ``t`` in the XSD format's shape: arrays as
    ``item`` elements, a union with an object option as an element named after the kind of
    the option taken."""
    from xml.sax.saxutils import escape

    if t.kind == "union" and any(o.kind in ("object", "array") for o in t.options):
        option = next(o for o in t.options if (o.enum_base() if o.kind == "enum" else o.kind)
                      == _json_kind(value) or (o.kind == "number" and isinstance(value, int)))
        label = option.enum_base() if option.kind == "enum" else option.kind
        return f"<{name}>{_xml_instance(value, option, label)}</{name}>"
    if isinstance(value, dict):
        fields = {f.name: f.type for f in t.fields}
        inner = "".join(_xml_instance(v, fields.get(k, TypeIR("any")), k)
                        for k, v in value.items())
    elif isinstance(value, list):
        item = t.items if t.items is not None else TypeIR("any")
        inner = "".join(_xml_instance(v, item, "item") for v in value)
    elif value is None:
        return f'<{name} xsi:nil="true"/>'
    else:
        inner = escape(value if isinstance(value, str) else json.dumps(value))
    return f"<{name}>{inner}</{name}>"


@pytest.mark.parametrize("case", CASES)
def test_xsd(case: str) -> None:
    import xmlschema

    text = rendered("xsd", case)
    schema = xmlschema.XMLSchema(text)
    ns = "{http://www.w3.org/2001/XMLSchema}"
    tf = "{urn:toolform:schema}"
    root = SafeET.fromstring(text)
    ts = load_case(case)
    found = Found()
    tools = [e for e in root.findall(f"{ns}element") if not any(
        d.text and d.text.startswith("What ") and d.text.endswith(" returns.")
        for d in e.iter(f"{ns}documentation") if d in list(e.iter())[:4])]
    for el in tools:
        params = found.tool(el.get(f"{tf}name", el.get("name")))
        group = el.find(f"{ns}complexType/{ns}all")
        for child in group.findall(f"{ns}element") if group is not None else ():
            params[child.get(f"{tf}name", child.get("name"))] = child.get("minOccurs") != "0"
        for child in el.iter(f"{ns}element"):
            found.names.add(child.get(f"{tf}name", child.get("name")))
    check(found, ts)
    if case in toolsets.TIERS:  # an instance of each example call validates
        from toolform.formats._common import example_arguments

        for tool in ts:
            for variant in (0, 1):
                instance = _xml_instance(example_arguments(tool, variant), tool.input_type,
                                         tool.name)
                instance = instance.replace(
                    f"<{tool.name}>", f'<{tool.name} xmlns:xsi='
                    f'"http://www.w3.org/2001/XMLSchema-instance">', 1)
                schema.validate(instance)


@pytest.mark.parametrize("case", CASES)
def test_html_forms(case: str) -> None:
    import lxml.html

    text = rendered("html_forms", case)
    root = SafeET.fromstring(f"<body>{text}</body>")  # well-formed XHTML
    assert len(lxml.html.fragments_fromstring(text)) == len(load_case(case))
    found = Found()
    for form in root.findall("form"):
        params = found.tool(form.get("name"))
        for control in form:
            name = control.get("name")
            if control.tag in ("input", "select", "textarea", "fieldset") and name:
                params[name] = control.get("required") == "required"
        for control in form.iter():
            name = control.get("name") or ""
            found.names |= set(re.findall(r"\[([^\[\]]+)\]", name))
    check(found, load_case(case))
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))  # unique ids, each with its label
    assert {e.get("for") for e in root.iter("label")} == set(ids)


@pytest.mark.parametrize("case", CASES)
def test_markdown_docs(case: str) -> None:
    text = rendered("markdown_docs", case)
    assert tree_sitter_errors("markdown", text) == []
    ts = load_case(case)
    found = Found()
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    assert len(sections) == len(ts)
    for section, tool in zip(sections, ts):
        params = found.tool(tool.name if section.startswith(tool.name) else section.split("\n")[0])
        for indent, name, words in re.findall(r"^( *)- (`+ ?.*? ?`+) \(([^)]*)", section, re.M):
            name = re.sub(r"^`+ ?|  ?`+$|`+$", "", name)
            if not indent:
                params[name] = words.split(", ")[1] == "required"
            found.names.add(name)
        example = json.loads(re.search(r"```+json\n(.*)\n```", section).group(1))
        assert example["name"] == tool.name and set(example["arguments"]) == set(top(tool))
    check(found, ts)


@pytest.mark.parametrize("case", CASES)
def test_rest_endpoints(case: str) -> None:
    from urllib.parse import unquote

    text = rendered("rest_endpoints", case)
    ts = load_case(case)
    found = Found()
    blocks = text.strip("\n").split("\n\n")
    assert len(blocks) == len(ts)
    line_shape = re.compile(r"^(    (?:  )*)(\S.*?) \(([^()]*(?:\([^()]*\)[^()]*)*)\)(?:: .*)?$")
    for block in blocks:
        head = re.match(r"POST /(\S+)(?: \(tool (\".*\")\))?$", block.split("\n")[0])
        assert head, block.split("\n")[0]
        params = found.tool(json.loads(head.group(2)) if head.group(2) else unquote(head.group(1)))
        for line in block.split("\n")[1:]:
            m = line_shape.match(line)
            if m is None:
                assert line.startswith("  ") and not line.startswith("    "), line
                continue
            name = json.loads(m.group(2)) if m.group(2).startswith('"') else m.group(2)
            if m.group(1) == "    ":
                params[name] = m.group(3).split(", ")[1] == "required"
            found.names.add(name)
    check(found, ts)


@pytest.mark.parametrize("case", CASES)
def test_curl_examples(case: str) -> None:
    text = rendered("curl_examples", case)
    assert tree_sitter_errors("bash", text) == []
    ts = load_case(case)
    blocks = text.strip("\n").split("\n\n")
    assert len(blocks) == len(ts)
    for block, tool in zip(blocks, ts):
        commands = [c for c in re.split(r"^(?=curl )", block, flags=re.M) if c.startswith("curl")]
        bodies = []
        for command in commands:
            argv = shlex.split(command, comments=True)
            assert argv[:3] == ["curl", "-X", "POST"]
            bodies.append(json.loads(argv[argv.index("-d") + 1]))
            assert list(bodies[-1]) == [p.name for p in tool.params]
        assert len(bodies) == (2 if tool.name == "plan_trip" else len(bodies))
        assert block.startswith(f"# {tool.name}")
