"""Drive a real browser on a real JupyterLab: for ``test_browser.py`` and the widget screenshots.

Debian's Chromium (``apt-get install chromium``) is driven by the ``playwright`` package; the
browser Playwright can download (``playwright install``) is never used. JupyterLab runs headless
on 127.0.0.1 on a free port with a random token, in a folder of its own with its own settings,
runtime and workspace folders, so nothing of the user's Jupyter set-up is read or written.

The browser is offline: every request to anything but the loopback interface (or a ``file:``,
``data:`` or ``blob:`` URL) is aborted as if the network were down, and recorded in
:attr:`Browser.blocked`, so a chart that needs a CDN fails here as it would on a plane. The
notebooks are copied with their outputs cleared, so everything seen was drawn live.

Run as a script to remake the widget screenshots in ``docs/widgets/``::

    python tests/browser.py
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlparse

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "widgets"

#: Chromium switches: headless, no sandbox (containers), and none of the background traffic.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

# JupyterLab user settings: no news fetching, no update checks (both would reach the network);
# every cell kept in the page (no windowing), so a chart far down is drawn and can be found.
_LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    # saved only when the test saves, so a notebook read back holds every output
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}


def missing() -> str | None:
    """Why the browser test cannot run here, or None when it can."""
    if not CHROMIUM.exists():
        return f"{CHROMIUM} not found (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install playwright)"
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _copy_cleared(notebook: Path, target: Path) -> None:
    """Copy a notebook with every output and execution count removed."""
    data = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in data["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    data["metadata"].pop("widgets", None)
    target.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")


@dataclass(frozen=True)
class Lab:
    """A running JupyterLab: where it is, and the folder it serves."""

    base: str
    token: str
    folder: Path

    def url(self, name: str) -> str:
        """The URL that opens notebook ``name`` alone (the workspace reset), token included."""
        return f"{self.base}/lab/tree/{name}?reset&token={self.token}"

    def shutdown_kernels(self) -> None:
        """Stop every running kernel (each opened notebook starts one)."""
        for session in self._api("GET", "/api/sessions"):
            self._api("DELETE", f"/api/sessions/{session['id']}")

    def _api(self, method: str, path: str) -> Any:
        request = urllib.request.Request(f"{self.base}{path}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None


@contextlib.contextmanager
def jupyterlab(notebooks: list[Path], *, timeout: float = 180.0) -> Iterator[Lab]:
    """Serve output-free copies of ``notebooks`` from a fresh JupyterLab.

    Yields a :class:`Lab`: ``lab.url(name)`` opens a notebook, ``lab.folder`` holds the copies
    (a saved notebook is read back from there).

    Raises
    ------
    RuntimeError
        When the server does not answer within ``timeout`` seconds (its log is in the message).
    """
    with tempfile.TemporaryDirectory(prefix="toolform-lab-") as tmp:
        home = Path(tmp)
        work = home / "work"
        work.mkdir()
        for notebook in notebooks:
            _copy_cleared(notebook, work / notebook.name)
        settings = home / "settings"
        for name, values in _LAB_SETTINGS.items():
            target = settings / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(values), encoding="utf-8")
        port, token = _free_port(), secrets.token_hex(16)
        env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"),
               "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
        log = (home / "lab.log").open("w", encoding="utf-8")
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
             f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
             f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={work}",
             f"--LabApp.user_settings_dir={settings}",
             f"--LabApp.workspaces_dir={home / 'workspaces'}",
             # offline: no extension search on PyPI, no news feed, no update check
             "--LabApp.extension_manager=readonly", "--LabApp.news_url=None",
             "--LabApp.check_for_updates_class="
             "jupyterlab.handlers.announcements.NeverCheckForUpdate",
             # CI containers run as root; the server is bound to 127.0.0.1 with a token
             "--ServerApp.allow_root=True"],
            cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2):
                        break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    if server.poll() is not None or time.monotonic() > deadline:
                        log.flush()
                        raise RuntimeError("JupyterLab did not start:\n"
                                           + (home / "lab.log").read_text(encoding="utf-8"))
                    time.sleep(0.3)
            yield Lab(base, token, work)
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(5)
            log.close()


#: Hosts the offline browser may reach.
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
#: A drawn chart: vega-embed's canvas or SVG (vega's renderers give their element class "marks").
CHART_MARKS = "canvas.marks, svg.marks"
#: A chart output drawn by JupyterLab's Vega renderer.
VEGA_OUTPUT = ".jp-RenderedVegaCommon5"


@dataclass
class Browser:
    """An offline Playwright page, with what it tried to fetch and what went wrong.

    Attributes
    ----------
    page : playwright.sync_api.Page
    blocked : list of str
        URLs of the requests that were aborted (anything not on the loopback interface).
    errors : list of str
        Console errors and uncaught page errors.
    """

    page: Any
    blocked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _offline(blocked: list[str]) -> Any:
    def route(route: Any) -> None:
        url = route.request.url
        scheme = urlparse(url).scheme
        if scheme in ("file", "data", "blob") or urlparse(url).hostname in LOOPBACK:
            route.continue_()
        else:
            blocked.append(url)
            route.abort("internetdisconnected")
    return route


@contextlib.contextmanager
def chromium_page(*, width: int = 1280, height: int = 1400) -> Iterator[Browser]:
    """An offline Playwright page in Debian's Chromium with a fresh profile folder."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="toolform-chromium-") as profile, \
            sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": width, "height": height})
        try:
            session = Browser(context.pages[0] if context.pages else context.new_page())
            context.route("**/*", _offline(session.blocked))
            session.page.on("console", lambda m: session.errors.append(m.text)
                            if m.type == "error" else None)
            session.page.on("pageerror", lambda exc: session.errors.append(str(exc)))
            session.page.set_default_timeout(300_000)
            yield session
        finally:
            context.close()


