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
REAL = sorted((ROOT.parent / "shared" / "real" / "mcp").glob("*.json"))
CASES = [*toolsets.BUILT, *(f"real:{p.stem}" for p in REAL)]


@functools.lru_cache(maxsize=None)
def load_case(case: str) -> Toolset:
    if case.startswith("real:"):
        from toolform.io import load_tools

        return load_tools(ROOT.parent / "shared" / "real" / "mcp" / f"{case[5:]}.json")
    return toolsets.BUILT[case]()


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


def gold_calls(toolset: Toolset) -> list[str]:
    """Calls of every tool written by the ``json_object`` protocol: with the required
    arguments only, with every argument, and two calls at once."""
    from toolform.formats._common import example_arguments

    writer = get_protocol("json_object").protocol
    out = []
    for tool in toolset:
        for variant in (0, 1):
            out.append(writer.write([ToolCall(tool.name, example_arguments(tool, variant))],
                                    toolset))
    if len(toolset) >= 1:
        calls = [ToolCall(t.name, example_arguments(t, 1)) for t in list(toolset)[:2]]
        out.append(writer.write(calls * (2 if len(calls) == 1 else 1), toolset))
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
    ts = load_case(case)
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
    _jsonnet = pytest.importorskip("_jsonnet")
    from toolform.formats._common import function_entry

    value = json.loads(_jsonnet.evaluate_snippet("tools.jsonnet", rendered("jsonnet", case)))
    assert value == [function_entry(t) for t in load_case(case)]


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
    # required but nullable arguments are not non-null: read them from the description
    for (tool_name, params), tool in zip(found.tools, ts):
        for p in tool.params:
            if p.required and params.get(p.name) is False:
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
