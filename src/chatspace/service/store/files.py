"""File rows: create, read, list with filters and cursors, update metadata, delete.

Bytes live in the :class:`~.blobs.BlobStore`; a row names its blob. Functions that delete
rows return the blob names, for the caller to remove once the transaction has committed
(so that a rollback never leaves a row without its bytes).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import sqlalchemy as sa

from chatspace.service.problems import NotFound, quoted
from chatspace.types.files import VECTORS_PENDING, File, FileList
from chatspace.types.filters import MetadataFilter

from .completions import forget_files
from .dialects import in_json_array
from .filters import metadata_count, metadata_where
from .metadata_values import index_metadata
from .passages import delete_file_passages
from .schema import files as table
from .schema import passages

__all__ = [
    "create_file",
    "delete_file",
    "file_ids_matching",
    "file_not_found",
    "get_file",
    "get_file_row",
    "known_file_ids",
    "list_files",
    "mark_vectors_pending",
    "new_file_id",
    "purge_expired",
    "referenced_blobs",
    "settle_vectors_pending",
    "update_file",
    "vectors_pending_in",
]

Order = Literal["asc", "desc"]


def new_file_id() -> str:
    """``file-`` and 24 URL-safe random characters."""
    return "file-" + secrets.token_urlsafe(18)


def file_not_found(file_id: str, workspace_id: str) -> NotFound:
    return NotFound(f"File {quoted(file_id)} not found in workspace {quoted(workspace_id)}.")


_WIRE_FIELDS = (
    "id",
    "bytes",
    "created_at",
    "filename",
    "purpose",
    "status",
    "status_details",
    "expires_at",
    "org_id",
    "workspace_id",
    "user_id",
    "metadata",
)


def _file(row: Mapping[str, Any] | sa.RowMapping) -> File:
    """The wire form of a row (internal columns such as ``blob`` stay inside);
    ``status_details`` ends with :data:`VECTORS_PENDING` while its vectors are."""
    fields = {name: row[name] for name in _WIRE_FIELDS}
    if row["vectors_pending"]:
        fields["status_details"] = " ".join(filter(None, (row["status_details"], VECTORS_PENDING)))
    return File(**fields)


def create_file(
    conn: sa.Connection,
    *,
    file_id: str,
    org_id: str,
    workspace_id: str,
    user_id: str,
    filename: str,
    size: int,
    sha256: str,
    content_type: str,
    purpose: str,
    metadata: dict[str, Any],
    status_details: str,
    created_at: int,
    expires_at: int | None,
    blob: str,
    vectors_pending: bool = False,
) -> File:
    """Insert a file's row; ``vectors_pending``: its passages wait for their vectors."""
    values = {
        "id": file_id,
        "org_id": org_id,
        "workspace_id": workspace_id,
        "user_id": user_id,
        "filename": filename,
        "bytes": size,
        "created_at": created_at,
        "expires_at": expires_at,
        "purpose": purpose,
        "status": "uploaded",
        "status_details": status_details,
        "metadata": metadata,
        "content_type": content_type,
        "sha256": sha256,
        "blob": blob,
        "vectors_pending": vectors_pending,
    }
    conn.execute(table.insert().values(**values))
    index_metadata(conn, [file_id])
    return _file(values)


def _visible(org_id: str, workspace_id: str, now: int) -> list[sa.ColumnElement[bool]]:
    return [
        table.c.org_id == org_id,
        table.c.workspace_id == workspace_id,
        sa.or_(table.c.expires_at.is_(None), table.c.expires_at > now),
    ]


def get_file_row(
    conn: sa.Connection, *, org_id: str, workspace_id: str, file_id: str, now: int
) -> Any:
    """The row of a file of this org and workspace that has not expired; 404 otherwise."""
    row = conn.execute(
        sa.select(table).where(table.c.id == file_id, *_visible(org_id, workspace_id, now))
    ).first()
    if row is None:
        raise file_not_found(file_id, workspace_id)
    return row


def get_file(
    conn: sa.Connection, *, org_id: str, workspace_id: str, file_id: str, now: int
) -> File:
    row = get_file_row(conn, org_id=org_id, workspace_id=workspace_id, file_id=file_id, now=now)
    return _file(row._mapping)


