"""ChatPanel driven from Python against the real reference service."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

import chatspace
from chatspace.notebook.panels import ChatPanel
from chatspace.notebook.session import NotebookSession

HOSTILE_NAME = '<img src=x onerror="alert(1)">.txt'
NOTES = b"Lyon is a city in France. The Q3 churn was 5 percent in Lyon."


@pytest.fixture
def panel(client: chatspace.Client, session: NotebookSession) -> Iterator[ChatPanel]:
    p = ChatPanel(client, session=session)
    p.download_base_url = "/"
    yield p
    p.stop()
    assert p.wait(30)
    p.close()


def ask(panel: ChatPanel, question: str) -> dict[str, Any]:
    assert panel.send(question) is True, panel.error
    assert panel.wait(30)
    return panel.turns[-1]


def assistant_html(panel: ChatPanel) -> str:
    return panel.conversation.children[-1].value


def test_answer_streams_in_with_citation_quote_and_usage(
    panel: ChatPanel, client: chatspace.Client
) -> None:
    f = client.files.upload(NOTES, filename="notes.txt", progress=False)
    panel.refresh()
    turn = ask(panel, "What was the Q3 churn in Lyon?")
    assert panel.error == ""
    assert [t["role"] for t in panel.turns] == ["user", "assistant"]
    assert "5 percent" in turn["content"]
    cite = turn["annotations"][0]["file_citation"]
    assert (cite["file_id"], cite["filename"]) == (f.id, "notes.txt")
    html = assistant_html(panel)
    assert "chatspace-citation" in html
    assert "The Q3 churn was 5 percent in Lyon." in html  # the quote is shown
    assert f'href="/chatspace/files/{f.id}/content?workspace=default"' in html
    assert turn["usage"]["total_tokens"] > 0
    assert panel.usage == turn["usage"]
    assert f"{turn['usage']['total_tokens']} tokens" in panel.usage_label.value
    assert not panel.streaming
    assert panel.stop_button.layout.display == "none"
    # stored, tagged with the panel's thread, exactly as streamed
    stored = client.chat.get(turn["id"])
    assert stored.text == turn["content"]
    assert stored.metadata == {"source": "chat-panel", "thread": panel.thread_id}


def test_send_returns_while_the_answer_streams(panel: ChatPanel) -> None:
    gate, streaming_seen = threading.Event(), threading.Event()

    def hold(change: dict[str, Any]) -> None:
        if change["new"] and change["new"][-1]["role"] == "assistant" and not gate.is_set():
            streaming_seen.set()
            assert gate.wait(30)  # the background thread waits here, not the caller

    panel.observe(hold, "turns")
    panel.input.value = "Anything about Lyon?"
    panel.send_button.click()  # the button's path: the input box's text
    assert streaming_seen.wait(30)
    assert panel.streaming
    assert panel.busy
    assert panel.stop_button.layout.display is None
    assert panel.send_button.disabled
    assert panel.input.value == ""
    gate.set()
    assert panel.wait(30)
    assert not panel.busy
    assert not panel.send_button.disabled


def test_stop_keeps_the_partial_answer(panel: ChatPanel, client: chatspace.Client) -> None:
    client.files.upload(NOTES * 20, filename="long.txt", progress=False)
    panel.render_interval = 0  # render every chunk: the first render stops the stream
    full = ask(panel, "Tell me about Lyon")["content"]
    panel.new_chat()

    def stop_on_first_text(change: dict[str, Any]) -> None:
        if "Assistant" in change["new"]:
            panel.stop()

    turn_widgets = panel.conversation
    turn_widgets.observe(
        lambda c: c["new"] and c["new"][-1].observe(stop_on_first_text, "value"), "children"
    )
    turn = ask(panel, "Tell me about Lyon")
    assert turn["stopped"] is True
    assert 0 < len(turn["content"]) < len(full)
    assert full.startswith(turn["content"])
    assert "(stopped)" in assistant_html(panel)
    assert panel.error == ""


def test_multi_turn_sends_the_conversation_and_new_chat_forgets(
    panel: ChatPanel, client: chatspace.Client
) -> None:
    ask(panel, "First question")
    second = ask(panel, "Second question")
    messages = list(client.chat.messages(second["id"]))
    assert [m.role for m in messages] == ["user", "assistant", "user", "assistant"]
    assert messages[0].content == "First question"
    old_thread = panel.thread_id
    panel.new_button.click()
    assert (panel.turns, panel.usage, panel.conversation.children) == ([], {}, ())
    assert panel.thread_id != old_thread
    third = ask(panel, "Third question")
    assert len(list(client.chat.messages(third["id"]))) == 2


def test_files_and_metadata_filter_narrow_retrieval(
    panel: ChatPanel, client: chatspace.Client
) -> None:
    ml = client.files.upload(
        b"The ML team ships models on Fridays.",
        filename="ml.txt",
        metadata={"team": "ml"},
        progress=False,
    )
    client.files.upload(
        b"The ops team ships models on Mondays.",
        filename="ops.txt",
        metadata={"team": "ops"},
        progress=False,
    )
    panel.refresh()
    assert {v for _, v in panel.file_picker.options} >= {ml.id}
    panel.metadata_filter = "team=ml"
    assert panel.filter_text.value == "team=ml"
    turn = ask(panel, "When does the team ship models?")
    assert {a["file_citation"]["filename"] for a in turn["annotations"]} == {"ml.txt"}
    panel.metadata_filter = ""
    panel.file_picker.value = (ml.id,)  # the picker's path
    assert panel.file_ids == [ml.id]
    turn = ask(panel, "When does the team ship models?")
    assert {a["file_citation"]["filename"] for a in turn["annotations"]} == {"ml.txt"}
    request = client.chat.messages(turn["id"]).data[-2]
    assert request.content_parts is not None
    assert request.content_parts[-1]["file_ids"] == [ml.id]


def test_hostile_file_names_and_model_output_stay_inert(
    panel: ChatPanel, client: chatspace.Client
) -> None:
    client.files.upload(
        b"Secret plans: <script>alert(1)</script> and <img src=x onerror=alert(2)> in Lyon.",
        filename=HOSTILE_NAME,
        progress=False,
    )
    panel.refresh()
    turn = ask(panel, "What are the secret plans in Lyon?")
    assert "<script>" in turn["content"] or "<script>" in str(turn["annotations"])
    html = "".join(child.value for child in panel.conversation.children)
    assert "<script" not in html
    assert "<img" not in html
    assert "&lt;img src=x onerror=" in html  # shown, as text


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"metadata_filter": '{"team": '}, "filter is not valid JSON"),
        ({"metadata_filter": "[1]"}, "must be a JSON object"),
        ({"model": "no-such-model"}, "404 model 'no-such-model' not found"),
        ({"file_ids": ["file-doesnotexist"]}, "422"),
    ],
)
def test_bad_input_is_one_line_and_stores_nothing(
    panel: ChatPanel, client: chatspace.Client, setup: dict[str, Any], message: str
) -> None:
    panel.file_picker.options = [("ghost", "file-doesnotexist")]
    for name, value in setup.items():
        setattr(panel, name, value)
    panel.input.value = "Where is Lyon?"
    panel.send()
    assert panel.wait(30)
    assert message in panel.error
    assert "\n" not in panel.error
    assert "Traceback" not in panel.error_line.value
    assert panel.turns == []  # the question was taken back ...
    assert panel.input.value == "Where is Lyon?"  # ... into the input box
    assert list(client.chat.list()) == []


def test_empty_question_and_huge_question(panel: ChatPanel, client: chatspace.Client) -> None:
    assert panel.send("   ") is None
    assert panel.error == "type a question first"
    turn = ask(panel, "Lyon? " * 20_000)
    assert panel.error == ""
    assert turn["content"]
    assert len(list(client.chat.list())) == 1


def test_workspace_follows_the_session_both_ways(
    panel: ChatPanel, client: chatspace.Client, session: NotebookSession
) -> None:
    client.workspaces.create("research", "Research")
    f = client.files.upload(b"Research notes", filename="r.txt", workspace="research")
    session.workspace = "research"  # as %workspace research would
    assert panel.workspace == "research"
    assert panel.workspace_picker.value == "research"
    assert [v for _, v in panel.file_picker.options] == [f.id]
    turn = ask(panel, "What are the research notes?")
    assert client.chat.get(turn["id"], workspace="research").id == turn["id"]
    panel.workspace_picker.value = "default"  # the picker's path
    assert session.workspace == "default"
    assert panel.file_picker.options == ()


def test_panel_without_service_shows_the_error(session: NotebookSession) -> None:
    offline = chatspace.Client(
        base_url="http://127.0.0.1:9", token="offline-token-0123456789abcdef", max_retries=0
    )
    with offline:
        p = ChatPanel(offline, session=NotebookSession(client=offline))
        assert "could not" in p.error.lower() or "connect" in p.error.lower()
        assert p.send("hello") is True
        assert p.wait(30)
        assert p.error
        assert p.turns == []
        p.close()
