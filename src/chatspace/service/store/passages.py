"""Passages of files and their full-text index.

On SQLite, one FTS5 table per workspace. bm25 weighs a term by how rare it is among the
indexed passages. With one index for the whole service, one organization's uploads would
change another's rankings, and so the built-in model's answers; one index per workspace
keeps every workspace's answers a function of its own files only. The index tables are
external-content FTS5 tables over ``passages``, named from a hash of (org, workspace),
and written in the same transaction as the passages they index. On PostgreSQL the index
is part of the rows themselves (a generated ``tsvector`` column under a GIN index:
migration ``m006_postgres_search``), so writing or deleting a passage is all it takes:
triggers keep each workspace's term statistics there (migration ``m013_term_stats``).

A passage may also carry a dense vector and the name of the model that made it
(:mod:`chatspace.service.retrieval.embeddings`), written after the passage itself by the
replica that claimed it (:func:`claim_pending`); this module stores and reads them as
bytes and knows nothing of what they mean. Where PostgreSQL has pgvector, the same vector
is also written to the ``embedding`` column, in the form retrieval gives
(``embeddings``: ``halfvec`` literals), in the same statement.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa

from . import schema
from .dialects import is_postgres

__all__ = [
    "TOKENIZER",
    "FilePassages",
    "PendingRow",
    "Stamp",
    "VectorRow",
    "add_files_passages",
    "add_passages",
    "claim_pending",
    "delete_file_passages",
    "drop_workspace_index",
    "forget_other_vectors",
    "index_exists",
    "index_table",
    "set_vectors",
    "vector_owners",
    "vector_stamp",
    "vectors_of",
    "workspace_vectors",
]

INSERT_ROWS = 1000
"""Passages one ``INSERT`` writes on PostgreSQL (7 parameters each: PostgreSQL takes at
most 65,535 a statement)."""

TOKENIZER = "porter unicode61 remove_diacritics 2"
"""How the index cuts and stems text (English stems, case and accents folded)."""
_CREATE = (
    'CREATE VIRTUAL TABLE IF NOT EXISTS "{name}" USING fts5('
    f"text, content='passages', content_rowid='id', tokenize='{TOKENIZER}')"
)


class _HalfVec(sa.types.UserDefinedType[str]):
    """pgvector's ``halfvec``, written as its text literal."""

    cache_ok = True

    def get_col_spec(self, **kw: object) -> str:
        return "halfvec"


# ``passages`` with the column only PostgreSQL with pgvector has (not in :mod:`.schema`)
_WITH_EMBEDDING = sa.table(
    "passages",
    *(sa.column(c.name, c.type) for c in schema.passages.columns),
    sa.column("embedding", _HalfVec()),
)
_EMBEDDING = sa.cast(sa.bindparam("embedding_literal"), _HalfVec())


def index_table(org_id: str, workspace_id: str) -> str:
    """The name of a workspace's index table (hex only: safe to put into SQL)."""
    digest = hashlib.sha256(f"{org_id}\x00{workspace_id}".encode()).hexdigest()[:24]
    return f"fts_{digest}"


def _fts5(conn: sa.Connection) -> bool:
    """Whether the full-text index is FTS5 tables to keep in step (SQLite)."""
    return not is_postgres(conn)


def index_exists(conn: sa.Connection, name: str) -> bool:
    found = conn.exec_driver_sql(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    )
    return found.first() is not None


FilePassages = tuple[str, Sequence[tuple[int, str]], Sequence[list[Any]] | None]
"""A file's id, its passages (``(start offset, text)``) and the JSON of their locations."""


def add_passages(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    file_id: str,
    passages: Sequence[tuple[int, str]],
    locations: Sequence[list[Any]] | None = None,
) -> int:
    """Store one file's passages: :func:`add_files_passages` of it."""
    files = [(file_id, passages, locations)]
    return add_files_passages(conn, org_id=org_id, workspace_id=workspace_id, files=files)


