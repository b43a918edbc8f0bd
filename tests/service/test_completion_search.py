"""``GET /chat/completions?search=`` over real HTTP (SQLite, or PostgreSQL with ``--engine
postgres``): every word, any order and case, paging, punctuation taken literally, bad
input; and the migration that indexes the completions stored before it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from chatspace.service.store import completions as store
from chatspace.service.store.db import open_database
from chatspace.service.store.migrations import MIGRATIONS, m009_completion_search, migrate
from support.chat import ask, client_for, upload
from support.service import Service


@pytest.fixture
def client(service: Service, org: str) -> Iterator[httpx.Client]:
    with client_for(service, org) as c:
        yield c


def _store(client: httpx.Client, text: str, **params: Any) -> str:
    return str(ask(client, text, store=True, **params)["id"])


def _page(client: httpx.Client, search: str, **params: Any) -> list[str]:
    """The ids of one page of the search, in the list's order."""
    response = client.get("/chat/completions", params={"search": search, **params})
    assert response.status_code == 200, response.text
    return [c["id"] for c in response.json()["data"]]


def _found(client: httpx.Client, search: str, **params: Any) -> set[str]:
    """What the search finds (completions made in one second are ordered by id)."""
    return set(_page(client, search, **params))


def test_every_word_in_any_order_and_case(client: httpx.Client) -> None:
    budget = _store(client, "What was the Marketing budget in 2024?")
    travel = _store(client, "What was the travel budget?")
    _store(client, "Who runs marketing?")
    assert _found(client, "budget") == {budget, travel}
    assert _found(client, "2024 BUDGET marketing") == {budget}
    assert _found(client, "budget marketing zebra") == set()
    # words, not parts of words; "the" and a number are words like any other
    assert _found(client, "budg") == set()
    assert _found(client, "the 2024") == {budget}
    # accents aside, on both engines
    cafe = _store(client, "Le café de la Gare")
    assert _found(client, "CAFE gare") == {cafe}


def test_the_answer_is_searched_too(client: httpx.Client) -> None:
    upload(client, [("fees.txt", "The annual fee is 95 euros, payable in March.")])
    asked = ask(client, "What is the annual fee?", store=True)
    assert "95 euros" in asked["choices"][0]["message"]["content"]
    other = _store(client, "Who chairs the board?")
    # "what" from the question, "95", "euros" and "March" only in the answer
    assert _found(client, "what 95 euros march") == {asked["id"]}
    assert _found(client, "chairs march") == set()
    assert other in _found(client, "chairs")


def test_search_pages_with_the_other_parameters(client: httpx.Client) -> None:
    made = [_store(client, f"report number {i}") for i in range(5)]
    _store(client, "something else entirely")
    tagged = _store(client, "report with a tag", metadata={"team": "bi"})
    everything = _page(client, "report", order="asc", limit=100)
    assert set(everything) == {tagged, *made}
    assert _page(client, "report", order="desc", limit=100) == everything[::-1]
    pages: list[str] = []
    after = None
    while True:
        params: dict[str, Any] = {"search": "REPORT", "limit": 2, "order": "asc"}
        if after:
            params["after"] = after
        body = client.get("/chat/completions", params=params).json()
        pages.extend(c["id"] for c in body["data"])
        if not body["has_more"]:
            break
        after = body["last_id"]
    assert pages == everything
    assert _found(client, "report", **{"metadata[team]": "bi"}) == {tagged}
    assert _found(client, "report", model="service-l0") == {*made, tagged}
    assert _found(client, "report", model="other") == set()
    assert client.post("/workspaces", json={"id": "other", "name": "O"}).status_code == 200
    other = _store(client, "report elsewhere", workspace="other")
    assert _found(client, "report", workspace="other") == {other}


@pytest.mark.parametrize(
    "search",
    [
        '"fee',
        "fee*",
        "NEAR(fee rent)",
        "fee -rent",
        "rent:fee",
        "fee AND NOT rent",
        "fee OR",
        "(fee",
        "fee & | ! <-> :* '",
        "^fee {near} [rent] \\ %_ \x00",
    ],
)
def test_fts_syntax_is_taken_literally(client: httpx.Client, search: str) -> None:
    """Operators of FTS5 and tsquery are punctuation or words here, never syntax: each of
    these finds the completion holding all its words ("-rent" is the word "rent")."""
    fee = _store(client, "the fee, near the rent; and or not")
    _store(client, "the rent alone")
    assert _found(client, search) == {fee}


@pytest.mark.parametrize(
    "search",
    ["٣ ² ǅ ﬁ 𝔘 ᾈ", "e\u0301t\u00e9", "हिंदी", "日本語の検索", "'quoted' \\ word", "a" * 2000],
)
def test_odd_words_find_their_completion_on_both_engines(client: httpx.Client, search: str) -> None:
    kept = _store(client, f"kept: {search}")
    assert _page(client, search) == [kept]


