"""ChatPanel driven from Python against the real reference service."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

import chatspace
from chatspace.notebook.panels import ChatPanel
from chatspace.notebook.session import NotebookSession
from support.documents import xlsx_bytes

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


def test_a_citation_names_the_sheet_and_row_of_its_quote(
    panel: ChatPanel, client: chatspace.Client
) -> None:
    targets = [["region", "target"], ["North", 100], ["South", 200], ["Westmark", 300]]
    sales = xlsx_bytes({"Sales": [["region", "sold"], ["North", 90]], "Targets": targets})
    client.files.upload(sales, filename="sales.xlsx", progress=False)
    turn = ask(panel, "What is the target of Westmark?")
    [cite] = turn["citations"]
    assert cite["location"] == {"sheet": "Targets", "row": 3}
    assert '</a><span class="chatspace-place">, sheet Targets, data row 3</span>' in assistant_html(
        panel
    )


def test_answer_streams_in_with_citation_quote_and_usage(
    panel: ChatPanel, client: chatspace.Client
) -> None:
    f = client.files.upload(NOTES, filename="notes.txt", progress=False)
    panel.refresh()
    turn = ask(panel, "What was the Q3 churn in Lyon?")
    assert panel.error == ""
    assert [t["role"] for t in panel.turns] == ["user", "assistant"]
    assert "5 percent" in turn["content"]
    cite = turn["citations"][0]
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
    # stored, exactly as streamed, with the tags %%chat gives its turns
    stored = client.chat.get(turn["id"])
    assert stored.text == turn["content"]
    thread = panel.session.threads.get(panel.thread)
    assert stored.metadata == {
        "thread": panel.thread,
        "turn": "1",
        "conversation": thread.conversation,
    }


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
    old_conversation = panel.session.threads.get(panel.thread).conversation
    panel.new_button.click()
    assert (panel.turns, panel.usage, panel.conversation.children) == ([], {}, ())
    assert panel.session.threads.get(panel.thread).conversation != old_conversation
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
    assert {c["filename"] for c in turn["citations"]} == {"ml.txt"}
    panel.metadata_filter = ""
    panel.file_picker.value = (ml.id,)  # the picker's path
    assert panel.file_ids == [ml.id]
    turn = ask(panel, "When does the team ship models?")
    assert {c["filename"] for c in turn["citations"]} == {"ml.txt"}
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
    assert "<script>" in turn["content"] or "<script>" in str(turn["citations"])
    html = "".join(child.value for child in panel.conversation.children)
    assert "<script" not in html
    assert "<img" not in html
    assert "&lt;img src=x onerror=" in html  # shown, as text


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"metadata_filter": '{"team": '}, "Filter is not valid JSON"),
        ({"metadata_filter": "[1]"}, "Filter must be a JSON object"),
        ({"model": "no-such-model"}, "404 model 'no-such-model' not found"),
        ({"file_ids": ["file-doesnotexist"]}, "the service refused Files 'file-doesnotexist': "),
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
    session.settings.default_workspace = "research"  # as %workspace research would
    assert panel.workspace == "research"
    assert panel.workspace_picker.value == "research"
    assert [v for _, v in panel.file_picker.options] == [f.id]
    turn = ask(panel, "What are the research notes?")
    assert client.chat.get(turn["id"], workspace="research").id == turn["id"]
    panel.workspace_picker.value = "default"  # the picker's path
    assert session.settings.default_workspace == "default"
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


# ---------------------------------------------------------------- issue 11: rough edges


def test_config_default_model_reaches_a_new_panel(
    ip: Any, magics: Any, client: chatspace.Client
) -> None:
    """``%config`` before any magic ran (a notebook that opens the dashboard first)."""
    from chatspace.notebook.session import get_session, reset_session

    reset_session()
    ip.run_line_magic("config", "ChatspaceSettings.default_model = 'service-l1'")
    ip.run_line_magic("config", "ChatspaceSettings.default_top_k = 3")
    get_session().use_client(client)
    panel = ChatPanel()
    try:
        assert (panel.model, panel.model_picker.value, panel.top_k) == (
            "service-l1",
            "service-l1",
            3,
        )
        assert panel.usage_label.value == "model service-l1 · no tokens used yet"
        ip.run_line_magic("config", "ChatspaceSettings.default_model = 'service-l0'")
        assert panel.model == "service-l0"  # an open panel follows too
    finally:
        panel.close()
        reset_session()


def test_usage_line_names_the_answers_model_and_counts_a_stopped_answer(
    panel: ChatPanel, client: chatspace.Client
) -> None:
    client.files.upload(NOTES * 20, filename="long.txt", progress=False)
    switched = threading.Event()

    def switch_model(change: dict[str, Any]) -> None:
        if change["new"] and change["new"][-1]["role"] == "assistant" and not switched.is_set():
            switched.set()
            panel.model = "another-model"  # picked while the answer streams

    panel.observe(switch_model, "turns")
    turn = ask(panel, "Tell me about Lyon")
    assert panel.usage_label.value.startswith("model service-l0 · last answer: ")
    assert f"= {turn['usage']['total_tokens']} tokens" in panel.usage_label.value
    panel.unobserve(switch_model, "turns")
    panel.model = "service-l0"
    panel.new_chat()
    panel.render_interval = 0
    panel.conversation.observe(
        lambda c: c["new"] and c["new"][-1].observe(lambda _: panel.stop(), "value"), "children"
    )
    stopped = ask(panel, "Tell me about Lyon")
    assert stopped["stopped"] is True
    assert stopped["usage"]["completion_tokens"] > 0  # counted here: the service sent none
    assert "no tokens used yet" not in panel.usage_label.value
    assert f"~{stopped['usage']['total_tokens']} tokens" in panel.usage_label.value
    assert panel.usage["total_tokens"] == stopped["usage"]["total_tokens"]


def test_enter_in_the_input_box_sends(panel: ChatPanel) -> None:
    # what the front end sends when Enter is pressed (Shift+Enter only adds a line there)
    panel.input._handle_custom_msg({"type": "submit", "text": "Where is Lyon?"}, [])
    assert panel.wait(30)
    assert [t["role"] for t in panel.turns] == ["user", "assistant"]
    assert panel.turns[0]["content"] == "Where is Lyon?"
    assert panel.input.value == ""


def test_the_conversation_scrolls_in_a_box_and_stop_stays_below_it(panel: ChatPanel) -> None:
    box = panel.scroller
    assert box.children == (panel.conversation,)
    # column-reverse keeps the newest text in view unless the reader scrolled up
    assert (box.layout.flex_flow, box.layout.overflow) == ("column-reverse", "auto")
    assert box.layout.max_height
    rows = list(panel.children)
    buttons = next(c for c in rows if panel.stop_button in getattr(c, "children", ()))
    assert rows.index(box) < rows.index(buttons)


def test_file_picker_shows_whole_names(panel: ChatPanel, client: chatspace.Client) -> None:
    long_name = "quarterly-business-review-" + "x" * 60 + ".txt"
    a = client.files.upload(b"a", filename=long_name, progress=False)
    b = client.files.upload(b"b", filename="twin.txt", progress=False)
    c = client.files.upload(b"c", filename="twin.txt", progress=False)
    panel.refresh()
    labels = {v: k for k, v in panel.file_picker.options}
    assert labels[a.id] == long_name
    assert (labels[b.id], labels[c.id]) == (f"twin.txt ({b.id})", f"twin.txt ({c.id})")
    assert long_name in panel.file_picker.tooltip


def test_resume_shows_a_stored_conversation_again(
    panel: ChatPanel, client: chatspace.Client, session: NotebookSession
) -> None:
    ask(panel, "First question")
    ask(panel, "Second question")
    name = panel.thread
    session.threads.clear()  # what a kernel restart leaves
    again = ChatPanel(client, session=session)
    try:
        again.resume(name)
        assert again.error == ""
        assert [t["content"] for t in again.turns[::2]] == ["First question", "Second question"]
        third = ask(again, "Third question")
        assert len(list(client.chat.messages(third["id"]))) == 6  # the history went along
        assert client.chat.get(third["id"]).metadata["turn"] == "3"
    finally:
        again.close()
