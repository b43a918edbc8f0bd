"""The FastAPI application: routers, error answers and the OpenAPI description."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from chatspace._version import __version__
from chatspace.types.common import HTTPValidationError

from . import discovery, housekeeping
from .config import Settings
from .problems import Invalid, Problem, error_body
from .request_ids import RequestIdMiddleware
from .routes import chat, files, models, workspaces
from .state import AppState

log = logging.getLogger("chatspace.service")

_MAX_MSG = 300


def _validation_items(exc: RequestValidationError) -> list[dict[str, object]]:
    """FastAPI's items cut to ``loc``, ``msg`` and ``type``: never echo the input back."""
    return [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))[:_MAX_MSG], "type": e["type"]}
        for e in exc.errors()
    ]


async def _on_validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse(error_body(422, _validation_items(exc)), status_code=422)


async def _on_problem(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Problem)
    detail = exc.items if isinstance(exc, Invalid) else exc.detail
    return JSONResponse(
        error_body(exc.status_code, detail), status_code=exc.status_code, headers=exc.headers
    )


async def _on_http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    return JSONResponse(
        error_body(exc.status_code, str(exc.detail)),
        status_code=exc.status_code,
        headers=exc.headers,
    )


async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception(
        "unexpected error in %s %s (%s)",
        request.method,
        request.url.path,
        getattr(request.state, "request_id", "-"),
    )
    detail = "Internal error in the chatspace service; see its log."
    return JSONResponse(error_body(500, detail), status_code=500)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The service as an ASGI app; its state opens when the app starts."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state = AppState.open(settings)
        app.state.chatspace = state
        endpoints = discovery.endpoints_from_env(os.environ) if settings.autodetect else []
        try:
            async with housekeeping.running(state), discovery.running(state.models, endpoints):
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
    app.add_middleware(RequestIdMiddleware)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(Problem, _on_problem)
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    app.add_exception_handler(Exception, _on_unexpected)
    for module in (chat, workspaces, files, models):
        app.include_router(module.router)
    return app
