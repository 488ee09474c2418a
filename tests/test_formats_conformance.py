"""Conformance suite run over EVERY registered format (the scikit-learn ``test_common`` idea).

Each registered format is checked against the study's registry (its facts), for determinism,
for the content its flags promise (tool names, parameter names, nested names, enum values,
descriptions), for the render options, for the depth guard (deep and cyclic schemas raise
``RenderError`` quickly) and, where its declared ``language`` has a parser in the standard
library or the core dependencies, for parsing. The cases are the tier fixtures and the awkward
toolset of ``tests/toolsets.py`` and every real MCP catalogue under ``datasets/mcp/``.

Format-specific validity (JSON5, Hjson, CSV, OpenAPI, draft 2020-12...) is tested beside each
family (``test_formats_json_yaml_tabular.py`` and the other families' files).
"""

from __future__ import annotations

import ast
import html
import json
import re
import time
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import quote

import pytest
import yaml
from defusedxml import ElementTree as SafeET

from toolform.errors import RenderError, UnknownFormatError
from toolform.evidence import load_evidence
from toolform.formats import FORMATS, RenderOptions, format_ids, get_format, render_block
from toolform.formats._common import markdown_cell
from toolform.formats._two_stage import two_stage_stages
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR

import toolsets

ROOT = Path(__file__).resolve().parents[1]
CASES = toolsets.CASES
FORMAT_IDS = format_ids()
STUDY = {row["format_id"]: dict(row) for row in load_evidence("formats").rows}
FACTS = ("family", "default_protocol", "supports_nesting", "supports_enum",
         "supports_constraints", "supports_optional", "supports_returns", "lossy", "compressed",
         "core", "novel", "two_stage")

#: Formats whose documented content is narrower than their flags can say. ``names_only`` is
#: the ladder's floor: no parameters at all (no flag covers parameters).
NO_PARAMETERS = {"names_only"}
#: Lossy formats that teach by filled-in example only ("no abstract schema", in the study's
#: words): an example shows one value of an enum, so not every enum value need appear.
EXAMPLE_ONLY = {"curl_examples", "few_shot_only", "worked_dialogue"}


load_case = toolsets.load_case


# -- what the IR says should be visible ----------------------------------------------------------

def inner_fields(t: TypeIR) -> Iterator[ParamIR]:
    """Every field nested in ``t`` (through objects, array items and union options)."""
    stack = [t]
    while stack:
        cur = stack.pop()
        if cur.kind == "object":
            yield from cur.fields
            stack.extend(f.type for f in cur.fields)
        elif cur.kind == "array" and cur.items is not None:
            stack.append(cur.items)
        elif cur.kind == "union":
            stack.extend(cur.options)


def enum_values(tool: ToolIR, nested: bool) -> list[Any]:
    """Enum values of the parameters (their array items and union options too), and with
    ``nested`` those of every nested field."""
    types = [p.type for p in tool.params]
    if nested:
        types += [f.type for p in tool.params for f in inner_fields(p.type)]
    out: list[Any] = []
    stack = list(types)
    while stack:
        t = stack.pop()
        out.extend(t.values)
        stack.extend(o for o in (t.items, *t.options) if o is not None)
    return out


def spellings(text: str) -> set[str]:
    """The ways a format may legitimately write ``text``: as it is, or escaped for JSON,
    JSON5/YAML single quotes, XML/HTML, Markdown cells, CSV, a docstring (backslashes
    doubled), a regular expression, or a URL path."""
    as_json = json.dumps(text, ensure_ascii=False)[1:-1]
    return {text, as_json, json.dumps(text)[1:-1], html.escape(text, quote=False),
            html.escape(text), markdown_cell(text), text.replace('"', '""'),
            text.replace("'", "\\'"), text.replace("'", "''"), as_json.replace("'", "\\'"),
            text.replace("\\", "\\\\"), re.escape(text), quote(text, safe="")}


def value_spellings(value: Any) -> set[str]:
    if isinstance(value, str):
        return spellings(value)
    return {json.dumps(value), str(value), repr(value)}


def shows(text: str, options: set[str]) -> bool:
    """True when ``text`` holds one of ``options``, or one of them escaped once more (a JSON
    value inside a CSV cell, a JSON string inside a Python docstring...)."""
    return (any(o in text for o in options)
            or any(o2 in text for o in options if o != text for o2 in spellings(o)))


def check_content(fmt: str, text: str, tools: list[ToolIR], names: list[str]) -> None:
    """Assert ``text`` shows what ``fmt``'s flags promise for ``tools`` (and every name in
    ``names``)."""
    spec = get_format(fmt)
    for name in names:
        assert shows(text, spellings(name)), f"{fmt}: tool name {name!r} missing"
    for tool in tools:
        if fmt not in NO_PARAMETERS:
            for p in tool.params:
                assert shows(text, spellings(p.name)), f"{fmt}: {tool.name}.{p.name} missing"
        if spec.supports_nesting:
            for f in (f for p in tool.params for f in inner_fields(p.type)):
                assert shows(text, spellings(f.name)), f"{fmt}: {tool.name}: field {f.name!r}"
        if spec.supports_enum and fmt not in EXAMPLE_ONLY:
            for value in enum_values(tool, spec.supports_nesting):
                assert shows(text, value_spellings(value)), f"{fmt}: {tool.name}: {value!r}"


