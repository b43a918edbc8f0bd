"""client.chat against the real service, with both clients."""

from __future__ import annotations

import pandas as pd
import pytest

from chatspace.client import filter_part, text_part, user_message
from chatspace.errors import NotFoundError
from chatspace.types import (
    ChatCompletion,
    ChatCompletionDeleted,
    ChatMessage,
    ComparisonFilter,
    TextContentPart,
)
from support.clients import AnyClient, collect, run

pytestmark = pytest.mark.anyio


async def test_create_returns_the_completion_with_the_request_echoed(client: AnyClient) -> None:
    answer = await run(
        client.chat.create(
            messages=[{"role": "user", "content": "What is in my files?"}],
            temperature=0.5,
            top_p=0.9,
            seed=7,
            user="u-1",
            metadata={"topic": "tests"},
        )
    )
    assert isinstance(answer, ChatCompletion)
    assert answer.id.startswith("chatcmpl-")
    assert answer.model == "service-l0"
    assert answer.choices[0].message.role == "assistant"
    assert answer.choices[0].finish_reason in ("stop", "length")
    assert answer.text == answer.choices[0].message.content
    assert answer.temperature == 0.5
    assert answer.top_p == 0.9
    assert answer.seed == 7
    assert answer.input_user == "u-1"
    assert answer.metadata == {"topic": "tests"}
    usage = answer.usage
    assert usage.total_tokens == usage.prompt_tokens + usage.completion_tokens > 0


async def test_messages_may_be_a_string_models_or_helpers(client: AnyClient) -> None:
    plain = await run(client.chat.create(messages="Hello"))
    as_models = await run(
        client.chat.create(messages=[ChatMessage(content=[TextContentPart(text="Hello")])])
    )
    with_parts = await run(
        client.chat.create(messages=[{"role": "user", "content": [text_part("Hello")]}])
    )
    assert plain.text == as_models.text == with_parts.text
    assert user_message("Hi") == {"role": "user", "content": "Hi"}
    assert user_message("Hi", filter={"year": 2024}, top_k=2)["content"][1] == {
        "type": "filter",
        "filter": '{"year": 2024}',
        "top_k": 2,
    }
    assert filter_part(file_ids=["a"]) == {"type": "filter", "file_ids": ["a"]}
    typed = ComparisonFilter(type="gte", key="year", value=2024)
    assert filter_part(typed) == {
        "type": "filter",
        "filter": '{"type": "gte", "key": "year", "value": 2024}',
    }
    # the service reads it: a typed filter part that keeps no file answers without context
    answer = await run(client.chat.create(messages=[user_message("Hello", filter=typed)]))
    assert answer.perception_usage is None


async def test_n_and_max_tokens_are_honoured(client: AnyClient) -> None:
    answer = await run(client.chat.create(messages="Hello", n=3, max_tokens=2))
    assert [c.index for c in answer.choices] == [0, 1, 2]
    assert all(c.finish_reason == "length" for c in answer.choices)
    assert answer.usage.completion_tokens <= 3 * 2


async def test_stored_completion_get_update_messages_delete(client: AnyClient) -> None:
    created = await run(
        client.chat.create(
            messages=[
                {"role": "system", "content": "Be brief."},
                user_message("What is due?", top_k=2),
            ],
            store=True,
            metadata={"a": "1"},
        )
    )
    got = await run(client.chat.get(created.id))
    assert got.id == created.id
    assert got.text == created.text
    assert got.metadata == {"a": "1"}

    updated = await run(client.chat.update(created.id, {"b": "2"}))
    assert updated.metadata == {"b": "2"}

    messages = await collect(client.chat.messages(created.id))
    assert [m.id for m in messages] == [f"{created.id}-{i}" for i in range(3)]
    assert [m.role for m in messages] == ["system", "user", "assistant"]
    assert messages[1].content == "What is due?"
    assert messages[1].content_parts is not None
    assert messages[2].content == created.text
    frame = await run(client.chat.messages(created.id, order="desc").to_pandas())
    assert list(frame.columns) == ["id", "role", "content"]
    assert frame["role"].tolist() == ["assistant", "user", "system"]

    deleted = await run(client.chat.delete(created.id))
    assert deleted == ChatCompletionDeleted(id=created.id, deleted=True)
    with pytest.raises(NotFoundError):
        await run(client.chat.get(created.id))