def _matching(
    conn: sa.Connection,
    metadata: MetadataFilter,
    where: list[sa.ColumnElement[bool]],
    *,
    workspace: tuple[str, str],
    now: int,
    visible_only: bool,
) -> int:
    """How many files ``where`` and ``metadata`` keep.

    When ``where`` keeps the visible files of ``workspace`` and nothing else, these are
    the files the metadata's index counts less the expired ones among them, which an
    index of their own finds: no set of the matching files' ids is built, SQLite's
    costliest step for a filter that keeps thousands of files."""
    org_id, workspace_id = workspace
    if not visible_only:
        kept = metadata_where(conn, metadata, org_id=org_id, workspace_id=workspace_id)
        return int(conn.execute(sa.select(sa.func.count()).where(*where, kept)).scalar_one())
    matched = metadata_count(conn, metadata, org_id=org_id, workspace_id=workspace_id)
    expired = sa.select(sa.func.count()).where(
        table.c.org_id == org_id,
        table.c.workspace_id == workspace_id,
        _expired(now),
        metadata_where(conn, metadata, org_id=org_id, workspace_id=workspace_id, few=True),
    )
    return int(conn.execute(sa.select(matched - expired.scalar_subquery())).scalar_one())


def list_files(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    now: int,
    after: str | None = None,
    limit: int = 10000,
    order: Order = "desc",
    purpose: str | None = None,
    metadata: MetadataFilter | None = None,
) -> FileList:
    """A page of files by ``created_at`` (ties by id); ``total`` counts every match.

    ``after`` must name a file of the workspace (404 otherwise); the page starts just past it.
    """
    where = _visible(org_id, workspace_id, now)
    if purpose is not None:
        where.append(table.c.purpose == purpose)
    key = sa.tuple_(table.c.created_at, table.c.id)
    cursor: tuple[int, str] | None = None
    if after is not None:
        anchor = conn.execute(
            sa.select(table.c.created_at, table.c.id).where(
                table.c.id == after, *_visible(org_id, workspace_id, now)
            )
        ).first()
        if anchor is None:
            raise NotFound(
                f"File {quoted(after)} (the after cursor) not found in {quoted(workspace_id)}."
            )
        cursor = (anchor.created_at, anchor.id)
    columns: list[sa.ColumnElement[Any]] = [table.c.created_at, table.c.id]
    sort = [c.desc() for c in columns] if order == "desc" else columns

    if metadata is None:
        total = conn.execute(sa.select(sa.func.count()).where(*where)).scalar_one()
    else:
        total = _matching(
            conn, metadata, where, workspace=(org_id, workspace_id), now=now,
            visible_only=purpose is None,
        )  # fmt: skip
        where.append(
            metadata_where(conn, metadata, org_id=org_id, workspace_id=workspace_id, few=True)
        )
    paged = list(where)
    if cursor is not None:
        paged.append(key > cursor if order == "asc" else key < cursor)
    rows = conn.execute(sa.select(table).where(*paged).order_by(*sort).limit(limit + 1)).all()

    page = [_file(r._mapping) for r in rows[:limit]]
    return FileList(
        data=page,
        total=total,
        first_id=page[0].id if page else None,
        last_id=page[-1].id if page else None,
        has_more=len(rows) > limit,
    )


def known_file_ids(
    conn: sa.Connection, *, org_id: str, workspace_id: str, file_ids: Sequence[str]
) -> set[str]:
    """Those of ``file_ids`` that name files of the workspace (expired ones too)."""
    wanted = json.dumps(list(dict.fromkeys(file_ids)))
    known = sa.text(
        "SELECT id FROM files WHERE org_id = :o AND workspace_id = :w "  # noqa: S608
        f"AND id {in_json_array(conn, 'ids')}"
    )
    return set(conn.scalars(known, {"o": org_id, "w": workspace_id, "ids": wanted}))


def file_ids_matching(
    conn: sa.Connection, *, org_id: str, workspace_id: str, criteria: MetadataFilter
) -> set[str]:
    """The files of the workspace (expired ones too) whose metadata ``criteria`` keeps,
    found by the database (:mod:`.filters`)."""
    return set(
        conn.scalars(
            sa.select(table.c.id).where(
                table.c.org_id == org_id,
                table.c.workspace_id == workspace_id,
                metadata_where(conn, criteria, org_id=org_id, workspace_id=workspace_id),
            )
        )
    )


