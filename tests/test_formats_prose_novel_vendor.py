"""Tests for the prose, novel and vendor formats (``_prose.py``, ``_novel.py``, ``_vendor.py``).

One parametrised test renders every format over every case (the tier fixtures and the awkward
toolset of ``tests/toolsets.py``, every real MCP catalogue under ``datasets/mcp/``) and
hands the block to that format's checker:

- vendor blocks with JSON inside are parsed and loaded back through ``toolform.io`` where the
  shape is one it reads (``from_mcp``, ``from_responses``, ``from_openai``); tags and control
  tokens are checked for balance (with defusedxml where the block is well-formed XML); the
  Python-shaped blocks pass ``ast.parse`` and name every tool and parameter;
- prose and novel notations are read back by the structure each documents (sections per tool,
  parameter lines in their shape, the diff re-applied, the matrix's rows and columns, the
  symbol legend).

The same test checks that every tool and parameter name (nested too) appears verbatim in every
non-lossy block. Hand-checked cases follow for the formats whose output depends on how tools
relate (neighbours, domains, diffs, state edges).
"""

from __future__ import annotations

import ast
import functools
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator
from xml.sax.saxutils import escape

import pytest
from defusedxml import ElementTree as SafeET
from jsonschema import Draft202012Validator
from markdown_it import MarkdownIt

from toolform.errors import RenderError
from toolform.evidence import load_evidence
from toolform.formats import RenderOptions, get_format, render_block
from toolform.formats._common import COMPACT, compact_block, markdown_cell
from toolform.formats._novel import EMOJI_LEGEND
from toolform.io import from_mcp, from_openai, from_responses
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR

import toolsets

PROSE = ["nl_terse", "nl_manpage", "cli_help", "nl_faq", "nl_narrative", "nl_instructional",
         "few_shot_only", "nl_reference_card"]
NOVEL = ["contrastive", "decision_tree", "namespaced", "diff_schema", "slot_template",
         "state_graph", "negative_space", "progressive", "worked_dialogue", "question_slots",
         "type_indexed", "emoji_semantic", "checklist", "capability_matrix"]
VENDOR = ["hermes_tools", "qwen_tools", "llama3_tools", "mistral_tools", "command_r_tools",
          "react_tools", "mcp_manifest", "toolformer_inline", "gorilla_api", "glaive_tools",
          "xlam_tools", "granite_tools", "dspy_signature", "openai_responses", "langchain_tools",
          "watt_tool_tags"]
MINE = PROSE + NOVEL + VENDOR

ROOT = Path(__file__).resolve().parents[1]
CASES = toolsets.CASES
load_case = toolsets.load_case


# -- what the IR says -----------------------------------------------------------------------------

def fields(t: TypeIR, path: str, depth: int = 1) -> Iterator[tuple[str, ParamIR, int]]:
    """(path, field, depth) below ``t``, with the path spelling the formats document."""
    if t.kind == "object":
        for f in t.fields:
            yield f"{path}.{f.name}", f, depth
            yield from fields(f.type, f"{path}.{f.name}", depth + 1)
    elif t.kind == "array" and t.items is not None:
        yield from fields(t.items, f"{path}[]", depth)
    elif t.kind == "union":
        for i, o in enumerate(t.options, 1):
            yield from fields(o, f"{path}#{i}", depth)


def every_param(tool: ToolIR) -> list[tuple[str, ParamIR, int]]:
    return [row for p in tool.params for row in [(p.name, p, 0), *fields(p.type, p.name)]]


def names(tool: ToolIR) -> list[str]:
    """The tool's name, its parameters' and fields' names, its result's field names."""
    out = [tool.name] + [p.name for _, p, _ in every_param(tool)]
    if tool.returns is not None:
        out += [f.name for _, f, _ in fields(tool.returns, "result")]
    return out


def spelled(text: str, name: str) -> bool:
    """``name`` is in ``text`` as it is or escaped for JSON, XML or a Markdown cell."""
    forms = {name, json.dumps(name, ensure_ascii=False)[1:-1], escape(name), markdown_cell(name)}
    return any(form in text for form in forms)


def loadable(tool: ToolIR) -> bool:
    """JSON Schema can say "no value is allowed" (an empty enum); the loaders refuse it."""
    return '"enum": []' not in json.dumps(tool.input_schema())


def loads_back(loader: Callable[[Any], Toolset], entries: list[Any], toolset: Toolset,
               full: bool = False) -> None:
    """``loader`` reads ``entries`` (one per tool) back to ``toolset``'s tools, titles and
    return types too when ``full`` (else the shape has no place for them)."""
    kept = [(e, t) for e, t in zip(entries, toolset, strict=True) if loadable(t)]
    want = tuple(t if full else replace(t, returns=None, title="") for _, t in kept)
    assert loader([e for e, _ in kept]).tools == want


def validates(tool: ToolIR) -> bool:
    """Example values are checked against the schema only where the generator promises them:
    no patterns (not followed) and no enum without values (nothing can match)."""
    text = json.dumps(tool.input_schema())
    return '"pattern"' not in text and '"enum": []' not in text


def split_blocks(text: str) -> list[list[str]]:
    return [block.split("\n") for block in text.split("\n\n")]


# -- vendor checkers -------------------------------------------------------------------------------

