"""Helpers of the chat, retrieval and engine tests: real HTTP against a real service."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import httpx

from support.platform import with_vectors
from support.service import Service

__all__ = [
    "ask",
    "assemble",
    "checked_citations",
    "client_for",
    "read_events",
    "stream",
    "upload",
]


def client_for(service: Service, org: str, user: str = "alice") -> httpx.Client:
    """An httpx client of ``user`` in ``org``; close it (or use it in ``with``)."""
    return httpx.Client(base_url=service.url, headers=service.headers(user, org), timeout=60)


def upload(
    client: httpx.Client,
    files: Iterable[tuple[str, bytes | str]],
    *,
    workspace: str = "default",
    metadata: dict[str, Any] | None = None,
    content_type: str = "application/octet-stream",
    vectors: bool = True,
) -> list[dict[str, Any]]:
    """Upload files through the real ``POST /files``; their File objects, once their
    passages have vectors (``vectors``: False, at once)."""
    parts = [
        ("file", (name, data.encode() if isinstance(data, str) else data, content_type))
        for name, data in files
    ]
    form: dict[str, str] = {"purpose": "user_data", "workspace": workspace}
    if metadata is not None:
        form["metadata"] = json.dumps(metadata)
    response = client.post("/files", files=parts, data=form)
    assert response.status_code == 200, response.text
    uploaded = list(response.json())
    if vectors:
        with_vectors(client, uploaded)
    return uploaded


def ask(client: httpx.Client, question: str | list[Any], **params: Any) -> dict[str, Any]:
    """A plain (not streamed) completion for one user message; asserts it succeeded."""
    body = {"messages": [{"role": "user", "content": question}], **params}
    response = client.post("/chat/completions", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def checked_citations(client: httpx.Client, answer: dict[str, Any]) -> list[tuple[str, str]]:
    """``(filename, quote)`` of each citation, after checking that each marker stands where
    its annotation says and that each quote is text of its file."""
    message = answer["choices"][0]["message"]
    texts: dict[str, str] = {}
    cited = []
    for number_, note in enumerate(message["annotations"], 1):
        assert note["text"] == f"[{number_}]"
        assert message["content"][note["start_index"] : note["end_index"]] == note["text"]
        citation = note["file_citation"]
        if citation["file_id"] not in texts:
            texts[citation["file_id"]] = client.get(f"/files/{citation['file_id']}/text").text
        assert citation["quote"] in texts[citation["file_id"]], "a quote is text of the file"
        cited.append((citation["filename"], citation["quote"]))
    return cited


def read_events(response: httpx.Response) -> list[Any]:
    """The data of each server-sent event, JSON decoded (``[DONE]`` kept as a string).

    Also checks the framing of docs/interface.md#streaming: every event is one ``data:`` line and a
    blank line.
    """
    text = response.read().decode()
    assert text.endswith("\n\n")
    events: list[Any] = []
    for block in text.split("\n\n")[:-1]:
        assert block.startswith("data: "), block
        assert "\n" not in block, block
        data = block[len("data: ") :]
        events.append(data if data == "[DONE]" else json.loads(data))
    return events


def stream(client: httpx.Client, body: dict[str, Any]) -> tuple[httpx.Response, list[Any]]:
    """A streamed completion: the response (read) and its events."""
    with client.stream("POST", "/chat/completions", json={**body, "stream": True}) as response:
        assert response.status_code == 200, response.read().decode()
        return response, read_events(response)


def assemble(events: list[Any]) -> dict[str, Any]:
    """A streamed completion put back together as the ``chat.completion`` it stands for.

    Checks on the way the order docs/interface.md#streaming demands of each choice: role first,
    annotations only on its last content chunk, ``finish_reason`` on its final chunk.
    """
    assert events[-1] == "[DONE]"
    chunks = events[:-1]
    first = chunks[0]
    choices: dict[int, dict[str, Any]] = {}
    usage = None
    for chunk in chunks:
        assert chunk["object"] == "chat.completion.chunk"
        assert (chunk["id"], chunk["created"], chunk["model"]) == (
            first["id"],
            first["created"],
            first["model"],
        )
        if not chunk["choices"]:
            usage = chunk["usage"]
            continue
        assert usage is None, "the usage chunk comes last"
        for piece in chunk["choices"]:
            state = choices.setdefault(
                piece["index"],
                {"content": "", "annotations": None, "finish_reason": None, "chunks": 0},
            )
            assert state["finish_reason"] is None, "nothing after a choice's final chunk"
            delta = piece["delta"]
            assert ("role" in delta) == (state["chunks"] == 0)
            if "role" in delta:
                assert delta["role"] == "assistant"
            if state["annotations"] is not None:
                assert "content" not in delta or delta["content"] == ""
            state["content"] += delta.get("content") or ""
            if "annotations" in delta:
                state["annotations"] = delta["annotations"]
            state["finish_reason"] = piece["finish_reason"]
            state["chunks"] += 1
    return {
        "id": first["id"],
        "created": first["created"],
        "model": first["model"],
        "system_fingerprint": first["system_fingerprint"],
        "choices": [
            {
                "index": i,
                "message": {"content": c["content"], "annotations": c["annotations"] or []},
                "finish_reason": c["finish_reason"],
                "chunks": c["chunks"],
            }
            for i, c in sorted(choices.items())
        ],
        "usage": usage,
    }