def update_file(
    conn: sa.Connection,
    *,
    org_id: str,
    workspace_id: str,
    file_id: str,
    metadata: dict[str, Any],
    status_details: str | None,
    now: int,
) -> File:
    """Replace the metadata (and ``status_details`` when given) of a file."""
    get_file_row(conn, org_id=org_id, workspace_id=workspace_id, file_id=file_id, now=now)
    values: dict[str, Any] = {"metadata": metadata}
    if status_details is not None:
        values["status_details"] = status_details
    conn.execute(table.update().where(table.c.id == file_id).values(**values))
    index_metadata(conn, [file_id])
    return get_file(conn, org_id=org_id, workspace_id=workspace_id, file_id=file_id, now=now)


def _delete_rows(conn: sa.Connection, ids: list[str]) -> None:
    if ids:
        delete_file_passages(conn, ids)
        forget_files(conn, ids)
        conn.execute(table.delete().where(table.c.id.in_(ids)))


def delete_file(
    conn: sa.Connection, *, org_id: str, workspace_id: str, file_id: str, now: int
) -> str:
    """Delete a file's row and passages, and what sources kept of it; returns its blob
    name (remove it after commit)."""
    row = get_file_row(conn, org_id=org_id, workspace_id=workspace_id, file_id=file_id, now=now)
    _delete_rows(conn, [row.id])
    return str(row.blob)


def _expired(now: int) -> sa.ColumnElement[bool]:
    return sa.and_(table.c.expires_at.is_not(None), table.c.expires_at <= now)


def workspaces_with_expired(conn: sa.Connection, *, now: int) -> list[tuple[str, str]]:
    """The (organization, workspace) pairs that have a file past its ``expires_at``."""
    found = conn.execute(
        sa.select(table.c.org_id, table.c.workspace_id).where(_expired(now)).distinct()
    )
    return [(org, ws) for org, ws in found]


def purge_expired(conn: sa.Connection, *, workspace: tuple[str, str], now: int) -> list[str]:
    """Delete the workspace's files past their ``expires_at``; returns their blob names."""
    org_id, workspace_id = workspace
    rows = conn.execute(
        sa.select(table.c.id, table.c.blob).where(
            table.c.org_id == org_id, table.c.workspace_id == workspace_id, _expired(now)
        )
    ).all()
    _delete_rows(conn, [r.id for r in rows])
    return [r.blob for r in rows]


def mark_vectors_pending(conn: sa.Connection, file_ids: Sequence[str]) -> None:
    """Say that these files' passages wait for vectors again (another model's were
    forgotten)."""
    if file_ids:
        conn.execute(table.update().where(table.c.id.in_(file_ids)).values(vectors_pending=True))


def settle_vectors_pending(conn: sa.Connection, file_ids: Iterable[str] | None = None) -> None:
    """Clear the pending mark of those of ``file_ids`` (None: of every file marked) whose
    passages all have vectors.

    Run after the vectors' own transaction has committed: of two replicas finishing one
    file's passages at once, the one whose statement starts last sees both commits."""
    waiting = sa.exists().where(passages.c.file_id == table.c.id, passages.c.vector_model.is_(None))
    where = [table.c.vectors_pending, ~waiting]
    if file_ids is not None:
        where.append(table.c.id.in_(sorted(set(file_ids))))
    conn.execute(table.update().where(*where).values(vectors_pending=False))


def vectors_pending_in(conn: sa.Connection, workspace: tuple[str, str]) -> bool:
    """Whether a file of the workspace waits for its passages' vectors."""
    org_id, workspace_id = workspace
    marked = sa.select(table.c.id).where(
        table.c.org_id == org_id, table.c.workspace_id == workspace_id, table.c.vectors_pending
    )
    return conn.execute(marked.limit(1)).first() is not None


def referenced_blobs(conn: sa.Connection) -> set[str]:
    return set(conn.execute(sa.select(table.c.blob)).scalars())
