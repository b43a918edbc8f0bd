"""Whether a workspace waits for vectors is asked before every search and completion
(``files.vectors_pending_in``): the steps it takes do not grow with the workspace's files
(at 100,000 files it read every one of them, 236 ms a question)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from chatspace.service.retrieval.embeddings import WordLlamaEmbedder
from chatspace.service.retrieval.index import PassageIndex, open_index
from chatspace.service.store import files as file_store
from chatspace.service.store import schema
from chatspace.service.store.db import open_database
from support.rows import add_indexed_file

WORKSPACE = ("o", "default")


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[sa.Engine]:
    engine = open_database(tmp_path / "chatspace.db")
    yield engine
    engine.dispose()


def _steps(engine: sa.Engine) -> tuple[int, bool]:
    """SQLite virtual machine instructions the check takes, and its answer."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    with engine.connect() as conn:
        raw = conn.connection.driver_connection
        assert raw is not None
        raw.set_progress_handler(count, 1)
        pending = file_store.vectors_pending_in(conn, WORKSPACE)
        raw.set_progress_handler(None, 1)
    return steps, pending


def test_the_pending_check_does_not_read_every_file(engine: sa.Engine) -> None:
    index: PassageIndex = open_index(engine, WordLlamaEmbedder())
    add_indexed_file(engine, index, org="o", file_id="file-0", passages=["river valley"])
    few, pending = _steps(engine)
    assert not pending
    for n in range(1, 60):
        add_indexed_file(engine, index, org="o", file_id=f"file-{n}", passages=["river"])
    assert _steps(engine) == (few, False)
    with engine.begin() as conn:
        files = schema.files
        conn.execute(sa.update(files).where(files.c.id == "file-7").values(vectors_pending=True))
    assert _steps(engine)[1]
