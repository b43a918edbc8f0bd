"""The async client: drives the shared request cycle with ``httpx.AsyncClient``.

Its resources are the very objects of :class:`~chatspace.client.Client`; here their
calls return awaitables. ``_async_types`` gives type checkers the async signatures.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import anyio
import httpx

from ._base import DEFAULT_HEADERS, DEFAULT_TIMEOUT, BaseClient, Flow
from ._call import Call
from ._errors import connection_error
from ._pagination import AsyncPage, Pager
from ._streaming import AsyncChatStream
from ._transfer import Download

if TYPE_CHECKING:
    from ._async_types import AsyncChat, AsyncFiles, AsyncModels, AsyncWorkspaces

__all__ = ["AsyncClient"]


class AsyncClient(BaseClient):
    """The chatspace client for ``async`` code; the same surface as :class:`Client`.

    >>> async with AsyncClient() as client:
    ...     answer = await client.chat.create(messages=[{"content": "Hello"}])
    ...     async for completion in client.chat.list():
    ...         print(completion.id)
    """

    _http: httpx.AsyncClient
    _http_class = httpx.AsyncClient
    if TYPE_CHECKING:
        chat: AsyncChat  # type: ignore[assignment]
        files: AsyncFiles  # type: ignore[assignment]
        models: AsyncModels  # type: ignore[assignment]
        workspaces: AsyncWorkspaces  # type: ignore[assignment]

    def _make_http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(timeout=DEFAULT_TIMEOUT, headers=DEFAULT_HEADERS)

    # ------------------------------------------------------------------ driving

    async def _send(self, call: Call) -> httpx.Response:
        flow: Flow = self._flow(call)
        action = next(flow)
        http = self._http
        while True:
            if isinstance(action, float):
                await anyio.sleep(action)
                action = flow.send(None)
                continue
            try:
                response = await http.send(action, stream=call.stream)
                if call.stream and response.status_code >= 400:
                    await response.aread()
            except httpx.TransportError as exc:
                action = flow.throw(exc)
                continue
            try:
                action = flow.send(response)
            except StopIteration as done:
                return done.value

    async def _request(self, call: Call) -> Any:
        """Send a call and return its parsed answer (following ``then``)."""
        upload = call.upload
        try:
            while isinstance(value := self._result(call, await self._send(call)), Call):
                call = value
            return value
        finally:
            if upload is not None:
                upload.close()

    async def _open_stream(self, call: Call) -> AsyncChatStream:
        stream = AsyncChatStream(self, call)
        await stream.open()
        return stream

    def _stream(self, call: Call) -> AsyncChatStream:
        return AsyncChatStream(self, call)

    def _page(self, pager: Pager[Any], call: Call) -> AsyncPage[Any]:
        return AsyncPage(self, pager, call)

    async def _download(self, call: Call, download: Download) -> Path:
        while True:
            response = await self._send(call)
            try:
                download.start(response)
                async for chunk in response.aiter_bytes():
                    download.write(chunk)
            except httpx.TransportError as exc:
                following = download.resume(call, self._retry.max_retries)
                if following is None:
                    download.abort()
                    raise connection_error(exc, response.request) from exc
                call = following
                continue
            except BaseException:
                download.abort()
                raise
            finally:
                await response.aclose()
            return download.commit()

    # ------------------------------------------------------------------ lifetime

    async def close(self) -> None:
        """Close the connection pool (unless it was given, or shared by ``with_options``)."""
        if self._owns_http:
            await self._http.aclose()

    aclose = close

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