def test_odd_characters_are_answered_never_a_500(client: httpx.Client) -> None:
    """Private-use and unassigned characters are not letters to the service (FTS5 keeps
    them in words, so what is found may differ by engine), but never an error."""
    _store(client, "x\ufdd0y \U0010fffd")
    for search in ("x\ufdd0y", "\U0010fffd z", "a" * 3000):
        response = client.get("/chat/completions", params={"search": search})
        assert response.status_code in (200, 422), response.text


def test_operator_words_are_plain_words(client: httpx.Client) -> None:
    plain = _store(client, "fee and rent")
    assert _found(client, "fee NOT rent") == set()  # "not" is a word it lacks
    assert _found(client, "fee AND rent") == {plain}
    assert _found(client, "fee OR zebra") == set()  # every word, "or" and "zebra" included


def test_deleting_a_completion_removes_it_from_search(client: httpx.Client) -> None:
    gone = _store(client, "ephemeral walrus note")
    kept = _store(client, "lasting walrus note")
    assert _found(client, "walrus") == {gone, kept}
    assert client.delete(f"/chat/completions/{gone}").status_code == 200
    assert _found(client, "walrus") == {kept}
    assert _found(client, "ephemeral") == set()


def test_deleting_a_workspace_removes_its_completions_from_search(client: httpx.Client) -> None:
    assert client.post("/workspaces", json={"id": "lab", "name": "Lab"}).status_code == 200
    _store(client, "lab otter", workspace="lab")
    assert client.delete("/workspaces/lab").status_code == 200
    assert client.post("/workspaces", json={"id": "lab", "name": "Lab"}).status_code == 200
    assert _found(client, "otter", workspace="lab") == set()


@pytest.mark.parametrize(
    ("search", "message"),
    [
        ("", "at least 1 character"),
        ("x" * 4001, "at most 4000 characters"),
        ("*** -- ::", "no word to find"),
    ],
)
def test_bad_searches_are_a_422_naming_the_parameter(
    client: httpx.Client, search: str, message: str
) -> None:
    response = client.get("/chat/completions", params={"search": search})
    assert response.status_code == 422, response.text
    [item] = response.json()["detail"]
    assert item["loc"] == ["query", "search"]
    assert message in item["msg"]


def test_the_longest_search_works(client: httpx.Client) -> None:
    words = " ".join(f"w{i}" for i in range(1333))[:4000]
    assert len(words) == 4000
    assert _found(client, words) == set()


def test_a_question_over_the_indexed_length_is_stored_and_found(client: httpx.Client) -> None:
    long = _store(client, "tapir " + "word " * 30_000 + "okapi")
    assert _found(client, "tapir") == {long}
    assert _found(client, "okapi") == set()  # past the 100,000 characters indexed


# ---------------------------------------------------------------- the migration


def test_the_migration_indexes_completions_stored_before_it(database_url: str) -> None:
    """A database as the release before left it, with completions (one whose body has no
    ``question``, as stored before that field, one with a NUL), gains the index."""
    before = MIGRATIONS[: MIGRATIONS.index(m009_completion_search)]
    older = sa.create_engine(database_url)
    try:
        migrate(older, before)
        with older.begin() as conn:
            for cid, created, question, answer in [
                ("c-1", 1, "Where is the Lyon office?", "In the Part-Dieu tower."),
                ("c-2", 2, None, "Forty\x00two desks."),
            ]:
                body: dict[str, Any] = {
                    "id": cid,
                    "object": "chat.completion",
                    "created": created,
                    "model": "service-l0",
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": answer},
                            "finish_reason": "stop",
                        }
                    ],
                }
                if question is not None:
                    body["question"] = question
                conn.execute(
                    sa.text(
                        "INSERT INTO completions (id, org_id, workspace_id, user_id, model, "
                        "created, metadata, body) VALUES (:id, 'o', 'default', 'u', "
                        "'service-l0', :created, '{}', :body)"
                    ),
                    {"id": cid, "created": created, "body": json.dumps(body)},
                )
                conn.execute(
                    sa.text(
                        "INSERT INTO completion_messages (completion_id, idx, role, content) "
                        "VALUES (:id, 0, 'user', :q), (:id, 1, 'assistant', :a)"
                    ),
                    {"id": cid, "q": question or "How many desks in Paris?", "a": "kept"},
                )
    finally:
        older.dispose()
    engine = open_database(database_url)  # applies m008 (and any later migration)
    try:
        with engine.connect() as conn:

            def found(*words: str) -> list[str]:
                page = store.list_completions(
                    conn, org_id="o", workspace_id="default", limit=10, search=" ".join(words)
                )
                return [c.id for c in page.data]

            assert found("lyon", "office") == ["c-1"]
            assert found("part", "dieu", "tower") == ["c-1"]
            assert found("paris", "desks") == ["c-2"]  # the question from its messages
            assert found("forty", "two") == ["c-2"]
            assert found("lyon", "paris") == []
    finally:
        engine.dispose()
