"""SQLite's dense index (and PostgreSQL's without pgvector), ``retrieval/dense.py``: the
vectors live in memory-mapped files beside the database, as stored (float16) with their
id and file, shared by the processes on it and found again by a restarted one; a refresh
after vectors were added or removed reads and rewrites only what changed, ranking exactly
as a process that loads the workspace afresh."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sqlalchemy as sa

from chatspace.service.retrieval import dense as dense_module
from chatspace.service.retrieval import dense_files
from chatspace.service.retrieval.dense import DenseIndex
from chatspace.service.retrieval.embeddings import WordLlamaEmbedder
from chatspace.service.retrieval.index import PassageIndex, open_index
from chatspace.service.store import passages as passage_store
from chatspace.service.store.db import open_database
from chatspace.service.store.transactions import write_transaction
from support.rows import add_indexed_file, sqlite_steps

QUESTION = "Which river crosses the northern valley?"
WHERE = {"org_id": "o", "workspace_id": "default"}
KEY = ("o", "default")
Ranking = tuple[list[int], dict[int, float | None]]


@pytest.fixture
def engine(database_url: str) -> Iterator[sa.Engine]:
    made = open_database(database_url)
    yield made
    made.dispose()


@pytest.fixture
def index(engine: sa.Engine, tmp_path: Path) -> PassageIndex:
    return open_index(engine, WordLlamaEmbedder(), tmp_path / "index")


def _file(engine: sa.Engine, index: PassageIndex, file_id: str, count: int = 6) -> None:
    passages = [f"{file_id} passage {i}: river {i} crosses valley {file_id}." for i in range(count)]
    add_indexed_file(engine, index, org="o", file_id=file_id, passages=passages)


def _fresh(folder: Path) -> DenseIndex:
    """A process's dense index with nothing held yet, its files in ``folder``."""
    return DenseIndex(WordLlamaEmbedder(), folder)


def _ranking(engine: sa.Engine, dense: DenseIndex) -> Ranking:
    with engine.connect() as conn:
        sims = dense.similarities(conn, **WHERE, question=QUESTION)
        ids = conn.scalars(sa.text("SELECT id FROM passages ORDER BY id")).all()
    found = sims.of([*ids, max(ids, default=0) + 1, -1])  # and two ids of no passage
    assert set(found) <= set(ids)
    return sims.best(10, file_ids=None), {pid: found.get(pid) for pid in ids}


class _Loaded:
    """A fresh load's ranking, from a folder of its own each time."""

    def __init__(self, engine: sa.Engine, root: Path) -> None:
        self.engine, self.root, self.made = engine, root, 0

    def __call__(self) -> Ranking:
        self.made += 1
        return _ranking(self.engine, _fresh(self.root / f"fresh-{self.made}"))


