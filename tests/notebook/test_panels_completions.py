"""CompletionsBrowser driven from Python against the real reference service."""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import chatspace
from chatspace.notebook.panels import ChatPanel, CompletionsBrowser
from chatspace.notebook.session import NotebookSession
from support.service import HOSTILE


@pytest.fixture
def stored(client: chatspace.Client) -> list[str]:
    """Three stored completions tagged by topic, in the service's order (``created``, id).

    Made within one second, their order is their ids', not their making
    (docs/interface.md#lists-and-pagination).
    """
    made = {}
    for i, topic in enumerate(["lyon", "paris", "lyon"]):
        c = client.chat.create(
            messages=f"Question {i} about {topic}",
            store=True,
            metadata={"topic": topic, "n": str(i)},
        )
        made[c.id] = (c.created, c.id)
    return sorted(made, key=made.__getitem__)


def topic(client: chatspace.Client, cid: str) -> str:
    return str((client.chat.get(cid).metadata or {})["topic"])


@pytest.fixture
def browser(
    client: chatspace.Client, session: NotebookSession, stored: list[str]
) -> Iterator[CompletionsBrowser]:
    b = CompletionsBrowser(client, session=session)
    yield b
    b.close()


def ids(browser: CompletionsBrowser) -> list[str]:
    return [r["id"] for r in browser.rows]


def test_table_lists_newest_first_and_pages(browser: CompletionsBrowser, stored: list[str]) -> None:
    assert browser.error == ""
    assert ids(browser) == stored[::-1]
    assert not browser.has_more
    for cid in stored:
        assert cid in browser.table.value
    assert sorted(r["question"] for r in browser.rows) == [
        "Question 0 about lyon",
        "Question 1 about paris",
        "Question 2 about lyon",
    ]
    browser.page_size = 2
    browser.refresh_button.click()
    assert ids(browser) == stored[:0:-1]
    assert browser.has_more
    assert not browser.more_button.disabled
    browser.more_button.click()
    assert ids(browser) == stored[::-1]
    assert not browser.has_more
    assert browser.count_label.value == "3 loaded"
    assert browser.load_more() is None
    assert browser.error == "no more completions to load"


def test_order_model_and_metadata_filters(
    browser: CompletionsBrowser, client: chatspace.Client, stored: list[str]
) -> None:
    browser.order_buttons.value = "asc"
    browser.refresh()
    assert ids(browser) == stored
    browser.filter_text.value = "topic=lyon"
    browser.refresh()
    assert ids(browser) == [c for c in stored if topic(client, c) == "lyon"]
    assert len(browser.rows) == 2
    browser.filter_text.value = '{"topic": "paris", "n": "1"}'
    browser.refresh()
    assert [topic(client, c) for c in ids(browser)] == ["paris"]
    browser.filter_text.value = ""
    assert ("service-l0", "service-l0") in browser.model_picker.options
    browser.model_picker.value = "service-l0"
    browser.refresh()
    assert len(browser.rows) == 3
    browser.model_filter = "never-used"
    browser.refresh()
    assert browser.rows == []
    assert "No stored completions in workspace default match" in browser.table.value


def test_bad_filter_keeps_the_table(browser: CompletionsBrowser, stored: list[str]) -> None:
    browser.filter_text.value = '{"topic": '
    browser.refresh()
    assert "Metadata filter is not valid JSON" in browser.error
    assert ids(browser) == stored[::-1]


