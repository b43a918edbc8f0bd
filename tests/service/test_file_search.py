"""``POST /files/search`` (docs/interface.md#search-without-asking): over real HTTP, the
passages a completion with the same question and filter part retrieves, in its order."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.chat import ask, client_for, upload
from support.service import new_org, start_service

FILES = [
    (
        "contract.txt",
        "The Acme contract starts in March.\n\nThe annual fee is 12,000 euros, paid in "
        "January. Late payment adds a fee of 2 percent.",
    ),
    ("pricing.txt", "Our fee schedule: the setup fee is 500 euros. Support is free."),
    ("travel.txt", "Trains to Lyon leave every hour. The annual pass costs 900 euros."),
    ("garden.txt", "Tomatoes need sun and water. Basil grows well beside them."),
    ("notes.md", "# Notes\n\nThe team met on Tuesday to plan the annual review."),
]
QUESTION = "What is the annual fee?"


@pytest.fixture
def files(alice: httpx.Client) -> list[dict[str, Any]]:
    found = upload(alice, FILES[:3], metadata={"kind": "money"})
    return found + upload(alice, FILES[3:], metadata={"kind": "other"})


def _search(client: httpx.Client, **body: Any) -> httpx.Response:
    return client.post("/files/search", json={"query": QUESTION, **body})


def _cited_by_completion(client: httpx.Client, **part: Any) -> list[tuple[str, str]]:
    """The (file id, quote) of each passage a completion with this filter part cites."""
    content: Any = QUESTION
    if part:
        content = [{"type": "text", "text": QUESTION}, {"type": "filter", **part}]
    answer = ask(client, content)
    notes = answer["choices"][0]["message"]["annotations"]
    return [(n["file_citation"]["file_id"], n["file_citation"]["quote"]) for n in notes]


@pytest.mark.parametrize(
    "part",
    [
        {},
        {"top_k": 2},
        {"top_k": 3, "relevance": 0},
        {"top_k": 10, "relevance": 0.2},
        {"filter": '{"kind": "money"}', "top_k": 4},
    ],
    ids=["default", "top-2", "no-cut", "low-cut", "filtered"],
)
def test_cited_hits_are_what_a_completion_cites(
    alice: httpx.Client, files: list[dict[str, Any]], part: dict[str, Any]
) -> None:
    expected = _cited_by_completion(alice, **part)
    assert expected  # the question has an answer in the files
    body = {"top_k": 5, **part}  # a completion's default top_k is 5
    response = _search(alice, **body)
    assert response.status_code == 200, response.text
    found = response.json()
    assert (found["object"], found["query"]) == ("list", QUESTION)
    hits = found["data"]
    cited = [(h["file_id"], h["quote"]) for h in hits if h["cited"]]
    assert cited == expected
    # the cited hits come first; those that follow miss the cut, within top_k
    flags = [h["cited"] for h in hits]
    assert flags == sorted(flags, reverse=True)
    assert len(hits) <= body["top_k"]
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True)


def test_without_vectors_the_search_still_is_the_completions(tmp_path: Path) -> None:
    """Full text alone, where relevance 0 ranks by bm25 without computing relevance (a
    completion does the same): the hits are still the completion's, scored 1."""
    plain = start_service(tmp_path / "plain", "--embeddings", "off")
    try:
        with client_for(plain, new_org()) as client:
            upload(client, FILES)
            for part in ({}, {"relevance": 0}, {"top_k": 2}):
                expected = _cited_by_completion(client, **part)
                hits = _search(client, **{"top_k": 5, **part}).json()["data"]
                assert [(h["file_id"], h["quote"]) for h in hits if h["cited"]] == expected
                assert all(h["scores"]["dense"] is None for h in hits)
            loose = _search(client, relevance=0).json()["data"]
            assert loose
            assert {h["score"] for h in loose} == {1.0}
            assert {h["scores"]["lexical"] for h in loose} == {None}
    finally:
        plain.stop()


def test_a_hit_says_what_and_why(alice: httpx.Client, files: list[dict[str, Any]]) -> None:
    hits = _search(alice, top_k=1).json()["data"]
    ids = {f["filename"]: f["id"] for f in files}
    assert len(hits) == 1
    (hit,) = hits
    assert (hit["file_id"], hit["filename"]) == (ids["contract.txt"], "contract.txt")
    # the fee's sentence; the next one ("Late payment adds a fee ...") is another fact
    assert hit["quote"] == "The annual fee is 12,000 euros, paid in January."
    assert hit["quote"] in hit["text"]
    assert hit["cited"] is True
    assert 0 < hit["score"] <= 1
    assert set(hit["scores"]) == {"lexical", "dense"}
    assert hit["scores"]["lexical"] == 1.0  # "annual" and "fee" both in the passage
    assert hit["location"] == {"line": 3}  # the fee sentence, after a blank line


def test_below_the_cut_hits_follow_uncited(
    alice: httpx.Client, files: list[dict[str, Any]]
) -> None:
    loose = _search(alice, top_k=5, relevance=0).json()["data"]
    assert len(loose) >= 3
    assert all(h["cited"] for h in loose)
    assert loose[0]["filename"] == "contract.txt"
    cut = (loose[0]["score"] + loose[1]["score"]) / 2
    strict = _search(alice, top_k=5, relevance=cut).json()["data"]
    assert [h["cited"] for h in strict] == [True] + [False] * (len(loose) - 1)
    # the same passages in the same order: the cut only says which would be cited
    assert [h["text"] for h in strict] == [h["text"] for h in loose]
    assert [(h["file_id"], h["quote"]) for h in strict[:1]] == _cited_by_completion(
        alice, top_k=5, relevance=cut
    )


