"""Passages of files and their full-text index: one FTS5 table per workspace.

bm25 weighs a term by how rare it is among the indexed passages. With one index for the
whole service, one organization's uploads would change another's rankings, and so the
built-in model's answers; one index per workspace keeps every workspace's answers a
function of its own files only. The index tables are external-content FTS5 tables over
``passages``, named from a hash of (org, workspace), and written in the same transaction
as the passages they index.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

import sqlalchemy as sa

from . import schema

__all__ = [
    "add_passages",
    "delete_file_passages",
    "drop_workspace_index",
    "index_exists",
    "index_table",
    "rebuild_workspace_index",
]

_CREATE = (
    'CREATE VIRTUAL TABLE IF NOT EXISTS "{name}" USING fts5('
    "text, content='passages', content_rowid='id', "
    "tokenize='porter unicode61 remove_diacritics 2')"
)


def index_table(org_id: str, workspace_id: str) -> str:
    """The name of a workspace's index table (hex only: safe to put into SQL)."""
    digest = hashlib.sha256(f"{org_id}\x00{workspace_id}".encode()).hexdigest()[:24]
    return f"fts_{digest}"


def index_exists(conn: sa.Connection, name: str) -> bool:
    found = conn.exec_driver_sql(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    )
    return found.first() is not None


def add_passages(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    file_id: str,
    passages: Sequence[tuple[int, str]],
) -> int:
    """Store a file's passages (``(start offset, text)``) and index them; how many."""
    if not passages:
        return 0
    conn.execute(
        sa.insert(schema.passages),
        [
            {
                "file_id": file_id,
                "org_id": org_id,
                "workspace_id": workspace_id,
                "ord": i,
                "start": start,
                "text": text,
            }
            for i, (start, text) in enumerate(passages)
        ],
    )
    _index(conn, index_table(org_id, workspace_id), "file_id = ?", (file_id,))
    return len(passages)


def rebuild_workspace_index(conn: sa.Connection, *, org_id: str, workspace_id: str) -> None:
    """Index every stored passage of a workspace (used when the index layout changes)."""
    name = index_table(org_id, workspace_id)
    _index(conn, name, "org_id = ? AND workspace_id = ?", (org_id, workspace_id))


def _index(conn: sa.Connection, name: str, where: str, params: tuple[str, ...]) -> None:
    conn.exec_driver_sql(_CREATE.format(name=name))
    conn.exec_driver_sql(
        # name is a hex digest and where one of this module's literals: no user text
        f'INSERT INTO "{name}" (rowid, text) SELECT id, text FROM passages WHERE {where}',  # noqa: S608
        params,
    )


def delete_file_passages(conn: sa.Connection, file_ids: Iterable[str]) -> None:
    """Remove the passages of these files from their workspaces' indexes, then the rows."""
    ids = list(file_ids)
    if not ids:
        return
    p = schema.passages
    where = p.c.file_id.in_(ids)
    for org_id, workspace_id in conn.execute(
        sa.select(p.c.org_id, p.c.workspace_id).where(where).distinct()
    ):
        name = index_table(org_id, workspace_id)
        # FTS5's 'delete' command needs the indexed text, which passages still holds.
        conn.execute(
            sa.text(
                f'INSERT INTO "{name}" ("{name}", rowid, text) '  # noqa: S608 - hex name
                "SELECT 'delete', id, text FROM passages WHERE file_id IN :ids"
            ).bindparams(sa.bindparam("ids", expanding=True)),
            {"ids": ids},
        )
    conn.execute(p.delete().where(where))


def drop_workspace_index(conn: sa.Connection, *, org_id: str, workspace_id: str) -> None:
    """Remove a workspace's index and passages (the workspace is being deleted)."""
    conn.exec_driver_sql(f'DROP TABLE IF EXISTS "{index_table(org_id, workspace_id)}"')
    p = schema.passages
    conn.execute(p.delete().where(p.c.org_id == org_id, p.c.workspace_id == workspace_id))
