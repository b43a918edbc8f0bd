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
``first-held`` the first request answers nothing until the server stops; every later
               one answers as ``echo`` (a request cut by its replica's death, retried)
``midstream``  streams two pieces of ``REPLY``, then an error event
``stall``      streams two pieces of ``REPLY``, then nothing until the server stops
``framed``     streams as ``echo`` does, framed as other servers frame events: CRLF line
               ends (cut between writes), comments, ``event``/``id``/``retry`` fields,
               events without data, each chunk's JSON over several ``data`` lines
``meta``       a JSON object of metadata in a Markdown fence (``META``); a request
               whose text says "garble" gets prose instead
``tools``      calls ``get_weather`` (``CALL``; with ``functions``, the legacy
               ``function_call``), streamed as deltas with the arguments in pieces;
               once the last message is a tool (or function) result, answers
               ``"It is <result>."``
``logprobs``   answers ``REPLY`` with one log probability per piece (``LOGPROBS``)
``erroring``   HTTP 400 with an OpenAI error whose message names the key and address
``denied``     HTTP 401 with an OpenAI error
``missing``    HTTP 404 with an OpenAI error, as a server that does not know the model
``looping``    streams a summary that becomes a numbered list of the same line, numbers
               aside, as a small model falls into a loop; it goes on (up to
               ``LOOP_LIMIT`` lines) until the stream is closed, noted in ``loop_ends``
=============  ===============================================================
"""

from __future__ import annotations

import asyncio
import json
import queue
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

__all__ = [
    "ARGUMENTS",
    "CALL",
    "LOGPROBS",
    "LOOP_LIMIT",
    "LOOP_START",
    "META",
    "PIECES",
    "REPLY",
    "USAGE",
    "FakeUpstream",
    "closed_port",
]

PIECES = ["Noted: the Sahara is ", "the largest hot desert [1] ", "and [7]."]
REPLY = "".join(PIECES)
USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
META = {"summary": "A file about deserts.", "pages": 1}
ARGUMENT_PIECES = ['{"city": ', '"Paris"', "}"]
ARGUMENTS = "".join(ARGUMENT_PIECES)
CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "get_weather", "arguments": ARGUMENTS},
}
LOOP_START = "The contract sets these terms:\n1. Annual fee of EUR 184,000.\n"
LOOP_LIMIT = 2_000
LOGPROBS = [{"token": p, "logprob": -0.5, "bytes": None, "top_logprobs": []} for p in PIECES]


def closed_port() -> int:
    """A port of 127.0.0.1 that nothing listens on (taken, then given back)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def sse_event(data: Any) -> bytes:
    """One server-sent event of ``data`` as JSON, as OpenAI frames them."""
    return f"data: {json.dumps(data)}\n\n".encode()


def chunk(delta: dict[str, Any], finish: str | None = None, logprobs: Any = None) -> dict[str, Any]:
    """A ``chat.completion.chunk`` of one choice."""
    choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": logprobs}
    head = {"id": "up-1", "object": "chat.completion.chunk", "created": 1, "model": "x"}
    # OpenAI's API sends the fingerprint in every chunk
    return {**head, "system_fingerprint": "fp-upstream", "choices": [choice]}


def stream_end(usage: dict[str, Any] | None) -> list[bytes]:
    """The end of a stream as OpenAI sends it: the finish reason, the usage chunk (``None``:
    not asked for), ``[DONE]``."""
    end = [sse_event(chunk({}, "stop"))]
    if usage is not None:
        end.append(
            sse_event(
                {"id": "up-1", "object": "chat.completion.chunk", "choices": [], "usage": usage}
            )
        )
    return [*end, b"data: [DONE]\n\n"]


class FakeUpstream:
    """The server; ``requests`` holds ``{"headers", "body"}`` of each request received."""

    def __init__(
        self,
        models: list[str] | None = None,
        key: str | None = None,
        pieces: list[str] | None = None,
    ) -> None:
        self.models = models or ["echo"]
        self.pieces = pieces or PIECES
        """What the plain answer says (joined) and the stream sends (``PIECES``)."""
        """What ``GET /v1/models`` lists (the discovery tests)."""
        self.key = key
        """When set, ``GET /v1/models`` answers 401 to any other bearer token."""
        self.models_delay = 0.0
        """Seconds ``GET /v1/models`` takes (a remote endpoint, slow to list its models)."""
        self.requests: list[dict[str, Any]] = []
        self.loop_ends: queue.Queue[int] = queue.Queue()
        """How many lines each ``looping`` stream sent before it was closed (or ended)."""
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._release: asyncio.Event | None = None
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

    def _count(self, model: str) -> int:
        return sum(r["body"].get("model") == model for r in self.requests)

    def last(self, model: str) -> dict[str, Any]:
        """The last request received for ``model``."""
        return next(r for r in reversed(self.requests) if r["body"].get("model") == model)

    async def _models(self, request: Request) -> Response:
        await asyncio.sleep(self.models_delay)
        if self.key is not None and request.headers.get("authorization") != f"Bearer {self.key}":
            return JSONResponse({"error": {"message": "bad key"}}, status_code=401)
        data = [{"id": m, "object": "model", "created": 1, "owned_by": "x"} for m in self.models]
        return JSONResponse({"object": "list", "data": data})

    async def _chat(self, request: Request) -> Response:
        body = await request.json()
        self.requests.append({"headers": dict(request.headers), "body": body})
        model = body.get("model")
        if model == "broken":
            return JSONResponse({"error": {"message": "boom"}}, status_code=500)
        if model == "erroring":
            key = request.headers.get("authorization", "").removeprefix("Bearer ")
            message = f"Context too long for key {key} at {self.url}.\nTrim the messages."
            return JSONResponse({"error": {"message": message, "type": "x"}}, status_code=400)
        if model == "denied":
            return JSONResponse({"error": {"message": "Incorrect API key provided."}}, 401)
        if model == "missing":
            return JSONResponse({"error": {"message": "The model `missing` does not exist."}}, 404)
        if model == "tools":
            return self._tools(body)
        if model == "garbage":
            return PlainTextResponse("<html>upstream proxy error</html>")
        if model == "hang" or (model == "first-held" and self._count(model) == 1):
            assert self._release is not None
            await self._release.wait()
            return JSONResponse({})
        if model == "meta":
            text = json.dumps(body["messages"])
            content = "Sorry, no." if "garble" in text else f"```json\n{json.dumps(META)}\n```"
            return JSONResponse(self._completion(content))
        if model == "looping":
            return StreamingResponse(self._looping(), media_type="text/event-stream")
        if body.get("stream"):
            events = self._framed(body) if model == "framed" else self._stream(body)
            return StreamingResponse(events, media_type="text/event-stream")
        if model == "logprobs":
            return JSONResponse(self._completion(REPLY, logprobs={"content": LOGPROBS}))
        return JSONResponse(self._completion("".join(self.pieces)))

    @staticmethod
    def _completion(content: str | None, finish: str = "stop", **more: Any) -> dict[str, Any]:
        message = {"role": "assistant", "content": content} | more.pop("message", {})
        return {
            "id": "up-1",
            "object": "chat.completion",
            "created": 1,
            "model": "x",
            "system_fingerprint": "fp-upstream",
            "choices": [{"index": 0, "message": message, "finish_reason": finish, **more}],
            "usage": USAGE,
        }

    def _tools(self, body: dict[str, Any]) -> Response:
        """A call of ``get_weather``, or the answer once its result came back."""
        last = body["messages"][-1]
        if last["role"] in ("tool", "function"):
            return JSONResponse(self._completion(f"It is {last['content']}."))
        legacy = "functions" in body
        if body.get("stream"):
            return StreamingResponse(self._call_stream(legacy), media_type="text/event-stream")
        if legacy:
            call = {"function_call": CALL["function"]}
            return JSONResponse(self._completion(None, "function_call", message=call))
        message = {"tool_calls": [CALL]}
        return JSONResponse(self._completion(None, "tool_calls", message=message))

    @staticmethod
    async def _call_stream(legacy: bool) -> AsyncIterator[bytes]:
        """The call as the OpenAI API streams it: its name first, then its arguments."""
        for i, piece in enumerate(ARGUMENT_PIECES):
            function = (
                {"name": "get_weather", "arguments": piece} if i == 0 else {"arguments": piece}
            )
            if legacy:
                delta: dict[str, Any] = {"function_call": function}
            else:
                head = {"id": CALL["id"], "type": "function"} if i == 0 else {}
                delta = {"tool_calls": [{"index": 0, **head, "function": function}]}
            yield sse_event(chunk({"role": "assistant", **delta} if i == 0 else delta))
        yield sse_event(chunk({}, "function_call" if legacy else "tool_calls"))
        yield b"data: [DONE]\n\n"

    async def _framed(self, body: dict[str, Any]) -> AsyncIterator[bytes]:
        """``echo``'s stream as servers other than OpenAI's may frame it (model ``framed``)."""
        yield b": keep-alive\r\n\r\nretry: 3000\r\n\r\nevent: ping\r\n\r"
        yield b"\n"  # the blank line's CRLF cut between two writes
        async for event in self._stream(body):
            data = event.decode().removeprefix("data: ").removesuffix("\n\n")
            lines = (
                json.dumps(json.loads(data), indent=1).splitlines() if data != "[DONE]" else [data]
            )
            framed = "event: message\r\nid: 7\r\n" + "".join(f"data: {x}\r\n" for x in lines)
            yield f"{framed}\r\n".encode()

    async def _looping(self) -> AsyncIterator[bytes]:
        """``looping``'s stream: one line per chunk, each yielding to the event loop so that
        a closed stream is seen, as a model's server sees it between two tokens."""
        sent = 0
        try:
            yield sse_event(chunk({"role": "assistant", "content": LOOP_START}))
            for sent in range(2, LOOP_LIMIT):
                line = f"{sent}. On-time delivery guarantee of EUR {sent * 2}% of the fee\n"
                yield sse_event(chunk({"content": line}))
                await asyncio.sleep(0)
            for part in stream_end(None):
                yield part
        finally:
            self.loop_ends.put(sent)

    async def _stream(self, body: dict[str, Any]) -> AsyncIterator[bytes]:
        yield sse_event(chunk({"role": "assistant", "content": ""}))
        pieces = self.pieces[:2] if body["model"] in ("midstream", "stall") else self.pieces
        for i, piece in enumerate(pieces):
            logprobs = {"content": [LOGPROBS[i]]} if body["model"] == "logprobs" else None
            yield sse_event(chunk({"content": piece}, logprobs=logprobs))
        if body["model"] == "stall":
            assert self._release is not None
            await self._release.wait()
            return
        if body["model"] == "midstream":
            yield sse_event({"error": {"message": "model crashed", "type": "server_error"}})
            return
        asked = (body.get("stream_options") or {}).get("include_usage")
        for part in stream_end(USAGE if asked else None):
            yield part
