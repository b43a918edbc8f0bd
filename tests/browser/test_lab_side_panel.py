"""The side panel and code to cells (issue 19), in a real JupyterLab through Chromium.

A notebook opens ``chatspace.dashboard(side=True)``: the panels go to JupyterLab's right
side area, and stay there, usable, while the notebook scrolls and while a second notebook
is opened and worked in. The model is a local OpenAI-compatible server (connected by the
environment) whose answer holds a fenced code block; the block's Insert button puts the
code into a new cell below the active cell of the notebook in front, and Copy puts it on
the clipboard.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from browser.conftest import running_lab
from support.lab import KERNEL_IDLE_JS, shot, watched_page
from support.upstream import FakeUpstream

pytestmark = pytest.mark.browser

KEY = "sk-local-server-0123456789abcdef"
CODE = (
    "import pandas as pd\nsales = pd.read_csv('data/sales.csv')\nsales.plot(x='month', y='churn')"
)
ANSWER = ["Load the file, then plot it:\n\n", "```python\n", CODE + "\n", "```\n"]
FIRST = [
    "%load_ext chatspace\n%config ChatspaceSettings.default_model = 'coder'",
    "import chatspace\nboard = chatspace.dashboard(side=True)\nboard",
    "for i in range(120):\n    print('a long output line', i)",
]
SECOND = ["total = 1 + 1\ntotal"]
_DONE_JS = """(n) => { const w = window.jupyterapp.shell.currentWidget;
    return !!w && !!w.content && w.content.widgets.length === n
        && w.content.widgets.every(c => c.model.executionCount !== null); }"""
_CURRENT_JS = "() => window.jupyterapp.shell.currentWidget.context.path"
_SOURCES_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets.map(
    c => c.model.sharedModel.getSource())"""
# Whether the element lies inside the window (the side area is never scrolled away).
_IN_VIEW_JS = """(el) => { const r = el.getBoundingClientRect();
    return r.width > 100 && r.height > 100 && r.top >= 0 && r.bottom <= window.innerHeight
        && r.left >= 0 && r.right <= window.innerWidth; }"""

# Whether no part of the element is cut: nothing wider than its box (a Label's ellipsis).
_NOT_CUT_JS = """(el) => [el, ...el.querySelectorAll('*')].every(
    e => e.scrollWidth <= e.clientWidth + 1)"""


@pytest.fixture(scope="module")
def coder() -> Iterator[FakeUpstream]:
    server = FakeUpstream(models=["coder"], key=KEY, pieces=ANSWER).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def page(
    browser: Any, tmp_path_factory: pytest.TempPathFactory, coder: FakeUpstream
) -> Iterator[Page]:
    env = {"OPENAI_BASE_URL": coder.url, "OPENAI_API_KEY": KEY, "CHATSPACE_AUTODETECT": "1"}
    with running_lab(tmp_path_factory.mktemp("side-lab"), env) as lab:
        lab.write_notebook("first.ipynb", FIRST)
        lab.write_notebook("second.ipynb", SECOND)
        context = browser.new_context(viewport={"width": 1500, "height": 950})
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=lab.base)
        opened = watched_page(context)
        lab.open_notebook(opened, "first.ipynb")
        opened.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        opened.wait_for_function(_DONE_JS, arg=len(FIRST), timeout=180_000)
        opened.wait_for_function(KERNEL_IDLE_JS, timeout=90_000)
        yield opened
        context.close()


def _side(page: Page) -> Locator:
    return page.locator("#jp-right-stack .jupyterlab-sidecar")


def _assert_side_in_view(page: Page) -> None:
    side = _side(page)
    expect(side.locator(".chatspace-dashboard")).to_be_visible()
    assert side.evaluate(_IN_VIEW_JS)


def _widen_side(page: Page, by: int) -> None:
    """Drag the handle between the main area and the side area, as a user would."""
    handle = page.locator("#jp-main-split-panel > .lm-SplitPanel-handle:visible").last
    box = handle.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - by, y, steps=5)
    page.mouse.up()


