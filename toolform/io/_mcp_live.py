"""Live MCP: start a server over stdio, list its tools, stop it.

:func:`load_mcp` runs the server command with the ``mcp`` SDK's stdio client, initialises a
session, calls ``tools/list`` until no ``nextCursor`` is left (pagination), stops the server and
reads the collected tools with :func:`toolform.io.from_mcp`, so a live listing and a saved
capture load the same way. :func:`load_mcp_async` is the same as a coroutine, for code that
already runs an event loop; :func:`load_mcp` works inside Jupyter too (it runs the coroutine on
a worker thread when a loop is running).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import InvalidParameterError, LoaderError, MissingDependencyError
from ..ir import Toolset
from ._vendors import from_mcp

__all__ = ["MAX_PAGES", "load_mcp", "load_mcp_async"]

#: Most ``tools/list`` pages read before giving up (a server that never stops paginating).
MAX_PAGES = 1000


def _sdk() -> Any:
    try:
        import mcp
        from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client
    except ImportError as exc:
        raise MissingDependencyError("mcp", extra="mcp", purpose="loading tools from a live "
                                     "MCP server") from exc
    return mcp, StdioServerParameters, get_default_environment, stdio_client


async def load_mcp_async(command: Sequence[str], env: Mapping[str, str] | None = None, *,
                         cwd: str | os.PathLike[str] | None = None,
                         timeout: float = 60.0) -> Toolset:
    """Coroutine form of :func:`load_mcp` (same parameters, same result)."""
    if isinstance(command, str) or not command:
        raise InvalidParameterError(
            "command must be a non-empty list such as ['npx', '-y', 'pkg'], got "
            f"{command!r}")
    mcp, params_cls, default_env, stdio_client = _sdk()
    label = shlex.join(command)
    params = params_cls(command=command[0], args=list(command[1:]),
                        env={**default_env(), **dict(env or {})}, cwd=cwd)
    tools: list[dict[str, Any]] = []

    async def listing() -> None:
        async with stdio_client(params) as (read, write):
            async with mcp.ClientSession(read, write) as session:
                await session.initialize()
                cursor = None
                for _ in range(MAX_PAGES):
                    page_params = None if cursor is None else \
                        mcp.types.PaginatedRequestParams(cursor=cursor)
                    result = await session.list_tools(params=page_params)
                    tools.extend(t.model_dump(mode="json", by_alias=True, exclude_none=True)
                                 for t in result.tools)
                    cursor = result.next_cursor
                    if not cursor:
                        return
                raise LoaderError(f"the server was still paginating after {MAX_PAGES} pages",
                                  file=label, path="$.tools")

    try:
        await asyncio.wait_for(listing(), timeout)
    except LoaderError:
        raise
    except asyncio.TimeoutError:  # the builtin TimeoutError only from Python 3.11
        raise LoaderError(f"no complete tools/list within {timeout} s", file=label) from None
    except Exception as exc:  # the SDK raises many kinds (process, protocol, MCP errors)
        raise LoaderError(f"the MCP server failed: {type(exc).__name__}: {exc}",
                          file=label) from exc
    return from_mcp({"tools": tools}, source=label)


def load_mcp(command: Sequence[str], env: Mapping[str, str] | None = None, *,
             cwd: str | os.PathLike[str] | None = None, timeout: float = 60.0) -> Toolset:
    """Start an MCP server over stdio, list its tools (following pagination), stop it.

    Parameters
    ----------
    command : sequence of str
        The server command and its arguments, e.g.
        ``["npx", "-y", "@modelcontextprotocol/server-everything"]`` or
        ``[sys.executable, "my_server.py"]``.
    env : mapping of str to str, optional
        Extra environment variables (API keys …), added to the SDK's default environment.
    cwd : path, optional
        Working directory of the server.
    timeout : float, default 60.0
        Seconds allowed for start-up, initialisation and every page of ``tools/list``.

    Returns
    -------
    Toolset
        The tools as :func:`toolform.io.from_mcp` reads them; ``source`` is the command line.

    Raises
    ------
    LoaderError
        Naming the command as the file: the server did not start, failed, timed out or never
        stopped paginating, or a listed tool is malformed (then also the tool and JSON path).
    MissingDependencyError
        When the ``mcp`` SDK is not installed.
    ValueError
        When ``command`` is a string or empty.
    """
    coroutine = load_mcp_async(command, env, cwd=cwd, timeout=timeout)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    # a loop is already running here (Jupyter): run ours on a thread of its own
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