def add_files_passages(
    conn: sa.Connection, *, org_id: str, workspace_id: str, files: Sequence[FilePassages]
) -> int:
    """Store files' passages (with the JSON of their ``locations`` in the file) and index
    them; how many. Their vectors are pending (:func:`claim_pending`, :func:`set_vectors`)."""
    rows = [
        {
            "file_id": file_id,
            "org_id": org_id,
            "workspace_id": workspace_id,
            "ord": i,
            "start": start,
            "text": text,
            "locations": place,
        }
        for file_id, passages, locations in files
        for i, ((start, text), place) in enumerate(
            zip(passages, locations if locations is not None else [[]] * len(passages), strict=True)
        )
    ]
    if not rows:
        return 0
    if _fts5(conn):
        conn.execute(sa.insert(schema.passages), rows)
        for file_id, passages, _ in files:
            if passages:
                _index(conn, index_table(org_id, workspace_id), "file_id = ?", (file_id,))
    else:
        # Statements of many rows, all the files of an upload at once: the term
        # statistics' statement triggers then count each term once per statement, not
        # once per passage as an executemany's one-row INSERTs made them (87% of an
        # upload's time at 50,000 passages).
        for first in range(0, len(rows), INSERT_ROWS):
            conn.execute(sa.insert(schema.passages).values(rows[first : first + INSERT_ROWS]))
    return len(rows)


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
    if _fts5(conn):  # FTS5 tables are kept in step; PostgreSQL's index is the rows'
        pairs = sa.select(p.c.org_id, p.c.workspace_id).where(where).distinct()
        for org_id, workspace_id in conn.execute(pairs):
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
    if _fts5(conn):
        conn.exec_driver_sql(f'DROP TABLE IF EXISTS "{index_table(org_id, workspace_id)}"')
    p = schema.passages
    conn.execute(p.delete().where(p.c.org_id == org_id, p.c.workspace_id == workspace_id))


VectorRow = tuple[int, str, bytes]
"""``(passage id, file id, vector bytes)``."""


def _of_workspace(org_id: str, workspace_id: str, model: str) -> sa.ColumnElement[bool]:
    p = schema.passages
    return sa.and_(
        p.c.org_id == org_id, p.c.workspace_id == workspace_id, p.c.vector_model == model
    )


Stamp = tuple[int, int, int, int]
"""What :func:`vector_stamp` says: count, largest id, sum of ids, last removal."""


def vector_stamp(conn: sa.Connection, *, org_id: str, workspace_id: str, model: str) -> Stamp:
    """``(count, largest id, sum of ids, last removal)`` of a workspace's passages with
    vectors of ``model``: it changes whenever one is added or removed, so a copy held in
    memory knows it is stale (the sum: when one below the largest is removed and another
    stored, as a file is deleted while the vectors of others are being computed; the last
    removal: when SQLite gives a deleted passage's id to the next one, and the three
    others come back as they were). On SQLite they are kept by triggers
    (``vector_stamps``, migrations ``m016_vector_stamps`` and ``m018_vector_removals``)
    and the largest id is one step down an index: what a question costs here does not
    grow with the passages. PostgreSQL never gives an id twice: its last removal is 0."""
    p = schema.passages
    if not is_postgres(conn):
        largest = sa.select(sa.func.max(p.c.id)).where(_of_workspace(org_id, workspace_id, model))
        kept = conn.execute(
            sa.text(
                "SELECT passages, id_sum, removed_at FROM vector_stamps "
                "WHERE org_id = :o AND workspace_id = :w AND model = :m"
            ),
            {"o": org_id, "w": workspace_id, "m": model},
        ).first()
        if kept is None:
            return 0, 0, 0, 0
        return (
            int(kept[0]),
            int(conn.execute(largest).scalar_one() or 0),
            int(kept[1]),
            int(kept[2]),
        )
    found = conn.execute(
        sa.select(
            sa.func.count(),
            sa.func.coalesce(sa.func.max(p.c.id), 0),
            sa.func.coalesce(sa.func.sum(p.c.id), 0),
        ).where(_of_workspace(org_id, workspace_id, model))
    ).one()
    return int(found[0]), int(found[1]), int(found[2]), 0


def workspace_vectors(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    model: str,
    after: int = 0,
    limit: int | None = None,
) -> list[VectorRow]:
    """The passage vectors of ``model`` in a workspace, by passage id: the first ``limit``
    (None: all) of the passages after ``after``."""
    p = schema.passages
    rows = conn.execute(
        sa.select(p.c.id, p.c.file_id, p.c.vector)
        .where(_of_workspace(org_id, workspace_id, model), p.c.id > after)
        .order_by(p.c.id)
        .limit(limit)
    )
    return [(int(pid), file_id, bytes(vector)) for pid, file_id, vector in rows]


