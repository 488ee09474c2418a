"""Validity tests for the 30 code formats of ``toolform/formats/_code_langs.py``.

Every format is rendered over the tier toolsets, the awkward toolset and every real MCP capture
and read with its language's real parser: tree-sitter grammars from ``tree-sitter-language-pack``
0.13 (no ERROR or MISSING node; OCaml through the ``ocaml_interface`` grammar, since the format
is an ``.mli``), ``ast.parse`` for the Python dialects and ``sqlglot`` (PostgreSQL dialect, no
statement left unparsed) for ``sql_udf``. On top of parsing, the blocks are read back where the
language makes that sure: SQL functions, Zig and Go declarations and TypeScript properties
through their parse trees, the Python dialects by importing the module (the pydantic models'
JSON Schema, the dataclass fields, the argparse parser) or through ``ast``.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from toolform.evidence import load_evidence
from toolform.errors import RenderError
from toolform.formats import RenderOptions, format_ids, get_format, render_block
from toolform.formats._common import json_text
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR

import toolsets

LANGS = {
    "go_signature": "go", "rust_signature": "rust", "java_signature": "java",
    "kotlin_signature": "kotlin", "swift_signature": "swift", "csharp_signature": "csharp",
    "c_header": "c", "cpp_signature": "cpp", "haskell_curried": "haskell",
    "ocaml_signature": "ocaml", "scala_signature": "scala", "elixir_signature": "elixir",
    "julia_signature": "julia", "ruby_signature": "ruby", "php_signature": "php",
    "lua_signature": "lua", "zig_signature": "zig", "r_signature": "r",
    "matlab_signature": "matlab", "sql_udf": "sql", "bash_function": "bash",
    "python_stub_numpy": "python", "python_signature_only": "python",
    "python_pydantic": "python", "python_dataclass": "python", "python_argparse": "python",
    "python_protocol": "python", "typescript_dts": "typescript",
    "typescript_interface_arg": "typescript", "typescript_compact": "typescript",
}
FORMATS = list(LANGS)
GRAMMAR = {"ocaml": "ocaml_interface"}  # the pack's name for the grammar of .mli files
ROOT = Path(__file__).resolve().parents[1]
CASES = toolsets.CASES
STUDY_KEYS = ("family", "default_protocol", "supports_nesting", "supports_enum",
              "supports_constraints", "supports_optional", "supports_returns", "lossy",
              "compressed", "core", "novel", "two_stage")


load_case = toolsets.load_case


def nested(t: TypeIR, unions: bool = True) -> Iterator[ParamIR]:
    """Every field nested in ``t`` (through arrays, and union options unless ``unions`` is
    False)."""
    if t.kind == "object":
        for f in t.fields:
            yield f
            yield from nested(f.type, unions)
    elif t.kind == "array" and t.items is not None:
        yield from nested(t.items, unions)
    elif t.kind == "union" and unions:
        for o in t.options:
            yield from nested(o, unions)


def enum_values(t: TypeIR, unions: bool = True) -> Iterator[Any]:
    """Every enum value inside ``t`` (``unions=False``: not looking inside unions)."""
    if t.kind == "enum":
        yield from t.values
    options = t.options if unions else ()
    for child in (*(f.type for f in t.fields), *options,
                  *([t.items] if t.items is not None else [])):
        yield from enum_values(child, unions)


# -- parsers -------------------------------------------------------------------------------------

def iter_nodes(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def tree_sitter_parse(language: str, text: str) -> Any:
    tslp = pytest.importorskip("tree_sitter_language_pack")
    tree = tslp.get_parser(GRAMMAR.get(language, language)).parse(text.encode("utf-8"))
    bad = [(n.type, n.start_point, n.text[:60]) for n in iter_nodes(tree.root_node)
           if n.type == "ERROR" or n.is_missing]
    assert not bad, bad
    return tree


def sql_parse(text: str) -> list[Any]:
    sqlglot = pytest.importorskip("sqlglot")
    from sqlglot import exp
    statements = [s for s in sqlglot.parse(text, read="postgres") if s is not None]
    assert not [s for s in statements if isinstance(s, exp.Command)], "unparsed statement"
    return statements


def parse(fmt: str, text: str) -> Any:
    language = LANGS[fmt]
    if language == "python":
        return ast.parse(text)
    if language == "sql":
        return sql_parse(text)
    return tree_sitter_parse(language, text)


def import_block(text: str, tmp_path: Path, name: str) -> Any:
    """Import a rendered Python block as a module (it must run, not only parse)."""
    if sys.version_info < (3, 11):
        pytest.skip("the stubs use typing names of Python 3.11")
    path = tmp_path / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def python_strings(text: str) -> str:
    """The values of a Python block's string constants (docstrings included), one a line."""
    return "\n".join(n.value for n in ast.walk(ast.parse(text))
                     if isinstance(n, ast.Constant) and isinstance(n.value, str))


