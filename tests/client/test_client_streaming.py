"""Streamed completions: chunks, the assembled answer, closing, and failures mid-stream."""

from __future__ import annotations

from typing import Any

import anyio
import anyio.lowlevel
import httpx
import pytest

from chatspace.client import AsyncChatStream, ChatStream
from chatspace.errors import APIConnectionError, APIStreamError, AuthenticationError
from chatspace.types import ChatCompletionChunk
from support.clients import AnyClient, close, collect, first_item, make_client, opened, run
from support.fault_proxy import Fault, FaultProxy
from support.service import Service

pytestmark = pytest.mark.anyio

QUESTION = "Which city hosts the 2031 robotics fair?"
NOTES = (
    b"# Fairs\n\nThe 2031 robotics fair takes place in Lyon, in the Eurexpo halls.\n\n"
    b"The 2032 fair moves to Porto.\n"
)


async def test_streamed_text_equals_the_stored_completion(client: AnyClient) -> None:
    uploaded = await run(client.files.upload(NOTES, filename="fairs.md"))
    stream = client.chat.stream(
        messages=[{"content": QUESTION}], store=True, metadata={"via": "stream"}
    )
    chunks = await collect(stream)
    assert all(isinstance(c, ChatCompletionChunk) for c in chunks)
    assert chunks[0].choices[0].delta.role == "assistant"
    assert chunks[-1].choices == []
    assert chunks[-1].usage is not None  # include_usage is on by default
    assert stream.closed

    streamed = stream.completion
    assert streamed is not None
    stored = await run(client.chat.get(streamed.id))
    assert streamed.text == stored.text
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == stored.text
    assert streamed.choices[0].finish_reason == stored.choices[0].finish_reason == "stop"
    assert streamed.usage == stored.usage
    annotations = streamed.choices[0].message.annotations
    assert annotations == stored.choices[0].message.annotations
    assert annotations, "the answer cites the uploaded file"
    first = annotations[0]
    assert first.file_citation is not None
    assert first.file_citation.file_id == uploaded.id
    assert streamed.text[first.start_index : first.end_index] == first.text


async def test_stream_refuses_a_keyword_it_does_not_know(client: AnyClient) -> None:
    """``chat.stream(**params)`` took any keyword and dropped those it did not know (a
    misspelt ``tool`` was never sent); it now names them, as ``create`` does."""
    with pytest.raises(TypeError, match="unexpected keyword arguments: temprature, tool"):
        client.chat.stream(messages="Hi", tool=[], temprature=0)  # type: ignore[call-arg]


async def test_create_with_stream_true_returns_an_opened_stream(client: AnyClient) -> None:
    stream = await run(client.chat.create(messages="Hello", stream=True, n=2))
    assert isinstance(stream, (ChatStream, AsyncChatStream))
    assert stream._response is not None  # sent already: errors surface at the call
    async with opened(stream) as s:
        chunks = await collect(s)
    assert {c.choices[0].index for c in chunks if c.choices} == {0, 1}
    completion = stream.completion
    assert [c.index for c in completion.choices] == [0, 1]
    assert completion.choices[0].message.content == completion.choices[1].message.content
    assert stream.text == completion.text
    assert stream.finish_reason == "stop"


async def test_until_done_returns_the_whole_answer(client: AnyClient) -> None:
    plain = await run(client.chat.create(messages="Hello"))
    done = await run(client.chat.stream(messages="Hello").until_done())
    assert done.text == plain.text
    assert done.usage == plain.usage


async def test_stream_errors_before_the_first_byte_raise_at_once(
    kind: str, service: Service
) -> None:
    client = make_client(kind, service.url, "not-a-token")
    with pytest.raises(AuthenticationError):
        await run(client.chat.create(messages="Hello", stream=True))
    with pytest.raises(AuthenticationError):
        await collect(client.chat.stream(messages="Hello"))
    await close(client)


