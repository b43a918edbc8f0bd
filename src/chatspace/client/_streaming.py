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
    CompletionUsage,
)

from ._call import Call
from ._errors import connection_error

__all__ = ["StreamState"]


class _Choice:
    __slots__ = ("annotations", "finish_reason", "parts", "role")

    def __init__(self) -> None:
        self.role: Any = "assistant"
        self.parts: list[str] = []
        self.annotations: list[Any] = []
        self.finish_reason: str | None = None


class StreamState:
    """Decodes events and accumulates the answer; shared by both stream classes."""

    def __init__(self, call: Call[Any]) -> None:
        self._call = call
        self._response: httpx.Response | None = None
        self._choices: dict[int, _Choice] = {}
        self._first: ChatCompletionChunk | None = None
        self._data: list[str] = []
        self.usage: CompletionUsage | None = None
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
                message=ChatCompletionMessage(
                    role=c.role, content="".join(c.parts), annotations=c.annotations
                ),
                finish_reason=c.finish_reason,
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
        )
        if self.done:
            self._final = completion
        return completion

    # ------------------------------------------------------------ decoding

    def _feed(self, line: str) -> Generator[ChatCompletionChunk, None, None]:
        """One line of the event stream; yields a chunk when an event completes."""
        if line:
            if line.startswith("data:"):
                value = line[5:]
                self._data.append(value[1:] if value.startswith(" ") else value)
            return  # comments (":"), event names and ids carry nothing we need
        if not self._data:
            return
        data = "\n".join(self._data)
        self._data = []
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
        for c in chunk.choices:
            state = self._choices.get(c.index)
            if state is None:
                state = self._choices[c.index] = _Choice()
            delta = c.delta
            if delta.role:
                state.role = delta.role
            if delta.content:
                state.parts.append(delta.content)
            if delta.annotations:
                state.annotations.extend(delta.annotations)
            if c.finish_reason:
                state.finish_reason = c.finish_reason

    def _broken(self, exc: httpx.TransportError) -> Exception:
        assert self._response is not None
        return connection_error(exc, self._response.request)

    def __repr__(self) -> str:
        state = "done" if self.done else "closed" if self.closed else "open"
        return f"<{type(self).__name__} {state} chars={len(self.text)}>"
