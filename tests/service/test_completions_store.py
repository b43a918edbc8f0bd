"""The completions store on a real migrated database (SQLite, or PostgreSQL with
``--engine postgres``): what HTTP tests cannot arrange, like many completions created in
the same second."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from chatspace.service.problems import NotFound
from chatspace.service.store import completions as store
from chatspace.service.store.db import open_database
from chatspace.types import (
    ChatCompletion,
    ChatCompletionChoice,
    ChatCompletionMessage,
    ChatMessage,
    CompletionUsage,
)

ORG, WS = "org-1", "default"


@pytest.fixture
def db(database_url: str) -> Iterator[sa.Engine]:
    engine = open_database(database_url)
    yield engine
    engine.dispose()


def _completion(
    cid: str, created: int, *, model: str = "service-l0", **meta: str
) -> ChatCompletion:
    return ChatCompletion(
        id=cid,
        created=created,
        model=model,
        choices=[
            ChatCompletionChoice(
                index=0,
                message=ChatCompletionMessage(role="assistant", content=f"answer {cid}"),
                finish_reason="stop",
            )
        ],
        usage=CompletionUsage(prompt_tokens=1, completion_tokens=2, total_tokens=3),
        metadata=dict(meta) or None,
    )


def _insert(db: sa.Engine, completion: ChatCompletion, workspace: str = WS) -> None:
    with db.begin() as conn:
        store.insert_completion(
            conn,
            org_id=ORG,
            workspace_id=workspace,
            user_id="alice",
            completion=completion,
            messages=[ChatMessage(content=f"question {completion.id}")],
        )


def _ids(db: sa.Engine, **kw: object) -> tuple[list[str], bool]:
    with db.connect() as conn:
        page = store.list_completions(conn, org_id=ORG, workspace_id=WS, **kw)  # type: ignore[arg-type]
    return [c.id for c in page.data], page.has_more


def test_ties_in_created_page_stably_by_id(db: sa.Engine) -> None:
    ids = ["c-b", "c-d", "c-a", "c-e", "c-c"]
    for cid in ids:
        _insert(db, _completion(cid, created=1000))
    _insert(db, _completion("c-0", created=999))
    _insert(db, _completion("c-z", created=1001))
    expected = ["c-0", "c-a", "c-b", "c-c", "c-d", "c-e", "c-z"]
    assert _ids(db, limit=100) == (expected, False)
    assert _ids(db, limit=100, order="desc") == (expected[::-1], False)
    pages, after = [], None
    while True:
        page, more = _ids(db, limit=2, after=after)
        pages += page
        if not more:
            break
        after = page[-1]
    assert pages == expected
    assert _ids(db, limit=2, after="c-b", order="desc") == (["c-a", "c-0"], False)
    assert _ids(db, limit=3, after="c-c") == (["c-d", "c-e", "c-z"], False)


def test_round_trip_is_exact(db: sa.Engine) -> None:
    original = _completion("c-1", created=5, topic="x")
    _insert(db, original)
    with db.connect() as conn:
        got = store.get_completion(conn, org_id=ORG, workspace_id=WS, completion_id="c-1")
    assert got.model_dump() == original.model_dump()


def test_scoped_by_org_and_workspace(db: sa.Engine) -> None:
    _insert(db, _completion("c-1", created=5), workspace="other")
    with db.connect() as conn:
        with pytest.raises(NotFound):
            store.get_completion(conn, org_id=ORG, workspace_id=WS, completion_id="c-1")
        with pytest.raises(NotFound):
            store.get_completion(conn, org_id="org-2", workspace_id="other", completion_id="c-1")
        with pytest.raises(NotFound):
            store.list_completions(conn, org_id=ORG, workspace_id=WS, limit=5, after="c-1")


def test_metadata_filter_uses_exact_string_equality(db: sa.Engine) -> None:
    _insert(db, _completion("c-1", created=1, n="1", k="a"))
    _insert(db, _completion("c-2", created=2, n="01", k="a"))
    _insert(db, _completion("c-3", created=3))
    assert _ids(db, limit=10, metadata={"n": "1"}) == (["c-1"], False)
    assert _ids(db, limit=10, metadata={"k": "a"}) == (["c-1", "c-2"], False)
    assert _ids(db, limit=10, metadata={"k": "a", "n": "01"}) == (["c-2"], False)
    assert _ids(db, limit=10, metadata={"missing": ""}) == ([], False)
    assert _ids(db, limit=10, model="other") == ([], False)


def test_metadata_filter_works_beside_and_on_text_with_nul_or_quotes(db: sa.Engine) -> None:
    """A NUL (which PostgreSQL's JSON functions cannot read) or a quoted pair inside a
    value breaks neither the filter of the workspace nor its exactness."""
    _insert(db, _completion("c-1", created=1, **{"k\x00": "v\x00", "team": "a"}))
    _insert(db, _completion("c-2", created=2, note='"team": "a"', team="b"))
    _insert(db, _completion("c-3", created=3, team="ab"))
    assert _ids(db, limit=10, metadata={"team": "a"}) == (["c-1"], False)
    assert _ids(db, limit=10, metadata={"k\x00": "v\x00"}) == (["c-1"], False)
    assert _ids(db, limit=10, metadata={"note": '"team": "a"'}) == (["c-2"], False)
    assert _ids(db, limit=10, metadata={"k": "v"}) == ([], False)


def test_delete_removes_the_messages_too(db: sa.Engine) -> None:
    _insert(db, _completion("c-1", created=1))
    with db.begin() as conn:
        store.delete_completion(conn, org_id=ORG, workspace_id=WS, completion_id="c-1")
    with db.connect() as conn:
        left = conn.execute(sa.text("SELECT count(*) FROM completion_messages")).scalar()
    assert left == 0


def test_update_keeps_body_and_column_in_step(db: sa.Engine) -> None:
    _insert(db, _completion("c-1", created=1, old="x"))
    with db.begin() as conn:
        updated = store.update_metadata(
            conn, org_id=ORG, workspace_id=WS, completion_id="c-1", metadata={"new": "y"}
        )
    assert updated.metadata == {"new": "y"}
    assert _ids(db, limit=5, metadata={"new": "y"}) == (["c-1"], False)
    assert _ids(db, limit=5, metadata={"old": "x"}) == ([], False)
    with db.connect() as conn:
        got = store.get_completion(conn, org_id=ORG, workspace_id=WS, completion_id="c-1")
    assert got.metadata == {"new": "y"}


def test_messages_page_by_position(db: sa.Engine) -> None:
    _insert(db, _completion("c-1", created=1))
    with db.connect() as conn:
        page = store.list_messages(conn, org_id=ORG, workspace_id=WS, completion_id="c-1", limit=1)
        assert [(m.id, m.role, m.content) for m in page.data] == [("c-1-0", "user", "question c-1")]
        assert page.has_more
        rest = store.list_messages(
            conn, org_id=ORG, workspace_id=WS, completion_id="c-1", limit=5, after="c-1-0"
        )
        assert [(m.id, m.role, m.content) for m in rest.data] == [
            ("c-1-1", "assistant", "answer c-1")
        ]
        with pytest.raises(NotFound):
            store.list_messages(
                conn, org_id=ORG, workspace_id=WS, completion_id="c-1", limit=5, after="c-1-x"
            )