async def test_a_thousand_early_breaks_leak_no_connection(
    kind: str, service: Service, token: str
) -> None:
    limits = httpx.Limits(max_connections=2, max_keepalive_connections=2)
    timeout = httpx.Timeout(30.0, pool=2.0)  # a leaked connection ends in PoolTimeout
    http: httpx.Client | httpx.AsyncClient
    http = (
        httpx.Client(limits=limits, timeout=timeout)
        if kind == "sync"
        else httpx.AsyncClient(limits=limits, timeout=timeout)
    )
    client = make_client(kind, service.url, token, http_client=http)
    for _ in range(1000):
        chunk = await first_item(client.chat.stream(messages="Hi", max_tokens=50))
        assert chunk is not None
    held = client.chat.stream(messages="Hi")  # a stream kept in a variable closes too
    assert await first_item(held) is not None
    # async: the event loop finalizes the abandoned async generator a few turns later
    for _ in range(10):
        if held.closed:
            break
        await anyio.lowlevel.checkpoint()
    assert held.closed
    answer = await run(client.chat.create(messages="Still there?"))
    assert answer.text
    pool = http._transport._pool  # type: ignore[union-attr]
    assert len(pool.connections) <= 2
    assert all(c.is_idle() for c in pool.connections)
    await run(http.close() if kind == "sync" else http.aclose())


async def test_leaving_with_or_raising_in_the_loop_closes(client: AnyClient) -> None:
    async with opened(client.chat.stream(messages="Hi")) as stream:
        assert await first_item(stream) is not None
    assert stream.closed  # at once, for async too

    failing = client.chat.stream(messages="Hi")
    with pytest.raises(KeyError):
        async with opened(failing) as s:
            await _collect_into(s, _Exploding())
    assert failing.closed
    assert (await run(client.chat.create(messages="Hi"))).text


class _Exploding(list[Any]):
    def append(self, item: Any) -> None:
        raise KeyError("the caller's own error")


async def test_close_before_iterating_sends_nothing(
    kind: str, proxy: FaultProxy, token: str
) -> None:
    client = make_client(kind, proxy.url, token)
    stream = client.chat.stream(messages="Hello")
    await run(stream.close())
    assert await collect(stream) == []
    assert proxy.requests("POST /chat/completions") == []
    await close(client)


async def test_error_event_mid_stream_raises_and_keeps_the_text(
    kind: str, proxy: FaultProxy, token: str
) -> None:
    proxy.fail(Fault("sse_error", after=3, match="POST /chat/completions"))
    client = make_client(kind, proxy.url, token)
    stream = client.chat.stream(messages="Hello there, what can you do?")
    received: list[ChatCompletionChunk] = []
    with pytest.raises(APIStreamError) as caught:
        await _collect_into(stream, received)
    assert caught.value.error_type == "upstream_error"
    assert "Injected upstream failure" in str(caught.value)
    assert len(received) == 3
    assert stream.text == "".join(c.choices[0].delta.content or "" for c in received)
    assert stream.text
    assert stream.closed
    await close(client)


async def test_connection_cut_mid_stream_raises_a_connection_error(
    kind: str, proxy: FaultProxy, token: str
) -> None:
    proxy.fail(Fault("cut", after=400, match="POST /chat/completions"))
    client = make_client(kind, proxy.url, token, max_retries=0)
    stream = client.chat.stream(messages="Hello there, what can you do?")
    with pytest.raises(APIConnectionError):
        await collect(stream)
    assert stream.closed
    assert stream.completion is None or stream.completion.choices[0].finish_reason is None
    await close(client)


async def _collect_into(stream: ChatStream | AsyncChatStream, into: list[Any]) -> None:
    """Keep each chunk as it comes, so that what preceded an error can be checked."""
    if isinstance(stream, AsyncChatStream):
        async for chunk in stream:
            into.append(chunk)
    else:
        for chunk in stream:
            into.append(chunk)