def _no_vectors_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, reading any vector from the database fails (ids may be read)."""

    def refusing(name: str) -> Any:
        reading = getattr(dense_module, name)

        def read(*args: Any, **kwargs: Any) -> Any:
            found = reading(*args, **kwargs)
            assert found == [], "the files held it: no vector to read from the database"
            return found

        return read

    for name in ("workspace_vectors", "vectors_of"):
        monkeypatch.setattr(dense_module, name, refusing(name))


def test_a_refresh_reads_what_changed_and_ranks_as_a_fresh_load(
    engine: sa.Engine, index: PassageIndex, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(dense_module, "BLOCK_ROWS", 4)
    fresh = _Loaded(engine, tmp_path)
    dense = _fresh(tmp_path / "dense")
    for file_id in ("alpha", "beta", "gamma"):
        _file(engine, index, file_id)
    _ranking(engine, dense)
    held = dense._matrices[KEY]
    assert [len(b) for b in held.blocks] == [4, 4, 4, 4, 2]

    _file(engine, index, "delta")  # added after the largest id held
    after_add = _ranking(engine, dense)
    grown = dense._matrices[KEY]
    assert all(a is b for a, b in zip(grown.blocks[:4], held.blocks[:4], strict=True))
    assert [len(b) for b in grown.blocks] == [4, 4, 4, 4, 4, 4]
    assert after_add == fresh()

    with write_transaction(engine) as conn:  # a file removed, a vector made pending again
        passage_store.delete_file_passages(conn, ["beta"])
        conn.execute(
            sa.text(
                "UPDATE passages SET vector_model = NULL, embed_claimed_until = NULL WHERE ord = 2"
            )
        )
    after_remove = _ranking(engine, dense)
    shrunk = dense._matrices[KEY]
    assert len(shrunk) == 24 - 6 - 3
    assert after_remove[1][min(after_remove[1])] is not None
    assert sum(v is None for v in after_remove[1].values()) == 3  # no vector: no similarity
    assert after_remove == fresh()

    while _embed(engine, index):
        pass  # the pending vectors stored again, below the largest id held
    after_restore = _ranking(engine, dense)
    assert len(dense._matrices[KEY]) == 18
    assert after_restore == fresh()
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
    engine: sa.Engine, index: PassageIndex, tmp_path: Path
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
    dense = _fresh(tmp_path / "dense")
    before = _ranking(engine, dense)
    assert before[1][stored] is None
    while _embed(engine, index):
        pass
    _pending(engine, removed)
    after = _ranking(engine, dense)
    assert after[1][stored] is not None
    assert after[1][removed] is None
    assert after == _Loaded(engine, tmp_path)()


def _embed(engine: sa.Engine, index: PassageIndex) -> int:
    from chatspace.service.vectors import embed_batch

    assert index.dense is not None
    return embed_batch(engine, index.dense)


def test_the_vectors_are_not_held_on_the_heap(
    engine: sa.Engine, index: PassageIndex, tmp_path: Path
) -> None:
    """What a process allocates for a workspace does not grow with its passages: the
    vectors, ids and file keys are pages of files it maps (528 bytes a passage on disk)."""

    def allocated(folder: Path) -> int:
        dense = _fresh(folder)
        dense.embedder.embed(["warm up"])
        tracemalloc.start()
        try:
            with engine.connect() as conn:
                dense._matrix(conn, "o", "default")
            return tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()

    _file(engine, index, "alpha", count=20)
    few = allocated(tmp_path / "few")
    for file_id in ("beta", "gamma", "delta", "epsilon"):
        _file(engine, index, file_id, count=100)
    many = allocated(tmp_path / "many")
    assert many - few < 20 * 528  # 400 passages more: 211,200 bytes if they were held
    blocks = list((tmp_path / "many").glob("*/*.block"))
    assert sum(b.stat().st_size for b in blocks) == 420 * 528 + 32 * len(blocks)


def test_a_restarted_process_reuses_the_files_and_a_deleted_file_is_gone(
    engine: sa.Engine, index: PassageIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "dense"
    for file_id in ("alpha", "beta", "gamma"):
        _file(engine, index, file_id)
    first = _ranking(engine, _fresh(folder))
    with monkeypatch.context() as patched:
        _no_vectors_read(patched)
        assert _ranking(engine, _fresh(folder)) == first  # restarted: found, not read
    with engine.connect() as conn:
        beta = set(conn.scalars(sa.text("SELECT id FROM passages WHERE file_id = 'beta'")).all())
    with write_transaction(engine) as conn:
        passage_store.delete_file_passages(conn, ["beta"])
    after = _fresh(folder)
    best, cosine = _ranking(engine, after)
    assert not beta & set(best)
    with engine.connect() as conn:
        assert after.similarities(conn, **WHERE, question=QUESTION).of(sorted(beta)) == {}
    assert (best, cosine) == _Loaded(engine, tmp_path)()
    with monkeypatch.context() as patched:
        _no_vectors_read(patched)
        assert _ranking(engine, _fresh(folder)) == (best, cosine)


_OTHER_PROCESS = """
import json, sys
from pathlib import Path
import sqlalchemy as sa
from chatspace.service.retrieval.dense import DenseIndex
from chatspace.service.retrieval.embeddings import WordLlamaEmbedder
from chatspace.service.store import passages
from chatspace.service.store.db import open_database
from chatspace.service.store.transactions import write_transaction

