"""The notebook with a real model, as issue 19's new user tries it: JupyterLab started with
``OPENAI_BASE_URL`` at llama.cpp's server (SmolLM2-135M), then, in the real browser,

- the first ``%%chat`` of the kernel, with no ``-m``, is answered by that model (the one
  connected model is the default);
- ``%%chat Why did this fail? {Err[n]}`` sends cell n's traceback;
- ``%%chat --format code`` puts the answer's code into a new cell below.

What the small model writes is not asserted (it is not reproducible across builds); what
reaches it and where its answer lands is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from browser.conftest import running_lab
from support.lab import KERNEL_IDLE_JS, Lab, shot
from support.llama_server import MODEL_ALIAS, LlamaServer

pytestmark = [pytest.mark.browser, pytest.mark.real_model]

CELLS = [
    "%load_ext chatspace",
    "sales = {'q1': 120}\nsales['q2']",
    "%%chat\nWhy did this fail? {Err[2]}",
    "from chatspace.notebook.session import get_session\n"
    "asked = get_session().client.chat.get(_chat.id, workspace=_chat.workspace).question\n"
    "print(_chat.model, _chat.interpolated, \"KeyError: 'q2'\" in asked)",
    "%%chat --no-store --format code\nWrite a Python function add(a, b) that returns a + b.",
]
_RAN_JS = """(n) => { const cells = window.jupyterapp.shell.currentWidget.content.widgets;
    return cells.slice(0, n).every(c => c.model.executionCount !== null); }"""
_RUN_JS = """(i) => { const panel = window.jupyterapp.shell.currentWidget;
    panel.content.activeCellIndex = i;
    return window.jupyterapp.commands.execute('notebook:run-cell'); }"""
_SOURCES_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets.map(
    c => c.model.sharedModel.getSource())"""


@pytest.fixture(scope="module")
def llama_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    with LlamaServer() as llama:
        env = {
            "OPENAI_BASE_URL": llama.url,
            "OPENAI_API_KEY": "sk-no-key-needed-0123456789",
            "CHATSPACE_AUTODETECT": "1",
        }
        with running_lab(tmp_path_factory.mktemp("llama-lab"), env) as lab:
            yield lab


def test_a_failing_cell_explained_and_code_put_below_by_the_connected_model(
    browser: Any, llama_lab: Lab
) -> None:
    llama_lab.write_notebook("explain.ipynb", CELLS)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        llama_lab.open_notebook(page, "explain.ipynb")
        # Cell by cell, as a user runs them: run-all would stop at the error.
        for index in range(len(CELLS)):
            page.evaluate(_RUN_JS, index)
            page.wait_for_function(_RAN_JS, arg=index + 1, timeout=180_000)
            page.wait_for_function(KERNEL_IDLE_JS, timeout=180_000)
        page.wait_for_function(_RAN_JS, arg=len(CELLS), timeout=60_000)
        cells = page.locator(".jp-NotebookPanel .jp-Cell")
        checked = cells.nth(3).locator(".jp-OutputArea-output").last
        expect(checked).to_contain_text(f"{MODEL_ALIAS} ['Err'] True")
        explained = cells.nth(2).locator(".jp-OutputArea-output").last
        expect(explained).to_contain_text(MODEL_ALIAS)  # the footer names the model
        shot(page, "real-model-explains-an-error", explained)
        sources = page.evaluate(_SOURCES_JS)
    finally:
        context.close()
    # The code answer became the cell below the one that asked (JupyterLab's own
    # set_next_input), holding the code of the answer's fenced block, not the block.
    assert len(sources) == len(CELLS) + 1, sources
    proposed = sources[len(CELLS)]
    assert proposed.strip(), sources
    assert "```" not in proposed
