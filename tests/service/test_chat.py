"""Chat completions over real HTTP: the created object, storage, lists, update, delete,
messages and access levels (docs/interface.md#chat-completions, #workspaces)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from support.chat import ask, client_for
from support.service import Service

ID = re.compile(r"^chatcmpl-[A-Za-z0-9_-]{24,}$")


@pytest.fixture
def client(service: Service, org: str) -> httpx.Client:
    with client_for(service, org) as c:
        yield c


def _store(client: httpx.Client, text: str, **params: Any) -> dict[str, Any]:
    return ask(client, text, store=True, **params)


def test_created_completion_has_the_contract_shape(client: httpx.Client) -> None:
    before = int(time.time())
    answer = ask(
        client,
        "hello",
        seed=3,
        top_p=0.5,
        temperature=0.2,
        presence_penalty=1,
        frequency_penalty=-1,
        user="u-1",
        metadata={"topic": "greeting"},
        response_format={"type": "text"},
        service_tier="default",
        n=2,
    )
    assert ID.match(answer["id"])
    assert answer["object"] == "chat.completion"
    assert before <= answer["created"] <= int(time.time())
    assert answer["model"] == "service-l0"
    assert answer["system_fingerprint"] == "chatspace-0.1.0-l0"
    assert [c["index"] for c in answer["choices"]] == [0, 1]
    for choice in answer["choices"]:
        assert choice["message"]["role"] == "assistant"
        assert isinstance(choice["message"]["content"], str)
        assert choice["message"]["annotations"] == []
        assert choice["finish_reason"] == "stop"
    echoes = {
        "seed": 3,
        "top_p": 0.5,
        "temperature": 0.2,
        "presence_penalty": 1,
        "frequency_penalty": -1,
        "input_user": "u-1",
        "metadata": {"topic": "greeting"},
        "response_format": {"type": "text"},
        "service_tier": "default",
    }
    assert {k: answer[k] for k in echoes} == echoes
    assert answer["request_id"].startswith("req_")
    assert answer["perception_usage"] is None
    usage = answer["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_ids_are_unique(client: httpx.Client) -> None:
    ids = {ask(client, "hi")["id"] for _ in range(5)}
    assert len(ids) == 5


def test_store_false_stores_nothing(client: httpx.Client) -> None:
    answer = ask(client, "not kept")
    assert client.get(f"/chat/completions/{answer['id']}").status_code == 404
    assert client.get("/chat/completions").json()["data"] == []


def test_stored_completion_is_returned_exactly(client: httpx.Client) -> None:
    created = _store(client, "keep me", metadata={"a": "1"}, seed=9)
    got = client.get(f"/chat/completions/{created['id']}")
    assert got.status_code == 200
    assert got.json() == created


def test_every_answer_names_its_request(client: httpx.Client) -> None:
    created = client.post("/chat/completions", json={"messages": [{"content": "hi"}]})
    assert created.headers["x-request-id"] == created.json()["request_id"]
    missing = client.get("/chat/completions/chatcmpl-nope")
    assert missing.status_code == 404
    assert re.fullmatch(r"req_[0-9a-f]{24}", missing.headers["x-request-id"])
    assert missing.headers["x-request-id"] != created.headers["x-request-id"]


def test_completion_carries_its_question_for_lists(client: httpx.Client) -> None:
    """The chatspace addition ``question``: the last user message's text, in every list."""
    messages = [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "first question"},
        {"role": "assistant", "content": "an answer"},
        {"role": "user", "content": [{"type": "text", "text": "second"}, {"type": "filter"}]},
    ]
    created = client.post("/chat/completions", json={"messages": messages, "store": True}).json()
    assert created["question"] == "second"
    listed = client.get("/chat/completions").json()["data"]
    assert [c["question"] for c in listed] == ["second"]


def test_lists_page_by_created_then_id(client: httpx.Client) -> None:
    made = [_store(client, f"question {i}") for i in range(5)]
    expected = [c["id"] for c in sorted(made, key=lambda c: (c["created"], c["id"]))]

    def walk(order: str, limit: int) -> list[str]:
        seen: list[str] = []
        after = None
        while True:
            params: dict[str, Any] = {"limit": limit, "order": order}
            if after:
                params["after"] = after
            page = client.get("/chat/completions", params=params).json()
            ids = [c["id"] for c in page["data"]]
            assert page["object"] == "list"
            assert page["first_id"] == (ids[0] if ids else None)
            assert page["last_id"] == (ids[-1] if ids else None)
            seen += ids
            if not page["has_more"]:
                return seen
            after = page["last_id"]

    assert walk("asc", 2) == expected
    assert walk("desc", 2) == expected[::-1]
    assert walk("asc", 100) == expected
    full = client.get("/chat/completions").json()
    assert [c["id"] for c in full["data"]] == expected
    assert full["data"][0] == made[[c["id"] for c in made].index(expected[0])]


