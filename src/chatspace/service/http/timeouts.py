"""Read timeouts, so that clients that send slowly cannot hold connections open for ever.

uvicorn closes an idle keep-alive connection (``timeout_keep_alive``) but has no limit on
how long a client may take to send a request: its headers, or its body. Two pieces add
them, each where it can be seen:

- :func:`h11_protocol`: uvicorn's h11 protocol, closing a connection whose request head
  has not arrived whole within ``header_timeout`` seconds of the connection (or, on a
  kept-alive connection, of the head's first byte). No request exists yet, so there is
  nobody to answer. An idle kept-alive connection is closed by uvicorn after
  ``keep_alive_timeout``, longer than clients keep one (httpx: 5 s): a service that
  closed it first would race the client's next request on it, which then fails with a
  reset connection.
- :class:`BodyIdleTimeout`: ASGI middleware; while a request's body is incomplete, a
  ``receive()`` that brings nothing new within ``body_timeout`` seconds raises
  :class:`BodyTimeout`, answered with 408 and ``Connection: close``. An upload cut so
  removes its partial files, as for any failed upload.
"""

from __future__ import annotations

import asyncio

import anyio
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from .asgi import HTTPMiddleware

__all__ = ["BodyIdleTimeout", "BodyTimeout", "h11_protocol"]


class BodyTimeout(HTTPException):
    """The client stopped sending its body; the connection is closed after the answer."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            408,
            f"The request body stalled: nothing arrived for {seconds:g} s.",
            headers={"Connection": "close"},
        )


class BodyIdleTimeout(HTTPMiddleware):
    def __init__(self, app: ASGIApp, seconds: float) -> None:
        super().__init__(app)
        self.seconds = seconds

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        body_done = False

        async def timed_receive() -> Message:
            nonlocal body_done
            if body_done:  # waiting for a disconnect (a streamed answer) is not reading
                return await receive()
            try:
                with anyio.fail_after(self.seconds):
                    message = await receive()
            except TimeoutError:
                raise BodyTimeout(self.seconds) from None
            body_done = message["type"] != "http.request" or not message.get("more_body")
            return message

        await self.app(scope, timed_receive, send)


def h11_protocol(header_timeout: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a time limit on each request's head."""

    class HeaderTimedH11(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None
        _idle = False
        """Between an answer and the first byte of the next request."""

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(header_timeout, self._head_too_slow)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            self._head_timer = None
            self.logger.info(
                "closing a connection whose request head took over %g s", header_timeout
            )
            self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._idle:  # the next request starts: its head has the time limit
                self._idle = False
                self._arm()
            super().data_received(data)

        def handle_events(self) -> None:
            cycle = self.cycle
            super().handle_events()
            if self.cycle is not cycle:  # a request head arrived whole
                self._idle = False
                self._disarm()

        def on_response_complete(self) -> None:
            self._idle = True  # before: the next request, if already here, ends it at once
            super().on_response_complete()

    return HeaderTimedH11
