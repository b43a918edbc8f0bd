"""The panels as people expect them (issue 11), in a real JupyterLab through Chromium.

A notebook sets the default model with ``%config`` and opens a chat panel and the
completions browser. The model is a local OpenAI-compatible server that streams a long
answer slowly, so that the test sees the panel mid-stream: Enter sends (Shift+Enter adds
a line), the conversation follows the answer inside its box unless the reader scrolled
up, and Stop stays in the window. The completions browser holds 50 rows in a scroll box
with its controls below, and applies a filter on Enter.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from browser.conftest import running_lab
from support.lab import KERNEL_IDLE_JS, Lab, shot, watched_page
from support.upstream import USAGE, FakeUpstream, chunk, sse_event, stream_end

pytestmark = pytest.mark.browser

KEY = "sk-local-server-0123456789abcdef"
WORDS = 600
PACE = 0.04  # seconds a word: a 24 s answer, as long as the one the issue describes
CELLS = [
    "%load_ext chatspace\n%config ChatspaceSettings.default_model = 'slow-llm'",
    "from chatspace.notebook.panels import ChatPanel, CompletionsBrowser\nchat = ChatPanel()\nchat",
    "for i in range(50):\n"
    "    chat.client.chat.create(model='service-l0', messages=f'Question {i} about Lyon',"
    " store=True, metadata={'n': str(i)})",
    "browser = CompletionsBrowser()\nbrowser.page_size = 50\nbrowser.refresh()\nbrowser",
]
_DONE_JS = """(n) => { const w = window.jupyterapp.shell.currentWidget;
    return !!w && !!w.content && w.content.widgets.length === n
        && w.content.widgets.every(c => c.model.executionCount !== null); }"""
# Whether the newest text of the conversation shows inside its scroll box.
_FOLLOWS_JS = """(box) => { const turns = box.querySelectorAll('.chatspace-turn');
    const last = turns[turns.length - 1].getBoundingClientRect();
    const view = box.getBoundingClientRect();
    return last.bottom <= view.bottom + 2 && last.bottom >= view.top; }"""
_FIRST_SHOWS_JS = """(box) => { const first = box.querySelector('.chatspace-turn');
    const r = first.getBoundingClientRect(), view = box.getBoundingClientRect();
    return r.top >= view.top - 2 && r.top < view.bottom; }"""


class SlowUpstream(FakeUpstream):
    """Streams a long answer, one word every ``PACE`` seconds: paragraphs of words that
    differ by their letters ("word0 word1 ..." was a loop, numbers aside, and the
    service cut it: engines/repetition.py)."""

    async def _stream(self, body: dict[str, Any]) -> AsyncIterator[bytes]:
        yield sse_event(chunk({"role": "assistant", "content": ""}))
        for i in range(WORDS):
            word = "w" + chr(97 + i % 26) + chr(97 + i // 26 % 26)
            word += "\n\n" if i % 12 == 11 else " "
            yield sse_event(chunk({"content": word}))
            await asyncio.sleep(PACE)
        for part in stream_end(USAGE):
            yield part


@pytest.fixture(scope="module")
def upstream() -> Iterator[SlowUpstream]:
    server = SlowUpstream(models=["slow-llm"], key=KEY).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def page(
    browser: Any, tmp_path_factory: pytest.TempPathFactory, upstream: SlowUpstream
) -> Iterator[Page]:
    env = {"OPENAI_BASE_URL": upstream.url, "OPENAI_API_KEY": KEY, "CHATSPACE_AUTODETECT": "1"}
    with running_lab(tmp_path_factory.mktemp("panels-lab"), env) as lab:
        lab.write_notebook("panels.ipynb", CELLS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        opened = watched_page(context)
        _run_all(opened, lab)
        yield opened
        context.close()


def _run_all(page: Page, lab: Lab) -> None:
    lab.open_notebook(page, "panels.ipynb")
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_function(_DONE_JS, arg=len(CELLS), timeout=180_000)
    page.wait_for_function(KERNEL_IDLE_JS, timeout=90_000)


def _chat(page: Page) -> Locator:
    return page.locator(".chatspace-chat")


def test_1_config_default_model_shows_in_a_new_panel(page: Page) -> None:
    picker = _chat(page).locator(".chatspace-model select")
    expect(picker).to_have_value("slow-llm", timeout=30_000)
    expect(_chat(page).locator(".chatspace-usage")).to_contain_text("model slow-llm")
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_2_enter_sends_and_the_conversation_follows_with_stop_in_view(page: Page) -> None:
    panel = _chat(page)
    panel.scroll_into_view_if_needed()
    box = panel.locator(".chatspace-chat-input textarea")
    box.click()
    page.keyboard.type("Tell me everything about Lyon.")
    page.keyboard.press("Shift+Enter")  # a new line, not a send
    page.keyboard.type("In detail, please.")
    assert panel.locator(".chatspace-turn-user").count() == 0
    page.keyboard.press("Enter")
    user = panel.locator(".chatspace-turn-user").last
    expect(user).to_contain_text("Tell me everything about Lyon.\nIn detail, please.")
    stop = panel.locator(".chatspace-stop")
    expect(stop).to_be_visible(timeout=30_000)
    scroller = panel.locator(".chatspace-conversation-scroll")
    # the answer outgrows the box, and the box keeps its newest text in view
    page.wait_for_function(
        "(b) => b.scrollHeight > b.clientHeight + 200",
        arg=scroller.element_handle(),
        timeout=60_000,
    )
    assert scroller.evaluate(_FOLLOWS_JS)
    page.wait_for_timeout(2_000)
    assert scroller.evaluate(_FOLLOWS_JS)
    viewport = page.viewport_size
    assert viewport is not None
    button = stop.bounding_box()
    assert button is not None
    assert button["y"] >= 0
    assert button["y"] + button["height"] <= viewport["height"]
    shot(page, "chat-panel-mid-stream", panel)
    # the reader scrolls up: the box stays where they put it while the answer grows
    scroller.evaluate("(b) => { b.scrollTop = -b.scrollHeight; }")
    assert scroller.evaluate(_FIRST_SHOWS_JS)
    page.wait_for_timeout(2_000)
    assert scroller.evaluate(_FIRST_SHOWS_JS)
    stop.click()
    expect(panel.locator(".chatspace-stopped")).to_be_visible(timeout=30_000)
    expect(panel.locator(".chatspace-usage")).to_contain_text("model slow-llm · last answer: ~")
    assert page.page_errors == []  # type: ignore[attr-defined]


def test_3_completions_browser_scrolls_its_rows_above_its_controls(page: Page) -> None:
    panel = page.locator(".chatspace-completions")
    panel.scroll_into_view_if_needed()
    table = panel.locator(".chatspace-completions-table")
    expect(table).to_contain_text("Question 49 about Lyon", timeout=30_000)
    assert table.locator("tbody tr").count() >= 50
    scroll_box = panel.locator(".chatspace-completions-scroll")
    assert scroll_box.evaluate("(b) => b.scrollHeight > b.clientHeight + 500")
    box = scroll_box.bounding_box()
    picker = panel.locator(".chatspace-completions-select").bounding_box()
    assert box is not None
    assert picker is not None
    assert 0 <= picker["y"] - (box["y"] + box["height"]) < 120  # right below, not 40 rows down
    shot(page, "completions-browser-50-rows", panel)
    field = panel.locator(".chatspace-metadata-filter input")
    field.fill("n=7")
    field.press("Enter")  # no Refresh needed
    expect(table.locator("tbody tr")).to_have_count(1, timeout=30_000)
    expect(table).to_contain_text("Question 7 about Lyon")
    assert page.page_errors == []  # type: ignore[attr-defined]
