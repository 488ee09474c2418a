"""MCP servers of our own for the tests that start one over stdio: the source of a script on
the SDK's low-level API, its tools listed by a ``list_tools`` handler the test writes."""

from __future__ import annotations

import textwrap

_HEAD = '''
import json, os
import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
'''

_MAIN = '''
async def main():
    server = Server({name!r}, on_list_tools=list_tools)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())

anyio.run(main)
'''


def server_source(name: str, body: str) -> str:
    """The Python source of a stdio MCP server called ``name`` (its ``serverInfo`` name).

    ``body`` is module-level code (dedented here) that defines
    ``async def list_tools(ctx, params)`` returning a ``types.ListToolsResult``; ``json``,
    ``os``, ``anyio`` and ``mcp.types`` (as ``types``) are imported for it."""
    return _HEAD + textwrap.dedent(body) + _MAIN.format(name=name)
