"""Turning failed exchanges into the exceptions of :mod:`chatspace.errors`.

Only plain values cross over (status, detail, request id, method, URL without
credentials): never the request or its headers, so an error cannot carry the token.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from chatspace.errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    error_for_status,
)

from ._retry import parse_retry_after

__all__ = ["connection_error", "public_url", "status_error"]

_MAX_TEXT = 300


def public_url(url: httpx.URL) -> str:
    """The URL as it may be shown: no user info, no query string."""
    port = f":{url.port}" if url.port else ""
    return f"{url.scheme}://{url.host}{port}{url.path}"


def status_error(response: httpx.Response) -> APIStatusError:
    """The exception for an error answer; its body must have been read."""
    body: Any = None
    try:
        body = json.loads(response.content) if response.content else None
    except ValueError:
        body = None
    if isinstance(body, dict) and "detail" in body:
        detail = body["detail"]
    elif body is not None:
        detail = body
    else:
        text = response.content[:_MAX_TEXT].decode("utf-8", "replace").strip()
        detail = text or (response.reason_phrase or "error")
    request_id = response.headers.get("x-request-id")
    if request_id is None and isinstance(body, dict) and isinstance(body.get("request_id"), str):
        request_id = body["request_id"]
    request = response.request
    cls = error_for_status(response.status_code)
    return cls(
        detail,
        status_code=response.status_code,
        request_id=request_id,
        method=request.method,
        url=public_url(request.url),
        retry_after=parse_retry_after(response.headers.get("retry-after")),
    )


def connection_error(exc: httpx.TransportError, request: httpx.Request) -> APIConnectionError:
    """The exception for a request that got no (complete) answer."""
    url = public_url(request.url)
    reason = str(exc) or type(exc).__name__
    if isinstance(exc, httpx.TimeoutException):
        return APITimeoutError(
            f"{request.method} {url} timed out ({type(exc).__name__}). "
            "Raise the client's timeout= or retry later.",
            url=url,
            reason=type(exc).__name__,
        )
    return APIConnectionError(
        f"{request.method} {url} failed: {reason}. Check that the service is running "
        "and that the base URL (CHATSPACE_BASE_URL or base_url=...) is right.",
        url=url,
        reason=reason,
    )
