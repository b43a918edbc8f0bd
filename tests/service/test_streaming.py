"""Streamed completions (docs/interface.md#streaming): the SSE framing, the chunk order, the usage
chunk, storage of what was streamed, and idempotent replays streamed again
(docs/interface.md#idempotency)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from support.chat import assemble, client_for, read_events, stream, upload
from support.service import Service

FACTS = (
    "The Amazon is the largest rainforest on Earth. It spans nine countries.\n\n"
    "The Sahara is the largest hot desert. It covers most of North Africa.\n"
)
BODY: dict[str, Any] = {"messages": [{"role": "user", "content": "Which is the largest desert?"}]}


@pytest.fixture
def client(service: Service, org: str) -> httpx.Client:
    with client_for(service, org) as c:
        upload(c, [("facts.md", FACTS)])
        yield c


def _same_answer(streamed: dict[str, Any], plain: dict[str, Any]) -> None:
    """A streamed completion says what the plain one says (ids and times aside)."""
    assert len(streamed["choices"]) == len(plain["choices"])
    for got, want in zip(streamed["choices"], plain["choices"], strict=True):
        assert got["message"]["content"] == want["message"]["content"]
        assert got["message"]["annotations"] == want["message"]["annotations"]
        assert got["finish_reason"] == want["finish_reason"]


def test_framing_and_chunk_order(client: httpx.Client) -> None:
    response, events = stream(client, BODY)
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["cache-control"] == "no-cache"
    assert events[-1] == "[DONE]"
    chunks = events[:-1]
    assert all(chunk["choices"] for chunk in chunks), "no usage chunk unless asked"
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    final = chunks[-1]["choices"][0]
    assert final == {"index": 0, "delta": {}, "finish_reason": "stop", "logprobs": None}
    with_notes = [c for c in chunks if "annotations" in c["choices"][0]["delta"]]
    assert len(with_notes) == 1
    assert with_notes[0] is chunks[-2], "annotations ride on the last content chunk"
    assert all(c["choices"][0]["finish_reason"] is None for c in chunks[:-1])
    completion = assemble(events)
    plain = client.post("/chat/completions", json=BODY).json()
    _same_answer(completion, plain)
    note = completion["choices"][0]["message"]["annotations"][0]
    content = completion["choices"][0]["message"]["content"]
    assert content[note["start_index"] : note["end_index"]] == note["text"] == "[1]"
    assert note["file_citation"]["quote"] == (
        "The Sahara is the largest hot desert. It covers most of North Africa."
    )


def test_usage_chunk_comes_last_when_asked(client: httpx.Client) -> None:
    body = {**BODY, "stream_options": {"include_usage": True}, "n": 2}
    _, events = stream(client, body)
    usage_chunk = events[-2]
    assert usage_chunk["choices"] == []
    plain = client.post("/chat/completions", json={**BODY, "n": 2}).json()
    assert usage_chunk["usage"] == plain["usage"]
    completion = assemble(events)
    _same_answer(completion, plain)
    assert [c["index"] for c in completion["choices"]] == [0, 1]


@pytest.mark.parametrize(
    ("params", "reason"), [({"max_tokens": 4}, "length"), ({"stop": ["Sahara"]}, "stop")]
)
def test_limits_apply_to_streams(client: httpx.Client, params: dict[str, Any], reason: str) -> None:
    _, events = stream(client, {**BODY, **params})
    plain = client.post("/chat/completions", json={**BODY, **params}).json()
    completion = assemble(events)
    _same_answer(completion, plain)
    assert completion["choices"][0]["finish_reason"] == reason


def test_a_streamed_completion_is_stored_as_streamed(client: httpx.Client) -> None:
    body = {**BODY, "store": True, "metadata": {"via": "stream"}}
    _, events = stream(client, {**body, "stream_options": {"include_usage": True}})
    completion = assemble(events)
    stored = client.get(f"/chat/completions/{completion['id']}").json()
    assert stored["created"] == completion["created"]
    assert stored["usage"] == completion["usage"]
    assert stored["metadata"] == {"via": "stream"}
    assert stored["system_fingerprint"] == completion["system_fingerprint"]
    _same_answer(completion, stored)
    plain = client.post("/chat/completions", json=body).json()
    differs = {"id", "created", "request_id"}
    assert {k: v for k, v in stored.items() if k not in differs} == {
        k: v for k, v in plain.items() if k not in differs
    }
    messages = client.get(f"/chat/completions/{completion['id']}/messages").json()["data"]
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert messages[1]["content"] == completion["choices"][0]["message"]["content"]


def test_a_stream_not_stored_leaves_nothing(client: httpx.Client) -> None:
    _, events = stream(client, BODY)
    assert client.get(f"/chat/completions/{events[0]['id']}").status_code == 404


def test_a_client_leaving_mid_stream_harms_nothing(client: httpx.Client) -> None:
    with client.stream("POST", "/chat/completions", json={**BODY, "stream": True}) as response:
        first = next(response.iter_lines())
        assert first.startswith("data: ")
    # the service is still well, and answers the next stream whole
    _, events = stream(client, BODY)
    assert events[-1] == "[DONE]"


# ---------------------------------------------------------------- idempotency


def _count(client: httpx.Client) -> int:
    return len(client.get("/chat/completions", params={"limit": 100}).json()["data"])


def test_same_key_same_answer_created_once(client: httpx.Client) -> None:
    headers = {"Idempotency-Key": "plain-1"}
    body = {**BODY, "store": True}
    first = client.post("/chat/completions", json=body, headers=headers)
    again = client.post("/chat/completions", json=body, headers=headers)
    assert again.status_code == 200
    assert again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert _count(client) == 1
    other = client.post("/chat/completions", json={**body, "n": 2}, headers=headers)
    assert other.status_code == 409
    assert "Idempotency-Key" in other.json()["detail"]
    assert _count(client) == 1


def test_same_key_without_store_still_answers_the_same(client: httpx.Client) -> None:
    headers = {"Idempotency-Key": "plain-2"}
    first = client.post("/chat/completions", json=BODY, headers=headers).json()
    again = client.post("/chat/completions", json=BODY, headers=headers).json()
    assert again == first
    assert _count(client) == 0


def test_a_streamed_replay_streams_the_same_completion(client: httpx.Client) -> None:
    headers = {"Idempotency-Key": "stream-1"}
    body = {**BODY, "store": True, "stream": True, "stream_options": {"include_usage": True}}
    with client.stream("POST", "/chat/completions", json=body, headers=headers) as response:
        first = assemble(read_events(response))
    with client.stream("POST", "/chat/completions", json=body, headers=headers) as response:
        assert response.headers["idempotent-replayed"] == "true"
        assert response.headers["content-type"].startswith("text/event-stream")
        again = assemble(read_events(response))
    assert again["id"] == first["id"]
    assert again["created"] == first["created"]
    assert again["usage"] == first["usage"]
    _same_answer(again, first)
    assert _count(client) == 1
    stored = client.get(f"/chat/completions/{first['id']}").json()
    _same_answer(first, stored)
    plain = client.post("/chat/completions", json={**body, "stream": False}, headers=headers)
    assert plain.status_code == 409
