"""A streamed completion read as it arrives (see ``chatspace.client._streaming``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import httpx
from httpx_sse import EventSource

from chatspace.client._call import Call
from chatspace.client._streaming import StreamState
from chatspace.errors import APIStreamError
from chatspace.types import ChatCompletion, ChatCompletionChunk

if TYPE_CHECKING:
    from ._client import AsyncClient

__all__ = ["AsyncChatStream"]


class AsyncChatStream(StreamState):
    """A streamed completion; iterate it for :class:`ChatCompletionChunk` objects."""

    def __init__(self, client: AsyncClient, call: Call[Any]) -> None:
        super().__init__(call)
        self._client = client

    async def open(self) -> Self:  # unasync: def open(self) -> None:
        """Send the request (done by the first iteration when not done before)."""
        if self._response is None:
            self._response = await self._client._send(self._call)
        return self  # unasync: remove

    def __await__(self) -> Generator[Any, None, Self]:  # unasync: remove
        """Send the request now: ``stream = await client.chat.stream(...)``."""  # unasync: remove
        return self.open().__await__()  # unasync: remove

    async def __aiter__(self) -> AsyncIterator[ChatCompletionChunk]:
        # A generator of its own, so that a loop's ``break`` closes the response.
        if self.closed:
            return
        await self.open()
        assert self._response is not None
        try:
            async for event in EventSource(self._response).aiter_sse():
                for chunk in self._event(event.data):
                    yield chunk
                if self.done:
                    break
        except httpx.TransportError as exc:
            raise self._broken(exc) from exc
        finally:
            await self.close()

    async def until_done(self) -> ChatCompletion:
        """Read the rest of the stream and return the whole answer."""
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

    aclose = close  # unasync: remove

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()
