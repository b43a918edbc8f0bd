"""Rows written straight into a migrated database, for the tests of the store and the
indexes that need a file to exist without uploading one."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, TypeVar

import sqlalchemy as sa

from chatspace.service.retrieval.extract import Extracted
from chatspace.service.retrieval.index import PassageIndex
from chatspace.service.retrieval.indexing import index_file
from chatspace.service.store import schema
from chatspace.service.store.transactions import write_transaction
from chatspace.service.vectors import embed_batch

__all__ = ["add_file_row", "add_indexed_file", "sqlite_steps"]

T = TypeVar("T")


def add_file_row(
    conn: sa.Connection,
    *,
    file_id: str,
    org_id: str,
    workspace_id: str = "default",
    size: int = 3,
    metadata: dict[str, Any] | None = None,
) -> None:
    """The row of an uploaded plain-text file named after its id (its blob too), and
    nothing else: no passages, no typed metadata values."""
    conn.execute(
        schema.files.insert().values(
            id=file_id,
            org_id=org_id,
            workspace_id=workspace_id,
            user_id="u",
            filename=f"{file_id}.txt",
            bytes=size,
            created_at=1,
            expires_at=None,
            purpose="user_data",
            status="uploaded",
            status_details="",
            metadata=metadata or {},
            content_type="text/plain",
            sha256="x",
            blob=file_id,
        )
    )


def _lines(passages: list[str]) -> Extracted:
    """A file of ``passages``, one a line."""
    starts = itertools.accumulate((len(p) + 1 for p in passages[:-1]), initial=0)
    return Extracted("\n".join(passages), tuple(zip(starts, passages, strict=True)))


def add_indexed_file(
    engine: sa.Engine,
    index: PassageIndex,
    *,
    org: str,
    file_id: str,
    passages: list[str] | None = None,
    extracted: Extracted | None = None,
    workspace: str = "default",
) -> None:
    """A file of ``passages`` (one a line), or as ``extracted``, written as an upload
    writes it, and given its vectors as a replica's background embedder does."""
    extracted = extracted or _lines(passages or [])
    text = extracted.text
    with write_transaction(engine) as conn:
        add_file_row(conn, file_id=file_id, org_id=org, workspace_id=workspace, size=len(text))
        index_file(conn, file_id=file_id, org_id=org, workspace_id=workspace, extracted=extracted)
    while index.dense is not None and embed_batch(engine, index.dense):
        pass


def sqlite_steps(engine: sa.Engine, call: Callable[[sa.Connection], T]) -> tuple[int, T]:
    """The SQLite virtual machine instructions ``call`` takes on a connection of
    ``engine``, and what it returns: what a query costs, counted rather than timed."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    with engine.connect() as conn:
        raw = conn.connection.driver_connection
        assert raw is not None
        raw.set_progress_handler(count, 1)
        try:
            found = call(conn)
        finally:
            raw.set_progress_handler(None, 1)
    return steps, found
