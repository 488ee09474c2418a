"""A real browser: JupyterLab runs a notebook showing ``FormatViewer``; Chromium picks a format.

Needs Debian's Chromium at ``/usr/bin/chromium`` and the ``playwright`` package (its own browser
download is never used); skipped with the reason when either is missing. Writes
``docs/widgets/format_viewer_browser.png``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import browser
from toolform.datasets import load_dataset
from toolform.formats import render

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]

NOTEBOOK = Path(__file__).parent / "fixtures" / "browser_format_viewer.ipynb"


def test_format_viewer_in_jupyterlab_changes_the_block_when_a_format_is_picked():
    started = time.perf_counter()
    # the viewer's default toolset: the first request of bfcl/multiple
    toolset = load_dataset("bfcl/multiple")[0].toolset
    first = render(toolset, "json_schema_openai").schema_text
    second = render(toolset, "xml_schema").schema_text
    with browser.jupyterlab([NOTEBOOK]) as (url, _), browser.chromium_page() as page:
        browser.run_all_cells(page, url.format(name=NOTEBOOK.name))
        block = page.locator("pre.toolform-block").first
        block.wait_for()
        assert block.text_content() == first
        page.locator(".widget-dropdown select").first.select_option(label="xml_schema (markup)")
        page.wait_for_function(
            "text => document.querySelector('pre.toolform-block').textContent === text", arg=second)
        assert block.text_content() == second
        # the protocol dropdown followed the format (xml_schema's default protocol)
        protocol = page.locator(".widget-dropdown select").nth(1)
        assert protocol.evaluate("s => s.options[s.selectedIndex].text") == "xml_call"
        output = page.locator(".jp-OutputArea-output").first
        output.screenshot(path=str(browser.SHOTS / "format_viewer_browser.png"))
    print(f"browser test took {time.perf_counter() - started:.1f} s")
