"""Rows of remembered answers to requests made with an ``Idempotency-Key``.

One row per (org, user, key): the request's fingerprint and the answer that was sent.
Rows older than :data:`RETENTION_SECONDS` are ignored, replaced when their key comes
again, and purged by the service's housekeeping (not on every write: a purge scans).
Replays and conflicts are :mod:`chatspace.service.idempotency`'s; the header
:mod:`chatspace.service.http.idempotency`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from .dialects import insert
from .schema import idempotency_keys as table

__all__ = ["RETENTION_SECONDS", "Remembered", "find", "purge", "save"]

RETENTION_SECONDS = 24 * 3600


@dataclass(frozen=True, slots=True)
class Remembered:
    """A stored answer and the fingerprint of the request that produced it."""

    fingerprint: str
    status_code: int
    media_type: str
    body: str


def _key(org_id: str, user_id: str, key: str) -> list[sa.ColumnElement[bool]]:
    return [table.c.org_id == org_id, table.c.user_id == user_id, table.c.key == key]


def find(
    conn: sa.Connection, *, org_id: str, user_id: str, key: str, now: float
) -> Remembered | None:
    """The answer remembered under this key in the last 24 hours, if any."""
    row = conn.execute(
        sa.select(table).where(
            *_key(org_id, user_id, key), table.c.created_at > now - RETENTION_SECONDS
        )
    ).first()
    if row is None:
        return None
    return Remembered(row.fingerprint, row.status_code, row.media_type, row.body)


def save(
    conn: sa.Connection,
    *,
    org_id: str,
    user_id: str,
    key: str,
    answer: Remembered,
    now: float,
) -> bool:
    """Remember an answer; an expired row under the same key is replaced. False when a
    live row holds the key (another request under it was remembered first)."""
    conn.execute(
        table.delete().where(
            *_key(org_id, user_id, key), table.c.created_at <= now - RETENTION_SECONDS
        )
    )
    inserted = conn.execute(
        insert(conn, table)
        .values(
            org_id=org_id,
            user_id=user_id,
            key=key,
            fingerprint=answer.fingerprint,
            status_code=answer.status_code,
            media_type=answer.media_type,
            body=answer.body,
            created_at=now,
        )
        .on_conflict_do_nothing()
        .returning(table.c.key)  # rowcount is -1 through psycopg: the row says it
    )
    return inserted.first() is not None


def purge(conn: sa.Connection, *, now: float) -> int:
    """Forget every key older than the retention period; returns how many."""
    result = conn.execute(table.delete().where(table.c.created_at <= now - RETENTION_SECONDS))
    return result.rowcount or 0
