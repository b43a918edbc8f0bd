"""A scripted OpenAI-compatible model server: canned answers, and what it was sent.

It runs in the benchmark's own process (uvicorn in a thread on 127.0.0.1), so a benchmark
can configure ``chatspace serve --upstream-url`` with it and see, end to end, the context
the service sends a model (the system message numbering the passages ``[1] filename``)
and what the service makes of the model's answer (its annotations). The answer is looked
up by the model name and the text of the last user message; a question it has no answer
for gets :data:`UNKNOWN`. Plain (not streamed) chat completions only, which is what the
client sends unless asked to stream.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

__all__ = ["UNKNOWN", "ScriptedUpstream"]

UNKNOWN = "I do not know."
_USAGE = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}


class ScriptedUpstream:
    """The server. ``script[model][question]`` is the answer; ``contexts[(model,
    question)]`` the system message the service sent with that question ('' for none)."""

    def __init__(self, script: Mapping[str, Mapping[str, str]]) -> None:
        self.script = script
        self.contexts: dict[tuple[str, str], str] = {}
        self._ready = threading.Event()
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self.url = f"http://127.0.0.1:{self._sock.getsockname()[1]}/v1"
        app = Starlette(
            routes=[
                Route("/v1/chat/completions", self._chat, methods=["POST"]),
                Route("/v1/models", self._models, methods=["GET"]),
            ],
            lifespan=self._lifespan,
        )
        config = uvicorn.Config(app, log_level="warning", ws="none", http="h11", lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, args=([self._sock],))

    @asynccontextmanager
    async def _lifespan(self, _: Starlette) -> AsyncIterator[None]:
        self._ready.set()
        yield

    def start(self) -> ScriptedUpstream:
        self._thread.start()
        if not self._ready.wait(timeout=30):
            raise RuntimeError("the scripted upstream did not start within 30 s")
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=30)
        self._sock.close()

    async def _models(self, _: Request) -> Response:
        data = [{"id": m, "object": "model", "created": 1, "owned_by": "x"} for m in self.script]
        return JSONResponse({"object": "list", "data": data})

    async def _chat(self, request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        if body.get("stream"):
            return JSONResponse({"error": {"message": "streaming is not scripted"}}, 400)
        model = str(body.get("model"))
        messages = body.get("messages") or []
        question = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
        system = [m["content"] for m in messages if m["role"] == "system"]
        self.contexts[(model, question)] = "\n\n".join(system)
        content = self.script.get(model, {}).get(question, UNKNOWN)
        message = {"role": "assistant", "content": content}
        return JSONResponse(
            {
                "id": "scripted-1",
                "object": "chat.completion",
                "created": 1,
                "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": _USAGE,
            }
        )
