"""Bounds on how much a request may take of the service: body size, time, parallel uploads.

JSON bodies are read by :class:`BoundedJSONRoute`: over the size limit is a 413, from
``Content-Length`` before anything is read or as soon as the bytes received pass it; a
large body is parsed in a worker thread, so that it never holds up the event loop's other
requests; and the value is checked by :mod:`.json_values`.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any

import anyio
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from chatspace.service.json_values import JSONRejected, loads_json
from chatspace.service.problems import RateLimited, TooLarge

from .errors import error_responses

__all__ = ["BoundedJSONRoute", "CallerSlots"]

_OFF_LOOP_BYTES = 64 * 1024
"""Bodies from this size on are parsed in a worker thread; smaller ones cost less inline."""


def _is_json(request: Request) -> bool:
    """Whether FastAPI will read the body as JSON (``application/json`` or ``+json``)."""
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


async def _read_body(request: Request, limit_mb: int) -> bytes:
    """The body, kept for FastAPI to read; a 413 as soon as it is known to be over the limit.

    Starlette has a body limit, but it answers in plain text, not as docs/interface.md#errors.
    """
    limit = limit_mb * 1024 * 1024
    too_large = TooLarge(f"The request body is over the limit of {limit_mb} MiB for JSON requests.")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and len(declared) < 19 and int(declared) > limit:
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    request._body = b"".join(chunks)  # Starlette's cache: FastAPI's request.body() reads it
    return request._body


class BoundedJSONRoute(APIRoute):
    """A route whose JSON body is read within the size limit and checked before FastAPI
    validates it: malformed, non-UTF-8, too deep or unencodable JSON is a 422 at its
    ``loc`` under ``body`` (FastAPI alone answers some of these with a 400 or a 500).
    A route that takes a body declares the 408 (body stalled) and 413 (body too large)
    that come before its own answers."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if {m.upper() for m in kwargs.get("methods") or ()} & {"POST", "PUT", "PATCH"}:
            kwargs["responses"] = {**error_responses(408, 413), **(kwargs.get("responses") or {})}
        super().__init__(path, endpoint, **kwargs)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if self.body_field is None:
            return handler

        async def bounded(request: Request) -> Response:
            body = await _read_body(request, request.app.state.chatspace.settings.max_json_mb)
            if body and _is_json(request):
                try:
                    if len(body) < _OFF_LOOP_BYTES:
                        value = loads_json(body)
                    else:
                        value = await anyio.to_thread.run_sync(loads_json, body)
                except JSONRejected as exc:
                    where = () if exc.pos is None else (exc.pos,)
                    raise RequestValidationError([exc.item("body", *where)]) from None
                # Starlette's Request caches the parsed body here; FastAPI reads it back.
                request._json = value
            return await handler(request)

        return bounded


class CallerSlots:
    """At most ``limit`` requests of a kind at once per caller; one more is a 429.

    The service runs one event loop, so a plain counter needs no lock.
    """

    def __init__(self, limit: int, what: str) -> None:
        self.limit = limit
        self.what = what
        self._taken: dict[tuple[str, str], int] = {}

    @contextmanager
    def hold(self, org_id: str, user_id: str) -> Iterator[None]:
        key = (org_id, user_id)
        if self._taken.get(key, 0) >= self.limit:
            raise RateLimited(
                f"You already have {self.limit} {self.what} in progress; wait for one to end.",
                retry_after=1,
            )
        self._taken[key] = self._taken.get(key, 0) + 1
        try:
            yield
        finally:
            self._taken[key] -= 1
            if not self._taken[key]:
                del self._taken[key]
