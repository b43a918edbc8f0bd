"""Every bound of docs/interface.md#limits (and its #filter-parts) is a 422 with a precise ``loc``,
and a refused request stores nothing."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from support.chat import client_for, upload
from support.service import Service

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
        {"reasoning_effort": "extreme"},
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
        {"messages": [{"role": "robot", "content": "x"}]},
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
        "json_invalid",
    ),
    (
        "filter a JSON list",
        {"messages": _parts({"type": "filter", "filter": '["de"]'})},
        ["body", "messages", 0, "content", 0, "filter"],
        "dict_type",
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
    # tools, tool messages and response_format: OpenAI's shapes, each fault at its place
    ("tools not a list", {"tools": {"type": "function"}}, ["body", "tools"], "list_type"),
    ("tool type", {"tools": [{"type": "robot"}]}, ["body", "tools", 0], "tool_type"),
    (
        "tool without name",
        {"tools": [{"type": "function", "function": {"parameters": {}}}]},
        ["body", "tools", 0, "function", "name"],
        "missing",
    ),
    (
        "tool name with spaces",
        {"tools": [{"type": "function", "function": {"name": "get weather"}}]},
        ["body", "tools", 0, "function", "name"],
        "string_pattern_mismatch",
    ),
    (
        "tool parameters not an object",
        {"tools": [{"type": "function", "function": {"name": "f", "parameters": "x"}}]},
        ["body", "tools", 0, "function", "parameters"],
        "dict_type",
    ),
    ("tool_choice word", {"tool_choice": "always"}, ["body", "tool_choice"], "tool_choice"),
    (
        "tool_choice without name",
        {"tool_choice": {"type": "function", "function": {}}},
        ["body", "tool_choice", "function", "name"],
        "missing",
    ),
    (
        "tool message without call id",
        {"messages": [{"role": "tool", "content": "42"}]},
        ["body", "messages", 0, "tool_call_id"],
        "missing",
    ),
    (
        "tool call without id",
        {"messages": [{"role": "assistant", "tool_calls": [{"function": {"name": "f"}}]}]},
        ["body", "messages", 0, "tool_calls", 0, "id"],
        "missing",
    ),
    (
        "null content without calls",
        {"messages": [{"role": "assistant", "content": None}]},
        ["body", "messages", 0, "content"],
        "missing",
    ),
    (
        "function message without name",
        {"messages": [{"role": "function", "content": "x"}]},
        ["body", "messages", 0, "name"],
        "missing",
    ),
    (
        "response_format type",
        {"response_format": {"type": "xml"}},
        ["body", "response_format"],
        "response_format_type",
    ),
    (
        "json_schema without name",
        {"response_format": {"type": "json_schema", "json_schema": {"schema": {}}}},
        ["body", "response_format", "json_schema", "name"],
        "missing",
    ),
    (
        "json_schema schema not an object",
        {"response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": 1}}},
        ["body", "response_format", "json_schema", "schema"],
        "dict_type",
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
    msg = f"file '{elsewhere['id']}' is not a file of workspace 'default'"
    assert response.json() == {
        "detail": [
            {
                "loc": ["body", "messages", 0, "content", 1, "file_ids", 1],
                "msg": msg,
                "type": "value_error",
            }
        ],
        "error": {
            "message": f"messages.0.content.1.file_ids.1: {msg}",
            "type": "invalid_request_error",
            "code": "value_error",
        },
    }


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
    assert response.json()["detail"].startswith("model 'gpt-9' not found")


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
