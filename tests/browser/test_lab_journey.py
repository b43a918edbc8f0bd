"""A user's first session in a real JupyterLab, driven through Chromium (issue 5).

The steps share one browser page, in order, the way a user meets chatspace: run the
quickstart notebook, ask in the chat panel, upload and download in the files panel, ask
with ``%%chat`` in a new cell, then find and export the completions. Each step leaves a
screenshot in ``artifacts/screenshots``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from support.lab import KERNEL_IDLE_JS, Lab, shot

pytestmark = pytest.mark.browser

QUESTION = "What was the Q3 churn in Lyon?"
CELL_QUESTION = "When does the Lyon office open?"

# The notebook's cells, their types and outputs, as JupyterLab's model holds them.
_CELLS_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets.map(
    c => { const j = c.model.toJSON(); return {type: j.cell_type,
           count: j.execution_count ?? null, outputs: j.outputs || [] }; })"""
_ALL_RUN_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets.every(
    c => c.model.type !== 'code' || c.model.executionCount !== null)"""


@pytest.fixture(scope="module")
def session_page(browser: Any, lab: Lab) -> Iterator[Page]:
    """One page for the whole journey, console errors collected as they come."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.console_errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()


def _dashboard(page: Page) -> Locator:
    return page.locator(".jupyter-widgets.widget-tab").filter(has=page.locator(".chatspace-chat"))


def _tab(page: Page, title: str) -> None:
    _dashboard(page).locator(".lm-TabBar-tab", has_text=re.compile(f"^{title}$")).click()


def _record_texts(page: Page, root: str, last_of: str | None = None) -> None:
    """Have the page keep every text ``root`` (or its last ``last_of``) shows, in
    ``window.chatspaceSeen``: a streamed answer shows partial texts before the final one."""
    page.evaluate(
        """([root, lastOf]) => { window.chatspaceSeen = [];
        const el = document.querySelector(root);
        new MutationObserver(() => {
            const parts = lastOf ? el.querySelectorAll(lastOf) : [el];
            if (parts.length) window.chatspaceSeen.push(parts[parts.length - 1].innerText);
        }).observe(el, {subtree: true, childList: true, characterData: true}); }""",
        [root, last_of],
    )


def _wait_idle(page: Page) -> None:
    page.wait_for_function(KERNEL_IDLE_JS, timeout=90_000)


