"""The sources of stored completions: the passages retrieved for each, in rank order
(docs/interface.md#sources).

A deleted file's rows keep its id, scores and flags (facts about the answer) but nothing
of what the file held: :func:`forget_files` empties their filename, quote and location in
the transaction that deletes the file, and such a row reads back as ``deleted``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from chatspace.types import Location, SearchScores, Source, SourceList

from .schema import completion_sources as table

__all__ = ["delete_sources", "forget_files", "insert_sources", "list_sources"]


def insert_sources(conn: sa.Connection, *, completion_id: str, sources: Sequence[Source]) -> None:
    """Store ``sources`` as the sources of ``completion_id`` (its rows, once)."""
    if not sources:
        return
    conn.execute(
        table.insert(),
        [
            {
                "completion_id": completion_id,
                "rank": s.rank,
                "file_id": s.file_id,
                "filename": s.filename,
                "quote": s.quote,
                "score": s.score,
                "lexical": s.scores.lexical,
                "dense": s.scores.dense,
                "location": None if s.location is None else s.location.model_dump(),
                "sent": s.sent,
                "cited": s.cited,
            }
            for s in sources
        ],
    )


def _source(row: Any) -> Source:
    return Source(
        rank=row.rank,
        file_id=row.file_id,
        filename=row.filename,
        quote=row.quote,
        score=row.score,
        scores=SearchScores(lexical=row.lexical, dense=row.dense),
        location=None if row.location is None else Location.model_validate(row.location),
        sent=row.sent,
        cited=row.cited,
        deleted=row.filename is None,  # emptied by forget_files
    )


def list_sources(conn: sa.Connection, *, completion_id: str) -> SourceList:
    """The sources of a stored completion, by rank (the caller checked that it exists)."""
    rows = conn.execute(
        sa.select(table).where(table.c.completion_id == completion_id).order_by(table.c.rank)
    )
    return SourceList(data=[_source(row) for row in rows])


def forget_files(conn: sa.Connection, file_ids: Sequence[str]) -> None:
    """Keep nothing of these (deleted) files in the sources that cite them."""
    if file_ids:
        conn.execute(
            table.update()
            .where(table.c.file_id.in_(file_ids))
            .values(filename=None, quote=None, location=None)
        )


def delete_sources(conn: sa.Connection, completion_ids: Sequence[str] | sa.Select[Any]) -> None:
    """Delete the sources of these completions (ids, or a query of them)."""
    conn.execute(table.delete().where(table.c.completion_id.in_(completion_ids)))
