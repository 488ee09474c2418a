"""Conformance tests for the eight core schema formats.

Every format is rendered over the tier toolsets, an awkward toolset and every real MCP capture,
then read back with the language's real parser (json, PyYAML, defusedxml, ast, tree-sitter's
TypeScript grammar, markdown-it's GFM tables); from what the parser gives back each test checks
tool names, parameter names (nested too), required flags and enum values against the IR.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import replace
from typing import Any, Iterator

import pytest
import yaml
from defusedxml import ElementTree as SafeET
from jsonschema import Draft202012Validator

from toolform.errors import RenderError
from toolform.evidence import load_evidence
from toolform.formats import RenderOptions, format_ids, get_format, render, render_block
from toolform.formats._common import MAX_LEVELS, json_text, markdown_cell, python_identifier
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR

import toolsets

CORE = ["xml_schema", "natural_language", "python_stub", "typescript", "json_schema_openai",
        "json_minimal", "yaml_schema", "markdown_table"]
CASES = toolsets.CASES
load_case = toolsets.load_case


# -- what the IR says should be visible ----------------------------------------------------------

def walk_fields(t: TypeIR, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], ParamIR]]:
    """(path, field) for every field nested in ``t`` (through arrays and union options)."""
    if t.kind == "object":
        for f in t.fields:
            yield (*path, f.name), f
            yield from walk_fields(f.type, (*path, f.name))
    elif t.kind == "array" and t.items is not None:
        yield from walk_fields(t.items, (*path, "[]"))
    elif t.kind == "union":
        for i, o in enumerate(t.options, 1):
            yield from walk_fields(o, (*path, f"#{i}"))


def nested(tool: ToolIR, returns: bool = True) -> list[tuple[tuple[str, ...], ParamIR]]:
    """Fields below the top level, of the parameters and (optionally) of the return type."""
    out = [row for p in tool.params for row in walk_fields(p.type, (p.name,))]
    if returns and tool.returns is not None:
        out += list(walk_fields(tool.returns, ("(result)",)))
    return out


def enum_values(tool: ToolIR) -> list[Any]:
    out = []

    def visit(t: TypeIR) -> None:
        out.extend(t.values)
        for f in t.fields:
            visit(f.type)
        for o in (t.items, *t.options):
            if o is not None:
                visit(o)

    for p in tool.params:
        visit(p.type)
    return out


# -- readers: from each format's text back to names, required flags and values ------------------

class View:
    """What a parser found: per tool, top-level ``{name: required}``, nested ``{(key, required)}``
    and the enum values it could see."""

    def __init__(self) -> None:
        self.top: dict[str, dict[str, bool]] = {}
        self.nested: dict[str, set[tuple[Any, bool]]] = {}
        self.values: dict[str, list[Any]] = {}

    def tool(self, name: str) -> None:
        self.top.setdefault(name, {})
        self.nested.setdefault(name, set())
        self.values.setdefault(name, [])


def read_json_schema(functions: list[dict[str, Any]]) -> View:
    view = View()

    def visit(tool: str, schema: dict[str, Any]) -> None:
        view.values[tool].extend(schema.get("enum", []))
        required = set(schema.get("required", []))
        for name, sub in schema.get("properties", {}).items():
            view.nested[tool].add((name, name in required))
            visit(tool, sub)
        for sub in [schema.get("items"), *schema.get("anyOf", []),
                    schema.get("additionalProperties"),
                    *schema.get("patternProperties", {}).values(),
                    *schema.get("$defs", {}).values()]:  # each named type once
            if isinstance(sub, dict):
                visit(tool, sub)

    for fn in functions:
        params = fn["parameters"]
        Draft202012Validator.check_schema(params)
        view.tool(fn["name"])
        view.top[fn["name"]] = {n: n in params.get("required", []) for n in params["properties"]}
        for sub in [*params["properties"].values(), *params.get("$defs", {}).values()]:
            visit(fn["name"], sub)
        if "returns" in fn:
            Draft202012Validator.check_schema(fn["returns"])
            visit(fn["name"], fn["returns"])
    return view


def read_openai(text: str) -> View:
    entries = json.loads(text)
    assert all(e["type"] == "function" and set(e) == {"type", "function"} for e in entries)
    return read_json_schema([e["function"] for e in entries])


def read_yaml(text: str) -> View:
    return read_json_schema(yaml.safe_load(text) or [])


def read_minimal(text: str) -> View:
    view = View()
    entries = json.loads(text)

    def visit(tool: str, t: Any) -> None:
        if isinstance(t, str):
            assert t in ("string", "integer", "number", "boolean", "null", "object", "any"), t
        elif isinstance(t, list):
            for o in t:
                visit(tool, o)
        else:
            (key,) = set(t) - {"required"}
            if key == "enum":
                view.values[tool].extend(t["enum"])
            elif key == "items":
                visit(tool, t["items"])
            else:
                assert key == "properties", t
                for name, sub in t["properties"].items():
                    view.nested[tool].add((name, name in t.get("required", [])))
                    visit(tool, sub)

    for e in entries:
        assert set(e) <= {"name", "parameters", "required", "returns"}
        view.tool(e["name"])
        view.top[e["name"]] = {n: n in e.get("required", []) for n in e["parameters"]}
        for sub in e["parameters"].values():
            visit(e["name"], sub)
        if "returns" in e:
            visit(e["name"], e["returns"])
    return view


def read_xml(text: str) -> View:
    root = SafeET.fromstring(text)
    assert root.tag == "tools"
    view = View()

    def visit(tool: str, el: Any) -> None:
        for child in el:
            if child.tag == "parameter":
                view.nested[tool].add((child.get("name"), child.get("required") == "true"))
            if child.tag == "value":
                view.values[tool].append(child.text or "")
            visit(tool, child)

    for tool in root.findall("tool"):
        name = tool.findtext("name")
        view.tool(name)
        for p in tool.find("parameters").findall("parameter"):
            assert p.get("required") in ("true", "false")
            view.top[name][p.get("name")] = p.get("required") == "true"
            visit(name, p)
        if tool.find("returns") is not None:
            visit(name, tool.find("returns"))
    return view


def read_python(text: str) -> View:
    module = ast.parse(text)
    view = View()
    fields: set[tuple[Any, bool]] = set()
    literals: list[Any] = []

    def annotation_fields(key: str, ann: ast.expr) -> tuple[str, bool]:
        optional = isinstance(ann, ast.Subscript) and getattr(ann.value, "id", "") == "NotRequired"
        return key, not optional

    for node in ast.walk(module):
        if isinstance(node, ast.Subscript) and getattr(node.value, "id", "") == "Literal":
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            literals.extend(ast.literal_eval(e) for e in elts)
        if isinstance(node, ast.ClassDef) and [b.id for b in node.bases] == ["TypedDict"]:
            fields.update(annotation_fields(s.target.id, s.annotation) for s in node.body
                          if isinstance(s, ast.AnnAssign))
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", "") == "TypedDict"):
            spec = node.value.args[1]
            fields.update(annotation_fields(ast.literal_eval(k), v)
                          for k, v in zip(spec.keys, spec.values))
    for fn in (n for n in module.body if isinstance(n, ast.FunctionDef)):
        doc = ast.get_docstring(fn) or ""
        named = re.search(r"^Tool name: (.*)$", doc, re.M)
        name = named.group(1) if named else fn.name
        if named:
            assert fn.name == python_identifier(name) or fn.name.startswith(python_identifier(name))
        renamed = {}
        line = re.search(r"^Argument names: (.*)\.$", doc, re.M)
        if line:
            for arg, real in re.findall(r'(\w+) is ("(?:[^"\\]|\\.)*")', line.group(1)):
                renamed[arg] = json.loads(real)
        args = fn.args.args
        first_default = len(args) - len(fn.args.defaults)
        view.tool(name)
        view.top[name] = {renamed.get(a.arg, a.arg): i < first_default for i, a in enumerate(args)}
        view.nested[name] = fields
        view.values[name] = literals
    return view


def typescript_tree(text: str) -> Any:
    tslp = pytest.importorskip("tree_sitter_language_pack")
    tree = tslp.get_parser("typescript").parse(text.encode("utf-8"))
    bad = [n for n in iter_nodes(tree.root_node) if n.type == "ERROR" or n.is_missing]
    assert not bad, [(n.type, n.start_point, n.text[:60]) for n in bad]
    assert not tree.root_node.has_error
    return tree


def iter_nodes(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def _ts_key(node: Any) -> str:
    text = node.text.decode("utf-8")
    return json.loads(text) if node.type == "string" else text


def _ts_properties(object_type: Any) -> dict[str, bool]:
    out = {}
    for prop in object_type.named_children:
        if prop.type == "property_signature":
            out[_ts_key(prop.named_children[0])] = not any(c.type == "?" for c in prop.children)
    return out


def read_typescript(text: str) -> View:
    tree = typescript_tree(text)
    view = View()
    fields: set[tuple[Any, bool]] = set()
    literals = []
    for node in iter_nodes(tree.root_node):
        if node.type == "interface_declaration":
            fields.update(_ts_properties(node.child_by_field_name("body")).items())
        if node.type == "literal_type":
            literals.append(json.loads(node.text.decode("utf-8")))
    for decl in tree.root_node.named_children:
        if decl.type != "ambient_declaration":
            continue
        sig = decl.named_children[0]
        name = sig.child_by_field_name("name").text.decode("utf-8")
        comment = decl.prev_named_sibling
        if comment is not None and comment.type == "comment":
            named = re.search(r"^ \* Tool name: (.*)$|^/\*\* Tool name: (.*) \*/$",
                              comment.text.decode("utf-8"), re.M)
            if named:
                name = named.group(1) or named.group(2)
        view.tool(name)
        params = sig.child_by_field_name("parameters").named_children
        if params:
            object_type = params[0].child_by_field_name("type").named_children[0]
            view.top[name] = _ts_properties(object_type)
        view.nested[name] = fields
        view.values[name] = literals
    return view


def read_markdown(text: str) -> View:
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    assert [t.type for t in tokens].count("table_open") == 1
    rows, row = [], None
    for t in tokens:
        if t.type == "tr_open":
            row = []
        elif t.type == "inline" and row is not None:
            row.append(t.content.replace("\\\\|", "\\|"))  # markdown-it removes one escape
        elif t.type == "tr_close":
            rows.append(row)
            row = None
    assert len({len(r) for r in rows}) == 1 and len(rows[0]) in (4, 5)
    assert rows[0][:4] == ["tool", "parameter", "type", "required"]
    # the same split by hand: unescaped pipes only
    for line in text.strip().split("\n"):
        assert len(re.split(r"(?<!\\)\|", line.replace("\\\\", "\0"))) == len(rows[0]) + 2
    view = View()
    for tool, path, kind, required, *_ in rows[1:]:
        view.tool(tool)
        if not path:
            assert kind.startswith("tool") and required == ""
            continue
        assert required in ("yes", "no")
        if "." in path or "[]" in path or "#" in path:
            view.nested[tool].add((path, required == "yes"))
        else:
            view.top[tool][path] = required == "yes"
        view.values[tool].append(kind)
    return view


READERS = {"json_schema_openai": read_openai, "yaml_schema": read_yaml,
           "json_minimal": read_minimal, "xml_schema": read_xml, "python_stub": read_python,
           "typescript": read_typescript, "markdown_table": read_markdown}


def md_path(path: tuple[str, ...]) -> str:
    out = path[0]
    for part in path[1:]:
        out += part if part == "[]" or part.startswith("#") else f".{part}"
    return out


# -- the conformance suite -----------------------------------------------------------------------

def test_core_formats_registered() -> None:
    assert sorted(format_ids(core=True)) == sorted(CORE)
    for fmt in CORE:
        spec = get_format(fmt)
        assert spec.id == spec.render.__name__ == fmt


@pytest.mark.parametrize("fmt", CORE)
def test_spec_agrees_with_study(fmt: str) -> None:
    row = {r["format_id"]: dict(r) for r in load_evidence("formats").rows}[fmt]
    spec = get_format(fmt)
    for key in ("family", "default_protocol", "supports_nesting", "supports_enum",
                "supports_constraints", "supports_optional", "supports_returns", "lossy",
                "compressed", "core", "novel", "two_stage"):
        assert getattr(spec, key) == row[key], key
    language = {"xml_schema": "xml", "natural_language": None, "python_stub": "python",
                "typescript": "typescript", "json_schema_openai": "json", "json_minimal": "json",
                "yaml_schema": "yaml", "markdown_table": "markdown"}
    assert spec.language == language[fmt]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("fmt", CORE)
def test_rendering_parses_and_shows_every_name(fmt: str, case: str) -> None:
    toolset = load_case(case)
    text = render_block(toolset, fmt)
    assert text == render_block(toolset, fmt)  # deterministic
    assert text == render_block(Toolset.from_dict(toolset.to_dict()), fmt)  # a function of the IR
    if fmt == "natural_language":
        check_prose(text, toolset)
        return
    view = READERS[fmt](text)
    assert list(view.top) == toolset.names
    for tool in toolset:
        assert view.top[tool.name] == {p.name: p.required for p in tool.params}
        if fmt == "markdown_table":
            want = {(md_path(path), f.required) for path, f in nested(tool)}
        else:
            want = {(path[-1], f.required) for path, f in nested(tool)}
        assert want <= view.nested[tool.name]
        seen = view.values[tool.name]
        for value in enum_values(tool):
            if fmt == "markdown_table":
                assert any(json_text(value) in cell for cell in seen), value
            elif fmt == "xml_schema":
                assert (value if isinstance(value, str) else json_text(value)) in seen
            else:
                assert value in seen, value


def check_prose(text: str, toolset: Toolset) -> None:
    paragraphs = text.split("\n\n")
    assert len(paragraphs) == len(toolset)
    for tool, para in zip(toolset, paragraphs):
        lines = para.split("\n")
        assert lines[0].startswith(f"Tool `{tool.name}`")
        needs = next((ln for ln in lines if ln.startswith("It needs ")), "")
        takes = next((ln for ln in lines if ln.startswith(("It takes ", "It also takes "))), "")
        for p in tool.params:
            assert f"`{p.name}` is " in (needs if p.required else takes), p.name
        for _, f in nested(tool):
            assert f"`{f.name}` ({'required' if f.required else 'optional'})" in para
        for value in enum_values(tool):
            assert json_text(value) in para


@pytest.mark.parametrize("fmt", CORE)
def test_descriptions_option(fmt: str) -> None:
    marker = "Zq7marker"
    tool = ToolIR("probe", f"Tool prose {marker}.", (
        ParamIR("outer", toolsets.obj(ParamIR("inner", toolsets.S, f"Inner {marker}.")),
                f"Outer {marker}."),), returns=toolsets.I)
    ts = Toolset((tool,))
    shown = render_block(ts, fmt)
    hidden = render_block(ts, fmt, RenderOptions(include_descriptions=False))
    assert marker not in hidden
    assert (marker in shown) is (fmt != "json_minimal")
    stripped = ToolIR("probe", "", (ParamIR("outer", toolsets.obj(ParamIR("inner", toolsets.S))),),
                      returns=toolsets.I)
    if fmt != "markdown_table":  # the table also drops its description column
        assert hidden == render_block(Toolset((stripped,)), fmt)


@pytest.mark.parametrize("fmt", CORE)
def test_returns_option(fmt: str) -> None:
    ts = toolsets.tier3()
    without = Toolset(tuple(replace(t, returns=None) for t in ts))
    hidden = render_block(ts, fmt, RenderOptions(include_returns=False))
    assert hidden == render_block(without, fmt)
    assert render_block(ts, fmt) != hidden  # every core format can show a return type


@pytest.mark.parametrize("fmt", CORE)
def test_depth_guard(fmt: str) -> None:
    for levels in (50, 5000):
        with pytest.raises(RenderError, match="deep"):
            render_block(toolsets.deep(levels), fmt)
    with pytest.raises(RenderError, match="max_depth=2"):
        render_block(toolsets.tier5(), fmt, RenderOptions(max_depth=2))
    render_block(toolsets.tier5(), fmt, RenderOptions(max_depth=3))
    # arrays alone nest no object but still hit the level ceiling
    arrays = toolsets.S
    for _ in range(MAX_LEVELS + 1):
        arrays = TypeIR("array", items=arrays)
    with pytest.raises(RenderError, match="levels"):
        render_block(Toolset((ToolIR("lists", params=(ParamIR("x", arrays),)),)), fmt)
    # right at the ceiling every writer stays inside the recursion limit
    text = render_block(toolsets.deep(MAX_LEVELS), fmt, RenderOptions(max_depth=MAX_LEVELS))
    assert "level0" in text


@pytest.mark.parametrize("fmt", CORE)
def test_render_uses_default_protocol(fmt: str) -> None:
    spec = get_format(fmt)
    ts = toolsets.tier2()
    prompt = render(ts, fmt, request="Convert 20 C to F.")
    block = render_block(ts, fmt)
    assert prompt.protocol_id == spec.default_protocol
    assert prompt.format_id == fmt and prompt.schema_text == block
    assert prompt.messages[0]["role"] == "system" and block in prompt.messages[0]["content"]
    assert prompt.messages[-1] == {"role": "user", "content": "Convert 20 C to F."}


# -- format-specific promises --------------------------------------------------------------------

def test_yaml_equals_json_form() -> None:
    for case in toolsets.BUILT:
        ts = toolsets.BUILT[case]()
        functions = [e["function"] for e in json.loads(render_block(ts, "json_schema_openai"))]
        assert yaml.safe_load(render_block(ts, "yaml_schema")) == functions
        assert functions == [
            {k: v for k, v in {"name": t.name, "description": t.description,
                               "parameters": t.input_schema(),
                               "returns": t.returns.to_json_schema() if t.returns else None}.items()
             if v not in ("", None)} for t in ts]


def test_json_minimal_drops_prose_constraints_and_defaults() -> None:
    text = render_block(toolsets.tier5(), "json_minimal")
    keys: set[str] = set()

    def visit(value: Any) -> None:
        if isinstance(value, dict):
            keys.update(value)
            for v in value.values():
                visit(v)
        elif isinstance(value, list):
            for v in value:
                visit(v)

    data = json.loads(text)
    visit([{k: v for k, v in e.items() if k != "parameters"} for e in data])
    for e in data:
        for v in e["parameters"].values():
            visit(v)
    assert not keys & {"description", "default", "minimum", "maximum", "exclusiveMinimum",
                       "maxItems", "pattern", "format"}
    assert "Plan a trip" not in text and "tolls" in text
    assert len(text.split("\n")) == len(data) + 2
    assert data[0]["parameters"]["budget"] == ["number", "string", "null"]


def test_python_names_are_mapped() -> None:
    text = render_block(toolsets.awkward(), "python_stub")
    assert "def math_factorial(" in text and "Tool name: math.factorial" in text
    assert "class_: str | None = None" in text and 'class_ is "class"' in text
    assert "type: Literal[" in text  # a soft keyword stays as it is
    assert "def météo_prévision(" in text
    assert 'TypedDict("APIPostPageBody", {' in text and '"x-y|z": NotRequired[int]' in text
    fn = next(n for n in ast.parse(text).body
              if isinstance(n, ast.FunctionDef) and n.name == "a_b_c_")
    assert ast.literal_eval(fn.args.defaults[0]) == toolsets.awkward()["a&b<c>"].params[0].default
    assert ast.get_docstring(fn, clean=False).splitlines()[0] == 'Say <b>"hi"</b> & \'bye\' | pipe'


def test_typescript_names_are_mapped() -> None:
    text = render_block(toolsets.awkward(), "typescript")
    assert "declare function math_factorial(params: {" in text
    assert " * Tool name: math.factorial" in text
    assert '"page-id": string;' in text and "class?: string;" in text
    assert "declare function delete_(" in text and "Tool name: delete" in text
    assert "*/ \"\"\"" not in text and "*\\/" in text  # a description cannot close the comment


def test_xml_escapes_and_round_trips_text() -> None:
    ts = toolsets.awkward()
    root = SafeET.fromstring(render_block(ts, "xml_schema"))
    tool = root.findall("tool")[3]
    assert tool.findtext("name") == "a&b<c>"
    assert tool.findtext("description") == ts["a&b<c>"].description
    param = tool.find("parameters/parameter")
    assert param.get("name") == 'x"y'
    assert json.loads(param.findtext("default")) == ts["a&b<c>"].params[0].default
    controls = Toolset((ToolIR("ctl", "bell\x07 and nul\x00", (ParamIR("p\x01", toolsets.S),)),))
    assert SafeET.fromstring(render_block(controls, "xml_schema")).findtext("tool/description") \
        == "bell\ufffd and nul\ufffd"


def test_markdown_cells_escape_pipes() -> None:
    assert markdown_cell("a|b\nc") == "a\\|b c"
    assert markdown_cell("a\\|b") == "a\\\\\\|b"
    text = render_block(toolsets.awkward(), "markdown_table")
    view = read_markdown(text)
    assert ("body.x-y|z", False) in view.nested["API-post-page"]
    row = next(line for line in text.split("\n") if "| unités |" in line)
    assert '"a\\|b"' in row and 'default "°C"' in row


def test_prose_words() -> None:
    text = render_block(toolsets.tier4(), "natural_language")
    assert ("`project` is either a string or an integer: Project key or numeric id." in text)
    assert "`limit` is an integer, at least 1, at most 100, 20 by default: Page size." in text
    assert "Inside `filter`'s `window`, `start` (required) is a string, in date format" in text
    assert "It takes no parameters." in render_block(toolsets.awkward(), "natural_language")
    for case in toolsets.TIERS:  # no schema notation (the tiers' prose has none of its own)
        text = render_block(toolsets.TIERS[case](), "natural_language")
        assert not set(text.replace(r"^\d{5}$", "")) & set("{}[]<>=|"), case
