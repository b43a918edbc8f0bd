"""The FastAPI application: routers, error answers and the OpenAPI description."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route
from starlette.types import Message, Receive, Scope, Send

from chatspace._version import __version__
from chatspace.types.common import HTTPValidationError

from . import discovery, housekeeping, memory
from .config import Settings
from .http.asgi import HTTPMiddleware
from .http.errors import error_body, on_problem
from .http.limits import CallerSlots
from .http.request_ids import RequestIdMiddleware
from .http.timeouts import BodyIdleTimeout
from .json_values import shown
from .problems import Problem, quoted
from .routes import chat, files, models, workspaces
from .state import AppState

log = logging.getLogger("chatspace.service")

_MAX_MSG = 300

OPENAI_PREFIX = "/v1"
"""OpenAI clients are given a base URL ending in ``/v1`` (OpenAI's own, and what most
tools' docs show); the resources the OpenAI API has too answer under it as well."""
OPENAI_STYLE = (chat, files, models)
"""The routers of those resources: ``/chat``, ``/files`` and ``/models``."""


def _validation_items(exc: RequestValidationError) -> list[dict[str, object]]:
    """FastAPI's items cut to ``loc``, ``msg`` and ``type``: never echo the input back.

    Text that came from the request (a key in ``loc``, a value quoted in ``msg``) may hold
    lone surrogates, which cannot be sent as UTF-8: they are written as escapes.
    """
    return [
        {
            "loc": [shown(part) if isinstance(part, str) else part for part in e.get("loc", ())],
            "msg": shown(str(e.get("msg", ""))[:_MAX_MSG]),
            "type": e["type"],
        }
        for e in exc.errors()
    ]


async def _on_validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse(error_body(422, _validation_items(exc)), status_code=422)


def _allowed_methods(request: Request) -> str:
    """Every method of every route at the request's path (Starlette's 405 names only those
    of the first route that matches the path)."""
    methods: set[str] = set()
    for route in request.app.routes:
        if (
            isinstance(route, Route)
            and route.methods
            and route.matches(request.scope)[0] != Match.NONE
        ):
            methods |= route.methods
    return ", ".join(sorted(methods))


def _no_route_detail(path: str) -> str:
    """What a path no route matches answers: under ``/v1``, that the prefix is the fault
    (otherwise a tool given a ``.../v1`` base URL shows a bare "404 - Not Found")."""
    if path != OPENAI_PREFIX and not path.startswith(OPENAI_PREFIX + "/"):
        return "Not Found"
    canonical = path[len(OPENAI_PREFIX) :] or "/"
    return (
        f"No endpoint {quoted(path)}: chatspace's paths have no {OPENAI_PREFIX} prefix"
        f" (only /chat, /files and /models answer under it too); drop it: {quoted(canonical)}."
    )


async def _on_http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    headers = dict(exc.headers or {})
    detail = str(exc.detail)
    if exc.status_code == 405:
        headers["Allow"] = _allowed_methods(request)
    elif exc.status_code == 404:  # only the router raises it: no route has this path
        detail = _no_route_detail(request.url.path)
    return JSONResponse(
        error_body(exc.status_code, detail),
        status_code=exc.status_code,
        headers=headers,
    )


class UnexpectedErrors(HTTPMiddleware):
    """A bug's answer: a 500 logged once, with its request id, on a connection kept open.

    Starlette's own handler of last resort answers and then raises the error again, so
    that uvicorn logs it a second time and closes the connection.
    """

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched_send)
        except Exception:
            request_id = scope.get("state", {}).get("request_id", "-")
            log.exception(
                "unexpected error in %s %s (%s)", scope["method"], scope["path"], request_id
            )
            if started:  # too late for an answer: uvicorn closes the connection
                return
            detail = "Internal error in the chatspace service; see its log."
            await JSONResponse(error_body(500, detail), status_code=500)(scope, receive, send)


def create_app(settings: Settings | None = None, *, state: AppState | None = None) -> FastAPI:
    """The service as an ASGI app over ``state``, or over a state opened when the app
    starts (``chatspace serve`` opens it first, to say in one line why it cannot)."""
    settings = settings or Settings()
    opened = state

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state = opened or AppState.open(settings)
        app.state.chatspace = state
        endpoints = discovery.endpoints_from_env(os.environ) if settings.autodetect else []
        try:
            async with (
                housekeeping.running(state),
                discovery.running(state.models, endpoints),
                state.saved_models.running(),
                state.vectors.running() if state.vectors else nullcontext(),
                memory.trimming(),
            ):
                yield
        finally:
            await state.aclose()

    app = FastAPI(
        title="Chat, Workspace and File Service",
        description="The chatspace reference service (interface version 1.0.0).",
        version="1.0.0",
        lifespan=lifespan,
        responses={422: {"description": "Validation Error", "model": HTTPValidationError}},
    )
    app.state.service_version = __version__
    app.state.upload_slots = CallerSlots(settings.max_uploads_per_caller, "uploads")
    # The last added is the outermost: the request id exists before anything can fail.
    app.add_middleware(BodyIdleTimeout, seconds=settings.body_timeout)
    app.add_middleware(UnexpectedErrors)
    app.add_middleware(RequestIdMiddleware)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(Problem, on_problem)
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    for module in (chat, workspaces, files, models):
        app.include_router(module.router)
    # The same routes again, not a mounted sub-app: they share the middleware, the error
    # handlers and the state, and stay out of the OpenAPI document, which lists each once.
    for module in OPENAI_STYLE:
        app.include_router(module.router, prefix=OPENAI_PREFIX, include_in_schema=False)
    generate = app.openapi  # FastAPI's own, which caches what it made

    def openapi() -> dict[str, Any]:
        fresh = app.openapi_schema is None
        document = generate()
        if fresh:
            for name, schema in chat.openapi_components().items():
                document["components"]["schemas"].setdefault(name, schema)
        return document

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way
    return app
