"""Every bound of contract 1.7 (and the filter parts of 3) is a 422 with a precise ``loc``,
and a refused request stores nothing."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from service.chat_support import client_for, upload
from support import Service

HI = [{"role": "user", "content": "hi"}]
DROP = object()


def _parts(*parts: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"role": "user", "content": list(parts)}]


CASES: list[tuple[str, dict[str, Any], list[Any], str]] = [
    ("no messages", {"messages": []}, ["body", "messages"], "too_short"),
    ("messages missing", {"messages": DROP}, ["body", "messages"], "missing"),
    ("temperature high", {"temperature": 2.01}, ["body", "temperature"], "less_than_equal"),
    ("temperature low", {"temperature": -0.1}, ["body", "temperature"], "greater_than_equal"),
    ("top_p high", {"top_p": 1.5}, ["body", "top_p"], "less_than_equal"),
    ("n zero", {"n": 0}, ["body", "n"], "greater_than_equal"),
    ("n nine", {"n": 9}, ["body", "n"], "less_than_equal"),
    ("presence high", {"presence_penalty": 2.5}, ["body", "presence_penalty"], "less_than_equal"),
    (
        "frequency low",
        {"frequency_penalty": -2.5},
        ["body", "frequency_penalty"],
        "greater_than_equal",
    ),
    (
        "top_logprobs high",
        {"logprobs": True, "top_logprobs": 21},
        ["body", "top_logprobs"],
        "less_than_equal",
    ),
    ("top_logprobs alone", {"top_logprobs": 2}, ["body", "top_logprobs"], "value_error"),
    ("max_tokens zero", {"max_tokens": 0}, ["body", "max_tokens"], "greater_than_equal"),
    (
        "max_completion_tokens zero",
        {"max_completion_tokens": 0},
        ["body", "max_completion_tokens"],
        "greater_than_equal",
    ),
    (
        "logit_bias high",
        {"logit_bias": {"42": 100.5}},
        ["body", "logit_bias", "42"],
        "less_than_equal",
    ),
    ("five stops", {"stop": ["a", "b", "c", "d", "e"]}, ["body", "stop"], "too_long"),
    ("stop not text", {"stop": [1]}, ["body", "stop", 0], "string_type"),
    ("stop a number", {"stop": 7}, ["body", "stop"], "stop_type"),
    (
        "workspace pattern",
        {"workspace": "Team A"},
        ["body", "workspace"],
        "string_pattern_mismatch",
    ),
    (
        "metadata keys",
        {"metadata": {f"k{i}": "v" for i in range(17)}},
        ["body", "metadata"],
        "too_long",
    ),
    (
        "metadata key long",
        {"metadata": {"k" * 65: "v"}},
        ["body", "metadata", "k" * 65, "[key]"],
        "string_too_long",
    ),
    (
        "metadata value long",
        {"metadata": {"k": "v" * 513}},
        ["body", "metadata", "k"],
        "string_too_long",
    ),
    ("metadata value int", {"metadata": {"k": 1}}, ["body", "metadata", "k"], "string_type"),
    ("unknown field", {"temperatur": 1}, ["body", "temperatur"], "extra_forbidden"),
    (
        "reasoning effort",
        {"reasoning_effort": "max"},
        ["body", "reasoning_effort"],
        "literal_error",
    ),
    (
        "stream_options field",
        {"stream_options": {"x": 1}},
        ["body", "stream_options", "x"],
        "extra_forbidden",
    ),
    (
        "role",
        {"messages": [{"role": "tool", "content": "x"}]},
        ["body", "messages", 0, "role"],
        "literal_error",
    ),
    (
        "content missing",
        {"messages": [{"role": "user"}]},
        ["body", "messages", 0, "content"],
        "missing",
    ),
    (
        "content a number",
        {"messages": [{"content": 5}]},
        ["body", "messages", 0, "content"],
        "content_type",
    ),
    (
        "text part without text",
        {"messages": _parts({"type": "text", "text": "ok"}, {"type": "text"})},
        ["body", "messages", 0, "content", 1, "text"],
        "missing",
    ),
    (
        "unknown part type",
        {"messages": _parts({"type": "image_url", "image_url": {"url": "x"}})},
        ["body", "messages", 0, "content", 0],
        "content_part_type",
    ),
    (
        "top_k zero",
        {"messages": _parts({"type": "filter", "top_k": 0})},
        ["body", "messages", 0, "content", 0, "top_k"],
        "greater_than_equal",
    ),
    (
        "top_k 51",
        {"messages": _parts({"type": "filter", "top_k": 51})},
        ["body", "messages", 0, "content", 0, "top_k"],
        "less_than_equal",
    ),
    (
        "filter not JSON",
        {
            "messages": _parts(
                {"type": "text", "text": "x"}, {"type": "filter", "filter": "lang=de"}
            )
        },
        ["body", "messages", 0, "content", 1, "filter"],
        "value_error",
    ),
    (
        "filter a JSON list",
        {"messages": _parts({"type": "filter", "filter": '["de"]'})},
        ["body", "messages", 0, "content", 0, "filter"],
        "value_error",
    ),
    (
        "unknown file id",
        {
            "messages": [
                {"content": "x"},
                {"content": _parts({"file_ids": ["file-nope"]})[0]["content"]},
            ]
        },
        ["body", "messages", 1, "content", 0, "file_ids", 0],
        "value_error",
    ),
]


@pytest.fixture
def client(service: Service, org: str) -> httpx.Client:
    with client_for(service, org) as c:
        yield c


@pytest.mark.parametrize(("body", "loc", "kind"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_bound_is_a_precise_422(
    client: httpx.Client, body: dict[str, Any], loc: list[Any], kind: str
) -> None:
    full = {k: v for k, v in {"messages": HI, "store": True, **body}.items() if v is not DROP}
    response = client.post("/chat/completions", json=full)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert [(d["loc"], d["type"]) for d in detail] == [(loc, kind)]
    assert isinstance(detail[0]["msg"], str)
    assert detail[0]["msg"]
    assert "input" not in detail[0], "the input is never echoed back"
    assert client.get("/chat/completions").json()["data"] == []


def test_a_file_id_of_another_workspace_is_refused(client: httpx.Client) -> None:
    assert client.post("/workspaces", json={"id": "other", "name": "Other"}).status_code == 200
    (elsewhere,) = upload(client, [("a.txt", "text")], workspace="other")
    (here,) = upload(client, [("b.txt", "text")])
    parts = _parts({"type": "text", "text": "x"}, {"file_ids": [here["id"], elsewhere["id"]]})
    response = client.post("/chat/completions", json={"messages": parts})
    assert response.status_code == 422
    [item] = response.json()["detail"]
    assert item["loc"] == ["body", "messages", 0, "content", 1, "file_ids", 1]
    assert elsewhere["id"] in item["msg"]


def test_malformed_json_and_wrong_content_type(client: httpx.Client) -> None:
    bad = client.post(
        "/chat/completions", content=b'{"messages": [', headers={"content-type": "application/json"}
    )
    assert bad.status_code == 422
    assert bad.json()["detail"][0]["type"] == "json_invalid"
    plain = client.post(
        "/chat/completions",
        content=json.dumps({"messages": HI}).encode(),
        headers={"content-type": "text/plain"},
    )
    assert plain.status_code == 422
    assert plain.json()["detail"][0]["loc"] == ["body"]


def test_unknown_model_is_a_404(client: httpx.Client) -> None:
    response = client.post("/chat/completions", json={"model": "gpt-9", "messages": HI})
    assert response.status_code == 404
    assert response.json() == {"detail": "model 'gpt-9' not found"}


def test_without_a_token_401(service: Service) -> None:
    response = httpx.post(f"{service.url}/chat/completions", json={"messages": HI})
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ({f"k{i}": "v" for i in range(17)}, ["body"]),
        ({"k" * 65: "v"}, ["body", "k" * 65, "[key]"]),
        ({"k": "v" * 513}, ["body", "k"]),
        ({"k": None}, ["body", "k"]),
        ({"metadata": {"k": 1}}, ["body", "metadata", "k"]),
        ({"metadata": {f"k{i}": "v" for i in range(17)}}, ["body", "metadata"]),
    ],
)
def test_update_bounds_are_422(client: httpx.Client, body: dict[str, Any], loc: list[Any]) -> None:
    created = client.post(
        "/chat/completions", json={"messages": HI, "store": True, "metadata": {"a": "b"}}
    ).json()
    response = client.post(f"/chat/completions/{created['id']}", json=body)
    assert response.status_code == 422
    assert [d["loc"] for d in response.json()["detail"]] == [loc]
    assert client.get(f"/chat/completions/{created['id']}").json()["metadata"] == {"a": "b"}


@pytest.mark.parametrize(
    ("params", "loc"),
    [
        ({"limit": 0}, ["query", "limit"]),
        ({"limit": 101}, ["query", "limit"]),
        ({"order": "newest"}, ["query", "order"]),
        ({"workspace": "Not A Workspace"}, ["query", "workspace"]),
    ],
)
def test_list_query_bounds_are_422(
    client: httpx.Client, params: dict[str, Any], loc: list[Any]
) -> None:
    for path in ("/chat/completions", "/chat/completions/chatcmpl-x/messages"):
        response = client.get(path, params=params)
        assert response.status_code == 422
        assert [d["loc"] for d in response.json()["detail"]] == [loc]
