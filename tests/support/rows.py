"""Rows written straight into a migrated database, for the tests of the store and the
indexes that need a file to exist without uploading one."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from chatspace.service.store import schema

__all__ = ["add_file_row"]


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
