"""A real model in one step, as a new user meets it: JupyterLab started with
``OPENAI_BASE_URL`` and ``OPENAI_API_KEY`` pointing at a local OpenAI-compatible server,
then ``%%chat -m <its model>`` in a notebook answers from that server, citing the file the
notebook uploaded. Nothing else is configured.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from browser.conftest import running_lab
from support.lab import Lab, shot
from support.upstream import FakeUpstream

pytestmark = pytest.mark.browser

KEY = "sk-local-server-0123456789abcdef"
CELLS = [
    "%load_ext chatspace",
    "%chat models",
    "%files upload data/q3-report.md",
    "%%chat -m local-llm\nWhat was the Q3 churn in Lyon?",
]
# What the model says: a fact of the uploaded file, without a marker (as most local models
# write), so the citation comes from attribution.
ANSWER = ["Noted: the Q3 churn ", "in Lyon was 5 percent, ", "down from 7 percent."]
_DONE_JS = """(n) => { const w = window.jupyterapp.shell.currentWidget;
    return !!w && !!w.content && w.content.widgets.length === n
        && w.content.widgets.every(c => c.model.executionCount !== null); }"""
_OUTPUTS_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets.map(
    c => c.model.toJSON().outputs || [])"""


@pytest.fixture(scope="module")
def upstream() -> Iterator[FakeUpstream]:
    server = FakeUpstream(models=["local-llm"], key=KEY, pieces=ANSWER).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def model_lab(tmp_path_factory: pytest.TempPathFactory, upstream: FakeUpstream) -> Iterator[Lab]:
    env = {"OPENAI_BASE_URL": upstream.url, "OPENAI_API_KEY": KEY, "CHATSPACE_AUTODETECT": "1"}
    with running_lab(tmp_path_factory.mktemp("model-lab"), env) as lab:
        yield lab


def test_chat_with_the_model_of_the_environment_in_a_new_notebook(
    browser: Any, model_lab: Lab, upstream: FakeUpstream
) -> None:
    model_lab.write_notebook("real-model.ipynb", CELLS)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        model_lab.open_notebook(page, "real-model.ipynb")
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_function(_DONE_JS, arg=len(CELLS), timeout=120_000)
        answer = page.locator(".jp-Cell").nth(3).locator(".jp-OutputArea-output").last
        expect(answer).to_contain_text("Noted", timeout=60_000)
        expect(answer).to_contain_text("q3-report.md")
        shot(page, "real-model-answer", answer)
        outputs = page.evaluate(_OUTPUTS_JS)
    finally:
        context.close()
    listed = json.dumps(outputs[1])
    assert "local-llm" in listed
    assert "openai" in listed
    markdown = "".join("".join(o.get("data", {}).get("text/markdown", "")) for o in outputs[3])
    assert "in Lyon was 5 percent" in markdown, markdown
    # The upstream got the question, the passage of the uploaded file, and the key.
    sent = upstream.last("local-llm")
    assert sent["headers"]["authorization"] == f"Bearer {KEY}"
    assert "Lyon" in json.dumps(sent["body"]["messages"][0])
    assert KEY not in json.dumps(outputs)
