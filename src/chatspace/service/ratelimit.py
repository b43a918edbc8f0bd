"""Optional per-caller rate limit (``--rate-limit-per-minute``), answered with 429.

The requests of the last minute are counted in the database (:mod:`.store.rate_counters`),
one row per caller and second, so that every replica of a team deployment counts the same
requests: a caller gets ``per_minute`` requests in any 60 seconds however the proxy
spreads them. A refused request is not counted, so a client that waits ``Retry-After``
seconds gets through. Replicas read their own clocks: keep them in sync (NTP).
"""

from __future__ import annotations

import math
import time

import sqlalchemy as sa

from .problems import RateLimited
from .store import rate_counters
from .store.transactions import write_transaction

__all__ = ["WINDOW_SECONDS", "RateLimiter"]

WINDOW_SECONDS = 60


class RateLimiter:
    """A moving one-minute window per (org, user), one second fine; no limit when
    ``per_minute`` is None."""

    def __init__(self, per_minute: int | None, db: sa.Engine) -> None:
        self.per_minute = per_minute
        self._db = db

    def check(self, org_id: str, user_id: str) -> None:
        """Count this request, or raise :class:`~.problems.RateLimited` (nothing counted)."""
        if self.per_minute is None:
            return
        now = time.time()
        second = int(now)
        caller = {"org_id": org_id, "user_id": user_id}
        # the seconds read and the one counted, in one transaction (the upsert guards itself)
        with write_transaction(self._db) as conn:
            seen = rate_counters.hits_since(conn, **caller, since=second - WINDOW_SECONDS + 1)
            # The earlier seconds of the window are over: only this one's row can change.
            earlier = sum(hits for at, hits in seen if at < second)
            cap = self.per_minute - earlier
            if cap >= 1 and rate_counters.count_one(conn, **caller, second=second, cap=cap):
                return
            seen = rate_counters.hits_since(conn, **caller, since=second - WINDOW_SECONDS + 1)
        retry_after = self._retry_after(seen, now)
        raise RateLimited(
            f"Rate limit of {self.per_minute} requests per minute reached; "
            f"retry in {retry_after} s.",
            retry_after,
        )

    def _retry_after(self, seen: list[tuple[int, int]], now: float) -> int:
        """Whole seconds until enough of the oldest hits leave the window for one more."""
        assert self.per_minute is not None
        excess = sum(hits for _, hits in seen) - self.per_minute + 1
        for at, hits in seen:
            excess -= hits
            if excess <= 0:
                return max(1, math.ceil(at + WINDOW_SECONDS - now))
        return 1