def test_a_question_no_file_answers_cites_nothing(
    alice: httpx.Client, files: list[dict[str, Any]]
) -> None:
    hits = alice.post("/files/search", json={"query": "Who won the Zanzibar regatta?"})
    assert hits.status_code == 200
    assert not any(h["cited"] for h in hits.json()["data"])


def test_filter_as_object_or_string_and_file_ids(
    alice: httpx.Client, files: list[dict[str, Any]]
) -> None:
    as_object = _search(alice, filter={"kind": "other"}, relevance=0).json()["data"]
    as_string = _search(alice, filter=json.dumps({"kind": "other"}), relevance=0).json()["data"]
    assert as_object == as_string
    typed = {"type": "nin", "key": "kind", "value": ["money", "travel"]}
    assert _search(alice, filter=typed, relevance=0).json()["data"] == as_object
    assert {h["filename"] for h in as_object} == {"garden.txt", "notes.md"}
    assert as_object[0]["filename"] == "notes.md"  # "annual" is only there
    travel = next(f["id"] for f in files if f["filename"] == "travel.txt")
    only = _search(alice, file_ids=[travel], relevance=0).json()["data"]
    assert [h["file_id"] for h in only] == [travel]


def test_an_empty_workspace_has_no_hits(alice: httpx.Client) -> None:
    response = _search(alice)
    assert response.status_code == 200
    assert response.json() == {"object": "list", "query": QUESTION, "data": []}


@pytest.mark.parametrize(
    ("body", "loc", "kind"),
    [
        ({"query": ""}, ["body", "query"], "string_too_short"),
        ({"query": "x" * 4001}, ["body", "query"], "string_too_long"),
        ({"query": "fee", "top_k": 0}, ["body", "top_k"], "greater_than_equal"),
        ({"query": "fee", "top_k": 51}, ["body", "top_k"], "less_than_equal"),
        ({"query": "fee", "relevance": -1}, ["body", "relevance"], "greater_than_equal"),
        ({"query": "fee", "relevance": 1.5}, ["body", "relevance"], "less_than_equal"),
        ({"query": "fee", "filter": "[1]"}, ["body", "filter"], "dict_type"),
        ({"query": "fee", "filter": "{nope"}, ["body", "filter"], "json_invalid"),
        ({"query": "fee", "filter": [1]}, ["body", "filter"], "dict_type"),
        ({"query": "fee", "filter": 3}, ["body", "filter"], "dict_type"),
        (
            {"query": "fee", "filter": {"type": "or", "filters": [{"type": "gte", "key": "y"}]}},
            ["body", "filter", "filters", 0, "value"],
            "missing",
        ),
        ({"query": "fee", "file_ids": "x"}, ["body", "file_ids"], "list_type"),
        (
            {"query": "fee", "workspace": "Not Valid"},
            ["body", "workspace"],
            "string_pattern_mismatch",
        ),
        ({"query": "fee", "colour": "red"}, ["body", "colour"], "extra_forbidden"),
        ({}, ["body", "query"], "missing"),
    ],
)
def test_bad_fields_are_422_naming_them(
    alice: httpx.Client, body: dict[str, Any], loc: list[Any], kind: str
) -> None:
    response = alice.post("/files/search", json=body)
    assert response.status_code == 422, response.text
    items = response.json()["detail"]
    assert [(i["loc"], i["type"]) for i in items] == [(loc, kind)]


def test_a_file_of_another_workspace_is_422_naming_it(
    alice: httpx.Client, files: list[dict[str, Any]]
) -> None:
    assert alice.post("/workspaces", json={"id": "other", "name": "Other"}).status_code == 200
    elsewhere = upload(alice, [("x.txt", "annual fee elsewhere")], workspace="other")[0]["id"]
    mine = files[0]["id"]
    response = _search(alice, file_ids=[mine, elsewhere])
    assert response.status_code == 422
    msg = f"file '{elsewhere}' is not a file of workspace 'default'"
    assert response.json() == {
        "detail": [{"loc": ["body", "file_ids", 1], "msg": msg, "type": "value_error"}],
        "error": {
            "message": f"file_ids.1: {msg}",
            "type": "invalid_request_error",
            "code": "value_error",
        },
    }


def test_access(client_of: Callable[[str], httpx.Client]) -> None:
    admin, reader, stranger = (client_of(u) for u in ("ann", "rita", "sam"))
    assert admin.post("/workspaces", json={"id": "team", "name": "Team"}).status_code == 200
    body = {"user": "rita", "access": "reader"}
    assert admin.post("/workspaces/team/user", json=body).status_code == 200
    upload(admin, FILES[:1], workspace="team")
    seen = reader.post("/files/search", json={"query": QUESTION, "workspace": "team"})
    assert seen.status_code == 200
    assert [h["filename"] for h in seen.json()["data"]] == ["contract.txt"]
    hidden = stranger.post("/files/search", json={"query": QUESTION, "workspace": "team"})
    assert hidden.status_code == 404
    unknown = admin.post("/files/search", json={"query": QUESTION, "workspace": "nowhere"})
    assert unknown.status_code == 404
    assert "nowhere" in unknown.json()["error"]["message"]