def vector_owners(
    conn: sa.Connection, *, org_id: str, workspace_id: str, model: str
) -> list[tuple[int, str]]:
    """The ids of a workspace's passages with vectors of ``model``, and their files (no
    vectors read)."""
    p = schema.passages
    rows = conn.execute(
        sa.select(p.c.id, p.c.file_id).where(_of_workspace(org_id, workspace_id, model))
    )
    return [(int(pid), file_id) for pid, file_id in rows]


def vectors_of(conn: sa.Connection, ids: Sequence[int], *, model: str) -> list[VectorRow]:
    """The vectors of ``model`` of these passages (those that have one), by passage id."""
    p = schema.passages
    found: list[VectorRow] = []
    for at in range(0, len(ids), 500):  # bound the parameters of one statement
        rows = conn.execute(
            sa.select(p.c.id, p.c.file_id, p.c.vector)
            .where(p.c.id.in_(ids[at : at + 500]), p.c.vector_model == model)
            .order_by(p.c.id)
        )
        found += [(int(pid), file_id, bytes(vector)) for pid, file_id, vector in rows]
    return found


PendingRow = tuple[int, str, str]
"""``(passage id, file id, text)`` of a passage claimed for its vector."""

_PENDING = "vector_model IS NULL"
"""A passage waiting for its vector (the partial index ``passages_pending`` holds them)."""


def claim_pending(
    conn: sa.Connection,
    *,
    limit: int,
    now: float,
    until: float,
    workspace: tuple[str, str] | None = None,
) -> list[PendingRow]:
    """Claim up to ``limit`` passages waiting for a vector (of ``workspace`` alone, when
    given), oldest first, until ``until``: those no other claim holds (none, or one run
    out before ``now``: its replica died). Rows another transaction claims at this moment
    are skipped on PostgreSQL (``SKIP LOCKED``); SQLite's single writer makes two claims
    take turns."""
    lock = " FOR UPDATE SKIP LOCKED" if is_postgres(conn) else ""
    params: dict[str, object] = {"until": until, "now": now, "limit": limit}
    only = ""
    if workspace is not None:
        only = " AND org_id = :org_id AND workspace_id = :workspace_id"
        params["org_id"], params["workspace_id"] = workspace
    rows = conn.execute(
        sa.text(
            "UPDATE passages SET embed_claimed_until = :until WHERE id IN ("  # noqa: S608
            f"SELECT id FROM passages WHERE {_PENDING}{only} AND (embed_claimed_until IS "
            f"NULL OR embed_claimed_until < :now) ORDER BY id LIMIT :limit{lock}"
            ") RETURNING id, file_id, text"
        ),
        params,
    )
    return sorted((int(pid), file_id, text) for pid, file_id, text in rows)


def forget_other_vectors(conn: sa.Connection, *, model: str, embedding: bool = False) -> list[str]:
    """Make pending the passages whose vector another model made (never compared with
    this model's) or, with ``embedding``, that lack pgvector's column (the extension came
    later); the ids of the files with a pending passage (these, and those stored
    without vectors). Their old claim goes too: it was for the vector they have (its
    deadline would keep every replica off them for minutes more: ``vectors.CLAIM_SECONDS``)."""
    p = schema.passages
    other = p.c.vector_model != model
    if embedding:
        other = sa.or_(other, sa.column("embedding").is_(None))
    forget = p.update().where(p.c.vector_model.is_not(None), other)
    conn.execute(forget.values(vector_model=None, embed_claimed_until=None))
    pending = sa.select(p.c.file_id).where(p.c.vector_model.is_(None)).distinct()
    return sorted(conn.scalars(pending))


def set_vectors(
    conn: sa.Connection,
    *,
    model: str,
    rows: Sequence[tuple[int, bytes]],
    embeddings: Sequence[str] | None = None,
) -> None:
    """Store the vectors of existing passages, and their pgvector ``embeddings`` where the
    database has that column (a passage deleted meanwhile is skipped)."""
    if not rows:
        return
    p = schema.passages if embeddings is None else _WITH_EMBEDDING
    update = p.update().where(p.c.id == sa.bindparam("pid"))
    update = update.values(vector=sa.bindparam("vec"), vector_model=model)
    values: list[dict[str, object]] = [{"pid": pid, "vec": vector} for pid, vector in rows]
    if embeddings is not None:
        update = update.values(embedding=_EMBEDDING)
        for value, embedding in zip(values, embeddings, strict=True):
            value["embedding_literal"] = embedding
    conn.execute(update, values)