def run_all_cells(page: Any, url: str) -> None:
    """Open a notebook, run all its cells from the Run menu, and wait until the kernel is idle
    with every cell run (or one failed: Run All stops at an error)."""
    page.goto(url)
    page.locator(".jp-Notebook .jp-Cell").first.wait_for()
    # the kernel must be up before Run All (the status bar then reads "... | Idle")
    page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"\| Idle$")).first.wait_for()
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    # a cell that has run shows its execution count, "[3]:"; a queued or running one "[*]:".
    # Run All stops at an error, leaving later cells unrun: the caller reads the saved outputs.
    page.wait_for_function(
        """() => {
            const prompts = [...document.querySelectorAll(
                '.jp-Notebook .jp-CodeCell .jp-InputPrompt')].map(p => p.textContent);
            const idle = [...document.querySelectorAll('.jp-StatusBar-TextItem')]
                .some(e => /\\| Idle$/.test(e.textContent));
            return idle && prompts.length > 0 && /\\[\\d+\\]/.test(prompts[0])
                && !prompts.some(p => p.includes('*'));
        }""", polling=500)


def save_notebook(page: Any, folder: Path, name: str, *, timeout: float = 60.0) -> dict:
    """Save the open notebook (File, Save Notebook) and read it back from ``folder``: the
    outputs as the kernel made them."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^File$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Save( Notebook)?$")).first.click()
    # an unsaved notebook's tab carries jp-mod-dirty until the save is done
    page.wait_for_function(
        "() => !document.querySelector('.lm-TabBar-tab.jp-mod-current.jp-mod-dirty')",
        timeout=timeout * 1000)
    time.sleep(0.5)  # let the write finish
    return json.loads((folder / name).read_text(encoding="utf-8"))


def _screenshots() -> None:
    """Remake ``docs/widgets/*.png`` from ``docs/widgets/screenshots.ipynb``."""
    notebook = SHOTS / "screenshots.ipynb"
    SHOTS.mkdir(parents=True, exist_ok=True)
    with jupyterlab([notebook]) as lab, chromium_page() as session:
        page = session.page
        run_all_cells(page, lab.url(notebook.name))
        for cell in page.locator(".jp-Notebook .jp-CodeCell").all():
            source = cell.locator(".jp-InputArea").inner_text()
            name = next((line.split("shot:")[1].strip() for line in source.splitlines()
                         if "shot:" in line), None)
            if name:
                area = cell.locator(".jp-OutputArea-output").first
                area.locator(".jupyter-widgets").first.wait_for()
                page.wait_for_timeout(500)  # let the widget finish its layout
                area.screenshot(path=str(SHOTS / f"{name}.png"))
                print("wrote", SHOTS / f"{name}.png")


if __name__ == "__main__":
    reason = missing()
    if reason:
        sys.exit(reason)
    _screenshots()
