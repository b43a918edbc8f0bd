"""When to retry a request, and how long to wait first.

Exponential backoff with full jitter: before retry ``n`` (0-based) the client waits a
random time in ``[0, min(max_delay, initial_delay * 2**n)]``, which spreads the retries
of many clients apart. An answer's ``Retry-After`` wins over the backoff, up to
``max_retry_after`` seconds; beyond that the error is raised at once, since waiting
minutes inside a call helps nobody.
"""

from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass

__all__ = ["RETRY_STATUSES", "RetryPolicy", "parse_retry_after"]

RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How many times, and how patiently, a failed request is tried again."""

    max_retries: int = 2
    initial_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        if not 0 <= self.initial_delay <= self.max_delay:
            raise ValueError("retry delays must satisfy 0 <= initial_delay <= max_delay")

    def backoff(self, attempt: int) -> float:
        """Full jitter: uniform in ``[0, min(max_delay, initial_delay * 2**attempt)]``."""
        ceiling = min(self.max_delay, self.initial_delay * (2 ** min(attempt, 32)))
        return random.uniform(0.0, ceiling)

    def delay(self, attempt: int, retry_after: float | None) -> float | None:
        """Seconds to wait before retry ``attempt``; None when waiting is not worth it."""
        if retry_after is not None:
            return retry_after if retry_after <= self.max_retry_after else None
        return self.backoff(attempt)


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header: a number of seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        parsed = email.utils.parsedate_tz(value)
        if parsed is None:
            return None
        seconds = email.utils.mktime_tz(parsed) - (time.time() if now is None else now)
    if seconds != seconds:  # NaN
        return None
    return max(0.0, seconds)
