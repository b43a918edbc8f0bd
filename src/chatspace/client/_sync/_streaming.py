# Generated from _async/_streaming.py by scripts/unasync_client.py; do not edit.
"""A streamed completion read as it arrives (see ``chatspace.client._streaming``)."""

from __future__ import annotations

from collections.abc import Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import httpx
from httpx_sse import EventSource

from chatspace.client._call import Call
from chatspace.client._streaming import StreamState
from chatspace.errors import APIStreamError
from chatspace.types import ChatCompletion, ChatCompletionChunk

if TYPE_CHECKING:
    from ._client import Client

__all__ = ["ChatStream"]


class ChatStream(StreamState):
    """A streamed completion; iterate it for :class:`ChatCompletionChunk` objects."""

    def __init__(self, client: Client, call: Call[Any]) -> None:
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
            for event in EventSource(self._response).iter_sse():
                yield from self._event(event.data)
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