def test_1_side_panel_opens_in_the_right_area(page: Page) -> None:
    side = _side(page)
    expect(side.locator(".chatspace-chat")).to_be_visible(timeout=60_000)
    expect(side.locator(".chatspace-model select")).to_have_value("coder", timeout=30_000)
    # the cell says where the panels went, and holds no second copy of them
    cell = page.locator(".jp-NotebookPanel .jp-Cell").nth(1)
    expect(cell.locator(".jp-OutputArea-output")).to_contain_text("right side area")
    assert cell.locator(".chatspace-dashboard").count() == 0
    assert page.locator(".chatspace-dashboard").count() == 1
    _assert_side_in_view(page)
    width = side.bounding_box()
    assert width is not None
    _widen_side(page, 260)
    wider = side.bounding_box()
    assert wider is not None
    assert wider["width"] > width["width"] + 200
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_2_it_stays_while_the_notebook_scrolls_and_another_opens(page: Page) -> None:
    scroller = page.locator(".jp-NotebookPanel:visible .jp-WindowedPanel-outer")
    scroller.evaluate("(el) => { el.scrollTop = el.scrollHeight; }")
    page.wait_for_function(
        "(el) => el.scrollTop > 200", arg=scroller.element_handle(), timeout=10_000
    )
    expect(page.locator(".jp-Cell").first).not_to_be_in_viewport()
    _assert_side_in_view(page)
    page.evaluate(
        "() => { window.jupyterapp.commands.execute('docmanager:open', {path: 'second.ipynb'}); }"
    )
    page.wait_for_function(f"() => ({_CURRENT_JS})() === 'second.ipynb'", timeout=30_000)
    page.wait_for_function(KERNEL_IDLE_JS, timeout=90_000)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(_DONE_JS, arg=len(SECOND), timeout=60_000)
    _assert_side_in_view(page)
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_3_ask_in_the_side_panel_and_insert_its_code_below(page: Page, coder: FakeUpstream) -> None:
    assert page.evaluate(_CURRENT_JS) == "second.ipynb"
    chat = _side(page).locator(".chatspace-chat")
    chat.locator(".chatspace-chat-input textarea").fill("How do I plot the churn by month?")
    chat.locator(".chatspace-chat-input textarea").press("Enter")
    answer = chat.locator(".chatspace-turn-assistant").last
    expect(answer).to_contain_text("Load the file, then plot it", timeout=60_000)
    insert = answer.locator(".chatspace-insert-code")
    expect(insert).to_have_count(1, timeout=30_000)
    expect(answer.locator(".chatspace-copy-code")).to_have_count(1)
    assert coder.last("coder")["body"]["messages"][-1]["content"] == (
        "How do I plot the churn by month?"
    )
    # the notebook in front is the second one, its only cell active
    page.locator(".jp-NotebookPanel:visible .jp-Cell").first.locator(".jp-InputPrompt").click()
    shot(page, "side-panel-answer", answer)
    insert.click()
    # two commands: a cell below, then the code into its editor, each in its own message
    want = json.dumps([SECOND[0], CODE], separators=(",", ":"), ensure_ascii=False)
    page.wait_for_function(
        f"(want) => JSON.stringify(({_SOURCES_JS})()) === want", arg=want, timeout=30_000
    )
    assert page.evaluate(_SOURCES_JS) == [SECOND[0], CODE]
    assert page.evaluate(_CURRENT_JS) == "second.ipynb"
    new_cell = page.locator(".jp-NotebookPanel:visible .jp-Cell").nth(1)
    expect(new_cell).to_contain_text("sales.plot(x='month', y='churn')")
    shot(page, "side-panel")
    # the usage line wraps in the narrow side area instead of ending in "conversat…"
    usage = chat.locator(".chatspace-usage")
    expect(usage).to_contain_text("· conversation: ", timeout=30_000)
    assert usage.evaluate(_NOT_CUT_JS), usage.evaluate("(el) => el.outerHTML")
    shot(page, "side-panel-usage", usage)
    answer.locator(".chatspace-copy-code").click()
    expect(answer.locator(".chatspace-copy-code")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == CODE
    _assert_side_in_view(page)
    assert page.page_errors == []  # type: ignore[attr-defined]


_SIDE_TABS_JS = """() => Array.from(window.jupyterapp.shell.widgets('right'))
    .filter(w => w.title.label === 'chatspace').length"""


def test_4_a_kernel_restart_leaves_one_side_tab(page: Page) -> None:
    """Restart the kernel and run the notebook again: its dashboard opens the side area
    anew, and the side bar still holds one chatspace tab, not the dead kernel's beside it."""
    page.evaluate(
        "() => { window.jupyterapp.commands.execute('docmanager:open', {path: 'first.ipynb'}); }"
    )
    page.wait_for_function(f"() => ({_CURRENT_JS})() === 'first.ipynb'", timeout=30_000)
    assert page.evaluate(_SIDE_TABS_JS) == 1
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.restartKernel()")
    page.wait_for_function(KERNEL_IDLE_JS, timeout=90_000)
    # execution counts cleared, so that _DONE_JS waits for the run below
    page.evaluate("window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(_DONE_JS, arg=len(FIRST), timeout=180_000)
    page.wait_for_function(KERNEL_IDLE_JS, timeout=90_000)
    page.wait_for_function(f"() => ({_SIDE_TABS_JS})() === 1", timeout=30_000)
    side = _side(page)
    expect(side.locator(".chatspace-chat")).to_be_visible(timeout=60_000)
    assert side.locator(".jupyter-widgets-disconnected").count() == 0
    shot(page, "side-panel-after-restart")
    assert page.page_errors == []  # type: ignore[attr-defined]
