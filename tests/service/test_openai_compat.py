"""The official ``openai`` package as a client of the service: create (plain and streamed),
list, retrieve, update, delete stored chat completions and list their messages."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import openai
import pytest

from support.chat import client_for, upload
from support.service import Service

NOTES = "Mount Everest is the highest mountain above sea level. It is in the Himalayas."


@pytest.fixture
def client(service: Service, org: str) -> Iterator[openai.OpenAI]:
    with client_for(service, org) as raw:
        upload(raw, [("notes.txt", NOTES)])
    with openai.OpenAI(base_url=service.url, api_key=service.token(org=org), max_retries=0) as c:
        yield c


def test_create_plain_and_read_it_back(client: openai.OpenAI) -> None:
    created = client.chat.completions.create(
        model="service-l0",
        messages=[{"role": "user", "content": "What is the highest mountain?"}],
        store=True,
        metadata={"source": "openai"},
        seed=1,
    )
    assert created.id.startswith("chatcmpl-")
    assert created.object == "chat.completion"
    message = created.choices[0].message
    assert message.role == "assistant"
    assert "Mount Everest is the highest mountain above sea level." in (message.content or "")
    assert created.choices[0].finish_reason == "stop"
    assert created.usage is not None
    assert (
        created.usage.total_tokens == created.usage.prompt_tokens + created.usage.completion_tokens
    )
    [note] = message.annotations or []
    assert note.type == "file_citation"
    extra = note.model_dump()
    assert extra["text"] == "[1]"
    assert (message.content or "")[extra["start_index"] : extra["end_index"]] == "[1]"
    assert extra["file_citation"]["filename"] == "notes.txt"

    got = client.chat.completions.retrieve(created.id)
    assert got.model_dump() == created.model_dump()


def test_create_streamed_and_stored(client: openai.OpenAI) -> None:
    chunks = list(
        client.chat.completions.create(
            model="service-l0",
            messages=[{"role": "user", "content": "Where is Mount Everest?"}],
            stream=True,
            store=True,
            stream_options={"include_usage": True},
        )
    )
    assert len(chunks) > 3
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert chunks[0].choices[0].delta.role == "assistant"
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].choices == []
    assert chunks[-1].usage is not None
    stored = client.chat.completions.retrieve(chunks[0].id)
    assert stored.choices[0].message.content == text
    assert stored.usage == chunks[-1].usage


def test_list_update_messages_delete(client: openai.OpenAI) -> None:
    ids = [
        client.chat.completions.create(
            model="service-l0",
            messages=[{"role": "user", "content": f"Question {i} about Everest"}],
            store=True,
            metadata={"batch": "b1"},
        ).id
        for i in range(3)
    ]
    page = client.chat.completions.list(limit=2, metadata={"batch": "b1"})
    assert len(page.data) == 2
    assert page.has_more is True
    assert sorted(c.id for c in page) == sorted(ids), "auto-paging follows the cursor"
    assert list(client.chat.completions.list(model="other-model")) == []
    desc = [c.id for c in client.chat.completions.list(order="desc")]
    asc = [c.id for c in client.chat.completions.list(order="asc")]
    assert desc == asc[::-1]

    updated = client.chat.completions.update(ids[0], metadata={"batch": "b2", "flag": "x"})
    assert updated.metadata == {"batch": "b2", "flag": "x"}
    assert [c.id for c in client.chat.completions.list(metadata={"batch": "b2"})] == [ids[0]]

    messages = client.chat.completions.messages.list(ids[0])
    assert [m.role for m in messages.data] == ["user", "assistant"]
    assert messages.data[0].content == "Question 0 about Everest"
    assert messages.data[0].id == f"{ids[0]}-0"
    one = client.chat.completions.messages.list(ids[0], limit=1, order="desc")
    assert [m.id for m in one.data] == [f"{ids[0]}-1"]

    deleted = client.chat.completions.delete(ids[0])
    assert deleted.id == ids[0]
    assert deleted.deleted is True
    assert deleted.object == "chat.completion.deleted"
    with pytest.raises(openai.NotFoundError):
        client.chat.completions.retrieve(ids[0])


def test_errors_map_to_the_package_exceptions(client: openai.OpenAI) -> None:
    with pytest.raises(openai.NotFoundError) as missing:
        client.chat.completions.create(model="gpt-9", messages=[{"role": "user", "content": "x"}])
    # The package takes the body's OpenAI-shaped ``error`` and shows its message.
    assert missing.value.body["message"].startswith("model 'gpt-9' not found")  # type: ignore[index]
    assert str(missing.value).startswith("Error code: 404 - model 'gpt-9' not found")
    with pytest.raises(openai.UnprocessableEntityError):
        client.chat.completions.create(
            model="service-l0", messages=[{"role": "user", "content": "x"}], n=9
        )


def test_async_client_streams(service: Service, org: str) -> None:
    async def run() -> str:
        async with openai.AsyncOpenAI(
            base_url=service.url, api_key=service.token(org=org), max_retries=0
        ) as client:
            stream = await client.chat.completions.create(
                model="service-l0",
                messages=[{"role": "user", "content": "anything at all"}],
                stream=True,
            )
            return "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])

    assert "service-l0 answers only from them" in asyncio.run(run())
