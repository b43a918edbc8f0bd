"""Every answer carries ``x-request-id``, so that an error a user reports names its request.

The id is made before routing and kept in ``request.state.request_id``; a completion's
``request_id`` field is the same id as the header of the request that created it.
"""

from __future__ import annotations

import secrets

from starlette.types import Message, Receive, Scope, Send

from .asgi import HTTPMiddleware

HEADER = b"x-request-id"


def new_request_id() -> str:
    return "req_" + secrets.token_hex(12)


class RequestIdMiddleware(HTTPMiddleware):
    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        request_id = new_request_id()
        scope.setdefault("state", {})["request_id"] = request_id

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (HEADER, request_id.encode())]
            await send(message)

        await self.app(scope, receive, send_with_id)
