"""How a domain error is answered: its status, headers and body.

The errors are :mod:`chatspace.service.problems`' (no HTTP there). The body is that of
docs/interface.md#errors: ``{"detail": "<one sentence>"}``, or for
:class:`~chatspace.service.problems.Invalid` the 422 shape
``{"detail": [{"loc", "msg", "type"}]}``. Every error body also carries
``error: {"message", "type", "code"}`` in the OpenAI API's shape (:func:`error_body`),
which the ``openai`` package, LangChain and litellm show.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from chatspace.service.problems import (
    BadRequest,
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    Problem,
    RateLimited,
    TooLarge,
    Unauthenticated,
    UpstreamFailed,
    UpstreamTimeout,
)
from chatspace.types.common import ErrorResponse

__all__ = ["error_body", "error_responses", "on_problem"]

_STATUSES: dict[type[Problem], int] = {
    BadRequest: 400,
    Unauthenticated: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    TooLarge: 413,
    Invalid: 422,
    RateLimited: 429,
    UpstreamFailed: 502,
    UpstreamTimeout: 504,
}

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


def _status_of(problem: Problem) -> int:
    """The status ``problem`` is answered with: that of its nearest class with one (500
    for a bare :class:`~chatspace.service.problems.Problem`)."""
    return next((_STATUSES[c] for c in type(problem).__mro__ if c in _STATUSES), 500)


def _headers_of(problem: Problem) -> dict[str, str] | None:
    if isinstance(problem, Unauthenticated):
        return {"WWW-Authenticate": "Bearer"}
    if isinstance(problem, RateLimited):
        return {"Retry-After": str(problem.retry_after)}
    return None


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


def faults_at(loc: tuple[str | int, ...], exc: ValidationError) -> list[dict[str, Any]]:
    """The faults of ``exc`` as 422 items, each ``loc`` under ``loc`` (a value validated
    apart from the request's model: a query parameter holding JSON, a form's fields)."""
    return [{"loc": [*loc, *e["loc"]], "msg": e["msg"], "type": e["type"]} for e in exc.errors()]


async def on_problem(_: Request, exc: Exception) -> JSONResponse:
    """The handler of every :class:`~chatspace.service.problems.Problem`: its status, its
    headers (``WWW-Authenticate``, ``Retry-After``) and its body."""
    assert isinstance(exc, Problem)
    status = _status_of(exc)
    detail = exc.items if isinstance(exc, Invalid) else exc.detail
    return JSONResponse(error_body(status, detail), status_code=status, headers=_headers_of(exc))


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error statuses, each with the one-sentence body."""
    return {
        code: {"model": ErrorResponse, "description": _ERROR_DESCRIPTIONS[code]} for code in codes
    }
