"""Optional per-caller rate limit (``--rate-limit-per-minute``), answered with 429."""

from __future__ import annotations

import math
import time

import limits
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .problems import RateLimited


class RateLimiter:
    """A moving one-minute window per (org, user); no limit when ``per_minute`` is None."""

    def __init__(self, per_minute: int | None) -> None:
        self._item = limits.RateLimitItemPerMinute(per_minute) if per_minute else None
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, org_id: str, user_id: str) -> None:
        if self._item is None or self._limiter.hit(self._item, org_id, user_id):
            return
        reset = self._limiter.get_window_stats(self._item, org_id, user_id).reset_time
        retry_after = max(1, math.ceil(reset - time.time()))
        raise RateLimited(
            f"Rate limit of {self._item.amount} requests per minute reached; "
            f"retry in {retry_after} s.",
            retry_after,
        )
