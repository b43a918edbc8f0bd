"""What a question costs in a large SQLite workspace, counted rather than timed: FTS5
ranks its best matches alone (its own top-k) when no filter of files is asked, and the
candidates are exactly those of the query that joins and sorts every match (``_SEARCH``),
ties at the edge and expired files included; whether the workspace waits for vectors,
asked before every search and completion, takes steps that do not grow with its files
(at 100,000 files it read every one of them, 236 ms a question)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from chatspace.service.retrieval import sqlite_index
from chatspace.service.retrieval.embeddings import WordLlamaEmbedder
from chatspace.service.retrieval.index import Hit, PassageIndex, open_index
from chatspace.service.retrieval.scope import Scope
from chatspace.service.store import files as file_store
from chatspace.service.store import schema
from chatspace.service.store.db import open_database
from support.rows import add_indexed_file, sqlite_steps

WHERE = ("o", "default")


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[sa.Engine]:
    engine = open_database(tmp_path / "chatspace.db")
    yield engine
    engine.dispose()


def _candidates(engine: sa.Engine, index: PassageIndex, scope: Scope, limit: int) -> list[Hit]:
    with engine.connect() as conn:
        return index.text.candidates(
            conn, where=WHERE, terms=["river", "valley"], weights=None, scope=scope, limit=limit
        )


def _ids(hits: list[Hit]) -> list[tuple[int, str, int, float]]:
    return [(pid, p.file_id, p.ord, p.score) for pid, p in hits]


def test_fts5_s_own_top_k_finds_what_the_whole_sort_finds(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = open_index(engine, None)
    files = [f"file-{n:02d}" for n in range(12)]
    for n, file_id in enumerate(files):
        # many passages tie (the same text in every file), others rank by their words
        passages = ["the river crosses the valley", f"river {n} " + "stone " * n, "valley"]
        add_indexed_file(engine, index, org="o", file_id=file_id, passages=passages)
    everything = Scope(file_ids=frozenset(files), top_k=5)  # a filter: the whole sort
    statements: list[str] = []
    sa.event.listen(engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    asked_again = {}
    for limit in (1, 3, 5, 8, 12, 13, 30):
        statements.clear()
        fast = _candidates(engine, index, Scope(file_ids=None, top_k=5), limit)
        searches = [s for s in statements if "MATCH" in s]
        whole = _candidates(engine, index, everything, limit)
        assert _ids(fast) == _ids(whole), limit
        assert [p.hits for _, p in fast] == [p.hits for _, p in whole]
        assert "ORDER BY rank LIMIT" in searches[0]
        asked_again[limit] = len(searches) == 2
    # twelve passages tie for the first place: a pool that ends among them asks again
    assert asked_again[1]
    assert asked_again[5]
    assert not asked_again[12]
    assert not asked_again[30]
    # a file that expired is left out by both; the pool then holds too few and asks again
    with engine.begin() as conn:
        conn.execute(
            sa.update(schema.files).where(schema.files.c.id == files[0]).values(expires_at=1)
        )
    monkeypatch.setattr(sqlite_index, "POOL_FACTOR", 1)
    fast = _candidates(engine, index, Scope(file_ids=None, top_k=5), 30)
    assert _ids(fast) == _ids(_candidates(engine, index, everything, 30))
    assert files[0] not in {p.file_id for _, p in fast}
    # every match the pool holds expired: the matches past it answer
    add_indexed_file(engine, index, org="o", file_id="file-last", passages=["a dry valley"])
    with engine.begin() as conn:
        conn.execute(
            sa.update(schema.files).where(schema.files.c.id != "file-last").values(expires_at=1)
        )
    fast = _candidates(engine, index, Scope(file_ids=None, top_k=5), 1)
    assert [p.file_id for _, p in fast] == ["file-last"]


def _pending(engine: sa.Engine) -> tuple[int, bool]:
    return sqlite_steps(engine, lambda conn: file_store.vectors_pending_in(conn, WHERE))


def test_the_pending_check_does_not_read_every_file(engine: sa.Engine) -> None:
    index: PassageIndex = open_index(engine, WordLlamaEmbedder())
    add_indexed_file(engine, index, org="o", file_id="file-0", passages=["river valley"])
    few, pending = _pending(engine)
    assert not pending
    for n in range(1, 60):
        add_indexed_file(engine, index, org="o", file_id=f"file-{n}", passages=["river"])
    assert _pending(engine) == (few, False)
    with engine.begin() as conn:
        files = schema.files
        conn.execute(sa.update(files).where(files.c.id == "file-7").values(vectors_pending=True))
    assert _pending(engine)[1]