engine = open_database(sys.argv[1])
with write_transaction(engine) as conn:
    passages.delete_file_passages(conn, ["alpha"])
dense = DenseIndex(WordLlamaEmbedder(), Path(sys.argv[2]))
with engine.connect() as conn:
    sims = dense.similarities(conn, org_id="o", workspace_id="default", question=sys.argv[3])
    print(json.dumps(sims.best(10, file_ids=None)))
"""


def test_two_processes_on_one_folder_agree(
    engine: sa.Engine,
    index: PassageIndex,
    database_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another process deletes a file and refreshes the files this one maps: this one
    reads what it wrote, not the database, and ranks as it does; the blocks the other
    replaced stay readable here until then."""
    folder = tmp_path / "dense"
    for file_id in ("alpha", "beta", "gamma"):
        _file(engine, index, file_id)
    here = _fresh(folder)
    _ranking(engine, here)
    held = here._matrices[KEY]
    script = textwrap.dedent(_OTHER_PROCESS)
    done = subprocess.run(
        [sys.executable, "-c", script, database_url, str(folder), QUESTION],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    theirs = json.loads(done.stdout)
    assert held.vectors(np.arange(len(held)), 256).shape == (18, 256)  # unlinked, still mapped
    with monkeypatch.context() as patched:
        _no_vectors_read(patched)
        best, _ = _ranking(engine, here)
    assert best == theirs
    assert len(here._matrices[KEY]) == 12


def test_what_another_boot_wrote_or_a_crash_left_is_not_used(
    engine: sa.Engine, index: PassageIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files written but perhaps never flushed (another boot of the machine) are read
    again from the database; files a crash left half-written are removed."""
    folder = tmp_path / "dense"
    for file_id in ("alpha", "beta"):
        _file(engine, index, file_id)
    with monkeypatch.context() as patched:
        patched.setattr(dense_files, "_BOOT", "a boot before")
        before = _ranking(engine, _fresh(folder))
    (workspace,) = folder.iterdir()
    left = workspace / ".abc.block.tmp"
    left.write_bytes(b"half")
    read: list[int] = []
    reading = dense_module.workspace_vectors

    def counted(*args: Any, **kwargs: Any) -> Any:
        found = reading(*args, **kwargs)
        read.append(len(found))
        return found

    monkeypatch.setattr(dense_module, "workspace_vectors", counted)
    assert _ranking(engine, _fresh(folder)) == before
    assert read == [12, 0]
    assert not left.exists()


_RECOUNTED_STAMPS = (
    "SELECT org_id, workspace_id, vector_model, count(*), sum(id) FROM passages "
    "WHERE vector_model IS NOT NULL GROUP BY org_id, workspace_id, vector_model"
)


def _kept_stamps(engine: sa.Engine) -> dict[tuple[str, str, str], tuple[int, int]]:
    """``vector_stamps`` (migration ``m016_vector_stamps``), checked against a recount."""
    with engine.connect() as conn:
        kept = {
            (o, w, m): (n, total)
            for o, w, m, n, total in conn.exec_driver_sql(
                "SELECT org_id, workspace_id, model, passages, id_sum FROM vector_stamps"
            )
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
    removals = [_last_removal(engine, model)]
    _pending(engine, ids[3])
    assert _kept_stamps(engine)[("o", "default", model)][0] == 11
    with write_transaction(engine) as conn:
        passage_store.delete_file_passages(conn, ["beta"])
    assert _kept_stamps(engine)[("o", "default", model)] == (5, sum(ids[:6]) - ids[3])
    removals.append(_last_removal(engine, model))
    while _embed(engine, index):
        pass
    assert _kept_stamps(engine)[("o", "default", model)] == (6, sum(ids[:6]))
    removals.append(_last_removal(engine, model))
    # a removal advances the last removal; a vector stored does not
    assert removals[0] < removals[1] == removals[2]
    with write_transaction(engine) as conn:
        passage_store.drop_workspace_index(conn, org_id="o", workspace_id="lab")
    assert set(_kept_stamps(engine)) == {("o", "default", model)}


def _last_removal(engine: sa.Engine, model: str) -> int:
    with engine.connect() as conn:
        return passage_store.vector_stamp(conn, **WHERE, model=model)[3]


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


@pytest.mark.parametrize("size", [0, 5, 200, 3_199, 3_201, 50_000])
def test_the_largest_similarities_are_those_a_whole_sort_finds(size: int) -> None:
    """Only the values at or above a bound drawn from a sample are partitioned: the
    ``k`` largest are the same as a whole sort's, wherever they lie."""
    values = np.random.default_rng(size).standard_normal(size)
    values[-3:] += 10  # the largest at the end, past the last sampled value
    for k in (1, 200):
        found = dense_module._largest(values, k)
        assert sorted(found.tolist()) == sorted(np.argsort(-values)[:k].tolist())


def test_the_files_of_a_deleted_workspace_are_emptied_at_start(
    engine: sa.Engine, index: PassageIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No question refreshes the files of a workspace that is gone: the next start
    empties them (the others are kept, and found again without reading the database)."""
    folder = tmp_path / "dense"
    _file(engine, index, "alpha")
    add_indexed_file(engine, index, org="o", workspace="lab", file_id="gamma",
                     passages=["The lab's river."])  # fmt: skip
    dense = _fresh(folder)
    with engine.connect() as conn:
        dense.similarities(conn, org_id="o", workspace_id="lab", question=QUESTION)
    _ranking(engine, dense)
    assert len(list(folder.glob("*/*.block"))) == 2
    with write_transaction(engine) as conn:
        passage_store.drop_workspace_index(conn, org_id="o", workspace_id="lab")
    first = _ranking(engine, dense)
    restarted = _fresh(folder)
    with engine.connect() as conn:
        assert restarted.release_unused(conn) == 1
    (kept,) = folder.glob("*/*.block")
    with monkeypatch.context() as patched:
        _no_vectors_read(patched)
        assert _ranking(engine, restarted) == first
    assert list(folder.glob("*/*.block")) == [kept]


@pytest.mark.sqlite_only
@pytest.mark.parametrize("restarted", [False, True])
def test_an_id_given_again_to_another_file_is_not_served_stale(
    engine: sa.Engine, index: PassageIndex, tmp_path: Path, restarted: bool
) -> None:
    """SQLite gives the ids a deleted file freed to the next file's passages: with as
    many passages, the count, largest id and sum of ids are those held. The stamp's last
    removal (``m018_vector_removals``) tells, and the rows held are checked against their
    ids' files; the process that held them kept the deleted file's vectors until it
    restarted."""
    folder = tmp_path / "dense"
    for file_id in ("alpha", "beta"):
        _file(engine, index, file_id)
    dense = _fresh(folder)
    _ranking(engine, dense)
    with engine.connect() as conn:
        before = conn.scalars(sa.text("SELECT id FROM passages ORDER BY id")).all()
    with write_transaction(engine) as conn:
        passage_store.delete_file_passages(conn, ["beta"])
    add_indexed_file(engine, index, org="o", file_id="other", passages=[
        f"Invoice {i} is paid within thirty days." for i in range(6)
    ])  # fmt: skip
    with engine.connect() as conn:
        assert conn.scalars(sa.text("SELECT id FROM passages ORDER BY id")).all() == before
    asked = _fresh(folder) if restarted else dense
    assert _ranking(engine, asked) == _Loaded(engine, tmp_path)()


def test_files_whose_stamp_matches_are_trusted_without_reading_the_database(
    engine: sa.Engine, index: PassageIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restarted process whose files say the database's stamp, last removal included,
    reads neither a vector nor an id from it (the check of every id's file took 2.7 s at
    a million passages, at every start)."""
    folder = tmp_path / "dense"
    for file_id in ("alpha", "beta"):
        _file(engine, index, file_id)
    with write_transaction(engine) as conn:
        passage_store.delete_file_passages(conn, ["beta"])
    first = _ranking(engine, _fresh(folder))

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the files match the stamp: nothing to read")

    for name in ("workspace_vectors", "vectors_of", "vector_owners"):
        monkeypatch.setattr(dense_module, name, refused)
    assert _ranking(engine, _fresh(folder)) == first
