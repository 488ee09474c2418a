"""``toolform version`` and ``toolform doctor``: what is installed, and what is reachable.

``doctor`` never installs or downloads anything; it reads package metadata, looks for programs
on ``PATH``, and asks one OpenAI-compatible endpoint for its models (by default the local model
server's address on 127.0.0.1). It exits 0 whatever it finds: it reports, it does not gate.
"""

from __future__ import annotations

import json
import platform
import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import typer

__all__ = ["Check", "checks", "register"]

#: The local model server's address (``toolform local-model serve``).
LOCAL_BASE_URL = "http://127.0.0.1:8080/v1"
#: Chromium, as the browser test and the screenshots drive it.
CHROMIUM_NAMES = ("chromium", "chromium-browser")


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report.

    Attributes
    ----------
    name : str
        What was checked (``"core"``, ``"extra dev"``, ``"chromium"``...).
    ok : bool
        Present (or reachable).
    detail : str
        Versions, paths, what is missing.
    hint : str
        What to run to fix it ("" when ``ok``).
    """

    name: str
    ok: bool
    detail: str
    hint: str = ""


def _version(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return None


def _source_checkout() -> Path | None:
    """The project folder when ToolForm runs from a source checkout, else None."""
    root = Path(__file__).resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() else None


def install_line(extra: str) -> str:
    """The ``pip install`` line for an extra, right for a source checkout and for a wheel."""
    root = _source_checkout()
    if root is not None:
        return f'pip install -e "{root}[{extra}]"'
    return f'pip install "toolform[{extra}]"'


def _requirements() -> dict[str, list[str]]:
    """ToolForm's declared requirements by extra (``""`` for the core), as distribution names."""
    from importlib.metadata import PackageNotFoundError, requires

    try:
        declared = requires("toolform") or []
    except PackageNotFoundError:
        declared = []
    by_extra: dict[str, list[str]] = {}
    for requirement in declared:
        name = re.match(r"[A-Za-z0-9_.\-]+", requirement)
        extra = re.search(r"""extra\s*==\s*["']([^"']+)["']""", requirement)
        if name:
            by_extra.setdefault(extra.group(1) if extra else "", []).append(name.group(0))
    return by_extra


def _package_checks() -> list[Check]:
    out = []
    for extra, names in _requirements().items():
        found = {name: _version(name) for name in names}
        missing = [name for name, v in found.items() if v is None]
        shown = ", ".join(f"{name} {v}" for name, v in found.items() if v is not None)
        label = f"extra {extra}" if extra else "core"
        detail = (f"{len(names) - len(missing)} of {len(names)} installed"
                  + (f"; missing: {', '.join(missing)}" if missing else "")
                  + (f" ({shown})" if extra in ("", "mcp", "embed", "local") and shown else ""))
        hint = "" if not missing else (install_line(extra) if extra else
                                       f"pip install -e {_source_checkout() or 'toolform'}")
        if extra == "local" and missing:
            hint += " (compiles llama.cpp: allow 15 minutes or more on two busy cores)"
        out.append(Check(label, not missing, detail, hint))
    return out


def _chromium() -> Check:
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            try:
                shown = subprocess.run([path, "--version"], capture_output=True, text=True,
                                       timeout=20).stdout.strip()
            except (OSError, subprocess.SubprocessError) as exc:
                shown = f"does not run ({exc})"
            return Check("chromium", True, f"{shown or name} ({path}); drives the browser test "
                                           "and the widget screenshots")
    return Check("chromium", False, "not on PATH (the browser test is skipped without it)",
                 "apt-get install chromium")


def _jupyterlab() -> Check:
    lab, vl = _version("jupyterlab"), _version("vl-convert-python")
    if lab is None:
        return Check("jupyterlab", False, "not installed: charts still save as HTML and PNG",
                     install_line("dev"))
    return Check("jupyterlab", True, f"JupyterLab {lab}: charts draw offline with its Vega "
                                     f"renderer; vl-convert {vl} makes their SVG and HTML")


