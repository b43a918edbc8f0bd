"""What the service's inner layers raise when a request cannot be served.

Storage and engines raise these and know nothing of HTTP; :mod:`.app` turns each into
its status and the contract's body: ``{"detail": "<one sentence>"}``, or for
:class:`Invalid` the 422 shape ``{"detail": [{"loc", "msg", "type"}]}``.
"""

from __future__ import annotations

from collections.abc import Sequence


class Problem(Exception):
    status_code = 500
    headers: dict[str, str] | None = None

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class Unauthenticated(Problem):
    status_code = 401
    headers = {"WWW-Authenticate": "Bearer"}  # noqa: RUF012 - read-only, shared on purpose


class Forbidden(Problem):
    status_code = 403


class NotFound(Problem):
    status_code = 404


class Conflict(Problem):
    status_code = 409


class TooLarge(Problem):
    status_code = 413


class RateLimited(Problem):
    status_code = 429

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.headers = {"Retry-After": str(retry_after)}


class UpstreamFailed(Problem):
    status_code = 502


class UpstreamTimeout(Problem):
    status_code = 504


class Invalid(Problem):
    """A 422 found after FastAPI's own validation (a file id not in the workspace, ...)."""

    status_code = 422

    def __init__(self, loc: Sequence[str | int], msg: str, type: str = "value_error") -> None:
        super().__init__(msg)
        self.items = [{"loc": list(loc), "msg": msg, "type": type}]
