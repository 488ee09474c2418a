"""Capture ``tools/list`` from the public MCP servers named in ``servers.json``.

Each server is installed from its registry by its package manager's own runner (``npx -y
package@version`` for npm, ``uv tool run --from package==version`` for PyPI), started over
stdio with the ``mcp`` SDK exactly as :func:`toolform.io.load_mcp` starts one, initialised,
listed until no ``nextCursor`` is left, and stopped. No tool is ever called. Servers that need
a key to start get a dummy one (``servers.json`` says which); nothing else of this machine's
environment is passed on (the SDK's default environment: ``PATH``, ``SHELL``, ``TERM``,
``USER``, ``LOGNAME``), and each server runs in an empty scratch folder with a ``HOME`` of its
own inside it (``<scratch>/home``), so that what a server or its runner writes under ``~`` (a
config file, a token cache, the runner's own cache unless ``npm_config_cache`` or
``UV_CACHE_DIR`` points elsewhere) lands there and not in this machine's home folder. When
the capture is over, every process still running with that ``HOME`` (a daemon or helper server
that left the server's process group) is stopped too.

Usage (needs the network to the registries; the captures it writes are committed and the
tests read those)::

    python datasets/mcp_servers/capture.py                 # every server not yet captured
    python datasets/mcp_servers/capture.py --only NAME ... # these servers, again
    python datasets/mcp_servers/capture.py --list          # the manifest and what is captured

A manifest entry may ask for ``"setup": "git-init"`` (the scratch folder made a git repository,
for a server that serves one) and, for PyPI, for ``"python": "3.13"`` (a package that requires a
newer Python than the one running this script: ``uv`` is given that minor version's interpreter,
found on ``PATH`` or among pyenv's versions). A capture is ``tools/<name>.json``: the package, its registry and version, the command line,
the ``serverInfo`` and protocol version the server announced, the capture time, and the
``tools`` array exactly as the server sent it. A server that did not start is logged in
``failures.json`` with the error and the last lines it wrote to stderr (the reason, mostly:
a missing credential, an unreachable service, a too old Node), so the data card can say what
was tried.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as _dt
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "servers.json"
CAPTURES = HERE / "tools"
FAILURES = HERE / "failures.json"
MAX_PAGES = 1000


class ManifestError(ValueError):
    """An entry of ``servers.json`` that cannot be run; the message names the entry and the field."""


class CaptureError(RuntimeError):
    """A server gave no tools; the message ends with the last lines it wrote to stderr."""


def interpreter(version: str) -> str:
    """The path of a Python ``version`` (``"3.13"``) interpreter on this machine: ``python3.13``
    on ``PATH`` when it runs (a pyenv shim of a version not selected does not), else the newest
    of pyenv's ``versions/3.13.*``.

    Raises
    ------
    ManifestError
        No such interpreter is installed.
    """
    found = shutil.which(f"python{version}")
    if found and _runs(found):
        return found
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    ours = sorted(root.glob(f"{version}.*/bin/python{version}"),
                  key=lambda p: [int(n) for n in p.parts[-3].split(".") if n.isdigit()])
    if not ours:
        raise ManifestError(f"no Python {version} interpreter on PATH or in {root}")
    return str(ours[-1])


def _runs(python: str, timeout: float = 30.0) -> bool:
    """Whether ``python -c ""`` exits 0 within ``timeout`` seconds (a shim that hangs does not)."""
    try:
        return subprocess.run([python, "-c", ""], capture_output=True,
                              timeout=timeout).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _stop_escaped(home: Path, grace: float = 2.0) -> list[int]:
    """Stop the processes still running with ``HOME`` set to ``home`` once a capture is over
    (the SDK stops the server's process group; a child that started a session of its own, a
    daemon or a helper HTTP server, escapes it) and return their ids. Linux only: where
    ``/proc`` is missing nothing is stopped."""
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    marker = b"HOME=" + os.fsencode(home)
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:  # gone, or another user's
            continue
        if marker in environ:
            found.append(int(entry.name))
    for signal_ in (signal.SIGTERM, signal.SIGKILL):
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal_)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and any((proc / str(p)).exists() for p in found):
            time.sleep(0.05)
    return found


def command_line(server: dict[str, Any]) -> list[str]:
    """The command that installs and starts ``server`` (an entry of ``servers.json``).

    Raises
    ------
    ManifestError
        The entry's registry is neither ``npm`` nor ``pypi``, or the Python it asks for is not
        installed.
    """
    if server["registry"] == "npm":
        return ["npx", "-y", f"{server['package']}@{server['version']}", *server.get("args", [])]
    if server["registry"] == "pypi":
        entry = server.get("entry", server["package"])
        python = ["--python", interpreter(server["python"])] if "python" in server else []
        return [sys.executable, "-m", "uv", "tool", "run", "--quiet", *python, "--from",
                f"{server['package']}=={server['version']}", entry, *server.get("args", [])]
    raise ManifestError(f"servers.json entry {server['name']!r}: unknown registry "
                        f"{server['registry']!r} (npm or pypi)")


def _stderr_tail(path: Path, lines: int = 4, chars: int = 300) -> str:
    """The last non-empty lines of a server's stderr (npm's install warnings left out)."""
    text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
    kept = [line.strip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("npm warn")]
    return " | ".join(kept[-lines:])[-chars:]


async def _capture(server: dict[str, Any], timeout: float) -> dict[str, Any]:
    import mcp
    from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

    command = command_line(server)
    scratch = tempfile.mkdtemp(prefix=f"mcp-{server['name']}-")
    if server.get("setup") == "git-init":  # a server that serves a repository needs one
        subprocess.run(["git", "init", "-q"], cwd=scratch, check=True)
    home = Path(scratch) / "home"  # nothing a server writes under ~ reaches the real home
    home.mkdir()
    env = {**get_default_environment(), "HOME": str(home), **server.get("env", {})}
    # the runners' caches (a second capture does not download again) and the machine's CA
    # bundle, which the runners need to reach the registries
    for key in ("npm_config_cache", "UV_CACHE_DIR", "SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS"):
        if key in os.environ:
            env[key] = os.environ[key]
    if server["registry"] == "pypi":
        env["UV_NATIVE_TLS"] = "1"
    params = StdioServerParameters(command=command[0], args=command[1:], env=env, cwd=scratch)
    tools: list[dict[str, Any]] = []
    info: dict[str, Any] = {}
    errlog = Path(scratch) / ".stderr.log"  # the reason a server stopped, mostly

    async def listing() -> None:
        with errlog.open("w", encoding="utf-8") as err:
            async with stdio_client(params, errlog=err) as (read, write):
                async with mcp.ClientSession(read, write) as session:
                    init = await session.initialize()
                    info["server_info"] = init.server_info.model_dump(mode="json",
                                                                      exclude_none=True)
                    info["protocol_version"] = init.protocol_version
                    cursor = None
                    for _ in range(MAX_PAGES):
                        page = None if cursor is None else mcp.types.PaginatedRequestParams(
                            cursor=cursor)
                        result = await session.list_tools(params=page)
                        tools.extend(t.model_dump(mode="json", by_alias=True, exclude_none=True)
                                     for t in result.tools)
                        cursor = result.next_cursor
                        if not cursor:
                            return
                    raise CaptureError(f"{server['name']}: tools/list still gave a nextCursor "
                                       f"after {MAX_PAGES} pages")

    try:
        await asyncio.wait_for(listing(), timeout)
    except BaseException as exc:  # noqa: BLE001 - re-raised with what the server said
        if isinstance(exc, KeyboardInterrupt):
            raise
        while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
            exc = exc.exceptions[0]
        name = "TimeoutError" if isinstance(exc, TimeoutError) else type(exc).__name__
        said = _stderr_tail(errlog)
        what = str(exc) if isinstance(exc, CaptureError) else f"{name}: {exc}"
        raise CaptureError(what + (f"; stderr: {said}" if said else "")) from exc
    finally:
        _stop_escaped(home)
    if not tools:
        said = _stderr_tail(errlog)
        raise CaptureError("tools/list was empty" + (f"; stderr: {said}" if said else ""))
    return {
        "name": server["name"],
        "registry": server["registry"],
        "package": server["package"],
        "version": server["version"],
        "command": command[:1] + [a for a in command[1:] if a != sys.executable],
        "split": server["split"],
        "batch": server.get("batch", 1),
        "server_info": info.get("server_info", {}),
        "protocol_version": info.get("protocol_version"),
        "captured_at": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "tools": tools,
    }


def capture(server: dict[str, Any], timeout: float = 300.0) -> dict[str, Any]:
    """Start ``server``, list its tools and stop it; return the capture document.

    Raises
    ------
    CaptureError
        The server did not start, closed the connection, timed out or listed no tools; the
        message names the error and ends with the last lines the server wrote to stderr.
    """
    return asyncio.run(_capture(server, timeout))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="capture these servers again")
    parser.add_argument("--list", action="store_true", help="print the manifest and stop")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per server")
    args = parser.parse_args(argv)
    servers = json.loads(MANIFEST.read_text(encoding="utf-8"))["servers"]
    CAPTURES.mkdir(exist_ok=True)
    failures = json.loads(FAILURES.read_text(encoding="utf-8")) if FAILURES.exists() else {}
    if args.list:
        for s in servers:
            done = (CAPTURES / f"{s['name']}.json").exists()
            print(f"{s['split']:8} {s['name']:28} {s['package']}@{s['version']}"
                  f"  {'captured' if done else failures.get(s['name'], {}).get('error', '-')}")
        return 0
    wanted = set(args.only or ())
    unknown = wanted - {s["name"] for s in servers}
    if unknown:
        parser.error(f"not in servers.json: {', '.join(sorted(unknown))}")
    for s in servers:
        out = CAPTURES / f"{s['name']}.json"
        if wanted and s["name"] not in wanted or not wanted and out.exists():
            continue
        print(f"capturing {s['name']} ({s['package']}@{s['version']}) ...", flush=True)
        try:
            doc = capture(s, args.timeout)
        except BaseException as exc:  # noqa: BLE001 - any failure is logged, the rest go on
            if isinstance(exc, KeyboardInterrupt):
                raise
            while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
                exc = exc.exceptions[0]
            message = str(exc) if isinstance(exc, CaptureError) else f"{type(exc).__name__}: {exc}"
            failures[s["name"]] = {"package": s["package"], "version": s["version"],
                                   "error": message[:500]}
            print(f"  failed: {failures[s['name']]['error']}", flush=True)
        else:
            failures.pop(s["name"], None)
            out.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n",
                           encoding="utf-8")
            print(f"  {len(doc['tools'])} tools", flush=True)
        # read again: captures of other servers may run beside this one
        logged = json.loads(FAILURES.read_text(encoding="utf-8")) if FAILURES.exists() else {}
        logged.pop(s["name"], None)
        if s["name"] in failures:
            logged[s["name"]] = failures[s["name"]]
        scratch = FAILURES.with_suffix(f".{os.getpid()}.tmp")
        scratch.write_text(json.dumps(logged, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(scratch, FAILURES)  # whole, never half-written, for the captures beside
    return 0


if __name__ == "__main__":
    sys.exit(main())
