"""Drive a real browser on a real JupyterLab: for ``test_browser.py`` and the widget screenshots.

Debian's Chromium (``apt-get install chromium``) is driven by the ``playwright`` package; the
browser Playwright can download (``playwright install``) is never used. JupyterLab runs headless
on 127.0.0.1 on a free port with a random token, in a folder of its own with its own settings,
runtime and workspace folders, so nothing of the user's Jupyter set-up is read or written.

Run as a script to remake the widget screenshots in ``docs/widgets/``::

    python tests/browser.py
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "widgets"

#: Chromium switches: headless, no sandbox (containers), and none of the background traffic.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

# JupyterLab user settings: no news fetching, no update checks (both would reach the network).
_LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False},
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


@contextlib.contextmanager
def jupyterlab(notebooks: list[Path], *, timeout: float = 180.0) -> Iterator[tuple[str, Path]]:
    """Serve copies of ``notebooks`` from a fresh JupyterLab; yields (base URL with token, folder).

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
            shutil.copy(notebook, work / notebook.name)
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
            yield f"{base}/lab/tree/{{name}}?token={token}", work
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(5)
            log.close()


@contextlib.contextmanager
def chromium_page(*, width: int = 1280, height: int = 1400) -> Iterator[Any]:
    """A Playwright page in Debian's Chromium with a fresh profile folder."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="toolform-chromium-") as profile, \
            sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": width, "height": height})
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.set_default_timeout(180_000)
            yield page
        finally:
            context.close()


def run_all_cells(page: Any, url: str) -> None:
    """Open a notebook and run all its cells from the Run menu; wait until every one has run."""
    page.goto(url)
    page.locator(".jp-Notebook .jp-Cell").first.wait_for()
    # the kernel must be up before Run All (the status bar then reads "... | Idle")
    page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"\| Idle$")).first.wait_for()
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    # a cell that has run shows its execution count, "[3]:"
    page.wait_for_function(
        """() => {
            const cells = '.jp-Notebook .jp-CodeCell .jp-InputPrompt';
            const prompts = [...document.querySelectorAll(cells)];
            return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
        }""")


def _screenshots() -> None:
    """Remake ``docs/widgets/*.png`` from ``docs/widgets/screenshots.ipynb``."""
    notebook = SHOTS / "screenshots.ipynb"
    SHOTS.mkdir(parents=True, exist_ok=True)
    with jupyterlab([notebook]) as (url, _), chromium_page() as page:
        run_all_cells(page, url.format(name=notebook.name))
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
