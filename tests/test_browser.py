"""A real browser, offline: JupyterLab runs every notebook and the widgets; Chromium checks that
every chart is drawn with no network.

Chromium's every request to anything but 127.0.0.1 is aborted as if the machine had no
internet (``browser.chromium_page``). Each notebook is copied with its outputs cleared, run with
Run All in JupyterLab, saved and read back: no cell may fail, every chart output the committed
notebook has must be drawn live (vega-embed's canvas or SVG in JupyterLab's Vega renderer), and
no "Error loading script" may appear anywhere. The widgets with charts (the A/B panel, driven
through Start, Stop and Resume on a paced replay, and the routing lab) are checked the same way,
and so is an HTML file written by ``save_chart``.

Needs Debian's Chromium at ``/usr/bin/chromium`` and the ``playwright`` package (its own browser
download is never used); skipped with the reason when either is missing. Writes nothing into
the repository (``python tests/browser.py`` regenerates the screenshots in ``docs/widgets``).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

import browser
from toolform.charts import VEGA_MIME_TYPE
from toolform.datasets import load_dataset
from toolform.formats import render

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
FORMAT_VIEWER = FIXTURES / "browser_format_viewer.ipynb"
WIDGETS = FIXTURES / "browser_widgets.ipynb"
DRAWN = f"{browser.VEGA_OUTPUT}:has(canvas.marks), {browser.VEGA_OUTPUT}:has(svg.marks)"


@pytest.fixture(scope="module")
def lab():
    started = time.perf_counter()
    with browser.jupyterlab([*NOTEBOOKS, FORMAT_VIEWER, WIDGETS]) as served, \
            browser.chromium_page() as session:
        yield served, session
        assert not session.blocked, f"requests left the machine: {session.blocked[:5]}"
    print(f"browser tests took {time.perf_counter() - started:.1f} s")


def committed_charts(notebook: Path) -> int:
    """How many chart outputs the committed notebook holds (the Vega mime type)."""
    data = json.loads(notebook.read_text(encoding="utf-8"))
    return sum(VEGA_MIME_TYPE in output.get("data", {})
               for cell in data["cells"] if cell["cell_type"] == "code"
               for output in cell.get("outputs", []))


def drawn_charts(page) -> tuple[int, int]:
    """(chart outputs drawn, chart outputs in the page)."""
    return (page.locator(DRAWN).count(), page.locator(browser.VEGA_OUTPUT).count())


def wait_drawn(page, at_least: int) -> None:
    page.wait_for_function(
        """([drawn, all, n]) => document.querySelectorAll(drawn).length >= n
               && document.querySelectorAll(drawn).length === document.querySelectorAll(all).length""",
        arg=[DRAWN, browser.VEGA_OUTPUT, at_least], timeout=120_000)


def assert_no_script_error(page) -> None:
    text = page.locator("body").inner_text()
    assert "Error loading script" not in text
    assert "Javascript Error" not in text


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[n.stem for n in NOTEBOOKS])
def test_notebook_runs_in_jupyterlab_and_draws_every_chart_offline(lab, notebook):
    served, session = lab
    expected = committed_charts(notebook)
    page = session.page
    try:
        browser.run_all_cells(page, served.url(notebook.name))
        saved = browser.save_notebook(page, served.folder, notebook.name)
        failed = [(i, o.get("ename"), o.get("evalue")) for i, cell in enumerate(saved["cells"])
                  for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        assert not failed, f"{notebook.name}: cells failed: {failed}"
        unrun = [i for i, cell in enumerate(saved["cells"])
                 if cell["cell_type"] == "code" and cell.get("execution_count") is None]
        assert not unrun, f"{notebook.name}: cells not run: {unrun}"
        live = sum(VEGA_MIME_TYPE in o.get("data", {}) for cell in saved["cells"]
                   for o in cell.get("outputs", []))
        assert live == expected, (live, expected)
        wait_drawn(page, expected)
        drawn, total = drawn_charts(page)
        assert drawn == total >= expected
        assert_no_script_error(page)
    finally:
        served.shutdown_kernels()


def test_widget_charts_are_drawn_and_the_ab_panel_stops_and_resumes(lab):
    served, session = lab
    page = session.page
    try:
        browser.run_all_cells(page, served.url(WIDGETS.name))
        cells = page.locator(".jp-Notebook .jp-CodeCell")
        panel, routing = cells.nth(1), cells.nth(2)
        # the routing lab: its sweep (with the mission's goal) and its picture
        routing.locator(DRAWN).nth(1).wait_for(timeout=120_000)
        assert routing.locator(DRAWN).count() == 2
        routing.get_by_role("button", name="grouped", exact=True).click()
        routing.locator(DRAWN).nth(1).wait_for(timeout=60_000)
        # the A/B panel: Start, Stop, Resume on the paced replay of the committed cassette
        status = panel.locator(".widget-html-content").filter(
            has_text=re.compile(r"started|stopped|done"))
        panel.get_by_role("button", name="Start").click()
        status.filter(has_text="started").first.wait_for(timeout=60_000)
        panel.get_by_role("button", name="Stop").click()
        status.filter(has_text="stopped after").first.wait_for(timeout=120_000)
        panel.get_by_role("button", name="Resume").click()
        status.filter(has_text="done: 24 turns").first.wait_for(timeout=180_000)
        panel.locator(DRAWN).first.wait_for(timeout=120_000)
        assert panel.locator("table.toolform-table").count() == 1
        assert panel.locator("a.toolform-download").count() == 1
        assert_no_script_error(page)
    finally:
        served.shutdown_kernels()


def test_format_viewer_in_jupyterlab_changes_the_block_when_a_format_is_picked(lab, tmp_path):
    served, session = lab
    page = session.page
    # the viewer's default toolset: the first request of bfcl/multiple
    toolset = load_dataset("bfcl/multiple")[0].toolset
    first = render(toolset, "json_schema_openai").schema_text
    second = render(toolset, "xml_schema").schema_text
    try:
        browser.run_all_cells(page, served.url(FORMAT_VIEWER.name))
        block = page.locator("pre.toolform-block").first
        block.wait_for()
        assert block.text_content() == first
        page.locator(".widget-dropdown select").first.select_option(label="xml_schema (markup)")
        page.wait_for_function(
            "text => document.querySelector('pre.toolform-block').textContent === text",
            arg=second)
        assert block.text_content() == second
        # the protocol dropdown followed the format (xml_schema's default protocol)
        protocol = page.locator(".widget-dropdown select").nth(1)
        assert protocol.evaluate("s => s.options[s.selectedIndex].text") == "xml_call"
        output = page.locator(".jp-OutputArea-output").first
        shot = tmp_path / "format_viewer_browser.png"
        output.screenshot(path=str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        served.shutdown_kernels()


def test_a_saved_chart_file_draws_offline(lab, tmp_path):
    from toolform.charts import s_curve_chart, save_chart
    from toolform.evidence import load_evidence

    _, session = lab
    html, _ = save_chart(s_curve_chart(load_evidence("tool_count").frame()), tmp_path / "curve")
    page = session.page
    page.goto(html.as_uri())
    page.locator("canvas.marks, svg.marks").first.wait_for(timeout=60_000)
    assert_no_script_error(page)
