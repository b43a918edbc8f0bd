"""SQLite's dense index (and PostgreSQL's without pgvector), ``retrieval/dense.py``: what a
process holds per passage is what is stored (float16) and its id and file, and a refresh
after vectors were added or removed reads and rewrites only what changed, ranking exactly
as a process that loads the workspace afresh."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
import sqlalchemy as sa

from chatspace.service.retrieval import dense as dense_module
from chatspace.service.retrieval.dense import DenseIndex
from chatspace.service.retrieval.embeddings import WordLlamaEmbedder
from chatspace.service.retrieval.index import PassageIndex, open_index
from chatspace.service.store import passages as passage_store
from chatspace.service.store.db import open_database
from chatspace.service.store.transactions import write_transaction
from support.rows import add_indexed_file, sqlite_steps

QUESTION = "Which river crosses the northern valley?"
WHERE = {"org_id": "o", "workspace_id": "default"}


@pytest.fixture
def engine(database_url: str) -> Iterator[sa.Engine]:
    made = open_database(database_url)
    yield made
    made.dispose()


@pytest.fixture
def index(engine: sa.Engine) -> PassageIndex:
    return open_index(engine, WordLlamaEmbedder())


def _file(engine: sa.Engine, index: PassageIndex, file_id: str, count: int = 6) -> None:
    passages = [f"{file_id} passage {i}: river {i} crosses valley {file_id}." for i in range(count)]
    add_indexed_file(engine, index, org="o", file_id=file_id, passages=passages)


def _fresh() -> DenseIndex:
    """A process's dense index with nothing held yet (PostgreSQL's without pgvector)."""
    return DenseIndex(WordLlamaEmbedder())


def _ranking(engine: sa.Engine, dense: DenseIndex) -> tuple[list[int], dict[int, float | None]]:
    with engine.connect() as conn:
        sims = dense.similarities(conn, **WHERE, question=QUESTION)
        ids = conn.scalars(sa.text("SELECT id FROM passages ORDER BY id")).all()
    found = sims.of([*ids, max(ids, default=0) + 1, -1])  # and two ids of no passage
    assert set(found) <= set(ids)
    return sims.best(10, file_ids=None), {pid: found.get(pid) for pid in ids}


def test_a_refresh_reads_what_changed_and_ranks_as_a_fresh_load(
    engine: sa.Engine, index: PassageIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dense_module, "BLOCK_ROWS", 4)
    dense = _fresh()
    for file_id in ("alpha", "beta", "gamma"):
        _file(engine, index, file_id)
    _ranking(engine, dense)
    held = dense._matrices[("o", "default")]
    assert [len(b) for b in held.blocks] == [4, 4, 4, 4, 2]

    _file(engine, index, "delta")  # added after the largest id held
    after_add = _ranking(engine, dense)
    grown = dense._matrices[("o", "default")]
    assert grown.blocks[:4] == held.blocks[:4]  # the same arrays: kept, not read again
    assert all(a is b for a, b in zip(grown.blocks[:4], held.blocks[:4], strict=True))
    assert [len(b) for b in grown.blocks] == [4, 4, 4, 4, 4, 4]
    assert after_add == _ranking(engine, _fresh())

    with write_transaction(engine) as conn:  # a file removed, a vector made pending again
        passage_store.delete_file_passages(conn, ["beta"])
        conn.execute(
            sa.text(
                "UPDATE passages SET vector_model = NULL, embed_claimed_until = NULL WHERE ord = 2"
            )
        )
    after_remove = _ranking(engine, dense)
    shrunk = dense._matrices[("o", "default")]
    assert len(shrunk.ids) == 24 - 6 - 3
    assert after_remove[1][min(after_remove[1])] is not None
    assert sum(v is None for v in after_remove[1].values()) == 3  # no vector: no similarity
    assert after_remove == _ranking(engine, _fresh())

    while _embed(engine, index):
        pass  # the pending vectors stored again, below the largest id held
    after_restore = _ranking(engine, dense)
    assert len(dense._matrices[("o", "default")].ids) == 18
    assert after_restore == _ranking(engine, _fresh())
    assert after_restore[0][0] in after_add[0]


def _pending(engine: sa.Engine, pid: int) -> None:
    """Passage ``pid``'s vector made pending again (as a model change does)."""
    with write_transaction(engine) as conn:
        conn.execute(
            sa.text(
                "UPDATE passages SET vector_model = NULL, embed_claimed_until = NULL "
                "WHERE id = :pid"
            ),
            {"pid": pid},
        )


