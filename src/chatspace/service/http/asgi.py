"""The shape the service's pure ASGI middleware share: they act on HTTP requests only.

A pure ASGI middleware (not Starlette's ``BaseHTTPMiddleware``, which buffers and runs the
app in another task) wraps ``receive`` or ``send`` of one request; the lifespan scope
passes through untouched. Each subclass writes :meth:`HTTPMiddleware.handle` only.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["HTTPMiddleware"]


class HTTPMiddleware:
    """ASGI middleware around ``app`` that handles ``http`` scopes and passes the others."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.handle(scope, receive, send)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """One HTTP request: call ``self.app`` with ``receive`` or ``send`` wrapped."""
        raise NotImplementedError