def test_1_quickstart_runs_with_every_output_rendered(session_page: Page, lab: Lab) -> None:
    page = session_page
    page.goto(lab.url("lab/tree/quickstart.ipynb"))
    expect(page.locator(".jp-NotebookPanel .jp-Cell").first).to_be_visible(timeout=60_000)
    _wait_idle(page)
    saved = page.evaluate(_CELLS_JS)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(_ALL_RUN_JS, timeout=180_000)
    _wait_idle(page)
    cells = page.evaluate(_CELLS_JS)
    assert [c["type"] for c in cells] == [c["type"] for c in saved]
    for index, (now, before) in enumerate(zip(cells, saved, strict=True)):
        if now["type"] != "code":
            continue
        kinds = [o["output_type"] for o in now["outputs"]]
        assert "error" not in kinds, f"cell {index} failed: {now['outputs']}"
        assert bool(now["outputs"]) == bool(before["outputs"]), f"cell {index}: {kinds}"
    notebook = page.locator(".jp-NotebookPanel")
    expect(notebook.locator(".jp-RenderedMarkdown", has_text="q3-report.md").first).to_be_visible()
    dashboard = _dashboard(page)
    expect(dashboard).to_be_visible(timeout=30_000)
    dashboard.scroll_into_view_if_needed()
    shot(page, "1-quickstart-run")
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_2_chat_panel_streams_a_cited_answer(session_page: Page) -> None:
    page = session_page
    _tab(page, "Chat")
    panel = page.locator(".chatspace-chat")
    # Every distinct text the answer shows on its way, recorded by the page itself.
    _record_texts(page, ".chatspace-chat .chatspace-conversation", ".chatspace-turn-assistant")
    panel.locator(".chatspace-chat-input textarea").fill(QUESTION)
    panel.locator(".chatspace-send").click()
    answer = panel.locator(".chatspace-turn-assistant").last
    expect(answer.locator(".chatspace-citation").first).to_contain_text(
        "q3-report.md", timeout=60_000
    )
    expect(panel.locator(".chatspace-usage")).to_contain_text("tokens")
    final = answer.inner_text()
    seen = [t for t in page.evaluate("window.chatspaceSeen") if t.strip()]
    assert any(len(t) < len(final) for t in seen), "the answer arrived in one piece"
    expect(panel.locator(".chatspace-turn-user").last).to_contain_text(QUESTION)
    shot(page, "2-chat-panel", _dashboard(page))
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_3_files_panel_uploads_and_downloads_byte_for_byte(
    session_page: Page, tmp_path: Path
) -> None:
    page = session_page
    _tab(page, "Files")
    panel = page.locator(".chatspace-files")
    local = tmp_path / "field-notes.txt"
    content = "Field notes: the Lyon depot ships on Tuesdays.\n" + "0123456789" * 5000
    local.write_text(content)
    with page.expect_file_chooser() as chooser:
        panel.locator(".chatspace-upload").click()
    chooser.value.set_files(str(local))
    panel.locator(".chatspace-upload-send").click()
    table = panel.locator(".chatspace-files-table")
    expect(table).to_contain_text("field-notes.txt", timeout=60_000)
    link = table.locator("tr", has_text="field-notes.txt").locator("a.chatspace-download-link")
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / "downloaded.txt"
    download.value.save_as(saved)
    assert saved.read_bytes() == local.read_bytes()
    shot(page, "3-files-panel", _dashboard(page))
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_4_chat_magic_in_a_new_cell(session_page: Page) -> None:
    page = session_page
    cells = page.locator(".jp-NotebookPanel .jp-Cell")
    before = cells.count()
    page.evaluate(
        """() => { const nb = window.jupyterapp.shell.currentWidget.content;
        nb.activeCellIndex = nb.widgets.length - 1; nb.mode = 'command';
        return window.jupyterapp.commands.execute('notebook:insert-cell-below'); }"""
    )
    expect(cells).to_have_count(before + 1)
    editor = cells.last.locator(".cm-content")
    editor.click()
    page.keyboard.insert_text(f"%%chat\n{CELL_QUESTION}")
    _record_texts(page, f".jp-NotebookPanel .jp-Cell:nth-child({before + 1}) .jp-OutputArea")
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-cell')")
    output = cells.nth(before).locator(".jp-OutputArea .jp-RenderedMarkdown")
    expect(output.last).to_contain_text("[1]", timeout=60_000)
    expect(output.last).to_contain_text("service-l0")
    final = output.last.inner_text()
    seen = [t for t in page.evaluate("window.chatspaceSeen") if t.strip()]
    assert any(0 < len(t) < len(final) and "[1]" not in t for t in seen), seen
    _wait_idle(page)
    output.last.scroll_into_view_if_needed()
    shot(page, "4-chat-magic", cells.nth(before))
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_5_completions_browser_finds_and_exports(session_page: Page, tmp_path: Path) -> None:
    page = session_page
    dashboard = _dashboard(page)
    dashboard.scroll_into_view_if_needed()
    _tab(page, "Completions")
    panel = page.locator(".chatspace-completions")
    panel.locator(".chatspace-refresh").click()
    table = panel.locator(".chatspace-completions-table")
    expect(table).to_contain_text(QUESTION, timeout=30_000)
    expect(table).to_contain_text(CELL_QUESTION)
    panel.locator(".chatspace-export").click()
    link = panel.locator("a.chatspace-download-link")
    expect(link).to_be_visible(timeout=30_000)
    with page.expect_download() as download:
        link.click()
    path = tmp_path / "completions.csv"
    download.value.save_as(path)
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    questions = {row["question"] for row in rows}
    assert {QUESTION, CELL_QUESTION} <= questions
    assert all(row["id"].startswith("chatcmpl-") for row in rows)
    shot(page, "5-completions-browser", _dashboard(page))
    assert page.console_errors == []  # type: ignore[attr-defined]