def test_a_vector_removed_as_another_is_stored_below_the_largest_is_seen(
    engine: sa.Engine, index: PassageIndex
) -> None:
    """Between two questions one passage lost its vector and another, below the largest
    id, got one: the count and the largest id are as they were, and the copy held kept
    the one removed and lacked the one stored."""
    for file_id in ("alpha", "beta"):
        _file(engine, index, file_id)
    with engine.connect() as conn:
        ids = conn.scalars(sa.text("SELECT id FROM passages ORDER BY id")).all()
    stored, removed = ids[2], ids[7]
    _pending(engine, stored)
    dense = _fresh()
    before = _ranking(engine, dense)
    assert before[1][stored] is None
    while _embed(engine, index):
        pass
    _pending(engine, removed)
    after = _ranking(engine, dense)
    assert after[1][stored] is not None
    assert after[1][removed] is None
    assert after == _ranking(engine, _fresh())


def _embed(engine: sa.Engine, index: PassageIndex) -> int:
    from chatspace.service.vectors import embed_batch

    assert index.dense is not None
    return embed_batch(engine, index.dense)


def test_a_passage_held_costs_what_is_stored(engine: sa.Engine, index: PassageIndex) -> None:
    for file_id in ("alpha", "beta"):
        _file(engine, index, file_id, count=40)
    dense = _fresh()
    _ranking(engine, dense)
    held = dense._matrices[("o", "default")]
    arrays = [held.ids, held.codes, held.by_id, *held.blocks]
    per_passage = sum(a.nbytes for a in arrays) / len(held.ids)
    assert per_passage == 512 + 8 + 4 + 4  # float16 vector, id, file code, id order
    assert all(b.dtype == np.float16 for b in held.blocks)


_RECOUNTED_STAMPS = (
    "SELECT org_id, workspace_id, vector_model, count(*), sum(id) FROM passages "
    "WHERE vector_model IS NOT NULL GROUP BY org_id, workspace_id, vector_model"
)


def _kept_stamps(engine: sa.Engine) -> dict[tuple[str, str, str], tuple[int, int]]:
    """``vector_stamps`` (migration ``m016_vector_stamps``), checked against a recount."""
    with engine.connect() as conn:
        kept = {
            (o, w, m): (n, total)
            for o, w, m, n, total in conn.exec_driver_sql("SELECT * FROM vector_stamps")
        }
        recounted = {(o, w, m): (n, t) for o, w, m, n, t in conn.exec_driver_sql(_RECOUNTED_STAMPS)}
    assert kept == recounted
    return kept


@pytest.mark.sqlite_only
def test_the_kept_stamps_follow_vectors_stored_made_pending_and_removed(
    engine: sa.Engine, index: PassageIndex
) -> None:
    """The triggers keep each workspace's count and sum of ids equal to a recount after
    each write that adds or removes a vector; a workspace without any keeps no row."""
    model = WordLlamaEmbedder().name
    for file_id in ("alpha", "beta"):
        _file(engine, index, file_id)
    add_indexed_file(engine, index, org="o", workspace="lab", file_id="gamma",
                     passages=["The lab's river."])  # fmt: skip
    assert _kept_stamps(engine)[("o", "default", model)][0] == 12
    with engine.connect() as conn:
        ids = conn.scalars(sa.text("SELECT id FROM passages ORDER BY id")).all()
    _pending(engine, ids[3])
    assert _kept_stamps(engine)[("o", "default", model)][0] == 11
    with write_transaction(engine) as conn:
        passage_store.delete_file_passages(conn, ["beta"])
    assert _kept_stamps(engine)[("o", "default", model)] == (5, sum(ids[:6]) - ids[3])
    while _embed(engine, index):
        pass
    assert _kept_stamps(engine)[("o", "default", model)] == (6, sum(ids[:6]))
    with write_transaction(engine) as conn:
        passage_store.drop_workspace_index(conn, org_id="o", workspace_id="lab")
    assert set(_kept_stamps(engine)) == {("o", "default", model)}


def _steps(engine: sa.Engine) -> tuple[int, int]:
    """SQLite virtual machine instructions the stamp of the workspace takes, and the
    passages with vectors it counts."""
    model = WordLlamaEmbedder().name
    steps, stamp = sqlite_steps(
        engine, lambda conn: passage_store.vector_stamp(conn, **WHERE, model=model)
    )
    return steps, stamp[0]


@pytest.mark.sqlite_only
def test_the_stamp_a_question_asks_for_does_not_grow_with_the_passages(
    engine: sa.Engine, index: PassageIndex
) -> None:
    """Before every question the dense index asks whether the workspace's vectors changed:
    at a million passages, counting them took longer than the rest of a question's
    dense side. The steps SQLite takes for it are the same for 6 and for 186 passages."""
    _file(engine, index, "alpha")
    few, counted = _steps(engine)
    assert counted == 6
    for n in range(30):
        _file(engine, index, f"more-{n}")
    assert _steps(engine) == (few, 186)
