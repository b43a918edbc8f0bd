"""What the service's inner layers raise when a request cannot be served.

Storage and engines raise these and know nothing of HTTP; :mod:`.app` turns each into
its status and the body of docs/interface.md#errors: ``{"detail": "<one sentence>"}``, or for
:class:`Invalid` the 422 shape ``{"detail": [{"loc", "msg", "type"}]}``. Every error body
also carries ``error: {"message", "type", "code"}`` in the OpenAI API's shape
(:func:`error_body`), which the ``openai`` package, LangChain and litellm show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chatspace.types.common import ErrorResponse

MAX_QUOTED = 80


def quoted(name: str) -> str:
    """A name or id as an answer quotes it: in quotes, and cut after 80 characters, so that
    an id of 60 KB sent in a path is not sent back whole."""
    return f"'{name}'" if len(name) <= MAX_QUOTED else f"'{name[:MAX_QUOTED]}...'"


class Problem(Exception):
    status_code = 500
    headers: dict[str, str] | None = None

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class BadRequest(Problem):
    """A well-formed request the service cannot serve (e.g. a JSON schema it cannot fill)."""

    status_code = 400


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
    400: "A well-formed request the service cannot serve",
    401: "Missing, malformed, badly signed or expired bearer token",
    403: "The caller's access level in the workspace is too low",
    404: "Not found, or not visible to the caller",
    408: "The request body stalled (nothing arrived for the service's body timeout)",
    409: "Conflict with the current state",
    413: "A body, file or form field over the size limit",
    429: "Rate limit reached (see Retry-After)",
    502: "The upstream model failed",
    504: "The upstream model timed out",
}


_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    408: "timeout_error",
    409: "conflict_error",
    413: "request_too_large",
    422: "invalid_request_error",
    429: "rate_limit_error",
    502: "upstream_error",
    504: "upstream_timeout",
}


def error_body(status_code: int, detail: str | list[dict[str, Any]]) -> dict[str, Any]:
    """The body of an error answer: ``detail`` (docs/interface.md#errors) and OpenAI's ``error``.

    For a 422, ``error.message`` is the first fault on one line (``messages.0.content:
    Field required``) and ``error.code`` its type.
    """
    code = None
    if isinstance(detail, list):
        first = detail[0] if detail else {"loc": [], "msg": "Invalid request", "type": None}
        loc = [str(part) for part in first["loc"]]
        where = ".".join(loc[1:] if loc[:1] == ["body"] else loc)
        message = f"{where}: {first['msg']}" if where else str(first["msg"])
        code = first["type"]
    else:
        message = detail
    fallback = "server_error" if status_code >= 500 else "invalid_request_error"
    error = {
        "message": " ".join(message.split()),
        "type": _ERROR_TYPES.get(status_code, fallback),
        "code": code,
    }
    return {"detail": detail, "error": error}


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses, each with the one-sentence body."""
    return {
        code: {"model": ErrorResponse, "description": _ERROR_DESCRIPTIONS[code]} for code in codes
    }
