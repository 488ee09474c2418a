"""The JSON, YAML and tabular families and the two-stage variants, read by real parsers.

Every block is read back with the parser of its language (``json``, ``json5``, ``hjson``,
PyYAML ``safe_load``, ``csv``, ``jsonschema``'s ``check_schema``, ``openapi-spec-validator``,
markdown-it) over the tier fixtures, the awkward toolset and every real MCP capture, and what
the parser gives back is compared with the IR (or with the reference ``json_schema_openai``
rendering). Then the YAML and JSON5 writers under property tests, the two-stage stages, and
``compare_formats``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from typing import Any

import hjson as hjson_lib
import json5 as json5_lib
import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_openapi

from toolform.errors import RenderError, UnknownFormatError
from toolform.formats import RenderOptions, render_block
from toolform.formats._compare import COMPARE_COLUMNS, compare_formats
from toolform.formats._json import DRAFT_2020_12, _commented, _json5_key, _json5_scalar
from toolform.formats._json import lift_descriptions
from toolform.formats._tabular import display_width
from toolform.formats._two_stage import TwoStageBlocks, two_stage_stages
from toolform.formats._yaml import YamlWriter, yaml_scalar
from toolform.ir import GoldCall, ParamIR, ToolIR, Toolset, TypeIR
from toolform.tokens import estimate_tokens

import toolsets
from test_formats_conformance import CASES, load_case

S, I = toolsets.S, toolsets.I


def functions(ts: Toolset, options: RenderOptions | None = None) -> list[dict[str, Any]]:
    """The reference data: the ``function`` objects of ``json_schema_openai``."""
    return [e["function"] for e in json.loads(render_block(ts, "json_schema_openai", options))]


def plain(value: Any) -> Any:
    """A parsed value as plain dicts and lists (hjson gives OrderedDicts)."""
    return json.loads(json.dumps(value))


def without_comments(text: str) -> str:
    return "\n".join(ln for ln in text.split("\n") if not ln.lstrip().startswith("//"))


# -- JSON ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_json_shapes(case: str) -> None:
    ts = load_case(case)
    fns = functions(ts)
    assert json.loads(render_block(ts, "json_schema_flat")) == fns
    anthropic = json.loads(render_block(ts, "json_schema_anthropic"))
    assert [{"name": f["name"], **({"description": f["description"]} if "description" in f
                                   else {}),
             "input_schema": f["parameters"],
             **({"output_schema": f["returns"]} if "returns" in f else {})} for f in fns] \
        == anthropic
    compact = render_block(ts, "json_compact")
    assert json.loads(compact) == json.loads(render_block(ts, "json_schema_openai"))
    assert compact == json.dumps(json.loads(compact), ensure_ascii=False, separators=(",", ":"))
    lines = render_block(ts, "jsonl").splitlines()
    assert [json.loads(line) for line in lines] == fns
    assert json.loads(render_block(ts, "names_only")) == ts.names
    assert json.loads(render_block(ts, "json_names_params")) == [
        {"name": t.name, "params": [p.name for p in t.params]} for t in ts]
    assert len(render_block(ts, "json_names_params").splitlines()) == len(ts) + 2


def inline_refs(value: Any, defs: dict[str, Any]) -> Any:
    """``value`` with every ``{"$ref": "#/$defs/X", ...}`` replaced by ``X`` plus the rest."""
    if isinstance(value, list):
        return [inline_refs(v, defs) for v in value]
    if not isinstance(value, dict):
        return value
    if "$ref" in value:
        target = value["$ref"].removeprefix("#/$defs/")
        return {**inline_refs(defs[target], defs),
                **{k: v for k, v in value.items() if k != "$ref"}}
    return {k: inline_refs(v, defs) for k, v in value.items()}


@pytest.mark.parametrize("case", CASES)
def test_draft2020_documents(case: str) -> None:
    ts = toolsets.shown(load_case(case), "json_schema_draft2020")
    docs = json.loads(render_block(ts, "json_schema_draft2020"))
    assert [d["title"] for d in docs] == ts.names
    assert len({d["$id"] for d in docs}) == len(docs)
    for tool, doc in zip(ts, docs):
        Draft202012Validator.check_schema(doc)
        assert doc["$schema"] == DRAFT_2020_12
        assert doc.get("description", "") == tool.description
        defs = doc.get("$defs", {})
        for schema in defs.values():
            Draft202012Validator.check_schema(schema)
        body = {k: inline_refs(doc[k], defs) for k in ("type", "properties", "required")
                if k in doc}
        assert body == tool.input_schema()
        if tool.returns is not None:
            assert inline_refs(defs["Result"], defs) == tool.returns.to_json_schema()
        else:
            assert "Result" not in defs


def test_draft2020_shares_repeated_objects() -> None:
    point = toolsets.obj(ParamIR("x", I), ParamIR("y", I))
    tool = ToolIR("segment", "A line segment.", (
        ParamIR("start", point, "First end."), ParamIR("end", point, "Second end.", default=None,
                                                       required=False),
        ParamIR("via", TypeIR("array", items=point), required=False)), returns=point)
    (doc,) = json.loads(render_block(Toolset((tool,)), "json_schema_draft2020"))
    assert doc["properties"]["start"] == {"$ref": "#/$defs/Start", "description": "First end."}
    assert doc["properties"]["end"] == {"$ref": "#/$defs/Start", "description": "Second end.",
                                        "default": None}
    assert doc["properties"]["via"]["items"] == {"$ref": "#/$defs/Start"}
    assert doc["$defs"]["Result"] == {"$ref": "#/$defs/Start"}
    assert doc["$defs"]["Start"]["required"] == ["x", "y"]
    validator = Draft202012Validator(doc)
    assert validator.is_valid({"start": {"x": 1, "y": 2}, "via": [{"x": 0, "y": 0}]})
    assert not validator.is_valid({"start": {"x": 1, "y": "two"}})  # the $ref is followed
    assert not validator.is_valid({"start": {"x": 1, "y": 2}, "via": [{"x": 0}]})


@pytest.mark.parametrize("case", CASES)
def test_json5_and_jsonc(case: str) -> None:
    ts = load_case(case)
    data, comments = lift_descriptions(functions(ts))
    text5 = render_block(ts, "json5")
    assert json5_lib.loads(text5) == data
    textc = render_block(ts, "jsonc")
    assert json.loads(without_comments(textc)) == data  # strict JSON once comments are gone
    assert json5_lib.loads(textc) == data
    for text in (text5, textc):
        comment_lines = [ln.strip() for ln in text.split("\n") if ln.lstrip().startswith("//")]
        want = [f"// {ln}".rstrip() for desc in comments.values()
                for ln in desc.splitlines() or [""]]
        assert sorted(comment_lines) == sorted(ln.strip() for ln in want)


def test_json5_comment_sits_over_its_key() -> None:
    text = render_block(toolsets.tier2(), "json5")
    assert "  // Convert a temperature between units.\n  {\n    name: 'convert_temperature'," \
        in text
    assert "        // Target unit.\n        unit: {\n" in text
    awkward = render_block(toolsets.awkward(), "json5")
    assert "'x-y|z': {" in awkward and "class: {" in awkward and "'unités': {" in awkward
    assert "          // second line */ \"\"\" \\ end\n" in awkward


@pytest.mark.parametrize("case", CASES)
def test_hjson(case: str) -> None:
    ts = load_case(case)
    text = render_block(ts, "hjson")
    assert plain(hjson_lib.loads(text)) == functions(ts)
    assert '"name"' not in text  # keys stand unquoted


def expected_paths(tool: ToolIR) -> list[tuple[str, ParamIR]]:
    """(path after the tool name, field) as key_value_lines and json_dotted_paths write them,
    computed here independently of the renderer."""

    def step(name: str) -> str:
        odd = not name or any(ch in name for ch in '.[]#():"\\') or any(c.isspace() for c in name)
        return f"[{json.dumps(name, ensure_ascii=False)}]" if odd else f".{name}"

    def walk(t: TypeIR, path: str) -> list[tuple[str, ParamIR]]:
        if t.kind == "object":
            return [r for f in t.fields for r in [(path + step(f.name), f),
                                                   *walk(f.type, path + step(f.name))]]
        if t.kind == "array" and t.items is not None:
            return walk(t.items, path + "[]")
        if t.kind == "union":
            return [r for i, o in enumerate(t.options, 1) for r in walk(o, f"{path}#{i}")]
        return []

    rows = [r for p in tool.params for r in [(step(p.name), p), *walk(p.type, step(p.name))]]
    if tool.returns is not None:
        rows += walk(tool.returns, ".(result)")
    return rows


@pytest.mark.parametrize("case", CASES)
def test_dotted_paths(case: str) -> None:
    ts = toolsets.shown(load_case(case), "json_dotted_paths")
    members = json.loads(render_block(ts, "json_dotted_paths"))
    want = [key for tool in ts
            for key in [tool.name, *(tool.name + path for path, _ in expected_paths(tool))]]
    assert list(members) == want
    for tool in ts:
        assert members[tool.name].startswith("tool")
        for path, field in expected_paths(tool):
            head = members[tool.name + path].split(" [")[0].split(" # ")[0]
            assert head.endswith("!") is field.required, (path, head)


def test_dotted_paths_text() -> None:
    members = json.loads(render_block(toolsets.tier4(), "json_dotted_paths"))
    assert members["list_tickets.limit"] == ("integer [at least 1; at most 100; default 20] "
                                             "# Page size.")
    assert members["list_tickets.filter.window.start"] == "string! [in date format] # First day."
    assert members["list_tickets.project"] == "string or integer! # Project key or numeric id."
    awkward = json.loads(render_block(toolsets.awkward(), "json_dotted_paths"))
    assert awkward["API-post-page.body.x-y|z"] == "integer"
    assert 'a&b<c>["x\\"y"]' in awkward and "math.factorial.class" in awkward


@pytest.mark.parametrize("case", CASES)
def test_openapi(case: str) -> None:
    ts = toolsets.shown(load_case(case), "openapi_json")
    doc = json.loads(render_block(ts, "openapi_json"))
    validate_openapi(doc)
    assert yaml.safe_load(render_block(ts, "openapi_yaml")) == doc
    ops = [item["post"] for item in doc["paths"].values()]
    assert [op["operationId"] for op in ops] == ts.names
    for tool, op in zip(ts, ops):
        body = op["requestBody"]["content"]["application/json"]["schema"]
        assert body == tool.input_schema()
        response = op["responses"]["200"]
        if tool.returns is not None:
            assert response["content"]["application/json"]["schema"] \
                == tool.returns.to_json_schema()
        text = "\n".join(filter(None, [op.get("summary"), op.get("description")]))
        assert tool.description.strip() in text or not op.get("description")


# -- YAML ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_yaml_variants_load_to_the_same_data(case: str) -> None:
    ts = load_case(case)
    fns = functions(ts)
    flow = render_block(ts, "yaml_flow")
    assert (yaml.safe_load(flow) or []) == fns
    assert len(flow.splitlines()) == max(len(ts), 1)
    assert (yaml.safe_load(render_block(ts, "yaml_anchors")) or []) == fns
    assert (yaml.safe_load(render_block(ts, "yaml_minimal")) or []) \
        == json.loads(render_block(ts, "json_minimal"))
    data, comments = lift_descriptions(fns)
    documented = render_block(ts, "yaml_documented")
    assert (yaml.safe_load(documented) or []) == data
    comment_lines = [ln.strip() for ln in documented.split("\n") if ln.lstrip().startswith("#")]
    assert len(comment_lines) == sum(len(d.splitlines() or [""]) for d in comments.values())


def test_yaml_documented_comments() -> None:
    text = render_block(toolsets.tier2(), "yaml_documented")
    assert "# Convert a temperature between units.\n- name: convert_temperature\n" in text
    assert "      # Target unit.\n      unit:\n        type: string\n" in text
    awkward = render_block(toolsets.awkward(), "yaml_documented")
    assert "# Factorial of n.\n# Exact for n <= 20.\n- name: math.factorial" in awkward


def test_yaml_anchors_share_repeated_schemas() -> None:
    ts = load_case("real:github")
    text = render_block(ts, "yaml_anchors")
    anchors = re.findall(r" &([\w-]+)$", text, re.M)
    aliases = re.findall(r" \*([\w-]+)$", text, re.M)
    assert anchors and set(aliases) == set(anchors)  # every anchor is used, none dangles
    assert len(anchors) == len(set(anchors))
    assert len(text) < 0.8 * len(render_block(ts, "yaml_schema"))
    assert "owner: &owner" in text and "owner: *owner" in text
    assert "&" not in render_block(toolsets.tier1(), "yaml_anchors")  # nothing repeats


# -- tables --------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_csv_and_tsv(case: str) -> None:
    ts = toolsets.shown(load_case(case), "csv")
    rows = list(csv.reader(io.StringIO(render_block(ts, "csv"))))
    assert rows[0] == ["tool", "parameter", "type", "required", "description"]
    fields = {t.name: expected_paths(t) for t in ts}
    assert len(rows) == 1 + len(ts) + sum(len(f) for f in fields.values())
    assert {len(r) for r in rows} == {5}
    by_tool: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        by_tool.setdefault(row[0], []).append(row)
    assert list(by_tool) == ts.names
    for tool in ts:
        head, *rest = by_tool[tool.name]
        assert head[1] == "" and head[2].startswith("tool") and head[3] == ""
        assert [r[3] for r in rest] == ["yes" if f.required else "no" for _, f in fields[tool.name]]
    tsv_rows = list(csv.reader(io.StringIO(render_block(ts, "tsv")), delimiter="\t",
                               quoting=csv.QUOTE_NONE))
    assert tsv_rows == [[" ".join(c.split()) for c in r] for r in rows]
    hidden = list(csv.reader(io.StringIO(render_block(ts, "csv", RenderOptions(
        include_descriptions=False)))))
    assert [r[:4] for r in hidden] == [r[:4] for r in rows]


def test_csv_quotes_what_needs_quoting() -> None:
    text = render_block(toolsets.awkward(), "csv")
    assert 'a&b<c>,"x""y","string [default ""Say <b>\\""hi' in text  # quotes doubled
    assert '"Say <b>""hi""</b> & \'bye\' | pipe second line */ """""" \\ end"' in text


def ascii_cells(line: str, borders: list[int]) -> list[str]:
    """The cells of one table line, cut at the display columns of the ``|`` borders."""
    cells, col, start = [], 0, 0
    cuts = iter(borders[1:])
    cut = next(cuts)
    for i, ch in enumerate(line):
        if col == cut:
            cells.append(line[start + 1:i].strip())
            start = i
            cut = next(cuts, -1)
        col += display_width(ch)
    return cells


@pytest.mark.parametrize("case", CASES)
def test_ascii_table(case: str) -> None:
    ts = load_case(case)
    text = render_block(ts, "ascii_table")
    lines = text.rstrip("\n").split("\n")
    assert len({display_width(ln) for ln in lines}) == 1  # every line is as wide as the box
    rule = lines[0]
    assert re.fullmatch(r"(\+-+)+\+", rule) and lines[-1] == rule
    assert lines[2] == rule.replace("-", "=")
    borders = [i for i, ch in enumerate(rule) if ch == "+"]
    csv_rows = list(csv.reader(io.StringIO(render_block(ts, "csv"))))
    got: list[list[str]] = []
    for line in lines[1:-1]:
        if line.startswith("+"):
            assert line in (rule, rule.replace("-", "="))
            continue
        cells = ascii_cells(line, borders)
        if cells[0]:
            got.append(cells)
        else:  # a continuation line: only the description goes on
            assert cells[:4] == ["", "", "", ""]
            got[-1][4] += " " + cells[4]
    assert [r[:4] for r in got] == [[" ".join(c.split()) for c in r[:4]] for r in csv_rows]
    assert [r[4].replace(" ", "") for r in got] == [r[4].replace(" ", "") for r in csv_rows]


def test_ascii_table_aligns_wide_characters() -> None:
    text = render_block(toolsets.awkward(), "ascii_table")
    line = next(ln for ln in text.split("\n") if "| ville " in ln)
    assert "東京" in line and display_width(line) == display_width(text.split("\n")[0])
    assert len(line) < display_width(line)


@pytest.mark.parametrize("case", CASES)
def test_key_value_lines(case: str) -> None:
    ts = toolsets.shown(load_case(case), "key_value_lines")
    blocks = render_block(ts, "key_value_lines").rstrip("\n").split("\n\n") if len(ts) else []
    assert len(blocks) == len(ts)
    for tool, block in zip(ts, blocks):
        head, *lines = block.split("\n")
        assert head.startswith(f"{tool.name}: tool")
        fields = expected_paths(tool)
        assert len(lines) == len(fields)
        for line, (path, field) in zip(lines, fields):
            assert line.startswith(f"{tool.name}{path}: ")
            flag = "required" if field.required else "optional"
            assert f" ({flag}" in line


def test_key_value_lines_text() -> None:
    text = render_block(toolsets.tier2(), "key_value_lines")
    assert text.split("\n")[:4] == [
        "convert_temperature: tool returning number # Convert a temperature between units.",
        "convert_temperature.value: number (required) # The temperature.",
        'convert_temperature.unit: string (required; one of "celsius", "fahrenheit", '
        '"kelvin") # Target unit.',
        "convert_temperature.precision: integer (optional; at least 0; at most 6; default 2) "
        "# Decimal places.",
    ]


def test_compact_signature_lines() -> None:
    assert render_block(toolsets.tier2(), "compact_signature_lines") == (
        "convert_temperature: value:num unit:celsius|fahrenheit|kelvin [precision:int(0..6)=2]"
        " -> num\n"
        "search_books: query:str(len 1..200) [available_only:bool]\n")
    assert render_block(toolsets.tier5(), "compact_signature_lines") == (
        "plan_trip: origin:str where:{area:{radius:{unit:m|km|mi value:num(>0)} "
        "centre:str|{lat:num(-90..90) lon:num(-180..180)}} [open_now:bool]} "
        "stops:{name:str [minutes:int]}[](items <=10) [mode:car|bike|walk] "
        "[avoid:(tolls|ferries)[]] [budget:num|str|null=null] [notes:str] "
        "[party_size:int(>=1)=1] [return_trip:bool=false] -> str[]\n")
    awkward = render_block(toolsets.awkward(), "compact_signature_lines").split("\n")
    assert awkward[2] == ('météo_prévision: ville:str '
                          '[unités:"°C"|"°F"|"a|b"|"q\\"uote"="°C"]')
    assert awkward[3].startswith('"a&b<c>": ["x\\"y":str=')
    assert awkward[5].startswith("odd_types: [nothing:never] anything:any [free:obj] "
                                 "maybe:int|null [nil:null] [untyped_list:any[]] "
                                 "[strict:{k:str}(closed)]")
    either = TypeIR("union", options=(toolsets.obj(ParamIR("a", S)), toolsets.obj(ParamIR("b", I))))
    listed = Toolset((ToolIR("u", params=(ParamIR("xs", TypeIR("array", items=either)),)),))
    assert render_block(listed, "compact_signature_lines") == "u: xs:({a:str}|{b:int})[]\n"
    for case in CASES:
        ts = load_case(case)
        lines = render_block(ts, "compact_signature_lines").split("\n")[:-1]
        assert len(lines) == len(ts)
        for tool, line in zip(ts, lines):
            assert line.startswith((tool.name + ":", json.dumps(tool.name, ensure_ascii=False)))


def test_two_stage_index() -> None:
    from markdown_it import MarkdownIt

    ts = toolsets.tier2()
    text = render_block(ts, "two_stage_index")
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    assert [t.type for t in tokens].count("table_open") == 2
    assert text.endswith(render_block(ts, "markdown_table"))
    assert "| convert_temperature | Convert a temperature between units. |" in text
    hidden = render_block(ts, "two_stage_index", RenderOptions(include_descriptions=False))
    assert "| tool |\n| --- |\n| convert_temperature |\n| search_books |\n" in hidden


# -- the writers under property tests ------------------------------------------------------------

TRICKY = ["", " ", "yes", "No", "off", "null", "~", "y", "1", "0x1f", "1e5", "1_000", "-", "- a",
          "a: b", "a #b", "#x", "&a", "*a", "!t", "|", ">", "'q'", '"q"', "[x]", "{x}", "a,b",
          "tab\there", "line\nbreak", "nel\x85x", "ls\u2028x", "bom\ufeffx", "bell\x07",
          "del\x7f", "é", "東京", "emoji 🙂", "trailing ", " leading", "=", "<<", "%x", "@x",
          "`x", ".inf", "0o7", "2024-01-01", "a\\b", "\x00", "\ud800", "\uffff"]
scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
           | st.text() | st.sampled_from(TRICKY))
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=6) | st.sampled_from(TRICKY), inner, max_size=4),
    max_leaves=25)


@pytest.mark.parametrize("value", TRICKY + [1e20, 1e-7, -0.0, 2.5, math.inf, -math.inf, 10**30])
def test_yaml_scalar_round_trips(value: Any) -> None:
    assert yaml.safe_load(f"k: {yaml_scalar(value)}") == {"k": value}
    assert yaml.safe_load(f"[{yaml_scalar(value)}]") == [value]


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_yaml_writer_round_trips(value: Any) -> None:
    assert yaml.safe_load(YamlWriter().dump(value)) == value


@settings(max_examples=100, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["a", "b", "c"]), json_values, min_size=1,
                                max_size=3), min_size=1, max_size=3),
       st.text() | st.sampled_from(TRICKY))
@example(items=[{"a": ["A?"]}], note="")  # found by a fresh-clone run: PyYAML ends a plain
# scalar at "?" inside [ ], so the flow list must quote it
def test_yaml_writer_comments_and_anchors(items: list[dict[str, Any]], note: str) -> None:
    comments = {(0,): note, (0, next(iter(items[0]))): note}
    assert yaml.safe_load(YamlWriter(comments).dump(items)) == items
    shared = [items[0], {"again": items[0]}, items]
    assert yaml.safe_load(YamlWriter(share=True).dump(shared)) == shared


@settings(max_examples=150, deadline=None)
@given(json_values, st.text() | st.sampled_from(TRICKY))
def test_json5_and_jsonc_writers_round_trip(value: Any, note: str) -> None:
    value = [value, {"k": value}]
    comments = {(0,): note, (1, "k"): note}
    text5 = _commented(value, comments, key=_json5_key, scalar=_json5_scalar, trailing_comma=True)
    assert json5_lib.loads(text5) == value
    textc = _commented(value, comments, key=lambda k: json.dumps(k, ensure_ascii=False),
                       scalar=lambda v: json.dumps(v, ensure_ascii=False), trailing_comma=False)
    assert json.loads(without_comments(textc)) == value


# -- the two-stage variants ----------------------------------------------------------------------

TWO_STAGE = ["names_then_schema", "names_then_schema_v2", "names_desc_then_schema",
             "oracle_then_schema"]


@pytest.mark.parametrize("fmt", TWO_STAGE)
def test_two_stage_blocks(fmt: str) -> None:
    ts = toolsets.tier2()
    blocks = two_stage_stages(ts, fmt, selected="search_books",
                              gold=GoldCall("convert_temperature"))
    assert isinstance(blocks, TwoStageBlocks) and blocks.format_id == fmt
    chosen = "convert_temperature" if fmt == "oracle_then_schema" else "search_books"
    assert blocks.tools == (chosen,)
    assert blocks.stage2 == render_block(ts.subset([chosen]), "json_schema_openai")
    if fmt == "oracle_then_schema":
        assert blocks.stage1 is None and blocks.calls == 1
    else:
        assert blocks.stage1 == render_block(ts, fmt) and blocks.calls == 2
    assert two_stage_stages(ts, fmt).stage2 is None
    assert two_stage_stages(ts, fmt).tools == ()


def test_two_stage_menus() -> None:
    ts = toolsets.awkward()
    assert json.loads(render_block(ts, "names_then_schema")) == ts.names
    assert render_block(ts, "names_then_schema_v2") == render_block(ts, "names_only")
    menu = json.loads(render_block(ts, "names_desc_then_schema"))
    assert list(menu) == ts.names
    assert menu["math.factorial"] == "Factorial of n."  # the first line only
    assert menu["API-post-page"] == ""
    long = Toolset((ToolIR("t", "word " * 100),))
    assert len(json.loads(render_block(long, "names_desc_then_schema"))["t"]) <= 160


def test_two_stage_errors_and_choices() -> None:
    ts = toolsets.tier2()
    with pytest.raises(RenderError, match="closest: search_books"):
        two_stage_stages(ts, "names_then_schema", selected="search_book")
    with pytest.raises(RenderError, match="not a two-stage variant"):
        two_stage_stages(ts, "json_schema_openai", selected="search_books")
    with pytest.raises(UnknownFormatError):
        two_stage_stages(ts, "names_then_schemas")
    both = two_stage_stages(ts, "oracle_then_schema",
                            gold=[GoldCall("search_books"), "convert_temperature",
                                  GoldCall("search_books")])
    assert both.tools == ("search_books", "convert_temperature")
    assert [e["function"]["name"] for e in json.loads(both.stage2)] == list(both.tools)
    hidden = two_stage_stages(ts, "names_desc_then_schema", selected="search_books",
                              options=RenderOptions(include_descriptions=False))
    assert "Search" not in hidden.stage1 + hidden.stage2


# -- compare_formats -----------------------------------------------------------------------------

def test_compare_formats() -> None:
    ts = toolsets.tier3()
    ids = ["json_schema_openai", "names_only", "json_minimal", "compact_signature_lines",
           "names_then_schema", "yaml_anchors"]
    frame = compare_formats(ts, ids)
    assert list(frame.columns) == [c[0] for c in COMPARE_COLUMNS]
    assert list(frame["format"]) == ids
    rows = frame.set_index("format")
    for fmt in ids:
        block = render_block(ts, fmt)
        assert rows.loc[fmt, "characters"] == len(block)
        assert rows.loc[fmt, "estimated_tokens"] == estimate_tokens(block)
    assert rows.loc["json_schema_openai", "study_call_exact"] == 48.96  # formats.json, export
    assert rows.loc["json_schema_openai", "study_accuracy_per_1k_tokens"] == 0.1501
    assert rows.loc["names_only", "study_call_exact"] == 2.67
    assert math.isnan(rows.loc["names_then_schema", "study_call_exact"])
    assert rows.loc["json_schema_openai", "drops"] == ""
    assert rows.loc["yaml_anchors", "drops"] == ""
    assert rows.loc["names_only", "drops"] == ("nesting, enums, constraints, optionality, "
                                               "return types, descriptions, parameters")
    assert rows.loc["json_minimal", "drops"] == "constraints, descriptions"
    assert rows.loc["compact_signature_lines", "drops"] == "descriptions"
    assert set(frame["source_table"]) == {"formats"} and set(frame["error"]) == {""}
    assert frame.attrs["source"].startswith("evidence:formats")


def test_compare_formats_records_errors() -> None:
    frame = compare_formats(toolsets.deep(20), ["json_schema_flat", "csv"])
    assert frame["characters"].isna().all()
    assert frame["error"].str.contains("max_depth=12").all()
    with pytest.raises(UnknownFormatError):
        compare_formats(toolsets.tier1(), ["json_schema_flatt"])
