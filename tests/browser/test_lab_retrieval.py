"""Retrieval a user can inspect (issue 21), in a real JupyterLab through Chromium: an
answer's sources are listed in the completions browser after a kernel restart, and the
files panel's search box shows the passage a question would cite.

A notebook uploads a small file and asks about it with ``%%chat --store`` (the service's
own model); the kernel restarts; new cells open the completions browser and the files
panel, where the test picks the stored answer and types a search.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from support.lab import KERNEL_IDLE_JS, Lab, shot, watched_page

pytestmark = pytest.mark.browser

FEE = "The annual fee of the premium plan is 120 euros, billed every January."
TEXT = f"Pricing notes.\n\nThe office in Lyon opens at nine.\n\n{FEE}\n"
CELLS = [
    "%load_ext chatspace\n%files upload fees.txt",
    "%%chat --store\nHow much is the annual fee of the premium plan?",
    "%load_ext chatspace\nfrom chatspace.notebook.panels import CompletionsBrowser, FilesPanel\n"
    "browser = CompletionsBrowser()\nbrowser",
    "files = FilesPanel()\nfiles",
]
_RUN_CELL_JS = """(i) => { const nb = window.jupyterapp.shell.currentWidget.content;
    nb.activeCellIndex = i; nb.mode = 'command';
    return window.jupyterapp.commands.execute('notebook:run-cell'); }"""
_RAN_JS = """(i) => window.jupyterapp.shell.currentWidget.content.widgets[i]
    .model.executionCount !== null"""
_ERRORS_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets.flatMap(
    c => (c.model.toJSON().outputs || []).filter(o => o.output_type === 'error'))"""
_RESTART_JS = """() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel
    .restart()"""


@pytest.fixture(scope="module")
def page(browser: Any, lab: Lab) -> Iterator[Page]:
    (lab.root / "fees.txt").write_text(TEXT)
    lab.write_notebook("retrieval.ipynb", CELLS)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    opened = watched_page(context)
    lab.open_notebook(opened, "retrieval.ipynb")
    yield opened
    context.close()


def _run(page: Page, index: int) -> None:
    page.evaluate(_RUN_CELL_JS, index)
    page.wait_for_function(_RAN_JS, arg=index, timeout=120_000)
    page.wait_for_function(KERNEL_IDLE_JS, timeout=120_000)
    assert page.evaluate(_ERRORS_JS) == []


def test_1_sources_show_in_the_completions_browser_after_a_restart(page: Page) -> None:
    _run(page, 0)
    _run(page, 1)
    answer = page.locator(".jp-Cell").nth(1).locator(".jp-OutputArea")
    expect(answer).to_contain_text("fees.txt", timeout=60_000)
    page.evaluate(_RESTART_JS)
    page.wait_for_function(KERNEL_IDLE_JS, timeout=90_000)
    _run(page, 2)
    panel = page.locator(".chatspace-completions")
    expect(panel.locator(".chatspace-completions-table")).to_contain_text(
        "annual fee", timeout=30_000
    )
    panel.locator(".chatspace-completions-select select").select_option(index=0)
    sources = panel.locator(".chatspace-messages .chatspace-sources")
    expect(sources).to_contain_text("fees.txt", timeout=30_000)
    expect(sources).to_contain_text("120 euros")
    shot(page, "completions-browser-sources", panel)
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_2_the_files_panel_search_box_shows_the_quote(page: Page) -> None:
    _run(page, 3)
    panel = page.locator(".chatspace-files")
    expect(panel.locator(".chatspace-files-table")).to_contain_text("fees.txt", timeout=30_000)
    box = panel.locator(".chatspace-files-search input")
    box.click()
    page.keyboard.type("annual fee")
    page.keyboard.press("Enter")
    hits = panel.locator(".chatspace-files-hits")
    expect(hits).to_contain_text("120 euros", timeout=30_000)
    expect(hits).to_contain_text("fees.txt")
    shot(page, "files-panel-search", panel)
    assert page.page_errors == []  # type: ignore[attr-defined]
