"""Leases: a named job that one replica at a time may run, held until a deadline.

One row per job name: who holds it and until when. A holder renews its lease before it
expires; a replica that dies stops renewing, and once the deadline passes the next
replica to ask takes the lease over. Taking or renewing is one upsert, atomic on SQLite
and PostgreSQL alike, that writes only when the lease is free, expired or already ours.
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = ["acquire", "release"]

_ACQUIRE = sa.text(
    """
    INSERT INTO leases (name, holder, expires_at) VALUES (:name, :holder, :expires_at)
    ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
    WHERE leases.holder = excluded.holder OR leases.expires_at <= :now
    RETURNING holder
    """
)


def acquire(conn: sa.Connection, *, name: str, holder: str, now: float, seconds: float) -> bool:
    """Take or renew the lease ``name`` for ``seconds`` from ``now``; whether ``holder``
    holds it now (False while another holder's lease runs)."""
    params = {"name": name, "holder": holder, "expires_at": now + seconds, "now": now}
    return conn.execute(_ACQUIRE, params).first() is not None


def release(conn: sa.Connection, *, name: str, holder: str) -> None:
    """Give the lease up, if ``holder`` holds it, so that another replica need not wait."""
    conn.execute(
        sa.text("DELETE FROM leases WHERE name = :name AND holder = :holder"),
        {"name": name, "holder": holder},
    )