def shows(text: str, value: str, fmt: str) -> bool:
    """``value`` appears in ``text`` as is, or as a string literal of the block's language."""
    if LANGS[fmt] == "python":
        text += "\n" + python_strings(text)
    forms = {value, json_text(value)[1:-1]}
    if LANGS[fmt] == "sql":
        forms |= {value.replace("'", "''"), value.replace('"', '""')}
    return any(form in text for form in forms)


# -- the registry --------------------------------------------------------------------------------

def test_every_code_format_is_registered() -> None:
    assert sorted(format_ids(family="code")) == sorted([*FORMATS, "python_stub", "typescript"])
    from toolform.formats import _code_langs
    assert sorted(_code_langs.__all__) == sorted(FORMATS) == _code_langs.__all__


@pytest.mark.parametrize("fmt", FORMATS)
def test_spec_agrees_with_study(fmt: str) -> None:
    spec = get_format(fmt)
    assert spec.id == spec.render.__name__ == fmt
    assert spec.language == LANGS[fmt]
    row = {r["format_id"]: dict(r) for r in load_evidence("formats").rows}[fmt]
    for key in STUDY_KEYS:
        assert getattr(spec, key) == row[key], key


# -- every block parses and shows every name -----------------------------------------------------

def compile_cpp(text: str) -> None:
    """Check C++ source with ``g++ -fsyntax-only`` (nlohmann's header stubbed), or skip."""
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ is not installed, and tree-sitter-cpp cannot read this source")
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "nlohmann").mkdir()
        (Path(tmp) / "nlohmann" / "json.hpp").write_text("namespace nlohmann { struct json {}; }\n")
        source = Path(tmp) / "tools.cpp"
        source.write_text(text, encoding="utf-8")
        done = subprocess.run([gxx, "-std=c++17", "-fsyntax-only", "-I", tmp, str(source)],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[:2000]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("fmt", FORMATS)
def test_block_parses_and_shows_every_name(fmt: str, case: str) -> None:
    toolset = load_case(case)
    text = render_block(toolset, fmt)
    assert text == render_block(toolset, fmt)  # deterministic
    assert text == render_block(Toolset.from_dict(toolset.to_dict()), fmt)  # a function of the IR
    if (fmt, case) == ("cpp_signature", "recursive"):
        compile_cpp(text)  # tree-sitter-cpp cannot read template arguments nested this deep
    else:
        parse(fmt, text)
    for tool in toolset:
        assert shows(text, tool.name, fmt), tool.name
        for p in (*tool.params, *(f for p in tool.params for f in nested(p.type))):
            assert shows(text, p.name, fmt), (tool.name, p.name)
        for p in tool.params:
            for value in enum_values(p.type):
                shown = value if isinstance(value, str) else json_text(value)
                assert shows(text, shown, fmt), (tool.name, p.name, value)


@pytest.mark.parametrize("fmt", FORMATS)
def test_descriptions_option(fmt: str) -> None:
    toolset = toolsets.tier5()
    assert ("Plan a trip with stops" in render_block(toolset, fmt)) == \
        (not get_format(fmt).compressed)  # the compressed formats never show prose
    text = render_block(toolset, fmt, options=RenderOptions(include_descriptions=False))
    assert "Plan a trip with stops" not in text and "Search radius" not in text
    parse(fmt, text)


@pytest.mark.parametrize("fmt", FORMATS)
def test_returns_option(fmt: str) -> None:
    toolset = toolsets.tier3()  # create_order returns {order_id, total}
    assert "order_id" in render_block(toolset, fmt)
    text = render_block(toolset, fmt, options=RenderOptions(include_returns=False))
    assert "order_id" not in text
    parse(fmt, text)


@pytest.mark.parametrize("fmt", FORMATS)
def test_depth_guard(fmt: str) -> None:
    with pytest.raises(RenderError, match="max_depth"):
        render_block(toolsets.deep(20), fmt)
    parse(fmt, render_block(toolsets.deep(5), fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_empty_toolset(fmt: str) -> None:
    parse(fmt, render_block(Toolset(()), fmt))


# -- names the language cannot spell: the documented way --------------------------------------

AWKWARD_SNIPPETS = {
    "go_signature": ['func MathFactorial(n int, type_ *MathFactorialType',
                     'is the tool "API-post-page"',
                     '`json:"x-y|z,omitempty"`', '`json:"class"`'],
    "rust_signature": ["pub fn math_factorial(n: i64, r#type: Option<MathFactorialType>",
                       '#[serde(rename = "x-y|z")]', "/// Tool name: API-post-page",
                       '* `page_id` (name "page-id")'],
    "java_signature": ['@JsonProperty("page-id") String page_id', "Object delete(long def)",
                       '@JsonProperty("°C") C'],
    "kotlin_signature": ["`class`: String? = null", '@SerialName("x-y|z") val x_y_z: Long? = null',
                         "unités: MeteoPrevisionUnites = MeteoPrevisionUnites.C"],
    "swift_signature": ['case x_y_z = "x-y|z"', 'case c = "°C"', "`class`: String?"],
    "csharp_signature": ['string? @class = null', '[JsonPropertyName("page-id")] string page_id',
                         "Tool name: <![CDATA[a&b<c>]]>"],
    "c_header": ["void *math_factorial(int64_t n, const char *type, const char *class);",
                 "Tool name: math.factorial", 'Optional, one of "exact", "gamma".'],
    "cpp_signature": ["nlohmann::json delete_(std::int64_t def);", 'q_uote,  /**< "q\\"uote" */',
                      "MeteoPrevisionUnites unites = MeteoPrevisionUnites::c"],
    "haskell_curried": ["  -> Maybe Text  -- ^ class: A keyword as a name.",
                        "  :: Text  -- ^ page-id", "MeteoPrevisionUnitesC  -- ^ \"°C\""],
    "ocaml_signature": ['?class_:(string [@key "class"])', 'x_y_z : int option [@key "x-y|z"];',
                        '`C [@name "°C"]', "Say <b>''hi''</b>"],
    "scala_signature": ["def `math.factorial`(n: Long, `type`:", '`x-y|z`: Option[Long] = None',
                        'case QUote extends MeteoPrevisionUnites("q\\"uote")'],
    "elixir_signature": ['optional(:"x-y|z") => integer()', ':"°C" | :"°F"',
                         "def math_factorial(n, opts \\\\ [])"],
    "julia_signature": ['function var"math.factorial"(n::Int; type::Union{String, Nothing}=nothing',
                        'var"x-y|z"::Union{Int, Nothing} = nothing'],
    "ruby_signature": ["def math_factorial(n:, type: nil, class_: nil); end",
                       '?"x-y|z": Integer', '# @param class_ (name "class")'],
    "php_signature": ["public function math_factorial(int $n, ?MathFactorialType $type = null",
                      "case QUote = 'q\"uote';", '@param ?int $x_y_z (name "x-y|z")'],
    "lua_signature": ['---@field ["x-y|z"]? integer', '---@alias MeteoPrevisionUnites "°C"|"°F"',
                      "function API_post_page(page_id, body) end"],
    "zig_signature": ['pub fn @"math.factorial"(n: i64, @"type": ?MathFactorialType',
                      'pub const MeteoPrevisionUnites = enum '
                      '{ @"°C", @"°F", @"a|b", @"q\\"uote" };'],
    "r_signature": ["math.factorial <- function(n, type = NULL, class = NULL) NULL",
                    "`API-post-page` <- function(`page-id`, body) NULL"],
    "matlab_signature": ['opts.type (1,1) string {mustBeMember(opts.type, ["exact", "gamma"])}',
                         'opts.unites (name "unités")',
                         "n (1,1) int64 {mustBeGreaterThanOrEqual(n, 0)}"],
    "sql_udf": ['CREATE FUNCTION "API-post-page"("page-id" TEXT, body api_post_page_body)',
                "CREATE TYPE meteo_prevision_unites AS ENUM ('°C', '°F', 'a|b', 'q\"uote');"],
    "bash_function": ["API-post-page() {", '  local page_id=""  # --page-id',
                      "# Usage: math.factorial --n <integer> [--type <exact|gamma>] "
                      "[--class <string>]"],
    "python_stub_numpy": ["class_ : str, optional", 'Argument names: class_ is "class".'],
    "python_signature_only": ['APIPostPageBody = TypedDict("APIPostPageBody", {"class": str, '
                              '"x-y|z": NotRequired[int], "ok": bool})',
                              '# Tool name: math.factorial; Argument names: class_ is "class".'],
    "python_pydantic": ['model_config = ConfigDict(title="API-post-page")',
                        'page_id: str = Field(alias="page-id")',
                        'n: int = Field(ge=0, description="A non-negative integer.")'],
    "python_dataclass": ['page_id: str = field(metadata={"name": "page-id"})',
                         "def API_post_page(args: APIPostPageArgs) -> Any:"],
    "python_argparse": ['cmd.add_argument("--page-id", dest="page-id", required=True)',
                        'cmd.add_argument("--type", choices=["exact", "gamma"], help="Method.")'],
    "python_protocol": ["def delete(self, def_: int) -> Any:", "class Tools(Protocol):"],
    "typescript_dts": ["declare namespace tools {", '    "page-id": string;',
                       "  function delete_(params: {"],
    "typescript_interface_arg": ["interface APIPostPageArgs {",
                                 "declare function API_post_page(args: APIPostPageArgs): unknown;"],
    "typescript_compact": ['declare function math_factorial(params: { n: number; type?: "exact" | '
                           '"gamma"; class?: string }): unknown; // math.factorial'],
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_awkward_names_are_kept_the_documented_way(fmt: str) -> None:
    text = render_block(toolsets.awkward(), fmt)
    for snippet in AWKWARD_SNIPPETS[fmt]:
        assert snippet in text, snippet


def test_comment_text_cannot_end_its_comment() -> None:
    tool = ToolIR("t", 'ends */ then /* and *) (* "odd \\u002a/ {|x|} \x07\u2028line', (
        ParamIR("p", TypeIR("string"), "*/ /* *) (*"),))
    toolset = Toolset((tool,))
    for fmt in FORMATS:
        parse(fmt, render_block(toolset, fmt))
    java = render_block(toolset, "java_signature")
    assert "\\\\u002a/" in java and "*\\/" in java and "/\\*" in java
    ocaml = render_block(toolset, "ocaml_signature")
    comments = re.findall(r"\(\*\*.*?\*\)", ocaml, re.S)
    assert comments and not any('"' in c or "{|" in c for c in comments)
    assert "\\x07" in render_block(toolset, "go_signature")  # control characters spelled out
    assert "\u2028" not in render_block(toolset, "csharp_signature")


# -- reading blocks back -------------------------------------------------------------------------

def ts_text(node: Any) -> str:
    return node.text.decode("utf-8")


def zig_name(text: str) -> str:
    return json.loads(text[1:]) if text.startswith('@"') else text


@pytest.mark.parametrize("case", CASES)
def test_zig_arguments_read_back(case: str) -> None:
    toolset = load_case(case)
    tree = tree_sitter_parse("zig", render_block(toolset, "zig_signature"))
    functions = [n for n in iter_nodes(tree.root_node) if n.type == "FnProto"]
    assert len(functions) == len(toolset)
    for tool, fn in zip(toolset, functions):
        params = [n for n in iter_nodes(fn) if n.type == "ParamDecl"]
        got = []
        for param in params:
            name, _, kind = ts_text(param).partition(": ")
            got.append((zig_name(name), not kind.startswith("?") or tool.param(
                zig_name(name)).type.nullable))
        want = [(p.name, p.required or p.type.nullable)
                for p in sorted(tool.params, key=lambda p: not p.required)]
        assert got == want


@pytest.mark.parametrize("case", CASES)
def test_go_struct_tags_read_back(case: str) -> None:
    toolset = load_case(case)
    tree = tree_sitter_parse("go", render_block(toolset, "go_signature"))
    toolset = toolsets.shown(toolset, "go_signature")
    tags = {json.loads(ts_text(n)[1:-1].removeprefix("json:"))
            for n in iter_nodes(tree.root_node) if n.type == "raw_string_literal"}
    tags |= {json.loads(json.loads(ts_text(n)).removeprefix("json:"))
             for n in iter_nodes(tree.root_node) if n.type == "interpreted_string_literal"
             and ts_text(n).startswith('"json:')}
    # Go has no unions (they are ``any``), so objects inside one are not structs
    want = {f.name + ("" if f.required else ",omitempty")
            for tool in toolset for p in tool.params for f in nested(p.type, unions=False)}
    want |= {f.name + ("" if f.required else ",omitempty") for tool in toolset
             if tool.returns is not None for f in nested(tool.returns, unions=False)}
    assert tags == want
    functions = [n for n in tree.root_node.children if n.type == "function_declaration"]
    assert [len(f.child_by_field_name("parameters").named_children) for f in functions] == \
        [len(t.params) for t in toolset]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("fmt", ["typescript_dts", "typescript_interface_arg",
                                 "typescript_compact"])
def test_typescript_properties_read_back(fmt: str, case: str) -> None:
    toolset = load_case(case)
    tree = tree_sitter_parse("typescript", render_block(toolset, fmt))
    props = set()
    for node in iter_nodes(tree.root_node):
        if node.type == "property_signature":
            key = node.named_children[0]
            name = json.loads(ts_text(key)) if key.type == "string" else ts_text(key)
            props.add((name, not any(c.type == "?" for c in node.children)))
    want = {(f.name, f.required) for tool in toolset
            for f in (*tool.params, *(g for p in tool.params for g in nested(p.type)))}
    assert want <= props


@pytest.mark.parametrize("case", CASES)
def test_sql_functions_read_back(case: str) -> None:
    from sqlglot import exp
    toolset = load_case(case)
    block = render_block(toolset, "sql_udf")
    statements = sql_parse(block)
    functions = [s for s in statements if isinstance(s, exp.Create)
                 and isinstance(s.this, exp.UserDefinedFunction)]
    assert [f.this.this.name for f in functions] == toolset.names
    for tool, fn in zip(toolset, functions):
        got = [(c.name, c.find(exp.DefaultColumnConstraint) is None)
               for c in fn.this.expressions]
        assert got == [(p.name, p.required) for p in sorted(tool.params,
                                                              key=lambda p: not p.required)]
    enums = [s for s in statements if isinstance(s, exp.Create)
             and isinstance(s.expression, exp.DataType) and s.expression.is_type("enum")]
    values = {lit.this for e in enums for lit in e.expression.expressions}
    want = {v for tool in toolset for p in tool.params for v in enum_values(p.type, unions=False)
            if isinstance(v, str)}
    assert want <= values
    # a union is JSONB: its enum options' values are spelled in the function's comment
    for tool in toolset:
        for p in tool.params:
            in_unions = {v for v in enum_values(p.type) if isinstance(v, str)}
            in_unions -= set(enum_values(p.type, unions=False))
            assert all(json.dumps(v) in block or f"'{v}'" in block for v in in_unions), p.name


def model_classes(module: Any) -> list[Any]:
    from pydantic import BaseModel
    return [v for v in vars(module).values() if isinstance(v, type) and issubclass(v, BaseModel)
            and v is not BaseModel and v.__module__ == module.__name__]


@pytest.mark.parametrize("case", CASES)
def test_pydantic_models_build_with_the_true_schema(case: str, tmp_path: Path) -> None:
    pytest.importorskip("pydantic")
    toolset = load_case(case)
    module = import_block(render_block(toolset, "python_pydantic"), tmp_path, "pyd")
    models = {m.model_config.get("title"): m for m in model_classes(module)}
    for tool in toolset:
        schema = models[tool.name].model_json_schema(by_alias=True)
        assert list(schema.get("properties", {})) == [p.name for p in tool.params]
        assert schema.get("required", []) == [p.name for p in tool.params if p.required]
        text = json.dumps(schema, ensure_ascii=False)
        for p in tool.params:
            for f in nested(p.type):
                assert json_text(f.name) in text
            for value in enum_values(p.type):
                assert json_text(value) in text


def test_pydantic_constraints_validate(tmp_path: Path) -> None:
    pydantic = pytest.importorskip("pydantic")
    module = import_block(render_block(toolsets.tier4(), "python_pydantic"), tmp_path, "pyd4")
    model = module.ListTickets
    call = {"project": "ABC", "filter": {"window": {"start": "2024-01-01"}}, "limit": 5}
    assert model.model_validate(call).limit == 5
    with pytest.raises(pydantic.ValidationError):
        model.model_validate({**call, "limit": 101})
    with pytest.raises(pydantic.ValidationError):
        model.model_validate({**call, "filter": {"window": {}}})
    awkward = import_block(render_block(toolsets.awkward(), "python_pydantic"), tmp_path, "pyda")
    page = awkward.APIPostPage.model_validate(
        {"page-id": "p1", "body": {"class": "c", "ok": True, "x-y|z": 3}})
    assert page.model_dump(by_alias=True)["body"]["x-y|z"] == 3


@pytest.mark.parametrize("case", CASES)
def test_dataclass_fields_read_back(case: str, tmp_path: Path) -> None:
    toolset = load_case(case)
    module = import_block(render_block(toolset, "python_dataclass"), tmp_path, "dc")
    for tool in toolset:
        function = next(v for k, v in vars(module).items() if callable(v) and not isinstance(
            v, type) and (k == tool.name or f"Tool name: {tool.name}" in (v.__doc__ or "")))
        if not tool.params:
            assert not function.__annotations__.keys() - {"return"}
            continue
        bundle = function.__annotations__["args"]
        bundle = getattr(module, bundle) if isinstance(bundle, str) else bundle
        got = {f.metadata.get("name", f.name): f.default is dataclasses.MISSING
               and f.default_factory is dataclasses.MISSING for f in dataclasses.fields(bundle)}
        assert got == {p.name: p.required for p in tool.params}


@pytest.mark.parametrize("case", CASES)
def test_argparse_parser_reads_a_call(case: str, tmp_path: Path) -> None:
    toolset = load_case(case)
    module = import_block(render_block(toolset, "python_argparse"), tmp_path, "cli")
    commands = module.tools.choices
    assert list(commands) == toolset.names
    for tool in toolset:
        command = commands[tool.name]
        command.format_help()  # every help string formats
        actions = {a.option_strings[0]: a for a in command._actions if a.dest != "help"}
        assert list(actions) == [f"--{p.name}" for p in tool.params]
        for p in tool.params:
            action = actions[f"--{p.name}"]
            assert action.dest == p.name and action.required == p.required
            if p.type.kind == "enum" and p.type.values:
                assert list(action.choices) == list(p.type.values)
    tool = toolsets.tier4().tools[0]
    if case == "tier4":
        args = module.parser.parse_args(["list_tickets", "--project", "ABC", "--filter",
                                         '{"window": {"start": "2024-01-01"}}', "--labels", "a",
                                         "b", "--sort", "updated"])
        assert vars(args) == {"tool": tool.name, "project": "ABC", "labels": ["a", "b"],
                              "filter": {"window": {"start": "2024-01-01"}}, "sort": "updated",
                              "limit": 20}


def python_signatures(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef, str]]:
    """Each tool function (or Protocol method) with the comment or docstring naming it."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            yield node, ast.get_docstring(node) or ""


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("fmt", ["python_stub_numpy", "python_protocol",
                                 "python_signature_only"])
def test_python_signatures_read_back(fmt: str, case: str) -> None:
    toolset = load_case(case)
    text = render_block(toolset, fmt)
    tree = ast.parse(text)
    lines = text.split("\n")
    functions = list(python_signatures(tree))
    assert len(functions) == len(toolset)
    for tool, (fn, doc) in zip(toolset, functions):
        note = doc if fmt != "python_signature_only" else lines[fn.end_lineno - 1]
        renamed = dict(re.findall(r'(\w+) is ("(?:[^"\\]|\\.)*")', note))
        args = [a for a in fn.args.args if a.arg != "self"]
        first_default = len(args) - len(fn.args.defaults)
        got = [(json.loads(renamed[a.arg]) if a.arg in renamed else a.arg, i < first_default)
               for i, a in enumerate(args)]
        assert got == [(p.name, p.required) for p in sorted(tool.params,
                                                            key=lambda p: not p.required)]
        if fn.name != tool.name:
            assert f"Tool name: {tool.name}" in note


def test_sqlglot_reads_named_arguments_in_a_call() -> None:
    """The names a ``sql_call`` answer would use are the function's own."""
    from sqlglot import exp
    text = render_block(toolsets.awkward(), "sql_udf")
    create = next(s for s in sql_parse(text) if isinstance(s, exp.Create)
                  and isinstance(s.this, exp.UserDefinedFunction)
                  and s.this.this.name == "API-post-page")
    assert [c.name for c in create.this.expressions] == ["page-id", "body"]
