"""Code in the chat panel's answers: Copy and Insert buttons, and "Code only".

The answers come from a connected model (a local OpenAI-compatible server added with
``%chat models add``) that writes a fenced code block, as code-writing models do. That
the code lands in a new cell of a real notebook is the browser's part
(tests/browser/test_lab_side_panel.py); here the panel gives the right code to insert.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chatspace.local.launcher import stop_service
from chatspace.notebook.formats import FORMAT_HINTS
from chatspace.notebook.markup import code_blocks
from chatspace.notebook.panels import ChatPanel
from chatspace.notebook.panels._answer import AnswerView
from support.magics import run
from support.upstream import FakeUpstream

CODE = "import pandas as pd\ndf = pd.read_csv('sales.csv')\ndf.plot(x='month', y='churn')"
ANSWER = ["Load it, then plot:\n\n", "```python\n", CODE + "\n", "```\n\n", "Or in one line:\n\n"]
ONE_LINER = "pd.read_csv('sales.csv').plot(x='month', y='churn')"


@pytest.fixture(scope="module")
def coder() -> Iterator[FakeUpstream]:
    server = FakeUpstream(models=["coder"], pieces=[*ANSWER, f"```\n{ONE_LINER}\n```"]).start()
    yield server
    server.stop()


@pytest.fixture
def panel(
    ip: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, magics: Any, coder: FakeUpstream
) -> Iterator[ChatPanel]:
    """A chat panel on the embedded service of a fresh data dir, with ``coder`` added."""
    from chatspace.notebook.session import reset_session

    where = tmp_path / "data"
    monkeypatch.setenv("CHATSPACE_DATA_DIR", str(where))
    for name in ("CHATSPACE_BASE_URL", "CHATSPACE_TOKEN", "CHATSPACE_WORKSPACE"):
        monkeypatch.delenv(name, raising=False)
    reset_session()
    added = run(ip, f"%chat models add coder --url {coder.url} --model coder")
    assert added.plain().startswith("model coder added"), added.plain()
    chat = ChatPanel()
    chat.model = "coder"
    yield chat
    chat.close()
    reset_session()
    stop_service(where)


def test_code_blocks_of_an_answer_get_their_code(panel: ChatPanel) -> None:
    panel.send("How do I plot the churn by month?")
    assert panel.wait(30)
    assert panel.error == ""
    view = panel.conversation.children[-1]
    assert isinstance(view, AnswerView)
    assert view.codes == [CODE, ONE_LINER]
    assert view.value.count("<pre>") == 2  # one pair of buttons per <pre>, in this order
    assert panel.insert_code() == CODE
    assert panel.insert_code(block=1) == ONE_LINER
    assert panel.error == ""
    assert view.insert(1) == ONE_LINER  # the button's own twin


def test_insert_without_code_is_one_line(panel: ChatPanel) -> None:
    assert panel.insert_code() is None
    assert panel.error == "no answer yet: ask a question first"
    panel.model = "service-l0"  # quotes files: no code
    panel.send("Anything?")
    assert panel.wait(30)
    assert panel.insert_code() is None
    assert panel.error == "this answer has no code block"
    panel.model = "coder"
    panel.send("And now?")
    assert panel.wait(30)
    assert panel.insert_code(block=5) is None
    assert panel.error == "this answer has 2 code blocks, not 6"
    assert panel.insert_code(turn=-3) is None
    assert panel.error == "no answer -3: the chat has 2"


def test_code_only_asks_for_code_and_shows_it_alone(panel: ChatPanel, coder: FakeUpstream) -> None:
    panel.code_toggle.value = True
    assert panel.code_only
    panel.send("Plot the churn by month")
    assert panel.wait(30)
    sent = coder.last("coder")["body"]["messages"]
    assert sent[0] == {"role": "system", "content": FORMAT_HINTS["code"]}
    shown = panel.turns[-1]["content"]
    assert code_blocks(shown) == [CODE]  # the first block, as --format code takes it
    assert "Load it" not in shown
    assert panel.insert_code() == CODE
    panel.code_only = False
    panel.send("Explain it")
    assert panel.wait(30)
    assert coder.last("coder")["body"]["messages"][0]["role"] == "user"


def test_a_temperature_is_sent_only_once_the_slider_moved(
    ip: Any, panel: ChatPanel, coder: FakeUpstream
) -> None:
    """As ``%%chat`` without ``-t``, the panel sends no temperature: the model's default
    applies (llama.cpp's is 0.8), and the panel says so instead of showing 1.00 as if it
    were chosen; moved, the slider sends what it shows."""
    slider, default = panel.temperature_slider, panel.temperature_default
    assert (panel.temperature, slider.readout, default.value) == (None, False, "model default")
    assert default.layout.display is None
    run(ip, "%%chat -m coder\nHow do I plot the churn?")
    assert "temperature" not in coder.last("coder")["body"]
    panel.send("How do I plot the churn by month?")
    assert panel.wait(30)
    assert "temperature" not in coder.last("coder")["body"]
    slider.value = 0.3  # what dragging the slider does
    assert (panel.temperature, slider.readout, default.layout.display) == (0.3, True, "none")
    panel.send("And by region?")
    assert panel.wait(30)
    assert coder.last("coder")["body"]["temperature"] == pytest.approx(0.3)