def test_select_shows_messages_citations_and_metadata(
    browser: CompletionsBrowser, client: chatspace.Client
) -> None:
    # The file holds the question's hostile words too, so that its passage is relevant.
    lyon = f"Lyon has two rivers.\n{HOSTILE}\n".encode()
    client.files.upload(lyon, filename="lyon.txt", progress=False)
    c = client.chat.create(messages=f"How many rivers in Lyon? {HOSTILE}", store=True)
    browser.refresh()
    browser.picker.value = c.id  # the picker's path
    assert browser.selected == c.id
    html = browser.messages.value
    assert "How many rivers in Lyon?" in html
    assert "chatspace-user" in html
    assert "chatspace-assistant" in html
    assert "Lyon has two rivers." in html  # the citation's quote
    assert "<script" not in html
    assert "<img" not in html
    assert json.loads(browser.metadata_editor.value) == {}
    # its sources, from the service, in a table (a fresh browser reads them all the same)
    [source] = client.chat.sources(c.id)
    assert source.cited
    assert source.quote
    fresh = CompletionsBrowser(client, session=NotebookSession(client))
    fresh.select(c.id)
    for shown in (html, fresh.messages.value):
        assert '<table class="chatspace-table chatspace-sources"' in shown
        assert '<tr data-id="1"><td>1</td><td>lyon.txt</td>' in shown
        assert "<td>yes</td><td>yes</td><td>line 1</td></tr>" in shown
    fresh.close()


def test_edit_metadata_and_hostile_values(
    browser: CompletionsBrowser, client: chatspace.Client, stored: list[str]
) -> None:
    browser.select(stored[0])
    browser.metadata_editor.value = json.dumps({"topic": "lyon", "note": HOSTILE})
    browser.save_button.click()
    assert browser.error == ""
    assert client.chat.get(stored[0]).metadata == {"topic": "lyon", "note": HOSTILE}
    assert "<script" not in browser.table.value
    assert "&lt;script&gt;" in browser.table.value
    browser.update_metadata("reviewed=yes")
    assert client.chat.get(stored[0]).metadata == {"reviewed": "yes"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"topic": ', "not valid JSON"),
        ("topic", "is not key=value"),
        (json.dumps({f"k{i}": "v" for i in range(17)}), "422"),
        (json.dumps({"k": "v" * 600}), "422"),
        (json.dumps({"k": 5}), "422"),
    ],
)
def test_bad_metadata_leaves_the_stored_metadata(
    browser: CompletionsBrowser,
    client: chatspace.Client,
    stored: list[str],
    text: str,
    message: str,
) -> None:
    before = client.chat.get(stored[1]).metadata
    browser.select(stored[1])
    browser.update_metadata(text)
    assert message in browser.error
    assert "\n" not in browser.error
    assert client.chat.get(stored[1]).metadata == before


def test_delete_asks_first(
    browser: CompletionsBrowser, client: chatspace.Client, stored: list[str]
) -> None:
    assert browser.delete() is None
    assert browser.error == "select a completion first"
    browser.select(stored[1])
    browser.delete_button.click()
    assert stored[1] in browser.confirm.question
    browser.confirm.reject()
    assert client.chat.get(stored[1]).id == stored[1]
    browser.delete_button.click()
    browser.confirm.accept()
    with pytest.raises(chatspace.NotFoundError):
        client.chat.get(stored[1])
    assert ids(browser) == [stored[2], stored[0]]
    assert browser.selected is None
    assert browser.delete("chatcmpl-doesnotexist", confirm=True) is None
    assert browser.error.startswith("404")


def test_export_csv_and_parquet(
    browser: CompletionsBrowser, stored: list[str], tmp_path: Path
) -> None:
    target = tmp_path / "out.csv"
    browser.export_path.value = str(target)
    browser.export_button.click()
    assert browser.error == ""
    frame = pd.read_csv(target)
    assert sorted(frame["id"]) == sorted(stored)
    assert "metadata.topic" in frame.columns
    html = browser.download.value
    assert 'download="out.csv"' in html
    payload = html.split("base64,", 1)[1].split('"', 1)[0]
    assert base64.b64decode(payload) == target.read_bytes()
    browser.filter_text.value = "topic=paris"
    path = browser.export(tmp_path / "paris.parquet")
    assert path == tmp_path / "paris.parquet"
    assert list(pd.read_parquet(path)["metadata.topic"]) == ["paris"]
    assert "application/vnd.apache.parquet" in browser.download.value


@pytest.mark.parametrize(
    ("path", "message"), [("out.xlsx", "cannot export to 'xlsx'"), ("/", "file name")]
)
def test_export_bad_path(
    browser: CompletionsBrowser, tmp_path: Path, path: str, message: str
) -> None:
    browser.export(path if path == "/" else tmp_path / path)
    assert message in browser.error
    assert list(tmp_path.iterdir()) == []


