"""Requests counted per caller and second, shared by every replica through the database.

One row per (org, user, second): ``hits`` counts the requests let through during the
second that starts at ``epoch_second``. The rate limit (:mod:`chatspace.service.ratelimit`)
sums the seconds of the last minute. A hit is one upsert that adds itself only while the
second holds fewer than a cap; the row it writes is locked (PostgreSQL) or the database
is (SQLite) while it does, so replicas counting one caller at once never let more through
together than the cap.
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = ["count_one", "hits_since", "purge"]

_COUNT_ONE = sa.text(
    """
    INSERT INTO rate_counters (org_id, user_id, epoch_second, hits)
    VALUES (:org_id, :user_id, :second, 1)
    ON CONFLICT (org_id, user_id, epoch_second)
    DO UPDATE SET hits = rate_counters.hits + 1 WHERE rate_counters.hits < :cap
    RETURNING hits
    """
)
_HITS_SINCE = sa.text(
    """
    SELECT epoch_second, hits FROM rate_counters
    WHERE org_id = :org_id AND user_id = :user_id AND epoch_second >= :since
    ORDER BY epoch_second
    """
)
_PURGE = sa.text("DELETE FROM rate_counters WHERE epoch_second < :before")


def hits_since(
    conn: sa.Connection, *, org_id: str, user_id: str, since: int
) -> list[tuple[int, int]]:
    """(second, hits) of the caller's seconds from ``since`` on, oldest first."""
    rows = conn.execute(_HITS_SINCE, {"org_id": org_id, "user_id": user_id, "since": since})
    return [(int(second), int(hits)) for second, hits in rows]


def count_one(conn: sa.Connection, *, org_id: str, user_id: str, second: int, cap: int) -> bool:
    """Count one request in ``second`` if that second holds fewer than ``cap`` (at least 1)
    hits; whether it was counted."""
    row = conn.execute(
        _COUNT_ONE, {"org_id": org_id, "user_id": user_id, "second": second, "cap": cap}
    ).first()
    return row is not None


def purge(conn: sa.Connection, *, before: int) -> int:
    """Forget the seconds before ``before``; how many rows."""
    return conn.execute(_PURGE, {"before": before}).rowcount or 0