# -- parsers for the languages a format may declare ----------------------------------------------

def _json_lines(text: str) -> None:
    for line in text.splitlines():
        if line.strip():
            json.loads(line)


PARSERS: dict[str, Callable[[str], Any]] = {
    "json": json.loads,
    "jsonl": _json_lines,
    "yaml": yaml.safe_load,
    "xml": SafeET.fromstring,
    "python": ast.parse,
    "toml": tomllib.loads,
}


# -- the registry --------------------------------------------------------------------------------

def test_registry_lists_exactly_the_study_ids() -> None:
    assert sorted(format_ids()) == sorted(STUDY)
    assert len(FORMATS) == 133


@pytest.mark.parametrize("fmt", FORMAT_IDS)
def test_spec_facts_equal_the_evidence_row(fmt: str) -> None:
    assert fmt in STUDY, f"{fmt} is not a format of the study"
    spec, row = get_format(fmt), STUDY[fmt]
    assert spec.id == spec.render.__name__ == fmt
    for key in FACTS:
        assert getattr(spec, key) == row[key], key


def test_unknown_id_names_the_closest() -> None:
    with pytest.raises(UnknownFormatError) as info:
        get_format("json_shema_openai")
    assert "json_schema_openai" in info.value.closest
    assert "json_schema_openai" in str(info.value)
    with pytest.raises(UnknownFormatError, match="yaml_anchors"):
        render_block(toolsets.tier1(), "yaml_anchor")
    with pytest.raises(KeyError):  # callers catching KeyError keep working
        get_format("no_such_format_at_all")
    with pytest.raises(UnknownFormatError, match="closest: json5"):
        two_stage_stages(toolsets.tier1(), "jsn5")


# -- every format over every case ----------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("fmt", FORMAT_IDS)
def test_format_over_case(fmt: str, case: str) -> None:
    toolset = load_case(case)
    spec = get_format(fmt)
    text = render_block(toolset, fmt)
    assert isinstance(text, str) and text
    assert text == render_block(toolset, fmt)  # deterministic
    assert text == render_block(Toolset.from_dict(toolset.to_dict()), fmt)  # a function of the IR
    if spec.language in PARSERS:
        PARSERS[spec.language](text)
    if spec.two_stage:
        check_content(fmt, text, [], toolset.names)
        for tool in toolset:
            blocks = two_stage_stages(toolset, fmt, selected=tool.name, gold=tool.name)
            assert blocks.tools == (tool.name,)
            assert blocks.stage1 in (None, text)
            check_content(fmt, blocks.stage2, [tool], [tool.name])
        return
    check_content(fmt, text, list(toolset), toolset.names)


def _probe() -> Toolset:
    marker = "Zq7marker"
    return Toolset((ToolIR("probe", f"Tool prose {marker}1.", (
        ParamIR("outer", toolsets.obj(ParamIR("inner", toolsets.S, f"Inner {marker}3.")),
                f"Outer {marker}2."),
        ParamIR("mode", toolsets.enum("fast", "full"), f"Mode {marker}4.", required=False)),
        returns=toolsets.obj(ParamIR("answer", toolsets.S))),))


@pytest.mark.parametrize("fmt", FORMAT_IDS)
def test_descriptions_option(fmt: str) -> None:
    spec = get_format(fmt)
    probe = _probe()
    shown = render_block(probe, fmt)
    hidden = render_block(probe, fmt, RenderOptions(include_descriptions=False))
    assert "Zq7marker" not in hidden
    if spec.two_stage:
        shown = two_stage_stages(probe, fmt, selected="probe", gold="probe").stage2
    if not spec.lossy:  # a full format shows every description
        for n in range(1, 5):
            assert f"Zq7marker{n}" in shown, n


@pytest.mark.parametrize("fmt", FORMAT_IDS)
def test_returns_option(fmt: str) -> None:
    ts = Toolset((*toolsets.tier3(), *toolsets.tier1()))
    without = Toolset(tuple(replace(t, returns=None) for t in ts))
    assert render_block(ts, fmt, RenderOptions(include_returns=False)) == render_block(without, fmt)


def _cyclic() -> Toolset:
    """A tool whose parameter type contains itself (what a ``$ref`` loop could give)."""
    child = ParamIR("child", toolsets.S, required=False)
    node = TypeIR("object", fields=(ParamIR("name", toolsets.S), child))
    object.__setattr__(child, "type", node)
    return Toolset((ToolIR("loop", "A recursive tree.", (ParamIR("root", node),)),))


@pytest.mark.parametrize("fmt", FORMAT_IDS)
def test_deep_and_cyclic_schemas_raise_quickly(fmt: str) -> None:
    start = time.monotonic()
    for toolset in (toolsets.deep(50), toolsets.deep(5000), _cyclic()):
        with pytest.raises(RenderError):
            render_block(toolset, fmt)
    with pytest.raises(RenderError, match="max_depth=2"):
        render_block(toolsets.tier5(), fmt, RenderOptions(max_depth=2))
    assert time.monotonic() - start < 5.0  # a clear error, never a hang


@pytest.mark.parametrize("fmt", FORMAT_IDS)
def test_empty_toolset(fmt: str) -> None:
    try:
        text = render_block(Toolset(()), fmt)
    except RenderError:
        return  # a clear refusal is fine
    assert isinstance(text, str)
    assert text == render_block(Toolset(()), fmt)
