"""What the service's inner layers raise when a request cannot be served.

Storage and engines raise these and know nothing of HTTP; :mod:`.app` turns each into
its status and the contract's body: ``{"detail": "<one sentence>"}``, or for
:class:`Invalid` the 422 shape ``{"detail": [{"loc", "msg", "type"}]}``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatspace.types.common import ErrorResponse


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


_ERROR_DESCRIPTIONS = {
    401: "Missing, malformed, badly signed or expired bearer token",
    403: "The caller's access level in the workspace is too low",
    404: "Not found, or not visible to the caller",
    409: "Conflict with the current state",
    413: "A file or form field over the size limit",
    429: "Rate limit reached (see Retry-After)",
    502: "The upstream model failed",
    504: "The upstream model timed out",
}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses, each with the one-sentence body."""
    return {
        code: {"model": ErrorResponse, "description": _ERROR_DESCRIPTIONS[code]} for code in codes
    }