def tag_payload(text: str, opening: str, closing: str) -> str:
    """The text between the last ``opening`` and the ``closing`` after it, the tags balanced."""
    tags = re.findall(re.escape(opening) + "|" + re.escape(closing), text)
    assert tags == [opening, closing] * (len(tags) // 2) and tags, tags
    start = text.rindex(opening) + len(opening)
    return text[start:text.index(closing, start)]


def check_tag_lines(text: str, toolset: Toolset, returns_key: str) -> None:
    payload = tag_payload(text, "<tools>", "</tools>")
    entries = [json.loads(line) for line in payload.strip("\n").split("\n") if line]
    loads_back(from_openai, entries, toolset)
    for entry, tool in zip(entries, toolset):
        got = entry["function"].get(returns_key)
        assert got == (tool.returns.to_json_schema() if tool.returns is not None else None)
    try:  # well-formed XML whenever no description holds a bare < or &
        root = SafeET.fromstring(f"<block>{text}</block>")
    except SafeET.ParseError:
        assert any("<" in json.dumps(e) or "&" in json.dumps(e) for e in entries)
    else:
        assert [el.tag for el in root] == ["tools", "tools"]
        assert (root[1].text or "") == payload


def check_hermes(text: str, toolset: Toolset) -> None:
    assert text.startswith("You are a function calling AI model.")
    check_tag_lines(text, toolset, "return")


def check_qwen(text: str, toolset: Toolset) -> None:
    assert text.startswith("# Tools\n\nYou may call one or more functions")
    check_tag_lines(text, toolset, "returns")


def check_returns(functions: list[dict[str, Any]], toolset: Toolset) -> None:
    for fn, tool in zip(functions, toolset):
        assert fn.get("returns") == (tool.returns.to_json_schema() if tool.returns else None)


def check_llama3(text: str, toolset: Toolset) -> None:
    head = "Here is a list of functions in JSON format that you can invoke.\n\n"
    assert text.startswith(head)
    entries = json.loads(text[len(head):])
    assert text[len(head):] == json.dumps(entries, ensure_ascii=False, indent=4)
    loads_back(from_openai, entries, toolset)
    check_returns([e["function"] for e in entries], toolset)


def check_mistral(text: str, toolset: Toolset) -> None:
    assert "\n" not in text and text.count("[AVAILABLE_TOOLS]") == 1
    assert text.count("[/AVAILABLE_TOOLS]") == 1
    match = re.fullmatch(r"\[AVAILABLE_TOOLS\] (.*)\[/AVAILABLE_TOOLS\]", text)
    assert match is not None
    entries = json.loads(match.group(1))
    loads_back(from_openai, entries, toolset)
    check_returns([e["function"] for e in entries], toolset)


def check_granite(text: str, toolset: Toolset) -> None:
    assert text.startswith("<|tool|>\n") and text.count("<|tool|>") == 1
    functions = json.loads(text[len("<|tool|>\n"):])
    loads_back(from_openai, functions, toolset)
    check_returns(functions, toolset)


def check_glaive(text: str, toolset: Toolset) -> None:
    head, _, rest = text.partition("\n")
    assert head == ("You are a helpful assistant with access to the following functions. "
                    "Use them if required -")
    decoder, functions, at = json.JSONDecoder(), [], 0
    while at < len(rest):
        obj, at = decoder.raw_decode(rest, at)
        functions.append(obj)
        at += rest[at:at + 1] == "\n"
    loads_back(from_openai, functions, toolset)
    check_returns(functions, toolset)


def check_mcp(text: str, toolset: Toolset) -> None:
    data = json.loads(text)
    assert list(data) == ["tools"]
    loads_back(from_mcp, data["tools"], toolset, full=True)  # titles and return types kept


def check_responses(text: str, toolset: Toolset) -> None:
    entries = json.loads(text)
    assert all(e["type"] == "function" and e["strict"] is False for e in entries)
    loads_back(from_responses, entries, toolset)
    check_returns(entries, toolset)


def check_one_line_args(text: str, toolset: Toolset, sep: str, read: Callable[[str], Any],
                        dump: Callable[[Any], str]) -> list[str]:
    """Lines ``name<sep>description, args: <schema>[, returns: <schema>]``; the other lines."""
    lines = text.split("\n")
    for tool in toolset:
        head = f"{tool.name}{sep}{' '.join(tool.description.split())}" if tool.description \
            else tool.name
        line = next(line for line in lines if line.startswith(head + ", args: "))
        lines.remove(line)
        args, _, returns = line[len(head + ", args: "):].partition(", returns: ")
        assert read(args) == tool.input_schema() and dump(read(args)) == args
        loads_back(from_openai, [{"name": tool.name, "parameters": read(args)}],
                   Toolset((replace(tool, description=""),)))
        if tool.returns is not None:
            assert read(returns) == tool.returns.to_json_schema()
        else:
            assert returns == ""
    return lines


def check_react(text: str, toolset: Toolset) -> None:
    dump = functools.partial(json.dumps, ensure_ascii=False)
    rest = check_one_line_args(text, toolset, ": ", json.loads, dump)
    assert rest == ["You have access to the following tools:", "", "",
                    "Valid tool names: " + ", ".join(toolset.names)]


def check_langchain(text: str, toolset: Toolset) -> None:
    assert check_one_line_args(text, toolset, " - ", ast.literal_eval, repr) == (
        [] if len(toolset) else [""])


def check_gorilla(text: str, toolset: Toolset) -> None:
    records = [json.loads(line) for line in text.split("\n")] if len(toolset) else []
    assert [r["api_name"] for r in records] == toolset.names
    for record, tool in zip(records, toolset):
        assert record["api_arguments"] == tool.input_schema()
        loads_back(from_openai, [{"name": tool.name, "parameters": record["api_arguments"]}],
                   Toolset((replace(tool, description=""),)))
        assert record["api_call"].startswith(f"{tool.name}(")
        assert record.get("description", "") == tool.description
        assert record["domain"] and tool.name.startswith(record["domain"])


def check_xlam_type(entry: dict[str, Any], t: TypeIR) -> None:
    if t.kind == "enum":
        assert entry["enum"] == list(t.values)
    if t.kind == "object" and t.fields:
        assert list(entry["properties"]) == [f.name for f in t.fields]
        for f in t.fields:
            check_xlam_param(entry["properties"][f.name], f)
    structured = ("object", "enum", "array", "union")
    if t.kind == "array" and t.items is not None and t.items.kind in structured:
        check_xlam_type(entry["items"], t.items)
    if t.kind == "union" and "anyOf" in entry:
        for sub, option in zip(entry["anyOf"], t.options, strict=True):
            check_xlam_type(sub, option)
    elif t.kind == "union":
        assert not any(o.kind in ("object", "enum") for o in t.options)


def check_xlam_param(entry: dict[str, Any], p: ParamIR) -> None:
    assert entry.get("description", "") == p.description
    assert entry["type"].endswith(", optional") == (not p.required)
    assert entry.get("default", "(none)") == (p.default if p.has_default else "(none)")
    check_xlam_type(entry, p.type)


def check_xlam(text: str, toolset: Toolset) -> None:
    head, body, tail = text.split("\n")
    assert (head, tail) == ("[BEGIN OF AVAILABLE TOOLS]", "[END OF AVAILABLE TOOLS]")
    tools = json.loads(body)
    assert [t["name"] for t in tools] == toolset.names
    for entry, tool in zip(tools, toolset):
        assert entry["description"] == tool.description
        assert list(entry["parameters"]) == [p.name for p in tool.params]
        for p in tool.params:
            check_xlam_param(entry["parameters"][p.name], p)
        assert ("returns" in entry) == (tool.returns is not None)


def check_watt(text: str, toolset: Toolset) -> None:
    root = SafeET.fromstring(text)
    assert root.tag == "tools" and [el.tag for el in root] == ["tool"] * len(toolset)
    for el, tool in zip(root, toolset):
        signature = el.text or ""
        assert "\n" not in signature and signature.startswith(f"{tool.name}(")
        at = len(tool.name) + 1
        for p in tool.params:  # in order, ? marking the optional ones
            at = signature.index(f"{p.name}{'' if p.required else '?'}: ", at)


def check_toolformer(text: str, toolset: Toolset) -> None:
    entries = text.split("\n\n")
    assert entries[0].startswith("You can call an API anywhere in your text by writing")
    assert len(entries) == len(toolset) + 1
    for entry, tool in zip(entries[1:], toolset):
        call = entry.split("\n")[0]
        head = f"[{tool.name}({', '.join(COMPACT.field(p) for p in tool.params)})]"
        if tool.returns is not None:
            head += f" -> {COMPACT.type(tool.returns)}"
        assert call == head
        at = len(tool.name) + 2
        for p in tool.params:  # in order, ? marking the optional ones
            at = call.index(f"{p.name}{'' if p.required else '?'}: ", at)


def docstring_names(node: ast.AST) -> str:
    return ast.get_docstring(node) or ""  # type: ignore[arg-type]


def check_command_r(text: str, toolset: Toolset) -> None:
    assert text.startswith("## Available Tools\nHere is a list of tools that you have available")
    fences = re.findall(r"```python\n(.*?)\n```", text, flags=re.S)
    assert len(fences) == len(toolset)
    for source, tool in zip(fences, toolset):
        module = ast.parse(source)
        (fn,) = [n for n in module.body if isinstance(n, ast.FunctionDef)]
        doc = docstring_names(fn)
        assert fn.name == tool.name or f"Tool name: {tool.name}" in doc
        args = [a.arg for a in fn.args.args]
        required = [p for p in tool.params if p.required]
        assert len(args) == len(tool.params)
        assert len(fn.args.defaults) == len(tool.params) - len(required)
        for arg, p in zip(args, required + [p for p in tool.params if not p.required]):
            assert arg == p.name or f"Its name in a call is `{p.name}`." in doc
            assert re.search(rf"^\s*{re.escape(arg)} \(", doc, flags=re.M)  # in Args
        assert isinstance(fn.body[-1], ast.Pass)


def check_dspy(text: str, toolset: Toolset) -> None:
    module = ast.parse(text)
    classes = [n for n in module.body if isinstance(n, ast.ClassDef)
               and any(ast.unparse(b) == "dspy.Signature" for b in n.bases)]
    assert len(classes) == len(toolset)
    for cls, tool in zip(classes, toolset):
        assert f"Tool name: {tool.name}" in docstring_names(cls)
        inputs, outputs = {}, []
        for stmt in cls.body:
            if isinstance(stmt, ast.AnnAssign):
                call = stmt.value
                assert isinstance(call, ast.Call)
                kwargs = {k.arg: k.value for k in call.keywords}
                kind = ast.unparse(call.func)
                if kind == "dspy.OutputField":
                    outputs.append(stmt)
                    continue
                assert kind == "dspy.InputField"
                name = ast.literal_eval(kwargs["alias"]) if "alias" in kwargs \
                    else stmt.target.id  # type: ignore[union-attr]
                inputs[name] = "default" in kwargs
        assert inputs == {p.name: not p.required for p in tool.params}
        assert len(outputs) == (tool.returns is not None)


# -- prose checkers --------------------------------------------------------------------------------

def check_terse(text: str, toolset: Toolset) -> None:
    lines = text.split("\n") if len(toolset) else []
    assert len(lines) == len(toolset)
    for line, tool in zip(lines, toolset):
        assert line.startswith(f"`{tool.name}`") and line.endswith(".")
        for _, p, _ in every_param(tool):
            assert f"`{p.name}` (" in line
        assert ("; returns " in line) == (tool.returns is not None)


def check_manpage(text: str, toolset: Toolset) -> None:
    pages = text.split(f"\n\n{'-' * 72}\n\n") if len(toolset) else []
    assert len(pages) == len(toolset)
    for page, tool in zip(pages, toolset):
        lines = page.split("\n")
        assert lines[0] == "NAME" and lines[1].startswith(f"       {tool.name} - ")
        synopsis = lines[lines.index("SYNOPSIS") + 1]
        assert synopsis.startswith(f"       {tool.name}")
        assert ("DESCRIPTION" in lines) == bool(tool.description)
        assert ("OPTIONS" in lines) == bool(tool.params)
        assert ("RETURN VALUE" in lines) == (tool.returns is not None)
        for p in tool.params:
            assert (f"[--{p.name} " in synopsis) != p.required
            i = next(i for i, line in enumerate(lines) if line.startswith(f"       --{p.name} "))
            need = "Required." if p.required else "Optional."
            assert lines[i + 1].startswith(f"              {need} It is ")


def check_cli_help(text: str, toolset: Toolset) -> None:
    screens = text.split("\n\n\n") if len(toolset) else []
    assert len(screens) == len(toolset)
    for screen, tool in zip(screens, toolset):
        lines = screen.split("\n")
        assert lines[0] == f"$ {tool.name} --help"
        assert lines[1] == f"usage: {tool.name}" or lines[1].startswith(f"usage: {tool.name} ")
        section, seen = None, {}
        for line in lines[2:]:
            if line in ("required arguments:", "options:"):
                section = line
            elif line.startswith("  --"):
                seen[line] = section
        for p in tool.params:
            (entry,) = [line for line in seen if line.startswith(f"  --{p.name} ")]
            assert seen[entry] == ("required arguments:" if p.required else "options:")
        assert any(line.startswith("returns: ") for line in lines) == (tool.returns is not None)


def check_faq(text: str, toolset: Toolset) -> None:
    blocks = split_blocks(text) if len(toolset) else []
    assert len(blocks) == len(toolset)
    for lines, tool in zip(blocks, toolset):
        assert len(lines) == (4 if tool.returns is not None else 2)
        assert [line[:3] for line in lines] == ["Q: ", "A: "] * (len(lines) // 2)
        assert f"`{tool.name}`" in lines[1]
        for _, p, _ in every_param(tool):
            assert f"`{p.name}`" in lines[1]


def check_narrative(text: str, toolset: Toolset) -> None:
    assert "\n" not in text
    at = 0
    for tool in toolset:
        at = text.index(f"`{tool.name}`.", at)


def check_instructional(text: str, toolset: Toolset) -> None:
    paragraphs = text.split("\n\n") if len(toolset) else []
    assert len(paragraphs) == len(toolset)
    for para, tool in zip(paragraphs, toolset):
        assert para.startswith("When ") and f"call `{tool.name}`" in para.replace("Call", "call")
        for p in tool.params:
            if p.required:
                assert f"Always fill in `{p.name}` (" in para
            else:
                assert re.search(rf"Fill in `{re.escape(p.name)}` \(.*?\) only if the user "
                                 "gives it", para)
        assert ("Give it no arguments." in para) == (not tool.params)
        assert ("You will get back" in para) == (tool.returns is not None)


def check_examples(calls: list[dict[str, Any]], toolset: Toolset, first_required: bool,
                   result_key: str | None) -> None:
    """JSON calls: every tool has some, each with known names; the first has the required
    arguments only (when ``first_required``), a later one every argument; values fit."""
    assert [c["name"] for c in calls] == [n for n in toolset.names for c in calls
                                          if c["name"] == n]  # grouped, in order
    for tool in toolset:
        mine = [c for c in calls if c["name"] == tool.name]
        assert mine
        keys = [list(c["arguments"]) for c in mine]
        if first_required:
            assert keys[0] == [p.name for p in tool.params if p.required]
        assert [p.name for p in tool.params] in keys
        for c in mine:
            if validates(tool):
                Draft202012Validator(tool.input_schema()).validate(c["arguments"])
            if result_key is not None:
                assert (result_key in c) == (tool.returns is not None)
                if tool.returns is not None:
                    Draft202012Validator(tool.returns.to_json_schema()).validate(c[result_key])


def check_few_shot(text: str, toolset: Toolset) -> None:
    calls = [json.loads(line) for line in text.split("\n")] if len(toolset) else []
    assert all(set(c) <= {"name", "arguments", "result"} for c in calls)
    check_examples(calls, toolset, first_required=True, result_key="result")
    for tool in toolset:
        mine = [c for c in calls if c["name"] == tool.name]
        assert len(mine) >= 2 or not tool.params  # two unless both would be the same


def check_card(text: str, toolset: Toolset) -> None:
    lines = text.split("\n") if len(toolset) else []
    for tool in toolset:
        slots = [f"<{p.name}>" if p.required else f"[{p.name}]" for p in tool.params]
        head = " ".join([tool.name, *slots])
        assert lines[0] == head or lines[0].startswith(head + " — ")
        lines.pop(0)
        if tool.params or tool.returns is not None:
            details = lines.pop(0)
            assert details.startswith("    ")
            at = 0
            for slot in slots:
                at = details.index(f"{slot} ", at)
            assert ("→ " in details) == (tool.returns is not None)
    assert lines == []


# -- novel checkers ------------------------------------------------------------------------------

def check_compact(lines: list[str], tool: ToolIR, indent: str = "  ") -> None:
    """``lines`` are ``tool``'s compact schema as ``_common.compact_block`` documents it."""
    assert lines[0] == tool.name
    body = lines[1:]
    if tool.description:
        assert body.pop(0) == f"{indent}// {' '.join(tool.description.split())}"
    for p in tool.params:
        line = body.pop(0)
        assert line.startswith(f"{indent}{p.name}{'' if p.required else '?'}: "), line
    if tool.returns is not None:
        assert body.pop(0).startswith(f"{indent}-> ")
    assert body == []


def check_contrastive(text: str, toolset: Toolset) -> None:
    blocks = split_blocks(text) if len(toolset) else []
    assert len(blocks) == len(toolset)
    for lines, tool in zip(blocks, toolset):
        notes = [line for line in lines if line.startswith("  ≠ ")]
        check_compact([line for line in lines if line not in notes], tool)
        assert len(notes) == min(1, len(toolset) - 1)
        for note in notes:
            assert any(note.startswith(f"  ≠ Not to be confused with {o.name}")
                       for o in toolset if o is not tool)


def check_negative(text: str, toolset: Toolset) -> None:
    blocks = split_blocks(text)
    assert blocks[-1] == ["✗ Use no tool when the request fits none of the tools above."]
    assert len(blocks) == len(toolset) + 1
    for lines, tool in zip(blocks, toolset):
        notes = [line for line in lines if line.startswith("  ✗ ")]
        check_compact([line for line in lines if line not in notes], tool)
        assert len(notes) == min(2, len(toolset) - 1)
        targets = [re.search(r" — use (.*) instead\.$", note).group(1) for note in notes]
        assert len(set(targets)) == len(targets) and tool.name not in targets
        assert set(targets) <= set(toolset.names)
        assert all(note.startswith(f"  ✗ Do not use {tool.name} when ") for note in notes)


def check_decision_tree(text: str, toolset: Toolset) -> None:
    lines = text.split("\n")
    domains = [line for line in lines if re.match(r"^\d+\. If the request is about ", line)]
    assert lines[-1] == f"{len(domains) + 1}. Otherwise: no tool fits; answer without a call."
    leaves = [lines[i + 1] for i, line in enumerate(lines) if re.match(r"^   \d+\.\d+ If ", line)]
    assert len(leaves) == len(toolset)
    by_name = {t.name: t for t in toolset}
    seen = []
    for leaf in leaves:
        assert leaf.startswith("       → ")
        name = next(n for n in sorted(by_name, key=len, reverse=True)
                    if leaf.startswith(f"       → {n}("))
        seen.append(name)
        assert leaf == f"       → {COMPACT.signature(by_name[name])}"
    assert sorted(seen) == sorted(toolset.names)


def check_namespaced(text: str, toolset: Toolset) -> None:
    found = []
    for lines in split_blocks(text) if len(toolset) else []:
        if lines[0].startswith("namespace "):
            assert lines[0].endswith(" {") and lines[-1] == "}"
            heads = [i for i, line in enumerate(lines) if re.match(r"^  \S.*  \[call: .*\]$", line)]
            for i, j in zip(heads, [*heads[1:], len(lines) - 1]):
                name = re.match(r"^  \S.*  \[call: (.*)\]$", lines[i]).group(1)
                tool = next(t for t in toolset if t.name == name)
                check_compact([name, *lines[i + 1:j]], tool, indent="    ")
                found.append(name)
        else:
            tool = next(t for t in toolset if t.name == lines[0])
            check_compact(lines, tool)
            found.append(tool.name)
    assert sorted(found) == sorted(toolset.names)


def keyed(lines: list[str], tool: ToolIR) -> dict[str, str]:
    """Compact-schema lines (no indent) by key: ``//``, ``->`` or the parameter's name."""
    out = {}
    for line in lines:
        if line.startswith("// ") or line.startswith("-> "):
            out[line[:2]] = line
            continue
        key = max((p.name for p in tool.params
                   if line.startswith(f"{p.name}: ") or line.startswith(f"{p.name}?: ")), key=len)
        out[key] = line
    return out


def check_diff(text: str, toolset: Toolset) -> None:
    by_name = {t.name: t for t in toolset}
    rebuilt = []
    for lines in split_blocks(text) if len(toolset) else []:
        assert lines[0].startswith("# domain ")
        base = by_name[lines[1]]
        ends = [i for i, line in enumerate(lines) if i > 1 and not line.startswith("  ")]
        base_lines = [line[2:] for line in lines[2:(ends or [len(lines)])[0]]]
        check_compact([base.name, *("  " + line for line in base_lines)], base)
        rebuilt.append(base.name)
        for i, j in zip(ends, [*ends[1:], len(lines)]):
            name, _, against = lines[i].partition(": diff against ")
            assert against == base.name
            tool = by_name[name]
            state = keyed(base_lines, base)
            for change in (line[2:] for line in lines[i + 1:j]):
                op, line = change[:2], change[2:]
                if op == "- ":
                    del state[line]
                else:
                    (key,) = keyed([line], tool)
                    assert (key in state) == (op == "~ ")
                    state[key] = line
            assert state == keyed(compact_block(tool, indent="")[1:], tool)
            rebuilt.append(name)
    assert sorted(rebuilt) == sorted(toolset.names)


def check_slot_value(template: Any, t: TypeIR) -> None:
    if isinstance(template, dict):
        assert t.kind == "object" and list(template) == [f.name for f in t.fields]
        for f in t.fields:
            check_slot_value(template[f.name], f.type)
    elif isinstance(template, list):
        assert t.kind == "array" and template[1].startswith("<more items like this one")
        check_slot_value(template[0], t.items)  # type: ignore[arg-type]
    else:
        assert template.startswith(f"<{COMPACT.type(t)}>")


def check_slot_template(text: str, toolset: Toolset) -> None:
    blocks = split_blocks(text)
    assert blocks[0][0].startswith('Copy the call of the tool you need and replace every "<type>"')
    assert len(blocks) == len(toolset) + 1
    for lines, tool in zip(blocks[1:], toolset):
        assert lines[0] == tool.name or lines[0].startswith(f"{tool.name} — ")
        call = json.loads(lines[1])
        assert call["name"] == tool.name
        assert list(call["arguments"]) == [p.name for p in tool.params]
        for p in tool.params:
            check_slot_value(call["arguments"][p.name], p.type)
        optional = [path for path, p, _ in every_param(tool) if not p.required]
        assert (f"  optional: {', '.join(optional)}" in lines) == bool(optional)
        assert lines[-1].startswith("  -> ") == (tool.returns is not None)


def check_state_graph(text: str, toolset: Toolset) -> None:
    blocks = split_blocks(text)
    assert len(blocks) == len(toolset) + 1
    for lines, tool in zip(blocks[1:], toolset):
        assert lines[0] == tool.name
        for p in tool.params:
            prefix = f"  needs {p.name}: " if p.required else f"  may use {p.name}?: "
            assert any(line.startswith(prefix) for line in lines), prefix
        assert any(line.startswith("  gives ") for line in lines)
        for line in lines:
            if line.startswith("  after "):
                assert line[len("  after "):].split(" (gives ")[0] in toolset.names


def check_progressive(text: str, toolset: Toolset) -> None:
    one, two, three = text.split("\n\n", 2)
    assert one.split("\n")[0] == "Layer 1 — index:"
    assert two.split("\n")[0] == "Layer 2 — arguments ([name] is optional):"
    assert three.startswith("Layer 3 — full schemas:\n")
    index, arguments = one.split("\n")[1:], two.split("\n")[1:]
    for tool, entry, args in zip(toolset, index, arguments, strict=True):
        assert entry == f"  {tool.name}" or entry.startswith(f"  {tool.name} — ")
        shown = [p.name if p.required else f"[{p.name}]" for p in tool.params]
        assert args == f"  {tool.name}({', '.join(shown)})"
    schemas = split_blocks(three[len("Layer 3 — full schemas:\n"):]) if len(toolset) else []
    for lines, tool in zip(schemas, toolset, strict=True):
        check_compact(lines, tool)


def check_dialogue(text: str, toolset: Toolset) -> None:
    calls = []
    for lines in split_blocks(text) if len(toolset) else []:
        assert lines[0].startswith("User: ") and lines[1].startswith("Assistant: ")
        call = json.loads(lines[1][len("Assistant: "):])
        tool = next(t for t in toolset if t.name == call["name"])
        assert len(lines) == (3 if tool.returns is not None else 2)
        if tool.returns is not None:
            result = json.loads(lines[2][len("Tool: "):])
            Draft202012Validator(tool.returns.to_json_schema()).validate(result)
        calls.append(call)
    check_examples(calls, toolset, first_required=False, result_key=None)


QUESTION = re.compile(r"^(?P<indent> +)(?P<rest>.*)$")


def check_questions(text: str, toolset: Toolset) -> None:
    blocks = split_blocks(text) if len(toolset) else []
    assert len(blocks) == len(toolset)
    for lines, tool in zip(blocks, toolset):
        assert lines[0] == tool.name or lines[0].startswith(f"{tool.name} — ")
        rows = every_param(tool)
        body = lines[1:-1] if tool.returns is not None else lines[1:]
        if not rows:
            assert body == ["  (no questions: call it with no arguments)"]
            continue
        assert len(body) == len(rows)
        for line, (path, p, depth) in zip(body, rows):
            head = "  " * (depth + 1) + f"{path}: "
            assert line.startswith(head)
            match = re.fullmatch(r"(?:What .+\?|Which .+\?|.+, yes or no\?) \((.+), "
                                 r"(required|optional)(?:, .+ by default)?\)(?: .+)?",
                                 line[len(head):])
            assert match is not None, line
            assert match.group(2) == ("required" if p.required else "optional")


def check_type_indexed(text: str, toolset: Toolset) -> None:
    lines = text.split("\n")
    split = lines.index("Tools:")
    assert lines[0] == "By argument:"
    uses, header = set(), None
    for line in lines[1:split]:
        if line.startswith("    "):
            uses.add((header, line))
        else:
            header = line
    for tool in toolset:
        for p in tool.params:
            need = "required" if p.required else "optional"
            head = f"  {p.name}: {COMPACT.type(p.type)}"
            assert any(h == head and u.startswith(f"    {tool.name} ({need}") for h, u in uses)
    listed = lines[split + 1:]
    assert len(listed) == len(toolset)
    for line, tool in zip(listed, toolset):
        assert line == f"  {tool.name}" or line.startswith(f"  {tool.name} ")
        assert line.endswith("(no arguments)") == (not tool.params)


def check_emoji(text: str, toolset: Toolset) -> None:
    lines = text.split("\n")
    assert lines[0] == "Legend: " + " · ".join(f"{s} {m}" for s, m in EMOJI_LEGEND.items())
    body = lines[1:]
    for tool in toolset:
        head = body.pop(0)
        assert head == tool.name or head.startswith(f"{tool.name} ")
        assert (f"{tool.name} 📤" in head) == (tool.returns is not None)
        for p in tool.params:
            line = body.pop(0)
            mark = "❗" if p.required else "❔"
            assert line.startswith(f"  {mark}{p.name} ")
            assert line[len(f"  {mark}{p.name} ")] in EMOJI_LEGEND
    assert body == []


def check_checklist(text: str, toolset: Toolset) -> None:
    blocks = text.split("\n\n")
    check = blocks[-1].split("\n")
    assert check[0] == "Before writing a call, check each point:"
    assert [line[:7] for line in check if line.startswith("[ ]")] == [
        f"[ ] {i}. " for i in range(1, 6)]
    required = "; ".join(f"{t.name}: {', '.join(p.name for p in t.params if p.required) or 'none'}"
                         for t in toolset)
    assert check[3] == f"       {required}"
    for lines, tool in zip([b.split("\n") for b in blocks[:-1]], toolset, strict=True):
        check_compact(lines, tool)


def check_matrix(text: str, toolset: Toolset) -> None:
    legend, blank, *_ = text.split("\n")
    assert legend.startswith("R = required, O = optional, - = not taken") and blank == ""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    rows, row = [], None
    for t in tokens:
        if t.type == "tr_open":
            row = []
        elif t.type == "inline" and row is not None:
            row.append(t.content)
        elif t.type == "tr_close":
            rows.append(row)
            row = None
    columns = list(dict.fromkeys(p.name for t in toolset for p in t.params))
    returns = any(t.returns is not None for t in toolset)
    assert rows[0] == ["tool", *columns, *(["→ returns"] if returns else [])]
    assert [r[0] for r in rows[1:]] == toolset.names
    for r, tool in zip(rows[1:], toolset):
        marks = {p.name: "R" if p.required else "O" for p in tool.params}
        for column, cell in zip(columns, r[1:]):
            assert cell == "-" if column not in marks else cell.startswith(f"{marks[column]}: ")


CHECKS: dict[str, Callable[[str, Toolset], None]] = {
    "nl_terse": check_terse, "nl_manpage": check_manpage, "cli_help": check_cli_help,
    "nl_faq": check_faq, "nl_narrative": check_narrative, "nl_instructional": check_instructional,
    "few_shot_only": check_few_shot, "nl_reference_card": check_card,
    "contrastive": check_contrastive, "decision_tree": check_decision_tree,
    "namespaced": check_namespaced, "diff_schema": check_diff,
    "slot_template": check_slot_template, "state_graph": check_state_graph,
    "negative_space": check_negative, "progressive": check_progressive,
    "worked_dialogue": check_dialogue, "question_slots": check_questions,
    "type_indexed": check_type_indexed, "emoji_semantic": check_emoji,
    "checklist": check_checklist, "capability_matrix": check_matrix,
    "hermes_tools": check_hermes, "qwen_tools": check_qwen, "llama3_tools": check_llama3,
    "mistral_tools": check_mistral, "command_r_tools": check_command_r,
    "react_tools": check_react, "mcp_manifest": check_mcp, "toolformer_inline": check_toolformer,
    "gorilla_api": check_gorilla, "glaive_tools": check_glaive, "xlam_tools": check_xlam,
    "granite_tools": check_granite, "dspy_signature": check_dspy,
    "openai_responses": check_responses, "langchain_tools": check_langchain,
    "watt_tool_tags": check_watt,
}


# -- the tests -------------------------------------------------------------------------------------

def test_every_format_has_a_checker() -> None:
    assert sorted(CHECKS) == sorted(MINE)


@pytest.mark.parametrize("fmt", MINE)
def test_registered_with_the_study_facts(fmt: str) -> None:
    spec = get_format(fmt)
    row = {r["format_id"]: r for r in load_evidence("formats").rows}[fmt]
    assert spec.id == spec.render.__name__ == fmt
    for key in ("family", "default_protocol", "novel", "supports_nesting", "supports_enum",
                "supports_constraints", "supports_optional", "supports_returns", "lossy",
                "compressed", "core", "two_stage"):
        assert getattr(spec, key) == row[key], key


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("fmt", MINE)
def test_block_reads_back(fmt: str, case: str) -> None:
    toolset = load_case(case)
    text = render_block(toolset, fmt)
    assert text == render_block(toolset, fmt)
    CHECKS[fmt](text, toolsets.shown(toolset, fmt))
    lossy = get_format(fmt).lossy
    for tool in toolset:
        shown = [tool.name, *(p.name for p in tool.params)] if lossy else names(tool)
        for name in shown:
            assert spelled(text, name), f"{fmt}: {tool.name}: {name!r} missing"


@pytest.mark.parametrize("fmt", MINE)
def test_empty_toolset_and_depth_guard(fmt: str) -> None:
    CHECKS[fmt](render_block(Toolset(()), fmt), Toolset(()))
    with pytest.raises(RenderError):
        render_block(toolsets.deep(50), fmt)


def no_prose(t: TypeIR) -> TypeIR:
    return replace(t, fields=tuple(replace(f, description="", type=no_prose(f.type))
                                   for f in t.fields),
                   items=no_prose(t.items) if t.items is not None else None,
                   options=tuple(no_prose(o) for o in t.options))


@pytest.mark.parametrize("fmt", MINE)
def test_descriptions_can_be_left_out(fmt: str) -> None:
    toolset = toolsets.tier3()
    text = render_block(toolset, fmt, RenderOptions(include_descriptions=False))
    for words in ("Place an order", "Street and number", "Stock code"):
        assert words not in text
    silent = Toolset(tuple(replace(t, description="", params=no_prose(t.input_type).fields)
                           for t in toolset))
    CHECKS[fmt](text, silent)


# -- hand-checked cases ----------------------------------------------------------------------------

S = TypeIR("string")


def routing() -> Toolset:
    """Two weather tools, two order tools; ``get_order`` needs what ``create_order`` gives."""
    return Toolset((
        ToolIR("get_weather", "Current weather for a city.", (
            ParamIR("city", S, "City name."),
            ParamIR("unit", TypeIR("enum", values=("c", "f")), required=False, default="c"))),
        ToolIR("get_forecast", "Forecast for several days.", (
            ParamIR("city", S, "City name."),
            ParamIR("days", TypeIR("integer", minimum=1), "How many days.", required=False))),
        ToolIR("create_order", "Place an order.", (ParamIR("sku", S),),
               returns=TypeIR("object", fields=(ParamIR("order_id", S),))),
        ToolIR("get_order", "Look up an order.", (ParamIR("order_id", S),)),
    ))


def test_contrastive_points_at_the_nearest_neighbour() -> None:
    text = render_block(routing(), "contrastive")
    notes = [line for line in text.split("\n") if "≠" in line]
    assert notes == [
        "  ≠ Not to be confused with get_forecast (Forecast for several days.): only "
        "get_forecast takes days; only get_weather takes unit.",
        "  ≠ Not to be confused with get_weather (Current weather for a city.): only "
        "get_weather takes unit; only get_forecast takes days.",
        "  ≠ Not to be confused with get_order (Look up an order.): only get_order takes "
        "order_id; only create_order takes sku.",
        "  ≠ Not to be confused with create_order (Place an order.): only create_order takes "
        "sku; only get_order takes order_id.",
    ]


def test_negative_space_names_the_two_closest_siblings() -> None:
    text = render_block(routing(), "negative_space")
    weather = text.split("\n\n")[0].split("\n")
    assert weather[-2:] == [
        "  ✗ Do not use get_weather when the request is for: Forecast for several days. — use "
        "get_forecast instead.",
        "  ✗ Do not use get_weather when the request is for: Look up an order. — use get_order "
        "instead.",
    ]


def test_decision_tree_groups_by_first_word() -> None:
    text = render_block(routing(), "decision_tree")
    assert [line for line in text.split("\n") if not line.startswith(" ")] == [
        '1. If the request is about "get":', '2. If the request is about "create":',
        "3. Otherwise: no tool fits; answer without a call."]
    assert ("   1.3 If it asks for: Look up an order.\n"
            "       → get_order(order_id: string)") in text


def test_namespaced_factors_the_first_word() -> None:
    text = render_block(routing(), "namespaced")
    assert text.split("\n\n")[1] == "create_order\n  // Place an order.\n  sku: string\n" \
                                    "  -> {order_id: string}"
    first = text.split("\n\n")[0].split("\n")
    assert first[0] == "namespace get {" and first[-1] == "}"
    assert [line for line in first if "[call:" in line] == [
        "  weather  [call: get_weather]", "  forecast  [call: get_forecast]",
        "  order  [call: get_order]"]


def test_diff_schema_writes_the_rest_of_a_domain_as_changes() -> None:
    assert render_block(routing(), "diff_schema") == "\n".join([
        "# domain get",
        "get_weather",
        "  // Current weather for a city.",
        "  city: string — City name.",
        '  unit?: "c"|"f" = "c"',
        "get_forecast: diff against get_weather",
        "  ~ // Forecast for several days.",
        "  + days?: integer(minimum=1) — How many days.",
        "  - unit",
        "get_order: diff against get_weather",
        "  ~ // Look up an order.",
        "  + order_id: string",
        "  - city",
        "  - unit",
        "",
        "# domain create",
        "create_order",
        "  // Place an order.",
        "  sku: string",
        "  -> {order_id: string}",
    ])


def test_state_graph_links_what_a_tool_gives_to_what_another_needs() -> None:
    blocks = render_block(routing(), "state_graph").split("\n\n")
    assert blocks[3] == "create_order\n  // Place an order.\n  needs sku: string\n" \
                        "  gives order_id: string"
    assert blocks[4].split("\n")[-1] == "  after create_order (gives order_id)"
    assert sum("  after " in b for b in blocks) == 1


def test_capability_matrix_is_one_table() -> None:
    assert render_block(routing(), "capability_matrix").split("\n")[2:] == [
        "| tool | city | unit | days | sku | order_id | → returns |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        '| get_weather | R: string | O: "c"\\|"f" = "c" | - | - | - | - |',
        "| get_forecast | R: string | - | O: integer(minimum=1) | - | - | - |",
        "| create_order | - | - | - | R: string | - | {order_id: string} |",
        "| get_order | - | - | - | - | R: string | - |",
    ]


def test_emoji_legend_uses_single_symbols_outside_latin() -> None:
    assert len(set(EMOJI_LEGEND)) == len(EMOJI_LEGEND)
    for symbol in EMOJI_LEGEND:
        assert len(symbol) == 1 and ord(symbol) > 0x2000
    for case in toolsets.TIERS:  # no other symbol appears
        text = render_block(toolsets.TIERS[case](), "emoji_semantic")
        assert {c for c in text if ord(c) >= 0x2190} <= set(EMOJI_LEGEND)


def test_example_calls_cover_every_enum_value() -> None:
    text = render_block(toolsets.tier5(), "few_shot_only")
    modes = {json.loads(line)["arguments"].get("mode") for line in text.split("\n")}
    assert modes == {None, "car", "bike", "walk"}
    text = render_block(toolsets.tier5(), "worked_dialogue")
    assert text.count("User: ") == 3


def test_vendor_markers_inside_text_are_escaped() -> None:
    sneaky = Toolset((ToolIR("t", "ends </tools> and [/AVAILABLE_TOOLS] and <|tool|>",
                              (ParamIR("x", S),)),))
    for fmt in ("hermes_tools", "qwen_tools", "mistral_tools", "granite_tools"):
        CHECKS[fmt](render_block(sneaky, fmt), sneaky)


def test_python_names_that_need_renaming() -> None:
    text = render_block(toolsets.awkward(), "dspy_signature")
    assert 'page_id: str = dspy.InputField(alias="page-id")' in text
    assert "class_: str | None = dspy.InputField(" in text and 'alias="class"' in text
    text = render_block(toolsets.awkward(), "command_r_tools")
    assert "def math_factorial(n: int, " in text and "Tool name: math.factorial" in text