def test_after_the_last_is_empty_and_unknown_is_404(client: httpx.Client) -> None:
    one = _store(client, "only")
    last = client.get("/chat/completions", params={"after": one["id"]}).json()
    assert last == {
        "object": "list",
        "data": [],
        "first_id": None,
        "last_id": None,
        "has_more": False,
    }
    unknown = client.get("/chat/completions", params={"after": "chatcmpl-unknown"})
    assert unknown.status_code == 404
    assert unknown.json()["detail"] == "Chat completion 'chatcmpl-unknown' not found."


def test_model_and_metadata_filters(client: httpx.Client) -> None:
    a = _store(client, "one", metadata={"topic": "x", "lang": "de"})
    b = _store(client, "two", metadata={"topic": "x", "lang": "en"})
    _store(client, "three")

    def ids(params: Any) -> set[str]:
        return {c["id"] for c in client.get("/chat/completions", params=params).json()["data"]}

    assert len(ids({"model": "service-l0"})) == 3
    assert ids({"model": "no-such-model"}) == set()
    assert ids({"metadata[topic]": "x"}) == {a["id"], b["id"]}
    assert ids([("metadata[topic]", "x"), ("metadata[lang]", "en")]) == {b["id"]}
    assert ids({"metadata[topic]": "y"}) == set()
    assert ids({"metadata[topic]": "x", "model": "service-l0", "limit": 1}) <= {a["id"], b["id"]}


def test_metadata_keys_with_odd_characters_filter_exactly(client: httpx.Client) -> None:
    odd = {'we"ird.key[0]': "v 1", "$.path": "x"}
    one = _store(client, "odd", metadata=odd)
    _store(client, "plain", metadata={"weird": "v 1"})
    found = client.get("/chat/completions", params={'metadata[we"ird.key[0]]': "v 1"}).json()
    assert [c["id"] for c in found["data"]] == [one["id"]]
    found = client.get("/chat/completions", params={"metadata[$.path]": "x"}).json()
    assert [c["id"] for c in found["data"]] == [one["id"]]


def test_update_replaces_metadata_both_body_forms(client: httpx.Client) -> None:
    created = _store(client, "meta", metadata={"old": "1"})
    url = f"/chat/completions/{created['id']}"
    plain = client.post(url, json={"new": "2"})
    assert plain.status_code == 200
    assert plain.json() == {**created, "metadata": {"new": "2"}}
    wrapped = client.post(url, json={"metadata": {"wrapped": "3"}})
    assert wrapped.json()["metadata"] == {"wrapped": "3"}
    assert client.get(url).json()["metadata"] == {"wrapped": "3"}
    listed = client.get("/chat/completions", params={"metadata[wrapped]": "3"}).json()["data"]
    assert [c["id"] for c in listed] == [created["id"]]
    assert client.get("/chat/completions", params={"metadata[old]": "1"}).json()["data"] == []
    cleared = client.post(url, json={})
    assert cleared.json()["metadata"] == {}
    missing = client.post("/chat/completions/chatcmpl-nope", json={"a": "b"})
    assert missing.status_code == 404


def test_delete(client: httpx.Client) -> None:
    created = _store(client, "bye")
    url = f"/chat/completions/{created['id']}"
    deleted = client.delete(url)
    assert deleted.json() == {
        "id": created["id"],
        "object": "chat.completion.deleted",
        "deleted": True,
    }
    assert client.get(url).status_code == 404
    assert client.get(f"{url}/messages").status_code == 404
    assert client.delete(url).status_code == 404
    assert client.get("/chat/completions").json()["data"] == []


