"""What the registries write for every entry: the shared docstring sections, the spec tag, and
re-registration with ``replace=True`` (a notebook cell run twice), for formats and protocols."""

from __future__ import annotations

import ast
import inspect
import re

import pytest

from toolform._registry import Registry
from toolform.errors import RegistryError, UnknownFormatError
from toolform.formats import FORMATS, format_ids, get_format, register_format, render
from toolform.formats._registry import renderer_doc
from toolform.ir import ParamIR, ToolCall, ToolIR, Toolset, TypeIR
from toolform.protocols import (PROTOCOLS, ParsedCall, Protocol, get_protocol, protocol_ids,
                                register_protocol)
from toolform.study import CORE_FORMATS

SECTIONS = ("Parameters", "Returns", "Raises", "Notes")


def _sections(doc: str) -> list[str]:
    return re.findall(r"^(\w+)\n-+$", inspect.cleandoc(doc), re.M)


@pytest.mark.parametrize("spec", list(FORMATS), ids=lambda s: s.id)
def test_every_renderer_documents_the_shared_sections_once(spec):
    fn = spec.render
    assert fn.format_spec is spec
    doc = inspect.getdoc(fn)
    assert _sections(doc) == list(SECTIONS)
    assert re.search(r"^toolset : Toolset\n    \S", doc, re.M)
    assert re.search(r"^options : RenderOptions\n    \S", doc, re.M)
    assert re.search(r"^RenderError\n    When a tool nests past ``options.max_depth``\.$", doc,
                     re.M)
    assert f"Registered as format ``{spec.id}``" in doc and spec.default_protocol in doc
    assert list(inspect.signature(fn).parameters) == ["toolset", "options"]
    # the renderer's own text comes first and is not empty
    assert doc.split("\n", 1)[0].strip() and not doc.startswith("Parameters")


def test_the_block_is_written_once_not_pasted_into_the_renderers():
    pasted = []
    for module in {inspect.getmodule(s.render) for s in FORMATS}:
        tree = ast.parse(inspect.getsource(module))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in FORMATS:
                if "Parameters\n" in (ast.get_docstring(node) or ""):
                    pasted.append(node.name)
    assert pasted == []


def test_the_generated_doc_keeps_what_is_particular_to_a_format():
    hjson = inspect.getdoc(get_format("hjson").render)
    assert "MissingDependencyError\n    When the ``hjson`` package is not installed." in hjson
    menu = [s for s in FORMATS if "Only ``max_depth`` matters for the menu." in
            inspect.getdoc(s.render)]
    assert len(menu) == 3
    minimal = inspect.getdoc(get_format("json_minimal").render)
    assert "Only ``include_returns`` and ``max_depth`` matter." in minimal
    assert "core" in minimal.split("Notes\n-----\n")[1] and "lossy" in minimal


@pytest.fixture
def scratch_formats(monkeypatch):
    """The format registry as it is, restored after the test."""
    monkeypatch.setattr(FORMATS, "_entries", dict(FORMATS._entries))
    return FORMATS


def _one_tool() -> Toolset:
    return Toolset((ToolIR("ping", "Check a host.", (ParamIR("host", TypeIR("string")),)),))


def test_a_notebook_cell_that_registers_a_format_can_run_twice(scratch_formats):
    def cell(text: str):
        @register_format(name="Names only, upper case", family="prose",
                         default_protocol="json_object", description="Tool names in capitals.",
                         returns="One name per line.", replace=True)
        def shouting_names(toolset, options):
            """Tool names in capitals, one per line."""
            return "\n".join(t.name.upper() + text for t in toolset)

        return shouting_names

    first = cell("")
    position = format_ids().index("shouting_names")
    second = cell("!")
    assert format_ids().index("shouting_names") == position == len(format_ids()) - 1
    assert get_format("shouting_names").render is second is not first
    assert render(_one_tool(), "shouting_names").schema_text == "PING!"
    assert "One name per line." in inspect.getdoc(second)


def test_a_second_registration_without_replace_still_raises(scratch_formats):
    @register_format(name="x", family="prose", default_protocol="json_object",
                     description="A test format.")
    def twice_registered(toolset, options):
        """A test format."""
        return ""

    with pytest.raises(RegistryError, match="registered twice.*replace=True"):
        register_format(name="x", family="prose", default_protocol="json_object",
                        description="A test format.")(twice_registered)
    # a bad family is refused before anything is replaced
    with pytest.raises(RegistryError, match="family"):
        register_format(name="x", family="nope", default_protocol="json_object",
                        description="A test format.", replace=True)(twice_registered)
    assert get_format("twice_registered").family == "prose"


@pytest.fixture
def scratch_protocols(monkeypatch):
    """The protocol registry as it is, restored after the test (no test protocol leaks)."""
    monkeypatch.setattr(PROTOCOLS, "_entries", dict(PROTOCOLS._entries))
    return PROTOCOLS


def test_a_notebook_cell_that_registers_a_protocol_can_run_twice(scratch_protocols):
    def cell(marker: str, **replace: bool) -> type[Protocol]:
        @register_protocol(name="Names on lines", description="One tool name per line.",
                           supports_parallel=True, **replace)
        class NamesOnLines(Protocol):
            instruction = "Answer with the name of each tool to call, one per line."

            def write(self, calls, toolset):
                return "\n".join(marker + c.name for c in calls)

            def read(self, text, toolset):
                return [ParsedCall(line.removeprefix(marker), {}, (0, len(text)))
                        for line in text.splitlines() if line.startswith(marker)]

        return NamesOnLines

    first = cell("> ")
    position = protocol_ids().index("names_on_lines")
    assert position == len(protocol_ids()) - 1
    with pytest.raises(RegistryError, match="protocol 'names_on_lines' is registered twice "
                                            r"\(pass replace=True"):
        cell("! ")
    assert type(get_protocol("names_on_lines").protocol) is first  # the refused one changed nothing
    second = cell("! ", replace=True)
    assert protocol_ids().index("names_on_lines") == position
    assert protocol_ids().count("names_on_lines") == 1
    spec = get_protocol("names_on_lines")
    assert type(spec.protocol) is second is not first
    assert spec.protocol.parse("! ping", _one_tool()) == [ToolCall("ping")]


def test_the_test_protocol_does_not_outlive_its_test():
    assert "names_on_lines" not in protocol_ids()


def test_registry_add_replace_keeps_the_position():
    registry: Registry[str] = Registry("thing", lambda given, known: UnknownFormatError(given, known))
    registry.add("a", "first")
    registry.add("b", "second")
    with pytest.raises(RegistryError):
        registry.add("a", "again")
    assert registry.add("a", "again", replace=True) == "again"
    assert registry.ids() == ["a", "b"] and registry.get("a") == "again"


def test_renderer_doc_without_own_text_uses_the_name():
    spec = get_format("json_schema_openai")
    doc = renderer_doc(spec, None, returns="Text.")
    assert doc.startswith(spec.name + "\n\nParameters\n----------\n")


def test_core_formats_and_format_ids_agree_on_order():
    assert tuple(format_ids(core=True)) == CORE_FORMATS
    from toolform.experiments import CORE_CELLS

    assert tuple(c.format_id for c in CORE_CELLS) == CORE_FORMATS
