"""The client proper: drives the shared request cycle (``BaseClient._flow``) with httpx."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import anyio
import httpx

from chatspace.client._base import DEFAULT_HEADERS, DEFAULT_TIMEOUT, BaseClient
from chatspace.client._call import Call
from chatspace.client._errors import connection_error
from chatspace.client._pagination import Pager
from chatspace.client._transfer import Download

from ._pagination import AsyncPage
from .resources import AsyncChat, AsyncFiles, AsyncModels, AsyncWorkspaces

__all__ = ["AsyncClient"]

R = TypeVar("R")
T = TypeVar("T")


class AsyncClient(BaseClient[httpx.AsyncClient]):
    """The chatspace client.

    >>> async with AsyncClient() as client:  # no base URL anywhere: the embedded service
    ...     answer = await client.chat.create(messages=[{"role": "user", "content": "Hi"}])
    ...     print(answer.text)
    ...     async for completion in client.chat.list():
    ...         print(completion.id)

    Settings come from the arguments, then ``CHATSPACE_BASE_URL``,
    ``CHATSPACE_BETA_BASE_URL`` (with ``beta=True``), ``CHATSPACE_TOKEN`` and
    ``CHATSPACE_WORKSPACE``; ``client.config`` shows them and where each came from.
    ``token`` may be a callable, asked again once after a 401.
    """

    chat: AsyncChat
    files: AsyncFiles
    models: AsyncModels
    workspaces: AsyncWorkspaces
    _http_class = httpx.AsyncClient

    def _make_http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(timeout=DEFAULT_TIMEOUT, headers=DEFAULT_HEADERS)

    def _bind_resources(self) -> None:
        self.chat = AsyncChat(self)
        self.files = AsyncFiles(self)
        self.models = AsyncModels(self)
        self.workspaces = AsyncWorkspaces(self)

    # ------------------------------------------------------------------ driving

    async def _send(self, call: Call[Any]) -> httpx.Response:
        """The final answer to ``call``, after the retries the request cycle asks for."""
        flow = self._flow(call)
        action = next(flow)
        while True:
            if isinstance(action, float):
                await anyio.sleep(action)
                action = flow.send(None)
                continue
            try:
                response = await self._http.send(action, stream=call.stream)
                if call.stream and response.status_code >= 400:
                    await response.aread()
            except httpx.TransportError as exc:
                action = flow.throw(exc)
                continue
            try:
                action = flow.send(response)
            except StopIteration as done:
                final: httpx.Response = done.value
                return final

    async def _request(self, call: Call[R]) -> R:
        """Send a call and return its parsed answer."""
        try:
            response = await self._send(call)
            return call.parse(response.content)
        finally:
            if call.upload is not None:
                call.upload.close()

    def _page(self, pager: Pager[T], call: Call[Any]) -> AsyncPage[T]:
        # The sync client fetches the first page here, so that errors surface at the call;
        # an async page waits until it is awaited or iterated.
        return AsyncPage(self, pager, call)  # unasync: return SyncPage(self, pager, call)._fetch()

    async def _download(self, call: Call[Any], download: Download) -> Path:
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

    aclose = close  # unasync: remove

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