async def test_list_pages_across_boundaries_in_both_orders(client: AnyClient) -> None:
    made = [await run(client.chat.create(messages=f"Q{i}", store=True)) for i in range(5)]
    # docs/interface.md#lists-and-pagination
    ids = [c.id for c in sorted(made, key=lambda c: (c.created, c.id))]

    page = await run(client.chat.list(limit=2))
    assert [c.id for c in page.data] == ids[:2]
    assert page.has_more is True
    assert [c.id for c in await collect(client.chat.list(limit=2))] == ids
    assert [c.id for c in await collect(client.chat.list(limit=2, order="desc"))] == ids[::-1]
    assert [c.id for c in await collect(client.chat.list(after=ids[2], limit=1))] == ids[3:]
    last = await run(client.chat.list(after=ids[-1]))
    assert last.data == []
    assert last.has_more is False
    assert await collect(client.chat.list(model="no-such-model")) == []


async def test_list_filters_by_metadata_and_workspace(client: AnyClient) -> None:
    await run(client.workspaces.create("side"))
    keep = await run(client.chat.create(messages="a", store=True, metadata={"k": "yes"}))
    await run(client.chat.create(messages="b", store=True, metadata={"k": "no"}))
    elsewhere = await run(client.chat.create(messages="c", store=True, workspace="side"))

    found = await collect(client.chat.list(metadata={"k": "yes"}))
    assert [c.id for c in found] == [keep.id]
    assert [c.id for c in await collect(client.chat.list(workspace="side"))] == [elsewhere.id]
    side = client.with_options(workspace="side")
    assert [c.id for c in await collect(side.chat.list())] == [elsewhere.id]
    got = await run(side.chat.get(elsewhere.id))
    assert got.id == elsewhere.id


async def test_completions_frame_has_the_documented_columns(client: AnyClient) -> None:
    first = await run(
        client.chat.create(messages="What is new?", store=True, metadata={"team": "x"})
    )
    await run(client.chat.create(messages="And now?", store=True))
    frame = await run(client.chat.list(limit=1).to_pandas())
    frame = frame.sort_values("question", ascending=False, ignore_index=True)
    assert list(frame.columns) == [
        "id",
        "created",
        "model",
        "finish_reason",
        "prompt_tokens",
        "completion_tokens",
        "total_tokens",
        "question",
        "answer",
        "sources",
        "metadata.team",
    ]
    assert len(frame) == 2
    assert str(frame["created"].dtype) == "datetime64[ns, UTC]"
    assert frame["created"].iloc[0] == pd.Timestamp(first.created, unit="s", tz="UTC")
    for column in ("prompt_tokens", "completion_tokens", "total_tokens"):
        assert str(frame[column].dtype) == "int64"
    assert frame["total_tokens"].iloc[0] == first.usage.total_tokens
    assert frame["question"].tolist() == ["What is new?", "And now?"]
    assert frame["answer"].iloc[0] == first.text
    assert frame["sources"].tolist() == [0, 0], "no files: nothing retrieved"
    assert frame["metadata.team"].iloc[0] == "x"
    assert pd.isna(frame["metadata.team"].iloc[1])


async def test_sources_list_and_frame_a_stored_completions_passages(client: AnyClient) -> None:
    """``chat.sources``: the passages retrieved, best first; ``to_pandas()`` documented
    columns; the completions frame counts them."""
    desert = b"The Sahara is the largest hot desert. It covers most of North Africa."
    polar = b"Antarctica is the largest cold desert, and the windiest continent."
    sahara = await run(client.files.upload(desert, filename="sahara.txt"))
    await run(client.files.upload(polar, filename="polar.txt"))
    created = await run(client.chat.create(messages="Which is the largest desert?", store=True))
    assert created.sources == 2
    sources = await collect(client.chat.sources(created.id))
    assert [s.rank for s in sources] == [1, 2]
    assert [s.cited for s in sources] == [True, True]
    cited = [a.file_citation for a in created.choices[0].message.annotations]
    assert [(s.file_id, s.quote) for s in sources] == [(c.file_id, c.quote) for c in cited if c]
    frame = await run(client.chat.sources(created.id).to_pandas())
    assert list(frame.columns) == [
        *("rank", "file_id", "filename", "quote", "score", "lexical", "dense"),
        *("sent", "cited", "deleted", "page", "sheet", "row", "slide", "cell", "line"),
    ]
    assert frame["rank"].tolist() == [1, 2]
    assert frame["score"].tolist() == [s.score for s in sources]
    assert frame["lexical"].tolist() == [s.scores.lexical for s in sources]
    assert str(frame["sent"].dtype) == "bool"
    assert frame["sent"].all()
    await run(client.files.delete(sahara.id))
    after = await run(client.chat.sources(created.id).to_pandas())
    gone = after[after["file_id"] == sahara.id].iloc[0]
    assert gone["deleted"]
    assert pd.isna(gone["quote"])
    assert pd.isna(gone["filename"])
    listed = await run(client.chat.list().to_pandas())
    assert listed["sources"].tolist() == [2]
    with pytest.raises(NotFoundError):
        await collect(client.chat.sources("chatcmpl-nope"))