def _local_model() -> Check:
    import importlib.util

    from ..local_model import CHUNK_PACKAGES, MODEL_FILE, cache_dir

    server = importlib.util.find_spec("llama_cpp") is not None
    chunks = [m for m in CHUNK_PACKAGES if importlib.util.find_spec(m) is None]
    assembled = (cache_dir() / MODEL_FILE).is_file()
    parts = [f"llama-cpp-python {'installed' if server else 'missing'}",
             f"weights {'installed' if not chunks else f'missing ({len(chunks)} of 6 chunks)'}",
             f"model file {'assembled in ' + str(cache_dir()) if assembled else 'not assembled yet'}"]
    ok = server and not chunks
    return Check("local model", ok, "; ".join(parts),
                 "" if ok else install_line("local") + " (compiles llama.cpp)")


def _mcp() -> Check:
    sdk, npx = _version("mcp"), shutil.which("npx")
    detail = (f"MCP SDK {sdk or 'missing'}; npx {'at ' + npx if npx else 'not on PATH'} "
              "(for MCP servers from npm)")
    return Check("mcp", sdk is not None, detail, "" if sdk else install_line("mcp"))


def _endpoint(base_url: str, timeout: float) -> Check:
    from ..local_model import server_answers

    answers = server_answers(base_url, timeout=timeout)
    hint = "" if answers else ("toolform local-model serve" if base_url == LOCAL_BASE_URL else
                               "start the server, or check the URL")
    return Check("endpoint", answers, f"{base_url} {'answers' if answers else 'does not answer'}"
                                      " GET /models", hint)


def checks(base_url: str = LOCAL_BASE_URL, *, timeout: float = 2.0) -> list[Check]:
    """Everything ``toolform doctor`` reports, in order.

    Parameters
    ----------
    base_url : str, default "http://127.0.0.1:8080/v1"
        The OpenAI-compatible endpoint to ask for its models.
    timeout : float, default 2.0
        Seconds to wait for it.

    Returns
    -------
    list of Check
        Python and ToolForm, the core and each extra's packages, Chromium, JupyterLab, the
        local model, the MCP SDK, the endpoint.
    """
    from .. import __version__

    where = _source_checkout()
    return [
        Check("python", sys.version_info >= (3, 10),
              f"{platform.python_version()} ({sys.executable})"),
        Check("toolform", True, f"{__version__} "
                                f"({'source checkout ' + str(where) if where else 'installed'})"),
        *_package_checks(), _chromium(), _jupyterlab(), _local_model(), _mcp(),
        _endpoint(base_url, timeout),
    ]


def register(app: typer.Typer) -> None:
    """Add ``version`` and ``doctor`` to ``app``.

    Parameters
    ----------
    app : typer.Typer
        The ``toolform`` command-line app.
    """

    @app.command("version")
    def version_command() -> None:
        """Print ToolForm's version, and Python's."""
        from .. import __version__

        typer.echo(f"toolform {__version__} (Python {platform.python_version()})")

    @app.command("doctor")
    def doctor_command(
        base_url: str = typer.Option(LOCAL_BASE_URL, "--base-url", metavar="URL",
                                     help="OpenAI-compatible endpoint to check."),
        timeout: float = typer.Option(2.0, min=0.1, metavar="SECONDS",
                                      help="How long to wait for the endpoint."),
        as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    ) -> None:
        """Say what is installed and reachable: extras, Chromium, the local model, the MCP SDK,
        an endpoint.

        Reads package metadata and PATH and asks the endpoint for its models; installs and
        downloads nothing. Each line says ok or missing, what was found, and what to run.
        """
        found = checks(base_url, timeout=timeout)
        if as_json:
            typer.echo(json.dumps([asdict(c) for c in found], indent=2, ensure_ascii=False))
            return
        import textwrap

        width = max(len(c.name) for c in found)
        indent = " " * (7 + 2 + width + 2)
        for c in found:
            typer.echo(textwrap.fill(c.detail, 100, initial_indent=(
                f"{'ok' if c.ok else 'missing':<7}  {c.name:<{width}}  "),
                subsequent_indent=indent, break_on_hyphens=False))
            if c.hint:
                typer.echo(textwrap.fill(f"-> {c.hint}", 100, initial_indent=indent,
                                         subsequent_indent=indent + "   ", break_on_hyphens=False))