def test_messages_of_a_stored_completion(client: httpx.Client) -> None:
    parts = [
        {"type": "text", "text": "first line"},
        {"type": "filter", "top_k": 3},
        {"type": "text", "text": "second line"},
    ]
    body = {
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "developer", "content": "Cite.", "name": "dev"},
            {"role": "user", "content": parts},
        ],
        "store": True,
    }
    created = client.post("/chat/completions", json=body).json()
    cid = created["id"]
    page = client.get(f"/chat/completions/{cid}/messages").json()
    no_tools = {"tool_calls": None, "tool_call_id": None, "function_call": None}
    plain = {"name": None, "content_parts": None, **no_tools}
    assert page["data"] == [
        {"id": f"{cid}-0", "role": "system", "content": "Be brief.", **plain},
        {"id": f"{cid}-1", "role": "developer", "content": "Cite.", **plain, "name": "dev"},
        {
            "id": f"{cid}-2",
            "role": "user",
            "content": "first line\nsecond line",
            **plain,
            "content_parts": parts,
        },
        {
            "id": f"{cid}-3",
            "role": "assistant",
            "content": created["choices"][0]["message"]["content"],
            **plain,
        },
    ]
    assert (page["first_id"], page["last_id"], page["has_more"]) == (f"{cid}-0", f"{cid}-3", False)

    first = client.get(f"/chat/completions/{cid}/messages", params={"limit": 3}).json()
    assert [m["id"] for m in first["data"]] == [f"{cid}-0", f"{cid}-1", f"{cid}-2"]
    assert first["has_more"] is True
    rest = client.get(
        f"/chat/completions/{cid}/messages", params={"after": first["last_id"]}
    ).json()
    assert [m["id"] for m in rest["data"]] == [f"{cid}-3"]
    assert rest["has_more"] is False
    desc = client.get(
        f"/chat/completions/{cid}/messages", params={"order": "desc", "after": f"{cid}-2"}
    ).json()
    assert [m["id"] for m in desc["data"]] == [f"{cid}-1", f"{cid}-0"]
    end = client.get(f"/chat/completions/{cid}/messages", params={"after": f"{cid}-3"}).json()
    assert end["data"] == []
    for bad in (f"{cid}-9", "chatcmpl-other-1", "nonsense"):
        response = client.get(f"/chat/completions/{cid}/messages", params={"after": bad})
        assert response.status_code == 404


def test_completions_are_kept_per_workspace(client: httpx.Client) -> None:
    assert client.post("/workspaces", json={"id": "team", "name": "Team"}).status_code == 200
    here = _store(client, "default one")
    there = _store(client, "team one", workspace="team")
    assert [c["id"] for c in client.get("/chat/completions").json()["data"]] == [here["id"]]
    team = client.get("/chat/completions", params={"workspace": "team"}).json()["data"]
    assert [c["id"] for c in team] == [there["id"]]
    assert client.get(f"/chat/completions/{there['id']}").status_code == 404
    ok = client.get(f"/chat/completions/{there['id']}", params={"workspace": "team"})
    assert ok.json() == there


def test_access_levels(service: Service, org: str) -> None:
    with (
        client_for(service, org, "alice") as alice,
        client_for(service, org, "bob") as bob,
        client_for(service, org, "carol") as carol,
        client_for(service, "another-org", "alice") as stranger,
    ):
        assert alice.post("/workspaces", json={"id": "lab", "name": "Lab"}).status_code == 200
        added = alice.post("/workspaces/lab/user", json={"user": "bob", "access": "reader"})
        assert added.status_code == 200
        kept = _store(alice, "lab notes", workspace="lab")
        url = f"/chat/completions/{kept['id']}"
        lab = {"workspace": "lab"}

        assert bob.get("/chat/completions", params=lab).json()["data"][0]["id"] == kept["id"]
        assert bob.get(url, params=lab).json() == kept
        assert bob.get(f"{url}/messages", params=lab).status_code == 200
        for response in (
            bob.post(
                "/chat/completions", json={"messages": [{"content": "x"}], "workspace": "lab"}
            ),
            bob.post(url, params=lab, json={"a": "b"}),
            bob.delete(url, params=lab),
        ):
            assert response.status_code == 403
            assert "writer" in response.json()["detail"]

        for who in (carol, stranger):
            for response in (
                who.post(
                    "/chat/completions", json={"messages": [{"content": "x"}], "workspace": "lab"}
                ),
                who.get("/chat/completions", params=lab),
                who.get(url, params=lab),
                who.get(f"{url}/messages", params=lab),
                who.post(url, params=lab, json={"a": "b"}),
                who.delete(url, params=lab),
            ):
                assert response.status_code == 404
                assert response.json()["detail"] == "Workspace 'lab' not found."
            assert who.get(url).status_code == 404
        assert alice.get(url, params=lab).json() == kept


def test_models_lists_the_local_engine(client: httpx.Client) -> None:
    models = client.get("/models").json()
    assert {"id": "service-l0", "object": "model", "created": 0, "owned_by": "chatspace"} in models[
        "data"
    ]
