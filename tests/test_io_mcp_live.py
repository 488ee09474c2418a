"""toolform.io._mcp_live: tools/list from live MCP servers over stdio."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel

pytest.importorskip("mcp", reason="the mcp SDK is not installed (pip install mcp)")

from toolform.errors import LoaderError  # noqa: E402
from toolform.io import from_mcp, load_tools  # noqa: E402
from toolform.io._mcp_live import load_mcp, load_mcp_async  # noqa: E402
from toolform.ir import TypeIR  # noqa: E402
from stdio_servers import server_source  # noqa: E402  (tests/stdio_servers.py)

ROOT = Path(__file__).resolve().parents[1]

# A server of ours on the SDK's low-level API: five tools served two per page, so the client
# must follow nextCursor; one tool reads an environment variable into its description.
SERVER = server_source("toolform-test", '''
    TOOLS = [
        types.Tool(name="add", description="Add two numbers.",
                   input_schema={"type": "object",
                                 "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                                 "required": ["a", "b"]}),
        types.Tool(name="greet", description="Greet " + os.environ.get("GREETING_TARGET", "?"),
                   input_schema={"type": "object", "properties": {"name": {"type": "string"}}}),
        types.Tool(name="unit", description="Pick a unit.",
                   input_schema={"type": "object",
                                 "properties": {"u": {"enum": ["c", "f"], "default": "c"}}}),
        types.Tool(name="now", description="The time.", input_schema={"type": "object"}),
        types.Tool(name="tag", description="Tag things.",
                   input_schema={"type": "object",
                                 "properties": {"tags": {"type": "array",
                                                         "items": {"type": "string"}}},
                                 "required": ["tags"]}),
    ]

    async def list_tools(ctx, params):
        start = int(params.cursor) if params is not None and params.cursor else 0
        end = start + 2
        return types.ListToolsResult(tools=TOOLS[start:end],
                                     next_cursor=str(end) if end < len(TOOLS) else None)
''')


@pytest.fixture(scope="module")
def server_script(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("mcp") / "paged_server.py"
    path.write_text(SERVER, encoding="utf-8")
    return path


def test_our_server_with_pagination_and_env(server_script):
    toolset = load_mcp([sys.executable, str(server_script)], env={"GREETING_TARGET": "Ana"},
                       timeout=60)
    assert toolset.names == ["add", "greet", "unit", "now", "tag"]
    assert toolset["greet"].description == "Greet Ana"
    assert toolset["add"].params[0].type == TypeIR("number")
    unit = toolset["unit"].params[0]
    assert unit.type == TypeIR("enum", values=("c", "f")) and unit.default == "c"
    assert toolset.source.endswith("paged_server.py")


def test_async_form_inside_a_running_loop(server_script):
    async def inside() -> list[str]:
        toolset = await load_mcp_async([sys.executable, str(server_script)], timeout=60)
        return toolset.names

    assert asyncio.run(inside())[:2] == ["add", "greet"]


def test_sync_form_works_when_a_loop_is_running(server_script):
    async def inside() -> int:
        return len(load_mcp([sys.executable, str(server_script)], timeout=60))

    assert asyncio.run(inside()) == 5


@pytest.mark.parametrize("command, words", [
    ([sys.executable, "-c", "import sys; sys.exit(3)"], "the MCP server failed"),
    (["/nonexistent/mcp-server"], "the MCP server failed"),
    ([sys.executable, "-c", "import time; time.sleep(30)"], "no complete tools/list"),
])
def test_failing_servers_raise_loader_error(command, words):
    with pytest.raises(LoaderError) as info:
        load_mcp(command, timeout=3)
    assert words in str(info.value)
    assert info.value.file.startswith(command[0])


def test_command_must_be_a_list():
    with pytest.raises(ValueError, match="non-empty list"):
        load_mcp("npx server")


#: The server-everything release ``datasets/mcp/everything.json`` was captured from
#: (``datasets/mcp/README.md``).
EVERYTHING_VERSION = "2026.8.31"


def _everything_server() -> Path | None:
    for folder in (ROOT / "node_modules", ROOT / ".ci-node" / "node_modules"):
        if (folder / ".bin" / "mcp-server-everything").exists():
            return folder
    return None


@pytest.mark.skipif(_everything_server() is None,
                    reason="@modelcontextprotocol/server-everything is not installed from npm "
                           "(npm install --prefix .ci-node @modelcontextprotocol/server-everything)")
def test_real_public_server_matches_its_capture():
    modules = _everything_server()
    live = load_mcp([str(modules / ".bin" / "mcp-server-everything")], timeout=120)
    assert {"echo", "get-sum", "get-env"} <= set(live.names)
    assert [p.name for p in live["get-sum"].params] == ["a", "b"]
    installed = json.loads((modules / "@modelcontextprotocol" / "server-everything" /
                            "package.json").read_text(encoding="utf-8"))["version"]
    if installed == EVERYTHING_VERSION:  # the same release lists the same tools
        assert live == load_tools(ROOT / "datasets" / "mcp" / "everything.json")


class Filter(BaseModel):
    """A filter whose all_of holds filters."""

    field: str | None = None
    equals: str | None = None
    all_of: list[Filter] | None = None


class TreeNode(BaseModel):
    """A directory tree."""

    name: str
    children: list[TreeNode] = []


def test_recursive_and_map_schemas_from_the_python_sdk():
    """The MCP Python SDK's own JSON Schema (pydantic) for a recursive model, a map and a
    recursive return type, as its tools/list gives them, loads, and exports back to a schema
    that accepts and rejects what the SDK's does."""
    mcpserver = pytest.importorskip("mcp.server.mcpserver", reason="the mcp 2.x SDK is needed")
    import jsonschema

    server = mcpserver.MCPServer("toolform-test")

    @server.tool()
    def search(filter: Filter, labels: dict[str, int]) -> list[str]:
        """Search with a filter."""
        return []

    @server.tool()
    def directory_tree(path: str) -> TreeNode:
        """The tree below a directory."""
        return TreeNode(name=path)

    listed = asyncio.run(server.list_tools())
    raw = {"tools": [t.model_dump(by_alias=True, exclude_none=True) for t in listed]}
    tools = from_mcp(json.loads(json.dumps(raw)))
    assert tools.warnings == ()
    found = tools["search"]
    assert found.param("filter").type.name == "Filter"
    assert found.param("labels").type == TypeIR("object", value_type=TypeIR("integer"))
    tree = tools["directory_tree"]
    assert tree.params[0].type == TypeIR("string") and "TreeNode" in tree.named_types()
    calls = [({"filter": {"all_of": [{"field": "a", "equals": "b"}, {"all_of": []}]},
               "labels": {"x": 1}}, True),
             ({"filter": {"all_of": [{"field": 3}]}, "labels": {}}, False),
             ({"filter": {}, "labels": {"x": "1"}}, False)]
    original = raw["tools"][[t["name"] for t in raw["tools"]].index("search")]["inputSchema"]
    for call, valid in calls:
        assert jsonschema.Draft202012Validator(original).is_valid(call) == valid
        assert jsonschema.Draft202012Validator(found.input_schema()).is_valid(call) == valid
    out = raw["tools"][[t["name"] for t in raw["tools"]].index("directory_tree")]["outputSchema"]
    deep = {"name": "/", "children": [{"name": "a", "children": [{"name": "b"}]}]}
    for value, valid in ((deep, True), ({"name": "/", "children": [{"children": []}]}, False)):
        assert jsonschema.Draft202012Validator(out).is_valid(value) == valid
        assert jsonschema.Draft202012Validator(tree.output_schema()).is_valid(value) == valid
