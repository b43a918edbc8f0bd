"""Streamed completions: server-sent events in, chunks out, the whole answer kept.

    >>> with client.chat.stream(messages=[{"content": "What is in my notes?"}]) as stream:
    ...     for chunk in stream:
    ...         print(chunk.choices[0].delta.content or "", end="")
    >>> stream.completion.usage.total_tokens

The response is closed when the loop ends, breaks, or raises, and by ``close()``. An
``error`` event (contract 1.2) raises :class:`~chatspace.errors.APIStreamError`; what
arrived before it stays in ``stream.text``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Generator, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

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

if TYPE_CHECKING:
    from ._async import AsyncClient
    from ._sync import Client

__all__ = ["AsyncChatStream", "ChatStream"]


class _Choice:
    __slots__ = ("annotations", "finish_reason", "parts", "role")

    def __init__(self) -> None:
        self.role: Any = "assistant"
        self.parts: list[str] = []
        self.annotations: list[Any] = []
        self.finish_reason: str | None = None


class _StreamState:
    """Decodes events and accumulates the answer; shared by both stream classes."""

    def __init__(self, call: Call) -> None:
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


class ChatStream(_StreamState):
    """A streamed completion; iterate it for :class:`ChatCompletionChunk` objects."""

    def __init__(self, client: Client, call: Call) -> None:
        super().__init__(call)
        self._client = client

    def open(self) -> None:
        """Send the request (done by the first iteration when not done before)."""
        if self._response is None:
            self._response = self._client._send(self._call)

    def __iter__(self) -> Iterator[ChatCompletionChunk]:
        # A generator of its own, so that a loop's ``break`` closes the response.
        if self.closed:
            return
        self.open()
        assert self._response is not None
        try:
            for line in self._response.iter_lines():
                yield from self._feed(line)
                if self.done:
                    break
        except httpx.TransportError as exc:
            raise self._broken(exc) from exc
        finally:
            self.close()

    def until_done(self) -> ChatCompletion:
        """Read the rest of the stream and return the whole answer."""
        for _ in self:
            pass
        completion = self.completion
        if completion is None:
            raise APIStreamError("The stream ended without any chunk.")
        return completion

    def close(self) -> None:
        self.closed = True
        if self._response is not None:
            self._response.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class AsyncChatStream(_StreamState):
    """A streamed completion for ``async for``; ``await`` it to send the request early."""

    def __init__(self, client: AsyncClient, call: Call) -> None:
        super().__init__(call)
        self._client = client

    async def open(self) -> Self:
        if self._response is None:
            self._response = await self._client._send(self._call)
        return self

    def __await__(self) -> Generator[Any, None, Self]:
        return self.open().__await__()

    async def __aiter__(self) -> AsyncIterator[ChatCompletionChunk]:
        if self.closed:
            return
        await self.open()
        assert self._response is not None
        try:
            async for line in self._response.aiter_lines():
                for chunk in self._feed(line):
                    yield chunk
                if self.done:
                    break
        except httpx.TransportError as exc:
            raise self._broken(exc) from exc
        finally:
            await self.close()

    async def until_done(self) -> ChatCompletion:
        async for _ in self:
            pass
        completion = self.completion
        if completion is None:
            raise APIStreamError("The stream ended without any chunk.")
        return completion

    async def close(self) -> None:
        self.closed = True
        if self._response is not None:
            await self._response.aclose()

    aclose = close

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()