def test_usage_chart(browser: CompletionsBrowser) -> None:
    browser.chart_button.click()
    assert browser.error == ""
    png = bytes(browser.chart_image.value)
    assert png.startswith(b"\x89PNG")
    assert browser.chart_image.layout.display is None
    from PIL import Image

    assert Image.open(io.BytesIO(png)).size == (700, 300)


def test_workspace_switch_reloads(
    browser: CompletionsBrowser, client: chatspace.Client, stored: list[str]
) -> None:
    client.workspaces.create("other", "Other")
    c = client.chat.create(messages="Elsewhere", store=True, workspace="other")
    browser.session.settings.default_workspace = "other"
    assert ids(browser) == [c.id]
    browser.workspace_picker.value = "default"
    assert ids(browser) == stored[::-1]


def test_filters_apply_as_chosen_without_refresh(
    browser: CompletionsBrowser, client: chatspace.Client, stored: list[str]
) -> None:
    browser.filter_text.value = "topic=lyon"  # what Enter (or leaving the box) sends
    assert [topic(client, c) for c in ids(browser)] == ["lyon", "lyon"]
    browser.order_buttons.value = "asc"
    assert ids(browser) == [c for c in stored if topic(client, c) == "lyon"]
    browser.filter_text.value = ""
    browser.model_picker.value = "service-l0"
    assert len(browser.rows) == 3
    assert not browser.filter_text.continuous_update  # one request per filter, not per key


def test_rows_scroll_in_a_box_above_fixed_controls_in_a_stable_order(
    client: chatspace.Client, session: NotebookSession
) -> None:
    made = [client.chat.create(messages=f"Q{i}", store=True) for i in range(30)]
    b = CompletionsBrowser(client, session=session)
    try:
        b.page_size = 50
        b.refresh()
        assert len(b.rows) == 30
        expected = sorted(made, key=lambda c: (c.created, c.id), reverse=True)
        assert ids(b) == [c.id for c in expected]  # created, then id: never arbitrary
        box = b.table_box
        assert box.children == (b.table,)
        assert (box.layout.overflow, box.layout.max_height) == ("auto", "360px")
        rows = list(b.children)
        assert rows.index(box) < rows.index(b.picker)  # the detail stays below the box
    finally:
        b.close()


def test_a_chat_stored_next_to_it_shows_without_refresh(
    browser: CompletionsBrowser,
    client: chatspace.Client,
    session: NotebookSession,
    stored: list[str],
) -> None:
    """The chat panel and the browser of one session: the answer is a row at once."""
    chat = ChatPanel(client, session=session)
    try:
        chat.send("Where is the Lyon office?")
        assert chat.wait(30)
        assert chat.error == ""
        answer = chat.turns[-1]["id"]
        # newest first; within one second by id (the fixture's three are of this second)
        assert sorted(ids(browser)) == sorted([answer, *stored])
        assert session.last_stored == {"id": answer, "workspace": "default"}
        client.workspaces.create("elsewhere", "Elsewhere")
        session.settings.default_workspace = (
            "elsewhere"  # as %workspace or a picker does: both panels follow
        )
        chat.send("Anything here?")
        assert chat.wait(30)
        assert browser.workspace == "elsewhere"
        assert ids(browser) == [chat.turns[-1]["id"]]
    finally:
        chat.close()


def test_a_chat_stored_by_the_magic_shows_without_refresh(
    ip: Any, nb_session: NotebookSession, stored: list[str]
) -> None:
    b = CompletionsBrowser()  # the notebook's session, as %%chat's
    try:
        assert ids(b) == stored[::-1]
        result = ip.run_cell_magic("chat", "", "What about Lyon?")
        assert result.stored
        assert sorted(ids(b)) == sorted([result.id, *stored])
    finally:
        b.close()
    after = ip.run_cell_magic("chat", "", "And after closing?")  # a closed one stays closed
    assert after.stored
    assert after.id not in ids(b)
