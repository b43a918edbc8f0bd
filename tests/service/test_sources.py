"""A stored completion's sources (docs/interface.md#sources): the passages
retrieved for it, in rank order, as ``GET /chat/completions/{id}/sources`` lists them,
over HTTP on the session's service (SQLite, or PostgreSQL with ``--engine postgres``);
what the database keeps of a deleted file, on a migrated database of the run's engine.
Sources of an upstream model: tests/service/test_upstream.py."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from chatspace.service.store import completions, files, schema, workspaces
from chatspace.service.store.db import open_database
from chatspace.types import (
    ChatCompletion,
    ChatCompletionChoice,
    ChatCompletionMessage,
    ChatMessage,
    CompletionUsage,
    Source,
)
from support.chat import ask, assemble, stream, upload
from support.rows import add_file_row

DESERT = "The Sahara is the largest hot desert. It covers most of North Africa."
COPY = DESERT  # the same text in a second file: service-l0 quotes it once
POLAR = "Antarctica is the largest cold desert, and the windiest continent."
QUESTION = "Which is the largest desert?"


def _sources(client: httpx.Client, completion_id: str, **params: str) -> list[dict[str, Any]]:
    response = client.get(f"/chat/completions/{completion_id}/sources", params=params)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["object"] == "list"
    return list(body["data"])


def _citations(completion: dict[str, Any]) -> list[tuple[str, str]]:
    notes = completion["choices"][0]["message"]["annotations"]
    return [(n["file_citation"]["file_id"], n["file_citation"]["quote"]) for n in notes]


@pytest.fixture
def desert_files(alice: httpx.Client) -> dict[str, str]:
    """Three files: two hold the same sentence, one another desert; name -> id."""
    uploaded = upload(alice, [("sahara.txt", DESERT), ("copy.txt", COPY), ("polar.txt", POLAR)])
    return {f["filename"]: f["id"] for f in uploaded}


def test_service_l0_sources_follow_its_retrieval_and_citations(
    alice: httpx.Client, desert_files: dict[str, str]
) -> None:
    completion = ask(alice, QUESTION, store=True)
    assert completion["sources"] == 3
    rows = _sources(alice, completion["id"])
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert {r["file_id"] for r in rows} == set(desert_files.values())
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert all(0 < s <= 1 for s in scores)
    assert all(r["scores"]["lexical"] is not None for r in rows)
    assert all(r["sent"] for r in rows), "service-l0 answers from every retrieved passage"
    # the answer quotes the shared sentence once: one of its two files is left uncited
    cited = [(r["file_id"], r["quote"]) for r in rows if r["cited"]]
    assert cited == _citations(completion)
    [uncited] = [r for r in rows if not r["cited"]]
    assert uncited["file_id"] in {desert_files["sahara.txt"], desert_files["copy.txt"]}
    assert (
        uncited["quote"] == "The Sahara is the largest hot desert. It covers most of North Africa."
    )
    assert all(r["deleted"] is False and r["filename"] for r in rows)
    # read back, the completion says how many sources it keeps; the list too
    assert alice.get(f"/chat/completions/{completion['id']}").json()["sources"] == 3
    [listed] = alice.get("/chat/completions").json()["data"]
    assert listed["sources"] == 3


def test_a_streamed_stored_completion_keeps_the_same_sources(
    alice: httpx.Client, desert_files: dict[str, str]
) -> None:
    plain = ask(alice, QUESTION, store=True)
    _, events = stream(alice, {"messages": [{"content": QUESTION}], "store": True})
    streamed = assemble(events)
    assert _citations(streamed) == _citations(plain)
    assert _sources(alice, streamed["id"]) == _sources(alice, plain["id"])
    assert alice.get(f"/chat/completions/{streamed['id']}").json()["sources"] == 3


def test_without_passages_a_completion_has_no_sources(alice: httpx.Client) -> None:
    completion = ask(alice, QUESTION, store=True)
    assert completion["sources"] == 0
    assert _sources(alice, completion["id"]) == []
    assert ask(alice, QUESTION)["sources"] is None, "not stored: no sources kept"


def test_deleting_a_file_leaves_a_deleted_row_without_its_text(
    alice: httpx.Client, desert_files: dict[str, str]
) -> None:
    completion = ask(alice, QUESTION, store=True)
    before = {r["file_id"]: r for r in _sources(alice, completion["id"])}
    polar = desert_files["polar.txt"]
    assert alice.delete(f"/files/{polar}").status_code == 200
    after = {r["file_id"]: r for r in _sources(alice, completion["id"])}
    assert after[polar] == {
        **before[polar],
        "filename": None,
        "quote": None,
        "location": None,
        "deleted": True,
    }
    assert {k: v for k, v in after.items() if k != polar} == {
        k: v for k, v in before.items() if k != polar
    }


def test_deleting_a_completion_deletes_its_sources(
    alice: httpx.Client, desert_files: dict[str, str]
) -> None:
    completion = ask(alice, QUESTION, store=True)
    assert alice.delete(f"/chat/completions/{completion['id']}").status_code == 200
    gone = alice.get(f"/chat/completions/{completion['id']}/sources")
    assert gone.status_code == 404
    assert gone.json()["detail"] == f"Chat completion '{completion['id']}' not found."


def test_sources_are_read_as_the_completion_is(
    alice: httpx.Client, client_of: Callable[[str], httpx.Client]
) -> None:
    """404 for an unknown or unstored completion, another workspace's, and for a caller
    who is not a member of the workspace; a reader reads them."""
    assert alice.post("/workspaces", json={"id": "team", "name": "Team"}).status_code == 200
    upload(alice, [("sahara.txt", DESERT)], workspace="team")
    stored = ask(alice, QUESTION, store=True, workspace="team")["id"]
    unstored = ask(alice, QUESTION, workspace="team")["id"]
    for completion_id, workspace in (
        ("chatcmpl-nope", "team"),
        (unstored, "team"),
        (stored, "default"),
    ):
        response = alice.get(
            f"/chat/completions/{completion_id}/sources", params={"workspace": workspace}
        )
        assert response.status_code == 404, (completion_id, workspace)
        assert response.json()["detail"] == f"Chat completion '{completion_id}' not found."
    bob = client_of("bob")
    outside = bob.get(f"/chat/completions/{stored}/sources", params={"workspace": "team"})
    assert outside.status_code == 404
    assert outside.json()["detail"] == "Workspace 'team' not found."
    member = {"user": "bob", "access": "reader"}
    assert alice.post("/workspaces/team/user", json=member).status_code == 200
    [row] = _sources(bob, stored, workspace="team")
    assert (row["filename"], row["cited"]) == ("sahara.txt", True)


# ---------------------------------------------------------------- in the database


@pytest.fixture
def db(database_url: str) -> Iterator[sa.Engine]:
    engine = open_database(database_url)
    yield engine
    engine.dispose()


def _store(conn: sa.Connection, cid: str, workspace: str, file_ids: list[str]) -> None:
    answer = ChatCompletionMessage(role="assistant", content="an answer")
    completion = ChatCompletion(
        id=cid,
        created=1,
        model="service-l0",
        choices=[ChatCompletionChoice(index=0, message=answer, finish_reason="stop")],
        usage=CompletionUsage(prompt_tokens=1, completion_tokens=1, total_tokens=2),
    )
    sources = [
        Source(rank=i, file_id=f, filename=f"{f}.txt", quote=f"quote of {f}", score=0.5)
        for i, f in enumerate(file_ids, 1)
    ]
    completions.insert_completion(
        conn,
        org_id="o",
        workspace_id=workspace,
        user_id="u",
        completion=completion,
        messages=[ChatMessage(content="a question")],
        sources=sources,
    )


def _rows(conn: sa.Connection) -> list[tuple[Any, ...]]:
    """(completion, file id, filename, quote) of every stored source, from the JSON
    text as the database holds it."""
    c = schema.completions.c
    query = sa.select(c.id, sa.cast(c.sources, sa.Text)).order_by(c.id)
    return [
        (cid, s["file_id"], s["filename"], s["quote"])
        for cid, text in conn.execute(query)
        for s in json.loads(text)
    ]


def test_the_database_keeps_nothing_of_a_deleted_file(db: sa.Engine) -> None:
    """Deleted and expired files alike; deleting a completion, or its workspace, deletes
    its rows."""
    with db.begin() as conn:
        workspaces.create_workspace(conn, org_id="o", workspace_id="ws", name="ws", user_id="u")
        for file_id in ("f-1", "f-2", "f-3"):
            add_file_row(conn, file_id=file_id, org_id="o")
        add_file_row(conn, file_id="f-9", org_id="o", workspace_id="ws")
        _store(conn, "c-1", "default", ["f-1", "f-2", "f-3"])
        _store(conn, "c-2", "default", ["f-2"])
        _store(conn, "c-9", "ws", ["f-9"])
        conn.execute(schema.files.update().where(schema.files.c.id == "f-3").values(expires_at=5))
    with db.begin() as conn:
        files.delete_file(conn, org_id="o", workspace_id="default", file_id="f-2", now=1)
        files.purge_expired(conn, workspace=("o", "default"), now=10)
    with db.connect() as conn:
        assert _rows(conn) == [
            ("c-1", "f-1", "f-1.txt", "quote of f-1"),
            ("c-1", "f-2", None, None),
            ("c-1", "f-3", None, None),
            ("c-2", "f-2", None, None),
            ("c-9", "f-9", "f-9.txt", "quote of f-9"),
        ]
        raw = " ".join(
            conn.execute(sa.select(sa.cast(schema.completions.c.sources, sa.Text))).scalars()
        )
        for kept in ("quote of f-2", "f-2.txt", "quote of f-3", "f-3.txt"):
            assert kept not in raw
    with db.begin() as conn:
        completions.delete_completion(conn, org_id="o", workspace_id="default", completion_id="c-1")
        workspaces.delete_workspace(conn, org_id="o", workspace_id="ws")
    with db.connect() as conn:
        assert _rows(conn) == [("c-2", "f-2", None, None)]
