"""A scripted OpenAI-compatible model server: canned answers, and what it was sent.

It runs in the benchmark's own process, so a benchmark can configure ``chatspace serve
--upstream-url`` with it and see, end to end, the context the service sends a model (the
system message numbering the passages ``[1] filename``) and what the service makes of the
model's answer (its annotations). The answer is looked up by the model name and the text
of the last user message; a question it has no answer for gets :data:`UNKNOWN`. It is
given whole, or streamed as one chunk when the request asks for a stream (as the service
asks for every answer).

The server itself (uvicorn in a thread on 127.0.0.1, ``GET /v1/models``) is the tests'
:class:`support.upstream.FakeUpstream`; only the answers differ.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

# The tests' support code, imported as the tests import it (pytest's pythonpath).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.upstream import FakeUpstream, chunk, sse_event, stream_end

__all__ = ["UNKNOWN", "ScriptedUpstream"]

UNKNOWN = "I do not know."
_USAGE = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}


class ScriptedUpstream(FakeUpstream):
    """The server. ``script[model][question]`` is the answer; ``contexts[(model,
    question)]`` the system message the service sent with that question ('' for none)."""

    def __init__(self, script: Mapping[str, Mapping[str, str]]) -> None:
        super().__init__(models=list(script))
        self.script = script
        self.contexts: dict[tuple[str, str], str] = {}

    async def _chat(self, request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        model = str(body.get("model"))
        messages = body.get("messages") or []
        question = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
        system = [m["content"] for m in messages if m["role"] == "system"]
        self.contexts[(model, question)] = "\n\n".join(system)
        content = self.script.get(model, {}).get(question, UNKNOWN)
        if body.get("stream"):
            return StreamingResponse(_streamed(content), media_type="text/event-stream")
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


async def _streamed(content: str) -> AsyncIterator[bytes]:
    """``content`` as one chunk, then the finish reason and the usage, as OpenAI streams."""
    yield sse_event(chunk({"role": "assistant", "content": content}))
    for part in stream_end(_USAGE):
        yield part
