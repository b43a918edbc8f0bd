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
