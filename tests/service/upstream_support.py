"""A scripted OpenAI-compatible model server for the upstream tests.

A real HTTP server (uvicorn, in a thread of the test process) that records every request
and answers by the requested model name, so that tests can see exactly what the service
forwards and make the upstream fail in each way the service must survive:

=============  ===============================================================
``echo``       answers ``REPLY`` (citing ``[1]`` and a passage that does not exist),
               plain or streamed, with usage ``USAGE``
``broken``     HTTP 500
``garbage``    HTTP 200 with a body that is not JSON
``hang``       answers nothing until the server stops
``midstream``  streams two pieces of ``REPLY``, then an error event
``stall``      streams two pieces of ``REPLY``, then nothing until the server stops
``meta``       a JSON object of metadata in a Markdown fence (``META``); a request
               whose text says "garble" gets prose instead
=============  ===============================================================
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

__all__ = ["META", "PIECES", "REPLY", "USAGE", "FakeUpstream", "closed_port"]

PIECES = ["Noted ", "[1] and ", "[7]."]
REPLY = "".join(PIECES)
USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
META = {"summary": "A file about deserts.", "pages": 1}


def closed_port() -> int:
    """A port of 127.0.0.1 that nothing listens on (taken, then given back)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _event(data: Any) -> bytes:
    return f"data: {json.dumps(data)}\n\n".encode()


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    head = {"id": "up-1", "object": "chat.completion.chunk", "created": 1, "model": "x"}
    return {**head, "choices": [choice]}


class FakeUpstream:
    """The server; ``requests`` holds ``{"headers", "body"}`` of each request received."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._release: asyncio.Event | None = None
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}/v1"
        app = Starlette(
            routes=[Route("/v1/chat/completions", self._chat, methods=["POST"])],
            lifespan=self._lifespan,
        )
        config = uvicorn.Config(app, log_level="warning", ws="none", http="h11", lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, args=([self._sock],))

    @asynccontextmanager
    async def _lifespan(self, _: Starlette) -> AsyncIterator[None]:
        self._loop = asyncio.get_running_loop()
        self._release = asyncio.Event()
        self._ready.set()
        yield

    def start(self) -> FakeUpstream:
        self._thread.start()
        assert self._ready.wait(timeout=30), "the fake upstream did not start"
        return self

    def stop(self) -> None:
        if self._loop is not None and self._release is not None:
            self._loop.call_soon_threadsafe(self._release.set)
        self._server.should_exit = True
        self._thread.join(timeout=30)
        self._sock.close()

    def last(self, model: str) -> dict[str, Any]:
        """The last request received for ``model``."""
        return next(r for r in reversed(self.requests) if r["body"].get("model") == model)

    async def _chat(self, request: Request) -> Response:
        body = await request.json()
        self.requests.append({"headers": dict(request.headers), "body": body})
        model = body.get("model")
        if model == "broken":
            return JSONResponse({"error": {"message": "boom"}}, status_code=500)
        if model == "garbage":
            return PlainTextResponse("<html>upstream proxy error</html>")
        if model == "hang":
            assert self._release is not None
            await self._release.wait()
            return JSONResponse({})
        if model == "meta":
            text = json.dumps(body["messages"])
            content = "Sorry, no." if "garble" in text else f"```json\n{json.dumps(META)}\n```"
            return JSONResponse(self._completion(content))
        if body.get("stream"):
            return StreamingResponse(self._stream(body), media_type="text/event-stream")
        return JSONResponse(self._completion(REPLY))

    @staticmethod
    def _completion(content: str) -> dict[str, Any]:
        message = {"role": "assistant", "content": content}
        return {
            "id": "up-1",
            "object": "chat.completion",
            "created": 1,
            "model": "x",
            "system_fingerprint": "fp-upstream",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": USAGE,
        }

    async def _stream(self, body: dict[str, Any]) -> AsyncIterator[bytes]:
        yield _event(_chunk({"role": "assistant", "content": ""}))
        pieces = PIECES[:2] if body["model"] in ("midstream", "stall") else PIECES
        for piece in pieces:
            yield _event(_chunk({"content": piece}))
        if body["model"] == "stall":
            assert self._release is not None
            await self._release.wait()
            return
        if body["model"] == "midstream":
            yield _event({"error": {"message": "model crashed", "type": "server_error"}})
            return
        yield _event(_chunk({}, "stop"))
        if (body.get("stream_options") or {}).get("include_usage"):
            yield _event(
                {"id": "up-1", "object": "chat.completion.chunk", "choices": [], "usage": USAGE}
            )
        yield b"data: [DONE]\n\n"
