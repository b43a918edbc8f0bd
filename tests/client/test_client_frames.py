"""DataFrames keep their columns and types, even when a list is empty."""

from __future__ import annotations

import httpx
import pytest

from chatspace.client import to_pandas
from chatspace.client._frames import COLUMNS
from support.clients import AnyClient, close, make_client, run
from support.service import Service

pytestmark = pytest.mark.anyio


async def test_empty_lists_give_empty_frames_with_the_same_columns(client: AnyClient) -> None:
    frames = {
        "completions": await run(client.chat.list().to_pandas()),
        "files": await run(client.files.list().to_pandas()),
    }
    for kind, frame in frames.items():
        assert frame.empty
        assert list(frame.columns) == list(COLUMNS[kind])
        for column, dtype in COLUMNS[kind].items():
            if dtype is not None:
                assert str(frame[column].dtype) == dtype, (kind, column)


async def test_frames_of_full_and_empty_lists_have_equal_dtypes(client: AnyClient) -> None:
    empty = await run(client.chat.list().to_pandas())
    await run(client.chat.create(messages="Hi", store=True))
    full = await run(client.chat.list().to_pandas())
    assert full.dtypes.to_dict() == empty.dtypes.to_dict()
    empty_files = await run(client.files.list().to_pandas())
    await run(client.files.upload(b"a", filename="a.txt"))
    files = await run(client.files.list().to_pandas())
    assert files.dtypes.to_dict() == empty_files.dtypes.to_dict()


async def test_a_limit_cuts_the_frame_short(client: AnyClient) -> None:
    for i in range(5):
        await run(client.chat.create(messages=f"question {i}", store=True))
    page = await run(client.chat.list(limit=2, order="asc"))
    whole = await run(page.to_pandas())
    assert sorted(whole["question"]) == [f"question {i}" for i in range(5)]
    assert (await run(page.to_pandas(max_items=3))).equals(whole.head(3))
    assert (await run(page.to_pandas(max_items=50))).equals(whole)


async def test_models_in_hand_become_the_same_frame_as_their_list(client: AnyClient) -> None:
    uploaded = await run(client.files.upload([_text("a"), _text("b")]))
    listed = await run(client.files.list(order="asc").to_pandas())
    by_id = sorted(uploaded, key=lambda f: f.id)
    assert to_pandas(by_id).equals(listed.sort_values("id", ignore_index=True))
    with pytest.raises(TypeError, match="one wire model"):
        to_pandas([*uploaded, "not a model"])


def _text(name: str) -> object:
    import io

    buffer = io.BytesIO(name.encode())
    buffer.name = f"{name}.txt"
    return buffer


async def test_a_limit_fetches_no_page_beyond_it(kind: str, service: Service, token: str) -> None:
    """``to_pandas(max_items=N)`` stops asking once it has N rows (``%completions search``
    shows 100 of a search: one page, not two)."""
    sent: list[str] = []

    def hook(request: httpx.Request) -> None:
        sent.append(request.url.path)

    async def async_hook(request: httpx.Request) -> None:
        hook(request)

    http: httpx.Client | httpx.AsyncClient = (
        httpx.Client(event_hooks={"request": [hook]})
        if kind == "sync"
        else httpx.AsyncClient(event_hooks={"request": [async_hook]})
    )
    client = make_client(kind, service.url, token, http_client=http)
    for i in range(5):
        await run(client.chat.create(messages=f"question {i}", store=True))
    sent.clear()
    frame = await run(client.chat.list(limit=2).to_pandas(max_items=2))
    assert len(frame) == 2
    assert sent == ["/chat/completions"]
    sent.clear()
    assert len(await run(client.chat.list(limit=2).to_pandas(max_items=3))) == 3
    assert sent == ["/chat/completions", "/chat/completions"]
    await close(client)
    await run(http.aclose() if isinstance(http, httpx.AsyncClient) else http.close())


CONVERSATIONS = {
    "text parts": (
        [{"role": "user", "content": [{"type": "text", "text": "Churn?"}, {"text": "In Q3."}]}],
        "Churn?\nIn Q3.",
    ),
    "filter parts": (
        [
            {"role": "user", "content": [{"text": "Fees?"}, {"type": "filter", "top_k": 3}]},
            {"role": "assistant", "content": "Ten."},
            {"role": "user", "content": [{"type": "filter", "file_ids": []}]},
        ],
        "Fees?",
    ),
    "later turns": (
        [
            {"role": "user", "content": "first"},
            {"role": "assistant", "content": "answer"},
            {"role": "user", "content": "second"},
        ],
        "second",
    ),
    "no user message": ([{"role": "system", "content": "Summarize the files."}], None),
}


@pytest.mark.parametrize("case", CONVERSATIONS)
async def test_service_client_and_notebook_find_the_same_question(
    case: str, kind: str, service: Service, token: str
) -> None:
    """One rule (chatspace.types.question_of): the service's stored ``question``, the
    frames' question read from the stored messages, and the notebook's agree."""
    from chatspace.client import Client
    from chatspace.client._frames import question_in
    from chatspace.notebook.conversations import stored_question
    from chatspace.types import ChatMessage, question_of

    messages, expected = CONVERSATIONS[case]
    assert question_of([ChatMessage.model_validate(m) for m in messages]) == expected
    client = make_client(kind, service.url, token)
    try:
        completion = await run(client.chat.create(messages=messages, store=True))
        assert completion.question == expected
        stored = await run(client.chat.messages(completion.id, order="desc", limit=100))
        assert question_in(stored) == expected
    finally:
        await close(client)
    with Client(service.url, token=token) as sync:
        asked = stored_question(sync, completion.model_copy(update={"question": None}), "default")
    assert asked == (expected or "")


def test_image_parts_are_not_the_question() -> None:
    """Another service may store a message's parts only: its text parts are the question."""
    from chatspace.types import ChatCompletionMessageObject, question_of

    image = {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
    asked = ChatCompletionMessageObject(
        id="m-0", role="user", content_parts=[image, {"type": "text", "text": "What is it?"}]
    )
    picture_only = ChatCompletionMessageObject(id="m-2", role="user", content_parts=[image])
    answer = ChatCompletionMessageObject(id="m-1", role="assistant", content="A cat.")
    assert question_of([asked, answer, picture_only]) == "What is it?"
    assert question_of([picture_only]) is None
