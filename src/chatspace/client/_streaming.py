"""Streamed completions: server-sent events in, chunks out, the whole answer kept.

    >>> with client.chat.stream(messages=[{"content": "What is in my notes?"}]) as stream:
    ...     for chunk in stream:
    ...         print(chunk.choices[0].delta.content or "", end="")
    >>> stream.completion.usage.total_tokens

The response is closed when the loop ends, breaks, or raises, and by ``close()``. An
``error`` event (docs/interface.md#streaming) raises :class:`~chatspace.errors.APIStreamError`; what
arrived before it stays in ``stream.text``.

The stream classes (``AsyncChatStream``, and ``ChatStream`` generated from it) are in
``_async/`` and ``_sync/``; the decoding and the answer they share are here.
"""

from __future__ import annotations

import json
from collections.abc import Generator
from typing import Any

import httpx

from chatspace.errors import APIStreamError
from chatspace.types import (
    ChatCompletion,
    ChatCompletionChoice,
    ChatCompletionChunk,
    ChatCompletionMessage,
    ChunkChoice,
    CompletionUsage,
    LogProbs,
)

from ._call import Call
from ._errors import connection_error

__all__ = ["StreamState"]


class _Choice:
    """One choice as its chunks arrive: text, annotations, tool calls and log probabilities."""

    __slots__ = (
        "annotations",
        "calls",
        "finish_reason",
        "function_call",
        "logprobs",
        "parts",
        "role",
    )

    def __init__(self) -> None:
        self.role: Any = "assistant"
        self.parts: list[str] = []
        self.annotations: list[Any] = []
        self.finish_reason: str | None = None
        self.calls: dict[int, dict[str, Any]] = {}
        self.function_call: dict[str, str] | None = None
        self.logprobs: list[dict[str, Any]] | None = None

    def take(self, choice: ChunkChoice) -> None:
        """Add one chunk's piece of this choice."""
        delta = choice.delta
        if delta.role:
            self.role = delta.role
        if delta.content:
            self.parts.append(delta.content)
        if delta.annotations:
            self.annotations.extend(delta.annotations)
        for piece in delta.tool_calls or []:
            self._take_call(piece)
        if delta.function_call:
            legacy = self.function_call = self.function_call or {"name": "", "arguments": ""}
            legacy["name"] += delta.function_call.get("name") or ""
            legacy["arguments"] += delta.function_call.get("arguments") or ""
        if choice.logprobs is not None and choice.logprobs.content:
            self.logprobs = [*(self.logprobs or []), *choice.logprobs.content]
        if choice.finish_reason:
            self.finish_reason = choice.finish_reason

    def _take_call(self, piece: dict[str, Any]) -> None:
        """A piece of a tool call: the first names it (``id``, ``function.name``), every
        piece adds to ``function.arguments`` (the OpenAI API's streamed tool calls)."""
        empty = {"id": "", "type": "function", "function": {"name": "", "arguments": ""}}
        call = self.calls.setdefault(int(piece.get("index", len(self.calls))), empty)
        call["id"] = piece.get("id") or call["id"]
        call["type"] = piece.get("type") or call["type"]
        function = piece.get("function") or {}
        call["function"]["name"] += function.get("name") or ""
        call["function"]["arguments"] += function.get("arguments") or ""

    def message(self) -> ChatCompletionMessage:
        return ChatCompletionMessage.folded(
            self.parts,
            annotations=self.annotations,
            calls=self.calls,
            function_call=self.function_call,
            role=self.role,
        )


class StreamState:
    """Decodes events and accumulates the answer; shared by both stream classes."""

    def __init__(self, call: Call[Any]) -> None:
        self._call = call
        self._response: httpx.Response | None = None
        self._choices: dict[int, _Choice] = {}
        self._first: ChatCompletionChunk | None = None
        self.usage: CompletionUsage | None = None
        self.perception_usage: CompletionUsage | None = None
        self._final: ChatCompletion | None = None
        self.done = False
        self.closed = False

    # ------------------------------------------------------------ what arrived

    @property
    def text(self) -> str:
        """The text of the first choice received so far."""
        choice = self._choices.get(0)
        return "".join(choice.parts) if choice else ""

    @property
    def finish_reason(self) -> str | None:
        choice = self._choices.get(0)
        return choice.finish_reason if choice else None

    @property
    def completion(self) -> ChatCompletion | None:
        """The answer assembled from the chunks so far (complete once the stream ended).

        ``usage`` is zero when the service sent none (``stream_options`` without
        ``include_usage``).
        """
        first = self._first
        if first is None:
            return None
        if self._final is not None:
            return self._final
        choices = [
            ChatCompletionChoice(
                index=index,
                message=c.message(),
                finish_reason=c.finish_reason,
                logprobs=None if c.logprobs is None else LogProbs(content=c.logprobs),
            )
            for index, c in sorted(self._choices.items())
        ]
        usage = self.usage or CompletionUsage(prompt_tokens=0, completion_tokens=0, total_tokens=0)
        completion = ChatCompletion(
            id=first.id,
            created=first.created,
            model=first.model,
            system_fingerprint=first.system_fingerprint,
            choices=choices,
            usage=usage,
            perception_usage=self.perception_usage,
        )
        if self.done:
            self._final = completion
        return completion

    # ------------------------------------------------------------ decoding

    def _event(self, data: str) -> Generator[ChatCompletionChunk, None, None]:
        """The ``data`` of one server-sent event (decoded by ``httpx-sse``); yields its
        chunk. Event names, ids and comments carry nothing needed here."""
        if not data:
            return
        if data == "[DONE]":
            self.done = True
            return
        if data.startswith('{"error"'):
            self._raise_error(data)
        chunk = ChatCompletionChunk.model_validate_json(data)
        self._take(chunk)
        yield chunk

    def _raise_error(self, data: str) -> None:
        error = json.loads(data).get("error") or {}
        message = error.get("message") if isinstance(error, dict) else str(error)
        kind = error.get("type") if isinstance(error, dict) else None
        self.done = True
        received = len(self.text)
        raise APIStreamError(
            f"The stream failed after {received} characters: {message or 'unknown error'}. "
            "The text so far is in stream.text; ask again to get a whole answer.",
            error_type=kind,
        )

    def _take(self, chunk: ChatCompletionChunk) -> None:
        if self._first is None:
            self._first = chunk
        if chunk.usage is not None:
            self.usage = chunk.usage
        if chunk.perception_usage is not None:
            self.perception_usage = chunk.perception_usage
        for c in chunk.choices:
            self._choices.setdefault(c.index, _Choice()).take(c)

    def _broken(self, exc: httpx.TransportError) -> Exception:
        assert self._response is not None
        return connection_error(exc, self._response.request)

    def __repr__(self) -> str:
        state = "done" if self.done else "closed" if self.closed else "open"
        return f"<{type(self).__name__} {state} chars={len(self.text)}>"
